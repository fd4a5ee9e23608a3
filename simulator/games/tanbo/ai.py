"""Tanbo computer players: MCTS presets, with a stone-count evaluator for cut-short playouts."""

from __future__ import annotations

import math

from simulator.core.agents import MCTSAgent, Strength
from simulator.core.state import GameState
from simulator.games.tanbo.rules import BLACK, WHITE, TanboState


def material_evaluator(state: GameState) -> list[float]:
    """Score in [-1, 1] for each seat from the stone difference (used at the playout cut-off)."""
    assert isinstance(state, TanboState)
    diff = state.stones_of(BLACK) - state.stones_of(WHITE)
    value = math.tanh(diff / 6.0)
    return [value, -value]


def _mcts(iterations: int, time_limit: float, name: str) -> MCTSAgent:
    return MCTSAgent(iterations=iterations, time_limit=time_limit, exploration=1.0,
                     playout_depth=None, evaluator=material_evaluator, name=name)


STRENGTHS = {
    "easy": Strength("easy", "Easy", lambda: _mcts(60, 0.25, "mcts:easy")),
    "medium": Strength("medium", "Medium", lambda: _mcts(400, 0.5, "mcts:medium")),
    "strong": Strength("strong", "Strong", lambda: _mcts(4000, 0.9, "mcts:strong")),
}
DEFAULT_STRENGTH = "medium"
