"""The paperwork holds: README.md is a front door of at most 200 lines whose every command runs
as written, the documentation site builds with `mkdocs build --strict` (a broken link, a missing
page or an API reference that does not resolve fails it), and no page points outside the
repository."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _shell_commands(text: str) -> list[str]:
    """The lines of the page's ```sh blocks, without their comments."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        commands += [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]
    return commands


def test_the_readme_is_a_front_door_of_at_most_200_lines():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    for heading in ("## Start", "## The games", "## A stability study", "## Python", "## Where it stands"):
        assert heading in text, heading


def test_the_readmes_commands_are_the_ones_this_test_runs():
    commands = _shell_commands(README.read_text(encoding="utf-8"))
    assert commands[:2] == ["./play.sh", "./test.sh"]
    assert all(c.startswith(".venv/bin/bandu-sim ") for c in commands[2:]) and len(commands) >= 4
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^\./test\.sh$", ci, re.M), "CI runs the README's test command as written"


@pytest.mark.parametrize("command", [c for c in _shell_commands(README.read_text(encoding="utf-8"))
                                     if c.startswith(".venv/bin/bandu-sim ")])
def test_every_bandu_sim_command_of_the_readme_runs_as_written(command):
    if not (ROOT / ".venv" / "bin" / "bandu-sim").exists():
        pytest.fail("the README's commands run from the checkout's .venv, which ./test.sh makes")
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip()


def _window_commands() -> list[str]:
    """./play.sh, and the README's inline commands that open the window (`bandu-sim play ...`)."""
    text = " ".join(README.read_text(encoding="utf-8").split())     # inline code may wrap
    return ["./play.sh", *re.findall(r"`(\.venv/bin/bandu-sim play [^`]+)`", text)]


@pytest.mark.gui
@pytest.mark.parametrize("command", _window_commands())
def test_the_readmes_window_commands_open_the_program(command, x_display, private_home):
    """./play.sh and `bandu-sim play ...` as written: the window opens and stays open (stopped
    here after some seconds; nothing on standard error meanwhile but the setup's)."""
    process = subprocess.Popen(["bash", "-c", command], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "BANDU_SIM_HOME": str(private_home)})
    try:
        time.sleep(8)
        assert process.poll() is None, process.communicate()[1][-2000:]
    finally:
        subprocess.run(["pkill", "-TERM", "-P", str(process.pid)], check=False)   # bash's child
        process.terminate()
        _, errors = process.communicate(timeout=30)
    assert "Traceback" not in errors, errors[-2000:]


def test_the_documentation_site_builds_strictly(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="simulator.api.judge"' in api and 'id="simulator.api.stand_probability"' in api
    architecture = (tmp_path / "site" / "ARCHITECTURE" / "index.html").read_text(encoding="utf-8")
    assert "game_screen.py" in architecture and "module map" not in architecture


def test_no_page_points_outside_the_repository():
    pages = [README, *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "../shared" not in text, page.name
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if target.startswith(("http://", "https://")):
                continue
            assert (page.parent / target).resolve().is_relative_to(ROOT), f"{page.name}: {target}"
            assert (page.parent / target).exists(), f"{page.name} links to {target}, which is not there"


def test_every_measurement_the_pages_cite_is_in_the_one_runner():
    """A figure's command is `python -m benchmarks NAME ...` (or the program's own command):
    every NAME the README and docs/ cite is one the runner lists, and no page cites a script
    of tools/ that measures."""
    import benchmarks

    listed = set(benchmarks.BENCHMARKS)
    cited = set()
    for page in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        cited |= set(re.findall(r"-m benchmarks ([a-z_]+)", text))
        assert not re.search(r"tools/(measure_\w+|crosscheck_mujoco)\.py", text), page.name
    assert cited and cited <= listed, cited - listed
