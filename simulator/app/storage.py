"""Where the program keeps its files (saves, autosaves, screenshots, the solo records) and what
the saved-games list says about each.

$BANDU_SIM_HOME if set (tests use it), else the user's data directory as platformdirs names it
(on Linux $XDG_DATA_HOME/bandu-sim, else ~/.local/share/bandu-sim). Every game started gets its
own autosave in autosaves/, so starting a game never overwrites another unfinished one; the
oldest beyond AUTOSAVES_KEPT are removed.
The list shows regular `*.json` files only: a dangling link, a folder, a temporary file left by
a crash (names starting with '.') are not saves.
"""

from __future__ import annotations

import contextlib
import json
import stat
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from simulator.core.controller import MAX_SAVE_BYTES
from simulator.core.data_home import data_dir

AUTOSAVES_KEPT = 30
MAX_SUMMARY_BYTES = MAX_SAVE_BYTES    # a bigger file is listed as "too big", not parsed


def saves_dir() -> Path:
    return data_dir() / "saves"


def autosaves_dir() -> Path:
    return data_dir() / "autosaves"


def screenshots_dir() -> Path:
    return data_dir() / "screenshots"


def _fresh_path(folder: Path, stem: str) -> Path:
    path = folder / f"{stem}.json"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.json"
        n += 1
    return path


def new_save_path(game: str) -> Path:
    return _fresh_path(saves_dir(), f"{game}-{datetime.now():%Y%m%d-%H%M%S}")


def new_autosave_path(game: str) -> Path:
    """The autosave of a game started now: its own file, never another game's."""
    return _fresh_path(autosaves_dir(), f"{game}-{datetime.now():%Y%m%d-%H%M%S}")


def is_autosave(path: Path) -> bool:
    return path.parent.name == "autosaves" or path.name.startswith("autosave-")


def _regular_saves(folder: Path, pattern: str) -> list[Path]:
    found = []
    try:
        entries = list(folder.glob(pattern))
    except OSError:
        return []
    for path in entries:
        if path.name.startswith("."):
            continue                     # a temporary file of an interrupted write
        try:
            if stat.S_ISREG(path.stat().st_mode):
                found.append(path)
        except OSError:
            continue                     # a dangling link, a file gone meanwhile
    return found


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def all_save_paths() -> list[Path]:
    """Saves and autosaves (also the one-per-game autosaves of earlier versions), newest first."""
    paths = (_regular_saves(saves_dir(), "*.json") + _regular_saves(autosaves_dir(), "*.json")
             + _regular_saves(data_dir(), "autosave-*.json"))
    return sorted(paths, key=_mtime, reverse=True)


def newest_unfinished_autosave() -> Path | None:
    for path in all_save_paths():
        if is_autosave(path):
            summary = read_summary(path)
            if summary.readable and not summary.finished:
                return path
    return None


def prune_autosaves(keep: int = AUTOSAVES_KEPT) -> None:
    autosaves = sorted(_regular_saves(autosaves_dir(), "*.json"), key=_mtime, reverse=True)
    for path in autosaves[keep:]:
        with contextlib.suppress(OSError):
            path.unlink()


STALE_TEMPORARY_SECONDS = 3600     # a save is written in milliseconds: an hour-old one was cut off


def remove_stale_temporaries(max_age_s: float = STALE_TEMPORARY_SECONDS) -> int:
    """Remove the half-written `.save-*.json` files a crash or a kill left in the saves and
    autosaves folders (a save writes one, then renames it into place); the count removed.
    Only plain files older than `max_age_s`, so a save under way in another window is left."""
    removed = 0
    now = time.time()
    for folder in (saves_dir(), autosaves_dir()):
        try:
            found = list(folder.glob(".save-*.json"))
        except OSError:
            continue
        for path in found:
            try:
                info = path.lstat()
                if stat.S_ISREG(info.st_mode) and now - info.st_mtime > max_age_s:
                    path.unlink()
                    removed += 1
            except OSError:
                pass
    return removed


def delete_save(path: Path) -> None:
    path.unlink()


