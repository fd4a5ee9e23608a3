"""Bunko's room in the window: every table at once (the head table large, the others in a row
below), the players in their chairs, three dice per table that tumble and land, the round's
target, the team scores, the head table's bell, players moving between tables, and the score
sheets with the standings.

Reads the state through the view contract (render/game_view.py) and never changes it: a person's
roll (Space, or a click on the room) goes through the controller. The dice of a roll in the air
are drawn from the controller's pending outcome (pace.RollingDice: waiting while players move,
tumbling, lying); their faces are the outcome's result, drawn from the seeded RNG.
Chairs: chair 0 sits south, then the dice go left (west, north, east), so partners sit opposite:
south and north against west and east.
"""

from __future__ import annotations

import colorsys
import math
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from pyglet import shapes, sprite
from pyglet.graphics import Group
from pyglet.window import key, mouse

from simulator.games.bunko import pace
from simulator.games.bunko.rules import (
    BUNKO,
    FINISH,
    HITS,
    OVER,
    ROLL_OFF,
    ROUNDS_PER_SET,
    TRIPLE,
    BunkoState,
    Roll,
    team_of,
)
from simulator.render import theme
from simulator.render.dice import Die
from simulator.render.game_view import GameView, ViewContext
from simulator.render.textures import centred, shadow_pixels, to_image, wood_pixels
from simulator.render.widgets import AnchorX, Area, fit_width, label, shrink_to_width

(G_TABLE_SHADOW, G_TABLE, G_GLOW, G_TOKEN_SHADOW, G_TOKEN, G_TOKEN_MARK, G_DICE, G_TEXT, G_BELL,
 G_BANNER, G_FLASH) = (Group(order=n) for n in range(1, 12))     # dice fly over the players
G_SHEET, G_SHEET_TEXT = Group(order=17), Group(order=18)

TEAM_COLOURS = ((236, 184, 72), (92, 176, 226))       # south-north, west-east
TEAM_NAMES = ("south-north", "west-east")
CHAIR_ANGLES = (-90.0, 180.0, 90.0, 0.0)              # chair 0 south, then to the left
TABLE_TEXTURE = 384
TOKEN_TEXTURE = 96
FELT = (38, 104, 70)
HEAD_FELT = (118, 34, 42)
BANNER_HEIGHT = 78.0
WHO_GAP = 36.0                                        # px kept between who plays and the Wins figures
FLASH_SECONDS = {"normal": 1.8, "fast": 1.2, "instant": 0.8}   # a big word over a table
MIN_TABLE_CELL = 170.0                                # narrower: the other tables go in two rows
SMALL_TABLE = 90.0                                    # below this radius, no names at the chairs


def seat_colour(seat: int) -> tuple[int, int, int]:
    """A colour of its own for each of up to 20 seats (hues spread by the golden ratio)."""
    hue = (seat * 0.618034 + 0.05) % 1.0
    light = 0.52 if seat % 2 == 0 else 0.40
    r, g, b = colorsys.hls_to_rgb(hue, light, 0.62)
    return int(r * 255), int(g * 255), int(b * 255)


def table_pixels(size: int, felt: tuple[int, int, int], seed: int = 3) -> np.ndarray:
    """RGBA uint8 (size, size, 4): a round table seen from above, a wooden rim around a felt top."""
    c = (size - 1) / 2.0
    yy, xx = np.mgrid[0:size, 0:size].astype(float)
    r = np.sqrt((xx - c) ** 2 + (yy - c) ** 2) / c
    wood = wood_pixels(size, size, seed=seed).astype(float)
    out = np.zeros((size, size, 4), np.uint8)
    rng = np.random.default_rng(seed)
    grain = rng.random((size, size)) * 14 - 7
    felt_rgb = np.array(felt, float)[None, None, :] + grain[..., None]
    felt_rgb *= (1.0 - 0.22 * np.clip(r / 0.86, 0, 1) ** 3)[..., None]      # darker toward the rim
    rim = np.clip((r - 0.84) / 0.16, 0, 1)
    bevel = 1.0 - 0.35 * np.abs(rim - 0.45) ** 1.2                           # a rounded wooden edge
    wood_rgb = wood[..., :3] * bevel[..., None]
    inner_shadow = np.clip((0.86 - r) / 0.04, 0, 1)                          # the felt sits lower
    felt_rgb *= (0.72 + 0.28 * inner_shadow)[..., None]
    blend = np.clip((r - 0.855) / 0.01, 0, 1)[..., None]
    rgb = felt_rgb * (1 - blend) + wood_rgb * blend
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = (np.clip((1.0 - r) * c / 1.2, 0, 1) * 255).astype(np.uint8)
    return out


