"""Physical truths the simulation must get right (scenes/validation), and the world's tools."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from simulator.towers.physics.placement import place_on_table, resting_faces
from simulator.towers.physics.scene_file import load_scene, parse_scene
from simulator.towers.physics.stability import check_expectations, run_scene
from simulator.towers.physics.world import PhysicsSettings, World, rotate, support_points
from simulator.towers.pieces.catalogue import CATALOGUE

VALIDATION = sorted((Path(__file__).parent.parent / "scenes" / "validation").glob("*.toml"))


def test_the_validation_suite_is_there():
    names = {p.stem for p in VALIDATION}
    assert {"column-of-bases", "com-inside-edge", "com-outside-edge", "harmonic-within",
            "harmonic-past", "slope-gentle", "slope-steep", "ball-on-base", "egg-on-base",
            "ring-over-pole", "plank-on-free-ball-falls", "cube-off-cone-apex-falls",
            "cube-on-dome-rocks-back", "egg-in-egg-cup-stays", "ball-table-tilted-rolls"} <= names
    assert len(names) >= 25


@pytest.mark.parametrize("path", VALIDATION, ids=lambda p: p.stem)
def test_every_validation_scene_says_why_in_its_opening_comment(path):
    """The derivation from first principles: a comment of several lines before anything else."""
    comment = list(itertools.takewhile(lambda line: line.startswith("#"),
                                       path.read_text().splitlines()))
    assert len(comment) >= 2, "a validation scene opens with its derivation"


def test_the_command_line_checks_the_whole_suite_and_says_so():
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "simulator", "stability", *map(str, VALIDATION)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert f"expectations: {len(VALIDATION)} of {len(VALIDATION)} scenes as expected" in result.stdout
    assert "warning" not in result.stderr


def test_importing_the_physics_prints_nothing_and_leaves_the_output_working():
    """A library prints nothing into its user's output: PyBullet's build-time line, written by
    its C code on the first import, is silenced there (the physics imports PyBullet through
    import_quietly), once; afterwards both streams work as before."""
    import subprocess
    import sys

    code = ("import os\n"
            "calls, real_dup2 = [], os.dup2\n"
            "def recording_dup2(*args, **kwargs):\n"
            "    calls.append(args)\n"
            "    return real_dup2(*args, **kwargs)\n"
            "os.dup2 = recording_dup2\n"
            "import simulator.towers.physics.stability, simulator.towers.physics.world\n"
            "import simulator.games.bandu.referee\n"
            "os.write(1, f'imported; dup2 calls: {len(calls)}'.encode())\n"
            "os.write(2, b'and the errors')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=True)
    assert result.stdout == "imported; dup2 calls: 8"   # silenced and put back, once per module
    assert result.stderr == "and the errors"


@pytest.mark.parametrize("path", VALIDATION, ids=lambda p: p.stem)
def test_validation_scene(path):
    scene = load_scene(path)
    assert scene.expect.stood is not None or scene.expect.pieces, "a validation scene expects something"
    report = run_scene(scene)
    assert check_expectations(scene, report) == []


def test_expectations_can_fail():
    scene = load_scene(VALIDATION[0].parent / "com-outside-edge.toml")
    wrong = parse_scene(Path(scene.path).read_text().replace("stood = [false]", "stood = [true]"),
                        scene.path)
    assert check_expectations(wrong, run_scene(wrong)) != []


def _unique(faces):
    seen, out = set(), []
    for face in faces:
        key = (round(face.tipping_angle_deg), round(face.com_height_m * 2000), round(face.area_mm2))
        if key not in seen:
            seen.add(key)
            out.append(face)
    return out


STABLE_FACES = [(spec.id, index, face) for spec in CATALOGUE
                for index, face in enumerate(_unique(resting_faces(spec.id)))
                if face.tipping_angle_deg >= 5.0]


def test_every_piece_but_the_round_ones_has_a_stable_face():
    with_faces = {piece for piece, _, _ in STABLE_FACES}
    assert with_faces >= {spec.id for spec in CATALOGUE} - {"egg", "ball"}


def _moved(piece, before, after) -> float:
    points = support_points(piece)
    return float(np.linalg.norm((rotate(after[1], points) + after[0])
                                - (rotate(before[1], points) + before[0]), axis=1).max())


@pytest.mark.slow
@pytest.mark.parametrize(("piece", "index", "face"), STABLE_FACES,
                         ids=[f"{p}-{i}" for p, i, _ in STABLE_FACES])
def test_piece_rests_on_each_stable_face_for_5_s_within_1_mm(piece, index, face):
    """Released at rest on the face, the piece stays within 1 mm for 5 s after it has come to
    rest; coming to rest moves it by at most 2 mm, which is the collision margin rounding the
    sharp rims it may stand on (docs/PHYSICS.md); most pieces do not move at all."""
    with World() as world:
        body = place_on_table(world, piece, (0, 0), face.orientation)
        released = world.pose(body)
        world.step(round(0.5 / world.settings.time_step))
        resting = world.pose(body)
        world.step(round(5.0 / world.settings.time_step))
        final = world.pose(body)
    assert _moved(piece, released, resting) < 2e-3
    assert _moved(piece, resting, final) < 1e-3, f"moved {_moved(piece, resting, final) * 1000:.2f} mm"


def test_flat_faced_pieces_do_not_move_at_all_when_released_on_a_face():
    for piece in ("base", "ashlar-large", "arch", "stairs", "l-block", "star", "zigzag"):
        with World() as world:
            body = place_on_table(world, piece, (0, 0), resting_faces(piece)[0].orientation)
            released = world.pose(body)
            world.step(round(5.0 / world.settings.time_step))
            assert _moved(piece, released, world.pose(body)) < 1e-3, piece


@pytest.mark.parametrize(("slope", "stays"), [(20, True), (24, True), (29, False), (35, False)])
def test_a_block_slides_only_where_tan_angle_exceeds_friction(slope, stays):
    """Beech on beech: friction 0.5, so the critical angle is atan(0.5) = 26.6 degrees."""
    with World(slope_deg=slope) as world:
        body = place_on_table(world, "cube-large", (0, 0))
        start = world.pose(body)[0]
        world.step(round(2.0 / world.settings.time_step))
        moved = math.dist(start, world.pose(body)[0])
    assert (moved < 1e-3) == stays, f"moved {moved * 1000:.1f} mm on {slope} degrees"


def test_same_scene_same_verdict_and_poses():
    text = """
