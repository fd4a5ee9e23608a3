"""Tanbo computer players: MCTS presets, with a stone-count evaluator for cut-short playouts."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from simulator.core.agents import MCTSAgent, Strength
from simulator.core.state import Action, GameState
from simulator.games.tanbo.rules import BLACK, WHITE, TanboState


def material_evaluator(state: GameState) -> list[float]:
    """Score in [-1, 1] for each seat from the stone difference (used at the playout cut-off)."""
    assert isinstance(state, TanboState)
    diff = state.stones_of(BLACK) - state.stones_of(WHITE)
    value = math.tanh(diff / 6.0)
    return [value, -value]


SAFETY_SECONDS = 30.0   # a cap that binds only on a machine far slower than this project's
COST_EXPONENT = 1.2     # a playout's cost grows as the board's area to this power (fitted to
                        # the playout times of 7 x 7, 11 x 11 and 19 x 19 boards)


def playouts_for(playouts: int, reference_area: int, area: int) -> int:
    """The playouts searched on a board of `area` points: `playouts` up to `reference_area`, then
    fewer, so that a move costs about what it costs there. Counted, never timed, so a seed plays
    the same game on any machine."""
    if area <= reference_area:
        return playouts
    return max(1, round(playouts * (reference_area / area) ** COST_EXPONENT))


@dataclass
class TanboAgent:
    """UCT with a playout count scaled to the board (see `playouts_for`)."""

    playouts: int
    reference_area: int

    def choose(self, state: GameState, rng: random.Random) -> Action:
        assert isinstance(state, TanboState)
        iterations = playouts_for(self.playouts, self.reference_area, state.width * state.height)
        search = MCTSAgent(iterations=iterations, time_limit=SAFETY_SECONDS, exploration=1.0,
                           playout_depth=None, evaluator=material_evaluator)
        return search.choose(state, rng)


# playouts, and the board up to which they stay whole: Easy's 60 fit every board in 0.2 s,
# Medium's 400 take 0.37 s on 11 x 11 and Strong's 3000 take 0.9 s on 7 x 7 (2-core machine)
STRENGTHS = {
    "easy": Strength("easy", "Easy", lambda: TanboAgent(60, 19 * 19)),
    "medium": Strength("medium", "Medium", lambda: TanboAgent(400, 11 * 11)),
    "strong": Strength("strong", "Strong", lambda: TanboAgent(3000, 7 * 7)),
}
DEFAULT_STRENGTH = "medium"
