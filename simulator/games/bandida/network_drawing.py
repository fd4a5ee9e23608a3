"""The tunnel network on Bandida's felt: every card placed, with its shadow, where the table is
panned and zoomed to; its marks (the open exits lit, the cards dynamite may blow up ringed red,
the cell the game was lost to ringed red); and the outlines and lit spots the pointer asks for.
All of it clipped to the table, so a network panned past it never spills over the strips.
"""

from __future__ import annotations

from typing import Any

from pyglet import shapes, sprite
from pyglet.graphics import Batch, Group

from simulator.games.bandida import art
from simulator.games.bandida.cards import DIRS
from simulator.games.bandida.layers import BOARD_ORDER, G_FOCUS
from simulator.games.bandida.rules import BandidaState, Move
from simulator.games.bandida.spots import card_centre, card_size
from simulator.render.board2d import ClipGroup
from simulator.render.pan_zoom import PanZoom
from simulator.render.widgets import Area


class NetworkDrawing:
    """The network's cards and marks in the view's batch, as the table shows them."""

    def __init__(self, batch: Batch, window: Any, table: PanZoom) -> None:
        self.batch = batch
        self.table = table
        self.clip = ClipGroup(window, order=BOARD_ORDER)
        self.g_shadow = Group(order=0, parent=self.clip)
        self.g_cards = Group(order=1, parent=self.clip)
        self.g_marks = Group(order=2, parent=self.clip)
        self.sprites: list[sprite.Sprite] = []
        self.shadows: list[shapes.Rectangle] = []
        self.marks: list[Any] = []                  # exits, blast targets, the lost cell
        self._drawn: Any = None

    def forget(self) -> None:
        """Draw the cards anew at the next draw()."""
        self._drawn = None

    def draw(self, state: BandidaState, area: Area) -> None:
        """The cards on (and just beside) the table, where it is panned and zoomed to."""
        table = self.table
        key_ = (tuple(state.placed), table.scale, table.centre, area)
        if key_ == self._drawn:
            return
        self._drawn = key_
        for item in self.sprites + self.shadows:
            item.delete()
        self.sprites, self.shadows = [], []
        cell = table.scale
        scale = cell / art.CELL_PX
        for kind, x, y, rotation, side in state.placed:
            cx, cy = table.to_pixel(*card_centre(x, y, rotation))
            if not table.contains(cx, cy) and not table.near(cx, cy, 2 * cell):
                continue
            w, h = card_size(rotation, cell)
            shadow = shapes.Rectangle(cx - w / 2 + 3, cy - h / 2 - 4, w, h, color=art.SHADOW,
                                      batch=self.batch, group=self.g_shadow)
            card = sprite.Sprite(art.face_image(kind, side), cx, cy, batch=self.batch, group=self.g_cards)
            card.scale = scale
            card.rotation = -90 * rotation
            self.sprites.append(card)
            self.shadows.append(shadow)

    def draw_marks(self, state: BandidaState, blasts: bool, lost: tuple[int, int] | None) -> None:
        """Open exits (small lights); with `blasts`, the cards the dynamite may blow up; the
        cell the game was lost to, if any."""
        for mark in self.marks:
            mark.delete()
        self.marks = []
        table = self.table
        r = max(2.5, table.scale * 0.1)
        for (x, y), mask in state.cell_mask.items():
            for d in range(4):
                if not mask >> d & 1:
                    continue
                n = (x + DIRS[d][0], y + DIRS[d][1])
                if n in state.cell_mask:
                    continue
                px, py = table.to_pixel(x + 0.5 + DIRS[d][0] * 0.5, y + 0.5 + DIRS[d][1] * 0.5)
                if table.contains(px, py):
                    self.marks.append(shapes.Circle(px, py, r, color=art.EXIT_LIGHT, batch=self.batch,
                                                    group=self.g_marks))
        if blasts:
            for move in state.legal_actions():
                index = state.cell_card[(move.x, move.y)]
                self.marks.append(self.outline(state, index, art.BLAST_RING))
        if lost is not None:                  # the cell no card left could fill, ringed red
            px, py = table.to_pixel(lost[0], lost[1])
            cell = table.scale
            self.marks.append(shapes.Box(px + 2, py + 2, cell - 4, cell - 4,
                                         thickness=max(3.0, cell * 0.09), color=art.LOST_RING,
                                         batch=self.batch, group=self.g_marks))

    def outline(self, state: BandidaState, index: int, colour: tuple) -> Any:
        """A ring around the placed card `index` (its owner deletes it)."""
        _, x, y, rotation, _ = state.placed[index]
        cx, cy = self.table.to_pixel(*card_centre(x, y, rotation))
        cell = self.table.scale
        w, h = card_size(rotation, cell)
        return shapes.Box(cx - w / 2, cy - h / 2, w, h, thickness=max(2.0, cell * 0.07), color=colour,
                          batch=self.batch, group=self.g_marks)

    def spot_mark(self, move: Move, colour: tuple, chosen: bool = False) -> list[Any]:
        """A lit spot, its edge and its fill (its owner deletes them); the chosen one is ringed
        above the held card, so it shows where it goes."""
        cx, cy = self.table.to_pixel(*card_centre(move.x, move.y, move.rotation))
        w, h = card_size(move.rotation, self.table.scale)
        fill = shapes.Rectangle(cx - w / 2 + 2, cy - h / 2 + 2, w - 4, h - 4, color=colour,
                                batch=self.batch, group=self.g_marks)
        edge = shapes.Box(cx - w / 2 + 1, cy - h / 2 + 1, w - 2, h - 2, thickness=3 if chosen else 2,
                          color=(colour[0], colour[1], colour[2], 255 if chosen else 230), batch=self.batch,
                          group=G_FOCUS if chosen else self.g_marks)
        return [edge, fill]
