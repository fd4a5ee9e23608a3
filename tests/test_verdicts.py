"""What a verdict says beyond stood / fell_at: what moved, the hand's tremor, scenes that check
themselves (`bandu-sim stability` exits 1 on a failed expectation) and warnings about releases
that start inside a body or in the air."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from simulator.towers.physics.scene_file import parse_scene
from simulator.towers.physics.stability import DISTURBED_DEG, DISTURBED_MM, run_scene
from simulator.towers.physics.tremor import Tremor

CAUGHT = """
name = "a plank leaning on a cube"
[[towers]]
[[towers.placements]]
piece = "cube-large"
position_mm = [-30, 0, 45]
[[towers.placements]]
piece = "plank-short"
position_mm = [25, 0, 65.2]
rotation_deg = [0, 75, 0]
"""

PLANK_ON_BALL = """
name = "plank on a free ball"
[[towers]]
foundation = "ball"
order = ["plank-short"]
"""


def test_a_piece_that_topples_onto_the_tower_leaves_it_standing_but_disturbed():
    (tower,) = run_scene(parse_scene(CAUGHT, "caught.toml")).towers
    assert tower.stood and tower.fell_at is None
    assert tower.disturbed
    base, cube, plank = tower.pieces
    assert plank.tilt_deg > DISTURBED_DEG and plank.moved_mm > DISTURBED_MM
    assert cube.moved_mm < 1 and cube.tilt_deg < 1 and base.moved_mm < 1


def test_a_tower_that_stands_still_is_not_disturbed():
    (tower,) = run_scene(parse_scene(CAUGHT.replace("[0, 75, 0]", "[0, 90, 0]"), "up.toml")).towers
    assert tower.stood and not tower.disturbed
    assert all(p.moved_mm < 1 and p.tilt_deg < 1 for p in tower.pieces)


def test_a_fallen_tower_is_not_called_disturbed():
    (tower,) = run_scene(parse_scene(CAUGHT.replace("[0, 75, 0]", "[0, 105, 0]"), "f.toml")).towers
    assert not tower.stood and not tower.disturbed


def test_the_tremor_shakes_by_its_standard_deviations():
    rng = np.random.default_rng(7)
    tremor = Tremor(position_mm=2.0, angle_deg=3.0)
    shifts, tilts = [], []
    for _ in range(2000):
        (x, y), q = tremor.shake((0.0, 0.0), (0.0, 0.0, 0.0, 1.0), rng)
        shifts += [x * 1000, y * 1000]
        up_z = 1 - 2 * (q[0] ** 2 + q[1] ** 2)  # the piece's z axis, its z component
        tilts.append(np.degrees(np.arccos(np.clip(up_z, -1, 1))))
    assert np.std(shifts) == pytest.approx(2.0, rel=0.05)
    assert abs(np.mean(shifts)) < 0.1
    # |tilt| of a normal with sd 3 degrees: mean 3 sqrt(2 / pi) = 2.39 degrees
    assert np.mean(tilts) == pytest.approx(3.0 * np.sqrt(2 / np.pi), rel=0.06)
    assert Tremor().shake((0.1, 0.2), (0.0, 0.0, 0.0, 1.0), rng) == ((0.1, 0.2), (0.0, 0.0, 0.0, 1.0))


def test_a_centred_plank_balances_on_a_free_ball_without_tremor_and_falls_with_it():
    scene = parse_scene(PLANK_ON_BALL, "ball.toml")
    assert run_scene(scene).towers[0].stood  # exact release: an unstable equilibrium, held
    hand = Tremor(position_mm=0.5, angle_deg=0.5)
    fell = [not run_scene(scene, tremor=hand, seed=seed).towers[0].stood for seed in range(5)]
    assert all(fell)


def test_the_same_seed_gives_the_same_shaken_tower_and_another_seed_another():
    text = """
name = "shaken"
[tremor]
position_mm = 1.0
angle_deg = 1.0
[[towers]]
order = ["ashlar-large", "cylinder-wide", "cube-small", "disc"]
"""
    scene = parse_scene(text, "shaken.toml")

    def poses(seed):
        report = run_scene(scene, seed=seed).as_dict()
        return [p["position_mm"] for p in report["towers"][0]["pieces"]]

    assert poses(3) == poses(3)
    assert poses(3) != poses(4)
    assert run_scene(scene).as_dict()["tremor"] == {"position_mm": 1.0, "angle_deg": 1.0, "seed": 0}


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True,
                          text=True, timeout=300)


def test_stability_exits_1_and_names_each_failed_expectation(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text(CAUGHT + "[expect]\nstood = [true]\ndisturbed = [true]\n")
    bad = tmp_path / "bad.toml"
    bad.write_text(CAUGHT + "[expect]\nstood = [false]\nfell_at = [1]\ndisturbed = [false]\n")
    passing = _cli("stability", str(good))
    assert passing.returncode == 0, passing.stderr
    assert "expectations: 1 of 1 scenes as expected" in passing.stdout
    failing = _cli("stability", str(good), str(bad), "--json")
    assert failing.returncode == 1
    lines = [line for line in failing.stderr.splitlines() if "expectation failed" in line]
    assert len(lines) == 3  # stood, fell_at and disturbed, a line each
    assert all(str(bad) in line for line in lines)
    assert any("fell_at is -1 (did not fall), expected 1" in line for line in lines)
    assert any("disturbed is True, expected False (plank-short" in line for line in lines)
    report = json.loads(failing.stdout)
    assert report["expectations"]["scenes_checked"] == 2
    assert len(report["expectations"]["failed"]) == 3
    assert report["scenes"][0]["towers"][0]["disturbed"] is True


def test_stability_warns_about_a_piece_placed_inside_another_or_in_the_air(tmp_path):
    scene = tmp_path / "careless.toml"
    scene.write_text("""
