"""PanZoom: a flat world (a network of cards that grows, a map) seen through a rectangle of the
window, moved by the person: drag to pan, the wheel zooms towards the pointer, the arrows pan, +
and - zoom, Home fits the content again.

`scale` is pixels per world unit and `centre` the world point at the rectangle's middle; the
owner sets `rect` from its layout, redraws after a move and, while `follow` holds (until the
person pans or zooms), fits its content with `fit()` as it changes.
"""

from __future__ import annotations

import math

from pyglet.window import key

from simulator.render.widgets import Area

WHEEL_ZOOM = 1.15          # one notch of the wheel
KEY_ZOOM = 1.2             # one press of + or -
PAN_KEYS = {key.LEFT: (-1, 0), key.RIGHT: (1, 0), key.UP: (0, 1), key.DOWN: (0, -1)}
ZOOM_IN_KEYS = (key.PLUS, key.EQUAL, key.NUM_ADD)
ZOOM_OUT_KEYS = (key.MINUS, key.NUM_SUBTRACT)


class PanZoom:
    """The world <-> pixel transform of a panned and zoomed flat board, and its moves."""

    def __init__(self, scale: float, centre: tuple[float, float], smallest: float, largest: float) -> None:
        self.rect: Area = (0.0, 0.0, 1.0, 1.0)     # the board's rectangle in window pixels
        self.scale = scale                          # pixels per world unit
        self.centre = centre                        # the world point at the rectangle's middle
        self.smallest, self.largest = smallest, largest
        self.follow = True                          # the owner fits its content until a move
        self.dragging = False                       # a drag on the board pans it

    # --- the transform ---------------------------------------------------------------------------
    def to_pixel(self, wx: float, wy: float) -> tuple[float, float]:
        bx, by, bw, bh = self.rect
        return bx + bw / 2 + (wx - self.centre[0]) * self.scale, by + bh / 2 + (wy - self.centre[1]) * self.scale

    def to_world(self, px: float, py: float) -> tuple[float, float]:
        bx, by, bw, bh = self.rect
        return (px - bx - bw / 2) / self.scale + self.centre[0], (py - by - bh / 2) / self.scale + self.centre[1]

    def cell_at(self, px: float, py: float) -> tuple[int, int]:
        """The world's unit cell under the pixel."""
        wx, wy = self.to_world(px, py)
        return math.floor(wx), math.floor(wy)

    def contains(self, px: float, py: float) -> bool:
        """Is the pixel on the board's rectangle?"""
        bx, by, bw, bh = self.rect
        return bx <= px < bx + bw and by <= py < by + bh

    def near(self, px: float, py: float, margin: float) -> bool:
        """Is the pixel on the rectangle grown by `margin` pixels on every side?"""
        bx, by, bw, bh = self.rect
        return bx - margin <= px < bx + bw + margin and by - margin <= py < by + bh + margin

    # --- moves -----------------------------------------------------------------------------------
    def fit(self, left: float, bottom: float, right: float, top: float, margin: float,
            most: float | None = None) -> None:
        """Centre the world box and zoom so that it and `margin` world units around it show,
        zoomed in no further than `most` (else `largest`) and out no further than `smallest`."""
        _, _, bw, bh = self.rect
        span_x, span_y = right - left + 2 * margin, top - bottom + 2 * margin
        self.scale = max(self.smallest, min(self.largest if most is None else most, bw / span_x, bh / span_y))
        self.centre = ((left + right) / 2, (bottom + top) / 2)

    def zoom(self, factor: float, px: float | None = None, py: float | None = None) -> None:
        """Zoom by `factor` towards a pixel (the rectangle's middle when none is given), which
        stays over the same world point."""
        bx, by, bw, bh = self.rect
        px = bx + bw / 2 if px is None else px
        py = by + bh / 2 if py is None else py
        before = self.to_world(px, py)
        self.scale = max(self.smallest, min(self.largest, self.scale * factor))
        after = self.to_world(px, py)
        self.centre = (self.centre[0] + before[0] - after[0], self.centre[1] + before[1] - after[1])
        self.follow = False

    def drag(self, dx: float, dy: float) -> None:
        """The pointer dragged the board by (dx, dy) pixels: the world goes with it."""
        self.follow = False
        self.centre = (self.centre[0] - dx / self.scale, self.centre[1] - dy / self.scale)

    def pan(self, dx: float, dy: float) -> None:
        """Look (dx, dy) world units further along."""
        self.follow = False
        self.centre = (self.centre[0] + dx, self.centre[1] + dy)

    def bring_into_view(self, wx: float, wy: float, margin: float) -> bool:
        """Centre on a world point chosen from the keyboard unless it already shows, `margin`
        pixels inside the rectangle; True when the board moved. It still follows if it did
        (for this choice only: the next change fits the content again)."""
        px, py = self.to_pixel(wx, wy)
        bx, by, bw, bh = self.rect
        if bx + margin <= px <= bx + bw - margin and by + margin <= py <= by + bh - margin:
            return False
        self.centre = (wx, wy)
        return True

    def on_key(self, symbol: int, step: float = 2.0) -> bool:
        """The board's keys: the arrows pan `step` world units, + and - zoom, Home follows the
        content again (the owner fits it). True when the key was one of them."""
        if symbol in PAN_KEYS:
            self.pan(PAN_KEYS[symbol][0] * step, PAN_KEYS[symbol][1] * step)
        elif symbol in ZOOM_IN_KEYS:
            self.zoom(KEY_ZOOM)
        elif symbol in ZOOM_OUT_KEYS:
            self.zoom(1 / KEY_ZOOM)
        elif symbol == key.HOME:
            self.follow = True
        else:
            return False
        return True
