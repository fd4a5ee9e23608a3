"""Stack: a two-player game whose results come from outside the rules, for testing outcome nodes.

On a turn a seat stacks 1, 2 or 3 blocks; whether they stand is an OUTCOME node, decided by the
resolver the controller was given (in the house's tests a slow thread, as physics would be). A
stack that stands scores its height; the first seat to 5 points wins. The game's own model (for
search and instant play): a stack of h stands with probability 1 - h / 4.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.state import OUTCOME, TERMINAL, GameState

GOAL = 5


@dataclass(frozen=True, order=True)
class Stack:
    height: int


@dataclass(frozen=True, order=True)
class Result:
    stood: bool


StackAction = Stack | Result


def stand_probability(height: int) -> float:
    return 1.0 - height / 4.0


class StackState(GameState[StackAction]):

    def __init__(self) -> None:
        self.points = [0, 0]
        self.turn = 0
        self.pending: int = 0       # height of the stack awaiting its outcome, 0 when none

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if max(self.points) >= GOAL:
            return TERMINAL
        return OUTCOME if self.pending else self.turn

    def legal_actions(self) -> list[StackAction]:
        return [Stack(h) for h in (1, 2, 3)] if self.current_player() >= 0 else []

    def outcome_request(self) -> dict[str, Any]:
        return {"seat": self.turn, "height": self.pending} if self.pending else {}

    def is_valid_outcome(self, action: StackAction) -> bool:
        return isinstance(action, Result)

    def sample_outcome(self, rng: random.Random) -> Result:
        return Result(rng.random() < stand_probability(self.pending))

    def apply_unchecked(self, action: StackAction) -> None:
        if isinstance(action, Stack):
            self.pending = action.height
            return
        if action.stood:
            self.points[self.turn] += self.pending
        self.pending = 0
        self.turn = 1 - self.turn

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.points[0] >= GOAL else [-1.0, 1.0]

    def clone(self) -> StackState:
        other = StackState()
        other.points, other.turn, other.pending = self.points[:], self.turn, self.pending
        return other

    def to_dict(self) -> dict[str, Any]:
        return {"points": list(self.points), "turn": self.turn, "pending": self.pending}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StackState:
        state = cls()
        try:
            state.points = [int(p) for p in data["points"]]
            state.turn, state.pending = int(data["turn"]), int(data["pending"])
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"bad Stack state: {error}") from None
        return state

    def action_to_str(self, action: StackAction) -> str:
        if isinstance(action, Stack):
            return f"stack {action.height}"
        return "stood" if action.stood else "fell"

    def action_from_str(self, text: str) -> StackAction:
        if text in ("stood", "fell"):
            return Result(text == "stood")
        if text in ("stack 1", "stack 2", "stack 3"):
            return Stack(int(text[-1]))
        raise IllegalAction(f"{text!r} is not a Stack move")


def new_game() -> StackState:
    return StackState()
