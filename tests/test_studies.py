"""Stability studies (simulator/towers/studies/, `bandu-sim stability --orderings/--trials/--report`):
the Wilson interval against published figures, orderings (seeded, counted, limited), the same
numbers on 1 and 2 workers, the command end to end with its report, refusals of bad input,
the progress bar, and Ctrl+C keeping what was finished."""

from __future__ import annotations

import csv
import fcntl
import io
import json
import math
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from simulator.core.errors import InvalidArgument
from simulator.progress import ProgressBar
from simulator.towers.physics.scene_file import parse_scene
from simulator.towers.physics.tremor import Tremor
from simulator.towers.studies.jobs import JobResult
from simulator.towers.studies.limits import MAX_ORDERINGS
from simulator.towers.studies.orderings import (
    GIVEN,
    OrderingSpec,
    count_orderings,
    distinct_permutations,
    orderings_for,
    parse_orderings,
    random_orderings,
)
from simulator.towers.studies.wilson import wilson_interval

THREE = ["cube-small", "cylinder-wide", "cone-small"]
SCENE = """name = "three small pieces"
settle_seconds = 0.5
[[towers]]
order = ["cube-small", "cylinder-wide", "cone-small"]
"""
EIGHT = ["ashlar-large", "slab-square", "cylinder-wide", "plank-long", "cube-large", "disc",
         "washer", "cube-small"]
NOISE = Tremor(1.0, 1.0)


def _cli(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True,
                          text=True, timeout=timeout)


