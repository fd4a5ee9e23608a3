"""Bandida's computer players: a cooperative team of information-set MCTS searchers.

Each seat searches on its own information only: the controller gives it `state.redacted(seat)`,
and every iteration of the search deals the cards it cannot see at random (`resample`), never
peeking at another hand or the pile's order. Every seat maximises the team's common result, so
the team plays together without talking. A playout cut short is scored by how few exits stay
open and how many cards are left to close them (`team_evaluator`).

The search does not spread its budget over every legal placement (often fifty or more): it tries
the few that look best (`promising_moves`: fewest open exits left, the ladder and the super card
in as soon as they fit, never a tunnel stranded before a cell no card left can fill), more of
them the stronger the player. Budgets are counted in iterations, not seconds, so a player plays
as well on a busy machine as on an idle one (only slower); a generous clock cap guards against
a machine far slower than expected.
"""

from __future__ import annotations

from functools import partial

from simulator.core.agents import MCTSAgent, Strength
from simulator.core.state import Action, GameState
from simulator.games.bandida.rules import BandidaState, Move


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


def promising_moves(state: GameState, limit: int) -> list[Action]:
    """At most `limit` placements worth searching, best first by the playouts' score (open exits
    left; the ladder and the super card first), leaving out those that strand a tunnel while
    another placement does not; any other decision (swap, dynamite, discards): every legal move."""
    assert isinstance(state, BandidaState)
    if state.phase != "play":
        return list(state.legal_actions())
    best: dict[tuple[int, int, int, int, int], int] = {}
    for score, placement in state.scored_placements():
        if score < best.get(placement, 99):
            best[placement] = score
    if not best:
        return list(state.legal_actions())      # nothing fits: swap or pass
    ranked = sorted(best, key=lambda placement: (best[placement], placement))
    chosen: list[Action] = []
    for placement in ranked:
        if not state.strands_a_tunnel(placement):
            chosen.append(Move("place", *placement))
            if len(chosen) == limit:
                break
    return chosen or [Move("place", *ranked[0])]


def _mcts(iterations: int, depth: int | None, breadth: int) -> MCTSAgent:
    return MCTSAgent(iterations=iterations, time_limit=SAFETY_SECONDS, exploration=0.7,
                     playout_depth=depth, evaluator=team_evaluator,
                     candidates=partial(promising_moves, limit=breadth))


SAFETY_SECONDS = 30.0          # a cap that binds only on a machine far slower than this project's
# iterations, playout depth, placements searched. More than strong's did not play better, at six
# times the time (docs/bandida.md, with the commands that measure the strengths).
STRENGTHS = {
    "easy": Strength("easy", "Easy", lambda: _mcts(2, 8, 2)),
    "medium": Strength("medium", "Medium", lambda: _mcts(12, 12, 3)),
    "strong": Strength("strong", "Strong", lambda: _mcts(60, 40, 6)),
}
DEFAULT_STRENGTH = "medium"
