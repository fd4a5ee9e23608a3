"""Convex parts by construction: boxes, prisms, solids of revolution, in millimetres.

A part is an (N, 3) float array of points whose convex hull is the part. Concave pieces are
lists of parts whose interiors do not overlap, so the volume of a piece is the sum of its
parts' volumes and the holes and notches between parts stay open.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np

Part = np.ndarray
Vec3 = tuple[float, float, float]


def vec3(values: Iterable[float]) -> Vec3:
    """Three numbers (a numpy row, a generator ...) as a tuple of Python floats."""
    x, y, z = values
    return float(x), float(y), float(z)


def box(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float) -> Part:
    return np.array([[x, y, z] for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)], float)


def centred_box(sx: float, sy: float, sz: float) -> Part:
    return box(-sx / 2, sx / 2, -sy / 2, sy / 2, -sz / 2, sz / 2)


def extrude_xz(polygon: Sequence[tuple[float, float]], y0: float, y1: float) -> Part:
    """A convex polygon drawn in the x-z plane, extruded along y."""
    return np.array([[x, y, z] for x, z in polygon for y in (y0, y1)], float)


def extrude_yz(polygon: Sequence[tuple[float, float]], x0: float, x1: float) -> Part:
    """A convex polygon drawn in the y-z plane, extruded along x."""
    return np.array([[x, y, z] for y, z in polygon for x in (x0, x1)], float)


def extrude_xy(polygon: Sequence[tuple[float, float]], z0: float, z1: float) -> Part:
    """A convex polygon drawn in the x-y plane, extruded along z."""
    return np.array([[x, y, z] for x, y in polygon for z in (z0, z1)], float)


def circle(radius: float, segments: int, phase: float = 0.0) -> list[tuple[float, float]]:
    return [(radius * math.cos(phase + 2 * math.pi * k / segments),
             radius * math.sin(phase + 2 * math.pi * k / segments)) for k in range(segments)]


def revolve(profile: Sequence[tuple[float, float]], segments: int) -> Part:
    """Points of the solid made by turning a profile of (radius, z) about the z axis.

    The profile must describe a convex solid (radius a concave function of z); a radius of 0
    gives a single point on the axis (a cone's apex).
    """
    points: list[tuple[float, float, float]] = []
    for radius, z in profile:
        if radius <= 1e-9:
            points.append((0.0, 0.0, z))
        else:
            points.extend((x, y, z) for x, y in circle(radius, segments))
    return np.array(points, float)


def frustum(r0: float, r1: float, z0: float, z1: float, segments: int) -> Part:
    return revolve([(r0, z0), (r1, z1)], segments)


def cylinder(diameter: float, z0: float, z1: float, segments: int) -> Part:
    return frustum(diameter / 2, diameter / 2, z0, z1, segments)


def sampled_profile(radius: Callable[[float], float], z0: float, z1: float,
                    steps: int) -> list[tuple[float, float]]:
    """(radius(z), z) at steps+1 evenly spaced heights from z0 to z1."""
    return [(max(radius(z), 0.0), z) for z in np.linspace(z0, z1, steps + 1)]


def sphere_profile(radius: float, z_centre: float, a0: float, a1: float,
                   steps: int) -> list[tuple[float, float]]:
    """Profile of a sphere between polar angles a0 and a1 (0 = bottom pole, pi = top pole).

    A pole is a small flat disc (the radius of half a step) rather than a point: a faceted dome
    whose top is one vertex balances a flat piece on a knife edge, which a real dome does not.
    """
    half_step = abs(a1 - a0) / steps / 2
    profile = []
    for a in np.linspace(a0, a1, steps + 1):
        ring = radius * math.sin(a)
        if ring < radius * math.sin(half_step) - 1e-9:  # at a pole
            ring = radius * math.sin(half_step)
        profile.append((ring, z_centre - radius * math.cos(a)))
    return profile


def annular_sectors(inner: float, rim: Sequence[tuple[float, float]], sectors: int,
                    outer_steps: int = 1) -> list[Part]:
    """A ring about the z axis cut into wedge-shaped convex sectors (a washer, a cup wall).

    `rim` lists (z, outer radius) levels from bottom to top; the inner radius is the same at
    every level. Each sector's inner side is one straight chord (a convex part can hold no more
    of a hole's edge); its outer side follows the rim in `outer_steps` straight steps.
    """
    parts = []
    for k in range(sectors):
        a0, a1 = 2 * math.pi * k / sectors, 2 * math.pi * (k + 1) / sectors
        points = []
        for z, outer in rim:
            points += [(inner * math.cos(a), inner * math.sin(a), z) for a in (a0, a1)]
            points += [(outer * math.cos(a), outer * math.sin(a), z)
                       for a in np.linspace(a0, a1, outer_steps + 1)]
        parts.append(np.array(points, float))
    return parts


Point2 = tuple[float, float]


def clip_polygon(polygon: Sequence[Point2], normal: Point2, offset: float) -> list[Point2]:
    """The part of a convex polygon where normal . p >= offset (Sutherland-Hodgman)."""
    out: list[Point2] = []
    count = len(polygon)
    for k in range(count):
        a, b = polygon[k], polygon[(k + 1) % count]
        da = normal[0] * a[0] + normal[1] * a[1] - offset
        db = normal[0] * b[0] + normal[1] * b[1] - offset
        if da >= 0:
            out.append(a)
        if (da >= 0) != (db >= 0):
            t = da / (da - db)
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


def _keep_left_of(polygon: list[Point2], start: Point2, end: Point2) -> list[Point2]:
    """Clip to the half-plane left of the directed line start -> end."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    return clip_polygon(polygon, (-dy, dx), -dy * start[0] + dx * start[1])


def cut_by_convex_hole(outline: Sequence[Point2], centre: Point2,
                       hole_edge: Sequence[Point2]) -> list[list[Point2]]:
    """A convex outline less a convex hole, as convex polygons: one per straight edge of the hole.

    `hole_edge` walks the part of the hole's boundary inside the outline counter-clockwise
    around `centre` (a point of the hole). Part k is what of the outline lies in the wedge from
    the centre through edge k and beyond that edge: the intersection of convex regions, hence
    convex. The wedges cover the outline when the first and last rays run along its boundary.
    """
    parts = []
    for a, b in itertools.pairwise(hole_edge):
        polygon = list(outline)
        polygon = _keep_left_of(polygon, centre, a)  # counter-clockwise of ray centre -> a
        polygon = _keep_left_of(polygon, b, centre)  # clockwise of ray centre -> b
        polygon = _keep_left_of(polygon, b, a)  # beyond the edge, away from the centre
        if len(polygon) >= 3:
            parts.append(polygon)
    return parts


def arc(centre: Point2, radius_x: float, radius_y: float, a0: float, a1: float,
        steps: int) -> list[Point2]:
    """Points on an ellipse (a circle when the radii are equal) from angle a0 to a1."""
    return [(centre[0] + radius_x * math.cos(a), centre[1] + radius_y * math.sin(a))
            for a in np.linspace(a0, a1, steps + 1)]


def torus_segments(centre_radius: float, tube_radius: float, segments: int,
                   tube_segments: int) -> list[Part]:
    """A torus about the z axis as straight tube pieces between neighbouring cross-sections."""
    def section(angle: float) -> list[tuple[float, float, float]]:
        out = []
        for u, v in circle(tube_radius, tube_segments):
            r = centre_radius + u
            out.append((r * math.cos(angle), r * math.sin(angle), v))
        return out

    return [np.array(section(2 * math.pi * k / segments) + section(2 * math.pi * (k + 1) / segments))
            for k in range(segments)]
