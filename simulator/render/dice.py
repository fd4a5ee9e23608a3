"""Dice on a flat table, drawn with pyglet shapes: a rounded ivory body with a soft shadow and a
face (pips by default), which can tumble across the table and land on a given face.

Game-neutral: any game's view may use it. The result of a throw always comes from the caller (a
chance or outcome result of the rules); the animation only shows how the die gets there, so a
seed and the actions still replay a game exactly.

    die = Die(batch, group, size=48)
    die.place(x, y)                      # where it rests, in window pixels
    die.show(3)                          # at rest, showing 3
    die.throw(5, seconds=0.8, start=(x0, y0), seed=7)
    ...                                  # every frame: die.update(dt)  (time-driven), or
    die.set_progress(p)                  # p in 0..1, e.g. an outcome's progress (progress-driven)
    die.rolling                          # True until it has landed

Faces: a die with its own faces (colours, symbols) passes a `painter`, called as
`painter(face, size, batch, group, style, marked)` (`marked`: the view asked this die to stand
out, e.g. it shows a game's target number), which returns the face's marks, `Mark(shape, dx,
dy)`: a pyglet shape whose (x, y) is its own centre (set its anchor so), placed at the die's
centre plus (dx, dy) pixels and turned with the die. `pip_painter` (the default) draws the usual pips
of 1 to 6; `pip_positions(face)` gives their places for other drawings. `faces` says how many
faces the die has (the tumble shows faces 1..faces).

The tumble, for a progress p: the die travels from `start` to its resting place with a few
decaying hops (drawn as a larger die over a farther shadow), spins with decaying speed, and
shows a new face every quarter turn (spread evenly over the flight); it lies still on the asked face from p = SETTLE on, so the
face can be read before the animation ends. The faces shown on the way are drawn from `seed`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from pyglet import shapes
from pyglet.graphics import Batch, Group

SETTLE = 0.78               # from this progress on the die lies still, showing its result
HOPS = 3                    # bounces on the way
PIP_SPOTS = {               # pip places in units of the die's size, centre (0, 0), y up
    1: ((0.0, 0.0),),
    2: ((-0.25, 0.25), (0.25, -0.25)),
    3: ((-0.25, 0.25), (0.0, 0.0), (0.25, -0.25)),
    4: ((-0.25, 0.25), (0.25, 0.25), (-0.25, -0.25), (0.25, -0.25)),
    5: ((-0.25, 0.25), (0.25, 0.25), (0.0, 0.0), (-0.25, -0.25), (0.25, -0.25)),
    6: ((-0.25, 0.27), (0.25, 0.27), (-0.25, 0.0), (0.25, 0.0), (-0.25, -0.27), (0.25, -0.27)),
}
RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class DieStyle:
    """Colours of a die: body, its rim, the pips (or a painter's ink), the pips of a marked die
    (`Die.marked`, e.g. one showing a game's target number) and the shadow."""

    body: RGBA = (246, 240, 226, 255)
    rim: RGBA = (196, 184, 160, 255)
    pip: RGBA = (34, 30, 28, 255)
    marked_pip: RGBA = (196, 36, 40, 255)
    shadow: RGBA = (0, 0, 0, 95)


@dataclass
class Mark:
    """One drawn part of a face: a shape centred on its own (x, y), at (dx, dy) pixels from the
    die's centre before the die's turn."""

    shape: shapes.ShapeBase
    dx: float
    dy: float


FacePainter = Callable[[int, float, Batch, Group, DieStyle, bool], list[Mark]]


def pip_positions(face: int) -> tuple[tuple[float, float], ...]:
    """The pips of `face` (1-6) in units of the die's size, centre (0, 0), y up."""
    if face not in PIP_SPOTS:
        raise ValueError(f"a die with pips shows 1 to 6, not {face}")
    return PIP_SPOTS[face]


def pip_painter(face: int, size: float, batch: Batch, group: Group, style: DieStyle,
                marked: bool = False) -> list[Mark]:
    """The usual pips: round dots, the one pip of an ace a little larger."""
    radius = size * (0.12 if face == 1 else 0.085)
    colour = style.marked_pip if marked else style.pip
    return [Mark(shapes.Circle(0, 0, radius, color=colour, batch=batch, group=group),
                 fx * size, fy * size) for fx, fy in pip_positions(face)]


def tumble_faces(face: int, changes: int, seed: int, faces: int = 6) -> list[int]:
    """The faces shown during a throw that lands on `face`: `changes` faces, each different from
    the one before, the last one `face` (deterministic for the seed)."""
    rng = random.Random(seed)
    shown = [face]
    for _ in range(max(0, changes - 1)):
        options = [f for f in range(1, faces + 1) if f != shown[-1]]
        shown.append(rng.choice(options))
    return shown[::-1]


def _ease_out(t: float) -> float:
    return 1.0 - (1.0 - t) ** 3


@dataclass
class _Throw:
    face: int
    start: tuple[float, float]
    seconds: float
    spin: float                     # degrees turned in all
    end_angle: float
    faces: list[int] = field(default_factory=list)
    elapsed: float = 0.0


class Die:
    """One die in a batch: shadow, rim, body and face marks in three child groups of `group`."""

    def __init__(self, batch: Batch, group: Group | None = None, size: float = 40.0, face: int = 1,
                 painter: FacePainter | None = None, style: DieStyle | None = None,
                 faces: int = 6) -> None:
        self.batch = batch
        self.style = style or DieStyle()
        self.painter: FacePainter = painter or pip_painter
        self.faces = faces
        self._groups = tuple(Group(order=n, parent=group) for n in range(4))   # shadow, rim, body, marks
        self.x = self.y = 0.0
        self.size = size
        self.face = face
        self.marked = False            # draw the face's marks in the style's marked colour
        self.angle = 0.0               # clockwise degrees
        self._lift = 0.0               # 0 on the table; up to ~1 in a hop
        self._mark_key: tuple[int, float, bool] | None = None
        self._throw: _Throw | None = None
        self._draw_at: tuple[float, float] | None = None     # where a throw has it now
        self._drawn_size: float | None = None
        self._visible = True
        self._opacity = 255
        self.shadow = shapes.RoundedRectangle(0, 0, size, size, radius=size * 0.2, segments=6,
                                              color=self.style.shadow, batch=batch, group=self._groups[0])
        self.rim = shapes.RoundedRectangle(0, 0, size, size, radius=size * 0.2, segments=6,
                                           color=self.style.rim, batch=batch, group=self._groups[1])
        self.body = shapes.RoundedRectangle(0, 0, size, size, radius=size * 0.18, segments=6,
                                            color=self.style.body, batch=batch, group=self._groups[2])
        self.marks: list[Mark] = []
        self._draw()

    # --- placing and showing --------------------------------------------------------------------
    @property
    def rolling(self) -> bool:
        """True while a throw is under way (until it has landed)."""
        return self._throw is not None

    @property
    def visible(self) -> bool:
        return self._visible

    @visible.setter
    def visible(self, value: bool) -> None:
        self._visible = value
        for shape in self._shapes():
            shape.visible = value

    @property
    def opacity(self) -> int:
        return self._opacity

    @opacity.setter
    def opacity(self, value: int) -> None:
        self._opacity = max(0, min(255, int(value)))
        self._draw()

    def place(self, x: float, y: float, size: float | None = None) -> None:
        """Where the die rests (its centre, window pixels), and optionally its size."""
        self.x, self.y = x, y
        if size is not None:
            self.size = size
        self._draw()

    def show(self, face: int, angle: float | None = None, marked: bool | None = None) -> None:
        """Lie still showing `face` (ends any throw)."""
        self._check_face(face)
        self._throw = None
        self.face, self._lift, self._draw_at = face, 0.0, None
        if angle is not None:
            self.angle = angle
        if marked is not None:
            self.marked = marked
        self._draw()

    def throw(self, face: int, seconds: float = 0.8, start: tuple[float, float] | None = None,
              seed: int = 0) -> None:
        """Start a throw that travels from `start` (default: where it lies) to its resting place
        and lands showing `face`; advance it with update(dt) or set_progress(p)."""
        self._check_face(face)
        rng = random.Random(seed)
        spin = rng.uniform(540.0, 900.0) * rng.choice((-1.0, 1.0))
        end_angle = rng.uniform(-14.0, 14.0)
        changes = max(2, int(abs(spin) / 90.0))
        self._throw = _Throw(face, start or (self.x, self.y), max(0.0, seconds), spin, end_angle,
                             tumble_faces(face, changes, rng.randrange(2**31), self.faces))
        self.set_progress(0.0)

    def update(self, dt: float) -> None:
        """Advance a time-driven throw by `dt` seconds."""
        throw = self._throw
        if throw is None:
            return
        throw.elapsed += dt
        self.set_progress(1.0 if throw.seconds <= 0 else throw.elapsed / throw.seconds)

    def set_progress(self, progress: float) -> None:
        """Show the throw at `progress` (0..1); at 1 the die has landed and the throw ends."""
        throw = self._throw
        if throw is None:
            return
        p = max(0.0, min(1.0, progress))
        travel = min(1.0, p / SETTLE)
        eased = _ease_out(travel)
        x0, y0 = throw.start
        self._draw_at = (x0 + (self.x - x0) * eased, y0 + (self.y - y0) * eased)
        self._lift = abs(math.sin(math.pi * HOPS * travel)) * (1.0 - travel) ** 1.5
        self.angle = throw.end_angle + throw.spin * (1.0 - eased)
        # a new face every quarter turn, spread evenly over the flight (the last one from ~80 %)
        index = min(len(throw.faces) - 1, int(travel * len(throw.faces) * 1.25))
        self.face = throw.faces[-1] if travel >= 1.0 else throw.faces[index]
        if p >= 1.0:
            self._throw = None
            self._lift = 0.0
            self._draw_at = None
        self._draw()

    def delete(self) -> None:
        for shape in self._shapes():
            shape.delete()
        self.marks = []

    # --- drawing ---------------------------------------------------------------------------------
    @staticmethod
    def _check_face(face: int) -> None:
        if not isinstance(face, int) or face < 1:
            raise ValueError(f"a die has no face {face!r}")

    def _shapes(self) -> list[shapes.ShapeBase]:
        return [self.shadow, self.rim, self.body, *(mark.shape for mark in self.marks)]

    def _repaint(self, size: float) -> None:
        key = (self.face, round(size, 1), self.marked)
        if key == self._mark_key:
            return
        for mark in self.marks:
            mark.shape.delete()
        self.marks = self.painter(self.face, size, self.batch, self._groups[3], self.style, self.marked)
        self._mark_key = key
        for mark in self.marks:
            mark.shape.visible = self._visible

    def _draw(self) -> None:
        cx, cy = self._draw_at or (self.x, self.y)
        scale = 1.0 + 0.3 * self._lift
        size = self.size * scale
        angle = self.angle
        offset = self.size * (0.07 + 0.35 * self._lift)
        for shape, inset, radius in ((self.shadow, 0.0, 0.2), (self.rim, 0.0, 0.2), (self.body, 0.045, 0.17)):
            if size != self._drawn_size:
                side = size * (1.0 - 2 * inset)
                shape.width = shape.height = side
                shape.radius = side * radius
                shape.anchor_position = (side / 2, side / 2)
            if shape.rotation != angle:
                shape.rotation = angle
            shape.position = (cx, cy)
        self._drawn_size = size
        self.shadow.position = (cx + offset, cy - offset)
        shadow = self.style.shadow
        self.shadow.color = (*shadow[:3], int(shadow[3] * (1.0 - 0.45 * self._lift) * self._opacity / 255))
        if self.body.opacity != self._opacity:
            self.rim.opacity = self.body.opacity = self._opacity
        self._repaint(size)
        theta = math.radians(angle)
        cos, sin = math.cos(theta), math.sin(theta)
        for mark in self.marks:
            # pyglet turns shapes clockwise: a point (dx, dy) goes to (dx cos + dy sin, dy cos - dx sin)
            mx, my = mark.dx, mark.dy
            mark.shape.position = (cx + mx * cos + my * sin, cy + my * cos - mx * sin)
            if mark.shape.rotation != angle:
                mark.shape.rotation = angle
            if mark.shape.opacity != self._opacity:
                mark.shape.opacity = self._opacity
