"""A computer player's trials on two streams of labs (games/bandu/trial_streams.py), asked for
in rounds by the placement search (placement_search.py): the same decisions with one worker or
two, and with a helper that dies."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import zlib

import numpy as np
import pytest

from simulator.core.cores import cores_here, usable_cores
from simulator.games.bandu import trial_streams
from simulator.games.bandu.ai import LEVELS, BanduAgent
from simulator.games.bandu.placement_search import PlacementSearch
from simulator.games.bandu.rules import Offer, Place, Respond, new_game
from simulator.games.bandu.tower_lab import Trial
from simulator.games.bandu.trial_streams import STREAMS, DecisionLabs
from simulator.processes import run_jobs
from simulator.towers.physics.tremor import Tremor


class _DrawnLabs:
    """Labs whose answer to a release depends on the release alone (its place and draw): about
    two in three stand."""

    holds_still = True

    def __init__(self) -> None:
        self.asked: list = []

    def run(self, releases):
        self.asked.extend(releases)
        return [self.answer(r) for r in releases]

    @staticmethod
    def answer(release) -> Trial:
        key = zlib.crc32(repr((release.place, release.whole, release.draw)).encode())
        return Trial(key % 3 != 0, (key >> 4) % 100 / 50.0, float((key >> 12) % 700))


@pytest.mark.parametrize(("confirm", "verify", "room"), [(0, 0, False), (6, 2, False), (4, 1, True)])
def test_rounds_of_guessed_trials_find_what_one_trial_at_a_time_finds(confirm, verify, room):
    """A round guesses that the trials still to come stand; the answers after a wrong guess are
    not used. The search run in rounds of STREAMS finds the same placement, at the same rate and
    budget, from the same trials as the search asking one trial at a time."""
    places = [Place("cube-large", x, 0.0, yaw) for x in (0.0, 5.0, 10.0) for yaw in (0.0, 45.0, 90.0)]
    for draw in range(20):
        search = PlacementSearch(places, 2, Tremor(1.0, 1.0), 24, draw, confirm=confirm, verify=verify, room=room)
        one = _DrawnLabs()
        answers: list[Trial] = []
        while asked := search.next_trials(answers, 1):
            answers.extend(one.run(asked))
        rounds = _DrawnLabs()
        assert search.run(rounds) == search.outcome(answers)
        assert set(one.asked) <= set(rounds.asked) and len(rounds.asked) <= STREAMS * len(one.asked)


def _placed_arch_state():
    state = new_game(players=2)
    state.apply(Offer("arch", "refuse"))
    state.apply(Respond("accept"))
    return state


def _search(labs: DecisionLabs, state, kill_helper_at: int | None = None) -> tuple:
    """What a search found, its budget left, and every answer its labs gave, to the last bit
    (a trial run after other trials moves the pieces by a hair more or less): with
    `kill_helper_at`, the helper is killed before that round."""
    run, answers = labs.run, []

    def recorded(seat, releases):
        if len(answers) == kill_helper_at:
            for pid in labs.helper_process_ids():
                os.kill(pid, signal.SIGKILL)
        answers.append(run(seat, releases))
        return answers[-1]

    labs.run = recorded                                         # type: ignore[method-assign]
    agent = BanduAgent(LEVELS["strong"])
    agent.trials_left = 24
    found = agent.best_placement(labs.seat(state.placer), "arch", 1, np.random.default_rng(3), shelves=True,
                                 confirm=6, hand=Tremor(1.5, 1.5))
    return found, agent.trials_left, answers


@pytest.mark.slow
def test_a_search_is_the_same_on_one_worker_or_two_and_when_a_helper_dies():
    """Each stream's labs see the same trials in the same order wherever the stream runs: on a
    helper process, here, or rebuilt here when the helper dies part way (its trials replayed)."""
    state = _placed_arch_state()
    with DecisionLabs(state, workers=1) as labs:
        alone = _search(labs, state)
        assert labs.helper_trials == 0
    with DecisionLabs(state, workers=2) as labs:
        assert _search(labs, state) == alone
        assert labs.helper_trials > 0
    with DecisionLabs(state, workers=2) as labs:
        assert _search(labs, state, kill_helper_at=1) == alone
        assert labs.helper_trials == 1 and len(alone[2]) >= 3


@pytest.mark.slow
def test_a_computer_players_move_is_the_same_on_one_worker_or_two():
    state = _placed_arch_state()
    moves = {workers: BanduAgent(LEVELS["strong"], trial_workers=workers).choose(state.clone(), random.Random(5))
             for workers in (1, 2)}
    assert moves[1] == moves[2]


def _share(job: int) -> int:
    return cores_here()


def test_a_pool_worker_keeps_to_its_share_of_the_cores():
    """Games played side by side on a pool (solo attempts, selfplay): each worker's computer
    players spread their trials over its share of the cores only."""
    shares: list[int] = []
    run_jobs(_share, [0, 1], 2, shares.append, quiet_import=__name__)
    assert shares == [max(1, usable_cores() // 2)] * 2
    assert cores_here() == usable_cores()          # this process is no pool's worker


@pytest.mark.slow
def test_a_daemon_process_runs_its_streams_itself(monkeypatch):
    """A daemon process (the window's hint process) may not start processes of its own."""

    class Daemon:
        daemon = True

    monkeypatch.setattr(multiprocessing, "current_process", lambda: Daemon())
    state = _placed_arch_state()
    with DecisionLabs(state, workers=2) as labs:
        _search(labs, state)
        assert labs.helper_trials == 0 and labs.helper_process_ids() == []


@pytest.mark.slow
def test_a_trial_that_fails_leaves_no_answer_behind_for_the_next_decision(monkeypatch):
    """Stream 0's trial raises after stream 1's was sent: the helper's answer to it must not
    be read as the first answer of the next decision on that helper."""
    state = _placed_arch_state()
    with DecisionLabs(state, workers=1) as labs:
        alone = _search(labs, state)
    original = trial_streams.StreamLabs.run
    failing = DecisionLabs(state, workers=2)

    def fails_once(self, seat, release):       # stream 0, here: stream 1 runs on the helper
        raise RuntimeError("a trial that fails")

    monkeypatch.setattr(trial_streams.StreamLabs, "run", fails_once)
    with pytest.raises(RuntimeError), failing:
        _search(failing, state)
    monkeypatch.setattr(trial_streams.StreamLabs, "run", original)
    with DecisionLabs(state, workers=2) as labs:
        assert _search(labs, state) == alone
        assert labs.helper_trials > 0
