"""The template game (examples/nim, docs/ARCHITECTURE.md points to it): found as a plug-in with no
edit elsewhere, it registers, plays headless through the controller and the command line, saves
and loads, refuses a bad setting in one line, and opens and plays in the window. Each check runs
in a process of its own, so the template never joins the other tests' registry."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PLUG_IN = ("import sys, simulator.games\n"
           f"simulator.games.__path__.append({str(EXAMPLES)!r})\n")


def _run(code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PLUG_IN + code, *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=dict(os.environ))


def test_the_template_is_short_and_in_three_files():
    files = sorted(p.name for p in (EXAMPLES / "nim").glob("*.py"))
    assert files == ["__init__.py", "rules.py", "view.py"]
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (EXAMPLES / "nim").glob("*.py"))
    assert lines <= 220, lines


def test_the_template_registers_and_plays_headless_saves_and_loads(tmp_path):
    done = _run(
        "import json\n"
        "from simulator.core import registry\n"
        "from simulator.core.controller import COMPUTER, Seat, TurnController\n"
        "names = [g.name for g in registry.playable_games()]\n"
        "c = TurnController('nim', {'heaps': 4}, [Seat(COMPUTER, 'mcts:strong'), Seat(COMPUTER, 'random')], seed=3)\n"
        "c.play_computer_moves(limit=2)\n"
        "path = c.save(sys.argv[1])\n"
        "loaded = TurnController.load(path)\n"
        "same = loaded.state.to_dict() == c.state.to_dict()\n"
        "c.play_computer_moves()\n"
        "print(json.dumps({'names': names, 'same': same, 'over': c.is_over(), 'winners': c.state.winners(),\n"
        "                  'heaps': loaded.state.heaps}))\n",
        str(tmp_path / "nim.json"))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert "nim" in report["names"] and "tanbo" in report["names"]
    assert report["same"] and report["over"] and len(report["winners"]) == 1
    assert len(report["heaps"]) == 4 and sum(report["heaps"]) <= 10 - 2    # two moves were made


def test_the_template_passes_the_shipped_conformance_checks():
    """simulator.testing.check_game, as a new game's author runs it on their package."""
    done = _run("from simulator.testing import check_game\ncheck_game('nim')\nprint('passed')\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "passed"


@pytest.mark.parametrize(("argv", "expected"), [
    (["selfplay", "nim", "--games", "4", "--seed", "1", "--players", "mcts:strong,random", "--json"], None),
    (["selfplay", "nim", "--games", "1", "--setting", "heaps=0", "--players", "random,random"],
     "heaps must be one of 3, 4, 5, not 0"),
])
def test_the_template_from_the_command_line(argv, expected):
    """Nim's `--setting heaps=0` once gave a traceback; every game's settings are checked first."""
    done = _run("from simulator import cli\nsys.exit(cli.main(sys.argv[1:]))\n", *argv)
    if expected is None:
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["wins"][0] >= 3          # the strong search beats random
    else:
        assert done.returncode == 2 and "Traceback" not in done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0], done.stderr


def test_the_template_opens_and_plays_in_the_window(x_display, tmp_path):
    done = _run(
        f"import json\nsys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "from window_driver import click\n"
        "from simulator.app.main import build_app\n"
        "from simulator.core.controller import PERSON, Seat\n"
        "window, app = build_app(visible=True)\n"

        "app.start_game('nim', {'heaps': 3}, [Seat(PERSON), Seat(PERSON)], seed=1)\n"
        "window.pump(3)\n"
        "screen = window.active_screen\n"
        "stone, heap, index = screen.view.stones[-1]\n"
        "click(window, stone.x, stone.y)\n"
        "window.pump(2)\n"
        "print(json.dumps([screen.controller.state.heaps, screen.controller.ply(), len(screen.view.stones)]))\n"
        "app.shutdown(); window.close()\n",
        timeout=180)
    assert done.returncode == 0, done.stderr
    heaps, ply, stones = json.loads(done.stdout.strip().splitlines()[-1])
    assert heaps == [1, 2, 2] and ply == 1 and stones == 5          # the last stone of heap 3 taken
