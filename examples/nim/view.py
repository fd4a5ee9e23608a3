"""Nim in the window: each heap a row of stones; a click on a stone takes it and the stones to
its right. The shared game screen draws the rest (seats, status, buttons, help)."""

from __future__ import annotations

from pyglet import shapes
from pyglet.window import mouse

from simulator.render.game_view import GameView, ViewContext

from .rules import NimState, Take


class NimView(GameView[NimState]):
    state_class = NimState
    rules_summary = "Take one or more stones from one heap. Whoever takes the last stone wins."
    controls = (("Left click", "take that stone and every stone to its right"),)

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        self.stones: list[tuple[shapes.Circle, int, int]] = []      # (shape, heap, index)


    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        self.sync()

    def _radius(self) -> float:
        _x, _y, width, height = self.area
        heaps = self.state.heaps
        return max(4.0, min(width / (2.5 * max(max(heaps, default=1), 1) + 2), height / (3 * len(heaps) + 1)))

    def sync(self) -> None:
        x, y, _width, height = self.area
        radius = self._radius()
        self.stones = []
        for heap, size in enumerate(self.state.heaps):
            row_y = y + height - (3 * heap + 2) * radius
            for index in range(size):
                stone = shapes.Circle(x + (2.5 * index + 2) * radius, row_y, radius,
                                      color=(190, 150, 100, 255), batch=self.batch)
                self.stones.append((stone, heap, index))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button != mouse.LEFT or not self.enabled or not self.contains(x, y):
            return None
        hit = next(((heap, index) for stone, heap, index in self.stones
                    if (x - stone.x) ** 2 + (y - stone.y) ** 2 <= stone.radius ** 2), None)
        if hit is None or self.controller.is_over():
            return True
        if not self.controller.is_person_turn():
            self.toast.show("the computer is thinking; wait for its move")
            return True
        heap, index = hit
        self.submit(Take(heap, self.state.heaps[heap] - index))
        return True

    def prompt(self) -> str:
        return "Click a stone: it and the stones to its right are taken."

    def seat_detail(self, seat: int) -> str:
        return ""
