"""Friction between two pieces is mu N, as between a piece and the table (issue: true friction).

Each material pair slides on a slope 0.3 degrees past atan(mu) and holds 0.3 degrees under it,
turned along the slope and across its diagonal; plain rigid bodies (the computer players'
trials) are shown to grip too hard, so the test can tell the two apart."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchmarks import friction_angles
from simulator.towers.physics.fidelity import friction_angle_deg
from simulator.towers.physics.world import PhysicsSettings

MARGIN_DEG = 0.3


@pytest.mark.parametrize("yaw", [0.0, 45.0])
@pytest.mark.parametrize(("upper", "lower"), friction_angles.PAIRS)
def test_a_piece_slides_on_a_piece_at_its_friction_angle(upper, lower, yaw):
    angle = friction_angle_deg(upper, lower)
    chosen = PhysicsSettings.chosen()
    assert not friction_angles.slides(chosen, upper, lower, angle - MARGIN_DEG, yaw), "slid under atan(mu)"
    assert friction_angles.slides(chosen, upper, lower, angle + MARGIN_DEG, yaw), "held past atan(mu)"


def test_plain_rigid_bodies_grip_too_hard_so_the_judge_does_not_use_them():
    rigid = PhysicsSettings.trials()
    assert rigid.maximal_coordinates and not PhysicsSettings.chosen().maximal_coordinates
    angle = friction_angle_deg("cube-large", "base")
    assert not friction_angles.slides(rigid, "cube-large", "base", angle + 1.0)   # holds 1 degree past


def test_the_pairs_cover_every_material_pair():
    from simulator.towers.pieces.catalogue import CATALOGUE

    materials = {spec.id: spec.material.friction for spec in CATALOGUE}
    pairs = {tuple(sorted((materials[u], materials[lo]))) for u, lo in friction_angles.PAIRS}
    assert pairs == {(0.5, 0.5), (0.35, 0.5), (0.35, 0.35)}


def test_the_sliding_angle_is_found_within_a_tenth_of_a_degree():
    settings = replace(PhysicsSettings.chosen(), tall_substeps=())
    angle = friction_angles.sliding_angle(settings, "cube-large", "base", 24.0, 29.0, resolution=0.1)
    assert abs(angle - friction_angle_deg("cube-large", "base")) <= MARGIN_DEG

