"""A progress bar on standard error (tqdm: rate and time left), shown only when it is a terminal.

Long jobs report to a `Progress`: any callable taking (steps done, steps in all, what is being
done now). `ProgressBar` is the one the command line passes; code that runs the work never
imports tqdm.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

from tqdm import tqdm

# what long jobs report to: (steps done, steps in all, what is being done now)
Progress = Callable[[int, int, str], None]

NOTE_CHARACTERS = 30
DEFAULT_COLUMNS = 80   # when the terminal does not say its width (a fresh pseudo-terminal: 0)


def _columns(stream: TextIO) -> int:
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        columns = 0
    return columns or DEFAULT_COLUMNS


class ProgressBar:
    """A `Progress` drawn by tqdm. A call whose total differs from the bar's, or whose count
    goes back, starts a new bar (one command may run several plans in a row); reaching the
    total closes the bar. Use it as a context manager so an interrupted run ends its line."""

    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool | None = None,
                 unit: str = "step") -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label, self.unit = label, unit
        self._bar: Any = None

    def __call__(self, done: int, total: int, note: str = "") -> None:
        if not self.enabled or total <= 0:
            return
        if self._bar is None or self._bar.total != total or done < self._bar.n:
            self.close()
            self._bar = tqdm(total=total, desc=self.label, unit=self.unit, file=self.stream,
                             ncols=_columns(self.stream), leave=True)
        self._bar.set_postfix_str(note[:NOTE_CHARACTERS], refresh=False)
        self._bar.update(done - self._bar.n)
        if done >= total:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
