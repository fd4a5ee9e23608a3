"""Loads standing on a crown: the top of a dome (the hemisphere, the doorknob's cap) or of the
half cylinder's curve, judged by the curvature of the true shape.

The collision shape traces a dome in facets and makes its top a flat disc 1.2 mm across
(`geometry.sphere_profile`): a faceted dome whose top were one vertex would balance a flat piece
on a point. But a real dome has no flat: a flat-bottomed load resting on top of a sphere (or
across a cylinder) of radius R is stable only while its centre of mass lies less than R above
the point of contact; higher, the least disturbance rolls it off. On the simulated flat a load
higher than that stands as long as its centre of mass is over the 1.2 mm disc, or over a facet
near it, and the balance test's nudge does not tip it. So a tower that stood is also `unstable`
where some load (a piece and everything it carries) rests on a dome, touching only the dome,
with a flat face turned to it and its centre of mass more than the dome's radius from the point
of contact along the dome's normal there (tests/test_crowns.py; docs/PHYSICS.md, "Domes and
crowns").
"""

from __future__ import annotations

import math

import numpy as np

from simulator.towers.physics.placement import resting_faces
from simulator.towers.physics.world import World, rotate
from simulator.towers.pieces.build import load_piece

ON_THE_DOME_M = 0.0015         # a contact this close to the true dome's surface is on the dome
FLAT_BOTTOM_COS = math.cos(math.radians(4.0))   # the load touches with a face turned to the dome
# (a facet of the traced dome is up to a step, 2.8 degrees, off the true dome's normal)
RESTING_COS = 0.5              # the load rests on the dome's upper part, not against its side


def _dome_in_world(world: World, body: int) -> tuple[np.ndarray, float, np.ndarray | None] | None:
    """The centre of curvature of `body`'s dome, its radius (metres) and a cylinder's axis,
    table frame; None for a piece without one."""
    asset = load_piece(world.piece_id(body))
    crown = asset.spec.crown
    if crown is None:
        return None
    position, orientation = world.pose(body)
    com = np.array(asset.facts["build_frame_com_mm"]) / 1000.0
    radius = crown.radius_mm / 1000.0
    centre_in_piece = np.array(crown.top_mm) / 1000.0 - np.array([0.0, 0.0, radius]) - com
    centre = np.array(position) + rotate(orientation, centre_in_piece[None])[0]
    axis = (None if crown.cylinder_axis is None
            else rotate(orientation, np.array([crown.cylinder_axis], float))[0])
    return centre, radius, axis


def _outward(point: np.ndarray, centre: np.ndarray, axis: np.ndarray | None) -> np.ndarray:
    """The offset of `point` from the dome's centre (from its axis, for a cylinder)."""
    offset = point - centre
    return offset if axis is None else offset - axis * float(offset @ axis)


def _flat_bottom(world: World, body: int, down: np.ndarray) -> bool:
    """Does `body` touch with one of its flat faces, turned to `down`?"""
    orientation = world.pose(body)[1]
    matrix = rotate(orientation, np.eye(3))           # rows: the piece's axes in the table frame
    local = matrix @ down                             # `down` in the piece's own frame
    return any(float(np.dot(face.normal, local)) > FLAT_BOTTOM_COS for face in resting_faces(world.piece_id(body)))


def _carried(body: int, above: dict[int, set[int]]) -> set[int]:
    """`body` and everything resting on it, however high."""
    load, waiting = {body}, [body]
    while waiting:
        for upper in above.get(waiting.pop(), ()):
            if upper not in load:
                load.add(upper)
                waiting.append(upper)
    return load


def loads_a_crown_unstably(world: World, bodies: list[int]) -> str | None:
    """Does a flat-bottomed load rest on a dome (module docstring) with its centre of mass more
    than the dome's radius above the point of contact, along the dome's normal there? Says so
    in words, or None."""
    below = world.resting_on(bodies)
    above: dict[int, set[int]] = {}
    for upper, lowers in below.items():
        for lower in lowers:
            above.setdefault(lower, set()).add(upper)
    for upper, lowers in below.items():
        for lower in lowers:
            dome = _dome_in_world(world, lower)
            points = world.touching_points(upper, lower)
            if dome is None or not points:
                continue
            centre, radius, axis = dome
            offsets = [_outward(np.array(point), centre, axis) for point in points]
            if any(abs(float(np.linalg.norm(offset)) - radius) > ON_THE_DOME_M for offset in offsets):
                continue                                   # it touches more than the dome
            contact = np.mean(np.array(points), axis=0)
            normal = _outward(contact, centre, axis)
            normal /= np.linalg.norm(normal)
            if normal[2] < RESTING_COS or not _flat_bottom(world, upper, -normal):
                continue
            load = _carried(upper, above) - {lower}
            masses = np.array([world.mass(b) for b in load])
            centres = np.array([world.pose(b)[0] for b in load])
            com = (masses[:, None] * centres).sum(axis=0) / masses.sum()
            height = float((com - contact) @ normal)
            if height > radius:
                what = world.piece_id(upper) + (" and what it carries" if len(load) > 1 else "")
                return (f"{what} on the {world.piece_id(lower)}'s dome: its centre of mass "
                        f"{height * 1000:.1f} mm above the contact, over the dome's "
                        f"{radius * 1000:g} mm radius")
    return None
