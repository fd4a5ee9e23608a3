"""What a write may replace: only a plain file (or nothing). A symbolic link, a FIFO or a device
at the name the user gave is refused by the writers (records --export, a study's --report), so
they never follow a planted link or turn /dev/null into a file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

_KINDS = {stat.S_IFLNK: "a symbolic link", stat.S_IFIFO: "a FIFO (named pipe)",
          stat.S_IFCHR: "a device", stat.S_IFBLK: "a device", stat.S_IFDIR: "a folder",
          stat.S_IFSOCK: "a socket"}


def not_a_plain_file(path: str | Path) -> str | None:
    """What stands at `path` when it is neither missing nor a plain file ('a symbolic link',
    'a device' ...); None when a write may go there (or the name cannot be looked at: the
    write then says why, if it fails)."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        return None
    return _KINDS.get(stat.S_IFMT(mode), "not a plain file")
