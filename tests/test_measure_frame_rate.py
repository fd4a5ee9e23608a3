"""`python -m benchmarks frame_rate --hint` measures what it says: a person holds the next
piece on ai:strong's solo tower, asks for the hint, and the hint's ghost shows while the
window draws."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = [sys.executable, "-m", "benchmarks", "frame_rate"]  # run from the checkout (cwd=ROOT)


@pytest.mark.slow
@pytest.mark.gui
def test_the_hint_is_shown_on_a_held_piece_while_the_window_draws(x_display, tmp_path):
    env = {**os.environ, "DISPLAY": x_display, "BANDU_SIM_HOME": str(tmp_path)}
    run = subprocess.run([*TOOL, "--hint", "3", "--seconds", "0.5"],
                         capture_output=True, text=True, timeout=240, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    said = re.search(r"tower of 3 pieces: drawing alone ([\d.]+) frames .* the hint shown after ([\d.]+) s, "
                     r"([\d.]+) frames a second meanwhile", run.stdout)
    assert said, run.stdout
    alone, after, meanwhile = map(float, said.groups())
    assert alone > 5 and meanwhile > 5 and 0 < after < 120


def test_a_tower_for_the_hint_must_have_pieces():
    run = subprocess.run([*TOOL, "--hint", "0"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2 and "--hint is a tower of 1 to 40 pieces, not 0" in run.stderr
