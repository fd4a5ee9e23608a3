"""A one-process pool for computer searches that replaces its process when it dies.

The window runs searches in a separate process so a search never holds the GIL against drawing.
If that process is killed (out of memory, a crash), concurrent.futures marks the pool broken for
good; a SearchPool then starts a new process on the next submit, so neither the game that saw
the failure nor any later game is handed a broken pool.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

PARENT_CHECK_SECONDS = 1.0


def leave_with_parent(parent: int) -> None:
    """In a worker process: end it as soon as the process that started it is gone (killed with
    SIGKILL, it says nothing): a worker left behind kept multiprocessing's resource tracker,
    and a pipeline the program's output went to, open for minutes."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class SearchPool(Executor):
    def __init__(self, workers: int = 1, start_method: str = "spawn") -> None:
        self._workers = workers
        self._context = multiprocessing.get_context(start_method)
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self.restarts = 0

    def _live_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self._workers, mp_context=self._context,
                                             initializer=leave_with_parent, initargs=(os.getpid(),))
        return self._pool

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._lock:
            try:
                return self._live_pool().submit(fn, *args, **kwargs)
            except BrokenProcessPool:
                self._replace()
                return self._live_pool().submit(fn, *args, **kwargs)

    def _replace(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        self.restarts += 1

    def replace_if_broken(self) -> None:
        """Called when a future failed with BrokenExecutor: the next submit gets a new process."""
        with self._lock:
            if self._pool is not None and getattr(self._pool, "_broken", False):
                self._replace()

    def process_ids(self) -> list[int]:
        """The worker processes' ids (tests kill one to check the replacement)."""
        pool = self._pool
        return [] if pool is None else [p.pid for p in getattr(pool, "_processes", {}).values()]

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)
            self._pool = None
