"""The library's three examples (examples/*.py) run as a user runs them, and print what they
promise; docs/LIBRARY.md shows the same code (checked here too)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ["judge_a_tower.py", "stack_randomly.py", "play_tanbo_pettingzoo.py"]


def _run(name: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "examples" / name)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr                 # nothing but what it prints
    return done.stdout


def test_judging_a_tower_prints_its_verdict_and_stand_probability():
    out = _run("judge_a_tower.py")
    assert re.search(r"^stood: (True|False), fell at: ", out, re.M)
    assert len(re.findall(r"^  \S+ +moved +[0-9.]+ mm", out, re.M)) == 5
    assert re.search(r"^stood \d+ of 20 trembling builds: \d+% \(95 % interval \d+% to \d+%\)$",
                     out, re.M)


def test_a_random_agent_stacks_three_episodes():
    out = _run("stack_randomly.py")
    assert len(re.findall(r"^episode \d: \d+ pieces stood, the tower (fell|stood to the end) at "
                          r"\d+ mm$", out, re.M)) == 3


def test_a_flat_game_plays_one_episode_through_pettingzoo():
    out = _run("play_tanbo_pettingzoo.py")
    rewards = sorted(re.findall(r"^player_[01]: reward ([+-]1)$", out, re.M))
    assert rewards == ["+1", "-1"]
    assert re.search(r"^\d+ moves played$", out, re.M)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_documentation_shows_each_example_as_it_is(name):
    """docs/LIBRARY.md shows each example's code, line for line (its docstring aside)."""
    page = (ROOT / "docs" / "LIBRARY.md").read_text(encoding="utf-8")
    code = (ROOT / "examples" / name).read_text(encoding="utf-8")
    body = code.split('"""', 2)[2].strip()
    assert body in page, f"docs/LIBRARY.md does not show examples/{name} as it is"


def test_the_readmes_python_example_is_judge_a_tower_as_it_is():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Python\n", 1)[1].split("\n## ", 1)[0]
    body = (ROOT / "examples" / "judge_a_tower.py").read_text(encoding="utf-8").split('"""', 2)[2].strip()
    assert body in section, "README's Python section does not show examples/judge_a_tower.py as it is"
