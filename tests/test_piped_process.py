"""Helper processes on a pipe (core/piped_process.py): each leaves quietly when the process that
asked has gone, even in the middle of an answer. Before, a window closed while the referee
published a fall's frames left a BrokenPipeError traceback on the terminal (seen once in six
runs of python -m benchmarks frame_rate)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

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


def _children_of(pid: int) -> list[int]:
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue                                # gone meanwhile
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    return children


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


EXIT_ON_AN_ERROR = """
import sys
from simulator.core.piped_process import start_piped_process
from simulator.games.bandu.hint import hint_worker

if __name__ == "__main__":
    connection, process = start_piped_process(hint_worker, (), "hint", daemon=False)
    print(process.pid, flush=True)
    raise RuntimeError("the window failed")
"""


def test_a_helper_that_is_not_a_daemon_never_holds_up_an_exit(tmp_path):
    """A process that may start helpers (the hint's) is not a daemon, so multiprocessing would
    wait for it at exit, and it waits for questions: an error in the window would hang there."""
    script = tmp_path / "fails.py"
    script.write_text(EXIT_ON_AN_ERROR, encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    ended = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                           cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    assert ended.returncode == 1 and "the window failed" in ended.stderr
    pid = int(ended.stdout.split()[0])
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid)


def test_the_hint_runs_its_trials_on_a_helper_of_its_own_and_suggests_the_same():
    """The hint process is not a daemon, so the strong player in it starts its trial helper
    where this machine has two cores; the suggestion is the one worked out here."""
    from simulator.core.cores import usable_cores
    from simulator.games.bandu.rules import Offer

    state = new_game(players=1, variant="solo")
    state.apply(Offer("washer", "take"))                 # in solo, the piece taken is to place
    advisor = hint.HintAdvisor()
    try:
        advisor.ask(state)
        deadline = time.monotonic() + 240
        while advisor.answer is None and time.monotonic() < deadline:
            advisor.poll()
            time.sleep(0.05)
        assert advisor.answer is not None
        assert bool(_children_of(advisor.process_id)) == (usable_cores() >= 2)
    finally:
        advisor.close()
    assert advisor.answer == hint.suggestion(state)
