"""One conformance test for every registered, playable game (and the house's test games, which
cover chance, hidden information and outcome nodes): the checks simulator.testing ships, each
on its own so a failure names it."""

from __future__ import annotations

import dice_game  # noqa: F401  (registers the test games)
import peek_game  # noqa: F401
import pytest
import stack_game  # noqa: F401

from simulator import testing
from simulator.core import registry

GAMES = [g.name for g in registry.playable_games()]
CHECKS = [testing.check_random_games, testing.check_same_seed_same_game,
          testing.check_save_round_trip, testing.check_wrong_field_types,
          testing.check_refusals_are_one_line, testing.check_bad_settings,
          testing.check_endings, testing.check_dict_snapshots]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("name", GAMES)
def test_every_game_passes_the_shipped_conformance_checks(name, check):
    check(name)


def test_check_game_runs_every_check_it_ships():
    names = {n for n in testing.__all__ if n.startswith("check_") and n != "check_game"}
    assert names == {c.__name__ for c in CHECKS}


def test_the_checks_can_fail():
    """A game that breaks a promise is caught: peek's redaction made to show the other seat's
    hidden card, and a refusal that carries a line break."""
    import random

    state = registry.new_game("peek")
    rng = random.Random(0)
    while not state.is_decision_node():
        state.apply(state.random_action(rng))

    class Leaking(type(state)):               # type: ignore[misc]
        def redacted(self, player):
            return self.clone()               # shows what the seat may not see

        def clone(self):
            copy = Leaking.__new__(Leaking)
            copy.__dict__.update(super().clone().__dict__)
            return copy

    leaking = Leaking.__new__(Leaking)
    leaking.__dict__.update(state.__dict__)
    with pytest.raises(AssertionError, match="peek: seat .* is told something it may not see"):
        testing.check_information(leaking, rng, "peek")
    testing.check_information(state, rng, "peek")                 # the game itself keeps it
