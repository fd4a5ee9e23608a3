"""Buddel Bande computer players: information-set MCTS over the clans they do not know.

A computer player is given its redacted state, which holds what it has seen (its own moles with
`know_own`, the moles it looked under, the moles in the dens); the search deals the clans it
does not know again for every iteration (`BuddelState.resample`), so it plays for what it may
believe, never for what it cannot see. It always looks under the mole it moved: a look costs
nothing and is remembered, as the state keeps it.

Levels: easy and medium play every search game out at random to the end (few iterations:
noisy); strong plays 30 random steps (about eight turns) and scores the position by how far
each clan's moles have run (`progress_evaluator`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from simulator.core.agents import MCTSAgent, Strength
from simulator.core.state import Action, GameState
from simulator.games.buddel_bande.rules import DONE, IN_DEN, LOOK, LOOK_UNDER, PEEK, BuddelState

HOME_STEPS = 30          # what a mole in its den is worth, in holes run (the den entrance is 25)
SCALE = 20.0             # holes of lead that make a position nearly won


def progress_evaluator(state: GameState) -> list[float]:
    """Per seat in [-1, 1]: its clan's holes run (a mole at home counts HOME_STEPS) against the
    best other clan's. Used on full (determinized) states at the cut-off of a playout."""
    assert isinstance(state, BuddelState)
    scores = [0] * state.players
    for mole, clan in enumerate(state.clan):
        if clan >= 0:
            position = state.pos[mole]
            scores[clan] += HOME_STEPS if position == IN_DEN else position
    values = []
    for seat in range(state.players):
        best_other = max(scores[other] for other in range(state.players) if other != seat)
        values.append(math.tanh((scores[seat] - best_other) / SCALE))
    return values


@dataclass
class BuddelAgent:
    """MCTS for the moves; a look after every mole move, and Done after it, without search."""

    search: MCTSAgent = field(default_factory=MCTSAgent)

    def choose(self, state: GameState, rng: random.Random) -> Action:
        if isinstance(state, BuddelState):
            if state.phase == LOOK:
                return LOOK_UNDER
            if state.phase == PEEK:
                return DONE
        return self.search.choose(state, rng)


def _agent(iterations: int, time_limit: float, depth: int | None = None) -> BuddelAgent:
    search = MCTSAgent(iterations=iterations, time_limit=time_limit, exploration=1.0, playout_depth=depth,
                       evaluator=progress_evaluator if depth is not None else None)
    return BuddelAgent(search)


STRENGTHS = {
    "easy": Strength("easy", "Easy", lambda: _agent(8, 1.0)),
    "medium": Strength("medium", "Medium", lambda: _agent(30, 1.5)),
    "strong": Strength("strong", "Strong", lambda: _agent(200, 2.0, depth=30)),
}
DEFAULT_STRENGTH = "medium"