name = "mixed"
[[towers]]
order = ["ashlar-large", "cylinder-wide", "arch", "cube-small", "egg-cup", "cone-tall"]
[[towers]]
order = ["plank-long", "ring", "star", "ball"]
"""
    first = run_scene(parse_scene(text, "mixed.toml")).as_dict()
    second = run_scene(parse_scene(text, "mixed.toml")).as_dict()
    first.pop("wall_seconds"), second.pop("wall_seconds")
    assert first == second


def test_a_piece_placed_into_another_is_raised_just_clear_of_it():
    with World() as world:
        place_on_table(world, "base", (0, 0))
        body = world.add_piece("cube-large", (0, 0, 0.030))  # would sink 15 mm into the base
        lowest = world.lowest_and_highest(body)[0]
        assert 0.025 <= lowest < 0.0255
        assert not world.overlaps(body)


def test_save_and_restore_state_and_remove_and_restore_a_piece():
    with World() as world:
        base = place_on_table(world, "base", (0, 0))
        cube = world.add_piece("cube-large", (0.045, 0, 0.046))  # will tip off the edge
        snapshot = world.save_state()
        before = world.pose(cube)
        world.step(240)
        assert world.pose(cube)[0] != before[0]
        extra = world.add_piece("ball", (0.3, 0, 0.03))
        world.restore_state(snapshot)
        assert extra not in world.bodies()
        assert np.allclose(world.pose(cube)[0], before[0], atol=1e-9)
        world.remove(cube)
        assert world.bodies() == [base]
        world.step(240)
        world.restore(cube)
        assert np.allclose(world.pose(cube)[0], before[0], atol=1e-9)


def test_settling_stops_early_once_the_verdict_is_certain():
    scene = load_scene(VALIDATION[0].parent / "com-outside-edge.toml")
    report = run_scene(scene)
    assert report.simulated_seconds < scene.settle_seconds


def _column_of_three_bases(world: World) -> list[int]:
    bottom = place_on_table(world, "base", (0, 0))
    middle = world.add_piece("base", (0, 0, 0.0375))
    top = world.add_piece("base", (0, 0, 0.0625))
    return [bottom, middle, top]


def test_a_tower_at_rest_falls_asleep_and_stops_moving_at_all():
    with World() as world:
        bodies = _column_of_three_bases(world)
        world.step(round(3.0 / world.settings.time_step))  # past Bullet's 2 s before sleeping
        before = [world.pose(b)[0] for b in bodies]
        world.step(round(1.0 / world.settings.time_step))
        assert [world.pose(b)[0] for b in bodies] == before  # asleep: not a femtometre of drift
    with World(PhysicsSettings.pybullet_defaults()) as awake:
        assert not awake.settings.sleeping


@pytest.mark.parametrize("take_away", ["remove", "move"])
def test_taking_a_piece_from_under_a_sleeping_tower_wakes_it(take_away):
    with World() as world:
        _bottom, middle, top = _column_of_three_bases(world)
        world.step(round(3.0 / world.settings.time_step))
        if take_away == "remove":
            world.remove(middle)
        else:
            world.set_pose(middle, (0.3, 0, 0.0125), (0, 0, 0, 1))
        world.step(round(0.5 / world.settings.time_step))
        assert world.pose(top)[0][2] < 0.040  # fell onto the bottom block


def test_stepping_on_from_a_restored_snapshot_repeats_the_first_run_exactly():
    """The friction fitted to the contacts is part of the snapshot (Bullet's own is not); without
    it the ball was 1.6 micrometres off after 50 steps, and growing. What remains is rounding."""
    with World(slope_deg=0.5) as world:
        place_on_table(world, "base", (0, 0))
        ball = world.add_piece("ball", (0, 0, 0.0451))
        world.step(3)
        snapshot = world.save_state()
        world.step(50)
        first = world.pose(ball)
        world.restore_state(snapshot)
        world.step(50)
        assert math.dist(world.pose(ball)[0], first[0]) < 1e-9


def test_a_piece_taken_out_of_the_world_does_not_touch_the_ground():
    with World() as world:
        base = place_on_table(world, "base", (0, 0))
        cube = world.add_piece("cube-small", (0, 0, 0.04))
        world.remove(cube)
        world.step(4)
        assert world.bodies_on_ground() == {base}
        assert not world.touches_ground(cube)


def test_the_benchmark_scales_each_tower_by_the_column_measured_in_the_same_run():
    from simulator.towers.physics.bench_towers import BENCH_TOWERS
    from simulator.towers.physics.speed import _add_reference_figures, format_physics_report
    report = {name: {"chosen": {"build_rtf": 5.0}} for name in BENCH_TOWERS}
    report["column_20_bases"]["chosen"]["build_rtf"] = 12.65  # half the reference machine's
    report["tower_holes_rings"]["chosen"]["build_rtf"] = 2.0
    _add_reference_figures(report)
    assert report["tower_20"]["chosen"]["build_rtf_at_reference"] == 10.0
    assert report["tower_holes_rings"]["chosen"]["build_rtf_at_reference"] == 4.0
    assert "goal" not in format_physics_report(report)   # the goal of 10 is withdrawn
    quick = {"tower_20": {"chosen": {"build_rtf": 5.0}}}  # --quick measures no column
    _add_reference_figures(quick)
    assert "build_rtf_at_reference" not in quick["tower_20"]["chosen"]


def test_a_triangular_face_is_measured_as_qhull_measures_it():
    """resting_faces works a triangle's margin and area out directly (a curved piece's hull is
    mostly triangles): the same as Qhull's for random triangles around and beside the origin."""
    from scipy.spatial import ConvexHull

    from simulator.towers.physics.placement import _margin_and_area

    rng = np.random.default_rng(4)
    inside = 0
    for _ in range(400):
        flat = rng.uniform(-0.02, 0.02, (3, 2))
        hull = ConvexHull(flat)
        margin = float(np.min(-hull.equations[:, 2]))
        found = _margin_and_area(flat)
        if margin <= 0:
            assert found is None
            continue
        inside += 1
        assert found is not None
        assert found[0] == pytest.approx(margin, rel=1e-9) and found[1] == pytest.approx(hull.volume, rel=1e-9)
    assert inside > 40
