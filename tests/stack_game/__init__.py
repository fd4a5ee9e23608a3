"""Stack, a test game with slow outcome nodes; registers itself as 'stack' when imported."""

from __future__ import annotations

import random
import time

from simulator.core.agents import MCTSAgent, Strength
from simulator.core.outcomes import ThreadResolver
from simulator.core.registry import GameApp, GameInfo, GameRules, register
from stack_game import rules

RESOLVE_SECONDS = 0.05


def slow_referee(state: rules.StackState, rng: random.Random) -> rules.Result:
    """Stands in for a physics referee: takes a while, then decides with the seeded RNG."""
    time.sleep(RESOLVE_SECONDS)
    return state.sample_outcome(rng)


def _view() -> type:
    from stack_game.view import StackView
    return StackView


GAME = register(GameRules(
    GameInfo("stack", "Stack", "test game with slow outcomes", min_players=2, max_players=2,
             outcomes=True, on_menu=False),
    state_class=rules.StackState, create=lambda players: rules.new_game(),
    strengths={"easy": Strength("easy", "Easy", lambda: MCTSAgent(iterations=100))},
    default_strength="easy", resolver=lambda: ThreadResolver(slow_referee)), GameApp(view=_view))
