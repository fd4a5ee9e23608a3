"""Solo records: every attempt at Bandu's solo and chain games, a person's or the computer's, in
an SQLite database (`records.sqlite3` in the user's data directory, beside saves/).

An attempt is who played it (a person's name, or "ai:LEVEL"), when (UTC), the variant and the
chain's key (simulator/games/bandu/attempts.py says how a chain is named), the score (pieces
standing), the tower's height (the tie-break), whether it fell, whether a practice aid was used,
and the whole game as its save (TurnController.to_save_dict()), which the replay viewer opens.
A personal best is the best attempt of one player at one (variant, chain): the most pieces,
then the taller tower, then the earlier; attempts with a practice aid are listed, never bests.

The database runs in WAL mode (a reader never waits for the writer). Its schema has a version
(the `schema_version` table) and MIGRATIONS, the steps that bring a database of any earlier
version up to this one, applied in order in one transaction: version 1 is the attempts table,
version 2 adds the practice-aid mark and the content hash that import uses to skip attempts
already there. A file that is not SQLite, is damaged, holds other tables or comes from a newer
version is refused with one line naming it, and left exactly as it is.

Export writes a JSON file (`{"format": "bandu-sim records", "version": 1, "attempts": [...]}`);
import checks every attempt of such a file before it writes anything, skips those already
stored (the same content), and adds the rest in one transaction: a bad file adds nothing.
This module imports no physics and no window.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from simulator.core.controller import (
    COMPUTER,
    MAX_SAVE_BYTES,
    PERSON,
    SAVE_FORMAT,
    SAVE_VERSION,
    TurnController,
)
from simulator.core.data_home import data_dir  # the one definition of the data directory
from simulator.core.errors import RecordsError, SaveError
from simulator.core.files import not_a_plain_file
from simulator.core.json_file import read_json_file
from simulator.core.outcomes import ModelResolver
from simulator.core.text import printable, shown
from simulator.games.bandu.chains import CHAIN_PIECES
from simulator.games.bandu.rules import BUILDING_PIECES

RECORDS_FORMAT = "bandu-sim records"
RECORDS_VERSION = 1
VARIANTS = ("solo", "chain")
KINDS = (PERSON, COMPUTER)
WHO_CHARACTERS = 60


def records_path() -> Path:
    """The solo records' database, in the program's data directory."""
    return data_dir() / "records.sqlite3"
KEY_CHARACTERS = 200
MAX_SCORE = len(BUILDING_PIECES)   # a tower holds no more
MAX_HEIGHT_MM = 10_000.0
MAX_IMPORT_BYTES = 256_000_000     # an export of thousands of attempts; a replay is tens of kB
MAX_IMPORT_ATTEMPTS = 100_000
EXPORT_PREFIX = ".records-"        # an export's half-written file, beside its target
STALE_EXPORT_SECONDS = 3600.0
SQLITE_HEADER = b"SQLite format 3\x00"
COMPUTER_WHO = re.compile(r"ai:[a-z]+")
SOLO_KEY = re.compile(r"(reserve:[0-9]{1,2})?")
_FIELDS = ("when", "who", "kind", "variant", "chain_key", "score", "height_mm", "fell",
           "practice_aid", "replay")


@dataclass(frozen=True)
class Attempt:
    """One attempt. `id` is the database's (None until stored)."""
    when: str                      # UTC, ISO 8601 to the second: 2026-01-31T18:04:05+00:00
    who: str                       # a person's name, or "ai:LEVEL"
    kind: str                      # "person" or "computer"
    variant: str                   # "solo" or "chain"
    chain_key: str                 # "" for a solo game of all 48 pieces
    score: int                     # pieces standing
    height_mm: float               # the standing tower's top, above the table
    fell: bool
    replay: dict[str, Any] = field(repr=False)
    practice_aid: bool = False
    id: int | None = None

    def as_dict(self, replay: bool = True) -> dict[str, Any]:
        """The attempt as export writes it (with `replay`), or as `records --json` lists it."""
        data = {name: getattr(self, name) for name in _FIELDS if replay or name != "replay"}
        return data if self.id is None or replay else {"id": self.id, **data}

    def content_hash(self) -> str:
        """What import recognises an attempt by: everything but the database's id."""
        text = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def checked(self) -> Attempt:
        """This attempt, validated (`when` in its one form); ValueError says which field."""
        return attempt_from_dict(self.as_dict())


