"""One of Bunko's tables in the room: its top and shadow, its title, the two teams' score plaques,
the caption of its last roll, and its three dice, lying as they last landed (dimmed when that
was last round) or thrown from the roller's chair and tumbling onto the faces drawn.
"""

from __future__ import annotations

import random
from typing import Any

from pyglet import shapes, sprite
from pyglet.graphics import Batch

from simulator.games.bunko import art
from simulator.games.bunko.layers import G_BELL, G_DICE, G_TABLE, G_TABLE_SHADOW, G_TEXT
from simulator.games.bunko.room import SMALL_TABLE, TableSpot
from simulator.games.bunko.rules import BunkoState
from simulator.render import theme
from simulator.render.dice import Die
from simulator.render.widgets import label


class TableDrawing:
    """One table: its top, title, team score plaques, caption and three dice."""

    def __init__(self, batch: Batch, index: int) -> None:
        self.index = index
        self.spot = TableSpot(0, 0, 10)
        self.left = 0.0                         # the view's left edge: nothing is drawn left of it
        self.shadow = sprite.Sprite(art.shadow_image(), batch=batch, group=G_TABLE_SHADOW)
        self.top = sprite.Sprite(art.table_image(head=index == 0), batch=batch, group=G_TABLE)
        self.title = label("", size=12, batch=batch, group=G_TEXT, bold=True, anchor_x="center",
                           anchor_y="bottom", color=art.TABLE_TITLE)
        self.plaques = [shapes.RoundedRectangle(0, 0, 10, 10, radius=6, segments=4, color=(*colour, 230),
                                                batch=batch, group=G_TEXT) for colour in art.TEAM_COLOURS]
        self.scores = [label("0", size=16, batch=batch, group=G_BELL, bold=True, anchor_x="center",
                             anchor_y="center", color=theme.TEXT_DARK) for _ in art.TEAM_COLOURS]
        self.teams = [label("", size=8, batch=batch, group=G_BELL, anchor_x="center", anchor_y="center",
                            color=art.TEAM_NAMES_TEXT) for _ in art.TEAM_COLOURS]
        self.caption = label("", size=11, batch=batch, group=G_TEXT, anchor_x="center", anchor_y="center",
                             color=art.CAPTION, bold=True)
        self.dice = [Die(batch, G_DICE, size=20, face=n + 1) for n in range(3)]
        self.rest: list[tuple[float, float]] = []
        self.resting_key: Any = "unset"        # what the resting dice show (None: no roll yet)
        self.thrown_number = 0                  # the number of the roll whose dice were thrown here

    def place(self, spot: TableSpot, left: float) -> None:
        """Lay the table out at `spot`; nothing of it left of `left` (the view's edge)."""
        self.spot, self.left = spot, left
        r = spot.radius
        self.shadow.position = (spot.x + r * 0.06, spot.y - r * 0.09, 0)
        self.shadow.scale = r * 2.35 / art.SHADOW_TEXTURE
        self.top.position = (spot.x, spot.y, 0)
        self.top.scale = 2 * r / art.TABLE_TEXTURE
        small = r < SMALL_TABLE
        self.title.font_size = 10 if small else 13
        corner = r * 0.8 + spot.token_radius * 0.6
        self.place_title()
        plaque_w, plaque_h = (54.0, 34.0) if small else (72.0, 46.0)
        if r < 45:                             # a tiny table (many tables, a small window):
            plaque_w, plaque_h = r * 1.4, r * 0.9   # plaques it can hold, clear of its south chair
        for team, (plaque, score, names) in enumerate(zip(self.plaques, self.scores, self.teams, strict=True)):
            out = max(corner, plaque_w / 2 + spot.token_radius + 2)   # clear of the south chair
            px = spot.x - out if team == 0 else spot.x + out
            py = spot.y - corner
            plaque.position = (px - plaque_w / 2, py - plaque_h / 2)
            plaque.width, plaque.height = plaque_w, plaque_h
            score.position = (px, py + (3 if not small else 2), 0)
            score.font_size = min(14 if small else 19, plaque_h * 0.42)
            names.position = (px, py - plaque_h / 2 + (6 if small else 8), 0)
            names.font_size = min(6.5 if small else 8, plaque_h * 0.2)
        self.caption.position = (spot.x, spot.y - r * (0.42 if not small else 0.36), 0)
        self.caption.font_size = max(7.5, min(15.0, r * 0.075))
        size = spot.die_size
        up = 0.0 if not small else r * 0.1
        self.rest = [(spot.x - size * 1.35, spot.y + up + size * 0.25), (spot.x, spot.y + up - size * 0.2),
                     (spot.x + size * 1.35, spot.y + up + size * 0.3)]
        for die, (x, y) in zip(self.dice, self.rest, strict=True):
            die.place(x, y, size)
        self.resting_key = "unset"

    def place_title(self) -> None:
        """Above the table's top left, right-aligned (away from the north chair's token), but
        never cut by the view's left edge ('Table 1 (head)' was)."""
        spot = self.spot
        corner = spot.radius * 0.8 + spot.token_radius * 0.6
        self.title.anchor_x = "right"
        self.title.position = (max(spot.x - corner + spot.token_radius, self.left + self.title.content_width),
                               spot.y + corner, 0)

    def show(self, state: BunkoState, caption: str) -> None:
        """The title, the teams' scores and partners, and the caption."""
        t = self.index
        chairs = state.chairs[t]
        head = " (head)" if t == 0 and state.tables > 1 else ""
        self.title.text = f"Table {t + 1}{head}"
        self.place_title()                                      # its width changed
        for team in (0, 1):
            self.scores[team].text = str(state.scores[t][team])
            self.teams[team].text = f"P{chairs[team] + 1} & P{chairs[team + 2] + 1}"
        self.caption.text = caption

    def rest_dice(self, state: BunkoState) -> None:
        """The dice of the table's latest roll as they lie; dimmed when it was last round's."""
        t = self.index
        roll = state.last_rolls[t]
        current = roll is not None and roll["round"] == state.round
        key_ = (roll["number"], current) if roll else None
        if key_ == self.resting_key:
            return
        self.resting_key = key_
        if roll is None:
            for n, die in enumerate(self.dice):
                die.show(n + 4, angle=0.0, marked=False)
                die.opacity = 110
            return
        just_thrown = roll["number"] == self.thrown_number
        rng = random.Random(roll["number"] * 31 + t)
        for die, face in zip(self.dice, roll["faces"], strict=True):
            angle = rng.uniform(-14, 14)
            die.show(face, angle=None if just_thrown else angle, marked=current and face == state.target)
            die.opacity = 255 if current else 150

    def throw(self, state: BunkoState, faces: tuple[int, ...], start: tuple[float, float]) -> None:
        """The roller's dice leave their chair at `start`, to land on `faces`."""
        seat = state.roller_seat()
        self.caption.text = f"Player {seat + 1} rolls..."
        self.thrown_number = state.rolls + 1
        for n, (die, face) in enumerate(zip(self.dice, faces, strict=True)):
            die.opacity = 255
            die.throw(face, seconds=1.0, start=(start[0] + (n - 1) * 6, start[1]), seed=state.rolls * 7 + n)
            die.marked = False
        self.resting_key = "unset"

    def tumble(self, progress: float, faces: tuple[int, ...], target: int) -> None:
        """The thrown dice `progress` (0..1) of the way; landed, the target's faces marked."""
        for die, face in zip(self.dice, faces, strict=True):
            if die.rolling:
                die.set_progress(progress)
                if not die.rolling:
                    die.show(face, marked=face == target)
