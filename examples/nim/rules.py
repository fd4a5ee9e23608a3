"""Nim's rules: heaps of stones; a move takes one or more stones from one heap; whoever takes
the last stone wins. Pure Python, as every game's rules are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.state import TERMINAL, GameState
from simulator.core.text import shown


@dataclass(frozen=True, order=True)
class Take:
    heap: int              # 0-based
    count: int


class NimState(GameState[Take]):
    def __init__(self, heaps: tuple[int, ...] = (1, 2, 3), to_move: int = 0) -> None:
        self.heaps = list(heaps)
        self.to_move = to_move
        self.last_taker = -1

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        return TERMINAL if not any(self.heaps) else self.to_move

    def legal_actions(self) -> list[Take]:
        if self.is_terminal():
            return []
        return [Take(h, n) for h, size in enumerate(self.heaps) for n in range(1, size + 1)]

    def illegal_reason(self, action: Take) -> str:
        if self.is_terminal():
            return "the game is over"
        if not 0 <= action.heap < len(self.heaps):
            return f"there are heaps 1 to {len(self.heaps)}"
        return f"heap {action.heap + 1} holds {self.heaps[action.heap]} stones; take 1 to that many"

    def apply_unchecked(self, action: Take) -> None:
        self.heaps[action.heap] -= action.count
        self.last_taker, self.to_move = self.to_move, 1 - self.to_move

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.last_taker == 0 else [-1.0, 1.0]

    def clone(self) -> NimState:
        other = NimState(tuple(self.heaps), self.to_move)
        other.last_taker = self.last_taker
        return other

    def to_dict(self) -> dict[str, Any]:
        return {"heaps": list(self.heaps), "to_move": self.to_move, "last_taker": self.last_taker}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NimState:
        heaps, to_move, last = data["heaps"], data["to_move"], data["last_taker"]
        if not (isinstance(heaps, list) and all(type(h) is int and 0 <= h <= 99 for h in heaps)
                and to_move in (0, 1) and last in (-1, 0, 1)):
            raise ValueError("not a Nim state")
        state = cls(tuple(heaps), to_move)
        state.last_taker = last
        return state

    def action_to_str(self, action: Take) -> str:
        return f"{action.count} from {action.heap + 1}"

    def action_from_str(self, text: str) -> Take:
        words = text.split()
        if len(words) != 3 or words[1] != "from" or not all(
                w.isascii() and w.isdigit() and len(w) < 4 for w in (words[0], words[2])):
            raise IllegalAction(f"{shown(text, 20)} is not a Nim move: write '2 from 3'")
        return Take(int(words[2]) - 1, int(words[0]))
