"""A hint for a person building alone: where the strong computer player would place the held piece.

Solo and one-player chain games only (the window offers it nowhere else, the rules refuse the
mark anywhere else). The first hint of a game sets its `hint_used` setting: the setting is saved
with the game, so the record attempt it ends in is marked like one made with the practice aid
and is never a personal best. The strong player thinks in a process of its own (it may take
seconds on a tall tower), so the window keeps its frame rate. It runs its trials on both cores,
as in a game: the process is not a daemon, so that it may start its trial helper. Its
suggestion is drawn as a second ghost that the person can take (G again) or ignore.
"""

from __future__ import annotations

from typing import Any

from simulator.games.bandu.asking import AskedProcess
from simulator.games.bandu.rules import BanduState, Place, tower_key

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


def hint_worker(connection: Any) -> None:
    from simulator.core.quiet_output import import_quietly

    import_quietly("simulator.games.bandu.ai")
    try:
        while (message := connection.recv()) is not None:
            request, state = message
            connection.send((request, suggestion(state)))
    except (EOFError, OSError):         # the window has gone, maybe mid-suggestion
        return


class HintAdvisor(AskedProcess):
    """Asks the hint process for a suggestion; `poll()` takes its answer."""

    def __init__(self) -> None:
        super().__init__(hint_worker, (), "hint", daemon=False)    # its trials on both cores
        self.answer: Place | None = None

    def ask(self, state: BanduState) -> None:
        """A suggestion for the placement `state` awaits (asked again for the same, nothing new
        is asked)."""
        piece = state.auction.piece if state.auction else None
        self._ask((piece, tower_key(state, state.placer)), state)

    def _answer_from(self, reply: tuple) -> Place:
        (place,) = reply
        return place

    @property
    def thinking(self) -> bool:
        return self._asked is not None and self.answer is None
