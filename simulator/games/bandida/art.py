"""Bandida's pictures and colours: card faces, backs and the felt painted with numpy (no image
files; the pixels need no window), made into images once per process (`face_image`,
`back_image`, `felt_image`), and the colours the table draws with.

A face is earth with tunnels dug into it: brown grainy soil, a dark tunnel with a lighter rim
running from each opening to the middle of its cell, the two cells' tunnels joined through the
card's middle, a round chamber where a tunnel ends, and the object's icon on a badge. The card
is drawn at rotation 0 (cell A left, cell B right), `CELL` pixels per cell; the view turns the
sprite. Rows run bottom to top, as pyglet images do.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from simulator.games.bandida.cards import (
    ALARM1,
    ALARM2,
    BACKPACK,
    CELL,
    DISCARD,
    DYNAMITE,
    EDGE_CELL,
    EDGE_DIRECTION,
    KINDS,
    LADDER,
    SKIP,
    SUPER,
    Kind,
)
from simulator.render.textures import _smooth_noise, painted

CELL_PX = 64
EARTH_LIGHT = np.array((170, 122, 72), float)
EARTH_DARK = np.array((112, 74, 40), float)
TUNNEL = np.array((44, 28, 18), float)
RIM = np.array((205, 160, 104), float)
BACK_A = np.array((36, 52, 96), float)
BACK_B = np.array((22, 30, 58), float)


def _grid(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    ys, xs = np.mgrid[0:height, 0:width]
    return xs + 0.5, ys + 0.5


def _segment_distance(xs: np.ndarray, ys: np.ndarray, a: tuple[float, float], b: tuple[float, float]) -> np.ndarray:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy or 1.0
    t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / length, 0, 1)
    return np.hypot(xs - (ax + t * dx), ys - (ay + t * dy))


def _paint(rgb: np.ndarray, mask: np.ndarray, colour: np.ndarray | tuple, alpha: float = 1.0) -> None:
    colour = np.asarray(colour, float)
    weight = np.clip(mask, 0, 1)[..., None] * alpha
    rgb[:] = rgb * (1 - weight) + colour * weight


def _soft(distance: np.ndarray, radius: float | np.ndarray, edge: float = 1.2) -> np.ndarray:
    """1 inside `radius`, fading to 0 over `edge` pixels: anti-aliased shapes."""
    return np.clip((radius - distance) / edge + 0.5, 0, 1)


def _rounded_alpha(height: int, width: int, radius: float) -> np.ndarray:
    xs, ys = _grid(height, width)
    cx = np.clip(xs, radius, width - radius)
    cy = np.clip(ys, radius, height - radius)
    return _soft(np.hypot(xs - cx, ys - cy), radius)


def card_pixels(kind: Kind, side: int = 6, seed: int = 0, cell: int = CELL_PX) -> np.ndarray:
    """RGBA uint8 (cell, 2 * cell, 4): the face of a card of `kind` (side 5 or 6 for the two-sided
    cards)."""
    h, w = cell, 2 * cell
    rng = np.random.default_rng(1000 + kind.index * 7 + side + seed)
    noise = 0.65 * _smooth_noise(rng, (h, w), (4, 8)) + 0.35 * _smooth_noise(rng, (h, w), (16, 32))
    rgb = EARTH_LIGHT * (1 - noise[..., None]) + EARTH_DARK * noise[..., None]
    pebbles = rng.random((h, w)) > 0.985
    rgb[pebbles] = rgb[pebbles] * 0.6 + np.array((210, 190, 160)) * 0.4
    xs, ys = _grid(h, w)
    centres = ((cell * 0.5, cell * 0.5), (cell * 1.5, cell * 0.5))
    ends = {0: (cell, 0), 1: (0, cell), 2: (-cell, 0), 3: (0, -cell)}   # east, north, west, south
    openings = kind.openings(side).split("+") if kind.openings(side) else []
    segments = []
    used = [False, False]
    for edge in openings:
        which = EDGE_CELL[edge]
        cx, cy = centres[which]
        dx, dy = ends[EDGE_DIRECTION[edge]]
        segments.append(((cx, cy), (cx + dx * 0.52, cy + dy * 0.52)))
        used[which] = True
    if all(used):
        segments.append((centres[0], centres[1]))
    width = cell * 0.19
    if segments:
        distance = np.min([_segment_distance(xs, ys, a, b) for a, b in segments], axis=0)
        for which, is_used in enumerate(used):
            if is_used:
                distance = np.minimum(distance, np.hypot(xs - centres[which][0], ys - centres[which][1]) - cell * 0.06)
        _paint(rgb, _soft(distance, width + cell * 0.06), RIM, 0.9)
        _paint(rgb, _soft(distance, width), TUNNEL)
        _paint(rgb, _soft(distance, width * 0.45) * 0.25, (90, 60, 40))
    _icon(rgb, kind, xs, ys, cell)
    # a dark edge round the card
    border = np.minimum(np.minimum(xs, w - xs), np.minimum(ys, h - ys))
    _paint(rgb, (border < 2.5).astype(float), (70, 44, 22), 0.8)
    out = np.empty((h, w, 4), np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = (255 * _rounded_alpha(h, w, cell * 0.1)).astype(np.uint8)
    return out


def _badge(rgb: np.ndarray, xs: np.ndarray, ys: np.ndarray, centre: tuple[float, float], radius: float,
           colour: tuple) -> np.ndarray:
    d = np.hypot(xs - centre[0], ys - centre[1])
    _paint(rgb, _soft(d, radius + 2), (40, 30, 20), 0.7)
    _paint(rgb, _soft(d, radius), colour)
    return d


def _icon(rgb: np.ndarray, kind: Kind, xs: np.ndarray, ys: np.ndarray, cell: int) -> None:
    icon = kind.icon
    r = cell * 0.2
    if icon == LADDER:
        x0, x1 = cell * 1.25, cell * 1.75
        for x in (x0, x1):
            _paint(rgb, _soft(_segment_distance(xs, ys, (x, cell * 0.12), (x, cell * 0.88)), 2.6), (222, 190, 120))
        for k in range(4):
            y = cell * (0.22 + 0.19 * k)
            _paint(rgb, _soft(_segment_distance(xs, ys, (x0, y), (x1, y)), 2.0), (222, 190, 120))
        return
    if icon in (SUPER, CELL):
        centre = (cell * 1.0, cell * 0.5)
        if icon == CELL:
            d = _badge(rgb, xs, ys, centre, r * 1.15, (96, 96, 104))
            for k in (-1, 0, 1):
                x = centre[0] + k * r * 0.5
                _paint(rgb, _soft(_segment_distance(xs, ys, (x, centre[1] - r * 0.8), (x, centre[1] + r * 0.8)), 1.8)
                       * (d < r), (220, 220, 225))
        else:
            _badge(rgb, xs, ys, centre, r * 1.15, (190, 40, 40))
            angle = np.arctan2(ys - centre[1], xs - centre[0])
            star = r * (0.55 + 0.35 * np.cos(5 * (angle - np.pi / 2)))
            _paint(rgb, _soft(np.hypot(xs - centre[0], ys - centre[1]), star), (250, 214, 90))
        return
    centre = (cell * 1.0, cell * 0.5)
    if icon == DYNAMITE:
        _badge(rgb, xs, ys, centre, r, (238, 228, 200))
        _paint(rgb, _soft(_segment_distance(xs, ys, (centre[0] - r * 0.2, centre[1] - r * 0.6),
                                             (centre[0] - r * 0.2, centre[1] + r * 0.35)), r * 0.28), (200, 30, 30))
        _paint(rgb, _soft(_segment_distance(xs, ys, (centre[0] - r * 0.2, centre[1] + r * 0.35),
                                             (centre[0] + r * 0.35, centre[1] + r * 0.7)), 1.2), (40, 40, 40))
        _paint(rgb, _soft(np.hypot(xs - centre[0] - r * 0.4, ys - centre[1] - r * 0.72), r * 0.22), (255, 200, 40))
    elif icon == BACKPACK:
        _badge(rgb, xs, ys, centre, r, (238, 228, 200))
        bag = np.maximum(np.abs(xs - centre[0]) - r * 0.4, np.abs(ys - centre[1] + r * 0.1) - r * 0.5)
        _paint(rgb, _soft(bag, 1.5), (70, 120, 60))
        flap = np.maximum(np.abs(xs - centre[0]) - r * 0.42, np.abs(ys - centre[1] - r * 0.2) - r * 0.12)
        _paint(rgb, _soft(flap, 1.0), (40, 80, 40))
    elif icon == DISCARD:
        _badge(rgb, xs, ys, centre, r, (238, 228, 200))
        for a, b in (((-0.5, -0.5), (0.5, 0.5)), ((-0.5, 0.5), (0.5, -0.5))):
            _paint(rgb, _soft(_segment_distance(xs, ys, (centre[0] + a[0] * r, centre[1] + a[1] * r),
                                                 (centre[0] + b[0] * r, centre[1] + b[1] * r)), r * 0.16), (200, 40, 40))
    elif icon == SKIP:
        _badge(rgb, xs, ys, centre, r, (238, 228, 200))
        for shift in (-0.3, 0.25):
            for a, b in (((-0.25, 0.45), (0.2, 0.0)), ((-0.25, -0.45), (0.2, 0.0))):
                _paint(rgb, _soft(_segment_distance(xs, ys, (centre[0] + (a[0] + shift) * r, centre[1] + a[1] * r),
                                                     (centre[0] + (b[0] + shift) * r, centre[1] + b[1] * r)), r * 0.12),
                       (40, 80, 170))
    elif icon in (ALARM1, ALARM2):
        _badge(rgb, xs, ys, centre, r * 1.3, (210, 40, 40))
        _paint(rgb, _soft(_segment_distance(xs, ys, (centre[0], centre[1] - r * 0.05),
                                             (centre[0], centre[1] + r * 0.75)), r * 0.16), (255, 255, 255))
        _paint(rgb, _soft(np.hypot(xs - centre[0], ys - centre[1] + r * 0.45), r * 0.17), (255, 255, 255))


def back_pixels(cell: int = CELL_PX) -> np.ndarray:
    """RGBA uint8 (cell, 2 * cell, 4): the back of every card, dark blue with a lattice."""
    h, w = cell, 2 * cell
    xs, ys = _grid(h, w)
    lattice = (np.sin(xs * 0.35 + ys * 0.35) * np.sin(xs * 0.35 - ys * 0.35) > 0.55).astype(float)
    rgb = np.empty((h, w, 3))
    rgb[:] = BACK_A
    _paint(rgb, lattice, BACK_B, 0.8)
    border = np.minimum(np.minimum(xs, w - xs), np.minimum(ys, h - ys))
    _paint(rgb, ((border > 3) & (border < 5.5)).astype(float), (200, 170, 90))
    out = np.empty((h, w, 4), np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = (255 * _rounded_alpha(h, w, cell * 0.1)).astype(np.uint8)
    return out


def felt_pixels(size: int = 256, seed: int = 3) -> np.ndarray:
    """RGBA uint8 (size, size, 4): green baize with a soft nap, for tiling the table."""
    rng = np.random.default_rng(seed)
    noise = 0.6 * _smooth_noise(rng, (size, size), (8, 8)) + 0.4 * rng.random((size, size))
    base = np.array((34, 98, 56), float)
    rgb = base * (0.86 + 0.2 * noise[..., None])
    out = np.empty((size, size, 4), np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = 255
    return out


# --- the pictures the table shows, each made once per process and shared by every view ------------
FELT_PX = 512


@cache
def face_image(kind: int, side: int) -> Any:
    """The face of a card kind (side 5 or 6 of a two-sided card; 0: its only side), centred."""
    return painted(card_pixels(KINDS[kind], side or 6))


@cache
def back_image() -> Any:
    """The back every card shows face down, centred."""
    return painted(back_pixels())


@cache
def felt_image() -> Any:
    """The table's felt, FELT_PX square, anchored at its lower left."""
    return painted(felt_pixels(FELT_PX), centre=False)


