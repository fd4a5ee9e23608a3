"""Buddel Bande's board itself, drawn: the meadow in its frame with its shadow, the trail from
the haystack along the holes to the dens, the haystack with its numbered spots, the 24 holes
with their symbols and numbers, the den entrance with its three symbols, and each clan's den
with its picture and name. It only moves when the board is fitted anew.
"""

from __future__ import annotations

import itertools
import math

from pyglet import shapes
from pyglet.graphics import Batch

from simulator.games.buddel_bande import art
from simulator.games.buddel_bande.board import (
    ASPECT,
    HAYSTACK_CENTRE,
    HAYSTACK_RADIUS,
    HOLE_RADIUS,
    Board,
    den_centre,
    haystack_spots,
    turn_outward,
)
from simulator.games.buddel_bande.layers import (
    G_HOLES,
    G_MARKS,
    G_MEADOW,
    G_SYMBOLS,
    G_TEXT,
    G_TRAIL,
)
from simulator.games.buddel_bande.rules import CLANS, DEN_ENTRANCE, HOLE_SYMBOL, HOLES, SYMBOL_NAMES
from simulator.games.buddel_bande.sprites import fit, natural, picture_sprite
from simulator.render.widgets import label


class Meadow:
    """The board's still parts for `players` clans."""

    def __init__(self, batch: Batch, players: int) -> None:
        self.batch = batch
        self.players = players
        self.grass = picture_sprite("meadow", batch, G_MEADOW)
        self.shadow = shapes.Rectangle(0, 0, 1, 1, color=(0, 0, 0, 90), batch=batch, group=G_MEADOW)
        self.shadow.visible = True
        self.frame = shapes.Box(0, 0, 1, 1, thickness=4, color=(70, 52, 30, 255), batch=batch, group=G_TRAIL)
        self.trail: list[shapes.Circle] = []
        self.haystack = picture_sprite("haystack", batch, G_TRAIL)
        self.spot_labels = [label(str(n + 1), size=8, batch=batch, group=G_SYMBOLS, color=(92, 64, 20, 255),
                                  anchor_x="center", anchor_y="center") for n in range(3 * players)]
        self.holes = [picture_sprite("hole", batch, G_HOLES) for _ in range(DEN_ENTRANCE + 1)]
        self.symbols = [picture_sprite(SYMBOL_NAMES[HOLE_SYMBOL[h]], batch, G_MARKS) for h in range(1, HOLES + 1)]
        self.entrance_symbols = [picture_sprite(name, batch, G_SYMBOLS) for name in SYMBOL_NAMES]
        self.hole_numbers = [label(str(h), size=8, batch=batch, group=G_SYMBOLS, color=(236, 240, 220, 220),
                                   anchor_x="center", anchor_y="center") for h in range(1, HOLES + 1)]
        self.dens = [picture_sprite("den", batch, G_HOLES) for _ in range(players)]
        self.den_badges = [picture_sprite(CLANS[c], batch, G_SYMBOLS) for c in range(players)]
        self.den_names = [label(CLANS[c].capitalize(), size=10, batch=batch, group=G_TEXT, color=art.TEXT,
                                anchor_x="center", anchor_y="top", bold=True) for c in range(players)]

    def place(self, board: Board) -> None:
        """Everything where the fitted board puts it, at its size."""
        unit = board.unit
        left, bottom = board.origin
        board_w = unit * ASPECT
        meadow_w, meadow_h = natural(self.grass)
        self.grass.update(x=left, y=bottom, scale_x=board_w / meadow_w, scale_y=unit / meadow_h)
        self.shadow.position = (left + 7, bottom - 9)
        self.shadow.width, self.shadow.height = board_w, unit
        self.frame.position = (left, bottom)
        self.frame.width, self.frame.height = board_w, unit
        self._build_trail(board)
        hx, hy = board.px(*HAYSTACK_CENTRE)
        fit(self.haystack, hx, hy, 2 * HAYSTACK_RADIUS * unit)
        for n, (sx, sy) in enumerate(haystack_spots(3 * self.players)):
            cx, cy = HAYSTACK_CENTRE
            lx, ly = cx + (sx - cx) * 1.0, cy + (sy - cy) * 1.0
            self.spot_labels[n].position = (*board.px(lx, ly - 0.038), 0)
            self.spot_labels[n].font_size = max(6.0, unit * 0.016)
        for hole in range(1, DEN_ENTRANCE + 1):
            hx, hy = board.hole_xy(hole)
            radius = HOLE_RADIUS * (1.45 if hole == DEN_ENTRANCE else 1.0)
            fit(self.holes[hole], hx, hy, 2 * radius * unit)
            if hole <= HOLES:
                # the symbol just above the hole, its number just below (on a turn: the symbol
                # inside it, the number outside, by the dog's place)
                outward = turn_outward(hole)
                if outward is None:
                    fit(self.symbols[hole - 1], hx, hy + 0.07 * unit, 0.042 * unit)
                    self.hole_numbers[hole - 1].position = (hx, hy - 0.058 * unit, 0)
                else:
                    ox, oy = outward
                    fit(self.symbols[hole - 1], hx - ox * 0.072 * unit, hy - oy * 0.072 * unit, 0.042 * unit)
                    self.hole_numbers[hole - 1].position = (hx + (ox * 0.07 + oy * 0.04) * unit,
                                                            hy + (oy * 0.07 - ox * 0.04) * unit, 0)
                self.hole_numbers[hole - 1].font_size = max(6.0, unit * 0.017)
        self.holes[0].visible = False
        ex, ey = board.hole_xy(DEN_ENTRANCE)
        for n, item in enumerate(self.entrance_symbols):
            a = math.radians(90 + 120 * n)
            fit(item, ex + 0.085 * unit * math.cos(a), ey + 0.085 * unit * math.sin(a), 0.045 * unit)
        for clan in range(self.players):
            cx, cy = board.px(*den_centre(clan, self.players))
            fit(self.dens[clan], cx, cy, 0.17 * unit)
            fit(self.den_badges[clan], cx - 0.1 * unit, cy + 0.045 * unit, 0.05 * unit)
            self.den_names[clan].position = (cx + 0.01 * unit, cy + 0.078 * unit, 0)
            self.den_names[clan].font_size = max(7.0, unit * 0.019)

    def _build_trail(self, board: Board) -> None:
        """The trail of dots from the haystack along every hole, and from the entrance to each den."""
        for dot in self.trail:
            dot.delete()
        self.trail = []
        points = [board.px(HAYSTACK_CENTRE[0] + 0.12, 0.16)] + [board.hole_xy(h) for h in range(1, DEN_ENTRANCE + 1)]
        radius = 0.03 * board.unit
        pairs = list(itertools.pairwise(points))
        entrance = board.hole_xy(DEN_ENTRANCE)
        pairs += [(entrance, board.px(*den_centre(clan, self.players))) for clan in range(self.players)]
        for (x0, y0), (x1, y1) in pairs:
            steps = max(2, int(math.hypot(x1 - x0, y1 - y0) / (radius * 0.5)))
            for n in range(steps):
                t = n / steps
                self.trail.append(shapes.Circle(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, radius,
                                                color=(150, 118, 74, 150), batch=self.batch, group=G_TRAIL))
