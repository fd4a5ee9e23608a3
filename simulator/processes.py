"""Independent jobs on this machine: in this process (1 worker), or on a pool of spawned worker
processes, each result handed back to this process as soon as its job finishes.

Each job must carry everything its result depends on, so the result does not depend on which
worker ran it; results come back in the order they finish (callers sort them). Workers ignore
Ctrl+C: the terminal sends it to the whole process group, and only this process decides what
to do. On Ctrl+C no new job starts, the jobs in progress (here or on the workers) finish and
are handed back too, and `run_jobs` says it was interrupted; a second Ctrl+C stops at once (a
job in progress in this process is lost). The first Ctrl+C is a flag, never an exception, so
it cannot land in the middle of a job's clean-up. Jobs are submitted one per idle worker, so
at most `workers` are ever in flight. Stability studies (towers/studies/local.py) and the computer's solo
record attempts (games/bandu/solo.py) run this way.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from functools import partial
from typing import TypeVar

from simulator.core.cores import share_cores, usable_cores

J = TypeVar("J")
R = TypeVar("R")


PARENT_CHECK_SECONDS = 1.0
def _start_worker(module: str | None, cores: int | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if cores is not None:
        share_cores(cores)
    quiet_worker_start(module)


def quiet_worker_start(module: str | None) -> None:
    """A worker's start: import `module` (if any) with PyBullet's build-time print silenced,
    and leave as soon as the process that started it is gone."""
    _leave_with_the_parent()
    if module is not None:
        from simulator.core.quiet_output import import_quietly

        import_quietly(module)      # PyBullet prints its build time on import


def _leave_with_the_parent() -> None:
    """A killed command (SIGTERM, SIGKILL) cannot shut its pool down, and a worker in the middle
    of a long job (a solo attempt: minutes) would go on computing for nobody: a watch thread
    ends the worker when its parent process has gone (it is then adopted by another)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


@contextmanager
def first_ctrl_c_stops_after_the_current_jobs() -> Iterator[Callable[[], bool]]:
    """While inside: the first Ctrl+C sets a flag (returned: has it come?), a second one raises
    KeyboardInterrupt. Only the main thread can take signals; elsewhere nothing changes."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop.is_set
        return

    def on_ctrl_c(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield stop.is_set
    finally:
        signal.signal(signal.SIGINT, previous)


def run_jobs(work: Callable[[J], R], jobs: Iterable[J], workers: int,
             on_result: Callable[[R], None], quiet_import: str | None = None) -> bool:
    """`work(job)` for every job (`work` a module-level function, for the spawned processes),
    `on_result(result)` here as each finishes. `workers` > 1 uses that many spawned processes,
    each importing `quiet_import` (the module of `work`) with PyBullet's print silenced. The
    jobs are drawn as workers come free, so a long iterator is never held in memory.
    Returns True when Ctrl+C stopped it (the finished results were all handed over)."""
    with first_ctrl_c_stops_after_the_current_jobs() as stopped:
        try:
            if workers <= 1:
                for job in jobs:
                    if stopped():
                        break
                    on_result(work(job))
            else:
                _run_on_pool(work, jobs, workers, on_result, quiet_import, stopped)
        except KeyboardInterrupt:
            return True
        return stopped()


def _run_on_pool(work: Callable[[J], R], jobs: Iterable[J], workers: int,
                 on_result: Callable[[R], None], quiet_import: str | None,
                 stopped: Callable[[], bool]) -> None:
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=partial(_start_worker, quiet_import, usable_cores() // workers))
    running: set[Future[R]] = set()
    try:
        for job in jobs:
            if stopped():
                break
            running.add(pool.submit(work, job))
            if len(running) < workers:
                continue
            done, running = wait(running, return_when=FIRST_COMPLETED)
            _hand_over(done, on_result)
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            _hand_over(done, on_result)
    except KeyboardInterrupt:
        pool.shutdown(wait=True, cancel_futures=True)   # the jobs in flight finish
        _hand_over({f for f in running if not f.cancelled() and f.exception() is None}, on_result)
        raise
    finally:
        pool.shutdown(wait=True)


def _hand_over(done: set[Future[R]], on_result: Callable[[R], None]) -> None:
    for future in done:
        on_result(future.result())
