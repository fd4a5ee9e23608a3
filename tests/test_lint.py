"""The code passes ruff's lint rules and mypy's type checks, both configured in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_passes():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is part of the test extras: pip install -e '.[test]'"
    result = subprocess.run([ruff, "check", "simulator", "tests", "tools", "benchmarks", "examples"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_passes():
    """The game protocol is generic in its action type; mypy checks every game's overrides."""
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    assert mypy, "mypy is part of the test extras: pip install -e '.[test]'"
    result = subprocess.run([mypy], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
