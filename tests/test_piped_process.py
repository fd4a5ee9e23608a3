"""Helper processes on a pipe (core/piped_process.py): each leaves quietly when the process that
asked has gone, even in the middle of an answer. Before, a window closed while the referee
published a fall's frames left a BrokenPipeError traceback on the terminal (seen once in six
runs of tools/measure_frame_rate.py)."""

from __future__ import annotations

import random

from simulator.core import outcomes
from simulator.core.piped_process import start_piped_process, stop_process
from simulator.games.bandu import hint, practice
from simulator.games.bandu.rules import Place, new_game


class _GoneAsker:
    """The helper's end of a pipe whose other end has closed after asking `questions`."""

    def __init__(self, *questions: object) -> None:
        self.questions = list(questions)
        self.sent = 0

    def recv(self) -> object:
        if not self.questions:
            raise EOFError
        return self.questions.pop(0)

    def poll(self, timeout: float = 0.0) -> bool:
        return False

    def send(self, message: object) -> None:
        self.sent += 1
        raise BrokenPipeError(32, "Broken pipe")


def _frames_forever():
    def work(state, rng, timeline):
        timeline.add(0.0, {"frame": 1})
        raise AssertionError("the frame could not have been sent")
    return work


def test_the_live_outcome_process_leaves_quietly_mid_outcome():
    asker = _GoneAsker((1, new_game(players=2), random.Random(0)))
    outcomes.live_outcome_worker(asker, _frames_forever)
    assert asker.sent >= 1


def test_the_hint_process_leaves_quietly_mid_answer(monkeypatch):
    monkeypatch.setattr(hint, "suggestion", lambda state: Place("cube-large"))
    asker = _GoneAsker((1, new_game(players=1, variant="solo")))
    hint.hint_worker(asker)
    assert asker.sent == 1


def test_the_practice_aid_process_leaves_quietly_mid_answer():
    state = new_game(players=2)
    asker = _GoneAsker((1, state, 0, Place("cube-large")))
    practice.probe_worker(asker, 2, practice.PRACTICE_TREMOR)
    assert asker.sent == 1


def _echo(connection) -> None:
    while (message := connection.recv()) is not None:
        connection.send(message)


def test_a_piped_process_answers_and_stops():
    connection, process = start_piped_process(_echo, (), "echo")
    try:
        connection.send(("hello", 1))
        assert connection.poll(30) and connection.recv() == ("hello", 1)
        assert process.daemon and process.name == "echo"
    finally:
        stop_process(connection, process)
    assert not process.is_alive()
