"""An orbit camera for 3D views: right-drag orbits, middle-drag (or Shift+right-drag) pans,
the wheel zooms, Home resets. Angles in degrees, distances in the scene's units (metres).
`glide_to(...)` moves it smoothly to a new target, distance or yaw over the next frames
(`update(dt)`); any drag or zoom by the user takes over at once.

Used as an input handler by a view (it answers pyglet's mouse events it is given) and for the
view and projection matrices of the view's draw pass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pyglet.math import Mat4, Vec3, Vec4
from pyglet.window import key, mouse

MIN_PITCH_DEG = 2.0   # the lowest the eye goes: just above the level of what it looks at


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
        self._goal: tuple[float, float, float, Vec3] | None = None

    def set_home(self, distance: float) -> None:
        """Where Home goes back to (and, when the camera is there or on its way, go there too)."""
        yaw, pitch, old, target = self._home
        turned = (self.yaw - yaw + 180.0) % 360.0 - 180.0    # a glide home may end 360 degrees on
        at_home = (abs(self.distance - old) < 1e-6 and abs(turned) < 1e-6
                   and abs(self.pitch - pitch) < 1e-6 and self.target == target)
        self._home = (yaw, pitch, distance, target)
        if at_home:
            self.distance = distance
        if self._goal is not None and self._goal[3] == target:
            self._goal = (self._goal[0], self._goal[1], distance, target)

    def glide_to(self, target: Vec3 | None = None, distance: float | None = None,
                 yaw: float | None = None, pitch: float | None = None) -> None:
        """Move smoothly (over about half a second) to what is given; the rest stays."""
        yaw_goal = self.yaw if yaw is None else self.yaw + ((yaw - self.yaw + 180.0) % 360.0 - 180.0)
        # plain floats: pyglet's Vec3 cannot be multiplied by a numpy scalar
        self._goal = (float(yaw_goal), float(self.pitch if pitch is None else pitch),
                      float(self.distance if distance is None else distance),
                      self.target if target is None else target)

    @property
    def gliding(self) -> bool:
        return self._goal is not None

    def update(self, dt: float) -> bool:
        """Advance a glide; True when the camera moved."""
        if self._goal is None:
            return False
        blend = 1.0 - math.exp(-dt * 7.0)
        yaw, pitch, distance, target = self._goal
        self.yaw += (yaw - self.yaw) * blend
        self.pitch += (pitch - self.pitch) * blend
        self.distance += (distance - self.distance) * blend
        self.target = self.target + (target - self.target) * blend
        if (abs(yaw - self.yaw) < 0.05 and abs(pitch - self.pitch) < 0.05
                and abs(distance - self.distance) < 1e-4 and (target - self.target).length() < 1e-4):
            self.yaw, self.pitch, self.distance, self.target = yaw % 360.0, pitch, distance, target
            self._goal = None
        return True

    def ray(self, x: float, y: float, area: tuple[float, float, float, float]) -> tuple[Vec3, Vec3]:
        """The ray from the eye through window pixel (x, y) of the view's `area`: (origin, unit
        direction), in the scene's frame."""
        ax, ay, width, height = area
        ndc_x = (x - ax) / max(width, 1.0) * 2.0 - 1.0
        ndc_y = (y - ay) / max(height, 1.0) * 2.0 - 1.0
        inverse = ~(self.projection(width / max(height, 1.0)) @ self.view_matrix())
        points = []
        for depth in (-1.0, 1.0):
            point = inverse @ Vec4(ndc_x, ndc_y, depth, 1.0)
            points.append(Vec3(point.x / point.w, point.y / point.w, point.z / point.w))
        return points[0], (points[1] - points[0]).normalize()

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
        """Turn about the target; the eye stays above the ground (pitch MIN_PITCH_DEG or more:
        dragging up never takes it under the table)."""
        self._goal = None
        self.yaw = (self.yaw - dx * 0.4) % 360.0
        self.pitch = min(89.0, max(MIN_PITCH_DEG, self.pitch - dy * 0.4))

    def pan(self, dx: float, dy: float) -> None:
        self._goal = None
        yaw = math.radians(self.yaw)
        right = Vec3(-math.sin(yaw), math.cos(yaw), 0.0)
        scale = self.distance * 0.0015
        self.target = self.target - right * (dx * scale) - Vec3(0.0, 0.0, 1.0) * (dy * scale)

    def zoom(self, steps: float) -> None:
        if self._goal is not None:                    # zoom from where the glide is going
            yaw, pitch, distance, target = self._goal
            self._goal = (yaw, pitch, min(self.max_distance, max(self.min_distance, distance * 0.9 ** steps)),
                          target)
            return
        self.distance = min(self.max_distance, max(self.min_distance, self.distance * 0.9 ** steps))

    def on_level(self, x: float, y: float, area: tuple[float, float, float, float],
                 height: float) -> Vec3 | None:
        """The point of the level plane z = `height` under window pixel (x, y), or None when
        the ray through it never meets that plane in front of the eye."""
        origin, direction = self.ray(x, y, area)
        if abs(direction.z) < 1e-6:
            return None
        t = (height - origin.z) / direction.z
        return origin + direction * t if t > 0 else None

    def zoom_at(self, x: float, y: float, area: tuple[float, float, float, float], steps: float) -> None:
        """Zoom towards what is under the pointer: the point where its ray meets the level
        plane through the target stays under the pointer (the wheel on a screen's centre moved
        what the player looked at away)."""
        if self._goal is not None:
            self.zoom(steps)
            return
        aimed = self.on_level(x, y, area, self.target.z)
        before = self.distance
        self.zoom(steps)
        if aimed is None:
            return
        share = 1.0 - self.distance / before        # the part of the way the eye went in
        self.target = self.target + (aimed - self.target) * share

    def reset(self) -> None:
        """Glide back to where the camera started."""
        yaw, pitch, distance, target = self._home
        self.glide_to(target, distance, yaw, pitch)

    def to_screen(self, point: Vec3, area: tuple[float, float, float, float]) -> tuple[float, float] | None:
        """The window pixel a scene point is drawn at, or None when it is behind the eye."""
        ax, ay, width, height = area
        clip = self.projection(width / max(height, 1.0)) @ self.view_matrix() @ Vec4(point.x, point.y, point.z, 1.0)
        if clip.w <= 1e-6:
            return None
        return ax + (clip.x / clip.w + 1.0) / 2.0 * width, ay + (clip.y / clip.w + 1.0) / 2.0 * height

    # --- pyglet events a view passes on (True: used) ---------------------------------------------------
    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool:
        if buttons & mouse.MIDDLE or (buttons & mouse.RIGHT and modifiers & key.MOD_SHIFT):
            self.pan(dx, dy)
            return True
        if buttons & mouse.RIGHT:
            self.orbit(dx, dy)
            return True
        return False

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float,
                        area: tuple[float, float, float, float] | None = None) -> bool:
        if area is None:
            self.zoom(scroll_y)
        else:
            self.zoom_at(x, y, area, scroll_y)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol == key.HOME:
            self.reset()
            return True
        return False
