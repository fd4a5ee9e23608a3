"""A small text progress bar on standard error, shown only when it is a terminal."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

# what long jobs report to: (steps done, steps in all, what is being done now)
Progress = Callable[[int, int, str], None]


class ProgressBar:
    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool | None = None,
                 width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label, self.width = label, width
        self.start = time.monotonic()

    def __call__(self, done: int, total: int, note: str = "") -> None:
        if not self.enabled or total <= 0:
            return
        filled = int(self.width * done / total)
        elapsed = time.monotonic() - self.start
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} {elapsed:5.1f}s {note[:30]:<30}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
