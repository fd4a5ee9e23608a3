"""An orbit camera for 3D views: right-drag orbits, middle-drag (or Shift+right-drag) pans,
the wheel zooms, Home resets. Angles in degrees, distances in the scene's units (metres).

Used as an input handler by a view (it answers pyglet's mouse events it is given) and for the
view and projection matrices of the view's draw pass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pyglet.math import Mat4, Vec3
from pyglet.window import key, mouse


@dataclass
class OrbitCamera:
    yaw: float = 30.0               # around the vertical axis, from +x
    pitch: float = 28.0             # above the horizon
    distance: float = 1.0
    target: Vec3 = field(default_factory=lambda: Vec3(0.0, 0.0, 0.0))
    fov: float = 45.0
    min_distance: float = 0.1
    max_distance: float = 10.0

    def __post_init__(self) -> None:
        self._home = (self.yaw, self.pitch, self.distance, self.target)

    def eye(self) -> Vec3:
        yaw, pitch = math.radians(self.yaw), math.radians(self.pitch)
        offset = Vec3(math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), math.sin(pitch))
        return self.target + offset * self.distance

    def view_matrix(self) -> Mat4:
        return Mat4.look_at(self.eye(), self.target, Vec3(0.0, 0.0, 1.0))

    def projection(self, aspect: float) -> Mat4:
        return Mat4.perspective_projection(max(aspect, 1e-3), z_near=self.distance / 100,
                                           z_far=self.distance * 20, fov=self.fov)

    def orbit(self, dx: float, dy: float) -> None:
        self.yaw = (self.yaw - dx * 0.4) % 360.0
        self.pitch = min(89.0, max(-5.0, self.pitch - dy * 0.4))

    def pan(self, dx: float, dy: float) -> None:
        yaw = math.radians(self.yaw)
        right = Vec3(-math.sin(yaw), math.cos(yaw), 0.0)
        scale = self.distance * 0.0015
        self.target = self.target - right * (dx * scale) - Vec3(0.0, 0.0, 1.0) * (dy * scale)

    def zoom(self, steps: float) -> None:
        self.distance = min(self.max_distance, max(self.min_distance, self.distance * 0.9 ** steps))

    def reset(self) -> None:
        self.yaw, self.pitch, self.distance, self.target = self._home

    # --- pyglet events a view passes on (True: used) ---------------------------------------------------
    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool:
        if buttons & mouse.MIDDLE or (buttons & mouse.RIGHT and modifiers & key.MOD_SHIFT):
            self.pan(dx, dy)
            return True
        if buttons & mouse.RIGHT:
            self.orbit(dx, dy)
            return True
        return False

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        self.zoom(scroll_y)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol == key.HOME:
            self.reset()
            return True
        return False
