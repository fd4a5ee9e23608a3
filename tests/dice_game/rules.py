"""Dice race: on your turn step 1 or 2, then a coin adds 0 or 1 (a chance move); first to 6 wins."""

from __future__ import annotations

from dataclasses import dataclass

from simulator.core.errors import IllegalAction
from simulator.core.state import CHANCE, TERMINAL, GameState

GOAL = 6


@dataclass(frozen=True, order=True)
class Step:
    n: int


class DiceState(GameState):

    def __init__(self) -> None:
        self.pos = [0, 0]
        self.turn = 0
        self.awaiting_coin = False

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if max(self.pos) >= GOAL:
            return TERMINAL
        return CHANCE if self.awaiting_coin else self.turn

    def legal_actions(self):
        if self.current_player() < 0:
            return []
        return [Step(1), Step(2)]

    def chance_outcomes(self):
        return [(Step(0), 0.5), (Step(1), 0.5)] if self.awaiting_coin else []

    def is_legal(self, action) -> bool:
        if self.awaiting_coin:
            return action in (Step(0), Step(1))
        return action in self.legal_actions()

    def apply_unchecked(self, action) -> None:
        self.pos[self.turn] += action.n
        if self.awaiting_coin:
            self.awaiting_coin = False
            self.turn = 1 - self.turn
        else:
            self.awaiting_coin = max(self.pos) < GOAL

    def returns(self):
        if max(self.pos) < GOAL:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.pos[0] >= GOAL else [-1.0, 1.0]

    def clone(self):
        other = DiceState()
        other.pos, other.turn, other.awaiting_coin = self.pos[:], self.turn, self.awaiting_coin
        return other

    def to_dict(self):
        return {"pos": list(self.pos), "turn": self.turn, "awaiting_coin": self.awaiting_coin}

    @classmethod
    def from_dict(cls, data):
        state = cls()
        try:
            state.pos = [int(p) for p in data["pos"]][:2]
            state.turn, state.awaiting_coin = int(data["turn"]) % 2, bool(data["awaiting_coin"])
        except (KeyError, TypeError, ValueError, OverflowError) as error:
            raise ValueError(f"bad dice state: {type(error).__name__}") from None
        if len(state.pos) != 2:
            raise ValueError("bad dice state: two positions")
        return state

    def action_to_str(self, action) -> str:
        return f"+{action.n}"

    def action_from_str(self, text: str):
        if not text.startswith("+") or text[1:] not in ("0", "1", "2"):
            raise IllegalAction(f"bad step {text!r}")
        return Step(int(text[1:]))


def new_game() -> DiceState:
    return DiceState()



