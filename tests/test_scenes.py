"""Scene files: every mistake is one line naming the file and the key; the CLI exits 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.core.errors import SceneError
from simulator.towers.physics.scene_file import TOWER_SPACING_MM, parse_scene

GOOD = """
name = "ok"
[[towers]]
order = ["cube-large"]
"""


@pytest.mark.parametrize(("text", "key", "reason"), [
    ('colour = "red"\n' + GOOD, "colour", "unknown key"),
    ('name = "x"\n[[towers]]\norder = ["cube-huge"]', "towers[0].order[0]", "unknown piece 'cube-huge'"),
    ('name = "x"\n[[towers]]\norder = ["egg", "egg"]', "towers", "used 2 times but the set has 1"),
    ('name = "x"\nsettle_seconds = nan\n[[towers]]', "settle_seconds", "finite number"),
    ('name = "x"\nsettle_seconds = "long"\n[[towers]]', "settle_seconds", "expected a number"),
    ('name = "x"\nsettle_seconds = 1000\n[[towers]]', "settle_seconds", "out of range"),
    ('name = 3\n[[towers]]', "name", "expected a string"),
    ('name = "x"\n[[towers]]\nposition_mm = [0, "a"]', "towers[0].position_mm[1]", "expected a number"),
    ('name = "x"\n[[towers]]\nposition_mm = [5000, 0]', "towers[0].position_mm[0]", "out of range"),
    ('name = "x"\n[[towers]]\nposition_mm = [900, 0]', "towers[0].position_mm[0]", "off the table"),
    ('name = "x"\n[[towers]]\nposition_mm = [0]', "towers[0].position_mm", "list of 2 numbers"),
    ('name = "x"\n[[towers]]\norder = ["egg"]\n[[towers.placements]]\npiece = "ball"\nposition_mm = [0,0,50]',
     "towers[0].order", "not both"),
    ('name = "x"\n[[towers]]\n[[towers.placements]]\npiece = "ball"', "towers[0].placements[0].position_mm",
     "missing"),
    ('name = "x"\n[[towers]]\n[[towers.placements]]\npiece = "ball"\nposition_mm = [0,0,50]\nspin = 1',
     "towers[0].placements[0].spin", "unknown key"),
    ('name = "x"\n[[towers]]\nfoundation = 7', "towers[0].foundation", "expected a piece id"),
    ('name = "x"', "towers", "at least one"),
    ('name = "x"\n[[towers]]\n[expect]\nstood = [true, false]', "expect.stood", "one per tower"),
    ('name = "x"\nallow_duplicates = "yes"\n[[towers]]', "allow_duplicates", "true or false"),
    ('name = "x" [[towers]]', None, "not valid TOML"),
    # keys of the tremor, the hold, meant drops and [expect] disturbed / fell_at
    ('[tremor]\nposition_mm = -1\n[[towers]]', "tremor.position_mm", "out of range"),
    ('[tremor]\nangle_deg = "a lot"\n[[towers]]', "tremor.angle_deg", "expected a number"),
    ('[tremor]\nhand = 1\n[[towers]]', "tremor.hand", "unknown key"),
    ('seed = 1.5\n[[towers]]', "seed", "whole number"),
    ('seed = -1\n[[towers]]', "seed", "whole number"),
    ('hold_seconds = 100\n[[towers]]', "hold_seconds", "out of range"),
    ('[[towers]]\n[[towers.placements]]\npiece = "egg"\nposition_mm = [0,0,50]\ndrop = 1',
     "towers[0].placements[0].drop", "true or false"),
    ('[[towers]]\n[expect]\ndisturbed = [1]', "expect.disturbed", "one per tower"),
    ('[[towers]]\norder = ["egg"]\n[expect]\nfell_at = [-7]', "expect.fell_at[0]", "not -1"),
    ('[[towers]]\norder = ["egg"]\n[expect]\nfell_at = [1]', "expect.fell_at[0]", "(0 .. 0)"),
])
def test_bad_scenes_name_the_file_and_key(text, key, reason):
    with pytest.raises(SceneError) as error:
        parse_scene(text, "bad.toml")
    message = str(error.value)
    assert message.startswith("bad.toml: ")
    assert "\n" not in message
    if key:
        assert f": {key}: " in message
    assert reason in message


def test_duplicates_allowed_when_asked_and_towers_spread_by_default():
    scene = parse_scene('allow_duplicates = true\n[[towers]]\norder = ["egg", "egg"]\n[[towers]]', "a.toml")
    assert [t.position_mm for t in scene.towers] == [(-TOWER_SPACING_MM / 2, 0.0), (TOWER_SPACING_MM / 2, 0.0)]
    assert scene.name == "a"
    assert parse_scene('[[towers]]\norder = ["base", "base#2"]', "b.toml").towers[0].placements[1].piece == "base"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True, text=True,
                          timeout=300)


def test_stability_json_shape(tmp_path):
    path = tmp_path / "two.toml"
    path.write_text('name = "two towers"\n[[towers]]\norder = ["ashlar-large", "cube-small"]\n'
                    '[[towers]]\n[[towers.placements]]\npiece = "cube-large"\nposition_mm = [70, 0, 46]\n')
    result = _cli("stability", str(path), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)  # nothing but JSON on stdout
    (scene,) = report["scenes"]
    assert scene["name"] == "two towers" and len(scene["towers"]) == 2
    assert scene["simulated_seconds"] > 0 and scene["wall_seconds"] > 0
    standing, fallen = scene["towers"]
    assert standing["stood"] is True and standing["fell_at"] is None
    assert [p["id"] for p in standing["pieces"]] == ["base", "ashlar-large", "cube-small"]
    assert standing["height_mm"] == pytest.approx(25 + 40 + 25, abs=1.5)
    assert set(standing["pieces"][0]) == {"id", "position_mm", "touches_table", "moved_mm", "tilt_deg"}
    assert standing["pieces"][0]["touches_table"] is True
    assert fallen["stood"] is False and fallen["fell_at"] == 0
    assert fallen["pieces"][0]["id"] == "base#2" and fallen["pieces"][1]["touches_table"] is True


def test_stability_readable_table_and_bad_file_exit_2(tmp_path):
    shipped = sorted(str(p) for p in (Path(__file__).parent.parent / "scenes" / "examples").glob("*.toml"))
    assert shipped, "example scenes ship with the program"
    result = _cli("stability", shipped[0])
    assert result.returncode == 0 and "height mm" in result.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('[[towers]]\norder = ["ashlar-large", "unicorn"]\n')
    result = _cli("stability", shipped[0], str(bad))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == (
        f"bandu-sim: error: {bad}: towers[0].order[1]: unknown piece 'unicorn' (see `bandu-sim pieces`)")
    assert result.stdout == ""  # nothing ran: every file is checked first
    missing = _cli("stability", str(tmp_path / "nope.toml"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_the_stability_bar_counts_placements_so_a_long_scene_shows_its_progress(monkeypatch, capsys):
    """A scene within every limit (64 towers of 200 pieces) settles for hours: the bar moves
    with every placement (and says how long is left), not once a scene. A tower that falls
    counts the placements it leaves unbuilt, so the bar ends at its total."""
    from simulator import cli, progress

    calls: list[tuple[int, int]] = []

    class Recorder:
        def __init__(self, label, unit="step", **_):
            assert unit == "piece"

        def __call__(self, done, total, note=""):
            calls.append((done, total))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

    monkeypatch.setattr(progress, "ProgressBar", Recorder)
    scene = parse_scene('name = "two"\nallow_duplicates = true\n[[towers]]\norder = ["cube-large", "cube-small", "ball", "cylinder-tall"]\n'
                        '[[towers]]\norder = ["cube-large", "slab-square"]\n', "two.toml")
    monkeypatch.setattr("simulator.towers.physics.scene_file.load_scene", lambda path: scene)
    assert cli.main(["stability", "two.toml", "--json"]) == 0
    capsys.readouterr()
    totals = {total for _, total in calls}
    done = [d for d, _ in calls]
    assert totals == {6} and done == sorted(done) and done[-1] == 6 and len(calls) >= 6
