"""Where the program keeps its files: saves, the autosave, screenshots.

$BANDU_SIM_HOME if set (tests use it), else $XDG_DATA_HOME/bandu-sim, else
~/.local/share/bandu-sim.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path


def data_dir() -> Path:
    if os.environ.get("BANDU_SIM_HOME"):
        return Path(os.environ["BANDU_SIM_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bandu-sim"


def saves_dir() -> Path:
    return data_dir() / "saves"


def screenshots_dir() -> Path:
    return data_dir() / "screenshots"


def autosave_path(game: str) -> Path:
    return data_dir() / f"autosave-{game}.json"


def new_save_path(game: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = saves_dir() / f"{game}-{stamp}.json"
    n = 2
    while path.exists():
        path = saves_dir() / f"{game}-{stamp}-{n}.json"
        n += 1
    return path


@dataclass(frozen=True)
class SaveSummary:
    path: Path
    title: str        # what the list shows; names the problem for a file that cannot be read


def list_saves(limit: int = 8) -> list[SaveSummary]:
    """Saved games and the autosaves, newest first, each with a one-line description."""
    candidates = list(saves_dir().glob("*.json")) + list(data_dir().glob("autosave-*.json"))
    candidates.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return [SaveSummary(path, describe_save(path)) for path in candidates[:limit]]


def describe_save(path: Path) -> str:
    when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%d %b %H:%M")
    prefix = "Autosave" if path.name.startswith("autosave-") else path.stem
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        game = str(data["game"]).replace("_", " ").title()
        moves = len(data["history"])
        state = data.get("state") or {}
        size = f" {state['width']}x{state['height']}" if "width" in state else ""
        over = ", finished" if state.get("winner") else ""
        return f"{prefix}: {game}{size}, move {moves}{over} ({when})"
    except (OSError, ValueError, KeyError, TypeError):
        return f"{prefix}: unreadable file ({when})"
