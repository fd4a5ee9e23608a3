"""Where things lie on Bandu's table in the window: seats, bean piles, the reserve. Plain numbers
(metres, the physics table's frame: top at z = 0, x along its length), no pyglet, no physics.

Towers stand where the referee puts them (referee.tower_axes). A player sits at the table's edge
in front of their tower: the near edge (-y) for a tower on or in front of the middle line, the
far edge (+y) for the back row beyond four players. The reserve lies at both ends of the table,
beyond every tower's reach, packed in columns by each piece's footprint; every piece has its
own place there for the whole game (`reserve_places`), so a taken piece leaves a gap and a
piece that comes back goes to its place. The piece up for auction is shown in the middle,
where everyone sees it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from simulator.games.bandu.rules import BanduState, reserve_pool
from simulator.towers.physics.table import TABLE_LENGTH_M, TABLE_WIDTH_M

RESERVE_INNER_X = 0.635        # the reserve's columns start this far from the middle (both ends)
RESERVE_COLUMN_M = 0.078       # width of a column of reserve pieces
RESERVE_GAP_M = 0.014          # between neighbouring reserve pieces
BEAN_PILE_M = 0.13             # from the tower's axis towards its player


@dataclass(frozen=True)
class SeatPlace:
    axis: tuple[float, float]      # the tower's axis on the table
    facing: float                  # +1: the player sits at the near edge (-y), -1: the far edge
    beans_at: tuple[float, float]  # the middle of their bean pile
    label_at: tuple[float, float]  # where their name is written


def seat_places(axes: Sequence[tuple[float, float]]) -> list[SeatPlace]:
    places = []
    for x, y in axes:
        facing = 1.0 if y <= 1e-9 else -1.0
        places.append(SeatPlace((x, y), facing, (x + 0.09, y - facing * BEAN_PILE_M),
                                (x, y - facing * (BEAN_PILE_M + 0.06))))
    return places


def auction_spot(axes: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Where the piece up for auction is shown: the middle of the table's free side (one row of
    towers), or between the two rows."""
    if all(abs(y) < 1e-9 for _, y in axes):
        return (0.0, 0.24)
    return (0.0, 0.0)


def bean_offsets(count: int) -> list[tuple[float, float, float, float]]:
    """A loose pile of `count` beans: (dx, dy, z, yaw in degrees) each, a fixed scatter."""
    spots = []
    for n in range(count):
        ring, index = (0, n) if n < 4 else ((1, n - 4) if n < 11 else (2, n - 11))
        per_ring = (4, 7, 12)[min(ring, 2)]
        angle = 2 * math.pi * index / per_ring + ring * 0.6
        radius = (0.011, 0.024, 0.036)[min(ring, 2)]
        spots.append((radius * math.cos(angle), radius * math.sin(angle), 0.0,
                      (n * 67.0) % 180.0))
    return spots


def reserve_places(state: BanduState,
                   footprint: Callable[[str], tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """The centre (x, y) of each piece now in the reserve, at its own place: the places are laid
    out (reserve_slots) for the variant's whole pool but the pieces still to be drawn into a
    small reserve, so they stay the same from the first auction to the last."""
    homes = [piece for piece in reserve_pool(state.variant) if piece not in state.to_draw]
    homes += sorted(set(state.reserve) - set(homes))     # none expected; shown all the same
    slots = reserve_slots(homes, footprint)
    return {piece: slots[piece] for piece in state.reserve}


def reserve_slots(pieces: Sequence[str], footprint: Callable[[str], tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """The centre (x, y) of each reserve piece, in the table's order: columns from the inside out,
    right end then left end, each filled from the near edge to the far one. `footprint(piece)`
    is its (x, y) extent in metres as it lies (the longer side is laid along y)."""
    half_width = TABLE_WIDTH_M / 2 - 0.03
    columns = []
    x = RESERVE_INNER_X + RESERVE_COLUMN_M / 2
    while x + RESERVE_COLUMN_M / 2 <= TABLE_LENGTH_M / 2 + 1e-9:
        columns += [x, -x]
        x += RESERVE_COLUMN_M
    slots: dict[str, tuple[float, float]] = {}
    column, y = 0, -half_width
    for piece in pieces:
        depth = footprint(piece)[1]
        if y + depth > half_width and column + 1 < len(columns):
            column, y = column + 1, -half_width
        slots[piece] = (columns[column], y + depth / 2)
        y += depth + RESERVE_GAP_M
    return slots