def token_pixels(size: int, colour: tuple[int, int, int]) -> np.ndarray:
    """RGBA uint8: a player's round token, lit from the upper left."""
    c = (size - 1) / 2.0
    yy, xx = np.mgrid[0:size, 0:size].astype(float)
    dx, dy = (xx - c) / c, (yy - c) / c
    r = np.sqrt(dx * dx + dy * dy)
    light = np.clip(1.0 - 0.45 * np.sqrt((dx + 0.35) ** 2 + (dy - 0.4) ** 2), 0.45, 1.0)
    rgb = np.array(colour, float)[None, None, :] * (0.55 + 0.6 * light[..., None])
    rim = np.clip((r - 0.86) / 0.14, 0, 1)[..., None]
    rgb = rgb * (1 - 0.45 * rim)
    out = np.zeros((size, size, 4), np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = (np.clip((1.0 - r) * c / 1.2, 0, 1) * 255).astype(np.uint8)
    return out


class _Images:
    """Textures made once per process and shared by every Bunko view."""

    cache: dict[str, Any] = {}

    @classmethod
    def get(cls, name: str) -> Any:
        if name not in cls.cache:
            kind, _, arg = name.partition(":")
            if kind == "table":
                cls.cache[name] = centred(to_image(table_pixels(TABLE_TEXTURE, HEAD_FELT if arg == "head" else FELT)))
            elif kind == "shadow":
                cls.cache[name] = centred(to_image(shadow_pixels(128, softness=0.5)))
            else:
                cls.cache[name] = centred(to_image(token_pixels(TOKEN_TEXTURE, seat_colour(int(arg)))))
        return cls.cache[name]


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


def roll_caption(roll: dict[str, Any], target: int) -> str:
    """What a table says about its last roll."""
    points = roll["points"]
    if roll["roll_off"]:
        return f"roll-off: +{points}" if points else "roll-off: nothing"
    if roll["kind"] == BUNKO:
        return "BUNKO! +21"
    if roll["kind"] == TRIPLE:
        return "triple: +5" + (", rolls again" if roll["again"] else "")
    if roll["kind"] == HITS:
        return f"+{points}" + (", rolls again" if roll["again"] else "")
    return f"no {target}: dice go left"


class _Bell:
    """The head table's brass bell, drawn as a polygon that swings about its top."""

    def __init__(self, batch: Any) -> None:
        self.batch = batch
        self.x = self.y = 0.0
        self.size = 30.0
        self.angle = 0.0
        self.shapes: list[Any] = []
        self.glow = shapes.Arc(0, 0, 10, segments=48, thickness=6, color=(255, 214, 120, 0), batch=batch, group=G_GLOW)
        self.ding = label("", size=14, batch=batch, group=G_BELL, bold=True, color=(255, 226, 150, 255),
                          anchor_x="left", anchor_y="center")
        self.rung = False
        self.visible = True

    def place(self, x: float, y: float, size: float) -> None:
        self.x, self.y, self.size = x, y, size
        self.glow.position = (x, y - size * 0.5)
        self.glow.radius = size * 0.85
        self.glow.thickness = max(3.0, size * 0.12)
        self.ding.position = (x + size * 0.75, y - size * 0.2, 0)
        self.ding.font_size = max(9.0, size * 0.42)
        self._build()

    def _build(self) -> None:
        for shape in self.shapes:
            shape.delete()
        s, a = self.size, math.radians(self.angle)
        cos, sin = math.cos(a), math.sin(a)

        def turn(px: float, py: float) -> tuple[float, float]:   # about the pivot (x, y)
            return self.x + px * cos + py * sin, self.y + py * cos - px * sin

        outline = []
        for i in range(13):
            t = i / 12
            outline.append((-(0.18 + 0.34 * t ** 2.2) * s, -t * s * 0.92))
        outline += [(-0.56 * s, -0.98 * s), (0.56 * s, -0.98 * s)]
        outline += [(-px, py) for px, py in reversed(outline[:13])]
        colour = (226, 176, 70, 255) if not self.rung else (255, 206, 96, 255)
        points = [turn(px, py) for px, py in outline]
        self.shapes = [
            shapes.Polygon(*points, color=colour, batch=self.batch, group=G_BELL),
            shapes.Circle(*turn(0, -0.02 * s), s * 0.2, color=(150, 106, 40, 255), batch=self.batch, group=G_BELL),
            shapes.Circle(*turn(0.05 * s * math.sin(a * 3), -1.02 * s), s * 0.11, color=(120, 84, 30, 255),
                          batch=self.batch, group=G_BELL),
            shapes.Line(*turn(-0.3 * s, -0.45 * s), *turn(-0.1 * s, -0.2 * s), thickness=max(1.0, s * 0.06),
                        color=(255, 236, 180, 200), batch=self.batch, group=G_BELL),
        ]
        for shape in self.shapes:
            shape.visible = self.visible

    def show(self, angle: float, rung: bool, ringing: float) -> None:
        """Swing to `angle`; `ringing` 0..1 fades the glow and the DING."""
        changed = abs(angle - self.angle) > 0.2 or rung != self.rung
        self.angle, self.rung = angle, rung
        if changed:
            self._build()
        alpha = int(220 * ringing) if rung else 0
        self.glow.color = (255, 214, 120, alpha)
        self.ding.text = "DING!" if ringing > 0.05 else ""
        self.ding.opacity = int(255 * min(1.0, ringing * 1.5))

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        self.glow.visible = self.ding.visible = visible
        for shape in self.shapes:
            shape.visible = visible


class _TableDrawing:
    """One table: its top, title, team score plaques, caption and three dice."""

    def __init__(self, view: BunkoView, index: int) -> None:
        batch = view.batch
        self.index = index
        self.spot = TableSpot(0, 0, 10)
        self.left = 0.0                         # the view's left edge: nothing is drawn left of it
        self.shadow = sprite.Sprite(_Images.get("shadow"), batch=batch, group=G_TABLE_SHADOW)
        self.top = sprite.Sprite(_Images.get("table:head" if index == 0 else "table:plain"), batch=batch,
                                 group=G_TABLE)
        self.title = label("", size=12, batch=batch, group=G_TEXT, bold=True, anchor_x="center",
                           anchor_y="bottom", color=(236, 226, 204, 255))
        self.plaques = [shapes.RoundedRectangle(0, 0, 10, 10, radius=6, segments=4, color=(*colour, 230),
                                                batch=batch, group=G_TEXT) for colour in TEAM_COLOURS]
        self.scores = [label("0", size=16, batch=batch, group=G_BELL, bold=True, anchor_x="center",
                             anchor_y="center", color=theme.TEXT_DARK) for _ in TEAM_COLOURS]
        self.teams = [label("", size=8, batch=batch, group=G_BELL, anchor_x="center", anchor_y="center",
                            color=(40, 32, 24, 230)) for _ in TEAM_COLOURS]
        self.caption = label("", size=11, batch=batch, group=G_TEXT, anchor_x="center", anchor_y="center",
                             color=(246, 236, 210, 255), bold=True)
        self.dice = [Die(batch, G_DICE, size=20, face=n + 1) for n in range(3)]
        self.rest: list[tuple[float, float]] = []
        self.resting_key: Any = "unset"        # what the resting dice show (None: no roll yet)
        self.thrown_number = 0                  # the number of the roll whose dice were thrown here

    def place(self, spot: TableSpot, left: float) -> None:
        """Lay the table out at `spot`; nothing of it left of `left` (the view's edge)."""
        self.spot, self.left = spot, left
        r = spot.radius
        self.shadow.position = (spot.x + r * 0.06, spot.y - r * 0.09, 0)
        self.shadow.scale = r * 2.35 / 128
        self.top.position = (spot.x, spot.y, 0)
        self.top.scale = 2 * r / TABLE_TEXTURE
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


class BunkoView(GameView[BunkoState]):
    state_class = BunkoState
    computer_doing = "rolling"               # a computer player only rolls: it does not think
    rules_summary = (
        "Four players at each table, partners opposite (south-north against west-east). A night "
        "is 6 rounds per set; in round r of a set the target is r.\n"
        "On your turn you roll three dice: each die showing the target scores 1 for your team; "
        "three targets are a BUNKO (21 points, and a bunko on your score sheet); three of another "
        "number score 5. After a roll with a target die you roll again, otherwise the dice go to "
        "the left (the setting 'Roll again' changes this for bunkos and triples).\n"
        "The tables roll in turn. When a team at the head table (table 1) reaches 21 the bell "
        "rings; every other table makes one more roll and the round ends. The team with more "
        "points wins its table; a tie is settled by a roll-off (one last roll per team, by its "
        "player in the earlier chair; it counts on no score sheet).\n"
        "Then winners move up a table and losers stay; at the head table the winners stay and "
        "the losers go to the last table. Everyone gets a new partner. With one table the "
        "partners rotate.\n"
        "Standings: most wins, then most bunkos, then most points.")
    controls = (("Space", "roll the dice when it is your turn"),
                ("Left click", "roll the dice (anywhere on the tables)"),
                ("S", "show or hide the score sheets and standings"),
                ("Hover a player", "their score sheet"))

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        if self.controller.settings.get("pace") == "instant":
            self.controller.computer_delay = 0.0     # no pause between computer rolls either
        state = self.state
        batch = self.batch
        self.tables = [_TableDrawing(self, t) for t in range(state.tables)]
        self.spots: list[TableSpot] = [d.spot for d in self.tables]
        self.tokens: list[sprite.Sprite] = []
        self.token_shadows: list[sprite.Sprite] = []
        self.rings: list[shapes.Arc] = []
        self.person_rings: list[shapes.Arc] = []     # a white outer ring: a person plays this seat
        self.numbers: list[Any] = []
        self.names: list[Any] = []
        for seat in range(state.players):
            self.token_shadows.append(sprite.Sprite(_Images.get("shadow"), batch=batch, group=G_TOKEN_SHADOW))
            self.tokens.append(sprite.Sprite(_Images.get(f"token:{seat}"), batch=batch, group=G_TOKEN))
            self.rings.append(shapes.Arc(0, 0, 10, segments=40, thickness=3, color=(*TEAM_COLOURS[0], 255), batch=batch,
                                         group=G_TOKEN_MARK))
            person = shapes.Arc(0, 0, 10, segments=40, thickness=2, color=(255, 255, 255, 235), batch=batch, group=G_TOKEN_MARK)
            person.visible = not self.controller.seats[seat].is_computer
            self.person_rings.append(person)
            self.numbers.append(label(str(seat + 1), size=11, batch=batch, group=G_TOKEN_MARK, bold=True,
                                      anchor_x="center", anchor_y="center", color=(255, 255, 255, 255)))
            self.names.append(label("", size=10, batch=batch, group=G_TEXT, multiline=True, width=130,
                                    anchor_x="center", anchor_y="center", align="center"))
        self.roller_glow = shapes.Circle(0, 0, 10, segments=40, color=(255, 240, 190, 0), batch=batch, group=G_TOKEN_SHADOW)
        self.dice_glow = shapes.Circle(0, 0, 10, segments=48, color=(255, 244, 200, 0), batch=batch, group=G_GLOW)
        # the banner: round, target, what happens now
        self.banner = shapes.RoundedRectangle(0, 0, 10, 10, radius=10, segments=6, color=(22, 26, 22, 190),
                                              batch=batch, group=G_BANNER)
        self.round_label = label("", size=20, batch=batch, group=G_FLASH, bold=True, serif=True,
                                 anchor_y="center", color=(244, 226, 180, 255))
        self.set_label = label("", size=11, batch=batch, group=G_FLASH, anchor_y="center", color=theme.TEXT_DIM)
        self.target_caption = label("target", size=11, batch=batch, group=G_FLASH, anchor_x="right",
                                    anchor_y="center", color=theme.TEXT_DIM)
        self.target_die = Die(batch, G_FLASH, size=44, face=1)
        self.phase_label = label("", size=13, batch=batch, group=G_FLASH, anchor_x="right", anchor_y="center",
                                 color=(246, 238, 220, 255))
        self.bell = _Bell(batch)
        self.flashes: list[tuple[Any, float]] = []
        # the score sheets
        self.sheet_visible = False
        self.sheet_panel = shapes.RoundedRectangle(0, 0, 10, 10, radius=14, segments=8, color=(250, 244, 230, 255),
                                                   batch=batch, group=G_SHEET)
        self.sheet_panel.visible = False
        self.sheet_labels: list[Any] = []
        self.sheet_marks: list[Any] = []
        self._sheet_key: Any = None              # what the sheet was built for
        # animation state
        self.token_xy: list[tuple[float, float]] = [(0.0, 0.0)] * state.players
        self.move_from: list[tuple[float, float]] = []
        self.move_radius: list[float] = []
        self.move_elapsed = self.move_seconds = 0.0
        self.bell_elapsed: float | None = None
        self.clock = 0.0
        self.banner_middle = 0.0
        self.hover_seat: int | None = None
        self.hovering = False
        self.mouse: tuple[float, float] | None = None     # where the mouse is over the window
        self._shown_round = state.round
        self._shown_bell = state.bell
        self._shown_rolls = state.rolls
        self._throw: Any = None                      # the pending outcome whose dice fly
        self._throw_table = -1
        self._was_over = state.is_terminal()
        self.sync()


    # --- layout ---------------------------------------------------------------------------------------
    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        state = self.state
        self.spots = room_layout(state.tables, x + 8, y + 8, width - 16, height - 16)
        for drawing, spot in zip(self.tables, self.spots, strict=True):
            drawing.place(spot, left=x + 8)
        top = y + height - 10
        self.banner.position = (x + 12, top - BANNER_HEIGHT + 14)
        self.banner.width, self.banner.height = width - 24, BANNER_HEIGHT - 18
        middle = top - BANNER_HEIGHT / 2 + 5
        self.round_label.position = (x + 30, middle + 9, 0)
        self.set_label.position = (x + 32, middle - 16, 0)
        self.banner_middle = middle
        self.phase_label.position = (x + width - 30, middle, 0)
        head = self.spots[0]
        bell_size = max(20.0, head.radius * 0.3)
        self.bell.place(head.x + head.radius * 0.82 + head.token_radius, head.y + head.radius * 0.95 + bell_size * 0.5,
                        bell_size)
        self.token_xy = [self._chair_xy(seat) for seat in range(state.players)]
        self.move_seconds = 0.0
        self._place_tokens()
        self.sync()

    def _chair_xy(self, seat: int) -> tuple[float, float]:
        table, chair = self.state.table_of(seat)
        return self.spots[table].chair(chair)

    def _place_tokens(self) -> None:
        state = self.state
        for seat in range(state.players):
            table, chair = state.table_of(seat)
            spot = self.spots[table]
            radius = spot.token_radius
            if self.move_seconds > 0 and self.move_radius:
                t = min(1.0, self.move_elapsed / self.move_seconds)
                radius = self.move_radius[seat] + (radius - self.move_radius[seat]) * t
            x, y = self.token_xy[seat]
            token, shadow = self.tokens[seat], self.token_shadows[seat]
            token.position = (x, y, 0)
            token.scale = 2 * radius / TOKEN_TEXTURE
            shadow.position = (x + radius * 0.15, y - radius * 0.2, 0)
            shadow.scale = 2.4 * radius / 128
            ring = self.rings[seat]
            ring.position = (x, y)
            ring.radius = radius + 1.5
            ring.thickness = max(2.0, radius * 0.2)
            ring.color = (*TEAM_COLOURS[team_of(chair)], 255)
            person = self.person_rings[seat]
            person.position = (x, y)
            person.radius = radius + ring.thickness + 2.5
            person.thickness = max(1.5, radius * 0.12)
            number = self.numbers[seat]
            number.position = (x, y, 0)
            number.font_size = max(7.0, radius * 0.62)
            name = self.names[seat]
            name.visible = self.move_seconds <= 0
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

    # --- following the state ----------------------------------------------------------------------------
    def sync(self) -> None:
        state = self.state
        if state.round != self._shown_round:
            forward = state.round == self._shown_round + 1
            self._shown_round = state.round
            self._start_move(animate=forward)
        if state.bell and not self._shown_bell and state.round == self._shown_round:
            self.bell_elapsed = 0.0
        self._shown_bell = state.bell
        if state.rolls > self._shown_rolls:
            self._flash_news(state)
        self._shown_rolls = state.rolls
        if state.is_terminal() and not self._was_over:
            self.sheet_visible = True
        self._was_over = state.is_terminal()
        self._refresh()
        self._refresh_hover()           # a new round seats everyone anew: the hint follows

    def _start_move(self, animate: bool) -> None:
        seconds = pace.MOVE_SECONDS[self.state.pace] if animate else 0.0
        self.move_from = list(self.token_xy)
        self.move_radius = [self.tokens[seat].scale * TOKEN_TEXTURE / 2 for seat in range(self.state.players)]
        self.move_elapsed = 0.0
        self.move_seconds = seconds
        if seconds <= 0:
            self.token_xy = [self._chair_xy(seat) for seat in range(self.state.players)]
        self._place_tokens()

    def _flash_news(self, state: BunkoState) -> None:
        """A big word over the table where a bunko has just landed."""
        roll = state.last_rolls[state.last_table] if state.last_table >= 0 else None
        if roll is not None and roll["kind"] == BUNKO:
            self._flash("BUNKO!", self.spots[state.last_table], (255, 214, 90, 255))

    def _flash(self, text: str, spot: TableSpot, colour: tuple[int, int, int, int]) -> None:
        for earlier, _ in self.flashes:           # one at a time: a new roll's word replaces the last
            earlier.delete()
        self.flashes = []
        flash = label(text, spot.x, spot.y + spot.radius * 0.35, size=max(14.0, spot.radius * 0.2),
                      batch=self.batch, group=G_FLASH, bold=True, serif=True, anchor_x="center",
                      anchor_y="center", color=colour)
        self.flashes.append((flash, 0.0))

    def _refresh(self) -> None:
        state = self.state
        target = state.target
        self.round_label.text = f"Round {state.round % ROUNDS_PER_SET + 1} of {ROUNDS_PER_SET}"
        self.set_label.text = (f"set {state.round // ROUNDS_PER_SET + 1} of {state.sets} · "
                               f"{state.players} players at {state.tables} table{'s' if state.tables > 1 else ''}")
        self.target_die.show(target, angle=0.0, marked=True)
        left = self.area[0] + 30 + max(self.round_label.content_width, self.set_label.content_width) + 40
        self.target_caption.anchor_x = "left"
        self.target_caption.position = (left, self.banner_middle, 0)
        self.target_caption.text = "target"
        self.target_die.place(left + self.target_caption.content_width + 34, self.banner_middle, 40)
        # what happens now, right of the target die: smaller, then cut short, in a narrow window
        room = self.area[0] + self.area[2] - 30 - (left + self.target_caption.content_width + 34 + 20 + 16)
        self.phase_label.text = text = self._phase_text(state)
        shrink_to_width(self.phase_label, room, 13, 9)
        self.phase_label.visible = self.phase_label.content_width <= room
        if not self.phase_label.visible:          # no room beside the die: under the round instead
            fit_width(self.set_label, text, left - self.area[0] - 60)
        rolling_table = state.rolling_table()
        for t, drawing in enumerate(self.tables):
            chairs = state.chairs[t]
            head = " (head)" if t == 0 and state.tables > 1 else ""
            drawing.title.text = f"Table {t + 1}{head}"
            drawing.place_title()                                   # its width changed
            for team in (0, 1):
                drawing.scores[team].text = str(state.scores[t][team])
                drawing.teams[team].text = f"P{chairs[team] + 1} & P{chairs[team + 2] + 1}"
            drawing.caption.text = self._table_caption(state, t)
            if t != rolling_table or not state.awaiting:
                self._rest_dice(drawing, state, t)
        self._refresh_turn()
        for seat in range(state.players):
            sheet = state.sheet(seat)
            bunkos = f" · {sheet['bunkos']}B" if sheet["bunkos"] else ""
            record = f"{sheet['wins']}W {sheet['losses']}L · {sheet['points']}{bunkos}"
            table = state.table_of(seat)[0]
            if self.spots[table].radius >= SMALL_TABLE:
                who = self.context.controller.info.seat_name(seat)
                record = f"{who}\n{sheet['wins']}W {sheet['losses']}L · {sheet['points']} pts{bunkos}"
            if self.names[seat].text != record:
                self.names[seat].text = record
        self.bell.set_visible(True)
        if self.bell_elapsed is None:
            self.bell.show(0.0, state.bell, 0.0)
        self._build_sheet()

    def _phase_text(self, state: BunkoState) -> str:
        if state.phase == OVER:
            return "The night is over: the standings"
        seat = state.roller_seat()
        who = f"Player {seat + 1}"
        table = state.rolling_table() + 1
        if state.phase == ROLL_OFF:
            return f"Roll-off at table {table}: {who} rolls"
        if state.phase == FINISH:
            return f"The bell has rung: last roll at table {table}"
        if state.round_rolls == 0 and state.results:
            return "Players change tables"
        return f"{who} rolls at table {table}"

    def _table_caption(self, state: BunkoState, t: int) -> str:
        if state.phase == ROLL_OFF and t in state.rolloff_tables:
            a, b = state.rolloff_score if t == state.rolloff_tables[0] else (0, 0)
            return f"tied: roll-off {a} : {b}"
        roll = state.last_rolls[t]
        if roll is not None and roll["round"] == state.round:
            return roll_caption(roll, state.target)
        if state.results:               # last round's, named (the winners may be opponents now)
            record = state.results[-1]
            result = record["tables"][t]
            winners = [result["chairs"][c] + 1 for c in range(4) if team_of(c) == result["winner"]]
            a, b = result["score"]
            return f"round {record['round']}: P{winners[0]} & P{winners[1]} won {max(a, b)}-{min(a, b)}"
        return ""

    def _rest_dice(self, drawing: _TableDrawing, state: BunkoState, t: int) -> None:
        """The dice of a table's latest roll as they lie; dimmed when it was last round's."""
        roll = state.last_rolls[t]
        current = roll is not None and roll["round"] == state.round
        key_ = (roll["number"], current) if roll else None
        if key_ == drawing.resting_key:
            return
        drawing.resting_key = key_
        if roll is None:
            for n, die in enumerate(drawing.dice):
                die.show(n + 4, angle=0.0, marked=False)
                die.opacity = 110
            return
        just_thrown = roll["number"] == drawing.thrown_number
        rng = random.Random(roll["number"] * 31 + t)
        for die, face in zip(drawing.dice, roll["faces"], strict=True):
            angle = rng.uniform(-14, 14)
            die.show(face, angle=None if just_thrown else angle, marked=current and face == state.target)
            die.opacity = 255 if current else 150

    def _refresh_turn(self) -> None:
        state = self.state
        seat = state.roller_seat()
        if seat < 0 or self.move_seconds > 0:
            self.roller_glow.color = (255, 240, 190, 0)
            self.dice_glow.color = (255, 244, 200, 0)
            return
        x, y = self.token_xy[seat]
        table, chair = state.table_of(seat)
        spot = self.spots[table]
        self.roller_glow.position = (x, y)
        self.roller_glow.radius = spot.token_radius * 1.7
        person = self.controller.is_person_turn()
        pulse = 0.5 + 0.5 * math.sin(self.clock * 5.0)
        strength = (0.75 + 0.25 * pulse) if person and self.hovering else (0.35 + 0.35 * pulse if person else 0.4)
        self.roller_glow.color = (255, 240, 190, int(200 * strength))
        self.dice_glow.position = (spot.x, spot.y)
        self.dice_glow.radius = spot.die_size * 2.6
        self.dice_glow.color = (255, 236, 180, int(45 * strength) if person else 0)

    # --- the score sheets -----------------------------------------------------------------------------
    def _build_sheet(self) -> None:
        state = self.state
        key_ = (self.sheet_visible, self.area, state.round, state.phase, tuple(state.points),
                tuple(state.wins), tuple(state.bunkos), tuple(map(tuple, state.chairs)))
        if key_ == self._sheet_key:
            return
        self._sheet_key = key_
        for item in self.sheet_labels + self.sheet_marks:
            item.delete()
        self.sheet_labels, self.sheet_marks = [], []
        self.sheet_panel.visible = self.sheet_visible
        if not self.sheet_visible:
            return
        state = self.state
        info = self.context.controller.info
        seats = self.context.controller.seats
        x, y, width, height = self.area
        rows = state.players
        row_h = max(17.0, min(28.0, (height - 200) / rows))
        panel_w = min(width - 40, 640.0)
        panel_h = row_h * rows + 112
        # at the top, under the banner: a dialog over the room (the end of the night) leaves
        # its title and first rows in sight below it
        px, py = x + (width - panel_w) / 2, y + height - BANNER_HEIGHT - 6 - panel_h
        self.sheet_panel.position = (px, py)
        self.sheet_panel.width, self.sheet_panel.height = panel_w, panel_h
        dark = theme.TEXT_DARK
        over = state.phase == OVER
        done = len(state.results)
        title = ("Standings: the night is over" if over else
                 f"Score sheets after {done} round{'s' if done != 1 else ''}")
        self.sheet_labels.append(label(title, px + 24, py + panel_h - 34, size=17, batch=self.batch,
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
            self.sheet_labels.append(label(text, px + cx * scale, head_y, size=10.5, batch=self.batch,
                                           group=G_SHEET_TEXT, bold=True, color=(110, 90, 64, 255),
                                           anchor_x=anchor))
        places = state.places()
        for row, seat in enumerate(state.standings()):
            ry = head_y - (row + 1) * row_h
            if row % 2 == 0:
                self.sheet_marks.append(shapes.Rectangle(px + 14, ry - row_h * 0.32, panel_w - 28, row_h,
                                                         color=(236, 224, 200, 255), batch=self.batch,
                                                         group=G_SHEET))
            sheet = state.sheet(seat)
            table = state.table_of(seat)[0] + 1
            who = seats[seat].describe()
            values = [str(places[seat]), info.seat_name(seat), *([] if compact else [who]), str(sheet["wins"]),
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
                self.sheet_labels.append(cell)
            chip = shapes.Circle(max(px + 10, px + 30 * scale - 22), ry + size * 0.35, size * 0.45,
                                 color=seat_colour(seat), batch=self.batch, group=G_SHEET_TEXT)
            self.sheet_marks.append(chip)
        note = ("W wins, L losses, B bunkos; ranked by W, B, points" if compact else
                "ranked by wins, then bunkos, then points · S hides this sheet")
        note_label = label("", px + 24, py + 16, size=9.5, batch=self.batch, group=G_SHEET_TEXT,
                           color=(110, 90, 64, 255))
        fit_width(note_label, note, panel_w - 40)
        self.sheet_labels.append(note_label)

    # --- clock ------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.clock += dt
        state = self.state
        if self.move_seconds > 0:
            self.move_elapsed += dt
            t = min(1.0, self.move_elapsed / self.move_seconds)
            eased = t * t * (3 - 2 * t)
            for seat in range(state.players):
                (x0, y0), (x1, y1) = self.move_from[seat], self._chair_xy(seat)
                lift = math.sin(math.pi * t) * 18
                self.token_xy[seat] = (x0 + (x1 - x0) * eased, y0 + (y1 - y0) * eased + lift)
            if t >= 1.0:
                self.move_seconds = 0.0
                self.token_xy = [self._chair_xy(seat) for seat in range(state.players)]
                self._refresh()
            self._place_tokens()
        if self.bell_elapsed is not None:
            self.bell_elapsed += dt
            t = self.bell_elapsed / pace.BELL_SECONDS
            if t >= 1.0:
                self.bell_elapsed = None
                self.bell.show(0.0, state.bell, 0.0)
            else:
                self.bell.show(28.0 * math.sin(t * math.pi * 7) * (1 - t), True, 1 - t)
        still = []
        lasts = FLASH_SECONDS.get(state.pace, FLASH_SECONDS["normal"])
        for flash, age in self.flashes:
            age += dt
            if age >= lasts:
                flash.delete()
                continue
            flash.opacity = int(255 * min(1.0, 3 * (1 - age / lasts)))
            flash.y += dt * 14 * FLASH_SECONDS["normal"] / lasts      # rises as far at every pace
            still.append((flash, age))
        self.flashes = still
        self._animate_throw(state)
        self._refresh_turn()

    def _animate_throw(self, state: BunkoState) -> None:
        pending = self.controller.outcome_in_progress()
        if pending is None or not state.awaiting:
            if self._throw is not None:
                self._throw = None
                self._refresh()
            return
        table = state.rolling_table()
        drawing = self.tables[table]
        dice = pending.result()
        if pending is not self._throw:
            self._throw, self._throw_table = pending, table
            seat = state.roller_seat()
            start = self.token_xy[seat]
            drawing.caption.text = f"Player {seat + 1} rolls..."
            drawing.thrown_number = state.rolls + 1
            for n, (die, face) in enumerate(zip(drawing.dice, dice.faces, strict=True)):
                die.opacity = 255
                die.throw(face, seconds=1.0, start=(start[0] + (n - 1) * 6, start[1]),
                          seed=state.rolls * 7 + n)
                die.marked = False
            drawing.resting_key = "unset"
        if isinstance(pending, pace.RollingDice):
            stage, fraction = pending.stage()
            progress = {"waiting": 0.0, "tumbling": fraction * 0.999, "landed": 1.0}[stage]
        else:
            progress = pending.progress()
        for die, face in zip(drawing.dice, dice.faces, strict=True):
            if die.rolling:
                die.set_progress(progress)
                if not die.rolling:
                    die.show(face, marked=face == state.target)

    # --- input ------------------------------------------------------------------------------------------
    def _roll_refusal(self) -> str | None:
        """Why a person cannot roll now, or None when they can."""
        controller, state = self.controller, self.state
        if controller.is_over():
            return "the night is over: the score sheets show the standings"
        if state.awaiting:
            return "the dice are rolling; wait for them to land"
        if not controller.is_person_turn():
            seat = state.roller_seat()
            return f"Player {seat + 1} (computer) rolls by itself; wait for your turn"
        return None

    def _roll(self) -> None:
        reason = self._roll_refusal()
        if reason is not None:
            self.toast.show(reason, error=not self.controller.is_over())
            return
        self.submit(Roll())

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if not self.enabled or modifiers & (key.MOD_CTRL | key.MOD_ALT):
            return None
        if symbol == key.SPACE:
            self._roll()
            return True
        if symbol == key.S:
            self.sheet_visible = not self.sheet_visible
            self._build_sheet()
            return True
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button != mouse.LEFT or not self.enabled or not self.contains(x, y):
            return None
        if self.sheet_visible:
            self.sheet_visible = False
            self._build_sheet()
            return True
        self._roll()
        return True

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        self.mouse = (x, y)
        self._refresh_hover()
        return None

    def on_mouse_leave(self, x: int, y: int) -> bool | None:
        self.mouse = None
        self._refresh_hover()
        return None

    def _refresh_hover(self) -> None:
        """The player under the mouse, and the hint about them or the roll."""
        self.hover_seat = None
        self.hovering = self.mouse is not None and self.enabled and self.contains(*self.mouse)
        if self.mouse is not None:
            x, y = self.mouse
            state = self.state
            for seat in range(state.players):
                tx, ty = self.token_xy[seat]
                if math.hypot(x - tx, y - ty) <= self.spots[state.table_of(seat)[0]].token_radius * 1.1:
                    self.hover_seat = seat
        self._refresh_hint()

    def _refresh_hint(self) -> None:
        state = self.state
        if self.hover_seat is not None:
            seat = self.hover_seat
            sheet = state.sheet(seat)
            table, chair = state.table_of(seat)
            partner = state.chairs[table][(chair + 2) % 4]
            # where and with whom first, then the sheet: a full panel leaves the hint a line or two
            self.hint = (f"Player {seat + 1}: table {table + 1}, partner Player {partner + 1}; "
                         f"{sheet['wins']} won, {sheet['losses']} lost, {sheet['bunkos']} bunko"
                         f"{'s' if sheet['bunkos'] != 1 else ''}, {sheet['points']} points")
        elif self.hovering and self._roll_refusal() is None:
            self.hint = f"Click or press Space: Player {state.roller_seat() + 1} rolls for {state.target}s"
        elif self.hovering:
            self.hint = self._roll_refusal() or ""
        else:
            self.hint = ""

    # --- side panel and end screen -----------------------------------------------------------------------
    def keep_in_sight(self) -> Area | None:
        """The score sheets while they show: the end dialog leaves the standings in sight."""
        panel = self.sheet_panel
        return (panel.x, panel.y, panel.width, panel.height) if self.sheet_visible else None

    def seat_icon(self, seat: int) -> Any:
        return _Images.get(f"token:{seat}")

    def seat_detail(self, seat: int) -> str:
        state = self.state
        sheet = state.sheet(seat)
        table = state.table_of(seat)[0] + 1
        bunkos = f" · {sheet['bunkos']} bunko{'s' if sheet['bunkos'] != 1 else ''}" if sheet["bunkos"] else ""
        return f"table {table} · {sheet['wins']}W {sheet['losses']}L{bunkos} · {sheet['points']} pts"

    def prompt(self) -> str:
        return "Space: roll."

    def outcome_text(self) -> str:
        return "Rolling"

    def describe_move(self, notation: str) -> str:
        if notation == "roll":
            return "rolls the dice"
        return "dice show " + notation.replace("-", " ")

    def result_text(self) -> str:
        state = self.state
        places = state.places()
        lines = []
        for seat in state.standings()[:5]:
            sheet = state.sheet(seat)
            lines.append(f"{places[seat]}. Player {seat + 1}: {sheet['wins']} wins, {sheet['bunkos']} "
                         f"bunko{'s' if sheet['bunkos'] != 1 else ''}, {sheet['points']} points")
        more = f"\n... and {state.players - 5} more on the score sheets." if state.players > 5 else ""
        return (f"After {len(state.results)} rounds, by wins, then bunkos, then points:\n"
                + "\n".join(lines) + more)

    def close(self) -> None:
        for drawing in self.tables:
            for die in drawing.dice:
                die.delete()
        self.target_die.delete()
