"""Rotations for Bandu's table, pure maths (no pyglet, no pybullet): quaternions (x, y, z, w) and
the roll-pitch-yaw angles a Place carries (turns about the table's x, then y, then z: PyBullet's
getQuaternionFromEuler convention, which tests/test_bandu_rotations.py checks against it)."""

from __future__ import annotations

import math

import numpy as np


def quat_multiply(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def euler_quaternion(roll_deg: float, pitch_deg: float, yaw_deg: float) -> tuple[float, float, float, float]:
    """The quaternion (x, y, z, w) of turns about x (roll), then y (pitch), then z (yaw), the
    convention of a Place and of PyBullet's getQuaternionFromEuler."""
    r, p, y = (math.radians(a) / 2 for a in (roll_deg, pitch_deg, yaw_deg))
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return (sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy)


def quaternion_euler(q: tuple[float, ...]) -> tuple[float, float, float]:
    """Roll, pitch and yaw in degrees of a quaternion (the inverse of euler_quaternion)."""
    x, y, z, w = q
    roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x))))
    yaw = math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return math.degrees(roll), math.degrees(pitch), math.degrees(yaw)


def rotation_matrix(quaternion: tuple[float, ...]) -> np.ndarray:
    """The 3x3 rotation matrix of a quaternion (x, y, z, w)."""
    x, y, z, w = quaternion
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
