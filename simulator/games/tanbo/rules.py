"""Tanbo rules, pure Python, fast enough for tree search.

Bookkeeping is incremental: per colour, the number of own-coloured neighbours of every point;
per colour, the set of legal points; per root, the number of its extension points ("liberties").
A legal point of colour c has exactly one c-coloured neighbour, so it extends exactly one root,
and a root is bounded exactly when its extension count is zero. A placement or a removal only
changes the counts around the stones it touches, so a move costs O(stones touched), never a
flood fill of the board. Roots never merge (a stone joins the one root it touches), so a root is
a connected group and is stored by an anchor stone; its stones are walked only when it is removed.

Points are indexed column-major, i = x * height + y, so sorting indices sorts actions by (x, y).
Colours: 1 = Black (seat 0), 2 = White (seat 1). Black moves first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from simulator.core.action_fields import Between
from simulator.core.errors import IllegalAction, SettingsError
from simulator.core.state import TERMINAL, GameState
from simulator.core.text import shown

EMPTY, BLACK, WHITE = 0, 1, 2
COLOUR_NAMES = {BLACK: "Black", WHITE: "White"}
SQUARE_SIZES = (7, 11, 15, 19)
RECTANGLES = ((5, 7), (7, 9), (9, 11), (11, 13))
STARTS = ("dense", "classic")
COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"
MAX_SIDE = max(SQUARE_SIZES)          # the longest side of any board: a point's x and y are below


@dataclass(frozen=True, order=True)
class Place:
    """Put a stone of the mover's colour on point (x, y); (0, 0) is the lower-left corner."""

    x: Annotated[int, Between(0, MAX_SIDE - 1)]
    y: Annotated[int, Between(0, MAX_SIDE - 1)]


class _IndexedSet:
    """A set of point indices with O(1) add, remove and uniform random choice."""

    __slots__ = ("items", "pos")

    def __init__(self, size: int) -> None:
        self.items: list[int] = []
        self.pos: list[int] = [-1] * size

    def add(self, i: int) -> None:
        if self.pos[i] < 0:
            self.pos[i] = len(self.items)
            self.items.append(i)

    def discard(self, i: int) -> None:
        p = self.pos[i]
        if p >= 0:
            last = self.items.pop()
            if last != i:
                self.items[p] = last
                self.pos[last] = p
            self.pos[i] = -1

    def copy(self) -> _IndexedSet:
        other = _IndexedSet.__new__(_IndexedSet)
        other.items = self.items[:]
        other.pos = self.pos[:]
        return other


@dataclass(frozen=True)
class Geometry:
    """Immutable facts about a board size, shared by all states of that size."""

    width: int
    height: int
    neighbours: tuple[tuple[int, ...], ...]
    actions: tuple[Place, ...]

    def index(self, x: int, y: int) -> int:
        return x * self.height + y

    def xy(self, i: int) -> tuple[int, int]:
        return divmod(i, self.height)


@cache
def geometry(width: int, height: int) -> Geometry:
    neighbours = []
    actions = []
    for x in range(width):
        for y in range(height):
            around = []
            for dx, dy in ((-1, 0), (0, -1), (0, 1), (1, 0)):
                nx, ny = x + dx, y + dy
                if 0 <= nx < width and 0 <= ny < height:
                    around.append(nx * height + ny)
            neighbours.append(tuple(around))
            actions.append(Place(x, y))
    return Geometry(width, height, tuple(neighbours), tuple(actions))


