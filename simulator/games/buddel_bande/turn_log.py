"""Buddel Bande's log of turns, top right on the board: a line per finished turn (the rolls and
what was done, words.turn_sentence), the last LOG_LINES of them, as many as fit in its box; it
starts afresh after an undo or a load.
"""

from __future__ import annotations

from collections.abc import Callable

from pyglet import shapes
from pyglet.graphics import Batch

from simulator.games.buddel_bande import art
from simulator.games.buddel_bande.board import Board
from simulator.games.buddel_bande.layers import G_CARD, G_TEXT
from simulator.games.buddel_bande.rules import BuddelState
from simulator.games.buddel_bande.words import NO_TURN_YET, turn_sentence
from simulator.render.widgets import label

LOG_LINES = 3


class TurnLog:
    """The box, its text and the lines told so far (`lines`, the newest last)."""

    def __init__(self, batch: Batch) -> None:
        self.box = shapes.RoundedRectangle(0, 0, 1, 1, radius=10, segments=6, color=(20, 30, 20, 150),
                                           batch=batch, group=G_CARD)
        self.label = label("", size=9.5, batch=batch, group=G_TEXT, color=art.TEXT, anchor_y="top",
                           multiline=True, width=200)
        self.lines: list[str] = []
        self._turns_seen = -1
        self._plies_seen = 0

    def place(self, board: Board) -> None:
        unit = board.unit
        self.box.position = board.px(0.9, 0.76)
        self.box.width, self.box.height = 0.57 * unit, 0.21 * unit
        lx, ly = board.px(0.9, 0.97)
        self.label.position = (lx + 10, ly - 8, 0)
        self.label.width = int(0.57 * unit - 20)
        self.label.font_size = max(7.0, unit * 0.0165)
        self.fit()

    def follow(self, state: BuddelState, plies: int, who: Callable[[int], str]) -> None:
        """A line for a turn finished since the last call (`who`: the words for the seat that
        played it), after `plies` moves of the game; all lines go when the game went back."""
        if plies < self._plies_seen or self._turns_seen < 0 or state.turns < self._turns_seen:
            self.lines = []                     # an undo or a load: start the log afresh
            self._turns_seen = state.turns - 1 if state.last_turn else state.turns
        self._plies_seen = plies
        if state.turns != self._turns_seen and state.last_turn:
            self.lines = ([*self.lines, turn_sentence(state, who(state.last_turn[0]))])[-LOG_LINES:]
            self._turns_seen = state.turns
        self.fit()

    def fit(self) -> None:
        """The last turns that fit in the log's box, the newest always (older ones drop first)."""
        shown = list(self.lines)
        self.label.text = "\n".join(shown) or NO_TURN_YET
        while len(shown) > 1 and self.label.content_height > self.box.height - 12:
            shown = shown[1:]
            self.label.text = "\n".join(shown)
