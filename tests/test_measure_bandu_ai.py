"""The bandu_ai benchmark (`python -m benchmarks bandu_ai`) prints the match table, the think
times and the solo table in one run (a short run here: eight pieces; with fewer, the reserve
runs out and a game goes on, pieces taken off the towers, until one falls: with three, 75
placements a game)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = [sys.executable, "-m", "benchmarks", "bandu_ai"]    # run from the checkout (cwd=ROOT)

pytestmark = pytest.mark.slow


def test_one_run_prints_the_match_the_think_times_and_the_solo_table(tmp_path):
    result = subprocess.run([*TOOL, "ai:easy,random", "--games", "2", "--seed", "4",
                             "--solo", "2", "--setting", "reserve=8"],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout[result.stdout.index("{"):])
    assert sum(report["wins"]) + report["shared_wins"] <= 2 and len(report["wins"]) == 2
    assert set(report["think_seconds"]) == {"ai:easy"}
    solo = report["solo"]["ai:easy"]
    assert solo["attempts"] == 2 and len(solo["scores"]) == 2
    assert min(solo["scores"]) >= 0 and solo["best"] == max(solo["scores"]) <= 8
    assert solo["mean"] == pytest.approx(sum(solo["scores"]) / 2, abs=0.05)
    assert solo["think_seconds"]["decisions"] >= 2
    # the games' lines on standard error give the same match table, as of a run stopped part way
    log = tmp_path / "games.log"
    log.write_text(result.stderr, encoding="utf-8")
    again = subprocess.run([*TOOL, "ai:easy,random", "--from-log", str(log)],
                           capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert again.returncode == 0, again.stderr
    logged = json.loads(again.stdout)
    for key in ("games", "wins", "shared_wins", "mean_placements", "think_seconds"):
        assert logged[key] == report[key], key
    log.write_text("not a log\n", encoding="utf-8")
    refused = subprocess.run([*TOOL, "ai:easy,random", "--from-log", str(log)],
                             capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert refused.returncode == 2 and "lists no games" in refused.stderr
    assert "Traceback" not in refused.stderr


@pytest.mark.parametrize("arguments", [["--games", "-1"], ["--seed", "x"], ["--workers", "0"],
                                       ["--setting", "first"], ["--setting", "first=9"],
                                       ["--from-log", "no-such-file.log"], ["--trial-workers", "3"]])
def test_bad_input_is_refused_in_one_line_with_exit_2(arguments):
    refused = subprocess.run([*TOOL, "ai:easy,random", *arguments],
                             capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert refused.returncode == 2, refused.stderr
    assert "Traceback" not in refused.stderr and refused.stdout == ""


def test_an_unknown_player_is_refused_in_one_line_with_exit_2():
    refused = subprocess.run([*TOOL, "ai:easy,ai:genius", "--games", "1"],
                             capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert refused.returncode == 2 and "genius" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr


def test_solo_attempts_alone_take_a_single_computer_player(tmp_path):
    result = subprocess.run([*TOOL, "ai:easy", "--games", "0", "--solo", "1",
                             "--setting", "reserve=3"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout[result.stdout.index("{"):])
    assert report["games"] == 0 and report["solo"]["ai:easy"]["attempts"] == 1
    # a match still needs a table of two or more
    refused = subprocess.run([*TOOL, "ai:easy", "--games", "1"],
                             capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert refused.returncode == 2 and "not 1" in refused.stderr, refused.stderr


SHOW = ROOT / "tools" / "show_bandu_game.py"


def test_the_game_shown_move_by_move_is_the_game_measured_with_that_seed():
    measured = subprocess.run([*TOOL, "random,random,random", "--games", "1", "--seed", "5"],
                              capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert measured.returncode == 0, measured.stderr
    game = next(json.loads(line) for line in measured.stderr.splitlines() if line.startswith("{"))
    report = json.loads(measured.stdout[measured.stdout.index("{"):])
    assert report["first_out"] == [int(seat == game["eliminated"][0]) for seat in range(3)]
    shown = subprocess.run([sys.executable, str(SHOW), "random,random,random", "--seed", "5"],
                           capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    placed = [[int(line.split()[0]), line.split()[2]] for line in lines if line.split()[1] == "places"]
    assert placed == [[seat, piece] for seat, piece, _ in game["pieces"]]
    results = [line for line in lines if line.startswith("R  result")]
    assert len(results) == len(placed) and all("beans by seat: " in line for line in results)
    assert any(" offers " in line for line in lines)
    cut = subprocess.run([sys.executable, str(SHOW), "random,random,random", "--seed", "5", "--placements", "2"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert cut.stdout.splitlines() == lines[:len(cut.stdout.splitlines())]
    assert sum(" places " in line for line in cut.stdout.splitlines()) == 2
    for bad in (["--setting", "first=x"], ["--placements", "-5"]):
        refused = subprocess.run([sys.executable, str(SHOW), "random,random", *bad],
                                 capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert refused.returncode == 2 and refused.stderr.strip().splitlines()[-1].startswith("show_bandu_game.py: error: ")
