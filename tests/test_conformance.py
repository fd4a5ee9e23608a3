"""One conformance test for every registered, playable game (and the house's test games, which
cover chance, hidden information and outcome nodes): the checks simulator.testing ships, each
on its own so a failure names it."""

from __future__ import annotations

import dataclasses

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
          testing.check_endings, testing.check_dict_snapshots, testing.check_codes,
          testing.check_seen_notations]


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
    with pytest.raises(AssertionError, match=r"peek: seat .* is told something it may not see"):
        testing.check_information(leaking, rng, "peek")
    testing.check_information(state, rng, "peek")                 # the game itself keeps it


@pytest.mark.parametrize("name", ["peek", "bandida", "buddel_bande"])
def test_the_seen_notations_check_can_fail(monkeypatch, name):
    """A game that words a hidden deal, draw or arrangement alike for every seat is caught."""
    from simulator.core.state import GameState

    monkeypatch.setattr(registry.get_game(name).state_class, "notation_seen_by",
                        GameState.notation_seen_by)
    with pytest.raises(AssertionError, match=f"{name}: seat .* may not tell .* from .*, but is told"):
        testing.check_seen_notations(name)


@pytest.mark.parametrize("broken", ["refusal", "ending"])
def test_the_code_check_can_fail(broken):
    """A game that makes a code as a bare string, which a typo would be, is caught: Bandida
    made to give its refusals, or its ending, as the plain word its enum member stands for."""
    bandida = registry.get_game("bandida")
    base = bandida.state_class
    assert base is not None and bandida.create is not None
    make = bandida.create

    class BareCodes(base):                    # type: ignore[misc,valid-type]
        def refusal_of(self, action):
            refused = super().refusal_of(action)
            return dataclasses.replace(refused, code=str(refused.code)) if broken == "refusal" else refused

        def ending(self):
            ending = super().ending()
            if ending is None or broken != "ending":
                return ending
            return dataclasses.replace(ending, code=str(ending.code))

    def create(players, **settings):
        state = make(players, **settings)
        state.__class__ = BareCodes
        return state

    info = dataclasses.replace(bandida.info, name="bare_codes", on_menu=False)
    registry.register(dataclasses.replace(bandida, info=info, state_class=BareCodes, create=create))
    try:
        message = "the refusal code '.*' of .* is no RefusalCode" if broken == "refusal" else \
            "the ending's code '.*' is no EndingCode member"
        with pytest.raises(AssertionError, match=f"bare_codes: {message}"):
            testing.check_codes("bare_codes", seeds=[0])
    finally:
        registry.unregister("bare_codes")


def test_core_codes_are_members_with_their_old_words():
    """Core's own codes: a refusal given as text alone is 'illegal', the default ending 'won'
    or 'no_winner', each a member of core's enum that equals the word it always was."""
    from simulator.core.errors import CoreRefusal, IllegalAction, RefusalCode
    from simulator.core.state import CoreEnding, EndingCode

    assert IllegalAction("no").refusal.code is CoreRefusal.ILLEGAL == "illegal"
    assert isinstance(CoreRefusal.ILLEGAL, RefusalCode) and isinstance(CoreEnding.WON, EndingCode)
    assert (CoreEnding.WON, CoreEnding.NO_WINNER) == ("won", "no_winner")
