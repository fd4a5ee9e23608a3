"""Where on a tower a piece can land flat: the shelves of its surface, and the room they leave.

A tower is not one column. A piece that leaves a pointed top (a cone, an egg) may stand at one
end of the base, and the next piece on the flat part beside it. Rays look straight down on the
tower over a grid (World.surface_heights, as for hollows.py); a grid point is a **landing spot**
for a piece of a given footprint when

- the surface is flat around it: every point within `support_mm` of it lies on the tower and
  within `flat_mm` of its height (the piece rests on something, not on an edge or a point), and
- the footprint is clear: nothing of the tower within the piece's footprint (a rectangle of
  half-sizes `half_x_mm` x `half_y_mm` about the point) stands more than `flat_mm` above it, so
  a piece lowered there lands on the shelf and not on a neighbour's flank. Off the tower (NaN)
  counts as clear: a piece may overhang its shelf.

Neighbouring spots form a shelf; `shelf_aims` names its most central spot and two spots towards
its ends along its longest direction (a piece that leaves a point goes towards an end, keeping
the rest free).
`room_mm2` is the area of every landing spot for a reference piece: what a placement leaves the
pieces still to come.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from simulator.towers.physics.height_map import connected_groups

STEP_MM = 3.0                   # the grid of rays
SUPPORT_MM = 8.0                # the flat patch a piece needs under its centre
FLAT_MM = 2.0                   # how uneven a flat patch may be
REFERENCE_HALF_MM = 20.0        # room is counted for a 40 x 40 mm footprint (a cube)
END_REACH = 0.7                 # how far towards a shelf's end a piece aims (0 middle, 1 the end)


def _window(values: np.ndarray, half_i: int, half_j: int, fill: float) -> np.ndarray:
    """Every point's (2 half_i + 1) x (2 half_j + 1) neighbourhood, padded with `fill`."""
    padded = np.pad(values, ((half_i, half_i), (half_j, half_j)), constant_values=fill)
    return sliding_window_view(padded, (2 * half_i + 1, 2 * half_j + 1))


def landing_spots(heights_mm: np.ndarray, step_mm: float, half_x_mm: float, half_y_mm: float,
                  support_mm: float = SUPPORT_MM, flat_mm: float = FLAT_MM) -> np.ndarray:
    """Which points of a height map (mm; NaN off the tower) a piece of this footprint lands on
    flat (see the module's docstring)."""
    support = max(1, round(support_mm / step_mm))
    near = _window(heights_mm, support, support, np.nan)
    with np.errstate(invalid="ignore"):
        highest_near = near.max(axis=(2, 3))                 # NaN when any of it is off the tower
        lowest_near = near.min(axis=(2, 3))
        flat = (highest_near - heights_mm <= flat_mm) & (heights_mm - lowest_near <= flat_mm)
    low = np.where(np.isnan(heights_mm), -np.inf, heights_mm)
    reach_i, reach_j = round(half_x_mm / step_mm), round(half_y_mm / step_mm)
    highest_under = _window(low, reach_i, reach_j, -np.inf).max(axis=(2, 3))
    clear = highest_under <= low + flat_mm
    return flat & clear & ~np.isnan(heights_mm)


def shelf_aims(spots: np.ndarray, xs_mm: np.ndarray, ys_mm: np.ndarray,
               shelves: int = 2) -> list[tuple[float, float]]:
    """Where to aim on the `shelves` largest shelves (mm, the grid's frame): each shelf's most
    central spot, then towards its two ends along its longest direction: the spots nearest the
    points END_REACH of the way from the middle to each end (at the very end a piece would
    stand on the edge of its flat patch)."""
    aims: list[tuple[float, float]] = []
    regions = sorted(connected_groups(spots), key=len, reverse=True)
    for members in regions[:shelves]:
        points = np.array([(xs_mm[i], ys_mm[j]) for i, j in members])
        centre = points.mean(axis=0)
        central = points[np.argmin(np.linalg.norm(points - centre, axis=1))]
        aims.append((float(central[0]), float(central[1])))
        if len(points) > 2:
            spread = points - centre
            direction = np.linalg.svd(spread, full_matrices=False)[2][0]
            along = spread @ direction
            for far in (along.min(), along.max()):
                wanted = centre + END_REACH * far * direction
                end = points[np.argmin(np.linalg.norm(points - wanted, axis=1))]
                aims.append((float(end[0]), float(end[1])))
    return aims


def room_mm2(heights_mm: np.ndarray, step_mm: float = STEP_MM,
             half_mm: float = REFERENCE_HALF_MM) -> float:
    """The area (mm^2) of every spot where a 2 half_mm square piece would land flat."""
    return float(landing_spots(heights_mm, step_mm, half_mm, half_mm).sum()) * step_mm * step_mm
