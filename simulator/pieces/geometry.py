"""Convex parts by construction: boxes, prisms, solids of revolution, in millimetres.

A part is an (N, 3) float array of points whose convex hull is the part. Concave pieces are
lists of parts whose interiors do not overlap, so the volume of a piece is the sum of its
parts' volumes and the holes and notches between parts stay open.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

Part = np.ndarray


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
    """Profile of a sphere between polar angles a0 and a1 (0 = bottom pole, pi = top pole)."""
    return [(radius * math.sin(a), z_centre - radius * math.cos(a))
            for a in np.linspace(a0, a1, steps + 1)]


def annular_sectors(inner: float, outer: float, z0: float, z1: float,
                    segments: int) -> list[Part]:
    """A flat ring cut into wedge-shaped convex sectors (a washer, a cup wall)."""
    parts = []
    for k in range(segments):
        a0, a1 = 2 * math.pi * k / segments, 2 * math.pi * (k + 1) / segments
        corners = [(r * math.cos(a), r * math.sin(a)) for a in (a0, a1) for r in (inner, outer)]
        parts.append(extrude_xy(corners, z0, z1))
    return parts


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


def strips_between(lower: Callable[[float], float], upper: Callable[[float], float],
                   x0: float, x1: float, strips: int, y0: float, y1: float) -> list[Part]:
    """The region lower(x) <= z <= upper(x), x0 <= x <= x1, cut into vertical strips.

    Each strip is a quadrilateral with two vertical sides, hence convex; it is extruded along y.
    Used for the curved cuts of the arch, the cove and the crescent.
    """
    xs = np.linspace(x0, x1, strips + 1)
    return [extrude_xz([(a, lower(a)), (b, lower(b)), (b, upper(b)), (a, upper(a))], y0, y1)
            for a, b in zip(xs[:-1], xs[1:], strict=True)]
