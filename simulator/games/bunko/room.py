"""Where Bunko's tables stand in the view: one alone in the middle, two side by side, more with
the head table large on top and the others in a row (two rows in a narrow window) below it,
each as large as its chairs and their names allow; a table's chairs around it. Pure numbers.
Chairs: chair 0 sits south, then the dice go left (west, north, east), so partners sit opposite.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CHAIR_ANGLES = (-90.0, 180.0, 90.0, 0.0)              # chair 0 south, then to the left
BANNER_HEIGHT = 78.0
MIN_TABLE_CELL = 170.0                                # narrower: the other tables go in two rows
SMALL_TABLE = 90.0                                    # below this radius, no names at the chairs


@dataclass
class TableSpot:
    """Where a table is drawn: its centre and radius in window pixels."""

    x: float
    y: float
    radius: float
    cell: float = 0.0               # the width this table may use (its names included)

    @property
    def side_room(self) -> float:
        """Pixels beside a west or east player's token, inside the table's cell."""
        return self.cell / 2 - self.radius - self.token_radius * 1.5

    @property
    def token_radius(self) -> float:
        return max(9.0, min(26.0, self.radius * 0.16))

    def chair(self, chair: int) -> tuple[float, float]:
        angle = math.radians(CHAIR_ANGLES[chair])
        distance = self.radius + self.token_radius * 0.45
        return self.x + distance * math.cos(angle), self.y + distance * math.sin(angle)

    @property
    def die_size(self) -> float:
        return max(12.0, self.radius * 0.2)


def _fit_radius(half_width: float, half_height: float, limit: float = 1e9) -> float:
    """The largest table radius whose chairs and their names fit in a cell of that half size:
    names (two lines, ~68 px either side of a token) on a big table, a record line (~32 px) on
    a small one; the chairs reach out 0.07 r beyond the rim, a name 0.25 r + 36 px."""
    big = min((half_width - 68) / 1.07, (half_height - 36) / 1.27, limit)
    if big >= SMALL_TABLE:
        return big
    return max(30.0, min((half_width - 32) / 1.07, (half_height - 26) / 1.25, SMALL_TABLE - 1, limit))


def room_layout(tables: int, x: float, y: float, width: float, height: float) -> list[TableSpot]:
    """Table places in the area below the banner: one table alone in the middle; two side by
    side; more: the head table large on top and the others side by side below it."""
    height -= BANNER_HEIGHT
    side = min(150.0, width * 0.16)    # room either side of a lone or head table (its names)
    if tables == 1:
        radius = _fit_radius(width / 2 - side, height / 2)
        return [TableSpot(x + width / 2, y + height / 2, radius, width)]
    if tables == 2:                    # side by side, the head table a little larger
        head_cell, other_cell = width * 0.54, width * 0.46
        head = _fit_radius(head_cell / 2, height / 2)
        small = _fit_radius(other_cell / 2, height / 2, head * 0.85)
        return [TableSpot(x + head_cell / 2, y + height / 2, head, head_cell),
                TableSpot(x + head_cell + other_cell / 2, y + height / 2, small, other_cell)]
    others = tables - 1
    # the others in one row; where that leaves each too narrow for its plaques and records
    # (a small window, 4 or 5 tables), in two rows under a head table given less height
    rows = 2 if others >= 3 and width / others < MIN_TABLE_CELL else 1
    top = height * (0.56 if rows == 1 else 0.42)
    bottom = height - top
    head = _fit_radius(width / 2 - side, top / 2)
    spots = [TableSpot(x + width / 2, y + bottom + top / 2, head, width)]
    per_row = -(-others // rows)
    row_height = bottom / rows
    cell = width / per_row
    small = _fit_radius(cell / 2, row_height / 2, head * 0.8)
    for i in range(others):
        row, column = divmod(i, per_row)
        in_row = min(per_row, others - row * per_row)
        left = x + (width - in_row * cell) / 2              # a shorter last row is centred
        spots.append(TableSpot(left + cell * (column + 0.5), y + bottom - row_height * (row + 0.5), small, cell))
    return spots
