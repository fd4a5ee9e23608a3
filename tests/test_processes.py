"""Worker processes (simulator/processes.py): a command killed outright (SIGKILL: no clean-up
runs) does not leave its workers computing for nobody."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

CHILD = """
import sys, time
from pathlib import Path
from simulator.processes import run_jobs

def work(job):
    Path(sys.argv[1], f"worker-{__import__('os').getpid()}").touch()
    time.sleep(120)                       # a long job: a solo attempt takes minutes
    return job

if __name__ == "__main__":
    run_jobs(work, range(4), 2, print)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")   # a zombie is gone


def test_workers_leave_when_their_command_is_killed(tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    marks = tmp_path / "marks"
    marks.mkdir()
    child = subprocess.Popen([sys.executable, str(script), str(marks)],
                             cwd=Path(__file__).resolve().parents[1])
    try:
        deadline = time.monotonic() + 60
        while len(list(marks.iterdir())) < 2:
            assert time.monotonic() < deadline, "the workers never started their jobs"
            time.sleep(0.1)
        workers = [int(p.name.split("-")[1]) for p in marks.iterdir()]
        assert all(_alive(pid) for pid in workers)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "a worker went on after its command was killed"
            time.sleep(0.2)
    finally:
        child.kill()
