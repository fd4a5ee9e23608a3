"""The solo practice aid (games/bandu/practice.py): the stand rate of the release the ghost
shows, tried under hand tremor in a process of its own; refused outside one-player solo and
chain games; every record made with it marked, never a personal best."""

from __future__ import annotations

import os
import signal
import time

import pytest

from simulator.core.controller import PERSON, Seat, TurnController
from simulator.core.errors import SettingsError
from simulator.core.registry import get_game
from simulator.games.bandu.practice import (
    FALLS,
    HALF,
    STANDS,
    TRIALS,
    StandRate,
    StandRateProbe,
    stand_rate_colour,
)
from simulator.games.bandu.rules import Offer, Place


def _holding(piece: str) -> object:
    """A solo game where the person holds `piece` over their base."""
    state = get_game("bandu").new_game(1, {"variant": "solo"})
    state.apply(Offer(piece, "take"))
    assert state.phase == "place"
    return state


def _answer(probe: StandRateProbe, seconds: float = 120.0) -> StandRate:
    deadline = time.monotonic() + seconds
    while probe.answer is None or not probe.answer.complete:
        assert time.monotonic() < deadline, f"no complete answer: {probe.answer}"
        probe.poll()
        time.sleep(0.05)
    return probe.answer


def test_a_centred_cube_always_stands_and_one_off_the_edge_never_does():
    state = _holding("cube-large")
    probe = StandRateProbe()
    try:
        probe.ask(state, 0, Place("cube-large"))
        centred = _answer(probe)
        assert (centred.stood, centred.tried) == (TRIALS, TRIALS)
        probe.ask(state, 0, Place("cube-large", x_mm=70.0))     # centre 20 mm past the base's end
        overhanging = _answer(probe)
        assert (overhanging.stood, overhanging.tried) == (0, TRIALS)
        assert "stood 0 of 8 times with a 1 mm / 1 degree hand tremor" in overhanging.sentence()
    finally:
        probe.close()


def test_a_newer_question_replaces_the_older_and_the_same_question_is_not_asked_twice():
    state = _holding("cube-large")
    probe = StandRateProbe()
    try:
        probe.ask(state, 0, Place("cube-large", x_mm=70.0))
        probe.ask(state, 0, Place("cube-large"))            # at once: the first is abandoned
        assert _answer(probe).stood == TRIALS
        sent = probe.questions_sent
        probe.ask(state, 0, Place("cube-large"))
        assert probe.questions_sent == sent and probe.answer is not None   # nothing new asked
        probe.forget()
        assert probe.answer is None
    finally:
        probe.close()


def test_the_probe_restarts_when_its_process_died():
    state = _holding("cube-large")
    probe = StandRateProbe(trials=1)
    try:
        probe.ask(state, 0, Place("cube-large"))
        _answer(probe)
        os.kill(probe.process_id, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while probe.process_id is not None and time.monotonic() < deadline:
            probe.poll()                              # notices the dead pipe
            time.sleep(0.01)
        assert probe.process_id is None
        probe.ask(state, 0, Place("cube-large", x_mm=5.0))
        assert _answer(probe).stood == 1
    finally:
        probe.close()


def test_the_ghost_goes_from_red_through_amber_to_green():
    assert stand_rate_colour(0.0) == pytest.approx(FALLS)
    assert stand_rate_colour(0.5) == pytest.approx(HALF)
    assert stand_rate_colour(1.0) == pytest.approx(STANDS)
    assert stand_rate_colour(2.0) == pytest.approx(STANDS)
    greens = [stand_rate_colour(r / 8)[1] for r in range(9)]
    assert greens == sorted(greens)                     # greener as the rate grows


@pytest.mark.parametrize(("players", "settings"), [
    (2, {"variant": "standard", "practice_aid": True}),
    (2, {"variant": "chain", "practice_aid": True}),
    (1, {"variant": "standard", "practice_aid": "on"}),
])
def test_the_aid_is_refused_in_games_against_others(players, settings):
    with pytest.raises(SettingsError, match="practice aid is for one-player solo and chain games"):
        get_game("bandu").new_game(players, settings)


def test_the_aid_setting_reads_on_and_off_and_refuses_the_rest():
    game = get_game("bandu")
    for value in (True, "on", "ON", 1, "true", False, "off", 0):
        assert game.new_game(1, {"variant": "solo", "practice_aid": value}).variant == "solo"
    with pytest.raises(SettingsError, match="practice_aid must be on or off"):
        game.new_game(1, {"variant": "solo", "practice_aid": "maybe"})


def _finished_solo(settings: dict) -> TurnController:
    controller = TurnController(get_game("bandu"), settings, [Seat(PERSON)], seed=3)
    controller.submit(Offer("cube-large", "take"))
    controller.submit(Place("cube-large", x_mm=90.0))        # off the base's end: it falls
    controller.play_computer_moves()                          # the physics referee decides
    assert controller.is_over()
    return controller


def _finished_text(controller):
    """What Bandu keeps of a game finished at the machine (its GameApp.finished), as said."""
    from simulator.core import registry

    finished = registry.get_app("bandu").finished
    assert finished is not None
    return finished(controller)


def test_a_record_made_with_the_aid_is_marked_and_never_a_best(private_home):
    from simulator.games.bandu.records import RecordStore

    plain = _finished_solo({"variant": "solo"})
    aided = _finished_solo({"variant": "solo", "practice_aid": "on"})
    assert "marked as made with the practice aid" in _finished_text(aided)
    assert "personal best" not in _finished_text(plain)        # no piece stood: no record
    with RecordStore.open() as store:
        marks = sorted(a.practice_aid for a in store.attempts())
        assert marks == [False, True]
        assert [b.practice_aid for b in store.personal_bests()] == [False]


def test_a_record_made_with_a_hint_is_marked_and_never_a_best(private_home):
    """The window sets `hint_used` at the first hint: the record is marked, and the mark is
    refused in a game against others."""
    from simulator.core.errors import SettingsError
    from simulator.games.bandu.records import RecordStore

    hinted = _finished_solo({"variant": "solo", "hint_used": True})
    assert "marked as made with a hint" in _finished_text(hinted)
    with RecordStore.open() as store:
        assert [a.practice_aid for a in store.attempts()] == [True]
        assert store.personal_bests() == []
    game = get_game("bandu")
    with pytest.raises(SettingsError, match="hints are for one-player solo and chain games only"):
        game.new_game(2, {"hint_used": True})
    with pytest.raises(SettingsError, match="hint_used must be on or off"):
        game.new_game(1, {"variant": "solo", "hint_used": "maybe"})
