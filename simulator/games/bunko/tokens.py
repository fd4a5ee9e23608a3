"""The players in Bunko's room: a token per seat in its chair (its own colour, its number, a ring
in its team's colour, a white ring where a person plays it), its name and record beside it, and
the glide of every token to its new chair when the players change tables.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pyglet import shapes, sprite
from pyglet.graphics import Batch

from simulator.games.bunko import art
from simulator.games.bunko.layers import G_TEXT, G_TOKEN, G_TOKEN_MARK, G_TOKEN_SHADOW
from simulator.games.bunko.room import SMALL_TABLE, TableSpot
from simulator.games.bunko.rules import BunkoState, team_of
from simulator.render.tweens import Tween, lerp, smoothstep
from simulator.render.widgets import label


class PlayerTokens:
    """Every seat's token and name, where they sit or glide."""

    def __init__(self, batch: Batch, players: int, is_person: Callable[[int], bool]) -> None:
        self.sprites: list[sprite.Sprite] = []
        self.shadows: list[sprite.Sprite] = []
        self.rings: list[shapes.Arc] = []
        self.person_rings: list[shapes.Arc] = []     # a white outer ring: a person plays this seat
        self.numbers: list[Any] = []
        self.names: list[Any] = []
        for seat in range(players):
            self.shadows.append(sprite.Sprite(art.shadow_image(), batch=batch, group=G_TOKEN_SHADOW))
            self.sprites.append(sprite.Sprite(art.token_image(seat), batch=batch, group=G_TOKEN))
            self.rings.append(shapes.Arc(0, 0, 10, segments=40, thickness=3, color=(*art.TEAM_COLOURS[0], 255),
                                         batch=batch, group=G_TOKEN_MARK))
            person = shapes.Arc(0, 0, 10, segments=40, thickness=2, color=art.PERSON_RING, batch=batch,
                                group=G_TOKEN_MARK)
            person.visible = is_person(seat)
            self.person_rings.append(person)
            self.numbers.append(label(str(seat + 1), size=11, batch=batch, group=G_TOKEN_MARK, bold=True,
                                      anchor_x="center", anchor_y="center", color=(255, 255, 255, 255)))
            self.names.append(label("", size=10, batch=batch, group=G_TEXT, multiline=True, width=130,
                                    anchor_x="center", anchor_y="center", align="center"))
        self.xy: list[tuple[float, float]] = [(0.0, 0.0)] * players     # where each token is now
        self.glide = Tween()                          # running while the players change tables
        self.move_from: list[tuple[float, float]] = []
        self.move_radius: list[float] = []

    def seat_at(self, x: float, y: float, state: BunkoState, spots: list[TableSpot]) -> int | None:
        """The seat whose token is under the pixel (the last drawn, where two meet), or None."""
        found = None
        for seat in range(state.players):
            tx, ty = self.xy[seat]
            if math.hypot(x - tx, y - ty) <= spots[state.table_of(seat)[0]].token_radius * 1.1:
                found = seat
        return found

    def sit(self, state: BunkoState, spots: list[TableSpot]) -> None:
        """Every token in its chair at once."""
        self.xy = [_chair_xy(state, spots, seat) for seat in range(state.players)]

    def start_glide(self, state: BunkoState, spots: list[TableSpot], seconds: float) -> None:
        """From where they are to their new chairs in `seconds` (none: at once)."""
        self.move_from = list(self.xy)
        self.move_radius = [self.sprites[seat].scale * art.TOKEN_TEXTURE / 2 for seat in range(state.players)]
        self.glide.start(seconds)
        if seconds <= 0:
            self.sit(state, spots)
        self.place(state, spots)

    def update(self, dt: float, state: BunkoState, spots: list[TableSpot]) -> bool:
        """The clock, while they glide (lifted off the table on the way); True when they have
        just sat down."""
        if not self.glide.running:
            return False
        t = self.glide.update(dt)
        eased = smoothstep(t)
        for seat in range(state.players):
            (x0, y0), (x1, y1) = self.move_from[seat], _chair_xy(state, spots, seat)
            lift = math.sin(math.pi * t) * 18
            self.xy[seat] = (lerp(x0, x1, eased), lerp(y0, y1, eased) + lift)
        sat = self.glide.done
        if sat:
            self.glide.stop()
            self.sit(state, spots)
        return sat

    def place(self, state: BunkoState, spots: list[TableSpot]) -> None:
        """Draw every token where it is, at its table's size (growing or shrinking on the way),
        its name beside it (hidden while gliding)."""
        for seat in range(state.players):
            table, chair = state.table_of(seat)
            spot = spots[table]
            radius = spot.token_radius
            if self.glide.running and self.move_radius:
                radius = lerp(self.move_radius[seat], radius, self.glide.progress)
            x, y = self.xy[seat]
            token, shadow = self.sprites[seat], self.shadows[seat]
            token.position = (x, y, 0)
            token.scale = 2 * radius / art.TOKEN_TEXTURE
            shadow.position = (x + radius * 0.15, y - radius * 0.2, 0)
            shadow.scale = 2.4 * radius / art.SHADOW_TEXTURE
            ring = self.rings[seat]
            ring.position = (x, y)
            ring.radius = radius + 1.5
            ring.thickness = max(2.0, radius * 0.2)
            ring.color = (*art.TEAM_COLOURS[team_of(chair)], 255)
            person = self.person_rings[seat]
            person.position = (x, y)
            person.radius = radius + ring.thickness + 2.5
            person.thickness = max(1.5, radius * 0.12)
            number = self.numbers[seat]
            number.position = (x, y, 0)
            number.font_size = max(7.0, radius * 0.62)
            self._place_name(self.names[seat], spot, chair, x, y, radius)

    def _place_name(self, name: Any, spot: TableSpot, chair: int, x: float, y: float, radius: float) -> None:
        name.visible = not self.glide.running
        big = spot.radius >= SMALL_TABLE
        name.font_size = 10 if big else 8.5
        lines = 2 if big else 1
        gap = radius + 6 + 7 * lines
        beside = spot.side_room >= 100 and chair in (1, 3)
        if beside:                 # west: to the left of the token, east: to its right
            name.anchor_x = "right" if chair == 1 else "left"
            name.set_style("align", name.anchor_x)
            dx = -(radius + 8) if chair == 1 else radius + 8
            name.position = (x + dx, y, 0)
        else:                      # south below the token; the others above it
            name.anchor_x = "center"
            name.set_style("align", "center")
            name.position = (x, y - gap if chair == 0 else y + gap, 0)

    def show_records(self, state: BunkoState, spots: list[TableSpot], seat_name: Callable[[int], str]) -> None:
        """Each player's record beside their token (with their name at a big table)."""
        for seat in range(state.players):
            sheet = state.sheet(seat)
            bunkos = f" · {sheet['bunkos']}B" if sheet["bunkos"] else ""
            record = f"{sheet['wins']}W {sheet['losses']}L · {sheet['points']}{bunkos}"
            table = state.table_of(seat)[0]
            if spots[table].radius >= SMALL_TABLE:
                record = f"{seat_name(seat)}\n{sheet['wins']}W {sheet['losses']}L · {sheet['points']} pts{bunkos}"
            if self.names[seat].text != record:
                self.names[seat].text = record


def _chair_xy(state: BunkoState, spots: list[TableSpot], seat: int) -> tuple[float, float]:
    table, chair = state.table_of(seat)
    return spots[table].chair(chair)
