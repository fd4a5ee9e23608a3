"""A helper process on a pipe: started spawned (a fresh interpreter, so a C library's state is
not copied), as a daemon (it dies with the process that started it), and stopped by sending it
None. The live outcomes (core/outcomes.py) keep one, and so may a game (the questions its
window asks while a person aims, a computer player's second stream of trials); what each says
over the pipe is its own."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

STOP_WAIT_SECONDS = 2.0


def start_piped_process(target: Callable[..., None], args: tuple, name: str) -> tuple[Any, Any]:
    """Start `target(connection, *args)` in a spawned daemon process; returns (this end of the
    pipe, the process)."""
    context = multiprocessing.get_context("spawn")
    here, there = context.Pipe()
    process = context.Process(target=target, args=(there, *args), name=name, daemon=True)
    process.start()
    there.close()                   # the child's end: kept here, it would hide the child's death
    return here, process


def stop_process(connection: Any, process: Any) -> None:
    """Stop a helper process that serves requests over a pipe until it receives None: tell it,
    close the pipe, give it STOP_WAIT_SECONDS to finish, then terminate it. Either may be None."""
    if connection is not None:
        try:
            connection.send(None)
        except (OSError, ValueError):
            pass
        connection.close()
    if process is not None:
        process.join(timeout=STOP_WAIT_SECONDS)
        if process.is_alive():
            process.terminate()
