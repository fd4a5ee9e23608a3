"""The game protocol every game implements, and a base class with its shared defaults.

Modelled on OpenSpiel's State: whose turn (a seat index, CHANCE, OUTCOME or TERMINAL), sorted
legal actions, apply with validation, chance outcomes, returns, clone, JSON round trip, what
each player may know and a readable move notation. Actions are small frozen dataclasses; the state is
generic in its action type, so a game's overrides are type-checked against its own actions.

Three kinds of node decide what happens next:
- a seat's node: that player chooses one of `legal_actions()`;
- CHANCE: the controller draws one of `chance_outcomes()` with its seeded RNG, at once;
- OUTCOME: the result comes from outside the rules (the physics of a placement, a dice roll
  that lands on screen). `outcome_request()` says what is to be resolved; the controller hands
  it to the resolver it was given (core/outcomes.py) without blocking the window, and applies the
  result as an action, validated by `is_valid_outcome`. Search uses `sample_outcome(rng)`, the
  game's own fast model of that result.

Hidden information: `redacted(player)` is a state holding nothing that seat may not know: it is
all a computer player is ever given, and what a window shows that seat (the controller's
`visible_state`); `resample(player, rng)` turns such a state into a full state
consistent with what the seat has seen (a determinization), on which search can play. A player's
action that reveals something (a peek) says so through `reveals(action)`, and undo stops there.
The history's notations are redacted too: `notation_seen_by(notation, mover, seat)` is a move's
notation as a seat (or a spectator) may see it, e.g. "draw ?" for a card drawn into another
hand; what a host sends a seat that plays on another machine, with `redacted(seat)`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from simulator.core.action_fields import wrong_field
from simulator.core.errors import IllegalAction, Refusal
from simulator.core.text import printable

CHANCE = -1
TERMINAL = -2
OUTCOME = -3
REFUSAL_CHARACTERS = 240       # far above any refusal a game words itself

Action = Hashable
A = TypeVar("A", bound=Hashable)


class EndingCode(StrEnum):
    """Base of every ending code: a game's codes are the members of its own enum derived from
    this one (in the game's package), core's are `CoreEnding`'s. A member equals its string, so
    a code reads, compares and goes into JSON as the plain word it always was; a code that is
    not a member (a typo, a bare string) fails the type check and simulator.testing."""


class CoreEnding(EndingCode):
    """The ending codes of `GameState.ending`'s default."""

    WON = "won"                   # the winners' seats in `fields`
    NO_WINNER = "no_winner"


@dataclass(frozen=True)
class Ending:
    """Why a finished game ended: `code` and `fields` for views and logs, `text` to read."""

    code: EndingCode
    text: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict)


