"""The releasing hand's tremor: a seeded noise on where and how a piece is let go.

The default placement policy and explicit placements in scenes take it (what computer players
and stability trials release should take it too). Zero is an exact release. Pure maths (no
PyBullet), so scenes and rules can name it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Quat = tuple[float, float, float, float]


@dataclass(frozen=True)
class Tremor:
    """How unsteady the releasing hand is: standard deviations of a normal distribution.

    `position_mm` shifts the release point along x and along y (each drawn on its own);
    `angle_deg` tilts the piece about a horizontal axis in a random direction and turns it
    about the vertical. Zero (the default) is an exact release.
    """
    position_mm: float = 0.0
    angle_deg: float = 0.0

    def __bool__(self) -> bool:
        return self.position_mm > 0 or self.angle_deg > 0

    def shake(self, xy: tuple[float, float], orientation: Quat,
              rng: np.random.Generator | None) -> tuple[tuple[float, float], Quat]:
        """The release point (metres) and orientation after the hand's tremor."""
        if not self:
            return xy, orientation
        if rng is None:
            raise ValueError("a tremor needs a random generator (rng)")
        dx, dy = rng.normal(0.0, self.position_mm / 1000.0, size=2)
        direction = rng.uniform(0.0, 2 * math.pi)
        tilt, turn = np.radians(rng.normal(0.0, self.angle_deg, size=2))
        axis = (math.cos(direction), math.sin(direction), 0.0)
        shaken = _multiply(rotation_about(axis, float(tilt)),
                           _multiply(rotation_about((0.0, 0.0, 1.0), float(turn)), orientation))
        return (xy[0] + float(dx), xy[1] + float(dy)), shaken


NO_TREMOR = Tremor()


def rotation_about(axis: tuple[float, float, float], angle: float) -> Quat:
    """The turn by `angle` (radians) about the unit `axis`."""
    half = angle / 2
    return (axis[0] * math.sin(half), axis[1] * math.sin(half), axis[2] * math.sin(half),
            math.cos(half))


def _multiply(a: Quat, b: Quat) -> Quat:
    """The rotation b, then a (Hamilton product, x y z w)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def then(first: Quat, second: Quat) -> Quat:
    """The rotation `first`, then `second`."""
    return _multiply(second, first)
