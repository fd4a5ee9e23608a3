"""A helper process on a pipe: started spawned (a fresh interpreter, so a C library's state is
not copied) and stopped by sending it None. The live outcomes (core/outcomes.py) keep one, and
so may a game (the questions its window asks while a person aims, a computer player's second
stream of trials); what each says over the pipe is its own.

A helper is a daemon (it dies with the process that started it) unless it must start helpers
of its own, which multiprocessing refuses a daemon (the hint's strong player runs its trials on
both cores). Such a helper is terminated when this process exits, before multiprocessing waits
for its children at exit (atexit runs the newest registration first): an exit, even on an
error, never waits for it."""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import weakref
from collections.abc import Callable
from typing import Any

STOP_WAIT_SECONDS = 2.0

_not_daemons: weakref.WeakSet[Any] = weakref.WeakSet()   # started here as daemon=False, maybe alive
_stopped_at_exit = False


def start_piped_process(target: Callable[..., None], args: tuple[Any, ...], name: str,
                        daemon: bool = True) -> tuple[Any, Any]:
    """Start `target(connection, *args)` in a spawned process; returns (this end of the pipe,
    the process). `daemon=False`: the process may start helpers of its own."""
    global _stopped_at_exit
    context = multiprocessing.get_context("spawn")
    here, there = context.Pipe()
    process = context.Process(target=target, args=(there, *args), name=name, daemon=daemon)
    process.start()
    there.close()                   # the child's end: kept here, it would hide the child's death
    if not daemon:
        _not_daemons.add(process)
        if not _stopped_at_exit:    # registered after multiprocessing's own exit hook: runs first
            atexit.register(_terminate_not_daemons)
            _stopped_at_exit = True
    return here, process


def _terminate_not_daemons() -> None:
    for process in list(_not_daemons):
        if process.is_alive():
            process.terminate()
            process.join(timeout=STOP_WAIT_SECONDS)


def stop_process(connection: Any, process: Any) -> None:
    """Stop a helper process that serves requests over a pipe until it receives None: tell it,
    close the pipe, give it STOP_WAIT_SECONDS to finish, then terminate it. Either may be None."""
    if connection is not None:
        with contextlib.suppress(OSError, ValueError):
            connection.send(None)
        connection.close()
    if process is not None:
        process.join(timeout=STOP_WAIT_SECONDS)
        if process.is_alive():
            process.terminate()
