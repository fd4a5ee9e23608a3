"""A hint for a person building alone: where the strong computer player would place the held piece.

Solo and one-player chain games only (the window offers it nowhere else, the rules refuse the
mark anywhere else). The first hint of a game sets its `hint_used` setting: the setting is saved
with the game, so the record attempt it ends in is marked like one made with the practice aid
and is never a personal best. The strong player thinks in a process of its own (it may take
seconds on a tall tower), so the window keeps its frame rate; its suggestion is drawn as a
second ghost that the person can take (Enter) or ignore.
"""

from __future__ import annotations

import multiprocessing
from typing import Any

from simulator.core.outcomes import stop_process
from simulator.games.bandu.practice import tower_key
from simulator.games.bandu.rules import BanduState, Place

HINT_SETTING = "hint_used"
HINT_LEVEL = "strong"
SEED = 20261204                     # the suggestion for a tower is drawn from (SEED, its pieces)


def suggestion(state: BanduState) -> Place:
    """Where the strong player would release the piece of `state`'s placement (no tremor of
    its hand: the person's hand adds its own)."""
    import numpy as np

    from simulator.games.bandu.ai import LEVELS, BanduAgent

    seed = [SEED, len(state.towers[state.placer]), *map(ord, "".join(state.towers[state.placer]))]
    return BanduAgent(LEVELS[HINT_LEVEL]).planned_place(state, np.random.default_rng(seed))


def _hint_worker(connection: Any) -> None:
    from simulator.physics.quiet import import_quietly

    import_quietly("simulator.games.bandu.ai")
    message = connection.recv()
    while message is not None:
        request, state = message
        connection.send((request, suggestion(state)))
        message = connection.recv()


class HintAdvisor:
    """Asks the hint process for a suggestion; `poll()` takes its answer."""

    def __init__(self) -> None:
        self._process: Any = None
        self._connection: Any = None
        self._request = 0
        self._asked: tuple | None = None
        self.answer: Place | None = None

    def ask(self, state: BanduState) -> None:
        """A suggestion for the placement `state` awaits (asked again for the same, nothing new
        is asked)."""
        question = (state.auction.piece if state.auction else None, tower_key(state, state.placer))
        if question == self._asked:
            return
        if self._process is None or not self._process.is_alive():
            self.close()
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe()
            self._process = context.Process(target=_hint_worker, args=(child,), name="hint", daemon=True)
            self._process.start()
            child.close()
            self._connection = parent
        self._asked, self.answer = question, None
        self._request += 1
        try:
            self._connection.send((self._request, state))
        except (OSError, ValueError):
            self.close()

    @property
    def thinking(self) -> bool:
        return self._asked is not None and self.answer is None

    def poll(self) -> bool:
        """Take an answer that came; True when the newest question got its answer."""
        changed = False
        try:
            while self._connection is not None and self._connection.poll():
                request, place = self._connection.recv()
                if request == self._request:
                    self.answer, changed = place, True
        except (EOFError, OSError):
            self._connection, self._process, self._asked = None, None, None
        return changed

    def forget(self) -> None:
        """The placement is over: its suggestion is no longer shown."""
        self._asked, self.answer = None, None
        self._request += 1

    def close(self) -> None:
        stop_process(self._connection, self._process)
        self._connection, self._process = None, None