def when_in_words(moment: datetime, now: datetime | None = None) -> str:
    now = now or datetime.now()
    days = (now.date() - moment.date()).days
    if days == 0:
        return f"today {moment:%H:%M}"
    if days == 1:
        return f"yesterday {moment:%H:%M}"
    if 1 < days < 7:
        return f"{moment:%A} {moment:%H:%M}"
    if moment.year == now.year:
        return f"{moment.day} {moment:%B}"
    return f"{moment.day} {moment:%B %Y}"


@dataclass(frozen=True)
class SaveSummary:
    path: Path
    title: str          # "<game> 7x7 against the computer (medium)"
    detail: str         # "autosave · move 12 · today 14:32"
    finished: bool = False
    readable: bool = True
    game_id: str = ""   # the game it holds (TurnController.game_id); "" when unreadable


@dataclass(frozen=True)
class SavedGame:
    """One game in the saved-games list: its newest file (a save or its autosave) and the
    others, newest first."""
    newest: SaveSummary
    others: tuple[SaveSummary, ...] = ()


def _title(name: str) -> str:
    from simulator.core import registry
    from simulator.core.errors import SettingsError

    try:
        return registry.get_game(name).title
    except SettingsError:
        return name.replace("_", " ").title()


def _printable(text: str, limit: int = 40) -> str:
    return "".join(c for c in text if c.isprintable())[:limit]


def _players(seats: list) -> str:
    """Who plays, in words: 'one person', 'two people', 'two people against the computer
    (medium)', 'against 3 computers (easy, strong)', '4 computers (...)', 'the computer alone
    (easy)'."""
    computers = [s for s in seats if isinstance(s, dict) and s.get("kind") == "computer"]
    people = len(seats) - len(computers)
    crowd = {1: "one person", 2: "two people"}.get(people, f"{people} people")
    if not computers:
        return crowd
    levels = sorted({str(s.get("agent") or "mcts").partition(":")[2] or "default" for s in computers})
    if people == 0:
        alone = "the computer alone" if len(computers) == 1 else f"{len(computers)} computers"
        return f"{alone} ({', '.join(levels)})"
    against = "the computer" if len(computers) == 1 else f"{len(computers)} computers"
    who = "" if people == 1 else f"{crowd} "                # hot-seat people and computers
    return f"{who}against {against} ({', '.join(levels)})"


def read_summary(path: Path) -> SaveSummary:
    when = when_in_words(datetime.fromtimestamp(_mtime(path)))
    kind = "autosave" if is_autosave(path) else "saved"
    try:
        if path.stat().st_size > MAX_SUMMARY_BYTES:
            return SaveSummary(path, f"{path.name}: too big to be a save", when, readable=False)
        data = json.loads(path.read_text(encoding="utf-8"))
        game = _title(_printable(str(data["game"])))
        moves = len(data["history"])
        summary = data.get("summary")
        size = f" {_printable(summary)}" if isinstance(summary, str) and summary else ""
        finished = data.get("over") is True
        progress = "finished" if finished else f"move {moves}"
        title = f"{game}{size} · {_players(list(data.get('seats') or []))}"
        from simulator.core.controller import game_id_of

        return SaveSummary(path, title, f"{kind} · {progress} · {when}", finished, game_id=game_id_of(data))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return SaveSummary(path, f"{path.name}: not a readable save", when, readable=False)


def list_saves() -> list[SaveSummary]:
    """Every save and autosave, newest first, each with a description in words."""
    return [read_summary(path) for path in all_save_paths()]


def list_games() -> list[SavedGame]:
    """The saved games, newest first: a game's saves and autosave together, its newest file
    first (an unreadable file is a game of its own)."""
    games: dict[str, list[SaveSummary]] = {}
    for summary in list_saves():
        games.setdefault(summary.game_id or str(summary.path), []).append(summary)
    return [SavedGame(files[0], tuple(files[1:])) for files in games.values()]


def autosave_of(game_id: str) -> Path | None:
    """The autosave of the game `game_id`, if it has one (a loaded save goes on in it)."""
    for path in all_save_paths():
        if is_autosave(path) and read_summary(path).game_id == game_id:
            return path
    return None
