"""Scene files (TOML): towers and how they are built, read and validated. No physics here.

Format (in full, with units and conventions, in docs/SCENES.md):

    name = "aligned base blocks"
    settle_seconds = 3.0          # optional, per placement, 0.1 .. 60
    hold_seconds = 0.0            # optional: the finished table stands this long, 0 .. 60
    allow_duplicates = false      # optional: more copies of a piece than the set holds
    slope_deg = 0.0               # optional: the table tilted about its y axis, -45 .. 45
    seed = 0                      # optional: the hand's tremor draws from it
    [tremor]                      # optional: release noise, standard deviations
    position_mm = 0.0             #   across the table, along x and along y, 0 .. 50
    angle_deg = 0.0               #   tilt (random direction) and turn, 0 .. 45
    [[towers]]
    foundation = "base"           # optional, default "base"
    position_mm = [0, 0]          # optional; default: towers 250 mm apart along x
    order = ["ashlar-large", ...] # or [[towers.placements]] piece, position_mm, rotation_deg,
                                  #   drop (true: released in the air on purpose, no warning)
    [expect]                      # optional, for validation scenes: what must happen
    stood = [true, ...]           #   per tower
    fell_at = [-1, ...]           #   per tower, the placement after which it fell; -1: did not
    disturbed = [false, ...]      #   per tower
    unstable = [false, ...]       #   per tower: stood only on an unstable point
    [[expect.pieces]]             #   a piece's final centre: within or beyond a distance
    tower = 0; index = 1; position_mm = [0, 0, 10]; within_mm = 5   (or beyond_mm = 20)

Every mistake is a SceneError whose one-line message names the file, the key and the reason.
The whole format, with its units and conventions, is in docs/SCENES.md.
"""

from __future__ import annotations

import math
import os
import re
import stat
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, overload

from simulator.core.errors import SceneError
from simulator.core.text import printable, shown
from simulator.towers.physics.table import TABLE_HALF_EXTENTS_M
from simulator.towers.physics.tremor import NO_TREMOR, Tremor
from simulator.towers.pieces.catalogue import BY_ID

DEFAULT_SETTLE_SECONDS = 3.0
MAX_SCENE_BYTES = 1_000_000       # a scene file is a few kilobytes; anything this big is refused
MAX_TOWERS = 64                   # towers in one scene
MAX_PLACEMENTS = 200              # placements in one tower (the set has 54 pieces)
# a scene's keys are two or three names deep ([[towers.placements]], expect.stood); Python's
# TOML parser takes time and memory that grow with the square of a dotted key's parts
MAX_KEY_PARTS = 8
_KEY_LIKE = re.compile(r"[\w\-.\"' ]*")   # bare or quoted key parts, dots and spaces
TOWER_SPACING_MM = 250.0
FOUNDATION_EDGE_MARGIN_MM = 20.0  # a foundation's centre stays this far inside the table's edge
# the largest |x| and |y| of a foundation's centre
TABLE_LIMIT_MM = (TABLE_HALF_EXTENTS_M[0] * 1000.0 - FOUNDATION_EDGE_MARGIN_MM,
                  TABLE_HALF_EXTENTS_M[1] * 1000.0 - FOUNDATION_EDGE_MARGIN_MM)


@dataclass(frozen=True)
class Placement:
    piece: str
    position_mm: tuple[float, float, float] | None = None  # None: the default policy decides
    rotation_deg: tuple[float, float, float] | None = None
    drop: bool = False  # released in the air on purpose: no warning about the height


@dataclass(frozen=True)
class TowerSpec:
    foundation: str
    position_mm: tuple[float, float]
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class PieceExpectation:
    tower: int
    index: int  # 0 is the foundation, 1 the first placement ...
    position_mm: tuple[float, float, float]
    within_mm: float | None = None
    beyond_mm: float | None = None


@dataclass(frozen=True)
class Expectation:
    stood: tuple[bool, ...] | None = None
    fell_at: tuple[int | None, ...] | None = None
    disturbed: tuple[bool, ...] | None = None
    pieces: tuple[PieceExpectation, ...] = ()
    unstable: tuple[bool, ...] | None = None

    @property
    def expects_anything(self) -> bool:
        return (self.stood is not None or self.fell_at is not None or self.disturbed is not None
                or self.unstable is not None or bool(self.pieces))