def _scene_file(tmp_path: Path, text: str = SCENE, name: str = "small.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# --- the Wilson score interval -------------------------------------------------------------

@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    # R. G. Newcombe, Statistics in Medicine 17 (1998) 857, table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    # the rule of thumb at the ends: 0 of 10 gives an upper bound of 0.2775
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_interval_matches_published_figures(successes, trials, low, high):
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_is_symmetric_narrows_and_refuses_nonsense():
    low, high = wilson_interval(3, 10)
    assert (1 - high, 1 - low) == pytest.approx(wilson_interval(7, 10))
    assert wilson_interval(50, 100)[1] - wilson_interval(50, 100)[0] < high - low
    for bad in ((1, 0), (-1, 5), (6, 5)):
        with pytest.raises(ValueError, match="need 0 <= successes"):
            wilson_interval(*bad)


# --- orderings ---------------------------------------------------------------------------

def test_orderings_are_parsed_or_refused_in_one_line():
    assert parse_orderings("given") == GIVEN
    assert parse_orderings("permutations") == OrderingSpec("permutations")
    assert parse_orderings("random:12") == OrderingSpec("random", 12)
    for bad in ("all", "random", "random:0", "random:-3", f"random:{MAX_ORDERINGS + 1}",
                "random:x", "random:²", "random:٣", "permutations:3", "given:1"):
        with pytest.raises(InvalidArgument, match=r"^orderings") as refused:
            parse_orderings(bad)                  # the library's words: a ValueError naming it
        assert refused.value.argument == "orderings" and isinstance(refused.value, ValueError)
        assert str(refused.value.as_usage_error()).startswith("--orderings ")


def test_permutations_are_every_distinct_order_given_first():
    orders = list(distinct_permutations(THREE))
    assert len(orders) == count_orderings(THREE) == 6 == len(set(orders))
    assert orders[0] == tuple(THREE)
    repeated = ["base", "base", "cube-small", "base"]
    assert count_orderings(repeated) == 4                      # 4! / 3!
    assert sorted(distinct_permutations(repeated)) == sorted(set(
        __import__("itertools").permutations(repeated)))
    assert count_orderings(EIGHT) == math.factorial(8)


def test_random_orderings_are_seeded_and_distinct():
    a = random_orderings(EIGHT, 20, seed=5, tower=0)
    assert a == random_orderings(EIGHT, 20, seed=5, tower=0)
    assert a != random_orderings(EIGHT, 20, seed=6, tower=0)
    assert a != random_orderings(EIGHT, 20, seed=5, tower=1)
    assert len(set(a)) == 20 and all(sorted(o) == sorted(EIGHT) for o in a)
    assert sorted(random_orderings(THREE, 6, 0, 0)) == sorted(distinct_permutations(THREE))


def test_orderings_beyond_the_limit_are_refused():
    with pytest.raises(InvalidArgument, match=r"8 pieces have 40320 orderings; "
                                              r"permutations allows at most 5040 \(use random:N\)"):
        orderings_for(OrderingSpec("permutations"), EIGHT, 0, 0, "x.toml: towers[0]")
    with pytest.raises(InvalidArgument, match="more orderings than the 6"):
        orderings_for(OrderingSpec("random", 7), THREE, 0, 0, "x.toml: towers[0]")
    assert len(orderings_for(OrderingSpec("permutations"), EIGHT[:7], 0, 0, "")) == 5040


# --- planning and aggregating (no physics) -------------------------------------------------

def test_a_plan_has_orderings_times_trials_jobs_with_seed_plus_trial():
    from simulator.towers.studies.study import plan_study

    explicit = ('[[towers]]\n[[towers.placements]]\npiece = "ball"\nposition_mm = [0, 0, 45]\n'
                '[[towers.placements]]\npiece = "egg"\nposition_mm = [0, 0, 90]\n')
    scene = parse_scene(SCENE + explicit, "two.toml")
    plan = plan_study([scene], [NOISE], OrderingSpec("permutations"), trials=3, seed=40)
    assert [len(t.orderings) for t in plan.towers] == [6, 1]   # placements keep their order
    assert len(plan.jobs) == 6 * 3 + 1 * 3
    assert [j.seed for j in plan.jobs[:3]] == [40, 41, 42]
    assert {j.order for j in plan.jobs if j.tower == 0} == set(distinct_permutations(THREE))
    seven = parse_scene(f"[[towers]]\norder = {json.dumps(EIGHT[:7])}\n", "seven.toml")
    with pytest.raises(InvalidArgument, match="more than 200000"):     # 5040 orderings x 40 trials
        plan_study([seven], [NOISE], OrderingSpec("permutations"), trials=40)


def test_aggregate_ranks_orderings_and_counts_pieces_by_position():
    from simulator.towers.studies.study import aggregate, plan_study

    plan = plan_study([parse_scene(SCENE, "s.toml")], [NOISE], OrderingSpec("random", 3), trials=4)
    orders = plan.towers[0].orderings
    results = []
    for job in plan.jobs:                 # ordering 1 stands 3 of 4, the others never
        stood = job.ordering == 1 and job.trial < 3
        results.append(JobResult(job.key, job.seed, job.order, stood, None if stood else 1,
                                 False, 100.0 if stood else 50.0))
    result = aggregate(plan, [*results[:-4], results[-1]], interrupted=True)  # 3 jobs missing
    tower = result.towers[0]
    best = tower.orderings[0]
    assert (best.index, best.stood, best.trials) == (1, 3, 4)
    assert best.interval == pytest.approx(wilson_interval(3, 4))
    assert best.mean_height_mm == pytest.approx(87.5)
    assert [o.trials for o in tower.orderings] == [4, 4, 1]
    second_piece = orders[2][1]
    assert next(p for p in tower.pieces if p.piece == orders[1][1]).stood[1] == 3
    assert sum(p.brought_down for p in tower.pieces) == 4 + 1 + 1
    assert next(p for p in tower.pieces if p.piece == second_piece).brought_down >= 1
    report = result.as_dict()
    assert report["study"]["interrupted"] and report["study"]["finished"] == 9
    assert report["towers"][0]["orderings"][0]["interval_95"] == [round(v, 4) for v in best.interval]


def test_a_study_of_a_lone_foundation_that_slides_off_says_so(capsys):
    """A tower of a foundation alone that falls (a base sliding down a steep slope) has no
    placement to blame: the study of the validation scenes stopped with an IndexError."""
    from simulator import cli

    scene = Path(__file__).resolve().parents[1] / "scenes" / "validation" / "slope-31-base-slides.toml"
    assert cli.main(["stability", str(scene), "--workers", "2", "--trials", "2"]) == 0
    out = capsys.readouterr().out
    assert "stood 0 of 2 builds" in out and "Traceback" not in out


# --- running -------------------------------------------------------------------------------

def test_trial_zero_of_the_given_order_is_what_stability_reports():
    from simulator.towers.physics.stability import run_scene
    from simulator.towers.studies.jobs import run_job
    from simulator.towers.studies.study import plan_study

    scene = parse_scene(SCENE, "s.toml")
    plan = plan_study([scene], [NOISE], GIVEN, trials=2, seed=7)
    tower = run_scene(scene, tremor=NOISE, seed=7).towers[0]
    first = run_job(plan.jobs[0])
    assert (first.stood, first.fell_at, first.height_mm) == (tower.stood, tower.fell_at,
                                                             tower.height_mm)


def test_one_worker_and_two_processes_give_identical_numbers():
    from simulator.towers.studies.study import plan_study, run_study

    plan = plan_study([parse_scene(SCENE, "s.toml")], [Tremor(2.0, 2.0)],
                      OrderingSpec("permutations"), trials=2, seed=3)
    one = run_study(plan, workers=1)
    two = run_study(plan, workers=2)
    assert not one.interrupted and not two.interrupted
    assert one.results == two.results and len(one.results) == 12

    def figures(result):
        report = result.as_dict()
        del report["study"]["wall_seconds"], report["study"]["workers"]
        return report
    assert figures(one) == figures(two)
    assert 0 < sum(r.stood for r in one.results) < 12      # the study tells orders apart


def test_a_study_end_to_end_with_json_and_a_report(tmp_path):
    scene = _scene_file(tmp_path)
    report = tmp_path / "report" / "deeper"
    result = _cli("stability", str(scene), "--orderings", "random:3", "--trials", "2",
                  "--seed", "9", "--json", "--report", str(report))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["study"] | {"wall_seconds": 0} == {
        "orderings": "random:3", "trials": 2, "workers": 1, "backend": "local", "jobs": 6,
        "finished": 6,
        "interrupted": False, "wall_seconds": 0}
    tower = data["towers"][0]
    assert tower["orderings_judged"] == 3 and tower["builds"] == 6
    assert [o["p_stand"] for o in tower["orderings"]] == sorted(
        (o["p_stand"] for o in tower["orderings"]), reverse=True)
    page = (report / "index.html").read_text()
    assert page.count("data:image/png;base64,") >= 4 and "<script" not in page
    assert 'src="http' not in page and "three small pieces" in page
    with open(report / "results.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 6 and {r["seed"] for r in rows} == {"9", "10"}
    raw = json.loads((report / "results.json").read_text())
    assert len(raw["builds"]) == 6 and raw["towers"] == data["towers"]
    text = _cli("stability", str(scene), "--trials", "2", "--seed", "9")
    assert text.returncode == 0, text.stderr
    assert "1 orderings x 2 trials" in text.stdout and "study: 2 of 2 builds" in text.stdout


def test_a_report_is_written_whole_or_not_at_all_and_never_through_a_link(tmp_path, monkeypatch):
    """A report rewritten onto a full disk left the old index.html beside a results.json cut at
    61,440 bytes; a symbolic link planted in the folder was followed and its target overwritten;
    a scene named '=HYPERLINK(...)' became a spreadsheet formula in results.csv."""
    from simulator.core.errors import UsageError
    from simulator.towers.studies import report as report_module
    from simulator.towers.studies.study import plan_study, run_study

    scene = parse_scene(SCENE.replace('"three small pieces"', "'=HYPERLINK(\"x\")'"), "s.toml")
    result = run_study(plan_study([scene], [NOISE], OrderingSpec("given", 1), trials=1))
    folder = tmp_path / "report"
    report_module.write_report(folder, result)
    with open(folder / "results.csv", newline="") as handle:
        assert next(csv.DictReader(handle))["scene"] == "'=HYPERLINK(\"x\")"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    real_fsync, calls = os.fsync, []

    def disk_full_at_the_second_file(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", disk_full_at_the_second_file)
    with pytest.raises(OSError, match="No space left"):
        report_module.write_report(folder, result)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before      # as it was, no leftovers
    target = tmp_path / "precious.txt"
    target.write_text("mine")
    (folder / "results.csv").unlink()
    (folder / "results.csv").symlink_to(target)
    with pytest.raises(UsageError, match=r"results\.csv is a symbolic link"):
        report_module.write_report(folder, result)
    assert target.read_text() == "mine"


@pytest.mark.parametrize(("args", "message"), [
    (["--orderings", "sideways"], "--orderings wants given, permutations or random:N"),
    (["--orderings", "random:0"], "--orderings random:N wants N from 1 to 5040"),
    (["--trials", "0"], "--trials: must be 1 to 10000, not 0"),
    (["--trials", "many"], "--trials: wants a whole number"),
    (["--workers", "0"], "--workers: must be 1 to 256, not 0"),
    (["--orderings", "permutations", "EIGHT"], "8 pieces have 40320 orderings"),
    (["--report", "README.md"], "--report README.md: is a file, not a folder"),
    (["--report", "README.md/out"], "README.md is a file, not a folder"),
    (["--report", "/proc/bandu-sim-report"], "--report /proc/bandu-sim-report: not writable"),
])
def test_bad_study_input_exits_2_with_one_line_before_any_work(tmp_path, capsys, monkeypatch,
                                                              args, message):
    from simulator import cli

    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    small = _scene_file(tmp_path)
    eight = _scene_file(tmp_path, f'[[towers]]\norder = {json.dumps(EIGHT)}\n', "eight.toml")
    scene = str(eight) if "EIGHT" in args else str(small)
    status = cli.main(["stability", scene, *(a for a in args if a != "EIGHT")])
    out, err = capsys.readouterr()
    assert status == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bandu-sim: error:"), err
    assert message in lines[0]


def test_a_study_needs_the_scene_to_be_right_too(tmp_path):
    bad = _scene_file(tmp_path, '[[towers]]\norder = ["unicorn"]\n', "bad.toml")
    result = _cli("stability", str(bad), "--trials", "2", "--report", str(tmp_path / "r"))
    assert result.returncode == 2 and "unknown piece 'unicorn'" in result.stderr
    assert not (tmp_path / "r").exists()


# --- the progress bar ----------------------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_shows_rate_and_time_left_only_on_a_terminal():
    terminal = _Terminal()
    with ProgressBar("study", stream=terminal, unit="build") as bar:
        bar(0, 4, "")
        time.sleep(0.05)
        bar(2, 4, "halfway")
    shown = terminal.getvalue()
    assert "study" in shown and "2/4" in shown and "build/s" in shown and "<" in shown
    assert "halfway" in shown
    plain = io.StringIO()
    with ProgressBar("study", stream=plain) as bar:
        bar(1, 2, "")
        bar(2, 2, "")
    assert plain.getvalue() == ""


def test_progress_bar_starts_again_for_a_new_plan():
    terminal = _Terminal()
    bar = ProgressBar("bench", stream=terminal)
    bar(0, 2, "")
    bar(2, 2, "")
    bar(0, 5, "")
    bar(5, 5, "")
    assert "2/2" in terminal.getvalue() and "5/5" in terminal.getvalue()


# --- Ctrl+C ----------------------------------------------------------------------------------

def test_ctrl_c_keeps_and_reports_what_was_finished(tmp_path):
    """As a terminal does: SIGINT to the whole process group (the workers too), with standard
    error a terminal, so the progress bar is drawn and tells how far the study is."""
    scene = _scene_file(tmp_path)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "simulator", "stability", str(scene),
                                "--orderings", "permutations", "--trials", "100", "--workers", "2",
                                "--json", "--report", str(tmp_path / "r")],
                               stdout=subprocess.PIPE, stderr=slave, text=True,
                               start_new_session=True)
    os.close(slave)
    seen: list[str] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            seen.append(chunk.decode(errors="replace"))
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        counts = [int(n) for n in re.findall(r"\| *(\d+)/600 ", "".join(seen))]
        if counts and max(counts) >= 4:
            break
        time.sleep(0.2)
    else:
        process.kill()
        pytest.fail("the progress bar never showed 4 builds done: " + "".join(seen)[-500:])
    os.killpg(process.pid, signal.SIGINT)
    stdout, _ = process.communicate(timeout=120)
    reader.join(timeout=5)
    os.close(master)
    err = "".join(seen)
    assert process.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "bandu-sim: interrupted:" in err
    assert "build/s" in err or "s/build" in err
    data = json.loads(stdout)
    assert data["study"]["interrupted"] is True
    assert 4 <= data["study"]["finished"] < 600
    with open(tmp_path / "r" / "results.csv", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == data["study"]["finished"]


def test_studies_import_no_window():
    code = ("import sys, simulator.towers.studies.command, simulator.towers.studies.pictures\n"
            "print(any(m.split('.')[0] == 'pyglet' for m in sys.modules), "
            "'matplotlib.pyplot' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.split() == ["False", "False"]


def test_a_report_with_an_unwritable_matplotlib_cache_keeps_stderr_quiet(tmp_path):
    """Matplotlib's warnings about its cache folder made stderr more than one line."""
    scene = _scene_file(tmp_path)
    (tmp_path / "a-file").write_text("")
    env = {**os.environ, "MPLCONFIGDIR": str(tmp_path / "a-file" / "cache")}
    result = subprocess.run([sys.executable, "-m", "simulator", "stability", str(scene), "--trials",
                             "1", "--report", str(tmp_path / "report")], capture_output=True,
                            text=True, timeout=240, env=env)
    assert result.returncode == 0, result.stderr
    assert "atplotlib" not in result.stderr and "mkdir" not in result.stderr, result.stderr
    assert (tmp_path / "report" / "index.html").is_file()


@pytest.mark.parametrize("name", ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])
def test_every_cell_a_spreadsheet_would_run_is_written_as_text(name):
    from simulator.towers.studies.report import spreadsheet_safe

    assert spreadsheet_safe(name) == "'" + name
    assert spreadsheet_safe("tower " + name) == "tower " + name       # only the first letter counts
