"""A one-line text field drawn with pyglet shapes and a label: a box, its text (or a grey
placeholder), a caret and a focus ring. The screen that holds it passes it what pyglet says of
the keyboard: `type(text)` for on_text, `move(motion)` for on_text_motion (the caret's keys,
Backspace, Delete, and paste); a text wider than the box scrolls with the caret.
"""

from __future__ import annotations

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group
from pyglet.window import key

from simulator.render import theme
from simulator.render.widgets import FRONT, label

CARET_BLINK = 0.53                 # seconds on, then off


class TextField:
    """One line of text a person types; `text` is what it holds."""

    def __init__(self, batch: Batch, placeholder: str = "", width: float = 360, height: float = 40,
                 size: float = 15, max_length: int = 100, group: Group = FRONT) -> None:
        self.text = ""
        self.caret_at = 0
        self.max_length = max_length
        self.focused = False
        self.x, self.y, self.width, self.height = 0.0, 0.0, width, height
        self._start = 0                                 # the first character shown
        self._blink = 0.0
        self.box = shapes.RoundedRectangle(0, 0, width, height, radius=6, segments=4,
                                           color=theme.PANEL_LIGHT, batch=batch, group=group)
        self.ring = shapes.Box(0, 0, width + 6, height + 6, thickness=2, color=theme.FOCUS,
                               batch=batch, group=group)
        self.ring.visible = False
        text_group = Group(order=group.order + 1)
        self.label = label("", size=size, batch=batch, group=text_group, color=theme.TEXT_DARK,
                           anchor_y="center")
        self.placeholder = label(placeholder, size=size, batch=batch, group=text_group,
                                 color=(120, 112, 100, 255), anchor_y="center")
        self.caret = shapes.Rectangle(0, 0, 2, size * 1.5, color=theme.TEXT_DARK[:3], batch=batch,
                                      group=text_group)
        self.caret.visible = False
        self._measure = pyglet.text.Label("", font_name=list(theme.FONT), font_size=size)

    # --- place and look --------------------------------------------------------------------------
    def place(self, x: float, y: float, width: float | None = None) -> None:
        self.x, self.y = x, y
        if width is not None:
            self.width = width
        self.box.position = (x, y)
        self.box.width, self.box.height = self.width, self.height
        self.ring.position = (x - 3, y - 3)
        self.ring.width, self.ring.height = self.width + 6, self.height + 6
        self._show()

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.width and self.y <= y <= self.y + self.height

    def set_focus(self, focused: bool) -> None:
        self.focused = focused
        self.ring.visible = focused
        self._blink = 0.0
        self._show()

    def set_text(self, text: str) -> None:
        self.text = _one_line(text)[: self.max_length]
        self.caret_at = len(self.text)
        self._show()

    def update(self, dt: float) -> None:
        """The caret blinks while the field has the focus."""
        self._blink += dt
        self.caret.visible = self.focused and int(self._blink / CARET_BLINK) % 2 == 0

    # --- typing ----------------------------------------------------------------------------------
    def type(self, text: str) -> None:
        """Insert typed (or pasted) text at the caret; line breaks and control signs are left out."""
        text = _one_line(text)[: self.max_length - len(self.text)]
        if text:
            self.text = self.text[: self.caret_at] + text + self.text[self.caret_at:]
            self.caret_at += len(text)
            self._show()

    def move(self, motion: int, clipboard: str = "") -> None:
        """A caret motion of pyglet's (key.MOTION_...); `clipboard`: what MOTION_PASTE pastes."""
        at, text = self.caret_at, self.text
        if motion == key.MOTION_BACKSPACE and at > 0:
            self.text, self.caret_at = text[: at - 1] + text[at:], at - 1
        elif motion == key.MOTION_DELETE:
            self.text = text[:at] + text[at + 1:]
        elif motion == key.MOTION_LEFT:
            self.caret_at = max(0, at - 1)
        elif motion == key.MOTION_RIGHT:
            self.caret_at = min(len(text), at + 1)
        elif motion in (key.MOTION_BEGINNING_OF_LINE, key.MOTION_BEGINNING_OF_FILE, key.MOTION_UP):
            self.caret_at = 0
        elif motion in (key.MOTION_END_OF_LINE, key.MOTION_END_OF_FILE, key.MOTION_DOWN):
            self.caret_at = len(text)
        elif motion == key.MOTION_PREVIOUS_WORD:
            self.caret_at = text.rfind(" ", 0, max(0, at - 1)) + 1
        elif motion == key.MOTION_NEXT_WORD:
            found = text.find(" ", at + 1)
            self.caret_at = len(text) if found < 0 else found
        elif motion == key.MOTION_PASTE:
            self.type(clipboard)
            return
        self._blink = 0.0
        self._show()

    # --- drawing ---------------------------------------------------------------------------------
    def _width_of(self, text: str) -> float:
        self._measure.text = text
        return float(self._measure.content_width)

    def _show(self) -> None:
        """The part of the text that fits the box, with the caret in it."""
        room = self.width - 20
        self._start = min(self._start, self.caret_at)
        while self._start < self.caret_at and self._width_of(self.text[self._start:self.caret_at]) > room:
            self._start += 1
        end = len(self.text)
        while end > self.caret_at and self._width_of(self.text[self._start:end]) > room:
            end -= 1
        shown = self.text[self._start:end]
        if self.label.text != shown:
            self.label.text = shown
        middle = round(self.y + self.height / 2)
        self.label.position = (round(self.x + 10), middle, 0)
        self.placeholder.position = (round(self.x + 10), middle, 0)
        self.placeholder.visible = not self.text
        self.caret.position = (self.x + 10 + self._width_of(self.text[self._start:self.caret_at]),
                               middle - self.caret.height / 2)
        self.caret.visible = self.focused


def _one_line(text: str) -> str:
    return "".join(sign for sign in text if sign.isprintable())
