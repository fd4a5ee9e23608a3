"""The command line as a user runs it: exit codes, one-line errors, JSON shapes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize(("args", "message"), [
    (["selfplay", "coming"], "not playable yet"),
    (["play", "coming"], "not playable in the window yet"),
    (["play", "coming", "--players", "person,random"], "not playable in the window yet"),
])
def test_a_game_not_built_yet_is_refused_in_one_line(coming_game, capsys, args, message):
    from simulator.cli import main

    assert main(args) == 2
    captured = capsys.readouterr()
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1
    assert captured.out == ""


def test_selfplay_json():
    result = run("selfplay", "tanbo", "--games", "3", "--seed", "5", "--players", "random,mcts:easy", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [g["seed"] for g in report["games"]] == [5, 6, 7]
    assert all(set(g) >= {"seed", "winners", "length"} for g in report["games"])
    assert all(len(g["winners"]) == 1 and g["length"] > 0 for g in report["games"])
    assert sum(report["wins"]) == 3 and len(report["wins"]) == 2


def test_a_solo_selfplay_seats_one_player_and_the_physics_prints_nothing():
    result = run("selfplay", "bandu", "--setting", "variant=solo", "--setting", "reserve=8", "--games", "1", "--seed", "3")
    assert result.returncode == 0, result.stderr       # a solo game of two was refused
    assert "seat 0" in result.stdout and "seat 1" not in result.stdout
    assert "pybullet" not in result.stdout.lower() + result.stderr.lower()   # its build banner


def test_selfplay_is_reproducible_and_uses_settings():
    a = json.loads(run("selfplay", "tanbo", "--games", "2", "--players", "random,random",
                       "--setting", "size=11", "--json").stdout)
    b = json.loads(run("selfplay", "tanbo", "--games", "2", "--players", "random,random",
                       "--setting", "size=11", "--json").stdout)
    assert [(g["winners"], g["length"]) for g in a["games"]] == [(g["winners"], g["length"]) for g in b["games"]]
    assert a["settings"] == {"size": 11}


def test_selfplay_with_two_workers_gives_the_same_games():
    one = json.loads(run("selfplay", "tanbo", "--games", "4", "--players", "random,random", "--json").stdout)
    two = json.loads(run("selfplay", "tanbo", "--games", "4", "--players", "random,random", "--json",
                         "--workers", "2").stdout)
    def outcome(report):
        return [(g["seed"], g["winners"], g["length"]) for g in report["games"]]

    assert outcome(one) == outcome(two)


@pytest.mark.parametrize(("args", "message"), [
    (["selfplay", "chess"], "unknown game 'chess'"),
    (["selfplay", "tanbo", "--players", "random,wizard"], "unknown player 'wizard'"),
    (["selfplay", "tanbo", "--players", "mcts:godlike,random"], "unknown strength 'godlike'"),
    (["selfplay", "tanbo", "--players", "random"], "is for 2 players, not 1"),
    (["selfplay", "tanbo", "--games", "0"], "--games: must be 1 to 100000, not 0"),
    (["selfplay", "tanbo", "--games", "x"], "--games: wants a whole number"),
    (["selfplay", "tanbo", "--setting", "size=8"], "size must be one of"),
    (["selfplay", "tanbo", "--setting", "colour=red"], "unknown setting 'colour'"),
    (["selfplay", "bandu", "--players", "mcts,random"], "unknown player 'mcts' for Bandu; use random, ai or ai:LEVEL"),
    (["play", "--load", "/nonexistent/save.json"], "no such file"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_exits_2_with_one_line(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bandu-sim: error:"), result.stderr
    assert message in lines[0]


def test_bench_quick_reports_ratio():
    """Also its JSON with standard output buffered, as in a normal shell (PYTHONUNBUFFERED unset:
    PyBullet's buffered 'argv[0]=' line must not follow the document), as test_hardening checks
    the other commands that print JSON."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    result = subprocess.run([sys.executable, "-m", "simulator", "bench", "--quick", "--json"],
                            capture_output=True, text=True, timeout=200, env=env)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["tanbo"]["tanbo_random_playouts"]
    assert [r["board"] for r in rows] == ["7x7", "19x19"]
    for row in rows:
        assert row["incremental_per_s"] > 0 and row["naive_per_s"] > 0
        assert row["ratio"] == pytest.approx(row["incremental_per_s"] / row["naive_per_s"], rel=0.01)
    physics = json.loads(result.stdout)["physics"]
    assert set(physics) == {"tower_8", "verdict_15"}
    for name in ("tower_8", "verdict_15"):
        assert set(physics[name]) == {"chosen", "reference", "pybullet_defaults"}
    assert physics["tower_8"]["chosen"]["stood"] is True  # the chosen settings hold the tower
    assert physics["tower_8"]["reference"]["stood"] is True   # and so does the reference
    tower = physics["tower_8"]["chosen"]
    # build_rtf is printed to 0.1: below 1 that rounding alone is up to 0.05 / build_rtf
    assert tower["build_rtf"] > 0 and tower["orderings_per_min"] == pytest.approx(
        60 * tower["build_rtf"] / tower["build_simulated_s"], rel=0.05 + 0.05 / tower["build_rtf"])
    assert 0 < physics["verdict_15"]["chosen"]["median_s"] < 5


def test_help_lists_the_commands():
    result = run("--help")
    assert result.returncode == 0
    for command in ("play", "selfplay", "stability", "pieces", "bench", "build-meshes"):
        assert command in result.stdout


def test_a_setting_given_twice_is_refused(capsys):
    from simulator.cli import main

    assert main(["selfplay", "bandida", "--games", "1", "--players", "random",
                 "--setting", "mode=2", "--setting", "mode=3"]) == 2
    err = capsys.readouterr().err
    assert "mode" in err and "twice" in err and len(err.strip().splitlines()) == 1


def test_a_cooperative_games_selfplay_counts_the_teams_wins(capsys):
    from simulator.cli import main

    assert main(["selfplay", "bandida", "--games", "2", "--players", "random,random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("team of 2 (random, random): ") and "wins of 2" in out and "seat" not in out