@dataclass(frozen=True)
class Scene:
    name: str
    path: str
    towers: tuple[TowerSpec, ...]
    settle_seconds: float = DEFAULT_SETTLE_SECONDS
    hold_seconds: float = 0.0  # after the last tower is built, before the verdicts
    slope_deg: float = 0.0
    allow_duplicates: bool = False
    expect: Expectation = field(default_factory=Expectation)
    tremor: Tremor = NO_TREMOR
    seed: int = 0


class _Reader:
    """Checks one table of the file, naming keys by their dotted path in errors."""

    def __init__(self, path: str, table: dict, where: str) -> None:
        self.path, self.table, self.where = path, table, where

    def fail(self, key: str, reason: str) -> SceneError:
        name = f"{self.where}.{key}" if self.where else key
        return SceneError(f"{printable(self.path, 200)}: {printable(name)}: {reason}")

    def check_keys(self, allowed: set[str]) -> None:
        for key in self.table:
            if key not in allowed:
                raise self.fail(key, f"unknown key (expected one of {', '.join(sorted(allowed))})")

    def get(self, key: str, default: Any = None) -> Any:
        return self.table.get(key, default)

    @overload
    def number(self, key: str, default: float, low: float, high: float) -> float: ...
    @overload
    def number(self, key: str, default: None, low: float, high: float) -> float | None: ...

    def number(self, key: str, default: float | None, low: float, high: float) -> float | None:
        value = self.table.get(key, default)
        if value is None:
            return None
        return self._number(key, value, low, high)

    def _number(self, key: str, value: Any, low: float, high: float) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"expected a number, got {type(value).__name__} {shown(value)}")
        if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
            raise self.fail(key, f"expected a finite number, got {value}")
        if not low <= value <= high:
            raise self.fail(key, f"{shown(value)} is out of range [{low:g}, {high:g}]")
        return float(value)

    @overload
    def vector(self, key: str, length: Literal[2], low: float, high: float
               ) -> tuple[float, float] | None: ...
    @overload
    def vector(self, key: str, length: Literal[3], low: float, high: float
               ) -> tuple[float, float, float] | None: ...

    def vector(self, key: str, length: int, low: float, high: float) -> tuple[float, ...] | None:
        value = self.table.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != length:
            raise self.fail(key, f"expected a list of {length} numbers, got {shown(value)}")
        return tuple(self._number(f"{key}[{i}]", v, low, high) for i, v in enumerate(value))

    def boolean(self, key: str, default: bool) -> bool:
        value = self.table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {shown(value)}")
        return value

    def string(self, key: str, default: str) -> str:
        value = self.table.get(key, default)
        if not isinstance(value, str):
            raise self.fail(key, f"expected a string, got {shown(value)}")
        return value

    def piece(self, key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"expected a piece id, got {shown(value)}")
        if value.split("#", 1)[0] not in BY_ID:
            raise self.fail(key, f"unknown piece {shown(value)} (see `bandu-sim pieces`)")
        return value.split("#", 1)[0]

    def tables(self, key: str) -> list[dict]:
        value = self.table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, "expected an array of tables ([[...]])")
        return value


def _tower(path: str, table: dict, index: int, default_x: float) -> TowerSpec:
    r = _Reader(path, table, f"towers[{index}]")
    r.check_keys({"foundation", "position_mm", "order", "placements"})
    foundation = r.piece("foundation", r.get("foundation", "base"))
    position = r.vector("position_mm", 2, -1000, 1000) or (default_x, 0.0)
    for axis, (value, limit) in enumerate(zip(position, TABLE_LIMIT_MM, strict=True)):
        if abs(value) > limit:
            raise r.fail(f"position_mm[{axis}]", f"{value:g} is off the table (|{'xy'[axis]}| <= {limit:g})")
    if "order" in table and "placements" in table:
        raise r.fail("order", "a tower has either order or placements, not both")
    placements: list[Placement] = []
    if "order" in table:
        order = r.get("order")
        if not isinstance(order, list):
            raise r.fail("order", f"expected a list of piece ids, got {shown(order)}")
        if len(order) > MAX_PLACEMENTS:
            raise r.fail("order", f"{len(order)} pieces; a tower has at most {MAX_PLACEMENTS}")
        placements = [Placement(r.piece(f"order[{i}]", v)) for i, v in enumerate(order)]
    entries = r.tables("placements")
    if len(entries) > MAX_PLACEMENTS:
        raise r.fail("placements", f"{len(entries)} placements; a tower has at most {MAX_PLACEMENTS}")
    for i, entry in enumerate(entries):
        p = _Reader(path, entry, f"towers[{index}].placements[{i}]")
        p.check_keys({"piece", "position_mm", "rotation_deg", "drop"})
        if "piece" not in entry:
            raise p.fail("piece", "missing")
        if "position_mm" not in entry:
            raise p.fail("position_mm", "missing")
        centre = p.vector("position_mm", 3, -2000, 2000)
        if centre is not None and centre[2] < 0:
            raise p.fail("position_mm[2]", f"{centre[2]:g} is below the table top (z >= 0: the "
                                            "height of the centre of mass above the table)")
        placements.append(Placement(p.piece("piece", entry["piece"]), centre,
                                    p.vector("rotation_deg", 3, -360, 360) or (0.0, 0.0, 0.0),
                                    p.boolean("drop", False)))
    return TowerSpec(foundation, position, tuple(placements))