# --- the table's colours (RGBA) --------------------------------------------------------------------
VIGNETTE = (10, 30, 16, 110)             # the felt darker at its edges
STRIP = (52, 34, 20, 255)                # the wooden strip of the viewer's hand and the pile
STRIP_EDGE = (150, 104, 56, 255)
TOP_STRIP = (52, 34, 20, 235)            # the strip of the other hands
BANNER = (20, 16, 12, 190)               # the box of what just happened
BANNER_TEXT = (250, 236, 200, 255)
PILE_TEXT = (240, 226, 190, 255)         # the pile's count, the other seats' names
HAND_TEXT = (230, 210, 170, 255)         # the hand's title, the number key over each card
NOTE_TEXT = (200, 186, 150, 255)         # counts under the other hands, the cards out of the game
SHADOW = (0, 0, 0, 70)                   # under each card of the network
EXIT_LIGHT = (255, 214, 90, 220)         # an open exit
BLAST_RING = (230, 50, 40, 255)          # a card the dynamite may blow up
LOST_RING = (235, 40, 30, 255)           # the cell the game was lost to
CHOSEN_RING = (255, 240, 120, 255)       # the thing under the mouse, or chosen with Tab
UNAVAILABLE_RING = (120, 120, 120, 200)  # a card the dynamite may not blow up, hovered
SPOT_LIT = (255, 210, 60, 90)            # a spot where the held card fits
SPOT_CHOSEN = (120, 240, 120, 120)       # the spot it would go to now
REFUSED_TINT = (255, 120, 110)           # the held card over a spot where it does not fit
