"""Crowd, a test game for 1 to 20 seats (the house's seat counts): in turn each seat adds 1 or 2
to a shared count; whoever brings it to 3 x seats wins. Registers itself as 'crowd'."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.registry import GameApp, GameInfo, GameRules, register
from simulator.core.state import TERMINAL, GameState


@dataclass(frozen=True, order=True)
class Add:
    n: int


class CrowdState(GameState[Add]):

    def __init__(self, players: int) -> None:
        self.players, self.count, self.turn, self.winner = players, 0, 0, -1

    @property
    def num_players(self) -> int:
        return self.players

    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 else self.turn

    def legal_actions(self) -> list[Add]:
        return [Add(1), Add(2)] if self.winner < 0 else []

    def apply_unchecked(self, action: Add) -> None:
        self.count += action.n
        if self.count >= 3 * self.players:
            self.winner = self.turn
        self.turn = (self.turn + 1) % self.players

    def returns(self) -> list[float]:
        return [(1.0 if s == self.winner else -1.0) if self.winner >= 0 else 0.0 for s in range(self.players)]

    def clone(self) -> CrowdState:
        other = CrowdState(self.players)
        other.count, other.turn, other.winner = self.count, self.turn, self.winner
        return other

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "count": self.count, "turn": self.turn, "winner": self.winner}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CrowdState:
        state = cls(int(data["players"]))
        state.count, state.turn, state.winner = int(data["count"]), int(data["turn"]), int(data["winner"])
        return state

    def action_to_str(self, action: Add) -> str:
        return f"+{action.n}"

    def action_from_str(self, text: str) -> Add:
        if text in ("+1", "+2"):
            return Add(int(text[1]))
        raise IllegalAction(f"{text!r} is not +1 or +2")


def _view() -> type:
    from simulator.render.game_view import GameView

    class CrowdView(GameView):
        def prompt(self) -> str:
            return "Press 1 or 2."

    return CrowdView


GAME = register(GameRules(
    GameInfo("crowd", "Crowd", "test game for many seats", min_players=1, max_players=20, on_menu=False),
    state_class=CrowdState, create=lambda players: CrowdState(players)), GameApp(view=_view))
