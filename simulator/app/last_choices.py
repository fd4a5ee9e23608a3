"""What was chosen on a game's new-game screen the last time a game of it was started (the
player count, who sat where, the settings), kept in the data directory so the screen opens
with it next time. By labels, not positions, so a changed list of options only forgets what no
longer exists; an unreadable file is ignored (and replaced at the next start), never an error."""

from __future__ import annotations

import json
import os
from typing import Any

from simulator.app.storage import data_dir

FILE_NAME = "new-game.json"
MAX_BYTES = 64 * 1024


def _path():
    return data_dir() / FILE_NAME


def _read_all() -> dict[str, Any]:
    try:
        path = _path()
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def load(game: str) -> tuple[int | None, list[str], dict[str, str]]:
    """(player count or None, each seat's option label, each setting's choice label)."""
    entry = _read_all().get(game)
    if not isinstance(entry, dict):
        return None, [], {}
    players = entry.get("players")
    seats = entry.get("seats")
    settings = entry.get("settings")
    return (players if isinstance(players, int) and not isinstance(players, bool) else None,
            [s for s in seats if isinstance(s, str)] if isinstance(seats, list) else [],
            {k: v for k, v in settings.items() if isinstance(k, str) and isinstance(v, str)}
            if isinstance(settings, dict) else {})


def store(game: str, players: int, seats: list[str], settings: dict[str, str]) -> None:
    """Keep this game's choices (the others' as they were); a file that cannot be written is
    left alone: remembering is a convenience, not worth an error."""
    everything = _read_all()
    everything[game] = {"players": players, "seats": seats, "settings": settings}
    path = _path()
    temporary = path.with_name(f".{FILE_NAME}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps(everything, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass
