"""Bandida's computer players: a cooperative team of information-set MCTS searchers.

Each seat searches on its own information only: the controller gives it `state.redacted(seat)`,
and every iteration of the search deals the cards it cannot see at random (`resample`), never
peeking at another hand or the pile's order. Every seat maximises the team's common result, so
the team plays together without talking. A playout cut short is scored by how few exits stay
open and how many cards are left to close them (`team_evaluator`).
"""

from __future__ import annotations

from simulator.core.agents import MCTSAgent, Strength
from simulator.core.state import GameState
from simulator.games.bandida.rules import BandidaState


def team_evaluator(state: GameState) -> list[float]:
    """The team's prospects in [-1, 0.5] where a playout stops: fewer open exits are better, and
    cards left in hand and pile are the means to close them; a sure win (1) is worth more."""
    assert isinstance(state, BandidaState)
    if state.is_terminal():
        return state.returns()
    cards = state.pile_count() + sum(len(h) for h in state.hands)
    hope = max(0.0, min(1.0, 1.0 - 3.0 * state.exits / max(1, cards)))
    value = -1.0 + 1.5 * hope          # at best 0.5: a playout cut short never counts as a win
    return [value] * state.num_players


def _mcts(iterations: int, time_limit: float, depth: int | None, name: str) -> MCTSAgent:
    return MCTSAgent(iterations=iterations, time_limit=time_limit, exploration=0.7,
                     playout_depth=depth, evaluator=team_evaluator, name=name)


STRENGTHS = {
    "easy": Strength("easy", "Easy", lambda: _mcts(25, 0.3, 20, "mcts:easy")),
    "medium": Strength("medium", "Medium", lambda: _mcts(80, 0.8, 40, "mcts:medium")),
    "strong": Strength("strong", "Strong", lambda: _mcts(250, 2.0, None, "mcts:strong")),
}
DEFAULT_STRENGTH = "medium"
