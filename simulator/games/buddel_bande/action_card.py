"""Buddel Bande's action card, beside the dice tray: what a person's roll lets them do (and
Decline where they may), after a mole ran to a hole the question whether to look under it (Look,
Don't), the private peek with the clan's picture (Done), whose turn it is, and who won.
"""

from __future__ import annotations

from collections.abc import Callable

from pyglet import shapes
from pyglet.graphics import Batch

from simulator.games.buddel_bande import art, words
from simulator.games.buddel_bande.board import Board
from simulator.games.buddel_bande.layers import G_CARD, G_CARD_ART, G_TEXT
from simulator.games.buddel_bande.rules import (
    CLANS,
    DECLINE,
    DONE,
    LOOK,
    LOOK_UNDER,
    MOVE,
    NO_LOOK,
    OVER,
    PEEK,
    UNKNOWN,
    Act,
    BuddelState,
)
from simulator.games.buddel_bande.sprites import fit, picture_sprite
from simulator.render.widgets import Button, label


class ActionCard:
    """The card, its text, the peek's picture and the buttons "decline", "look", "no-look" and
    "done", whose clicks `act` the action."""

    def __init__(self, batch: Batch, act: Callable[[Act], None]) -> None:
        self.box = shapes.RoundedRectangle(0, 0, 1, 1, radius=10, segments=6, color=(250, 244, 228, 235),
                                           batch=batch, group=G_CARD)
        self.text = label("", size=11, batch=batch, group=G_TEXT, color=art.INK, anchor_y="top",
                          multiline=True, width=200)
        self.peek_picture = picture_sprite(CLANS[0], batch, G_CARD_ART)
        self.buttons = {
            "decline": Button("Decline", lambda: act(DECLINE), batch, size=11, width=96, height=30,
                              group=G_CARD_ART, text_group=G_TEXT),
            "look": Button("Look (L)", lambda: act(LOOK_UNDER), batch, size=11, width=96, height=30,
                           primary=True, group=G_CARD_ART, text_group=G_TEXT),
            "no-look": Button("Don't (N)", lambda: act(NO_LOOK), batch, size=11, width=96, height=30,
                              group=G_CARD_ART, text_group=G_TEXT),
            "done": Button("Done", lambda: act(DONE), batch, size=11, width=96, height=30, primary=True,
                           group=G_CARD_ART, text_group=G_TEXT),
        }

    def place(self, board: Board) -> None:
        unit = board.unit
        cx, cy = board.px(0.4, 0.76)
        self.box.position, self.box.width, self.box.height = (cx, cy), 0.46 * unit, 0.21 * unit
        self.text.position = (cx + 12, cy + 0.21 * unit - 10, 0)
        self.text.width = int(0.46 * unit - 24)
        self.text.font_size = max(8.0, unit * 0.02)

    def button_at(self, x: float, y: float) -> Button | None:
        """The card's button under the pointer, if any."""
        for item in self.buttons.values():
            if item.contains(x, y):
                return item
        return None

    def show(self, state: BuddelState, board: Board, person: bool, name: Callable[[int], str]) -> None:
        """The card for the state as the viewer sees it; `person`: may the viewer act now;
        `name`: a seat's name."""
        for button in self.buttons.values():
            button.set_visible(False)
        self.peek_picture.visible = False
        cx, cy = self.box.x, self.box.y
        row = cy + 10
        if state.phase == OVER:
            text = words.over_words(state, name)
        elif not person:
            text = words.waiting_words(state, name)
        elif state.phase == MOVE:
            text = words.move_prompt(state)
            if state.may_decline():
                self._show_button("decline", cx + 12, row)
        elif state.phase == LOOK:
            text = words.look_question(state)
            self.buttons["look"].place(cx + 12, row)
            self.buttons["no-look"].place(cx + 120, row)
            self.buttons["look"].set_visible(True)
            self.buttons["no-look"].set_visible(True)
        elif state.phase == PEEK:
            text = words.peek_words(state, name)
            clan = state.clan[state.moved]
            if clan != UNKNOWN:
                unit = board.unit
                self.peek_picture.image = art.image(CLANS[clan])
                fit(self.peek_picture, cx + self.box.width - 0.06 * unit, cy + 0.065 * unit, 0.1 * unit)
                self.peek_picture.visible = True
            self._show_button("done", cx + 12, row)
        else:
            text = ""
        self.text.text = text

    def _show_button(self, name: str, x: float, y: float) -> None:
        self.buttons[name].place(x, y)
        self.buttons[name].set_visible(True)
