"""The local backend: a study's jobs on this machine, in this process (1 worker) or on a pool of
spawned worker processes.

Each worker builds its own worlds (jobs.py), so results do not depend on which worker ran a
job; they come back in the order they finish and the study sorts them. Workers ignore Ctrl+C:
the terminal sends it to the whole process group, and only this process decides what to do.
On Ctrl+C no new job starts, the jobs in progress finish (one tower build each), and what was
finished is returned with `interrupted` set. Jobs are submitted one per idle worker, so at
most `workers` are ever in flight.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from simulator.progress import Progress

if TYPE_CHECKING:   # not at run time: a worker imports the physics quietly (_start_worker)
    from simulator.studies.jobs import Job, JobResult


@dataclass
class Finished:
    results: list[JobResult] = field(default_factory=list)
    interrupted: bool = False


def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from simulator.physics.quiet import import_quietly

    import_quietly("simulator.studies.jobs")    # PyBullet prints its build time on import


def run_jobs(jobs: Sequence[Job], workers: int = 1, progress: Progress | None = None) -> Finished:
    """Run every job; `workers` > 1 uses that many spawned processes."""
    finished = Finished()
    try:
        if workers <= 1 or len(jobs) <= 1:
            _run_here(jobs, finished, progress)
        else:
            _run_on_pool(jobs, workers, finished, progress)
    except KeyboardInterrupt:
        finished.interrupted = True
    return finished


def _report(finished: Finished, total: int, progress: Progress | None) -> None:
    if progress:
        progress(len(finished.results), total, "")


def _run_here(jobs: Sequence[Job], finished: Finished, progress: Progress | None) -> None:
    from simulator.studies.jobs import run_job

    _report(finished, len(jobs), progress)
    for job in jobs:
        finished.results.append(run_job(job))
        _report(finished, len(jobs), progress)


def _run_on_pool(jobs: Sequence[Job], workers: int, finished: Finished,
                 progress: Progress | None) -> None:
    from simulator.studies.jobs import run_job

    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker)
    running: set[Future[JobResult]] = set()
    try:
        _report(finished, len(jobs), progress)
        waiting = iter(jobs)
        for job in waiting:
            running.add(pool.submit(run_job, job))
            if len(running) < workers:
                continue
            done, running = wait(running, return_when=FIRST_COMPLETED)
            _collect(done, finished, len(jobs), progress)
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            _collect(done, finished, len(jobs), progress)
    except KeyboardInterrupt:
        pool.shutdown(wait=True, cancel_futures=True)   # the jobs in flight finish
        _collect({f for f in running if not f.cancelled() and f.exception() is None},
                 finished, len(jobs), progress)
        raise
    finally:
        pool.shutdown(wait=True)


def _collect(done: set[Future[JobResult]], finished: Finished, total: int,
             progress: Progress | None) -> None:
    for future in done:
        finished.results.append(future.result())
    _report(finished, total, progress)
