"""The box validation scenes in a second, independent engine (MuJoCo, benchmarks/mujoco_models/boxes.py).

Every validation scene whose pieces are all cuboids must give in MuJoCo the verdicts its
[expect] table asks for and the same verdicts (stood, fell_at) as PyBullet; where everything
stood, the two engines' final piece centres agree within 1 mm, and MuJoCo's stay put for 2 s
more (its soft contacts could let a stack creep).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from benchmarks.mujoco_models.boxes import is_box_scene, run_scene_mujoco
from simulator.towers.physics.scene_file import load_scene, parse_scene
from simulator.towers.physics.stability import check_expectations, run_scene

VALIDATION = Path(__file__).parent.parent / "scenes" / "validation"
BOX_SCENES = [p for p in sorted(VALIDATION.glob("*.toml")) if is_box_scene(load_scene(p))]


def _verdicts(report):
    return [(t.stood, t.fell_at) for t in report.towers]


def _all_stood_in_place(scene) -> bool:
    """Every tower is expected to stand and no piece is expected to move away."""
    return (scene.expect.stood is not None and all(scene.expect.stood)
            and not any(p.beyond_mm is not None for p in scene.expect.pieces))


def test_the_box_scenes_are_there():
    names = {p.stem for p in BOX_SCENES}
    assert len(BOX_SCENES) >= 20
    assert {"column-of-bases", "harmonic-past", "slope-steep",
            "cantilever-counterweight-holds", "slope-tall-plank-tips"} <= names
    assert "ball-on-base" not in names  # a sphere: PyBullet only
    with pytest.raises(ValueError, match="not all pieces are cuboids"):
        run_scene_mujoco(load_scene(VALIDATION / "ball-on-base.toml"))


@pytest.mark.parametrize("path", BOX_SCENES, ids=lambda p: p.stem)
def test_mujoco_agrees_with_the_expectations_and_pybullet(path):
    scene = load_scene(path)
    mujoco_report = run_scene_mujoco(scene)
    assert check_expectations(scene, mujoco_report) == []
    bullet_report = run_scene(scene)
    assert check_expectations(scene, bullet_report) == []
    assert _verdicts(mujoco_report) == _verdicts(bullet_report)
    if _all_stood_in_place(scene):
        for m_tower, b_tower in zip(mujoco_report.towers, bullet_report.towers, strict=True):
            for m_piece, b_piece in zip(m_tower.pieces, b_tower.pieces, strict=True):
                assert math.dist(m_piece.position_mm, b_piece.position_mm) < 1.0, m_piece.id


@pytest.mark.parametrize("path", [p for p in BOX_SCENES if _all_stood_in_place(load_scene(p))],
                         ids=lambda p: p.stem)
def test_what_stands_in_mujoco_does_not_creep(path):
    scene = load_scene(path)
    built = run_scene_mujoco(scene)
    held = run_scene_mujoco(scene, hold_seconds=2.0)
    assert check_expectations(scene, held) == []
    for before, after in zip(built.towers, held.towers, strict=True):
        for b, a in zip(before.pieces, after.pieces, strict=True):
            assert math.dist(b.position_mm, a.position_mm) < 0.2, b.id


def test_the_crosscheck_notices_a_wrong_expectation():
    path = VALIDATION / "stack-two-offset-x-past.toml"
    text = path.read_text()
    wrong = parse_scene(text.replace("stood = [false]", "stood = [true]")
                        .replace("fell_at = [1]", "fell_at = [-1]"), str(path))
    assert len(check_expectations(wrong, run_scene_mujoco(wrong))) == 2
    path = VALIDATION / "slope-22-base-holds.toml"
    moved = parse_scene(path.read_text().replace("position_mm = [0, 0, 12.5]",
                                                 "position_mm = [5, 0, 12.5]"), str(path))
    assert check_expectations(moved, run_scene_mujoco(moved)) != []
