"""Peek: a two-player card game with hidden information, for testing the house (not a product game).

Six cards 1..6 are dealt face down by chance: one to each hand, four to a pile. Each seat takes
one turn, seat 0 first: it may peek at the pile's top card once, then stays or swaps its card
for the pile's top card (its old card goes face down to a discard). The higher card wins.
A seat knows its own hand, what it peeked at, what it discarded; never the other hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.state import CHANCE, TERMINAL, GameState

CARDS = tuple(range(1, 7))
UNKNOWN = 0
DEAL_ORDER = ("hand0", "hand1", "pile0", "pile1", "pile2", "pile3")
KINDS = ("deal", "peek", "stay", "swap")


@dataclass(frozen=True, order=True)
class Move:
    kind: str          # "deal" (chance), "peek", "stay", "swap"
    card: int = 0      # the card dealt


class PeekState(GameState[Move]):
    hidden_information = True

    def __init__(self) -> None:
        self.cards: dict[str, int] = {}               # location -> card (UNKNOWN when redacted)
        self.known: list[set[str]] = [set(), set()]   # per seat, locations it has seen
        self.turn = 0                                 # seat to act; 2 when both have acted
        self.peeked = False                           # the seat to act has peeked this turn
        self.top = 3                                  # index of the pile's top card
        self.discards = 0
        self.dealt = 0

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if self.dealt < len(DEAL_ORDER):
            return CHANCE
        return TERMINAL if self.turn >= 2 else self.turn

    def _undealt(self) -> list[int]:
        return sorted(set(CARDS) - set(self.cards.values()))  # never redacted while dealing

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.current_player() != CHANCE:
            return []
        cards = self._undealt()
        return [(Move("deal", c), 1 / len(cards)) for c in cards]

    def legal_actions(self) -> list[Move]:
        if self.current_player() < 0:
            return []
        moves = [Move("stay"), Move("swap")]
        if not self.peeked:
            moves.insert(0, Move("peek"))
        return moves

    def reveals(self, action: Move) -> bool:
        return action.kind in ("peek", "swap")

    def apply_unchecked(self, action: Move) -> None:
        seat = self.turn
        if action.kind == "deal":
            location = DEAL_ORDER[self.dealt]
            self.cards[location] = action.card
            self.dealt += 1
            if location.startswith("hand"):
                self.known[int(location[-1])].add(location)
        elif action.kind == "peek":
            self.known[seat].add(f"pile{self.top}")
            self.peeked = True
        else:
            if action.kind == "swap":
                hand, top = f"hand{seat}", f"pile{self.top}"
                discard = f"discard{self.discards}"
                self.cards[discard] = self.cards[hand]
                self.cards[hand] = self.cards.pop(top)
                self.discards += 1
                self.top -= 1
                for seen in self.known:         # whoever saw the top card now knows that hand
                    if top in seen:
                        seen.discard(top)
                        seen.add(hand)
                    elif hand in seen:
                        seen.discard(hand)
                        seen.add(discard)
                self.known[seat] |= {hand, discard}
            self.turn += 1
            self.peeked = False

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.cards["hand0"] > self.cards["hand1"] else [-1.0, 1.0]

    # --- information ----------------------------------------------------------------------------
    def redacted(self, player: int) -> PeekState:
        other = self.clone()
        other.cards = {loc: (card if loc in self.known[player] else UNKNOWN)
                       for loc, card in self.cards.items()}
        other.known = [set(self.known[player]) if seat == player else set() for seat in range(2)]
        return other

    def notation_seen_by(self, notation: str, mover: int, seat: int | None) -> str:
        """A card dealt into a hand is seen by that hand's seat alone; the pile's by nobody."""
        if mover != CHANCE or (seat is not None and DEAL_ORDER[self.dealt] == f"hand{seat}"):
            return notation
        return "deal ?"

    def resample(self, player: int, rng: random.Random) -> PeekState:
        other = self.clone()
        unseen = [loc for loc in sorted(self.cards) if loc not in self.known[player]]
        seen = {self.cards[loc] for loc in self.known[player]}
        pool = [c for c in CARDS if c not in seen]
        for loc, card in zip(unseen, rng.sample(pool, len(unseen)), strict=True):
            other.cards[loc] = card
        # the other seat's own hand is known to it (its knowledge is made up, like its card)
        for seat in range(2):
            if seat != player:
                other.known[seat] = {loc for loc in self.cards if loc == f"hand{seat}"}
        return other

    # --- copies and notation ----------------------------------------------------------------------
    def clone(self) -> PeekState:
        other = PeekState.__new__(PeekState)
        other.cards = dict(self.cards)
        other.known = [set(k) for k in self.known]
        other.turn, other.peeked, other.top, other.discards = self.turn, self.peeked, self.top, self.discards
        other.dealt = self.dealt
        return other

    def to_dict(self) -> dict[str, Any]:
        return {"cards": dict(sorted(self.cards.items())), "known": [sorted(k) for k in self.known],
                "turn": self.turn, "peeked": self.peeked, "top": self.top, "discards": self.discards,
                "dealt": self.dealt}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PeekState:
        if not isinstance(data, dict):
            raise ValueError("a Peek state must be an object")
        state = cls()
        try:
            state.cards = {str(k): int(v) for k, v in data["cards"].items()}
            state.known = [set(map(str, k)) for k in data["known"]]
            state.turn, state.peeked = int(data["turn"]), bool(data["peeked"])
            state.top, state.discards = int(data["top"]), int(data["discards"])
            state.dealt = int(data["dealt"])
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise ValueError(f"bad Peek state: {error}") from None
        return state

    def action_to_str(self, action: Move) -> str:
        return f"deal {action.card}" if action.kind == "deal" else action.kind

    def action_from_str(self, text: str) -> Move:
        words = text.split()
        if words == ["deal", *words[1:]] and len(words) == 2 and words[1] in "123456":
            return Move("deal", int(words[1]))
        if len(words) == 1 and words[0] in KINDS[1:]:
            return Move(words[0])
        raise IllegalAction(f"{text!r} is not a Peek move (peek, stay, swap)")


def new_game() -> PeekState:
    return PeekState()
