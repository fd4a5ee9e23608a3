"""Where a card held over Bandida's table may go, as the table shows it: the spots where it fits
as it is turned, every spot once in the order the keyboard visits them (a symmetric card turned
half round lies on the same spot), the placement under a point of the table, the nearest spot
within reach of the pointer, and the cards dynamite may blow up in the keyboard's order. Pure
queries of the state: no window.
"""

from __future__ import annotations

import math

from simulator.games.bandida.cards import DIRS, KINDS, SIDES, is_symmetric
from simulator.games.bandida.rules import BandidaState, Move

_SYMMETRIC = frozenset(o for o in {k.openings(side) for k in KINDS for side in (5, 6)} if o and is_symmetric(o))


def card_centre(x: int, y: int, rotation: int) -> tuple[float, float]:
    """The middle of a card whose cell A is (x, y), turned `rotation` quarter turns (world)."""
    dx, dy = DIRS[rotation]
    return x + 0.5 + dx * 0.5, y + 0.5 + dy * 0.5


def card_size(rotation: int, cell: float) -> tuple[float, float]:
    """A card's width and height in pixels at `cell` pixels per cell, as it is turned."""
    return (2 * cell, cell) if rotation % 2 == 0 else (cell, 2 * cell)


def side_placed(kind: int, side: int) -> int:
    """The side a placement names: the one shown of a two-sided card, else 0."""
    return side if KINDS[kind].two_sided else 0


def other_side(side: int) -> int:
    return SIDES[0] if side == SIDES[1] else SIDES[1]


def same_rotation(move: Move, rotation: int) -> bool:
    """The move puts the card as one turned `rotation` (a symmetric card's half turn counts)."""
    if move.rotation == rotation:
        return True
    return (move.rotation + 2) % 4 == rotation and move.rotation < 2 and \
        KINDS[move.card].openings(move.side) in _SYMMETRIC


def spots_as_turned(state: BandidaState, kind: int, side: int, rotation: int) -> list[Move]:
    """The spots where the card fits, showing `side`, turned `rotation`."""
    return [m for m in state.placements([kind]) if m.side == side_placed(kind, side) and same_rotation(m, rotation)]


def every_spot(state: BandidaState, kind: int, side: int) -> list[Move]:
    """Every spot where the card fits showing `side`, in any rotation, once each (a symmetric
    card turned half round is the same spot), in reading order: top row first, left to right."""
    seen: dict[tuple, Move] = {}
    for move in state.placements([kind]):
        if move.side != side_placed(kind, side):
            continue
        a = (move.x, move.y)
        b = (move.x + DIRS[move.rotation][0], move.y + DIRS[move.rotation][1])
        symmetric = KINDS[move.card].openings(move.side) in _SYMMETRIC
        seen.setdefault((frozenset((a, b)), move.rotation % 2 if symmetric else move.rotation), move)
    return sorted(seen.values(), key=lambda m: (-card_centre(m.x, m.y, m.rotation)[1],
                                                card_centre(m.x, m.y, m.rotation)[0], m.rotation))


def other_side_fits(state: BandidaState, kind: int, side: int) -> bool:
    """The card is two-sided and its other side fits somewhere."""
    if not KINDS[kind].two_sided:
        return False
    other = other_side(side)
    return any(m.side == other for m in state.placements([kind]))


def move_under(kind: int, wx: float, wy: float, rotation: int, side: int) -> Move:
    """The placement of the card with its middle on the world point (wx, wy)."""
    dx, dy = DIRS[rotation]
    ax, ay = math.floor(wx - dx * 0.5), math.floor(wy - dy * 0.5)
    return Move("place", kind, ax, ay, rotation, side_placed(kind, side))


def nearest_spot(spots: list[Move], wx: float, wy: float, reach: float) -> Move | None:
    """The spot whose middle is nearest the world point, within `reach` cells of it."""
    best = None
    for move in spots:
        mx, my = card_centre(move.x, move.y, move.rotation)
        distance = math.hypot(mx - wx, my - wy)
        if distance <= reach and (best is None or distance < best[0]):
            best = (distance, move)
    return best[1] if best is not None else None


def blast_targets(state: BandidaState) -> list[int]:
    """The cards (indices into `placed`) dynamite may blow up, in reading order."""
    return sorted({state.cell_card[(m.x, m.y)] for m in state.legal_actions()},
                  key=lambda i: (-card_centre(*state.placed[i][1:4])[1], card_centre(*state.placed[i][1:4])[0]))