# --- validation ---------------------------------------------------------------------------------

def _text(data: dict[str, Any], name: str, limit: int, empty: bool = False) -> str:
    value = data[name]
    if not isinstance(value, str) or len(value) > limit or not (value or empty) \
            or not value.isprintable():
        raise ValueError(f"{name}: wants printable text of {'0' if empty else '1'} to {limit} "
                         f"characters, not {shown(value, 40)}")
    return value


def _flag(data: dict[str, Any], name: str) -> bool:
    if not isinstance(data[name], bool):
        raise ValueError(f"{name}: wants true or false, not {shown(data[name], 20)}")
    return data[name]


def _when(value: Any) -> str:
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) and len(value) < 40 else None
    except ValueError:
        moment = None
    if moment is None or moment.utcoffset() is None:
        raise ValueError(f"when: wants a UTC time such as 2026-01-31T18:04:05+00:00, not "
                         f"{shown(value, 40)}")
    try:
        return moment.astimezone(UTC).isoformat(timespec="seconds")
    except OverflowError:                 # 0001-01-01T00:00:00+01:00 is before the year 1 in UTC
        raise ValueError(f"when: {shown(value, 40)} is outside the years 1 to 9999 in UTC") from None


def _number(value: Any, name: str, high: float, whole: bool) -> Any:
    kinds = int if whole else int | float
    if not isinstance(value, kinds) or isinstance(value, bool) or not 0 <= value <= high:  # nan too
        raise ValueError(f"{name}: wants a {'whole ' if whole else ''}number from 0 to {high:g}, "
                         f"not {shown(value, 20)}")
    return value if whole else float(value)


def _check_replay(replay: Any, attempt: Attempt, moves: bool = True) -> None:
    """The replay is a finished game's save that agrees with the attempt. Its moves are replayed
    through the rules only when the replay viewer opens it (TurnController.load), which
    refuses, in one line, a save whose moves do not lead to its state."""
    if not isinstance(replay, dict) or replay.get("format") != SAVE_FORMAT \
            or replay.get("version") != SAVE_VERSION or replay.get("game") != "bandu":
        raise ValueError("replay: wants the save of a Bandu game")
    seats, state = replay.get("seats"), replay.get("state")
    if not isinstance(seats, list) or len(seats) != 1 or not isinstance(seats[0], dict) \
            or not isinstance(replay.get("history"), list) or not isinstance(state, dict):
        raise ValueError("replay: wants one seat, the moves and the final state")
    seat = seats[0]
    name = seat.get("agent") if attempt.kind == COMPUTER else seat.get("name") or "Person"
    if seat.get("kind") != attempt.kind or not isinstance(name, str) \
            or printable(name, WHO_CHARACTERS) != attempt.who:
        raise ValueError("replay: its seat is not the attempt's player")
    expected = {"phase": "over", "variant": attempt.variant, "score_pieces": [attempt.score],
                "alive": [not attempt.fell]}
    for key, value in expected.items():
        if state.get(key) != value:
            raise ValueError(f"replay: its final {key} is {shown(state.get(key), 30)}, the "
                             f"attempt says {shown(value, 30)}")
    if len(json.dumps(replay)) > MAX_SAVE_BYTES:
        raise ValueError(f"replay: more than {MAX_SAVE_BYTES} bytes")
    if moves:
        _check_moves(replay)


def _check_moves(replay: dict[str, Any]) -> None:
    """The replay's moves, played through the rules from a new game of its settings by the same
    loader that opens a save (TurnController.from_save_dict), are legal and lead to its final
    state, a finished game (no physics: the outcomes are taken as the moves record them; the
    replay viewer's referee may check them further)."""
    settings = replay.get("settings", {})
    chain = settings.get("chain") if isinstance(settings, dict) else None
    if isinstance(chain, str) and not chain.startswith(CHAIN_PIECES):
        raise ValueError(f"replay: its chain must be written out ({CHAIN_PIECES}...), not a file "
                         f"name ({shown(chain, 40)})")
    try:
        # the outcomes are replayed as recorded: the model resolver keeps the physics unloaded
        controller = TurnController.from_save_dict(replay, verify=False, resolver=ModelResolver())
    except SaveError as error:
        raise ValueError(f"replay: {error}") from None
    if not controller.state.is_terminal():
        raise ValueError("replay: its moves do not lead to its final state (a finished game)")


