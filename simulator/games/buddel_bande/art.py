"""Buddel Bande's pictures, painted with numpy at start-up: the meadow, the haystack, the holes,
the three symbols (flower, leaf, four-leaf clover), a mole seen from above, the four clans'
pictures (ladybird, ant, worm, snail), Daniel the dog and the dens; made into images once per
process (`image`), and the colours the board's words are written in.

Every *_pixels function returns an RGBA uint8 array (rows bottom to top, as pyglet images
want), so tests can check them without a window; `image` turns them into images. Shapes are
painted in unit coordinates (-1..1, y up) with anti-aliased edges.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import Any

import numpy as np

from simulator.games.buddel_bande.rules import CLANS, SYMBOL_NAMES
from simulator.render.textures import painted

RGB = tuple[int, int, int]
TEXT = (250, 246, 232, 255)     # words on the meadow and the dark boxes
INK = (46, 34, 22, 255)         # words on the action card


class Canvas:
    """A square RGBA float picture with painting in unit coordinates (-1..1, y up)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.rgb = np.zeros((size, size, 3))
        self.alpha = np.zeros((size, size))
        half = (size - 1) / 2.0
        yy, xx = np.mgrid[0:size, 0:size].astype(float)
        self.x = (xx - half) / half
        self.y = (yy - half) / half
        self.pixel = 1.0 / half

    def ellipse_mask(self, cx: float, cy: float, rx: float, ry: float, angle: float = 0.0) -> np.ndarray:
        """Coverage (0..1) of an ellipse turned `angle` degrees counter-clockwise."""
        a = math.radians(angle)
        dx, dy = self.x - cx, self.y - cy
        u = dx * math.cos(a) + dy * math.sin(a)
        v = -dx * math.sin(a) + dy * math.cos(a)
        d = np.sqrt((u / rx) ** 2 + (v / ry) ** 2)
        return np.clip((1.0 - d) * min(rx, ry) / self.pixel + 0.5, 0.0, 1.0)

    def paint(self, mask: np.ndarray, colour: RGB | np.ndarray, opacity: float = 1.0) -> None:
        """Lay `colour` (a colour, or an (h, w, 3) field) over the picture where `mask` covers."""
        m = np.clip(mask * opacity, 0.0, 1.0)
        colour_field = np.asarray(colour, float)
        self.rgb = self.rgb * (1 - m[..., None]) + colour_field * m[..., None]
        self.alpha = self.alpha + m * (1 - self.alpha)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, colour: RGB, angle: float = 0.0,
                shade: float = 0.0, opacity: float = 1.0) -> None:
        """A filled ellipse; `shade` > 0 darkens it towards its lower right (a lit dome)."""
        mask = self.ellipse_mask(cx, cy, rx, ry, angle)
        field = np.broadcast_to(np.asarray(colour, float), self.rgb.shape)
        if shade:
            lit = 1.0 - shade * np.clip(((self.x - cx) / rx - (self.y - cy) / ry) * 0.5 + 0.3, 0, 1.2)
            field = field * lit[..., None]
        self.paint(mask, field, opacity)

    def stroke(self, points: list[tuple[float, float]], width: float, colour: RGB) -> None:
        """A round-ended line through `points`, `width` in unit coordinates."""
        mask = np.zeros_like(self.alpha)
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            dx, dy = x1 - x0, y1 - y0
            length = max(1e-9, dx * dx + dy * dy)
            t = np.clip(((self.x - x0) * dx + (self.y - y0) * dy) / length, 0, 1)
            d = np.hypot(self.x - (x0 + t * dx), self.y - (y0 + t * dy))
            mask = np.maximum(mask, np.clip((width / 2 - d) / self.pixel + 0.5, 0, 1))
        self.paint(mask, colour)

    def pixels(self) -> np.ndarray:
        out = np.empty((self.size, self.size, 4), np.uint8)
        out[..., :3] = np.clip(self.rgb, 0, 255)
        out[..., 3] = np.clip(self.alpha * 255, 0, 255)
        return out