class GameState(ABC, Generic[A]):
    """Abstract game state over action type A. Subclasses implement the abstract methods."""

    #: True when some seat may not see all of the state (hands, face-down tiles, a draw pile)
    hidden_information: ClassVar[bool] = False
    #: keys of to_dict() that hold words for people (the last event, a reason): each version
    #: words them anew, so a loaded save's position is compared without them
    worded_keys: ClassVar[tuple[str, ...]] = ()
    #: keys of to_dict() a later version added, with the value an earlier version's position
    #: meant by leaving them out: a loaded save's position is compared with them filled in
    added_keys: ClassVar[dict[str, Any]] = {}

    # --- whose turn -------------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def current_player(self) -> int:
        """Seat index 0..n-1, or CHANCE, OUTCOME or TERMINAL."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_outcome_node(self) -> bool:
        return self.current_player() == OUTCOME

    def is_decision_node(self) -> bool:
        """A seat chooses here (not chance, not an outcome, not the end)."""
        return self.current_player() >= 0

    # --- actions ----------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Sorted, deterministic list of the actions the player to move may take."""

    def is_legal(self, action: A) -> bool:
        if self.is_outcome_node():
            return self.is_valid_outcome(action)
        if self.is_chance_node():
            return any(action == outcome for outcome, _ in self.chance_outcomes())
        return action in self.legal_actions()

    def ending(self) -> Ending | None:
        """Why the game ended, None while it goes on. By default who won ("won", the winners'
        seats in `fields`) or that nobody did ("no_winner"), `CoreEnding`'s; a game says more (which
        loss, and the cell that can never be closed)."""
        if not self.is_terminal():
            return None
        winners = tuple(self.winners())
        code = CoreEnding.WON if winners else CoreEnding.NO_WINNER
        return Ending(code, "", {"winners": winners})

    def refusal_of(self, action: A) -> Refusal:
        """Why `action` is refused here, with a code and fields where the game gives them;
        by default `illegal_reason`'s text alone."""
        return Refusal(self.illegal_reason(action))

    def illegal_reason(self, action: A) -> str:
        """Why `action` is illegal here; games override this with a more precise reason."""
        if self.is_terminal():
            return "the game is over"
        return f"{printable(self.action_to_str(action), 40)} is not a legal move now"

    def apply(self, action: A) -> None:
        """Apply a validated action; raises IllegalAction with a readable reason (also for an
        action of the game's own class with a field of the wrong type)."""
        if (wrong := wrong_field(action)) is not None:
            raise IllegalAction(f"not a move of this game: {wrong}")
        if self.is_terminal() or not self.is_legal(action):
            refused = self.refusal_of(action)
            # a reason may echo a forged field: printable, one line, for every game
            raise IllegalAction(replace(refused, text=printable(refused.text, REFUSAL_CHARACTERS)))
        self.apply_unchecked(action)

    @abstractmethod
    def apply_unchecked(self, action: A) -> None:
        """Apply an action known to be legal (used by search)."""

    def chance_outcomes(self) -> list[tuple[A, float]]:
        """(outcome, probability) pairs at a chance node; empty for games without chance."""
        return []

    def random_action(self, rng: random.Random) -> A:
        """A uniformly random legal action; at chance nodes drawn by probability, at outcome
        nodes from the game's model. Games override this with something faster for playouts."""
        if self.is_chance_node():
            outcomes = self.chance_outcomes()
            return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        if self.is_outcome_node():
            return self.sample_outcome(rng)
        return rng.choice(self.legal_actions())

    def random_playout_step(self, rng: random.Random) -> None:
        """One step of a random playout: `random_action` applied. A game whose playouts are the
        search's cost overrides it with something faster (a move picked without listing them
        all); it must play as `apply_unchecked(random_action(rng))` plays, in law."""
        self.apply_unchecked(self.random_action(rng))

    def reveals(self, action: A) -> bool:
        """True when this player's action shows a seat something it had not seen (a peek, a
        draw): undo cannot take it back. Chance and outcomes always reveal."""
        return False

    # --- outcome nodes ------------------------------------------------------------------------
    def outcome_request(self) -> dict[str, Any]:
        """At an outcome node, what the resolver is to decide (JSON-safe)."""
        return {}

    def is_valid_outcome(self, action: A) -> bool:
        """Whether `action` is a well-formed result for this outcome node."""
        return False

    def sample_outcome(self, rng: random.Random) -> A:
        """A result for this outcome node from the game's own model (search, instant tests)."""
        raise NotImplementedError(f"{type(self).__name__} has no model of its outcomes")

    # --- outcome ----------------------------------------------------------------------------
    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat, in [-1, 1]; meaningful at the end (all zeros before). A cooperative game
        gives every seat the same value, and a lost game may leave nobody with more than 0."""

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        returns = self.returns()
        best = max(returns)
        return [seat for seat, value in enumerate(returns) if value == best and value > 0]

    # --- copies and serialisation -------------------------------------------------------------
    @abstractmethod
    def clone(self) -> GameState[A]: ...

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description of the whole state: a snapshot, sharing nothing with the state
        (a save held in memory while the game goes on must not change with it)."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState[A]:
        """Inverse of to_dict; validates and raises ValueError saying what is wrong."""

    # --- information --------------------------------------------------------------------------
    def redacted(self, player: int) -> GameState[A]:
        """A copy holding only what `player` may know; what a computer player is given."""
        return self.clone()

    def watched(self) -> GameState[A] | None:
        """A copy holding only what every seat may know: what a watcher of a game played across
        machines is shown. A game with hidden information that does not say returns None, and
        takes no watchers."""
        return None if self.hidden_information else self.clone()

    def resample(self, player: int, rng: random.Random) -> GameState[A]:
        """A full state consistent with what `player` has seen, hidden parts drawn at random.
        Works on a redacted state (it must never need what `player` may not see)."""
        return self.clone()

    def notation_seen_by(self, notation: str, mover: int, seat: int | None) -> str:
        """The notation of a move made here (this is the state before it) by `mover` (a seat,
        CHANCE or OUTCOME), as `seat` may see it; `seat` None: a spectator, who sees only what
        every seat sees. A hidden part is replaced by a word every seat may see (a card game's
        "draw ?"): one printable line, which `action_from_str` need not read back, and which
        says no more than `seat` knows once the move is made (`redacted(seat)` after it). It
        depends on this state alone, never on what the seat learns later, so a host may send
        each entry once. By default the notation itself (perfect information)."""
        return notation

    def summary(self) -> str:
        """A few words that tell this game from others in a list of saves, e.g. '7x7'."""
        return ""

    # --- notation ---------------------------------------------------------------------------
    @abstractmethod
    def action_to_str(self, action: A) -> str: ...

    @abstractmethod
    def action_from_str(self, text: str) -> A:
        """Parse the notation of action_to_str; raises IllegalAction on bad text."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and type(other) is type(self) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]
