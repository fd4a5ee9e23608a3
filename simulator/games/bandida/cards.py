"""Bandida's cards: the geometry of a 1 x 2 tunnel card and the exact decks.

A card covers two cells of a square grid. Lying horizontally (rotation 0) its left cell is A and
its right cell is B; its six edges are A-end (left short end), A-top, A-bottom, B-end (right
short end), B-top and B-bottom, each a tunnel opening or solid earth. A card is placed in one of
four rotations, counter-clockwise in quarter turns: 0 (B east of A), 1 (B north of A), 2 (B west
of A), 3 (B south of A).

World directions are indices 0 = east, 1 = north, 2 = west, 3 = south. A placed card gives each
of its two cells a 4-bit mask of the sides that are openings (the side the two cells share is
never one). Everything here is immutable and computed once per process (functools.cache).

Decks (the project's rule book, docs/RULES-BANDIDA.md):
- Bandido: 69 plain cards in 31 configurations, and the super card (all six openings on one
  side, five on the other) that starts the network;
- Bandida: 56 plain cards, 10 object cards (backpack, dynamite, discard, skip), 2 alarms that are
  never placed and the ladder; Bandida's cell (the super card's shape) starts the network.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache

EDGES = ("Ae", "At", "Ab", "Be", "Bt", "Bb")
# direction of each edge at rotation 0, and the cell (0 = A, 1 = B) it belongs to
EDGE_DIRECTION = {"Ae": 2, "At": 1, "Ab": 3, "Be": 0, "Bt": 1, "Bb": 3}
EDGE_CELL = {"Ae": 0, "At": 0, "Ab": 0, "Be": 1, "Bt": 1, "Bb": 1}
DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))
DIRECTION_NAMES = ("east", "north", "west", "south")
ROTATIONS = (0, 1, 2, 3)

# icons: what a card does besides being a tunnel
PLAIN, BACKPACK, DYNAMITE, DISCARD, SKIP = "", "backpack", "dynamite", "discard", "skip"
ALARM1, ALARM2, LADDER, SUPER, CELL = "alarm1", "alarm2", "ladder", "super", "cell"
OBJECTS = (BACKPACK, DYNAMITE, DISCARD, SKIP)
ALARMS = (ALARM1, ALARM2)
TWO_SIDED = (SUPER, CELL)          # the super card and Bandida's cell: side 5 or 6 exits
SIDES = (5, 6)

# Bandido's 31 configurations, listed up to a 180 degree turn, with their copies
DEAD_ENDS = ("Ae", "At", "Ab", "Ae+At", "Ae+Ab", "At+Ab", "Ae+At+Ab")
TWO_OPENINGS = ("Ae+Be", "Ab+Bb", "Ab+Bt", "At+Bb", "Ab+Be", "Ae+Bb")
THREE_OPENINGS = ("Ab+Bb+Ae", "Ab+Bb+Be", "Ab+Bb+At", "Ab+Bb+Bt", "Ab+Ae+Be", "Ab+Ae+Bt",
                  "Ab+Be+At", "Bb+Ae+Be", "Bb+Ae+At")
FOUR_OPENINGS = ("Ab+Bb+Ae+Be", "Ab+Bb+Ae+At", "Ab+Bb+Ae+Bt", "Ab+Bb+Be+At", "Ab+Bb+Be+Bt",
                 "Ab+Bb+At+Bt", "Ab+Ae+Be+At", "Ab+Ae+Be+Bt", "Bb+Ae+Be+At")
# Bandida's object cards: icon, copies, shape
OBJECT_CARDS = ((BACKPACK, 3, "Ae+Be"), (DYNAMITE, 1, "Ae+Be"), (DYNAMITE, 2, "Ab+Bb"),
                (DISCARD, 2, "Ab+Bt"), (SKIP, 2, "Ab+Be"))
SUPER_SIX = "Ae+At+Ab+Be+Bt+Bb"
SUPER_FIVE = "Ae+At+Ab+Bt+Bb"          # all but B-end


def canonical_shape(text: str) -> str:
    """An openings text in the edge order Ae At Ab Be Bt Bb ('Ab+Ae' -> 'Ae+Ab')."""
    parts = [p for p in text.split("+") if p]
    if not parts or any(p not in EDGES for p in parts) or len(set(parts)) != len(parts):
        raise ValueError(f"{text!r} is not a set of edges ({', '.join(EDGES)})")
    return "+".join(e for e in EDGES if e in parts)


@dataclass(frozen=True)
class Kind:
    """One kind of card: its code (the notation), its openings and its icon."""

    index: int
    code: str
    shape: str          # canonical openings, e.g. "Ae+Be"; two-sided cards: their six-exit side
    icon: str = PLAIN

    @property
    def placeable(self) -> bool:
        return self.icon not in ALARMS

    @property
    def two_sided(self) -> bool:
        return self.icon in TWO_SIDED

    def openings(self, side: int = 0) -> str:
        """The openings of the face that shows (side 5 or 6 for a two-sided card)."""
        if self.two_sided:
            return SUPER_FIVE if side == 5 else SUPER_SIX
        return self.shape

    def title(self) -> str:
        """Words for people, by what the card does to the network: 'a dead end', 'a straight
        tunnel', 'a 3-way tunnel', 'dynamite (a straight tunnel)', 'the ladder'. The edge names
        (A-top, ...) stay in the notation, which players never need to read."""
        names = {ALARM1: "alarm 1", ALARM2: "alarm 2", LADDER: "the ladder",
                 SUPER: "Bandido's super card", CELL: "Bandida's cell"}
        if self.icon in names:
            return names[self.icon]
        return f"{self.icon} ({self.tunnel_words()})" if self.icon else self.tunnel_words()

    def tunnel_words(self) -> str:
        edges = self.shape.split("+")
        if all(EDGE_CELL[e] == 0 for e in edges):     # nothing reaches the B half: it closes
            return "a dead end" if len(edges) == 1 else f"a dead end of {len(edges)} openings"
        if len(edges) == 2:
            return "a straight tunnel" if self.shape == "Ae+Be" else "a bent tunnel"
        return f"a {len(edges)}-way tunnel"


def _build_kinds() -> tuple[Kind, ...]:
    kinds: list[Kind] = []

    def add(code: str, shape: str, icon: str = PLAIN) -> None:
        kinds.append(Kind(len(kinds), code, shape, icon))

    for shape in DEAD_ENDS + TWO_OPENINGS + THREE_OPENINGS + FOUR_OPENINGS:
        add(canonical_shape(shape), canonical_shape(shape))
    seen = set()
    for icon, _, shape in OBJECT_CARDS:
        code = f"{icon}:{canonical_shape(shape)}"
        if code not in seen:
            seen.add(code)
            add(code, canonical_shape(shape), icon)
    add(ALARM1, "", ALARM1)
    add(ALARM2, "", ALARM2)
    add(LADDER, "Ae", LADDER)
    add(SUPER, SUPER_SIX, SUPER)
    add(CELL, SUPER_SIX, CELL)
    return tuple(kinds)


KINDS = _build_kinds()
BY_CODE = {kind.code: kind for kind in KINDS}
UNKNOWN = -1                        # a card the viewing seat may not see
ALARM_KINDS = frozenset(k.index for k in KINDS if k.icon in ALARMS)
LADDER_KIND = BY_CODE[LADDER].index
SUPER_KIND = BY_CODE[SUPER].index
CELL_KIND = BY_CODE[CELL].index
DYNAMITE_KINDS = frozenset(k.index for k in KINDS if k.icon == DYNAMITE)
KEEP_KINDS = frozenset((LADDER_KIND, SUPER_KIND))   # never discarded, shuffled back by alarm 2


def kind_of(code: str) -> Kind:
    if code in BY_CODE:
        return BY_CODE[code]
    icon, _, shape = code.rpartition(":")
    try:
        canonical = canonical_shape(shape)
    except ValueError:
        raise ValueError(f"{code!r} is not a Bandida card") from None
    key = f"{icon}:{canonical}" if icon else canonical
    if key not in BY_CODE:
        raise ValueError(f"{code!r} is not a Bandida card")
    return BY_CODE[key]


def bandido_deck() -> Counter[int]:
    """Bandido's 69 plain cards, by kind index (the super card is the start card)."""
    deck: Counter[int] = Counter()
    for shapes, copies in ((DEAD_ENDS, 3), (TWO_OPENINGS, 2), (THREE_OPENINGS, 2), (FOUR_OPENINGS, 2)):
        for shape in shapes:
            deck[kind_of(shape).index] += copies
    return deck


