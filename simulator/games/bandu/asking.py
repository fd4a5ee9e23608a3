"""A process of its own that the window asks questions of, the newest question first: the
practice aid's stand rate (practice.py) and the hint (hint.py) are worked out there, so the
window never waits for physics.

The process starts at the first question and again if it died. A question asked again (the
same key) asks nothing new; a newer one makes every older answer stale. `poll()` takes the
answers that came, without waiting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simulator.core.piped_process import start_piped_process, stop_process


class AskedProcess:
    """`worker(connection, *args)` runs in the process: it receives (request, *question) and
    sends (request, *reply); `_answer_from(reply)` makes `answer` of a reply."""

    def __init__(self, worker: Callable[..., None], args: tuple, name: str, daemon: bool = True) -> None:
        """`daemon=False`: the process may start helpers (core/piped_process.py)."""
        self._worker, self._args, self._name, self._daemon = worker, args, name, daemon
        self._process: Any = None
        self._connection: Any = None
        self._request = 0
        self._asked: tuple | None = None
        self._sent = 0
        self.answer: Any = None            # for the newest question, as far as it got

    @property
    def questions_sent(self) -> int:
        """How many questions went to the process (one asked again is not sent again)."""
        return self._sent

    @property
    def process_id(self) -> int | None:
        """The answering process's id, None while none runs (not started yet, or found dead)."""
        return None if self._process is None else self._process.pid

    def _answer_from(self, reply: tuple) -> Any:
        raise NotImplementedError

    def _ask(self, key: tuple, *question: Any) -> None:
        if key == self._asked:
            return
        if self._process is None or not self._process.is_alive():
            self.close()
            self._connection, self._process = start_piped_process(self._worker, self._args, self._name,
                                                                         self._daemon)
        self._asked, self.answer = key, None
        self._request += 1
        self._sent += 1
        try:
            self._connection.send((self._request, *question))
        except (OSError, ValueError):
            self.close()

    def poll(self) -> bool:
        """Take the answers that came; True when the newest question's answer changed."""
        changed = False
        try:
            while self._connection is not None and self._connection.poll():
                request, *reply = self._connection.recv()
                if request == self._request:
                    self.answer, changed = self._answer_from(tuple(reply)), True
        except (EOFError, OSError):                  # the process died: ask again to restart it
            self._connection, self._process, self._asked = None, None, None
        return changed

    def forget(self) -> None:
        """No question stands (the piece was released or put away)."""
        self._asked, self.answer = None, None
        self._request += 1

    def close(self) -> None:
        stop_process(self._connection, self._process)
        self._connection, self._process = None, None