def attempt_from_dict(data: Any, check_replay: bool = True, check_moves: bool = True) -> Attempt:
    """An attempt as export writes it, every field checked; ValueError names the field.
    `check_replay=False` leaves the replay unchecked (a list read without replays);
    `check_moves=False` checks its shape but does not play its moves again (a stored attempt,
    whose moves were played when it was added or imported)."""
    if not isinstance(data, dict):
        raise ValueError("wants an object")
    data = {"practice_aid": False, **data}
    unknown = sorted(set(data) - set(_FIELDS))
    missing = [name for name in _FIELDS if name not in data]
    if unknown or missing:
        raise ValueError(f"unknown field {shown(unknown[0], 40)}" if unknown
                         else f"missing field {missing[0]!r}")
    kind = data["kind"]
    if kind not in KINDS:
        raise ValueError(f"kind: wants person or computer, not {shown(kind, 20)}")
    who = _text(data, "who", WHO_CHARACTERS)
    if kind == COMPUTER and not COMPUTER_WHO.fullmatch(who):
        raise ValueError(f"who: the computer is ai:LEVEL, not {shown(who, 40)}")
    if data["variant"] not in VARIANTS:
        raise ValueError(f"variant: wants solo or chain, not {shown(data['variant'], 20)}")
    key = _text(data, "chain_key", KEY_CHARACTERS, empty=data["variant"] == "solo")
    if data["variant"] == "solo" and not SOLO_KEY.fullmatch(key):
        raise ValueError(f"chain_key: a solo game's is empty or reserve:N, not {shown(key, 40)}")
    attempt = Attempt(
        when=_when(data["when"]), who=who, kind=kind, variant=data["variant"], chain_key=key,
        score=_number(data["score"], "score", MAX_SCORE, whole=True),
        height_mm=_number(data["height_mm"], "height_mm", MAX_HEIGHT_MM, whole=False),
        fell=_flag(data, "fell"), practice_aid=_flag(data, "practice_aid"), replay=data["replay"])
    if check_replay:
        _check_replay(attempt.replay, attempt, moves=check_moves)
    return attempt


# --- the database -------------------------------------------------------------------------------

def _create_attempts(db: sqlite3.Connection) -> None:
    db.execute("""CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,
        who TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('person', 'computer')),
        variant TEXT NOT NULL CHECK (variant IN ('solo', 'chain')),
        chain_key TEXT NOT NULL DEFAULT '',
        score INTEGER NOT NULL,
        height_mm REAL NOT NULL,
        fell INTEGER NOT NULL,
        replay TEXT NOT NULL)""")


def _add_practice_aid_and_hashes(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE attempts ADD COLUMN practice_aid INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE attempts ADD COLUMN content_hash TEXT NOT NULL DEFAULT ''")
    for row in db.execute(f"SELECT {_COLUMNS} FROM attempts").fetchall():
        db.execute("UPDATE attempts SET content_hash = ? WHERE id = ?",
                   (_from_row(row).content_hash(), row[0]))
    db.execute("CREATE INDEX attempts_content ON attempts (content_hash)")
    db.execute("CREATE INDEX attempts_contest ON attempts (variant, chain_key, who)")


# each step brings a database of the version before it to the next; never edit a released step
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _create_attempts,                   # version 1
    _add_practice_aid_and_hashes,       # version 2
)
SCHEMA_VERSION = len(MIGRATIONS)
_COLUMNS = "id, played_at, who, kind, variant, chain_key, score, height_mm, fell, replay"


def _from_row(row: tuple, practice_aid: Any = 0, replay: bool = True) -> Attempt:
    """A stored attempt, every value checked as an import checks it (another program, or an
    edit, may have written anything): ValueError names the value."""
    def flag(value: Any, name: str) -> bool:
        if value not in (0, 1) or isinstance(value, float):
            raise ValueError(f"{name}: wants 0 or 1, not {shown(value, 20)}")
        return bool(value)

    if not isinstance(row[9], str):
        raise ValueError(f"replay: wants JSON text, not {shown(row[9], 20)}")
    try:
        saved = json.loads(row[9]) if replay else {}
    except (ValueError, RecursionError):
        raise ValueError("replay: not JSON, or nested too deep") from None
    data = {"when": row[1], "who": row[2], "kind": row[3], "variant": row[4], "chain_key": row[5],
            "score": row[6], "height_mm": row[7], "fell": flag(row[8], "fell"),
            "practice_aid": flag(practice_aid, "practice_aid"), "replay": saved}
    return replace(attempt_from_dict(data, check_replay=replay, check_moves=False), id=row[0])


