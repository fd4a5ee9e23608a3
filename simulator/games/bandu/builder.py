"""Bandu's builder: which piece a solo tower takes next, and which way up a piece goes.

A careful person builds a tall tower in three stages, and so does the builder:
- platforms first, the broadest first: pieces that rest on one flat face with a flat face as
  large opposite it (the slab, the planks, the arch, the column lying down ...), each laid on
  that face so that the next piece finds a broad top;
- then the pieces with small tops (the small cube, the barrel, the poles upright, a wedge on
  its square end ...), each still leaving something flat to stand on;
- last the cappers, which leave no flat top (cones, pyramids, the egg, the ball, the fir
  tree): the steadiest first, and the round ones where the top holds them, in a hole or a cup
  (the ball in the washer, the egg in its cup).

`building_order` is that plan for the reserve at hand; the computer player tries the first few
pieces of it with physics and takes the first that stands (`ai.py`). `platform_face` says which
face of a piece makes the broadest platform. Geometry only: no physics world, no rendering.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from scipy.spatial import ConvexHull, QhullError

from simulator.towers.physics.placement import resting_faces
from simulator.towers.pieces.build import exact_parts
from simulator.towers.pieces.catalogue import kind

TOP_PLANE_M = 0.0002        # a part's points this close to the highest plane are on top
MIN_TOP_MM2 = 150.0         # a flat top smaller than this is no top (a cone's blunt tip)
MIN_TIPPING_DEG = 9.0       # a face steeper to tip off than this is no face to build on
BROAD_MM2 = 900.0           # a platform this broad (bottom and top) comes in the first stage
# the pieces a rounded piece sits in (its hole, cup or groove holds the round underside)
HOLDERS = frozenset({"washer", "ring", "egg-cup", "channel", "cove"})
ROLLERS = frozenset({"ball", "egg"})  # they stand only where a top holds them


@dataclass(frozen=True)
class PlatformFace:
    index: int              # in resting_faces(piece)
    bottom_mm2: float
    top_mm2: float          # the flat face opposite the bottom
    tipping_deg: float

    @property
    def breadth_mm2(self) -> float:
        """How broad a platform it makes: the smaller of what it stands on and what it offers."""
        return min(self.bottom_mm2, self.top_mm2)


@cache
def flat_top_mm2(piece: str, face_index: int) -> float:
    """The real flat area on top of `piece` resting on face `face_index`: the faces of its
    convex parts that lie in its highest plane (the two caps of the column lying down, not the
    hull spanning them; the rims of the channel with its groove up)."""
    faces = resting_faces(kind(piece))
    up = -np.array(faces[face_index].normal)
    parts = exact_parts(kind(piece))
    highest = max(float(np.max(part @ up)) for part in parts)
    u = np.cross(up, [0, 0, 1.0] if abs(up[2]) < 0.9 else [1.0, 0, 0])
    u /= np.linalg.norm(u)
    v = np.cross(up, u)
    area = 0.0
    for part in parts:
        on_top = part[np.abs(part @ up - highest) < TOP_PLANE_M]
        if len(on_top) < 3:
            continue
        try:
            area += float(ConvexHull(np.column_stack([on_top @ u, on_top @ v])).volume) * 1e6
        except QhullError:                      # an edge or a point, no area
            continue
    return area


@cache
def platform_face(piece: str) -> PlatformFace | None:
    """The face of `piece` that makes the broadest platform (its bottom and the flat face
    opposite it both large, not easily tipped off); None for a piece with no flat top on any
    face (a capper)."""
    faces = resting_faces(kind(piece))
    best: PlatformFace | None = None
    for index, face in enumerate(faces):
        down = np.array(face.normal)
        opposite = any(float(np.dot(np.array(f.normal), down)) < -0.99 for f in faces)
        top = flat_top_mm2(piece, index) if opposite else 0.0
        if top < MIN_TOP_MM2 or face.tipping_angle_deg < MIN_TIPPING_DEG:
            continue
        found = PlatformFace(index, face.area_mm2, top, face.tipping_angle_deg)
        if best is None or (found.breadth_mm2, found.tipping_deg) > (best.breadth_mm2, best.tipping_deg):
            best = found
    return best


def face_order(piece: str) -> list[int]:
    """The resting faces of `piece` to try, best first: its platform face, then the others from
    the most stable."""
    platform = platform_face(piece)
    order = list(range(len(resting_faces(kind(piece)))))
    if platform is not None:
        order.remove(platform.index)
        order.insert(0, platform.index)
    return order


def _capper_steadiness(piece: str) -> float:
    faces = resting_faces(kind(piece))
    return faces[0].tipping_angle_deg if faces else 0.0


def stage(piece: str) -> int:
    """0 broad platforms, 1 small tops, 2 cappers."""
    platform = platform_face(piece)
    if platform is None:
        return 2
    return 0 if platform.breadth_mm2 >= BROAD_MM2 else 1


def building_order(reserve: list[str], top_piece: str | None) -> list[str]:
    """The reserve in the order a careful builder takes it, for a tower whose top piece is
    `top_piece`: broad platforms broadest first, then small tops, then cappers steadiest first;
    a ball or an egg comes first of the cappers when the top can hold it (and last otherwise)."""
    holds = top_piece is not None and kind(top_piece) in HOLDERS

    def key(piece: str) -> tuple:
        platform = platform_face(piece)
        level = stage(piece)
        if level < 2:
            assert platform is not None
            return (level, -platform.breadth_mm2, -platform.tipping_deg, piece)
        if kind(piece) in ROLLERS:
            return (2, -1000.0 if holds else 1000.0, 0.0, piece)
        return (2, -_capper_steadiness(piece), 0.0, piece)

    return sorted(dict.fromkeys(reserve), key=key)
