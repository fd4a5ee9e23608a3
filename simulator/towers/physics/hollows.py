"""Where the top of a tower has hollows a piece could hook into: holes, cups, grooves, notches.

Rays look straight down on the tower over a grid (height_map.py). A grid point lies in
a hollow when, walking away from it both ways along x (or both ways along y), the surface rises
by at least `depth_mm` within `reach_mm` on each side: a groove, a notch, or the gap between two
pieces; a hole or a cup rises on all four sides. A walk that leaves the tower (its ray meets the
table) finds no rim that way, so a tower's outer edge is never a hollow. Neighbouring hollow
points form one hollow; it is reported by its centre (weighted by depth) and its depth.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.towers.physics.height_map import connected_groups


@dataclass(frozen=True)
class Hollow:
    x_mm: float                 # its centre, in the frame of the heights given
    y_mm: float
    depth_mm: float             # how far the lower rim stands above its deepest point
    kind: str                   # "hole" (closed all round) or "groove" (closed on two sides)
    points: int                 # grid points in it


def _rims(heights: np.ndarray, reach: int) -> list[np.ndarray]:
    """The highest surface within `reach` grid steps in each direction (+x, -x, +y, -y) from
    every point; -inf where the walk leaves the tower first."""
    low = np.where(np.isnan(heights), -np.inf, heights)
    nx, ny = heights.shape
    rims = []
    for axis, sign in ((0, 1), (0, -1), (1, 1), (1, -1)):
        rim = np.full(heights.shape, -np.inf)
        stopped = np.zeros(heights.shape, dtype=bool)     # the walk met the table: open that way
        for step in range(1, reach + 1):
            shifted = np.full(heights.shape, -np.inf)
            size = nx if axis == 0 else ny
            if step >= size:
                break
            source = [slice(None), slice(None)]
            target = [slice(None), slice(None)]
            source[axis] = slice(step, None) if sign > 0 else slice(None, -step)
            target[axis] = slice(None, -step) if sign > 0 else slice(step, None)
            shifted[tuple(target)] = low[tuple(source)]
            stopped |= shifted == -np.inf
            rim = np.where(stopped, rim, np.maximum(rim, shifted))
        rims.append(rim)
    return rims


def find_hollows(heights_mm: np.ndarray, xs_mm: np.ndarray, ys_mm: np.ndarray, reach_mm: float = 30.0,
                 depth_mm: float = 3.0) -> list[Hollow]:
    """The hollows of a height map (mm; NaN off the tower) over the grid xs x ys, deepest first."""
    step = float(xs_mm[1] - xs_mm[0]) if len(xs_mm) > 1 else 1.0
    reach = max(1, round(reach_mm / step))
    plus_x, minus_x, plus_y, minus_y = (rim - heights_mm for rim in _rims(heights_mm, reach))
    along_x = np.minimum(plus_x, minus_x)         # closed in on both sides along x
    along_y = np.minimum(plus_y, minus_y)
    groove = np.nan_to_num(np.maximum(along_x, along_y), nan=-np.inf)
    hole = np.nan_to_num(np.minimum(along_x, along_y), nan=-np.inf)
    inside = groove >= depth_mm
    hollows = []
    for members in connected_groups(inside):
        weights = np.array([groove[m] for m in members])
        x = float(np.average([xs_mm[i] for i, _ in members], weights=weights))
        y = float(np.average([ys_mm[j] for _, j in members], weights=weights))
        closed = max(hole[m] for m in members) >= depth_mm
        hollows.append(Hollow(round(x, 1), round(y, 1), round(float(weights.max()), 1),
                              "hole" if closed else "groove", len(members)))
    return sorted(hollows, key=lambda h: (-h.depth_mm, -h.points, h.x_mm, h.y_mm))