# SQLite's codes for a file that is not sound; any other error (a full disk, no permission, a
# read-only folder, a lock) is the machine's, not the database's
DAMAGE_CODES = {"SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_FORMAT"}


def _is_damage(error: sqlite3.Error) -> bool:
    name = getattr(error, "sqlite_errorname", "") or ""
    return any(name.startswith(code) for code in DAMAGE_CODES) or not name


def _where(path: Path) -> str:
    return printable(str(path), 200)


def _check_existing_file(path: Path) -> None:
    """Refuse, without writing to it, a file that is not an SQLite database."""
    try:
        info = path.lstat()         # a link is not followed: the database lives in the data folder
        if stat.S_ISLNK(info.st_mode):
            raise RecordsError(f"{_where(path)}: is a symbolic link; the records database is a "
                               "plain file in the data folder; it was left as it is")
        if not stat.S_ISREG(info.st_mode):
            raise RecordsError(f"{_where(path)}: not a records database (not a regular file)")
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as error:
        raise RecordsError(f"{_where(path)}: cannot be read ({error.strerror or error})") from None
    if header and header != SQLITE_HEADER:
        raise RecordsError(f"{_where(path)}: not a records database (not an SQLite file); "
                           "it was left as it is")


class RecordStore:
    """The records database; open it with `RecordStore.open()`, close it (or use `with`)."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path

    @classmethod
    def open(cls, path: str | Path | None = None) -> RecordStore:
        """The records at `path` (default: records.sqlite3 in the data directory), created
        when missing and migrated to this version; RecordsError (one line) otherwise."""
        path = Path(path) if path is not None else records_path()
        _check_existing_file(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, isolation_level=None, timeout=10)
            # a damaged page can make SQLite's own messages (quick_check's) bytes that are not
            # UTF-8: read, never raised
            db.text_factory = lambda raw: raw.decode("utf-8", "replace")
        except (OSError, sqlite3.Error) as error:
            raise RecordsError(f"{_where(path)}: cannot be opened "
                               f"({getattr(error, 'strerror', None) or error})") from None
        store = cls(db, path)
        try:
            store._check_health()
            with store._errors():
                db.execute("PRAGMA journal_mode = WAL")
            store._migrate()
        except BaseException:
            db.close()
            raise
        return store

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> RecordStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """sqlite3's errors as one line naming the file."""
        try:
            yield
        except sqlite3.Error as error:
            raise RecordsError(f"{_where(self.path)}: {printable(str(error), 200)}") from None
        except UnicodeDecodeError:       # a message of SQLite's about a damaged page, not text
            raise RecordsError(f"{_where(self.path)}: the records database is damaged; it was "
                               "left as it is") from None

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """All or nothing: one write transaction, rolled back on any error."""
        with self._errors():
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                if self.db.in_transaction:     # SQLite rolls back itself on a full disk
                    self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def _check_health(self) -> None:
        """Refuse a damaged database or another program's, before anything is written."""
        try:
            problems = [str(row[0]) for row in self.db.execute("PRAGMA quick_check").fetchall()]
            tables = {row[0] for row in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except UnicodeDecodeError:        # SQLite's own message about a damaged page, not text
            problems, tables = ["a damaged page"], set()
        except sqlite3.Error as error:
            if not _is_damage(error):
                raise RecordsError(f"{_where(self.path)}: cannot be read or written "
                                   f"({printable(str(error), 100)}); the database itself was not "
                                   "touched") from None
            problems, tables = [str(error)], set()
        if problems != ["ok"]:
            raise RecordsError(f"{_where(self.path)}: the records database is damaged "
                               f"({printable(problems[0], 100)}); it was left as it is")
        if tables and "schema_version" not in tables:
            raise RecordsError(f"{_where(self.path)}: not a records database (an SQLite file with "
                               "other tables); it was left as it is")

    def schema_version(self) -> int:
        with self._errors():
            row = self.db.execute("SELECT version FROM schema_version").fetchone()
        if row is None:
            return 0
        if not isinstance(row[0], int) or row[0] < 1:
            raise RecordsError(f"{_where(self.path)}: its records version is {shown(row[0], 20)}, "
                               "not a version number; it was left as it is")
        return row[0]

    def _migrate(self) -> None:
        with self._transaction():
            self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = self.schema_version()
            if version > SCHEMA_VERSION:
                raise RecordsError(f"{_where(self.path)}: written by a newer bandu-sim (records "
                                   f"version {version}; this one reads up to {SCHEMA_VERSION}); "
                                   "it was left as it is")
            for step in MIGRATIONS[version:]:
                try:
                    step(self.db)
                except ValueError as error:     # a stored value no bandu-sim writes
                    raise RecordsError(f"{_where(self.path)}: cannot be brought to records version "
                                       f"{SCHEMA_VERSION} ({error}); it was left as it is") from None
            if version == 0:
                self.db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            elif version < SCHEMA_VERSION:
                self.db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    def journal_mode(self) -> str:
        with self._errors():
            return str(self.db.execute("PRAGMA journal_mode").fetchone()[0])

    # --- attempts ------------------------------------------------------------------------------
    def _insert(self, attempt: Attempt) -> int:
        cursor = self.db.execute(
            "INSERT INTO attempts (played_at, who, kind, variant, chain_key, score, height_mm, "
            "fell, replay, practice_aid, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (attempt.when, attempt.who, attempt.kind, attempt.variant, attempt.chain_key,
             attempt.score, attempt.height_mm, int(attempt.fell),
             json.dumps(attempt.replay, separators=(",", ":")), int(attempt.practice_aid),
             attempt.content_hash()))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def add(self, attempt: Attempt) -> Attempt:
        """Store a finished attempt (checked first: ValueError names a bad field); the stored
        attempt, with its id, comes back."""
        attempt = attempt.checked()
        with self._transaction():
            return replace(attempt, id=self._insert(attempt))

    def attempts(self, variant: str | None = None, chain_key: str | None = None,
                 kind: str | None = None, replays: bool = True) -> list[Attempt]:
        """Stored attempts, newest first; each filter given narrows them. `replays=False`
        leaves each attempt's replay empty (a list reads much less)."""
        wanted = {"variant": variant, "chain_key": chain_key, "kind": kind}
        where = " AND ".join(f"{name} = ?" for name, value in wanted.items() if value is not None)
        values = [value for value in wanted.values() if value is not None]
        replay = "replay" if replays else "''"
        with self._errors():
            rows = self.db.execute(
                f"SELECT {_COLUMNS.replace('replay', replay)}, practice_aid FROM attempts"
                f"{' WHERE ' + where if where else ''} ORDER BY played_at DESC, id DESC",
                values).fetchall()
        return [self._checked_row(row, row[10], replays) for row in rows]

    def _checked_row(self, row: tuple, practice_aid: Any, replay: bool) -> Attempt:
        try:
            return _from_row(row, practice_aid, replay)
        except ValueError as error:
            raise RecordsError(f"{_where(self.path)}: attempt {shown(row[0], 20)} holds a value no "
                               f"bandu-sim writes ({error}); the database was left as it is") from None

    def personal_bests(self, kind: str | None = None) -> list[Attempt]:
        """Per (variant, chain key, player) the best attempt without a practice aid: the most
        pieces, then the taller tower, then the earlier. Sorted by variant, chain, best first."""
        bests: dict[tuple[str, str, str], Attempt] = {}
        for attempt in sorted(self.attempts(kind=kind, replays=False),
                              key=lambda a: (-a.score, -a.height_mm, a.when, a.id or 0)):
            if not attempt.practice_aid:
                bests.setdefault((attempt.variant, attempt.chain_key, attempt.who), attempt)
        return sorted(bests.values(), key=lambda a: (a.variant, a.chain_key, -a.score, -a.height_mm))

    def best(self, variant: str, chain_key: str, who: str) -> Attempt | None:
        """The attempt to beat for `who` at this (variant, chain key), or None."""
        for attempt in self.personal_bests():
            if (attempt.variant, attempt.chain_key, attempt.who) == (variant, chain_key, who):
                return attempt
        return None

    # --- export and import ---------------------------------------------------------------------
    def export_document(self) -> dict[str, Any]:
        """Every attempt (oldest first), as an export file holds them."""
        return {"format": RECORDS_FORMAT, "version": RECORDS_VERSION,
                "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "attempts": [a.as_dict() for a in reversed(self.attempts())]}

    def export(self, path: str | Path) -> int:
        """Write every attempt (oldest first) to a JSON file, atomically; the count written."""
        path = Path(path)
        if "\0" in str(path):
            raise RecordsError(f"{_where(path)}: not a file name (it holds a NUL character)")
        document = self.export_document()
        attempts = document["attempts"]
        try:
            if path.is_dir():
                raise RecordsError(f"{_where(path)}: is a folder; export wants a file name")
        except OSError as error:       # a name too long for the file system
            raise RecordsError(f"{_where(path)}: cannot be written ({error.strerror or error})") from None
        if (kind := not_a_plain_file(path)) is not None:
            raise RecordsError(f"{_where(path)}: is {kind}; export writes a new file or replaces "
                               f"a plain one, nothing else")
        _sweep_stale_exports(path.parent)
        try:
            fd, temporary = tempfile.mkstemp(prefix=EXPORT_PREFIX, suffix=".json", dir=path.parent)
        except OSError as error:
            raise RecordsError(f"{_where(path)}: cannot be written ({error.strerror or error})") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(document, handle, indent=1)
            os.replace(temporary, path)
        except OSError as error:
            Path(temporary).unlink(missing_ok=True)
            raise RecordsError(f"{_where(path)}: cannot be written ({error.strerror or error})") from None
        return len(attempts)

    def import_file(self, path: str | Path) -> tuple[int, int]:
        """Add the attempts of an export file: (added, skipped as already stored). Every
        attempt is checked before anything is written; any problem: RecordsError naming the
        file (and the attempt), and the records stay as they were."""
        attempts = read_export(path)
        added = skipped = 0
        seen: set[str] = set()
        with self._transaction():
            for attempt in attempts:
                digest = attempt.content_hash()
                if digest in seen or self.db.execute(
                        "SELECT 1 FROM attempts WHERE content_hash = ?", (digest,)).fetchone():
                    skipped += 1
                    continue
                seen.add(digest)
                self._insert(attempt)
                added += 1
        return added, skipped


def _sweep_stale_exports(folder: Path) -> None:
    """Remove the half-written exports an export killed mid-write left in `folder` (our own
    hidden names, untouched for an hour: no export takes that long)."""
    try:
        leftovers = list(folder.glob(f"{EXPORT_PREFIX}*.json"))
    except OSError:
        return
    for leftover in leftovers:
        try:
            info = leftover.lstat()
            if stat.S_ISREG(info.st_mode) and time.time() - info.st_mtime > STALE_EXPORT_SECONDS:
                leftover.unlink()
        except OSError:
            continue


def read_export(path: str | Path) -> list[Attempt]:
    """The attempts of an export file, every one checked; RecordsError naming the file."""
    where = _where(Path(path))
    data = read_json_file(path, MAX_IMPORT_BYTES, "records file", RecordsError)
    if not isinstance(data, dict) or data.get("format") != RECORDS_FORMAT:
        raise RecordsError(f"{where}: not a records file (its format is not {RECORDS_FORMAT!r})")
    if data.get("version") != RECORDS_VERSION:
        raise RecordsError(f"{where}: records file version {shown(data.get('version'), 20)} is not "
                           f"supported (this program reads {RECORDS_VERSION})")
    items = data.get("attempts")
    if not isinstance(items, list) or len(items) > MAX_IMPORT_ATTEMPTS:
        raise RecordsError(f"{where}: 'attempts' must be a list of at most {MAX_IMPORT_ATTEMPTS}")
    attempts = []
    for number, item in enumerate(items, start=1):
        try:
            attempts.append(attempt_from_dict(item))
        except (ValueError, TypeError, RecursionError) as error:
            raise RecordsError(f"{where}: attempt {number}: {printable(str(error), 160)}") from None
    return attempts
