"""The roll-pitch-yaw of a Place and quaternions, as the window turns a held piece, agree with
PyBullet's own conversion (the referee turns the piece with it)."""

from __future__ import annotations

import math

import pybullet
import pytest

from simulator.games.bandu.rotations import (
    euler_quaternion,
    quat_multiply,
    quaternion_euler,
    rotation_matrix,
)


@pytest.mark.parametrize("angles", [(10, 20, 30), (-40, 5, 170), (0, 0, 15), (90, 0, 0), (0, -89, -120)])
def test_angles_and_quaternions_agree_with_pybullet(angles):
    mine = euler_quaternion(*angles)
    theirs = pybullet.getQuaternionFromEuler([math.radians(a) for a in angles])
    assert max(abs(a - b) for a, b in zip(mine, theirs, strict=True)) < 1e-9
    back = quaternion_euler(mine)
    assert max(abs(a - b) for a, b in zip(back, angles, strict=True)) < 1e-6


def test_a_turn_about_the_table_axis_composes_on_the_left():
    tilted = euler_quaternion(20, 0, 0)                     # about x first
    turn = (0.0, 0.0, math.sin(math.radians(45)), math.cos(math.radians(45)))   # 90 about z
    roll, pitch, yaw = quaternion_euler(quat_multiply(turn, tilted))
    assert (round(roll, 6), round(pitch, 6), round(yaw, 6)) == (20.0, 0.0, 90.0)
    matrix = rotation_matrix(turn)
    assert [round(v, 9) for v in matrix @ [1.0, 0.0, 0.0]] == [0.0, 1.0, 0.0]
