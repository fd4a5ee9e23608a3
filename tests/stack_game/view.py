"""Stack in the window (a test view in 3D): each seat's blocks as lit boxes on a table, drawn in
the view's own pass (viewport, projection, depth test, shader) with an orbit camera; keys 1-3
stack that many blocks; while the result is awaited the new blocks wobble."""

from __future__ import annotations

import math

from pyglet.window import key

from simulator.render.camera import OrbitCamera
from simulator.render.game_view import GameView, ViewContext
from simulator.render.pass3d import SolidShader, box_triangles, view_pass
from stack_game.rules import Stack

BLOCK = 0.05
COLOURS = ((0.85, 0.62, 0.32, 1.0), (0.55, 0.35, 0.2, 1.0))


class StackView(GameView):
    rules_summary = "Stack 1, 2 or 3 blocks; a stack that stands scores its height. First to 5 wins."
    controls = (("1, 2, 3", "stack that many blocks"), ("Right drag", "orbit"), ("Wheel", "zoom"),
                ("Home", "reset the camera"))

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        from pyglet.graphics import Batch

        self.camera = OrbitCamera(distance=0.9, target=_vec(0.0, 0.0, 0.1), min_distance=0.2,
                                   max_distance=3.0)
        self.shader = SolidShader()
        self.scene = Batch()
        self.lists: list = []
        self.wobble = 0.0
        self.sync()

    def sync(self) -> None:
        for vertex_list in self.lists:
            vertex_list.delete()
        self.lists = []
        state = self.state
        self.lists.append(self.shader.add(self.scene, box_triangles((0, 0, -0.01), (0.8, 0.5, 0.02),
                                                                    (0.3, 0.45, 0.3, 1.0))))
        for seat in range(2):
            pending = state.pending if state.turn == seat else 0
            tilt = 0.004 * math.sin(self.wobble * 12) if pending else 0.0
            for level in range(state.points[seat] + pending):
                x = (-0.15 if seat == 0 else 0.15) + (tilt * level if level >= state.points[seat] else 0)
                self.lists.append(self.shader.add(self.scene, box_triangles(
                    (x, 0.0, BLOCK * (level + 0.5)), (BLOCK, BLOCK, BLOCK * 0.98), COLOURS[seat])))

    def update(self, dt: float) -> None:
        if self.controller.outcome_in_progress() is not None:
            self.wobble += dt
            self.sync()

    def draw(self) -> None:
        with view_pass(self.context.window, self.area, self.camera):
            self.scene.draw()
        self.batch.draw()

    def close(self) -> None:
        self.shader.delete()

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        return self.camera.on_mouse_drag(x, y, dx, dy, buttons, modifiers) or None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        return self.camera.on_mouse_scroll(x, y, scroll_x, scroll_y) if self.contains(x, y) else None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol in (key._1, key._2, key._3) and self.enabled:
            self.submit(Stack(symbol - key._0))
            return True
        return self.camera.on_key_press(symbol, modifiers) or None

    def prompt(self) -> str:
        return "Press 1, 2 or 3."

    def seat_detail(self, seat: int) -> str:
        return f"{self.state.points[seat]} points"


def _vec(x: float, y: float, z: float):
    from pyglet.math import Vec3

    return Vec3(x, y, z)
