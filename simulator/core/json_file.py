"""Reading a JSON file a person hands the program (a save, a records export): a regular file
of bounded size, UTF-8, JSON; every problem one line naming the file, raised as the caller's
error class, so no bad file ever reaches the caller half read."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from simulator.core.errors import SimulatorError
from simulator.core.text import printable

# what a file the program wrote holds: a save's history entries and poses, an export's attempts
# are objects of dozens of bytes each (counted on the braces and brackets of the text, strings
# included: an over-count only refuses sooner)
BYTES_PER_CONTAINER = 8
MIN_CONTAINERS = 10_000


def read_json_file(path: str | Path, limit: int, kind: str, error: type[SimulatorError]) -> Any:
    """The JSON value in `path` (at most `limit` bytes); `kind` names the file in messages
    ("save file", "records file"), `error` is raised with one line starting with the name."""
    where = printable(str(path), 200)
    if "\0" in str(path):
        raise error(f"{where}: not a file name (it holds a NUL character)")
    path = Path(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{where}: not a {kind} (not a regular file)")
        if info.st_size > limit:
            raise error(f"{where}: {info.st_size} bytes is too big for a {kind} (at most {limit})")
        with path.open("rb") as handle:
            text = handle.read(limit + 1).decode("utf-8")
    except FileNotFoundError:
        raise error(f"{where}: no such file") from None
    except UnicodeDecodeError as problem:
        raise error(f"{where}: not a {kind} (not text: byte {problem.start} is not UTF-8)") from None
    except OSError as problem:
        raise error(f"{where}: cannot be read ({problem.strerror or problem})") from None
    # Python's objects cost tens of bytes each: a file of bare `{}`s would take 25 times its size
    # in memory; past one object (or list) a BYTES_PER_CONTAINER bytes of file, it is refused
    containers = text.count("{") + text.count("[")
    if containers > max(MIN_CONTAINERS, len(text) // BYTES_PER_CONTAINER):
        raise error(f"{where}: not a {kind} ({containers} objects and lists in {len(text)} bytes: "
                    f"more than one a {BYTES_PER_CONTAINER} bytes)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise error(f"{where}: not a {kind} (bad JSON at line {problem.lineno}: {problem.msg})") from None
    except RecursionError:
        raise error(f"{where}: not a {kind} (nested too deeply)") from None
    except ValueError as problem:    # e.g. a number of more digits than Python converts
        raise error(f"{where}: not a {kind} ({printable(str(problem), 100)})") from None
