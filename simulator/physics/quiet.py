"""Silence what PyBullet's C code prints (its build time on import, `argv[0]=` on connect).

It writes to the process's file descriptors 1 and 2 directly, so Python's sys.stdout cannot
catch it; `bandu-sim stability --json` must print nothing but JSON.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def quiet_c_output() -> Iterator[None]:
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, devnull):
            os.close(fd)