def board_dimensions(size: int | None = None, width: int | None = None,
                     height: int | None = None, start: str = "dense") -> tuple[int, int]:
    """Validate Tanbo's settings and return (width, height)."""
    if start not in STARTS:
        raise SettingsError(f"start must be one of {', '.join(STARTS)}, not {start!r}")
    if size is not None and (width is not None or height is not None):
        raise SettingsError("give either size or width and height, not both")
    if size is None and width is None and height is None:
        size = 19 if start == "classic" else 7
    if size is not None:
        if size not in SQUARE_SIZES:
            raise SettingsError(f"size must be one of {', '.join(map(str, SQUARE_SIZES))}, not {size!r}")
        width = height = size
    elif width is None or height is None:
        raise SettingsError("width and height go together")
    shape = (width, height)
    allowed = {(s, s) for s in SQUARE_SIZES} | set(RECTANGLES) | {(h, w) for w, h in RECTANGLES}
    if shape not in allowed:
        raise SettingsError(
            f"{width}x{height} is not a Tanbo board; squares {', '.join(map(str, SQUARE_SIZES))}"
            f" or rectangles {', '.join(f'{w}x{h}' for w, h in RECTANGLES)}")
    if start == "classic" and shape != (19, 19):
        raise SettingsError("the classic 1993 start is played on 19x19")
    return width, height