def _noise(size: tuple[int, int], cells: int, seed: int) -> np.ndarray:
    """Smooth value noise in [0, 1]."""
    rng = np.random.default_rng(seed)
    h, w = size
    grid = rng.random((cells + 2, cells + 2))
    ys, xs = np.linspace(0, cells, h), np.linspace(0, cells, w)
    y0, x0 = ys.astype(int), xs.astype(int)
    fy, fx = (ys - y0)[:, None], (xs - x0)[None, :]
    fy, fx = fy * fy * (3 - 2 * fy), fx * fx * (3 - 2 * fx)
    top = grid[y0][:, x0] * (1 - fx) + grid[y0][:, x0 + 1] * fx
    bottom = grid[y0 + 1][:, x0] * (1 - fx) + grid[y0 + 1][:, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


# --- the meadow and its furniture ------------------------------------------------------------------

def meadow_pixels(width: int, height: int, seed: int = 3) -> np.ndarray:
    """Grass: greens mottled by noise, with short blades and a few daisies."""
    rng = np.random.default_rng(seed)
    mottle = 0.55 * _noise((height, width), 5, seed) + 0.3 * _noise((height, width), 17, seed + 1) \
        + 0.15 * rng.random((height, width))
    dark, light = np.array([62.0, 112.0, 48.0]), np.array([118.0, 168.0, 74.0])
    rgb = dark + (light - dark) * mottle[..., None]
    # blades: short darker and lighter strokes, leaning a little
    count = width * height // 90
    xs, ys = rng.integers(0, width, count), rng.integers(0, height - 6, count)
    tones = rng.choice([0.8, 1.15], count)
    lengths, leans = rng.integers(3, 7, count), rng.integers(-1, 2, count)
    for step in range(6):
        on = lengths > step
        xx = np.clip(xs[on] + (leans[on] * step) // 3, 0, width - 1)
        rgb[ys[on] + step, xx] *= tones[on][:, None]
    for _ in range(width * height // 9000):
        x, y = int(rng.integers(3, width - 3)), int(rng.integers(3, height - 3))
        rgb[y - 1:y + 2, x - 1:x + 2] = (250, 250, 240)
        rgb[y, x] = (240, 200, 60)
    out = np.empty((height, width, 4), np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = 255
    return out


def hole_pixels(size: int = 96) -> np.ndarray:
    """An exit hole: a ring of turned earth around a dark opening."""
    c = Canvas(size)
    c.ellipse(0, 0, 0.98, 0.98, (124, 88, 56), shade=0.35)
    crumbs = _noise((size, size), 9, 5)
    c.paint(c.ellipse_mask(0, 0, 0.98, 0.98) * (crumbs > 0.6), (96, 66, 40), 0.6)
    depth = np.clip(1 - np.hypot(c.x + 0.08, c.y - 0.08) / 0.72, 0, 1)
    opening = np.stack([40 - 28 * depth, 28 - 20 * depth, 20 - 14 * depth], -1)
    c.paint(c.ellipse_mask(0, 0, 0.72, 0.72), opening)
    return c.pixels()


def haystack_pixels(size: int = 256, seed: int = 4) -> np.ndarray:
    """The haystack seen from above: a golden mound of straw."""
    c = Canvas(size)
    rng = np.random.default_rng(seed)
    r = np.hypot(c.x, c.y)
    base = np.array([222.0, 184.0, 92.0]) * (1.08 - 0.4 * r)[..., None]
    c.paint(c.ellipse_mask(0, 0, 0.98, 0.98), base)
    for _ in range(260):
        angle = rng.uniform(0, 2 * math.pi)
        radius = rng.uniform(0.05, 0.9)
        x0, y0 = radius * math.cos(angle), radius * math.sin(angle)
        turn = angle + math.pi / 2 + rng.uniform(-0.6, 0.6)
        length = rng.uniform(0.08, 0.22)
        x1, y1 = x0 + length * math.cos(turn), y0 + length * math.sin(turn)
        if math.hypot(x1, y1) < 0.95:
            tone = rng.choice([(250, 222, 130), (176, 136, 58), (236, 200, 104)])
            c.stroke([(x0, y0), (x1, y1)], 0.018, tone)
    return c.pixels()


def den_pixels(size: int = 160) -> np.ndarray:
    """A den: a mound of dark earth with a rim, to hold three moles turned over."""
    c = Canvas(size)
    c.ellipse(0, 0, 0.98, 0.98, (112, 76, 46), shade=0.4)
    c.ellipse(0, 0, 0.84, 0.84, (82, 54, 32), shade=-0.25)
    grit = _noise((size, size), 13, 8)
    c.paint(c.ellipse_mask(0, 0, 0.84, 0.84) * (grit > 0.62), (66, 42, 24), 0.7)
    return c.pixels()


# --- the symbols ------------------------------------------------------------------------------------

def flower_pixels(size: int = 96) -> np.ndarray:
    c = Canvas(size)
    for n in range(5):
        a = math.radians(90 + 72 * n)
        c.ellipse(0.45 * math.cos(a), 0.45 * math.sin(a), 0.42, 0.27, (248, 244, 250), angle=math.degrees(a),
                  shade=0.25)
    c.ellipse(0, 0, 0.3, 0.3, (246, 196, 40), shade=0.4)
    return c.pixels()


def leaf_pixels(size: int = 96) -> np.ndarray:
    c = Canvas(size)
    c.stroke([(-0.55, -0.75), (-0.3, -0.45)], 0.09, (60, 110, 40))
    c.ellipse(0.08, 0.12, 0.45, 0.82, (86, 168, 60), angle=-35, shade=0.35)
    c.stroke([(-0.35, -0.5), (0.5, 0.7)], 0.05, (150, 210, 110))
    for t in (0.25, 0.45, 0.65):
        x, y = -0.35 + 0.85 * t, -0.5 + 1.2 * t
        c.stroke([(x, y), (x - 0.28, y + 0.08)], 0.03, (150, 210, 110))
        c.stroke([(x, y), (x + 0.2, y - 0.18)], 0.03, (150, 210, 110))
    return c.pixels()


def clover_pixels(size: int = 96) -> np.ndarray:
    c = Canvas(size)
    c.stroke([(0.0, 0.0), (0.25, -0.9)], 0.08, (50, 120, 50))
    for n in range(4):
        a = math.radians(45 + 90 * n)
        for side in (-1, 1):
            b = a + side * 0.42
            c.ellipse(0.38 * math.cos(b), 0.38 * math.sin(b), 0.24, 0.24, (48, 150, 62), shade=0.3)
    c.ellipse(0, 0, 0.1, 0.1, (40, 120, 50))
    return c.pixels()


SYMBOL_PAINTERS = (flower_pixels, leaf_pixels, clover_pixels)


# --- moles, clans and the dog ---------------------------------------------------------------------------

def mole_pixels(size: int = 128, seed: int = 6) -> np.ndarray:
    """A mole seen from above, snout up: velvet fur, pink snout, big pink digging hands. Every
    mole looks like this; only its size on the board differs."""
    c = Canvas(size)
    pink = (232, 158, 160)
    for side in (-1, 1):
        c.ellipse(side * 0.52, 0.28, 0.22, 0.15, pink, angle=side * 30, shade=0.2)     # hands
        c.ellipse(side * 0.36, -0.6, 0.13, 0.09, pink, angle=-side * 30, shade=0.2)    # feet
    c.ellipse(0, -0.82, 0.05, 0.12, pink)                                              # tail
    fur = _noise((size, size), 11, seed) * 0.5 + np.random.default_rng(seed).random((size, size)) * 0.2
    body = np.array([74.0, 64.0, 62.0]) * (0.8 + fur)[..., None]
    mask = c.ellipse_mask(0, -0.02, 0.48, 0.7)
    lit = 1.0 + 0.45 * np.clip(1 - np.hypot((c.x + 0.15) / 0.4, (c.y - 0.2) / 0.55), 0, 1)
    c.paint(mask, body * lit[..., None])
    c.ellipse(0, 0.74, 0.12, 0.14, pink, shade=0.2)                                   # snout
    for side in (-1, 1):
        c.ellipse(side * 0.13, 0.52, 0.035, 0.035, (20, 16, 16))                       # eyes
    return c.pixels()


def ladybird_pixels(size: int = 128) -> np.ndarray:
    c = Canvas(size)
    c.ellipse(0, 0.62, 0.32, 0.26, (30, 26, 26))
    c.ellipse(0, -0.08, 0.72, 0.78, (214, 40, 34), shade=0.35)
    c.stroke([(0, 0.62), (0, -0.84)], 0.05, (30, 26, 26))
    for x, y, r in ((-0.35, 0.25, 0.14), (0.35, 0.25, 0.14), (-0.42, -0.2, 0.12), (0.42, -0.2, 0.12),
                    (-0.22, -0.55, 0.11), (0.22, -0.55, 0.11)):
        c.ellipse(x, y, r, r, (30, 26, 26))
    for side in (-1, 1):
        c.ellipse(side * 0.12, 0.72, 0.06, 0.06, (250, 250, 240))
    return c.pixels()


def ant_pixels(size: int = 128) -> np.ndarray:
    c = Canvas(size)
    ink = (52, 34, 26)
    for y in (0.12, -0.08, -0.28):
        for side in (-1, 1):
            c.stroke([(0, y), (side * 0.45, y + 0.12), (side * 0.62, y - 0.12)], 0.05, ink)
    for side in (-1, 1):
        c.stroke([(side * 0.08, 0.72), (side * 0.3, 0.9)], 0.04, ink)
    c.ellipse(0, 0.55, 0.2, 0.2, (84, 54, 38), shade=0.4)
    c.ellipse(0, 0.05, 0.16, 0.26, (84, 54, 38), shade=0.4)
    c.ellipse(0, -0.52, 0.3, 0.4, (84, 54, 38), shade=0.4)
    return c.pixels()


def worm_pixels(size: int = 128) -> np.ndarray:
    c = Canvas(size)
    points = [(-0.75 + 1.5 * t / 24, 0.32 * math.sin(t / 24 * 2.2 * math.pi)) for t in range(25)]
    c.stroke(points, 0.3, (206, 120, 118))
    c.stroke(points, 0.2, (236, 156, 150))
    c.stroke(points[9:12], 0.32, (190, 96, 100))
    head = points[-1]
    c.ellipse(head[0] - 0.05, head[1] + 0.02, 0.04, 0.04, (40, 30, 30))
    return c.pixels()


def snail_pixels(size: int = 128) -> np.ndarray:
    c = Canvas(size)
    c.ellipse(0.05, -0.45, 0.85, 0.22, (214, 190, 150), shade=0.3)
    for side in (0.55, 0.75):
        c.stroke([(side, -0.35), (side + 0.1, 0.0)], 0.05, (190, 164, 124))
        c.ellipse(side + 0.1, 0.0, 0.06, 0.06, (70, 52, 40))
    c.ellipse(-0.12, 0.1, 0.6, 0.6, (168, 112, 56), shade=0.35)
    spiral = [(-0.12 + 0.5 * (1 - t / 40) * math.cos(t / 40 * 5 * math.pi),
               0.1 + 0.5 * (1 - t / 40) * math.sin(t / 40 * 5 * math.pi)) for t in range(41)]
    c.stroke(spiral, 0.06, (110, 66, 30))
    return c.pixels()


CLAN_PAINTERS = (ladybird_pixels, ant_pixels, worm_pixels, snail_pixels)
#: a colour for each clan (panel marks, den rims)
CLAN_COLOURS: tuple[RGB, ...] = ((214, 40, 34), (120, 78, 52), (226, 140, 140), (196, 146, 70))


def dog_pixels(size: int = 160) -> np.ndarray:
    """Daniel the dog seen from above, head up: a sandy body, brown ears, black nose."""
    c = Canvas(size)
    coat, patch = (222, 186, 128), (146, 94, 52)
    c.stroke([(0.05, -0.55), (0.3, -0.85)], 0.09, coat)                               # tail
    for side in (-1, 1):
        c.ellipse(side * 0.32, 0.15, 0.1, 0.14, coat)                                  # front paws
        c.ellipse(side * 0.3, -0.52, 0.1, 0.12, coat)                                  # hind paws
    c.ellipse(0, -0.15, 0.34, 0.5, coat, shade=0.3)
    c.ellipse(0.08, -0.25, 0.16, 0.2, patch, shade=0.2)
    c.ellipse(0, 0.42, 0.26, 0.26, coat, shade=0.3)                                    # head
    for side in (-1, 1):
        c.ellipse(side * 0.25, 0.4, 0.09, 0.2, patch, angle=side * 20, shade=0.2)      # ears
    c.ellipse(0, 0.66, 0.13, 0.13, coat, shade=0.2)                                    # muzzle
    c.ellipse(0, 0.74, 0.06, 0.05, (24, 20, 20))                                       # nose
    c.ellipse(0, 0.32, 0.17, 0.05, (190, 40, 40))                                      # collar
    return c.pixels()


def shadow_pixels(size: int = 64) -> np.ndarray:
    c = Canvas(size)
    r = np.hypot(c.x, c.y)
    c.paint(np.clip((1 - r) / 0.5, 0, 1) ** 1.5, (0, 0, 0), 0.55)
    return c.pixels()


def ring_pixels(size: int = 96, colour: RGB = (255, 236, 140)) -> np.ndarray:
    """A soft glowing ring: how a movable mole or a free dog spot is lit."""
    c = Canvas(size)
    r = np.hypot(c.x, c.y)
    glow = np.exp(-((r - 0.8) / 0.12) ** 2)
    c.paint(glow, colour)
    return c.pixels()


# --- the images (made once per process) ----------------------------------------------------------

@cache
def image(name: str) -> Any:
    """The picture called `name`, centred (the meadow anchored at its lower left): "meadow",
    "hole", "haystack", "den", "mole", "dog", "shadow", "ring" (a lit move), "ring-hover" (the
    move pointed at), a symbol's name (rules.SYMBOL_NAMES) or a clan's (rules.CLANS)."""
    if name == "meadow":
        return painted(meadow_pixels(600, 400), centre=False)
    painters = {"hole": hole_pixels, "haystack": haystack_pixels, "den": den_pixels,
                "mole": mole_pixels, "dog": dog_pixels, "shadow": shadow_pixels,
                "ring": ring_pixels, "ring-hover": lambda: ring_pixels(colour=(255, 255, 255))}
    if name in painters:
        return painted(painters[name]())
    if name in SYMBOL_NAMES:
        return painted(SYMBOL_PAINTERS[SYMBOL_NAMES.index(name)]())
    return painted(CLAN_PAINTERS[CLANS.index(name)]())