def bandida_deck() -> Counter[int]:
    """Bandida's 69 cards, by kind index: 56 plain, 10 objects, 2 alarms and the ladder."""
    deck: Counter[int] = Counter()
    for shape in DEAD_ENDS:
        deck[kind_of(shape).index] += 3
    for shape in TWO_OPENINGS + THREE_OPENINGS + FOUR_OPENINGS:
        deck[kind_of(shape).index] += 1
    for shape in TWO_OPENINGS + THREE_OPENINGS[:5]:
        deck[kind_of(shape).index] += 1
    for icon, copies, shape in OBJECT_CARDS:
        deck[BY_CODE[f"{icon}:{canonical_shape(shape)}"].index] += copies
    deck[BY_CODE[ALARM1].index] += 1
    deck[BY_CODE[ALARM2].index] += 1
    deck[LADDER_KIND] += 1
    return deck


# --- geometry -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Orientation:
    """A shape at one rotation: the world opening masks of its cells A and B."""

    rotation: int
    mask_a: int
    mask_b: int


def masks(openings: str, rotation: int) -> tuple[int, int]:
    """World opening masks (cell A, cell B) of a shape at a rotation (quarter turns)."""
    cells = [0, 0]
    for edge in openings.split("+") if openings else ():
        cells[EDGE_CELL[edge]] |= 1 << ((EDGE_DIRECTION[edge] + rotation) % 4)
    return cells[0], cells[1]


