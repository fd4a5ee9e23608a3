"""Buddel Bande in the window: a meadow with the haystack, the winding track of 24 exit holes
(each with its flower, leaf or clover), the den entrance, a den per clan in play, moles that all
look alike from above (only their sizes differ), Daniel the dog, the two dice in a tray, the
action panel (decline, look, done), a private peek and a log line per turn.

Reads the state the viewing seat may see (the redacted state: render/game_view.py) and sends a
person's clicks through the controller. While a person moves, the moles and dog spots they may
move are lit; the hovered one shows where it would go. A look is shown only to the person who
looks (the game screen hides the table between people at one machine); like players at a real
table, people remember what they saw: the board never marks clans, except the viewer's own
moles during the first round (they placed them) and the moles in the dens (turned over).
The dice come from simulator/render/dice.py with faces painted here (moles, dog; symbols).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from pyglet import shapes, sprite
from pyglet.graphics import Batch, Group
from pyglet.window import key, mouse

from simulator.games.buddel_bande import art
from simulator.games.buddel_bande.rules import (
    ANY,
    CLAN_SINGULAR,
    CLANS,
    DECLINE,
    DEN_ENTRANCE,
    DOG,
    DOG_OR_ANY,
    DONE,
    FIGURE_NAMES,
    FIGURES,
    HAYSTACK,
    HOLE_SYMBOL,
    HOLES,
    IN_DEN,
    LOOK,
    LOOK_UNDER,
    MOVE,
    NO_LOOK,
    OVER,
    PEEK,
    SIZES,
    SYMBOL_NAMES,
    UNKNOWN,
    Act,
    BuddelState,
)
from simulator.render.dice import Die, DieStyle, Mark
from simulator.render.game_view import GameView, ViewContext
from simulator.render.textures import centred, to_image
from simulator.render.widgets import Button, label

ASPECT = 1.5                    # board width over height
HOLE_RADIUS = 0.042             # in board heights
MOLE_WIDTH = (0.085, 0.1, 0.118)   # sprite width per size, board heights
DOG_WIDTH = 0.1
DOG_OFFSET = 0.078              # the dog sits this far beside its hole
LOG_LINES = 3
MOLE_GLIDE = 9.0                # how fast drawn moles catch up with their places (1/s)
(G_MEADOW, G_TRAIL, G_HOLES, G_SYMBOLS, G_LIGHTS, G_DOG, G_MOLE_SHADOW, G_MOLES, G_MARKS, G_GHOST,
 G_TRAY, G_DICE, G_CARD, G_CARD_ART, G_TEXT) = (Group(order=n) for n in range(1, 16))
TEXT = (250, 246, 232, 255)
INK = (46, 34, 22, 255)


# --- the track's geometry (pure, in board heights; (0, 0) the board's lower left) ------------------

ROW, TURN_RADIUS = 0.64, 0.13
#: the track's centre line: straight rows joined by half turns (kind, start point, then a
#: direction for a line, or a centre and a sense (+1 counter-clockwise) for a half turn)
SEGMENTS: tuple[tuple[Any, ...], ...] = (
    ("line", (0.38, 0.12), (1.0, 0.0)),
    ("turn", (1.02, 0.12), (1.02, 0.25), 1.0),
    ("line", (1.02, 0.38), (-1.0, 0.0)),
    ("turn", (0.38, 0.38), (0.38, 0.51), -1.0),
    ("line", (0.38, 0.64), (1.0, 0.0)),
)


def _path_point(s: float) -> tuple[float, float, float, float]:
    """Point and unit direction at arc length `s` along the track."""
    for n, (kind, (x0, y0), *rest) in enumerate(SEGMENTS):
        length = ROW if kind == "line" else math.pi * TURN_RADIUS
        if s > length and n < len(SEGMENTS) - 1:
            s -= length
            continue
        if kind == "line":
            (dx, dy), = rest
            return x0 + dx * s, y0 + dy * s, dx, dy
        (cx, cy), sense = rest
        angle = -math.pi / 2 + sense * s / TURN_RADIUS       # both turns start below their centre
        x, y = cx + TURN_RADIUS * math.cos(angle), cy + TURN_RADIUS * math.sin(angle)
        return x, y, -sense * math.sin(angle), sense * math.cos(angle)
    raise AssertionError("unreachable")


@cache
def track() -> tuple[tuple[float, float, float, float], ...]:
    """(x, y, nx, ny) of holes 1-24 and the den entrance (index 25; index 0 unused), with the
    unit normal on the right of the way the moles run (the dog's side)."""
    total = 3 * ROW + 2 * math.pi * TURN_RADIUS
    spots = [(0.0, 0.0, 0.0, 0.0)]
    for n in range(1, DEN_ENTRANCE + 1):
        x, y, dx, dy = _path_point(total * (n - 1) / (DEN_ENTRANCE - 1))
        spots.append((x, y, dy, -dx))
    return tuple(spots)


def turn_outward(hole: int) -> tuple[float, float] | None:
    """For a hole on one of the half turns, the unit vector pointing away from the turn's centre
    (the dog and the hole's number go outside, its symbol inside); None for a hole on a straight
    row."""
    x, y, _, _ = track()[hole]
    for kind, start, *rest in SEGMENTS:
        if kind == "turn":
            (cx, cy), _ = rest
            distance = math.hypot(x - cx, y - cy)
            if abs(distance - TURN_RADIUS) < 1e-6 and abs(y - start[1]) > 1e-6 \
                    and abs(y - (2 * cy - start[1])) > 1e-6:
                return (x - cx) / distance, (y - cy) / distance
    return None


HAYSTACK_CENTRE, HAYSTACK_RADIUS = (0.175, 0.185), 0.155


def haystack_spots(count: int) -> list[tuple[float, float]]:
    """Where the moles of the haystack's numbered spots stand: an outer ring and an inner one."""
    inner = count // 3
    outer = count - inner
    cx, cy = HAYSTACK_CENTRE
    spots = []
    for n in range(outer):
        a = math.radians(90 - 360 * n / outer)
        spots.append((cx + 0.11 * math.cos(a), cy + 0.11 * math.sin(a)))
    for n in range(inner):
        a = math.radians(45 - 360 * n / inner)
        spots.append((cx + 0.045 * math.cos(a), cy + 0.045 * math.sin(a)))
    return spots


def den_centre(clan: int, players: int) -> tuple[float, float]:
    step = 0.18
    top = 0.66 - (4 - players) * step / 2
    return 1.37, top - clan * step


# --- pictures (made once per process) -------------------------------------------------------------

class _Images:
    cache: dict[str, Any] = {}

    @classmethod
    def get(cls, name: str) -> Any:
        if name not in cls.cache:
            cls.cache[name] = cls._make(name)
        return cls.cache[name]

    @staticmethod
    def _make(name: str) -> Any:
        if name == "meadow":
            return to_image(art.meadow_pixels(600, 400))
        painters = {"hole": art.hole_pixels, "haystack": art.haystack_pixels, "den": art.den_pixels,
                    "mole": art.mole_pixels, "dog": art.dog_pixels, "shadow": art.shadow_pixels,
                    "ring": art.ring_pixels, "ring-hover": lambda: art.ring_pixels(colour=(255, 255, 255))}
        if name in painters:
            return centred(to_image(painters[name]()))
        if name in SYMBOL_NAMES:
            return centred(to_image(art.SYMBOL_PAINTERS[SYMBOL_NAMES.index(name)]()))
        return centred(to_image(art.CLAN_PAINTERS[CLANS.index(name)]()))


def _sprite(image: str, batch: Batch, group: Group) -> sprite.Sprite:
    return sprite.Sprite(_Images.get(image), batch=batch, group=group)


def _natural(item: sprite.Sprite) -> tuple[float, float]:
    """The sprite's image size in pixels, whatever its scale."""
    scale = item.scale or 1.0
    return item.width / (scale * item.scale_x), item.height / (scale * item.scale_y)


def _fit(item: sprite.Sprite, x: float, y: float, width: float) -> None:
    item.update(x=x, y=y, scale=width / _natural(item)[0])


# --- the dice's faces ------------------------------------------------------------------------------

def _circle(x: float, y: float, r: float, colour: tuple, batch: Batch, group: Group) -> Mark:
    return Mark(shapes.Circle(0, 0, r, color=colour, batch=batch, group=group), x, y)


def _ellipse(x: float, y: float, a: float, b: float, colour: tuple, batch: Batch, group: Group) -> Mark:
    # pyglet gives a tiny ellipse (a die face in a small window) no segments and divides by zero
    segments = max(12, int(max(a, b) / 1.25))
    return Mark(shapes.Ellipse(0, 0, a, b, segments=segments, color=colour, batch=batch, group=group), x, y)


def _mole_marks(x: float, y: float, scale: float, batch: Batch, group: Group) -> list[Mark]:
    return [_ellipse(x, y, 0.16 * scale, 0.22 * scale, (70, 60, 58), batch, group),
            _circle(x, y + 0.22 * scale, 0.06 * scale, (232, 150, 156), batch, group),
            _ellipse(x - 0.15 * scale, y + 0.08 * scale, 0.07 * scale, 0.045 * scale, (232, 150, 156), batch, group),
            _ellipse(x + 0.15 * scale, y + 0.08 * scale, 0.07 * scale, 0.045 * scale, (232, 150, 156), batch, group)]


def _dog_marks(x: float, y: float, scale: float, batch: Batch, group: Group) -> list[Mark]:
    return [_ellipse(x - 0.15 * scale, y + 0.02 * scale, 0.07 * scale, 0.15 * scale, (140, 90, 50), batch, group),
            _ellipse(x + 0.15 * scale, y + 0.02 * scale, 0.07 * scale, 0.15 * scale, (140, 90, 50), batch, group),
            _circle(x, y, 0.17 * scale, (214, 176, 118), batch, group),
            _circle(x, y - 0.1 * scale, 0.05 * scale, (24, 20, 20), batch, group),
            _circle(x - 0.06 * scale, y + 0.05 * scale, 0.025 * scale, (24, 20, 20), batch, group),
            _circle(x + 0.06 * scale, y + 0.05 * scale, 0.025 * scale, (24, 20, 20), batch, group)]


def figure_painter(face: int, size: float, batch: Batch, group: Group, style: DieStyle,
                   marked: bool = False) -> list[Mark]:
    """The figure die: faces 1-6 are a small, a medium and a large mole, any mole (three moles),
    the dog, and the dog or any mole."""
    figure = face - 1
    if figure < ANY:
        return _mole_marks(0, -0.02 * size, size * (0.75, 1.0, 1.3)[figure], batch, group)
    if figure == ANY:
        return [*_mole_marks(-0.24 * size, -0.14 * size, size * 0.6, batch, group),
                *_mole_marks(0.0, 0.16 * size, size * 0.6, batch, group),
                *_mole_marks(0.24 * size, -0.14 * size, size * 0.6, batch, group)]
    if figure == DOG:
        return _dog_marks(0, 0, size * 1.4, batch, group)
    return [*_dog_marks(-0.18 * size, 0.14 * size, size * 0.85, batch, group),
            *_mole_marks(0.2 * size, -0.16 * size, size * 0.8, batch, group)]


def symbol_painter(face: int, size: float, batch: Batch, group: Group, style: DieStyle,
                   marked: bool = False) -> list[Mark]:
    """The symbol die: faces 1-2 a flower, 3-4 a leaf, 5-6 a four-leaf clover."""
    symbol = (face - 1) // 2
    marks: list[Mark] = []
    if symbol == 0:
        for n in range(5):
            a = math.radians(90 + 72 * n)
            marks.append(_circle(0.17 * size * math.cos(a), 0.17 * size * math.sin(a), 0.13 * size,
                                 (236, 120, 170), batch, group))
        marks.append(_circle(0, 0, 0.1 * size, (246, 196, 40), batch, group))
    elif symbol == 1:
        marks.append(_ellipse(0, 0, 0.17 * size, 0.32 * size, (76, 156, 56), batch, group))
        marks.append(_ellipse(0, 0, 0.018 * size, 0.28 * size, (160, 214, 120), batch, group))
    else:
        for dx, dy in ((-1, 1), (1, 1), (-1, -1), (1, -1)):
            marks.append(_circle(dx * 0.12 * size, dy * 0.12 * size, 0.12 * size, (48, 140, 60), batch, group))
        marks.append(_circle(0, 0, 0.05 * size, (30, 100, 40), batch, group))
    return marks


def symbol_face(symbol: int) -> int:
    return 2 * symbol + 1


# --- words -----------------------------------------------------------------------------------------

def roll_words(figure: int, symbol: int) -> str:
    return f"{FIGURE_NAMES[figure]} + {SYMBOL_NAMES[symbol]}"


def turn_sentence(state: BuddelState, seat_name: str) -> str:
    """One line for a finished turn: the roll(s) and what was done."""
    if not state.last_turn:
        return ""
    seat, rolls, move, looked = state.last_turn
    rolled = roll_words(*rolls[-1]) if rolls else "?"
    again = f" (rolled {len(rolls) - 1} more time{'s' if len(rolls) > 2 else ''}: nothing could move)" \
        if len(rolls) > 1 else ""
    if not move:
        did = "did nothing"
    elif move[0] == "decline":
        did = "declined to bring an opponent's mole home"
    elif move[0] == "dog":
        did = f"sent the dog from hole {move[1]} to hole {move[2]}"
    else:
        _, mole, start, target, clan = move
        size = SIZES[state.size[mole]]
        where = "the haystack" if start == HAYSTACK else f"hole {start}"
        if target == DEN_ENTRANCE:
            did = f"ran the {size} mole from {where} home: {CLAN_SINGULAR[clan]}, into the {CLANS[clan]}' den"
        else:
            did = f"ran the {size} mole from {where} to hole {target}" + (", looked under it" if looked else "")
    return f"{seat_name}: {rolled}{again}; {did}."


class BuddelView(GameView[BuddelState]):
    state_class = BuddelState
    rules_summary = (
        "Each player owns a clan of moles (ladybirds, ants, worms, snails): a small, a medium and "
        "a large one. From above all moles of a size look alike: the clan is hidden underneath.\n"
        "Roll both dice. The figure die says which mole (a size, any mole), or the dog, or "
        "either; the symbol die says flower, leaf or clover. A mole runs to the nearest FREE hole "
        "ahead with that symbol (occupied ones are skipped); with none left it reaches the den "
        "entrance and goes, turned over, into its clan's den, whoever moved it. The dog goes "
        "beside any other hole with the symbol, forward or back; the mole beside it cannot move.\n"
        "Moving is compulsory; when nothing of the rolled size can move you roll again. Only when "
        "every move would bring home a mole you KNOW is an opponent's may you decline.\n"
        "After moving a mole you may look under it, secretly: remember what you saw.\n"
        "The clan whose third mole enters its den wins, on whoever's turn it happens.")
    controls = (("Left click", "move a lit mole, or send the dog to a lit spot"),
                ("Hover", "see where a mole or the dog would go"),
                ("Tab, Enter", "go through the lit moves (Shift+Tab back), make the one shown"),
                ("L / N", "look under the mole you moved / do not look"),
                ("Enter", "done (after a look)"),
                ("D", "decline (when every move would bring an opponent's mole home)"))

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        batch = self.batch
        state = self.state
        self.players = state.num_players
        self.unit = 100.0
        self.origin = (0.0, 0.0)
        self.meadow = _sprite("meadow", batch, G_MEADOW)
        self.board_shadow = shapes.Rectangle(0, 0, 1, 1, color=(0, 0, 0, 90), batch=batch, group=G_MEADOW)
        self.board_shadow.visible = True
        self.frame = shapes.Box(0, 0, 1, 1, thickness=4, color=(70, 52, 30, 255), batch=batch, group=G_TRAIL)
        self.trail: list[shapes.Circle] = []
        self.haystack = _sprite("haystack", batch, G_TRAIL)
        self.spot_labels = [label(str(n + 1), size=8, batch=batch, group=G_SYMBOLS, color=(92, 64, 20, 255),
                                  anchor_x="center", anchor_y="center") for n in range(3 * self.players)]
        self.holes = [_sprite("hole", batch, G_HOLES) for _ in range(DEN_ENTRANCE + 1)]
        self.symbols = [_sprite(SYMBOL_NAMES[HOLE_SYMBOL[h]], batch, G_MARKS) for h in range(1, HOLES + 1)]
        self.entrance_symbols = [_sprite(name, batch, G_SYMBOLS) for name in SYMBOL_NAMES]
        self.hole_numbers = [label(str(h), size=8, batch=batch, group=G_SYMBOLS, color=(236, 240, 220, 220),
                                   anchor_x="center", anchor_y="center") for h in range(1, HOLES + 1)]
        self.dens = [_sprite("den", batch, G_HOLES) for _ in range(self.players)]
        self.den_badges = [_sprite(CLANS[c], batch, G_SYMBOLS) for c in range(self.players)]
        self.den_names = [label(CLANS[c].capitalize(), size=10, batch=batch, group=G_TEXT, color=TEXT,
                                anchor_x="center", anchor_y="top", bold=True) for c in range(self.players)]
        count = 3 * self.players
        self.mole_shadows = [_sprite("shadow", batch, G_MOLE_SHADOW) for _ in range(count)]
        self.moles = [_sprite("mole", batch, G_MOLES) for _ in range(count)]
        self.turned = [_sprite(CLANS[0], batch, G_MOLES) for _ in range(count)]   # moles home, turned over
        self.own_marks = [_sprite(CLANS[0], batch, G_MARKS) for _ in range(count)]
        self.dog_shadow = _sprite("shadow", batch, G_DOG)
        self.dog = _sprite("dog", batch, G_DOG)
        self.lights: list[sprite.Sprite] = []
        self.ghost = _sprite("mole", batch, G_GHOST)
        self.ghost.opacity = 130
        self.ghost_line = shapes.Line(0, 0, 1, 1, thickness=3, color=(255, 244, 190, 200), batch=batch, group=G_GHOST)
        self.hover_ring = _sprite("ring-hover", batch, G_GHOST)
        # the dice tray
        self.tray = shapes.RoundedRectangle(0, 0, 1, 1, radius=10, segments=6, color=(104, 70, 40, 235),
                                            batch=batch, group=G_TRAY)
        self.tray_felt = shapes.RoundedRectangle(0, 0, 1, 1, radius=8, segments=6, color=(40, 86, 60, 255),
                                                 batch=batch, group=G_TRAY)
        self.figure_die = Die(batch, G_DICE, size=40, face=1, painter=figure_painter)
        self.symbol_die = Die(batch, G_DICE, size=40, face=1, painter=symbol_painter)
        self.roll_label = label("", size=10, batch=batch, group=G_TEXT, color=TEXT, anchor_x="center",
                                anchor_y="top")
        # the action card: prompt, buttons, the peek
        self.card = shapes.RoundedRectangle(0, 0, 1, 1, radius=10, segments=6, color=(250, 244, 228, 235),
                                            batch=batch, group=G_CARD)
        self.card_text = label("", size=11, batch=batch, group=G_TEXT, color=INK, anchor_y="top",
                               multiline=True, width=200)
        self.peek_picture = _sprite(CLANS[0], batch, G_CARD_ART)
        self.buttons = {
            "decline": Button("Decline", lambda: self._act(DECLINE), batch, size=11, width=96, height=30,
                              group=G_CARD_ART, text_group=G_TEXT),
            "look": Button("Look (L)", lambda: self._act(LOOK_UNDER), batch, size=11, width=96, height=30,
                           primary=True, group=G_CARD_ART, text_group=G_TEXT),
            "no-look": Button("Don't (N)", lambda: self._act(NO_LOOK), batch, size=11, width=96, height=30,
                              group=G_CARD_ART, text_group=G_TEXT),
            "done": Button("Done", lambda: self._act(DONE), batch, size=11, width=96, height=30, primary=True,
                           group=G_CARD_ART, text_group=G_TEXT),
        }
        # the log of turns
        self.log_box = shapes.RoundedRectangle(0, 0, 1, 1, radius=10, segments=6, color=(20, 30, 20, 150),
                                               batch=batch, group=G_CARD)
        self.log_label = label("", size=9.5, batch=batch, group=G_TEXT, color=TEXT, anchor_y="top",
                               multiline=True, width=200)
        self.log: list[str] = []
        self.hover: Act | None = None
        self.targets: list[tuple[Act, float, float, float]] = []
        self.drawn: list[tuple[float, float]] | None = None      # where each mole is drawn now
        self.dog_drawn: tuple[float, float] | None = None
        self._roll_key: tuple = ()
        self._turns_seen = -1
        self._plies_seen = 0
        self.sync()


    # --- geometry -----------------------------------------------------------------------------
    def px(self, u: float, v: float) -> tuple[float, float]:
        return self.origin[0] + u * self.unit, self.origin[1] + v * self.unit

    def hole_xy(self, hole: int) -> tuple[float, float]:
        x, y, _, _ = track()[hole]
        return self.px(x, y)

    def dog_xy(self, hole: int) -> tuple[float, float]:
        x, y, nx, ny = track()[hole]
        # on a turn: outside it (inside, the spots beside two holes nearly meet: the dog beside
        # hole 17 looked to sit between 17 and 18)
        nx, ny = turn_outward(hole) or (nx, ny)
        return self.px(x + nx * DOG_OFFSET, y + ny * DOG_OFFSET)

    def mole_xy(self, state: BuddelState, mole: int) -> tuple[float, float]:
        position = state.pos[mole]
        if position == HAYSTACK:
            return self.px(*haystack_spots(3 * self.players)[mole])
        if position == IN_DEN:
            clan = state.clan[mole]
            slot = sorted(state.den_moles(clan)).index(mole)
            cx, cy = den_centre(clan, self.players)
            return self.px(cx + (slot - 1) * 0.052, cy - 0.01)
        return self.hole_xy(position)

    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        margin = 12
        unit = min((width - 2 * margin) / ASPECT, height - 2 * margin)
        self.unit = unit
        left = x + (width - unit * ASPECT) / 2
        bottom = y + (height - unit) / 2
        self.origin = (left, bottom)
        board_w = unit * ASPECT
        meadow_w, meadow_h = _natural(self.meadow)
        self.meadow.update(x=left, y=bottom, scale_x=board_w / meadow_w, scale_y=unit / meadow_h)
        self.board_shadow.position = (left + 7, bottom - 9)
        self.board_shadow.width, self.board_shadow.height = board_w, unit
        self.frame.position = (left, bottom)
        self.frame.width, self.frame.height = board_w, unit
        self._build_trail()
        hx, hy = self.px(*HAYSTACK_CENTRE)
        _fit(self.haystack, hx, hy, 2 * HAYSTACK_RADIUS * unit)
        for n, (sx, sy) in enumerate(haystack_spots(3 * self.players)):
            cx, cy = HAYSTACK_CENTRE
            lx, ly = cx + (sx - cx) * 1.0, cy + (sy - cy) * 1.0
            self.spot_labels[n].position = (*self.px(lx, ly - 0.038), 0)
            self.spot_labels[n].font_size = max(6.0, unit * 0.016)
        for hole in range(1, DEN_ENTRANCE + 1):
            hx, hy = self.hole_xy(hole)
            radius = HOLE_RADIUS * (1.45 if hole == DEN_ENTRANCE else 1.0)
            _fit(self.holes[hole], hx, hy, 2 * radius * unit)
            if hole <= HOLES:
                # the symbol just above the hole, its number just below (on a turn: the symbol
                # inside it, the number outside, by the dog's place)
                outward = turn_outward(hole)
                if outward is None:
                    _fit(self.symbols[hole - 1], hx, hy + 0.07 * unit, 0.042 * unit)
                    self.hole_numbers[hole - 1].position = (hx, hy - 0.058 * unit, 0)
                else:
                    ox, oy = outward
                    _fit(self.symbols[hole - 1], hx - ox * 0.072 * unit, hy - oy * 0.072 * unit, 0.042 * unit)
                    self.hole_numbers[hole - 1].position = (hx + (ox * 0.07 + oy * 0.04) * unit,
                                                            hy + (oy * 0.07 - ox * 0.04) * unit, 0)
                self.hole_numbers[hole - 1].font_size = max(6.0, unit * 0.017)
        self.holes[0].visible = False
        ex, ey = self.hole_xy(DEN_ENTRANCE)
        for n, item in enumerate(self.entrance_symbols):
            a = math.radians(90 + 120 * n)
            _fit(item, ex + 0.085 * unit * math.cos(a), ey + 0.085 * unit * math.sin(a), 0.045 * unit)
        for clan in range(self.players):
            cx, cy = self.px(*den_centre(clan, self.players))
            _fit(self.dens[clan], cx, cy, 0.17 * unit)
            _fit(self.den_badges[clan], cx - 0.1 * unit, cy + 0.045 * unit, 0.05 * unit)
            self.den_names[clan].position = (cx + 0.01 * unit, cy + 0.078 * unit, 0)
            self.den_names[clan].font_size = max(7.0, unit * 0.019)
        # the dice tray, top left; the action card beside it; the log on the right
        tx, ty = self.px(0.03, 0.74)
        self.tray.position, self.tray.width, self.tray.height = (tx, ty), 0.34 * unit, 0.22 * unit
        self.tray_felt.position = (tx + 6, ty + 6)
        self.tray_felt.width, self.tray_felt.height = 0.34 * unit - 12, 0.22 * unit - 12
        die = 0.1 * unit
        self.figure_die.place(*self.px(0.12, 0.87), size=die)
        self.symbol_die.place(*self.px(0.28, 0.87), size=die)
        self.roll_label.position = (*self.px(0.2, 0.8), 0)
        self.roll_label.font_size = max(7.0, unit * 0.019)
        cx, cy = self.px(0.4, 0.76)
        self.card.position, self.card.width, self.card.height = (cx, cy), 0.46 * unit, 0.21 * unit
        self.card_text.position = (cx + 12, cy + 0.21 * unit - 10, 0)
        self.card_text.width = int(0.46 * unit - 24)
        self.card_text.font_size = max(8.0, unit * 0.02)
        self.log_box.position = self.px(0.9, 0.76)
        self.log_box.width, self.log_box.height = 0.57 * unit, 0.21 * unit
        lx, ly = self.px(0.9, 0.97)
        self.log_label.position = (lx + 10, ly - 8, 0)
        self.log_label.width = int(0.57 * unit - 20)
        self.log_label.font_size = max(7.0, unit * 0.0165)
        self._fit_log()
        self.drawn = None
        self.dog_drawn = None
        self.sync()

    def _build_trail(self) -> None:
        for dot in self.trail:
            dot.delete()
        self.trail = []
        points = [self.px(HAYSTACK_CENTRE[0] + 0.12, 0.16)] + [self.hole_xy(h) for h in range(1, DEN_ENTRANCE + 1)]
        radius = 0.03 * self.unit
        pairs = list(zip(points, points[1:], strict=False))
        entrance = self.hole_xy(DEN_ENTRANCE)
        pairs += [(entrance, self.px(*den_centre(clan, self.players))) for clan in range(self.players)]
        for (x0, y0), (x1, y1) in pairs:
            steps = max(2, int(math.hypot(x1 - x0, y1 - y0) / (radius * 0.5)))
            for n in range(steps):
                t = n / steps
                self.trail.append(shapes.Circle(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, radius,
                                                color=(150, 118, 74, 150), batch=self.batch, group=G_TRAIL))

    # --- following the game ---------------------------------------------------------------------
    def sync(self) -> None:
        state = self.state
        plies = self.controller.ply()
        if plies < self._plies_seen or self._turns_seen < 0 or state.turns < self._turns_seen:
            self.log = []                       # an undo or a load: start the log afresh
            self._turns_seen = state.turns - 1 if state.last_turn else state.turns
        self._plies_seen = plies
        if state.turns != self._turns_seen and state.last_turn:
            seat = state.last_turn[0]
            who = self.context.controller.info.seat_name(seat)
            if self.controller.seats[seat].is_computer:
                who += " (computer)"
            self.log = (self.log + [turn_sentence(state, who)])[-LOG_LINES:]
            self._turns_seen = state.turns
        self._fit_log()
        self._sync_dice(state)
        self._sync_pieces(state)
        self._sync_card(state)
        self._sync_targets(state)
        self._refresh_hover()

    def _sync_dice(self, state: BuddelState) -> None:
        rolls = state.turn_rolls
        shown_roll = rolls[-1] if rolls else (state.last_turn[1][-1] if state.last_turn and state.last_turn[1] else None)
        key_now = (state.turns, len(rolls))
        if shown_roll is None:
            self.roll_label.text = "Roll to start"
            return
        figure, symbol = shown_roll
        if key_now != self._roll_key and rolls:
            self._roll_key = key_now
            seed = state.turns * 31 + len(rolls)
            fx, fy = self.figure_die.x, self.figure_die.y
            self.figure_die.throw(figure + 1, seconds=0.7, start=(fx - 0.12 * self.unit, fy - 0.02 * self.unit),
                                  seed=seed)
            self.symbol_die.throw(symbol_face(symbol), seconds=0.75,
                                  start=(self.symbol_die.x - 0.2 * self.unit, self.symbol_die.y + 0.03 * self.unit),
                                  seed=seed + 1)
        elif not self.figure_die.rolling:
            self.figure_die.show(figure + 1)
            self.symbol_die.show(symbol_face(symbol))
        rolled_again = f"  (roll {len(rolls)})" if len(rolls) > 1 else ""
        self.roll_label.text = roll_words(figure, symbol) + rolled_again

    def _sync_pieces(self, state: BuddelState) -> None:
        targets = [self.mole_xy(state, m) for m in range(len(state.pos))]
        if self.drawn is None or len(self.drawn) != len(targets):
            self.drawn = list(targets)
        viewer = self.context.viewer()
        first_round = state.know_own and viewer is not None and state.turns < state.num_players
        for mole in range(len(state.pos), len(self.moles)):      # not on the haystack yet
            self.moles[mole].visible = self.mole_shadows[mole].visible = False
            self.turned[mole].visible = self.own_marks[mole].visible = False
        for mole in range(len(state.pos)):
            home = state.pos[mole] == IN_DEN
            self.moles[mole].visible = self.mole_shadows[mole].visible = not home
            turned = self.turned[mole]
            turned.visible = home
            if home:
                turned.image = _Images.get(CLANS[state.clan[mole]])
            mark = self.own_marks[mole]
            mark.visible = bool(first_round and state.clan[mole] == viewer and state.pos[mole] == HAYSTACK)
            if mark.visible:
                mark.image = _Images.get(CLANS[state.clan[mole]])
            self._place_mole(mole, *self.drawn[mole], state)
        self._target_xy = targets
        dog_target = self.dog_xy(state.dog)
        if self.dog_drawn is None:
            self.dog_drawn = dog_target
        self._dog_target = dog_target
        self._place_dog(*self.dog_drawn)

    def _place_mole(self, mole: int, x: float, y: float, state: BuddelState) -> None:
        width = MOLE_WIDTH[state.size[mole]] * self.unit
        _fit(self.moles[mole], x, y, width)
        _fit(self.mole_shadows[mole], x + 0.008 * self.unit, y - 0.012 * self.unit, width * 0.9)
        _fit(self.turned[mole], x, y, 0.048 * self.unit)
        _fit(self.own_marks[mole], x + width * 0.35, y + width * 0.3, 0.04 * self.unit)

    def _place_dog(self, x: float, y: float) -> None:
        _fit(self.dog, x, y, DOG_WIDTH * self.unit)
        _fit(self.dog_shadow, x + 0.01 * self.unit, y - 0.014 * self.unit, DOG_WIDTH * self.unit * 0.9)

    def update(self, dt: float) -> None:
        self.figure_die.update(dt)
        self.symbol_die.update(dt)
        state = self.state
        if self.drawn is not None and getattr(self, "_target_xy", None) is not None:
            pull = 1.0 - math.exp(-MOLE_GLIDE * dt)
            for mole, (tx, ty) in enumerate(self._target_xy):
                x, y = self.drawn[mole]
                if (x, y) != (tx, ty):
                    if abs(tx - x) + abs(ty - y) < 0.5:
                        x, y = tx, ty
                    else:
                        x, y = x + (tx - x) * pull, y + (ty - y) * pull
                    self.drawn[mole] = (x, y)
                    if mole < len(state.pos):
                        self._place_mole(mole, x, y, state)
        if self.dog_drawn is not None and self.dog_drawn != self._dog_target:
            (x, y), (tx, ty) = self.dog_drawn, self._dog_target
            pull = 1.0 - math.exp(-MOLE_GLIDE * 0.7 * dt)
            self.dog_drawn = (tx, ty) if abs(tx - x) + abs(ty - y) < 0.5 else (x + (tx - x) * pull, y + (ty - y) * pull)
            self._place_dog(*self.dog_drawn)

    def _fit_log(self) -> None:
        """The last turns that fit in the log's box, the newest always (older ones drop first)."""
        shown = list(self.log)
        self.log_label.text = "\n".join(shown) or "Each turn is told here."
        while len(shown) > 1 and self.log_label.content_height > self.log_box.height - 12:
            shown = shown[1:]
            self.log_label.text = "\n".join(shown)

    # --- the action card --------------------------------------------------------------------------

    def _sync_card(self, state: BuddelState) -> None:
        for button in self.buttons.values():
            button.set_visible(False)
        self.peek_picture.visible = False
        cx, cy = self.card.x, self.card.y
        row = cy + 10
        person = self.may_act()
        name = self.controller.info.seat_name
        if state.phase == OVER:
            text = f"The {CLANS[state.winner]} are all home: {name(state.winner)} win!"
        elif not person:
            player = state.current_player()
            text = f"{name(player)} to play." if player >= 0 else "Rolling..."
        elif state.phase == MOVE:
            text = self._move_prompt(state)
            if state.may_decline():
                self.buttons["decline"].place(cx + 12, row)
                self.buttons["decline"].set_visible(True)
        elif state.phase == LOOK:
            mole = state.moved
            # 'your' only when this seat knows it is (any mole may be moved)
            whose = "Your" if state.clan[mole] == state.to_move else "The"
            text = (f"{whose} {SIZES[state.size[mole]]} mole ran to hole {state.pos[mole]}. Look under it, "
                    f"secretly?")
            self.buttons["look"].place(cx + 12, row)
            self.buttons["no-look"].place(cx + 120, row)
            self.buttons["look"].set_visible(True)
            self.buttons["no-look"].set_visible(True)
        elif state.phase == PEEK:
            mole = state.moved
            clan = state.clan[mole]
            whose = "yours!" if clan == state.to_move else f"{name(clan)}' mole." if clan >= 0 else "?"
            text = (f"Only you see this: under the {SIZES[state.size[mole]]} mole on hole {state.pos[mole]} "
                    f"is {'an' if clan == 1 else 'a'} {CLAN_SINGULAR[clan] if clan >= 0 else '?'}: {whose}\n"
                    f"Remember it.")
            if clan != UNKNOWN:
                self.peek_picture.image = _Images.get(CLANS[clan])
                _fit(self.peek_picture, cx + self.card.width - 0.06 * self.unit, cy + 0.065 * self.unit,
                     0.1 * self.unit)
                self.peek_picture.visible = True
            self.buttons["done"].place(cx + 12, row)
            self.buttons["done"].set_visible(True)
        else:
            text = ""
        self.card_text.text = text

    def _move_prompt(self, state: BuddelState) -> str:
        rolled = roll_words(state.figure, state.symbol)
        if state.figure == DOG:
            return f"You rolled {rolled}: click a lit spot to send the dog there."
        what = "a lit mole or dog spot" if state.figure == DOG_OR_ANY else "a lit mole"
        extra = " Or decline: every move brings an opponent's mole home." if state.may_decline() else ""
        return f"You rolled {rolled}: click {what} to move it.{extra}"

    # --- targets, hover, clicks ---------------------------------------------------------------------
    def _sync_targets(self, state: BuddelState) -> None:
        for light in self.lights:
            light.delete()
        self.lights = []
        self.targets = []
        if not self.may_act() or state.phase != MOVE:
            return
        for action in state.legal_actions():
            if action.kind == "mole":
                x, y = self.mole_xy(state, action.a)
                radius = MOLE_WIDTH[state.size[action.a]] * self.unit * 0.55
            elif action.kind == "dog":
                x, y = self.dog_xy(action.a)
                radius = DOG_WIDTH * self.unit * 0.45
            else:
                continue
            self.targets.append((action, x, y, radius))
            light = _sprite("ring", self.batch, G_LIGHTS)
            _fit(light, x, y, radius * 2.6)
            light.opacity = 170 if action.kind == "mole" else 120
            self.lights.append(light)

    def _target_at(self, x: float, y: float) -> Act | None:
        best, best_d = None, math.inf
        for action, tx, ty, radius in self.targets:
            d = math.hypot(x - tx, y - ty)
            if d <= radius * 1.15 and d < best_d:
                best, best_d = action, d
        return best

    def _thing_at(self, x: float, y: float) -> Act | None:
        """Any mole or dog spot under the pointer (legal or not), for a refusal's reason."""
        state = self.state
        for mole in range(len(state.pos)):
            mx, my = self.mole_xy(state, mole)
            if math.hypot(x - mx, y - my) <= MOLE_WIDTH[state.size[mole]] * self.unit * 0.5:
                return Act("mole", mole)
        for hole in range(1, HOLES + 1):
            dx, dy = self.dog_xy(hole)
            if math.hypot(x - dx, y - dy) <= 0.035 * self.unit:
                return Act("dog", hole)
        return None

    def _refresh_hover(self) -> None:
        self.ghost.visible = self.ghost_line.visible = self.hover_ring.visible = False
        self.hint = ""
        action, state = self.hover, self.state
        if action is None or not self.may_act() or state.phase != MOVE or not state.is_legal(action):
            return
        for target, x, y, radius in self.targets:
            if target == action:
                _fit(self.hover_ring, x, y, radius * 2.8)
                self.hover_ring.visible = True
        if action.kind == "mole":
            mole = action.a
            destination = state.destination(mole, state.symbol)
            x0, y0 = self.mole_xy(state, mole)
            if destination == DEN_ENTRANCE:
                x1, y1 = self.hole_xy(DEN_ENTRANCE)
                where = "the den entrance and into its clan's den"
            else:
                x1, y1 = self.hole_xy(destination)
                where = f"hole {destination}"
            start = "the haystack" if state.pos[mole] == HAYSTACK else f"hole {state.pos[mole]}"
            self.hint = f"Mole {mole + 1} ({SIZES[state.size[mole]]}): from {start} to {where}"
            self.ghost.image = _Images.get("mole")
            _fit(self.ghost, x1, y1, MOLE_WIDTH[state.size[mole]] * self.unit)
        else:
            x0, y0 = self.dog_xy(state.dog)
            x1, y1 = self.dog_xy(action.a)
            self.hint = f"The dog: from beside hole {state.dog} to beside hole {action.a}"
            self.ghost.image = _Images.get("dog")
            _fit(self.ghost, x1, y1, DOG_WIDTH * self.unit)
        self.ghost_line.x, self.ghost_line.y, self.ghost_line.x2, self.ghost_line.y2 = x0, y0, x1, y1
        self.ghost.visible = self.ghost_line.visible = True

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        target = self._target_at(x, y) if self.contains(x, y) else None
        if target != self.hover:
            self.hover = target
            self._refresh_hover()
        return None

    def on_mouse_leave(self, x: int, y: int) -> bool | None:
        self.hover = None
        self._refresh_hover()
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button != mouse.LEFT or not self.enabled or not self.contains(x, y):
            return None
        for item in self.buttons.values():
            if item.contains(x, y):
                item.click()
                return True
        action = self._target_at(x, y) or self._thing_at(x, y)
        if action is None:
            return None
        if self.controller.is_over():
            return True
        if not self.controller.is_person_turn():
            self.toast.show("wait: it is not your turn")
            return True
        self._act(action)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if not self.enabled or modifiers & (key.MOD_CTRL | key.MOD_ALT) or not self.controller.is_person_turn():
            return None
        if self.state.phase == MOVE and self.targets:
            if symbol == key.TAB:         # the keyboard's pointer: the next lit move, shown as on hover
                moves = [target[0] for target in self.targets]
                step = -1 if modifiers & key.MOD_SHIFT else 1
                index = moves.index(self.hover) if self.hover in moves else (-1 if step > 0 else 0)
                self.hover = moves[(index + step) % len(moves)]
                self._refresh_hover()
                return True
            if symbol in (key.ENTER, key.RETURN, key.SPACE, key.NUM_ENTER) and self.hover is not None:
                self._act(self.hover)
                return True
        actions = {key.L: LOOK_UNDER, key.N: NO_LOOK, key.D: DECLINE, key.ENTER: DONE, key.RETURN: DONE,
                   key.SPACE: DONE}
        if symbol in actions and self.state.phase in (MOVE, LOOK, PEEK):
            action = actions[symbol]
            if action == DONE and self.state.phase != PEEK:
                return None
            self._act(action)
            return True
        return None

    def _act(self, action: Act) -> None:
        if self.submit(action):
            self.hover = None

    # --- side panel and end screen ------------------------------------------------------------------
    def prompt(self) -> str:
        phase = self.state.phase
        if phase == MOVE:
            return "Move a lit mole or the dog (or Tab, Enter)."
        if phase == LOOK:
            return "Look under the mole you moved, or not."
        if phase == PEEK:
            return "Remember what you saw, then Done."
        return ""

    def seat_icon(self, seat: int) -> Any:
        return _Images.get(CLANS[seat])

    def seat_detail(self, seat: int) -> str:
        home = self.state.dens[seat]
        return f"{home} of 3 moles home"

    def result_text(self) -> str:
        state = self.state
        if state.winner < 0:
            return ""
        last = state.last_turn
        mover = self.controller.info.seat_name(last[0]) if last else "?"
        return (f"The {CLANS[state.winner]}' third mole went into their den on turn {state.turns}, "
                f"moved by the {mover}.")

    def describe_move(self, notation: str) -> str:
        words = notation.split()
        if words and words[0] == "arrange":
            return "arranged the haystack"
        if len(words) == 3 and words[0] == "roll" and words[1] in FIGURES:
            return f"rolled {FIGURE_NAMES[FIGURES.index(words[1])]} + {words[2]}"
        if words and words[0] == "mole":
            return f"moved mole {words[1]}"
        if words and words[0] == "dog":
            return f"sent the dog to hole {words[1]}"
        return {"no-look": "did not look", "look": "looked under the mole", "done": "ended the turn",
                "decline": "declined"}.get(notation, notation)

