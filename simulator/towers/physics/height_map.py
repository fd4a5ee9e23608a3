"""A tower's top seen from above: the heights a ray straight down meets over a grid, and the
connected groups of grid points that share a property (hollows.py, shelves.py)."""

from __future__ import annotations

from collections import deque

import numpy as np

from simulator.towers.physics.world import World


def tower_height_map(world: World, bodies: list[int], step_mm: float,
                     margin_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The heights (mm) of the tower of `bodies` over a grid around its bounding box (`margin_mm`
    beyond it on every side), in the table's frame: (heights, xs, ys); NaN where a ray meets none
    of them."""
    boxes = np.array([[v for corner in world.client.getAABB(b) for v in corner] for b in bodies])
    low = boxes[:, :2].min(axis=0) * 1000 - margin_mm
    high = boxes[:, 3:5].max(axis=0) * 1000 + margin_mm
    xs = np.arange(low[0], high[0] + step_mm / 2, step_mm)
    ys = np.arange(low[1], high[1] + step_mm / 2, step_mm)
    return world.surface_heights(xs / 1000, ys / 1000, bodies) * 1000, xs, ys


def connected_groups(mask: np.ndarray) -> list[list[tuple[int, int]]]:
    """The groups of True points of `mask` that touch (8 neighbours), in the order their first
    point comes in a row-major scan; each group's points in the order they were reached."""
    seen = np.zeros(mask.shape, dtype=bool)
    groups = []
    for start in zip(*np.nonzero(mask), strict=True):
        if seen[start]:
            continue
        seen[start] = True
        members, queue = [], deque([start])
        while queue:
            i, j = queue.popleft()
            members.append((i, j))
            for ni, nj in ((i + a, j + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b):
                if 0 <= ni < mask.shape[0] and 0 <= nj < mask.shape[1] and mask[ni, nj] and not seen[ni, nj]:
                    seen[ni, nj] = True
                    queue.append((ni, nj))
        groups.append(members)
    return groups
