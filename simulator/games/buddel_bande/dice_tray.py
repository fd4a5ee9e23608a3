"""Buddel Bande's two dice in their tray (simulator/render/dice.py, with faces painted here): the
figure die (a small, a medium and a large mole, any mole, the dog, the dog or any mole) and the
symbol die (flower, leaf, four-leaf clover, each twice), thrown when a roll comes in, and the
roll in words under them.
"""

from __future__ import annotations

import math

from pyglet import shapes
from pyglet.graphics import Batch, Group

from simulator.games.buddel_bande import art
from simulator.games.buddel_bande.board import Board
from simulator.games.buddel_bande.layers import G_DICE, G_TEXT, G_TRAY
from simulator.games.buddel_bande.rules import ANY, DOG, BuddelState
from simulator.games.buddel_bande.words import roll_words
from simulator.render.dice import Die, DieStyle, Mark
from simulator.render.widgets import label

# --- the dice's faces --------------------------------------------------------------------------------


def circle(x: float, y: float, r: float, colour: tuple, batch: Batch, group: Group) -> Mark:
    """A disc of a die's face, centred (x, y) from the face's middle."""
    return Mark(shapes.Circle(0, 0, r, color=colour, batch=batch, group=group), x, y)


def ellipse(x: float, y: float, a: float, b: float, colour: tuple, batch: Batch, group: Group) -> Mark:
    """An ellipse of a die's face (half axes a, b), drawable however small the die is."""
    # pyglet gives a tiny ellipse (a die face in a small window) no segments and divides by zero
    segments = max(12, int(max(a, b) / 1.25))
    return Mark(shapes.Ellipse(0, 0, a, b, segments=segments, color=colour, batch=batch, group=group), x, y)


def _mole_marks(x: float, y: float, scale: float, batch: Batch, group: Group) -> list[Mark]:
    return [ellipse(x, y, 0.16 * scale, 0.22 * scale, (70, 60, 58), batch, group),
            circle(x, y + 0.22 * scale, 0.06 * scale, (232, 150, 156), batch, group),
            ellipse(x - 0.15 * scale, y + 0.08 * scale, 0.07 * scale, 0.045 * scale, (232, 150, 156), batch, group),
            ellipse(x + 0.15 * scale, y + 0.08 * scale, 0.07 * scale, 0.045 * scale, (232, 150, 156), batch, group)]


def _dog_marks(x: float, y: float, scale: float, batch: Batch, group: Group) -> list[Mark]:
    return [ellipse(x - 0.15 * scale, y + 0.02 * scale, 0.07 * scale, 0.15 * scale, (140, 90, 50), batch, group),
            ellipse(x + 0.15 * scale, y + 0.02 * scale, 0.07 * scale, 0.15 * scale, (140, 90, 50), batch, group),
            circle(x, y, 0.17 * scale, (214, 176, 118), batch, group),
            circle(x, y - 0.1 * scale, 0.05 * scale, (24, 20, 20), batch, group),
            circle(x - 0.06 * scale, y + 0.05 * scale, 0.025 * scale, (24, 20, 20), batch, group),
            circle(x + 0.06 * scale, y + 0.05 * scale, 0.025 * scale, (24, 20, 20), batch, group)]


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
            marks.append(circle(0.17 * size * math.cos(a), 0.17 * size * math.sin(a), 0.13 * size,
                                (236, 120, 170), batch, group))
        marks.append(circle(0, 0, 0.1 * size, (246, 196, 40), batch, group))
    elif symbol == 1:
        marks.append(ellipse(0, 0, 0.17 * size, 0.32 * size, (76, 156, 56), batch, group))
        marks.append(ellipse(0, 0, 0.018 * size, 0.28 * size, (160, 214, 120), batch, group))
    else:
        for dx, dy in ((-1, 1), (1, 1), (-1, -1), (1, -1)):
            marks.append(circle(dx * 0.12 * size, dy * 0.12 * size, 0.12 * size, (48, 140, 60), batch, group))
        marks.append(circle(0, 0, 0.05 * size, (30, 100, 40), batch, group))
    return marks


def symbol_face(symbol: int) -> int:
    """The symbol die's face that shows `symbol` (the first of its two)."""
    return 2 * symbol + 1


# --- the tray ----------------------------------------------------------------------------------------

class DiceTray:
    """The tray, top left on the board, its two dice and the roll in words."""

    def __init__(self, batch: Batch) -> None:
        self.tray = shapes.RoundedRectangle(0, 0, 1, 1, radius=10, segments=6, color=(104, 70, 40, 235),
                                            batch=batch, group=G_TRAY)
        self.felt = shapes.RoundedRectangle(0, 0, 1, 1, radius=8, segments=6, color=(40, 86, 60, 255),
                                            batch=batch, group=G_TRAY)
        self.figure_die = Die(batch, G_DICE, size=40, face=1, painter=figure_painter)
        self.symbol_die = Die(batch, G_DICE, size=40, face=1, painter=symbol_painter)
        self.roll_label = label("", size=10, batch=batch, group=G_TEXT, color=art.TEXT, anchor_x="center",
                                anchor_y="top")
        self._roll_key: tuple = ()          # the roll last thrown: (turn, rolls this turn)

    def place(self, board: Board) -> None:
        unit = board.unit
        tx, ty = board.px(0.03, 0.74)
        self.tray.position, self.tray.width, self.tray.height = (tx, ty), 0.34 * unit, 0.22 * unit
        self.felt.position = (tx + 6, ty + 6)
        self.felt.width, self.felt.height = 0.34 * unit - 12, 0.22 * unit - 12
        die = 0.1 * unit
        self.figure_die.place(*board.px(0.12, 0.87), size=die)
        self.symbol_die.place(*board.px(0.28, 0.87), size=die)
        self.roll_label.position = (*board.px(0.2, 0.8), 0)
        self.roll_label.font_size = max(7.0, unit * 0.019)

    def show(self, state: BuddelState, unit: float) -> None:
        """The roll of this turn (else the last turn's): thrown if it is new, else lying; `unit`
        is the board's pixels per board height (how far the dice fly)."""
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
            self.figure_die.throw(figure + 1, seconds=0.7, start=(fx - 0.12 * unit, fy - 0.02 * unit),
                                  seed=seed)
            self.symbol_die.throw(symbol_face(symbol), seconds=0.75,
                                  start=(self.symbol_die.x - 0.2 * unit, self.symbol_die.y + 0.03 * unit),
                                  seed=seed + 1)
        elif not self.figure_die.rolling:
            self.figure_die.show(figure + 1)
            self.symbol_die.show(symbol_face(symbol))
        rolled_again = f"  (roll {len(rolls)})" if len(rolls) > 1 else ""
        self.roll_label.text = roll_words(figure, symbol) + rolled_again

    def update(self, dt: float) -> None:
        self.figure_die.update(dt)
        self.symbol_die.update(dt)
