"""The local backend: a study's jobs on this machine, in this process (1 worker) or on a pool of
spawned worker processes (simulator/processes.py).

Each worker builds its own worlds (jobs.py), so results do not depend on which worker ran a
job; they come back in the order they finish and the study sorts them. On Ctrl+C no new job
starts, the jobs in progress finish (one tower build each), and what was finished is returned
with `interrupted` set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from simulator.processes import run_jobs as run_in_processes
from simulator.progress import Progress

if TYPE_CHECKING:   # not at run time: a worker imports the physics quietly (processes.py)
    from simulator.towers.studies.jobs import Job, JobResult


@dataclass
class Finished:
    results: list[JobResult] = field(default_factory=list)
    interrupted: bool = False
    workers: int = 1            # how many ran at once


def run_jobs(jobs: Sequence[Job], workers: int = 1, progress: Progress | None = None) -> Finished:
    """Run every job; `workers` > 1 uses that many spawned processes."""
    from simulator.towers.studies.jobs import run_job

    finished = Finished(workers=workers)

    def collect(result: JobResult) -> None:
        finished.results.append(result)
        if progress:
            progress(len(finished.results), len(jobs), "")

    if progress:
        progress(0, len(jobs), "")
    finished.interrupted = run_in_processes(run_job, jobs, workers, collect,
                                            quiet_import="simulator.towers.studies.jobs")
    return finished
