"""How many cores this process's work may spread over: every core it may run on, or its share
when it is one of several workers (processes.py tells each pool worker its share, and work
that spreads over processes of its own, such as a computer player's trials, uses no more)."""

from __future__ import annotations

import os

_cores_here: int | None = None      # a pool's worker: its share of the cores (share_cores)


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                      # not on Linux
        return os.cpu_count() or 1


def share_cores(cores: int) -> None:
    """Tell this process that it is one of several workers and may keep `cores` busy."""
    global _cores_here
    _cores_here = max(1, cores)


def cores_here() -> int:
    """The cores the work of this process may spread over: its share in a pool of workers
    (share_cores), else every usable core."""
    return _cores_here if _cores_here is not None else usable_cores()
