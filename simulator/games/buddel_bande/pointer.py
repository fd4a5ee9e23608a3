"""What the person points at on Buddel Bande's board: while they may move, every move lit (a
glowing ring round each mole they may move and each spot the dog may go to), the move under the
pointer or chosen with Tab (render/key_targets.py) ringed white, with a ghost where it would go,
a line from where it is, and the hint that says it; and what a click lands on.
"""

from __future__ import annotations

import math

from pyglet import shapes, sprite
from pyglet.graphics import Batch

from simulator.games.buddel_bande import art, words
from simulator.games.buddel_bande.board import DOG_WIDTH, MOLE_WIDTH, Board
from simulator.games.buddel_bande.layers import G_GHOST, G_LIGHTS
from simulator.games.buddel_bande.rules import HOLES, MOVE, Act, BuddelState
from simulator.games.buddel_bande.sprites import fit, picture_sprite
from simulator.render.key_targets import step_through, tab_step


class Pointer:
    """The lit moves (`targets`: an action, where it is drawn and how far round it a click
    takes it), their rings (`lights`), the move pointed at (`hover`) and its ghost."""

    def __init__(self, batch: Batch) -> None:
        self.batch = batch
        self.lights: list[sprite.Sprite] = []
        self.ghost = picture_sprite("mole", batch, G_GHOST)
        self.ghost.opacity = 130
        self.ghost_line = shapes.Line(0, 0, 1, 1, thickness=3, color=(255, 244, 190, 200), batch=batch, group=G_GHOST)
        self.hover_ring = picture_sprite("ring-hover", batch, G_GHOST)
        self.hover: Act | None = None
        self.targets: list[tuple[Act, float, float, float]] = []

    def light(self, state: BuddelState, board: Board, may_act: bool) -> None:
        """Light the moves the person may make now (none unless `may_act` in the move phase)."""
        for light in self.lights:
            light.delete()
        self.lights = []
        self.targets = []
        if not may_act or state.phase != MOVE:
            return
        for action in state.legal_actions():
            if action.kind == "mole":
                x, y = board.mole_xy(state, action.a)
                radius = MOLE_WIDTH[state.size[action.a]] * board.unit * 0.55
            elif action.kind == "dog":
                x, y = board.dog_xy(action.a)
                radius = DOG_WIDTH * board.unit * 0.45
            else:
                continue
            self.targets.append((action, x, y, radius))
            light = picture_sprite("ring", self.batch, G_LIGHTS)
            fit(light, x, y, radius * 2.6)
            light.opacity = 170 if action.kind == "mole" else 120
            self.lights.append(light)

    def target_at(self, x: float, y: float) -> Act | None:
        """The lit move nearest the pointer, if it is on one."""
        best, best_d = None, math.inf
        for action, tx, ty, radius in self.targets:
            d = math.hypot(x - tx, y - ty)
            if d <= radius * 1.15 and d < best_d:
                best, best_d = action, d
        return best

    def step(self, modifiers: int) -> None:
        """Tab's choice: the next lit move (Shift: the one before), round and round."""
        self.hover = step_through([target[0] for target in self.targets], self.hover, tab_step(modifiers))

    def show(self, state: BuddelState, board: Board, may_act: bool) -> str:
        """Ring the move pointed at, its ghost where it would go and a line to it; the hint that
        says it ("" when there is none to show)."""
        self.ghost.visible = self.ghost_line.visible = self.hover_ring.visible = False
        action = self.hover
        if action is None or not may_act or state.phase != MOVE or not state.is_legal(action):
            return ""
        for target, x, y, radius in self.targets:
            if target == action:
                fit(self.hover_ring, x, y, radius * 2.8)
                self.hover_ring.visible = True
        if action.kind == "mole":
            mole = action.a
            destination = state.destination(mole, state.symbol)
            x0, y0 = board.mole_xy(state, mole)
            x1, y1 = board.hole_xy(destination)
            hint = words.mole_hint(state, mole, destination)
            self.ghost.image = art.image("mole")
            fit(self.ghost, x1, y1, MOLE_WIDTH[state.size[mole]] * board.unit)
        else:
            x0, y0 = board.dog_xy(state.dog)
            x1, y1 = board.dog_xy(action.a)
            hint = words.dog_hint(state, action.a)
            self.ghost.image = art.image("dog")
            fit(self.ghost, x1, y1, DOG_WIDTH * board.unit)
        self.ghost_line.x, self.ghost_line.y, self.ghost_line.x2, self.ghost_line.y2 = x0, y0, x1, y1
        self.ghost.visible = self.ghost_line.visible = True
        return hint


def thing_at(state: BuddelState, board: Board, x: float, y: float) -> Act | None:
    """Any mole or dog spot under the pointer (legal or not), for a refusal's reason."""
    for mole in range(len(state.pos)):
        mx, my = board.mole_xy(state, mole)
        if math.hypot(x - mx, y - my) <= MOLE_WIDTH[state.size[mole]] * board.unit * 0.5:
            return Act("mole", mole)
    for hole in range(1, HOLES + 1):
        dx, dy = board.dog_xy(hole)
        if math.hypot(x - dx, y - dy) <= 0.035 * board.unit:
            return Act("dog", hole)
    return None
