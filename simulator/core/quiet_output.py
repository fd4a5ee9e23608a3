"""Silence what PyBullet's C code prints (its build time on import, `argv[0]=` on connect).

It writes to the process's file descriptors 1 and 2 directly, so Python's sys.stdout cannot
catch it; `bandu-sim stability --json` must print nothing but JSON, and the library must print
nothing into its user's output. The physics world (towers/physics/world.py) imports PyBullet
through `import_quietly` and silences its own connect; nothing else imports PyBullet.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import ModuleType


def _flush_c_streams() -> None:
    """Empty C's stdio buffers: when standard output is not a terminal (a pipe, a file) C
    buffers PyBullet's lines and would write them at exit, after the redirection ended."""
    with suppress(OSError, AttributeError):     # no C library to ask (not a POSIX system)
        ctypes.CDLL(None).fflush(None)


# The descriptors are the process's, shared by its threads: one silence at a time. Two worlds
# built at once on two threads (a host's tables) each saved what the other had silenced, and
# the second to finish left standard output on the null device for good.
_silence = threading.RLock()        # re-entered by an import that imports PyBullet quietly


@contextmanager
def quiet_c_output() -> Iterator[None]:
    with _silence:
        sys.stdout.flush()
        sys.stderr.flush()
        _flush_c_streams()
        saved = [os.dup(1), os.dup(2)]
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            yield
        finally:
            _flush_c_streams()             # what C buffered meanwhile goes to the null device
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in (*saved, devnull):
                os.close(fd)


def import_quietly(module: str) -> ModuleType:
    """Import `module` with C output silenced: the first import of PyBullet prints its build
    time. A module imported already is returned as it is, the output untouched."""
    if module in sys.modules:
        return sys.modules[module]
    with quiet_c_output():
        return importlib.import_module(module)
