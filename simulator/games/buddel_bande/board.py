"""Where things lie on Buddel Bande's board (pure numbers, no window): the winding track of 24
exit holes and the den entrance, the spots beside them where the dog sits, the haystack's
numbered spots, the dens; and `Board`, which fits the board (ASPECT wide, 1 high: "board
heights", (0, 0) its lower left) into the view's rectangle and turns board heights into pixels.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from simulator.games.buddel_bande.rules import DEN_ENTRANCE, HAYSTACK, IN_DEN, BuddelState

ASPECT = 1.5                    # board width over height
MARGIN = 12                     # pixels around the board in the view
HOLE_RADIUS = 0.042             # in board heights
MOLE_WIDTH = (0.085, 0.1, 0.118)   # sprite width per size, board heights
DOG_WIDTH = 0.1
DOG_OFFSET = 0.078              # the dog sits this far beside its hole

# --- the track (its centre line, the holes on it) ----------------------------------------------

ROW, TURN_RADIUS = 0.64, 0.13
#: the track's centre line: straight rows joined by half turns (kind, start point, then a
#: direction for a line, or a centre and a sense (+1 counter-clockwise) for a half turn)
SEGMENTS: tuple[tuple[Any, ...], ...] = (
    ("line", (0.38, 0.12), (1.0, 0.0)),
    ("turn", (1.02, 0.12), (1.02, 0.25), 1.0),
    ("line", (1.02, 0.38), (-1.0, 0.0)),
    ("turn", (0.38, 0.38), (0.38, 0.51), -1.0),
    ("line", (0.38, 0.64), (1.0, 0.0)),
)


def _path_point(s: float) -> tuple[float, float, float, float]:
    """Point and unit direction at arc length `s` along the track."""
    for n, (kind, (x0, y0), *rest) in enumerate(SEGMENTS):
        length = ROW if kind == "line" else math.pi * TURN_RADIUS
        if s > length and n < len(SEGMENTS) - 1:
            s -= length
            continue
        if kind == "line":
            (dx, dy), = rest
            return x0 + dx * s, y0 + dy * s, dx, dy
        (cx, cy), sense = rest
        angle = -math.pi / 2 + sense * s / TURN_RADIUS       # both turns start below their centre
        x, y = cx + TURN_RADIUS * math.cos(angle), cy + TURN_RADIUS * math.sin(angle)
        return x, y, -sense * math.sin(angle), sense * math.cos(angle)
    raise AssertionError("unreachable")


@cache
def track() -> tuple[tuple[float, float, float, float], ...]:
    """(x, y, nx, ny) of holes 1-24 and the den entrance (index 25; index 0 unused), with the
    unit normal on the right of the way the moles run (the dog's side)."""
    total = 3 * ROW + 2 * math.pi * TURN_RADIUS
    spots = [(0.0, 0.0, 0.0, 0.0)]
    for n in range(1, DEN_ENTRANCE + 1):
        x, y, dx, dy = _path_point(total * (n - 1) / (DEN_ENTRANCE - 1))
        spots.append((x, y, dy, -dx))
    return tuple(spots)


def turn_outward(hole: int) -> tuple[float, float] | None:
    """For a hole on one of the half turns, the unit vector pointing away from the turn's centre
    (the dog and the hole's number go outside, its symbol inside); None for a hole on a straight
    row."""
    x, y, _, _ = track()[hole]
    for kind, start, *rest in SEGMENTS:
        if kind == "turn":
            (cx, cy), _ = rest
            distance = math.hypot(x - cx, y - cy)
            if abs(distance - TURN_RADIUS) < 1e-6 and abs(y - start[1]) > 1e-6 \
                    and abs(y - (2 * cy - start[1])) > 1e-6:
                return (x - cx) / distance, (y - cy) / distance
    return None


# --- the haystack and the dens ---------------------------------------------------------------------

HAYSTACK_CENTRE, HAYSTACK_RADIUS = (0.175, 0.185), 0.155


def haystack_spots(count: int) -> list[tuple[float, float]]:
    """Where the moles of the haystack's numbered spots stand: an outer ring and an inner one."""
    inner = count // 3
    outer = count - inner
    cx, cy = HAYSTACK_CENTRE
    spots = []
    for n in range(outer):
        a = math.radians(90 - 360 * n / outer)
        spots.append((cx + 0.11 * math.cos(a), cy + 0.11 * math.sin(a)))
    for n in range(inner):
        a = math.radians(45 - 360 * n / inner)
        spots.append((cx + 0.045 * math.cos(a), cy + 0.045 * math.sin(a)))
    return spots


def den_centre(clan: int, players: int) -> tuple[float, float]:
    """The middle of a clan's den, the dens in play one above the other on the right."""
    step = 0.18
    top = 0.66 - (4 - players) * step / 2
    return 1.37, top - clan * step


# --- the board in the view's pixels ----------------------------------------------------------------

class Board:
    """The board fitted into the view: `unit` pixels per board height, `origin` its lower left
    pixel; where holes, dog spots and moles are in pixels."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.unit = 100.0
        self.origin = (0.0, 0.0)

    def fit(self, x: float, y: float, width: float, height: float) -> None:
        """As large as the rectangle allows, MARGIN pixels clear of its edges, centred in it."""
        unit = min((width - 2 * MARGIN) / ASPECT, height - 2 * MARGIN)
        self.unit = unit
        self.origin = (x + (width - unit * ASPECT) / 2, y + (height - unit) / 2)

    def px(self, u: float, v: float) -> tuple[float, float]:
        """A point in board heights, in pixels."""
        return self.origin[0] + u * self.unit, self.origin[1] + v * self.unit

    def hole_xy(self, hole: int) -> tuple[float, float]:
        x, y, _, _ = track()[hole]
        return self.px(x, y)

    def dog_xy(self, hole: int) -> tuple[float, float]:
        """Where the dog sits beside `hole`."""
        x, y, nx, ny = track()[hole]
        # on a turn: outside it (inside, the spots beside two holes nearly meet: the dog beside
        # hole 17 looked to sit between 17 and 18)
        nx, ny = turn_outward(hole) or (nx, ny)
        return self.px(x + nx * DOG_OFFSET, y + ny * DOG_OFFSET)

    def mole_xy(self, state: BuddelState, mole: int) -> tuple[float, float]:
        """Where a mole stands: its haystack spot, its hole, or its place in its clan's den."""
        position = state.pos[mole]
        if position == HAYSTACK:
            return self.px(*haystack_spots(3 * self.players)[mole])
        if position == IN_DEN:
            clan = state.clan[mole]
            slot = sorted(state.den_moles(clan)).index(mole)
            cx, cy = den_centre(clan, self.players)
            return self.px(cx + (slot - 1) * 0.052, cy - 0.01)
        return self.hole_xy(position)
