"""Where a piece goes: its resting faces, and the default placement policy of the order form.

Resting faces come from the convex hull of the piece's exact collision parts: a face is one a
piece can lie on when its centre of mass projects inside it. Its stability is the tipping
angle, atan(distance from that projection to the nearest edge / height of the centre of mass):
the angle the piece must be tilted before it tips over.

Default placement policy (scenes' `order` form, documented in docs/PHYSICS.md): the piece lies
on its most stable face (largest tipping angle; ties: lower centre of mass, then the face found
first), its centre of mass on the tower's vertical axis, its lowest point 0.5 mm above the
tower's highest point, then raised further if it would overlap anything.

The hand's tremor (tremor.py) shakes the release point and orientation before the release.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
from scipy.spatial import ConvexHull

from simulator.towers.physics.tremor import NO_TREMOR, Tremor
from simulator.towers.physics.world import Quat, World, support_points
from simulator.towers.pieces.geometry import vec3

RELEASE_GAP_M = 0.0005


@dataclass(frozen=True)
class RestingFace:
    normal: tuple[float, float, float]  # outward, piece frame
    orientation: Quat  # turns the piece so that this face points down (-z)
    com_height_m: float
    tipping_angle_deg: float
    area_mm2: float


def _cross(a: np.ndarray | list[float], b: np.ndarray | list[float]) -> np.ndarray:
    """np.cross of two 3-vectors written out (the same sums): numpy's general one costs more
    than the arithmetic, and a piece's hull asks for thousands."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _quaternion_turning(a: np.ndarray, b: np.ndarray) -> Quat:
    """The shortest rotation taking unit vector a to unit vector b."""
    dot = float(np.dot(a, b))
    if dot < -1 + 1e-9:  # opposite: half a turn about any axis perpendicular to a
        axis = _cross(a, [1.0, 0, 0])
        if np.linalg.norm(axis) < 1e-6:
            axis = _cross(a, [0, 1.0, 0])
        axis /= np.linalg.norm(axis)
        return (float(axis[0]), float(axis[1]), float(axis[2]), 0.0)
    cross = _cross(a, b)
    q = np.array([cross[0], cross[1], cross[2], 1 + dot])
    x, y, z, w = (float(v) for v in q / np.linalg.norm(q))
    return x, y, z, w


@cache
def resting_faces(piece_id: str) -> tuple[RestingFace, ...]:
    """Every face the piece can rest on, most stable first."""
    points = support_points(piece_id)
    hull = ConvexHull(points)
    faces: list[RestingFace] = []
    seen: set[tuple] = set()
    for equation in hull.equations:
        key = tuple(np.round(equation, 6))
        if key in seen:
            continue
        seen.add(key)
        normal, offset = equation[:3], equation[3]
        height = -offset
        on_face = points[np.abs(points @ normal + offset) < 1e-7]
        u = _cross(normal, [0, 0, 1.0] if abs(normal[2]) < 0.9 else [1.0, 0, 0])
        u /= np.linalg.norm(u)
        v = _cross(normal, u)
        flat = np.column_stack([on_face @ u, on_face @ v])
        outline = _margin_and_area(flat)
        if outline is None:
            continue
        margin, area = outline
        faces.append(RestingFace(vec3(normal),
                                 _quaternion_turning(normal, np.array([0, 0, -1.0])),
                                 float(height), math.degrees(math.atan2(margin, height)),
                                 area * 1e6))
    faces.sort(key=lambda f: (-round(f.tipping_angle_deg, 6), round(f.com_height_m, 7)))
    return tuple(faces)


def _margin_and_area(flat: np.ndarray) -> tuple[float, float] | None:
    """A face's outline in its own plane, the centre of mass projected to (0, 0): the distance
    from there to the nearest edge and the face's area, or None where the centre of mass falls
    outside it (or on an edge) or the face is a sliver. A triangle (most faces of a curved
    piece's hull) is worked out directly, a larger face by its convex hull."""
    if len(flat) < 3:
        return None
    if len(flat) == 3:
        a, b, c = flat
        doubled = float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
        if abs(doubled) < 1e-18:
            return None
        corners = (a, b, c) if doubled > 0 else (a, c, b)     # counter-clockwise
        margin = math.inf
        for p, q in zip(corners, corners[1:] + corners[:1], strict=True):
            edge = q - p      # the origin's distance to the left of the edge (inside > 0)
            margin = min(margin, float(edge[1] * p[0] - edge[0] * p[1]) / math.hypot(*edge))
        return (margin, abs(doubled) / 2) if margin > 0 else None
    try:
        polygon = ConvexHull(flat)
    except Exception:  # a degenerate (sliver) face
        return None
    margin = float(np.min(-polygon.equations[:, 2]))
    return (margin, float(polygon.volume)) if margin > 0 else None


def most_stable_orientation(piece_id: str) -> Quat:
    faces = resting_faces(piece_id)
    return faces[0].orientation if faces else (0.0, 0.0, 0.0, 1.0)


def _release(world: World, piece_id: str, xy: tuple[float, float], orientation: Quat,
             surface_z: float, gap: float) -> int:
    """Add the piece with its lowest point `gap` above `surface_z`, then raise it clear of
    everything."""
    body = world.add_piece(piece_id, (xy[0], xy[1], 1.0), orientation, clear_overlap=False)
    lowest = world.lowest_and_highest(body)[0]
    world.set_pose(body, (xy[0], xy[1], 1.0 - lowest + surface_z + gap), orientation)
    world.raise_until_clear(body)
    return body


def place_on_top(world: World, piece_id: str, axis_xy: tuple[float, float],
                 tower_bodies: list[int], orientation: Quat | None = None,
                 tremor: Tremor = NO_TREMOR, rng: np.random.Generator | None = None) -> int:
    """The default policy: centred on the axis, most stable face down, just above the top;
    then shaken by the hand's tremor (needs `rng` when the tremor is not zero)."""
    top = max((world.lowest_and_highest(b)[1] for b in tower_bodies), default=0.0)
    xy, orientation = tremor.shake(axis_xy, orientation or most_stable_orientation(piece_id), rng)
    return _release(world, piece_id, xy, orientation, top, RELEASE_GAP_M)


def place_on_table(world: World, piece_id: str, xy: tuple[float, float],
                   orientation: Quat = (0.0, 0.0, 0.0, 1.0)) -> int:
    """A piece standing on the table at rest, in the given orientation."""
    return _release(world, piece_id, xy, orientation, 0.0, 0.0)