def starting_stones(width: int, height: int, start: str) -> dict[tuple[int, int], int]:
    """Colour of every stone of the starting position, keyed by (x, y)."""
    stones = {}
    if start == "classic":
        for x in (0, 6, 12, 18):
            for y in (0, 6, 12, 18):
                stones[(x, y)] = BLACK if (x // 6 + y // 6) % 2 == 0 else WHITE
    else:
        for x in range(0, width, 2):
            for y in range(0, height, 2):
                stones[(x, y)] = BLACK if x % 4 == y % 4 else WHITE
    return stones


class TanboState(GameState[Place]):

    def __init__(self, width: int = 7, height: int = 7, start: str = "dense",
                 stones: dict[tuple[int, int], int] | None = None, to_move: int = BLACK) -> None:
        self.geo = geometry(width, height)
        self.start = start
        size = width * height
        self.board = [EMPTY] * size
        self.root_of = [-1] * size
        # per colour (index 1, 2): own-neighbour counts and extension owners (root id or -1)
        self.adj: list[list[int]] = [[], [0] * size, [0] * size]
        self.ext_owner: list[list[int]] = [[], [-1] * size, [-1] * size]
        self.legal: list[_IndexedSet] = [_IndexedSet(0), _IndexedSet(size), _IndexedSet(size)]
        self.libs: dict[int, int] = {}       # root id -> number of extension points
        self.anchor: dict[int, int] = {}     # root id -> one of its stones
        self.root_colour: dict[int, int] = {}
        self.bounded: set[int] = set()
        self.stone_count = [0, 0, 0]
        self.next_root = 0
        self.to_move = to_move
        self.winner_colour = EMPTY
        self.move_number = 0
        self.last_move: int = -1
        self.last_removed: list[int] = []
        if stones is None:
            stones = starting_stones(width, height, start)
        self._setup(stones)

    # --- construction ---------------------------------------------------------------------------
    def _setup(self, stones: dict[tuple[int, int], int]) -> None:
        """Place stones and group them into roots by connectivity (same-colour components)."""
        geo = self.geo
        for (x, y), colour in stones.items():
            i = geo.index(x, y)
            self.board[i] = colour
            for n in geo.neighbours[i]:
                self.adj[colour][n] += 1
            self.stone_count[colour] += 1
        for i, colour in enumerate(self.board):
            if colour and self.root_of[i] < 0:
                rid = self._new_root(colour, i)
                for s in self._walk(i):
                    self.root_of[s] = rid
        for i in range(len(self.board)):
            self._refresh(i)
        self._check_winner(self.to_move)

    def _new_root(self, colour: int, anchor: int) -> int:
        rid = self.next_root
        self.next_root += 1
        self.libs[rid] = 0
        self.anchor[rid] = anchor
        self.root_colour[rid] = colour
        self.bounded.add(rid)  # until an extension is counted
        return rid

    def _walk(self, start: int) -> list[int]:
        """Stones connected to `start` through stones of its colour (one root)."""
        colour = self.board[start]
        seen = {start}
        todo = [start]
        nbrs = self.geo.neighbours
        board = self.board
        while todo:
            s = todo.pop()
            for n in nbrs[s]:
                if board[n] == colour and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return sorted(seen)

    # --- incremental bookkeeping ---------------------------------------------------------------
    def _refresh(self, i: int) -> None:
        """Recompute whether point i extends a root, for both colours."""
        board = self.board
        for colour in (BLACK, WHITE):
            owner = -1
            if board[i] == EMPTY and self.adj[colour][i] == 1:
                for n in self.geo.neighbours[i]:
                    if board[n] == colour:
                        owner = self.root_of[n]
                        break
            old = self.ext_owner[colour][i]
            if old == owner:
                continue
            self.ext_owner[colour][i] = owner
            if old >= 0 and old in self.libs:
                self.libs[old] -= 1
                if self.libs[old] == 0:
                    self.bounded.add(old)
            if owner >= 0:
                self.libs[owner] += 1
                if self.libs[owner] == 1:
                    self.bounded.discard(owner)
                self.legal[colour].add(i)
            else:
                self.legal[colour].discard(i)

    def _remove_roots(self, rids: list[int]) -> list[int]:
        board, nbrs = self.board, self.geo.neighbours
        removed: list[int] = []
        for rid in rids:
            colour = self.root_colour[rid]
            stones = self._walk(self.anchor[rid])
            for s in stones:
                board[s] = EMPTY
                self.root_of[s] = -1
                for n in nbrs[s]:
                    self.adj[colour][n] -= 1
            self.stone_count[colour] -= len(stones)
            del self.libs[rid], self.anchor[rid], self.root_colour[rid]
            self.bounded.discard(rid)
            removed.extend(stones)
        touched = set(removed)
        for s in removed:
            touched.update(nbrs[s])
        for t in touched:
            self._refresh(t)
        return sorted(removed)

    def _check_winner(self, mover: int) -> None:
        other = WHITE if mover == BLACK else BLACK
        if self.stone_count[other] == 0:
            self.winner_colour = mover
        elif self.stone_count[mover] == 0:
            self.winner_colour = other

    # --- protocol: turn and actions --------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    @property
    def width(self) -> int:
        return self.geo.width

    @property
    def height(self) -> int:
        return self.geo.height

    def current_player(self) -> int:
        if self.winner_colour:
            return TERMINAL
        return self.to_move - 1

    def legal_points(self) -> list[int]:
        if self.winner_colour:
            return []
        return sorted(self.legal[self.to_move].items)

    def legal_actions(self) -> list[Place]:
        actions = self.geo.actions
        return [actions[i] for i in self.legal_points()]

    def _index_of(self, action: Any) -> int:
        if not isinstance(action, Place):
            raise IllegalAction(f"not a Tanbo move: {action!r}")
        if not (0 <= action.x < self.width and 0 <= action.y < self.height):
            raise IllegalAction(f"({action.x}, {action.y}) is off the {self.width}x{self.height} board")
        return self.geo.index(action.x, action.y)

    def is_legal(self, action: Any) -> bool:
        try:
            i = self._index_of(action)
        except IllegalAction:
            return False
        return not self.winner_colour and self.legal[self.to_move].pos[i] >= 0

    def illegal_reason(self, action: Any) -> str:
        if self.winner_colour:
            return "the game is over"
        i = self._index_of(action)
        name = self.action_to_str(action)
        if self.board[i] != EMPTY:
            return f"{name} is already taken"
        own = self.adj[self.to_move][i]
        colour = COLOUR_NAMES[self.to_move]
        if own == 0:
            return f"{name} touches no {colour} stone; a stone must touch exactly one of your own"
        return f"{name} touches {own} {colour} stones; a stone must touch exactly one of your own"

    def apply_unchecked(self, action: Place) -> None:
        self.place_index(self.geo.index(action.x, action.y))

    def place_index(self, i: int) -> None:
        """Place the mover's stone on point index i (assumed legal), then remove bounded roots."""
        colour = self.to_move
        rid = self.ext_owner[colour][i]
        self.board[i] = colour
        self.root_of[i] = rid
        self.stone_count[colour] += 1
        nbrs = self.geo.neighbours[i]
        counts = self.adj[colour]
        for n in nbrs:
            counts[n] += 1
        self._refresh(i)
        for n in nbrs:
            self._refresh(n)
        if self.libs[rid] == 0:
            self.last_removed = self._remove_roots([rid])
        elif self.bounded:
            self.last_removed = self._remove_roots(sorted(self.bounded))
        else:
            self.last_removed = []
        self.last_move = i
        self.move_number += 1
        self._check_winner(colour)
        self.to_move = WHITE if colour == BLACK else BLACK

    def random_action(self, rng: random.Random) -> Place:
        items = self.legal[self.to_move].items
        return self.geo.actions[items[int(rng.random() * len(items))]]

    def random_playout_step(self, rng: random.Random) -> None:
        """Play one uniformly random legal move (fast path for playouts)."""
        items = self.legal[self.to_move].items
        self.place_index(items[int(rng.random() * len(items))])

    # --- protocol: outcome ---------------------------------------------------------------------
    def returns(self) -> list[float]:
        if self.winner_colour == BLACK:
            return [1.0, -1.0]
        if self.winner_colour == WHITE:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    # --- queries for views and agents -----------------------------------------------------------
    def colour_at(self, x: int, y: int) -> int:
        return self.board[self.geo.index(x, y)]

    def stones_of(self, colour: int) -> int:
        return self.stone_count[colour]

    def roots(self) -> list[tuple[int, list[int]]]:
        """(colour, stone indices) of every root, ordered by their lowest stone."""
        found = [(self.root_colour[rid], self._walk(a)) for rid, a in self.anchor.items()]
        return sorted(found, key=lambda item: item[1][0])

    def removals_if(self, action: Place) -> list[int]:
        """Point indices whose stones the move would remove (for the preview)."""
        trial = self.clone()
        trial.apply_unchecked(action)
        return trial.last_removed

    # --- protocol: copies and serialisation -------------------------------------------------------
    def clone(self) -> TanboState:
        other = TanboState.__new__(TanboState)
        other.geo = self.geo
        other.start = self.start
        other.board = self.board[:]
        other.root_of = self.root_of[:]
        other.adj = [[], self.adj[1][:], self.adj[2][:]]
        other.ext_owner = [[], self.ext_owner[1][:], self.ext_owner[2][:]]
        other.legal = [self.legal[0], self.legal[1].copy(), self.legal[2].copy()]
        other.libs = dict(self.libs)
        other.anchor = dict(self.anchor)
        other.root_colour = dict(self.root_colour)
        other.bounded = set(self.bounded)
        other.stone_count = self.stone_count[:]
        other.next_root = self.next_root
        other.to_move = self.to_move
        other.winner_colour = self.winner_colour
        other.move_number = self.move_number
        other.last_move = self.last_move
        other.last_removed = self.last_removed[:]
        return other

    def summary(self) -> str:
        return f"{self.width}x{self.height}" + (", classic start" if self.start == "classic" else "")

    def board_rows(self) -> list[str]:
        """Rows from the top (y = height-1) to the bottom, '.' empty, 'B' black, 'W' white."""
        chars = ".BW"
        return ["".join(chars[self.colour_at(x, y)] for x in range(self.width))
                for y in reversed(range(self.height))]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "tanbo",
            "width": self.width,
            "height": self.height,
            "start": self.start,
            "board": self.board_rows(),
            "to_move": COLOUR_NAMES[self.to_move].lower(),
            "move_number": self.move_number,
            "winner": COLOUR_NAMES[self.winner_colour].lower() if self.winner_colour else None,
            "last_move": self.action_to_str(self.geo.actions[self.last_move]) if self.last_move >= 0 else None,
            "last_removed": [self.action_to_str(self.geo.actions[i]) for i in self.last_removed],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TanboState:
        try:
            return cls._from_dict(data)
        except (TypeError, AttributeError, KeyError) as error:   # a value of the wrong kind
            raise ValueError(f"not a Tanbo state: {type(error).__name__}") from None

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> TanboState:
        if not isinstance(data, dict):
            raise ValueError("a Tanbo state must be a JSON object")
        try:
            width, height = data["width"], data["height"]
            rows = data["board"]
            to_move_name = data["to_move"]
        except KeyError as missing:
            raise ValueError(f"Tanbo state lacks the key {missing}") from None
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (width, height)):
            raise ValueError("width and height must be whole numbers")
        board_dimensions(width=width, height=height)  # raises SettingsError (a ValueError)
        if not isinstance(rows, list) or len(rows) != height or not all(
                isinstance(r, str) and len(r) == width for r in rows):
            raise ValueError(f"board must be {height} rows of {width} characters")
        stones = {}
        for row_index, row in enumerate(rows):
            y = height - 1 - row_index
            for x, char in enumerate(row):
                if char not in ".BW":
                    raise ValueError(f"board row {row_index + 1} has {char!r}; use '.', 'B' or 'W'")
                if char != ".":
                    stones[(x, y)] = BLACK if char == "B" else WHITE
        colours = {"black": BLACK, "white": WHITE}
        if to_move_name not in colours:
            raise ValueError("to_move must be 'black' or 'white'")
        start = data.get("start", "dense")
        if start not in STARTS:
            raise ValueError(f"start must be one of {', '.join(STARTS)}")
        state = cls(width, height, start, stones=stones, to_move=colours[to_move_name])
        if state.bounded and not state.winner_colour:
            raise ValueError("the board holds a bounded root, which a Tanbo turn never leaves")
        move_number = data.get("move_number", 0)
        if not isinstance(move_number, int) or move_number < 0:
            raise ValueError("move_number must be a whole number >= 0")
        state.move_number = move_number
        winner = data.get("winner")
        if winner is not None and winner not in colours:
            raise ValueError("winner must be 'black', 'white' or null")
        expected = state.winner_colour
        if (colours[winner] if winner else EMPTY) != expected:
            raise ValueError("winner does not match the stones on the board")
        if data.get("last_move"):
            state.last_move = state._parse_index(data["last_move"])
        state.last_removed = sorted(state._parse_index(t) for t in data.get("last_removed", []))
        return state

    # --- protocol: notation ---------------------------------------------------------------------
    def action_to_str(self, action: Place) -> str:
        return f"{COLUMN_LETTERS[action.x]}{action.y + 1}"

    def _parse_index(self, text: str) -> int:
        action = self.action_from_str(text)
        return self.geo.index(action.x, action.y)

    def action_from_str(self, text: str) -> Place:
        text = str(text).strip().lower()
        digits = text[1:]
        if (not 2 <= len(text) <= 4 or text[0] not in COLUMN_LETTERS
                or not (digits.isascii() and digits.isdigit())):
            raise IllegalAction(f"{shown(text, 40)} is not a Tanbo point; write a column letter and a row number, like d4")
        x, y = COLUMN_LETTERS.index(text[0]), int(text[1:]) - 1
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IllegalAction(f"{text} is off the {self.width}x{self.height} board")
        return self.geo.actions[self.geo.index(x, y)]


def new_game(size: int | None = None, width: int | None = None, height: int | None = None,
             start: str = "dense") -> TanboState:
    """The starting position for the given settings (the published 2026 and 1993 starts)."""
    width, height = board_dimensions(size, width, height, start)
    return TanboState(width, height, start)


STATE_CLASS = TanboState