def _expectation(path: str, table: Any, placements: list[int]) -> Expectation:
    """The [expect] table; `placements`: how many placements each tower has."""
    towers = len(placements)
    if not isinstance(table, dict):
        raise SceneError(f"{path}: expect: expected a table")
    r = _Reader(path, table, "expect")
    r.check_keys({"stood", "fell_at", "disturbed", "unstable", "pieces"})
    stood, disturbed, unstable = r.get("stood"), r.get("disturbed"), r.get("unstable")
    for key, value in (("stood", stood), ("disturbed", disturbed), ("unstable", unstable)):
        if value is not None and (not isinstance(value, list) or len(value) != towers
                                  or not all(isinstance(v, bool) for v in value)):
            raise r.fail(key, f"expected {towers} true/false values, one per tower")
    fell_at = r.get("fell_at")
    if fell_at is not None:
        if (not isinstance(fell_at, list) or len(fell_at) != towers
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in fell_at)):
            raise r.fail("fell_at", f"expected {towers} integers, one per tower (-1: did not fall)")
        for index, (value, count) in enumerate(zip(fell_at, placements, strict=True)):
            if not -1 <= value < count:
                raise r.fail(f"fell_at[{index}]", f"{value} is not -1 (did not fall) or a placement "
                                                  f"of tower {index} (0 .. {count - 1})")
        fell_at = [None if v < 0 else v for v in fell_at]
    pieces = []
    for i, entry in enumerate(r.tables("pieces")):
        p = _Reader(path, entry, f"expect.pieces[{i}]")
        p.check_keys({"tower", "index", "position_mm", "within_mm", "beyond_mm"})
        tower = int(p.number("tower", 0, 0, towers - 1))
        index = int(p.number("index", None, 0, 1000) or 0)
        position = p.vector("position_mm", 3, -2000, 2000)
        if position is None:
            raise p.fail("position_mm", "missing")
        pieces.append(PieceExpectation(tower, index, position, p.number("within_mm", None, 0, 5000),
                                       p.number("beyond_mm", None, 0, 5000)))
    return Expectation(tuple(stood) if stood is not None else None,
                       tuple(fell_at) if fell_at is not None else None,
                       tuple(disturbed) if disturbed is not None else None, tuple(pieces),
                       tuple(unstable) if unstable is not None else None)


def _tremor(path: str, table: Any) -> Tremor:
    if not isinstance(table, dict):
        raise SceneError(f"{path}: tremor: expected a table")
    r = _Reader(path, table, "tremor")
    r.check_keys({"position_mm", "angle_deg"})
    return Tremor(r.number("position_mm", 0.0, 0.0, 50.0), r.number("angle_deg", 0.0, 0.0, 45.0))


def parse_scene(text: str, path: str = "<scene>") -> Scene:
    where = printable(path, 200)
    if len(text) > MAX_SCENE_BYTES:
        raise SceneError(f"{where}: {len(text)} characters; a scene file has at most {MAX_SCENE_BYTES}")
    _check_key_depth(text, where)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SceneError(f"{where}: not valid TOML: {printable(str(error), 200)}") from None
    except RecursionError:
        raise SceneError(f"{where}: nested too deeply to be a scene") from None
    except ValueError as error:   # e.g. an integer of more digits than Python converts
        raise SceneError(f"{where}: not a usable TOML value: {printable(str(error), 120)}") from None
    return _scene_from_table(data, path)