@cache
def orientations(openings: str) -> tuple[Orientation, ...]:
    """The distinct placements of a shape: a rotation r and r + 2 that put the same openings on
    the same two cells (a shape that is its own half turn) count once, at the lower rotation."""
    found: list[Orientation] = []
    for rotation in ROTATIONS:
        mask_a, mask_b = masks(openings, rotation)
        if rotation >= 2:
            twin_a, twin_b = masks(openings, rotation - 2)
            if (twin_a, twin_b) == (mask_b, mask_a):
                continue
        found.append(Orientation(rotation, mask_a, mask_b))
    return tuple(found)


@dataclass(frozen=True)
class Fit:
    """A way to cover a given cell with a shape: the mask on that cell, the mask on its
    partner (in the direction the table is keyed by), the rotation, and whether the given cell
    is the card's cell A."""

    mask_here: int
    mask_partner: int
    rotation: int
    here_is_a: bool


@cache
def fits_by_direction(openings: str) -> tuple[tuple[Fit, ...], ...]:
    """For each direction d: the ways to cover a cell with this shape so that the card's other
    cell lies in direction d from it."""
    table: list[list[Fit]] = [[] for _ in ROTATIONS]
    for o in orientations(openings):
        table[o.rotation].append(Fit(o.mask_a, o.mask_b, o.rotation, True))
        table[(o.rotation + 2) % 4].append(Fit(o.mask_b, o.mask_a, o.rotation, False))
    return tuple(tuple(fits) for fits in table)


Sides = tuple[int, int]          # of a cell: (mask of sides that touch a card, mask of those open)


@cache
def legal_fits(openings: str, d: int, here: Sides, there: Sides) -> tuple[tuple[Fit, int], ...]:
    """The fits of a shape over a cell with sides `here` whose partner cell, in direction d, has
    sides `there`: every side that touches a card matched (opening to opening, earth to earth)
    and at least one tunnel joined. Each comes with the open exits it adds (its openings that
    face empty cells). Memoised: a game meets only a few thousand such pairs."""
    found = []
    for fit in fits_by_direction(openings)[d]:
        if fit.mask_here & here[0] != here[1] or fit.mask_partner & there[0] != there[1]:
            continue
        if not (fit.mask_here & here[1] or fit.mask_partner & there[1]):
            continue
        added = bin(fit.mask_here & ~here[0]).count("1") + bin(fit.mask_partner & ~there[0]).count("1")
        found.append((fit, added))
    return tuple(found)


@cache
def cell_fits(openings: str, here: Sides, partners: tuple[Sides | None, ...]
              ) -> tuple[tuple[int, Fit, int], ...]:
    """Every legal fit of a shape over a cell with sides `here` whose four neighbours (east,
    north, west, south) have the sides in `partners` (None where a card lies): (direction of
    the card's other cell, fit, open exits added)."""
    return tuple((d, fit, added) for d, there in enumerate(partners) if there is not None
                 for fit, added in legal_fits(openings, d, here, there))


@cache
def can_cover(openings: str, here: Sides, partners: tuple[Sides | None, ...]) -> bool:
    """Whether a shape can cover a cell with sides `here` whose four neighbours (east, north,
    west, south) have the sides in `partners` (None where a card lies)."""
    return bool(cell_fits(openings, here, partners))


def cells_of(x: int, y: int, rotation: int) -> tuple[tuple[int, int], tuple[int, int]]:
    dx, dy = DIRS[rotation]
    return (x, y), (x + dx, y + dy)


def opening_count(openings: str) -> int:
    return len(openings.split("+")) if openings else 0


HALF_TURN = {"Ae": "Be", "At": "Bb", "Ab": "Bt", "Be": "Ae", "Bt": "Ab", "Bb": "At"}


def is_symmetric(openings: str) -> bool:
    """The shape looks the same after a half turn (e.g. the straight Ae+Be)."""
    edges = set(openings.split("+")) if openings else set()
    return {HALF_TURN[e] for e in edges} == edges
