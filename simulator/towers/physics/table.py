"""The table the towers stand on: its size, defined once. Plain numbers, no physics engine.

Its top is the plane z = 0 with the origin at its centre; x runs along its length, y along its
width (docs/SCENES.md). The physics world builds the table from these figures; scene files
are checked against them.
"""

from __future__ import annotations

TABLE_LENGTH_M = 1.6  # along x
TABLE_WIDTH_M = 1.0  # along y
TABLE_THICKNESS_M = 0.04

# half the length, width and thickness: the box PyBullet is given
TABLE_HALF_EXTENTS_M = (TABLE_LENGTH_M / 2, TABLE_WIDTH_M / 2, TABLE_THICKNESS_M / 2)

# the floor under the table, where fallen pieces end up (a piece on it has fallen too)
FLOOR_Z_M = -0.75
