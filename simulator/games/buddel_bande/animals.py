"""Buddel Bande's moles and dog on the board: each mole with its shadow (all alike from above,
only their sizes differ), turned over once home in its den (its clan's picture), the viewer's
own moles marked wherever they go (with "Own moles: known from the start": they placed them),
and Daniel the dog beside his hole. An animal glides to its new place, catching up with it a little more every frame.
"""

from __future__ import annotations

import math

from pyglet.graphics import Batch

from simulator.games.buddel_bande import art
from simulator.games.buddel_bande.board import DOG_WIDTH, MOLE_WIDTH, Board
from simulator.games.buddel_bande.layers import G_DOG, G_MARKS, G_MOLE_SHADOW, G_MOLES
from simulator.games.buddel_bande.rules import CLANS, IN_DEN, BuddelState
from simulator.games.buddel_bande.sprites import fit, picture_sprite
from simulator.render.tweens import lerp

MOLE_GLIDE = 9.0                # how fast drawn moles catch up with their places (1/s)
DOG_GLIDE = 0.7 * MOLE_GLIDE    # the dog a little slower


class Animals:
    """The sprites of `count` moles (3 a clan) and the dog, where they are drawn now and where
    they go."""

    def __init__(self, batch: Batch, count: int) -> None:
        self.mole_shadows = [picture_sprite("shadow", batch, G_MOLE_SHADOW) for _ in range(count)]
        self.moles = [picture_sprite("mole", batch, G_MOLES) for _ in range(count)]
        self.turned = [picture_sprite(CLANS[0], batch, G_MOLES) for _ in range(count)]   # moles home, turned over
        self.own_marks = [picture_sprite(CLANS[0], batch, G_MARKS) for _ in range(count)]
        self.dog_shadow = picture_sprite("shadow", batch, G_DOG)
        self.dog = picture_sprite("dog", batch, G_DOG)
        self.drawn: list[tuple[float, float]] | None = None      # where each mole is drawn now
        self.goals: list[tuple[float, float]] | None = None      # where each mole goes
        self.dog_drawn: tuple[float, float] | None = None
        self.dog_goal: tuple[float, float] | None = None

    def jump(self) -> None:
        """Draw every piece where it belongs at the next show(), without gliding there (the
        board was fitted anew)."""
        self.drawn = None
        self.dog_drawn = None

    def show(self, state: BuddelState, board: Board, viewer: int | None) -> None:
        """The moles in play shown as `viewer` may see them (the others hidden), every piece
        drawn where it is now and sent on towards its place."""
        goals = [board.mole_xy(state, m) for m in range(len(state.pos))]
        if self.drawn is None or len(self.drawn) != len(goals):
            self.drawn = list(goals)
        own_known = state.know_own and viewer is not None    # the viewer placed them: always marked
        for mole in range(len(state.pos), len(self.moles)):      # not on the haystack yet
            self.moles[mole].visible = self.mole_shadows[mole].visible = False
            self.turned[mole].visible = self.own_marks[mole].visible = False
        for mole in range(len(state.pos)):
            home = state.pos[mole] == IN_DEN
            self.moles[mole].visible = self.mole_shadows[mole].visible = not home
            turned = self.turned[mole]
            turned.visible = home
            if home:
                turned.image = art.image(CLANS[state.clan[mole]])
            mark = self.own_marks[mole]
            mark.visible = bool(own_known and state.clan[mole] == viewer and not home)
            if mark.visible:
                mark.image = art.image(CLANS[state.clan[mole]])
            self._place_mole(mole, *self.drawn[mole], state, board)
        self.goals = goals
        dog_goal = board.dog_xy(state.dog)
        if self.dog_drawn is None:
            self.dog_drawn = dog_goal
        self.dog_goal = dog_goal
        self._place_dog(*self.dog_drawn, board)

    def update(self, dt: float, state: BuddelState, board: Board) -> None:
        """Every piece not yet at its place a step closer (the last half pixel at once)."""
        if self.drawn is not None and self.goals is not None:
            pull = 1.0 - math.exp(-MOLE_GLIDE * dt)
            for mole, (tx, ty) in enumerate(self.goals):
                x, y = self.drawn[mole]
                if (x, y) != (tx, ty):
                    if abs(tx - x) + abs(ty - y) < 0.5:
                        x, y = tx, ty
                    else:
                        x, y = lerp(x, tx, pull), lerp(y, ty, pull)
                    self.drawn[mole] = (x, y)
                    if mole < len(state.pos):
                        self._place_mole(mole, x, y, state, board)
        if self.dog_drawn is not None and self.dog_goal is not None and self.dog_drawn != self.dog_goal:
            (x, y), (tx, ty) = self.dog_drawn, self.dog_goal
            pull = 1.0 - math.exp(-DOG_GLIDE * dt)
            self.dog_drawn = (tx, ty) if abs(tx - x) + abs(ty - y) < 0.5 else (lerp(x, tx, pull), lerp(y, ty, pull))
            self._place_dog(*self.dog_drawn, board)

    def _place_mole(self, mole: int, x: float, y: float, state: BuddelState, board: Board) -> None:
        unit = board.unit
        width = MOLE_WIDTH[state.size[mole]] * unit
        fit(self.moles[mole], x, y, width)
        fit(self.mole_shadows[mole], x + 0.008 * unit, y - 0.012 * unit, width * 0.9)
        fit(self.turned[mole], x, y, 0.048 * unit)
        fit(self.own_marks[mole], x + width * 0.35, y + width * 0.3, 0.04 * unit)

    def _place_dog(self, x: float, y: float, board: Board) -> None:
        unit = board.unit
        fit(self.dog, x, y, DOG_WIDTH * unit)
        fit(self.dog_shadow, x + 0.01 * unit, y - 0.014 * unit, DOG_WIDTH * unit * 0.9)
