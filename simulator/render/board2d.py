"""A flat board in the window: `GridLayout`, the geometry of a board of intersections (points
<-> pixels, sized to fit an area), and `ClipGroup`, which keeps a board that pans inside its own
rectangle (a board of cards laid in a growing network uses it without the grid).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyglet import gl
from pyglet.graphics import Group


@dataclass
class GridLayout:
    columns: int
    rows: int
    spacing: float = 40.0      # pixels between neighbouring points
    origin_x: float = 0.0      # pixel position of point (0, 0)
    origin_y: float = 0.0
    margin: float = 1.0        # board border around the outer points, in spacings

    def fit(self, x: float, y: float, width: float, height: float) -> None:
        """Largest spacing so the board (points plus margin) fits the area, centred in it."""
        span_x = self.columns - 1 + 2 * self.margin
        span_y = self.rows - 1 + 2 * self.margin
        self.spacing = max(4.0, min(width / span_x, height / span_y))
        board_w, board_h = span_x * self.spacing, span_y * self.spacing
        self.origin_x = x + (width - board_w) / 2 + self.margin * self.spacing
        self.origin_y = y + (height - board_h) / 2 + self.margin * self.spacing

    def board_rect(self) -> tuple[float, float, float, float]:
        m = self.margin * self.spacing
        return (self.origin_x - m, self.origin_y - m,
                (self.columns - 1) * self.spacing + 2 * m, (self.rows - 1) * self.spacing + 2 * m)

    def to_pixel(self, column: int, row: int) -> tuple[float, float]:
        return self.origin_x + column * self.spacing, self.origin_y + row * self.spacing

    def to_point(self, px: float, py: float, snap: float = 0.48) -> tuple[int, int] | None:
        """The point nearest the pixel when within `snap` spacings of it, else None."""
        fx = (px - self.origin_x) / self.spacing
        fy = (py - self.origin_y) / self.spacing
        column, row = round(fx), round(fy)
        if not (0 <= column < self.columns and 0 <= row < self.rows):
            return None
        if abs(fx - column) > snap or abs(fy - row) > snap:
            return None
        return column, row


class ClipGroup(Group):
    """Draws its children only inside a rectangle of the window (GL's scissor test), so a board
    that pans past its table never spills over the panels around it. `box` is in window
    coordinates; the owner sets it whenever its layout changes."""

    def __init__(self, window: Any, order: int = 0, parent: Group | None = None) -> None:
        super().__init__(order, parent)
        self.window = window
        self.box = (0.0, 0.0, 1.0, 1.0)

    def set_state(self) -> None:
        x, y, width, height = self.box
        ratio = self.window.get_pixel_ratio()
        gl.glEnable(gl.GL_SCISSOR_TEST)
        gl.glScissor(int(x * ratio), int(y * ratio), max(1, int(width * ratio)), max(1, int(height * ratio)))

    def unset_state(self) -> None:
        gl.glDisable(gl.GL_SCISSOR_TEST)

    def __eq__(self, other: object) -> bool:      # each board's clip is its own (its box may differ)
        return self is other

    def __hash__(self) -> int:
        return id(self)