def _check_key_depth(text: str, where: str) -> None:
    """Refuse a key of more than MAX_KEY_PARTS dotted parts (in a [table] header or before an
    '='), before the TOML parser spends minutes and gigabytes on one."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip()
        if stripped.startswith("#"):       # a comment is no key, whatever its dots
            continue
        if stripped.startswith("["):
            key = stripped.split("]", 1)[0]
        else:                              # up to '=', or what could be a key (a line cut short)
            key = _KEY_LIKE.match(stripped.split("=", 1)[0]).group()  # type: ignore[union-attr]
        if key.count(".") >= MAX_KEY_PARTS:
            raise SceneError(f"{where}: line {number}: a key of {key.count('.') + 1} dotted parts; "
                             f"a scene's keys have at most {MAX_KEY_PARTS}")


def _scene_from_table(data: dict, path: str) -> Scene:
    r = _Reader(path, data, "")
    r.check_keys({"name", "settle_seconds", "hold_seconds", "allow_duplicates", "slope_deg", "seed", "tremor",
                  "towers", "expect"})
    name = r.string("name", Path(path).stem)
    settle = r.number("settle_seconds", DEFAULT_SETTLE_SECONDS, 0.1, 60.0)
    hold = r.number("hold_seconds", 0.0, 0.0, 60.0)
    slope = r.number("slope_deg", 0.0, -45.0, 45.0)
    allow_duplicates = r.boolean("allow_duplicates", False)
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise r.fail("seed", f"expected a whole number from 0 to 2^63 - 1, got {shown(seed)}")
    tremor = _tremor(path, data["tremor"]) if "tremor" in data else NO_TREMOR
    tower_tables = r.tables("towers")
    if not tower_tables:
        raise r.fail("towers", "a scene needs at least one [[towers]] table")
    if len(tower_tables) > MAX_TOWERS:
        raise r.fail("towers", f"{len(tower_tables)} towers; a scene has at most {MAX_TOWERS}")
    first_x = -(len(tower_tables) - 1) * TOWER_SPACING_MM / 2
    towers = tuple(_tower(path, t, i, first_x + i * TOWER_SPACING_MM)
                   for i, t in enumerate(tower_tables))
    if not allow_duplicates:
        used = Counter(p for t in towers for p in [t.foundation, *(q.piece for q in t.placements)])
        for piece, count in sorted(used.items()):
            if count > BY_ID[piece].count:
                raise r.fail("towers", f"piece {piece!r} used {count} times but the set has "
                                       f"{BY_ID[piece].count} (set allow_duplicates = true)")
    expect = (_expectation(path, data["expect"], [len(t.placements) for t in towers])
              if "expect" in data else Expectation())
    return Scene(name, path, towers, settle, hold, slope, allow_duplicates, expect, tremor, seed)


def scene_of_order(order: list[str], foundation: str = "base", name: str = "order") -> Scene:
    """A scene of one tower: `order` placed on `foundation` by the default placement policy, as
    a scene file's `order = [...]` would be, checked as such a file is (SceneError)."""
    return _scene_from_table({"name": name, "towers": [{"foundation": foundation, "order": order}]},
                             f"<{name}>")


def load_scene(path: str | Path) -> Scene:
    """Read and check a scene file. Only a regular file of at most MAX_SCENE_BYTES is read: a
    FIFO or a device would block or never end."""
    where = printable(str(path), 200)
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise SceneError(f"{where}: is a folder, not a scene file")
        if not stat.S_ISREG(info.st_mode):
            raise SceneError(f"{where}: not a regular file (a pipe or a device is not read)")
        if info.st_size > MAX_SCENE_BYTES:
            raise SceneError(f"{where}: {info.st_size} bytes; a scene file has at most {MAX_SCENE_BYTES}")
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SCENE_BYTES + 1)
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise SceneError(f"{where}: no such file") from None
    except UnicodeDecodeError as error:
        raise SceneError(f"{where}: not a text file (byte {error.start} is not UTF-8)") from None
    except ValueError:                  # os.stat refuses a name with a NUL character
        raise SceneError(f"{where}: not a file name (it holds a NUL character)") from None
    except OSError as error:
        raise SceneError(f"{where}: cannot read: {error.strerror or error}") from None
    return parse_scene(text, str(path))
