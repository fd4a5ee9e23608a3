"""Bunko's score sheets on paper over the room: every player's wins, losses, bunkos, points and
table, ranked by the standings (S shows and hides it; the night's end shows it), in short
columns in a small window.
"""

from __future__ import annotations

from typing import Any

from pyglet import shapes
from pyglet.graphics import Batch

from simulator.core.controller import TurnController
from simulator.games.bunko import art
from simulator.games.bunko.layers import G_SHEET, G_SHEET_TEXT
from simulator.games.bunko.room import BANNER_HEIGHT
from simulator.games.bunko.rules import OVER, BunkoState
from simulator.render import theme
from simulator.render.widgets import AnchorX, Area, fit_width, label, shrink_to_width

WHO_GAP = 36.0                                        # px kept between who plays and the Wins figures


class ScoreSheet:
    """The sheet's paper, its texts and marks, built again when what it shows changed."""

    def __init__(self, batch: Batch, controller: TurnController) -> None:
        self.batch = batch
        self.controller = controller
        self.visible = False
        self.panel = shapes.RoundedRectangle(0, 0, 10, 10, radius=14, segments=8, color=art.SHEET_PAPER,
                                             batch=batch, group=G_SHEET)
        self.panel.visible = False
        self.labels: list[Any] = []
        self.marks: list[Any] = []
        self._built: Any = None              # what the sheet was built for

    def build(self, state: BunkoState, area: Area) -> None:
        key_ = (self.visible, area, state.round, state.phase, tuple(state.points),
                tuple(state.wins), tuple(state.bunkos), tuple(map(tuple, state.chairs)))
        if key_ == self._built:
            return
        self._built = key_
        for item in self.labels + self.marks:
            item.delete()
        self.labels, self.marks = [], []
        self.panel.visible = self.visible
        if not self.visible:
            return
        x, y, width, height = area
        rows = state.players
        row_h = max(17.0, min(28.0, (height - 200) / rows))
        panel_w = min(width - 40, 640.0)
        panel_h = row_h * rows + 112
        # at the top, under the banner: a dialog over the room (the end of the night) leaves
        # its title and first rows in sight below it
        px, py = x + (width - panel_w) / 2, y + height - BANNER_HEIGHT - 6 - panel_h
        self.panel.position = (px, py)
        self.panel.width, self.panel.height = panel_w, panel_h
        dark = theme.TEXT_DARK
        over = state.phase == OVER
        done = len(state.results)
        title = ("Standings: the night is over" if over else
                 f"Score sheets after {done} round{'s' if done != 1 else ''}")
        self.labels.append(label(title, px + 24, py + panel_h - 34, size=17, batch=self.batch,
                                 group=G_SHEET_TEXT, bold=True, serif=True, color=dark))
        scale = panel_w / 640.0
        compact = scale < 0.85                 # a small window: short headings, no 'who' column
        columns: list[tuple[str, float, AnchorX]] = (
            [("#", 46, "right"), ("Player", 60, "left"), ("W", 320, "right"), ("L", 385, "right"),
             ("B", 450, "right"), ("Pts", 525, "right"), ("Table", 615, "right")] if compact else
            [("#", 36, "right"), ("Player", 52, "left"), ("", 150, "left"), ("Wins", 330, "right"),
             ("Losses", 400, "right"), ("Bunkos", 475, "right"), ("Points", 550, "right"),
             ("Table", 610, "right")])
        head_y = py + panel_h - 66
        for text, cx, anchor in columns:
            self.labels.append(label(text, px + cx * scale, head_y, size=10.5, batch=self.batch,
                                     group=G_SHEET_TEXT, bold=True, color=art.SHEET_HEAD, anchor_x=anchor))
        places = state.places()
        for row, seat in enumerate(state.standings()):
            ry = head_y - (row + 1) * row_h
            if row % 2 == 0:
                self.marks.append(shapes.Rectangle(px + 14, ry - row_h * 0.32, panel_w - 28, row_h,
                                                   color=art.SHEET_ROW, batch=self.batch, group=G_SHEET))
            sheet = state.sheet(seat)
            table = state.table_of(seat)[0] + 1
            who = self.controller.who_plays(seat)
            values = [str(places[seat]), self.controller.info.seat_name(seat), *([] if compact else [who]), str(sheet["wins"]),
                      str(sheet["losses"]), str(sheet["bunkos"]), str(sheet["points"]), str(table)]
            size = max(8.5, min(12.0, row_h * 0.5))
            for (heading, cx, anchor), value in zip(columns, values, strict=True):
                cell = label(value, px + cx * scale, ry, size=size, batch=self.batch,
                             group=G_SHEET_TEXT, color=dark, anchor_x=anchor,
                             bold=places[seat] == 1 and over)
                if not heading and not compact:     # who plays: never into the Wins column
                    room = (columns[3][1] - cx) * scale - WHO_GAP
                    shrink_to_width(cell, room, size, 8.0, step=0.5)
                    fit_width(cell, value, room)
                self.labels.append(cell)
            chip = shapes.Circle(max(px + 10, px + 30 * scale - 22), ry + size * 0.35, size * 0.45,
                                 color=art.seat_colour(seat), batch=self.batch, group=G_SHEET_TEXT)
            self.marks.append(chip)
        note = ("W wins, L losses, B bunkos; ranked by W, B, points" if compact else
                "ranked by wins, then bunkos, then points · S hides this sheet")
        note_label = label("", px + 24, py + 16, size=9.5, batch=self.batch, group=G_SHEET_TEXT,
                           color=art.SHEET_HEAD)
        fit_width(note_label, note, panel_w - 40)
        self.labels.append(note_label)