allow_duplicates = true
[[towers]]
[[towers.placements]]
piece = "cube-large"
position_mm = [0, 0, 30]
[[towers]]
[[towers.placements]]
piece = "cube-large"
position_mm = [0, 0, 80]
[[towers]]
[[towers.placements]]
piece = "cube-large"
position_mm = [0, 0, 80]
drop = true
[[towers]]
[[towers.placements]]
piece = "cube-large"
position_mm = [0, 0, 46]
""")
    result = _cli("stability", str(scene), "--json")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 2, warnings  # the dropped one is meant, the last one is fine
    # the base's top is at 25 mm (plus 0.1 mm of clearance), the cube's half height 20 mm
    assert re.search(r"towers\[0\]\.placements\[0\] \(cube-large\): starts 15\.\d mm inside "
                     r"another body; released 15\.\d mm higher", warnings[0])
    assert re.search(r"towers\[1\]\.placements\[0\] \(cube-large\): released 3[45]\.\d mm above "
                     r"what it lands on \(write drop = true if meant\)", warnings[1])
    towers = json.loads(result.stdout)["scenes"][0]["towers"]
    assert [len(t["warnings"]) for t in towers] == [1, 1, 0, 0]


def test_tremor_flags_override_the_scene_and_bad_values_exit_2(tmp_path):
    scene = tmp_path / "ball.toml"
    scene.write_text(PLANK_ON_BALL)
    shaken = _cli("stability", str(scene), "--tremor-mm", "0.5", "--tremor-deg", "0.5",
                  "--seed", "2", "--json")
    assert shaken.returncode == 0, shaken.stderr
    report = json.loads(shaken.stdout)["scenes"][0]
    assert report["tremor"] == {"position_mm": 0.5, "angle_deg": 0.5, "seed": 2}
    assert report["towers"][0]["stood"] is False
    for flag, value in (("--tremor-mm", "-1"), ("--tremor-deg", "nan"), ("--seed", "-3")):
        bad = _cli("stability", str(scene), flag, value)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and flag in bad.stderr


CUBE_ON_APEX = """
name = "small cube exactly on the cone's apex"
[[towers]]
foundation = "cone-tall"
order = ["cube-small"]
"""


def test_a_cube_released_exactly_on_a_cone_apex_is_not_simply_standing():
    (tower,) = run_scene(parse_scene(CUBE_ON_APEX, "apex.toml")).towers
    assert tower.stood and tower.unstable
    assert tower.as_dict()["unstable"] is True
    (plank,) = run_scene(parse_scene(PLANK_ON_BALL, "plank.toml")).towers
    assert plank.stood and plank.unstable              # a saddle point, released exactly


@pytest.mark.parametrize("order", [["cube-large"], ["cube-large", "plank-long", "disc"],
                                   ["hemisphere"], ["egg-cup", "egg"]])
def test_a_tower_on_stable_faces_passes_the_balance_test(order):
    scene = parse_scene(f'name = "t"\n[[towers]]\norder = {json.dumps(order)}\n', "t.toml")
    (tower,) = run_scene(scene).towers
    assert tower.stood and not tower.unstable


def test_the_balance_test_leaves_the_world_as_it_found_it():
    from simulator.towers.physics.placement import place_on_table, place_on_top
    from simulator.towers.physics.stability import NUDGE_M_S, NUDGE_RAD_S, balances_unstably
    from simulator.towers.physics.world import World

    with World() as world:
        cone = place_on_table(world, "cone-tall", (0.0, 0.0))
        cube = place_on_top(world, "cube-small", (0.0, 0.0), [cone])
        world.settle(2.0)
        before = [world.pose(b) for b in (cone, cube)]
        assert balances_unstably(world, [cone, cube])
        assert [world.pose(b) for b in (cone, cube)] == before
        world.nudge([cone, cube], NUDGE_RAD_S, NUDGE_M_S)   # the same nudge for real: it falls
        world.settle(3.0)
        assert world.touches_ground(cube)


def test_in_a_game_a_piece_released_exactly_on_an_apex_is_tipped_off():
    """The referee gives a tower standing only on an unstable point the nudge that tips it: the
    cube comes off the apex (onto the base, which the rules allow)."""
    import random

    from simulator.games.bandu.referee import PhysicsReferee
    from simulator.games.bandu.rules import Place, new_game

    state = new_game(players=1, variant="solo", reserve=48)
    referee = PhysicsReferee(settle_seconds=3.0)
    try:
        for piece in ("cone-tall", "cube-small"):
            state.apply(state.action_from_str(f"takes {piece}"))
            state.apply(Place(piece))
            outcome = referee.resolve(state, random.Random(0))
            state.apply(outcome)
        apex_mm = state.poses["cone-tall"][2] + 45.0            # the cone's centre of mass is 15 up
        assert outcome.fallen == () or outcome.fallen == (0,)
        cube = [p for p in outcome.poses if p[0] == "cube-small"]
        assert not cube or cube[0][3] < apex_mm                  # not on the apex any more
    finally:
        referee.close()
