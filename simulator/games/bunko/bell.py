"""The head table's brass bell: a polygon that swings about its top, with a glow and a DING when
it rings (`ring()`, then `update(dt)` swings it for pace.BELL_SECONDS), lit once it has rung."""

from __future__ import annotations

import math
from typing import Any

from pyglet import shapes

from simulator.games.bunko import art
from simulator.games.bunko.layers import G_BELL, G_GLOW
from simulator.games.bunko.pace import BELL_SECONDS
from simulator.render.tweens import Tween
from simulator.render.widgets import label


class Bell:
    """The bell beside the head table."""

    def __init__(self, batch: Any) -> None:
        self.batch = batch
        self.x = self.y = 0.0
        self.size = 30.0
        self.angle = 0.0
        self.shapes: list[Any] = []
        self.glow = shapes.Arc(0, 0, 10, segments=48, thickness=6, color=(*art.BELL_GLOW, 0), batch=batch,
                               group=G_GLOW)
        self.ding = label("", size=14, batch=batch, group=G_BELL, bold=True, color=art.DING,
                          anchor_x="left", anchor_y="center")
        self.rung = False
        self.visible = True
        self.swing = Tween()              # running while it rings

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
        colour = art.BELL if not self.rung else art.BELL_RUNG
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
        self.glow.color = (*art.BELL_GLOW, alpha)
        self.ding.text = "DING!" if ringing > 0.05 else ""
        self.ding.opacity = int(255 * min(1.0, ringing * 1.5))

    def ring(self) -> None:
        """Start ringing: it swings, glows and says DING for BELL_SECONDS."""
        self.swing.start(BELL_SECONDS)

    def rest(self, rung: bool) -> None:
        """Hang still (lit if it has rung this round), unless it is ringing."""
        if not self.swing.running:
            self.show(0.0, rung, 0.0)

    def update(self, dt: float, rung: bool) -> None:
        """The clock: a ringing bell swings less and less, then hangs still."""
        if not self.swing.running:
            return
        t = self.swing.update(dt)
        if self.swing.done:
            self.swing.stop()
            self.show(0.0, rung, 0.0)
        else:
            self.show(28.0 * math.sin(t * math.pi * 7) * (1 - t), True, 1 - t)

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        self.glow.visible = self.ding.visible = visible
        for shape in self.shapes:
            shape.visible = visible
