"""TableButton: a button that lies on a game's table rather than in the side panel (swap your
hand, pass, keep the rest), carrying the action a click on it sends; hidden while there is none.
Brass by default, as wide as its text needs.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from pyglet import shapes
from pyglet.graphics import Batch, Group

from simulator.render.widgets import label

A = TypeVar("A")

BRASS = (214, 160, 72, 255)
BRASS_TEXT = (30, 22, 12, 255)


class TableButton(Generic[A]):
    """A rounded button drawn in a view's own batch, shown with its text and action at a place."""

    def __init__(self, batch: Batch, group: Group, text_group: Group, colour: tuple[int, int, int, int] = BRASS,
                 text_colour: tuple[int, int, int, int] = BRASS_TEXT, size: float = 13,
                 height: float = 36, least_width: float = 120) -> None:
        self.box = shapes.RoundedRectangle(0, 0, 150, height, radius=8, segments=6, color=colour,
                                           batch=batch, group=group)
        self.text = label("", size=size, batch=batch, group=text_group, anchor_x="center", anchor_y="center",
                          color=text_colour, bold=True)
        self.least_width = least_width
        self.action: A | None = None
        self.set_visible(False)

    def show(self, text: str, action: A, x: float, y: float) -> None:
        """Shown with `text`, its bottom middle at (x, y); a click sends `action`."""
        self.text.text = text
        self.box.width = max(self.least_width, self.text.content_width + 30)
        self.box.position = (x - self.box.width / 2, y)
        self.text.position = (x, y + self.box.height / 2, 0)
        self.action = action
        self.set_visible(True)

    def set_visible(self, visible: bool) -> None:
        self.box.visible = self.text.visible = visible
        if not visible:
            self.action = None

    def contains(self, x: float, y: float) -> bool:
        b = self.box
        return b.visible and b.x <= x <= b.x + b.width and b.y <= y <= b.y + b.height
