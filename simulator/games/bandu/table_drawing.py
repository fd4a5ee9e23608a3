"""How Bandu's table is drawn: the pieces' looks and meshes, the table, the bean piles, and the
TableDrawing that draws a list of them off screen (render/offscreen.py) only when something
changed: the whole picture when still (multisampled), or, while a tower settles, the moving
pieces and the table around them over a still layer of the rest.

What is on the table (which piece where, lifted, glowing, held) is the view's business
(games/bandu/view.py); this module is how it looks. No game state, no input.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

import numpy as np
from pyglet import gl
from pyglet.math import Mat4, Vec3

from simulator.games.bandu.rotations import quat_multiply, rotation_matrix
from simulator.games.bandu.table_layout import SeatPlace, bean_offsets
from simulator.render.camera import OrbitCamera
from simulator.render.gpu_meshes import (
    MeshData,
    MeshShelf,
    box_mesh,
    ellipsoid_mesh,
    merged,
    read_obj,
)
from simulator.render.offscreen import OffscreenPicture
from simulator.render.pass3d import camera_pass
from simulator.render.wood import Drawn, Surface, WoodRenderer, pose_matrix
from simulator.towers.physics.placement import most_stable_orientation
from simulator.towers.physics.table import TABLE_HALF_EXTENTS_M
from simulator.towers.pieces.build import load_piece

Pose3 = tuple[tuple[float, float, float], tuple[float, float, float, float]]   # metres, quaternion

TABLE_SURFACE = Surface((0.50, 0.32, 0.19), grain=True, ring_spacing=0.011, gloss=0.25)
STEM_SURFACE = Surface((0.75, 0.9, 1.0), alpha=0.5, casts_shadow=False)
BEAN_SURFACE = Surface((0.55, 0.12, 0.08), gloss=0.6)
ROOM = (0.11, 0.085, 0.07)        # the dim room around the lit table
HOVER_TINT = 0.5                  # how far a piece under the mouse or picked turns to GLOW
GLOW = (1.0, 0.78, 0.3)
GHOST_ALPHA = 0.45
PATCH_M = 0.35                    # the table around a moving tower, redrawn with it


def axis_vector(name: str) -> tuple[float, float, float]:
    return {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0)}.get(name, (0.0, 0.0, 1.0))


@cache
def piece_surface(piece: str) -> Surface:
    asset = load_piece(piece)
    material = asset.spec.material
    return Surface(material.colour, grain=material.grain,
                   grain_axis=axis_vector(str(asset.facts.get("grain_axis", "x"))),
                   ring_spacing=0.0035, gloss=0.75 if material.glossy else 0.15)


@cache
def piece_mesh(piece: str) -> MeshData:
    return read_obj(load_piece(piece).visual_path.read_text(encoding="utf-8"))


@cache
def lying(piece: str) -> tuple[tuple[float, float, float, float], float, tuple[float, float]]:
    """How a reserve piece lies: its orientation (most stable face down, longer side along y),
    the height of its centre of mass and its footprint (x, y) in metres."""
    orientation = most_stable_orientation(piece)
    points = piece_mesh(piece).positions @ rotation_matrix(orientation).T
    extent = points.max(axis=0) - points.min(axis=0)
    if extent[0] > extent[1]:
        turn = (0.0, 0.0, math.sin(math.pi / 4), math.cos(math.pi / 4))
        orientation = quat_multiply(turn, orientation)
        points = piece_mesh(piece).positions @ rotation_matrix(orientation).T
        extent = points.max(axis=0) - points.min(axis=0)
    return orientation, float(-points[:, 2].min()), (float(extent[0]), float(extent[1]))


def table_patch(low: tuple[float, float], high: tuple[float, float], top: float) -> MeshData:
    """A rectangle of the table's top face, in the table's frame (its top at z = `top`)."""
    corners = [(low[0], low[1], top), (high[0], low[1], top), (high[0], high[1], top), (low[0], high[1], top)]
    return MeshData(np.asarray(corners, np.float32), np.tile(np.array([0, 0, 1], np.float32), (4, 1)),
                    np.asarray([0, 1, 2, 0, 2, 3], np.uint32))


def bean_pile(count: int) -> MeshData:
    """`count` beans in a loose pile, one mesh (table_layout.bean_offsets)."""
    bean = ellipsoid_mesh((0.0065, 0.0045, 0.0032))
    parts = []
    for dx, dy, dz, yaw in bean_offsets(count):
        turn = (0.0, 0.0, math.sin(math.radians(yaw) / 2), math.cos(math.radians(yaw) / 2))
        transform = np.eye(4)
        transform[:3, :3], transform[:3, 3] = rotation_matrix(turn), (dx, dy, dz)
        parts.append((bean, transform))
    return merged(parts)


def blend_poses(a: tuple[float, ...], b: tuple[float, ...], t: float) -> Pose3:
    """Between two frame poses (x y z qx qy qz qw, and whatever follows): positions lerped,
    rotations nlerped."""
    position = tuple(a[k] + (b[k] - a[k]) * t for k in range(3))
    qa, qb = a[3:7], b[3:7]
    sign = -1.0 if sum(x * y for x, y in zip(qa, qb, strict=True)) < 0 else 1.0
    q = [x + (sign * y - x) * t for x, y in zip(qa, qb, strict=True)]
    norm = math.sqrt(sum(v * v for v in q)) or 1.0
    return (position[0], position[1], position[2]), (q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm)


def ray_hits_box(origin: Vec3, direction: Vec3, pose: Pose3, mesh: MeshData) -> float | None:
    """How far along the ray it meets the piece's bounding box (its own axes), or None."""
    rotation = rotation_matrix(pose[1])
    local_origin = rotation.T @ (np.array(tuple(origin)) - np.array(pose[0]))
    local_direction = rotation.T @ np.array(tuple(direction))
    low, high = mesh.bounds
    near, far = -math.inf, math.inf
    for axis in range(3):
        if abs(local_direction[axis]) < 1e-12:
            if not low[axis] <= local_origin[axis] <= high[axis]:
                return None
            continue
        t1 = (low[axis] - local_origin[axis]) / local_direction[axis]
        t2 = (high[axis] - local_origin[axis]) / local_direction[axis]
        near, far = max(near, min(t1, t2)), min(far, max(t1, t2))
    if near > far or far < 0:
        return None
    return float(max(near, 0.0))


def ray_hits_piece(origin: Vec3, direction: Vec3, pose: Pose3, mesh: MeshData) -> float | None:
    """How far along the ray it meets the piece's surface (its triangles), or None."""
    if ray_hits_box(origin, direction, pose, mesh) is None:
        return None
    rotation = rotation_matrix(pose[1])
    o = rotation.T @ (np.array(tuple(origin)) - np.array(pose[0]))
    d = rotation.T @ np.array(tuple(direction))
    corners = mesh.positions[mesh.indices.reshape(-1, 3)].astype(float)     # (triangles, 3, 3)
    edge1, edge2 = corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]
    p = np.cross(d, edge2)
    det = np.einsum("ij,ij->i", edge1, p)
    usable = np.abs(det) > 1e-12
    inverse = np.where(usable, 1.0 / np.where(usable, det, 1.0), 0.0)
    to_origin = o - corners[:, 0]
    u = np.einsum("ij,ij->i", to_origin, p) * inverse
    q = np.cross(to_origin, edge1)
    v = (q @ d) * inverse
    t = np.einsum("ij,ij->i", edge2, q) * inverse
    hits = usable & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
    return float(t[hits].min()) if hits.any() else None


class TableDrawing:
    """The renderer, meshes and off-screen picture of one Bandu view (one GL context)."""

    def __init__(self, places: Sequence[SeatPlace]) -> None:
        self.places = list(places)
        self.renderer = WoodRenderer(Vec3(0.0, 0.0, 0.0), 1.0)
        self.pieces = MeshShelf(piece_mesh)
        self.fixtures = MeshShelf(self._fixture)
        self.picture = OffscreenPicture()
        self._shadows_dirty = True
        self._scene_version = 0
        self._still_version = 0                 # bumps when what stands still changed
        self._layer_key: tuple = ()             # what the picture's still layer shows
        self._drawn_key: tuple = ()
        self._smooth_pending = False

    def _fixture(self, name: str) -> MeshData:
        """The meshes that are not pieces: the table, a pile of n beans, the drop line, and the
        patch of table top around a seat's tower (in the table's own frame)."""
        kind, _, number = name.partition(" ")
        if kind == "beans":
            return bean_pile(int(number))
        if kind == "patch":
            x, y = self.places[int(number)].axis
            half = TABLE_HALF_EXTENTS_M
            return table_patch((max(x - PATCH_M, -half[0]), max(y - PATCH_M, -half[1])),
                               (min(x + PATCH_M, half[0]), min(y + PATCH_M, half[1])), half[2])
        if kind == "stem":
            return box_mesh((0.5, 0.5, 0.5))
        return box_mesh(TABLE_HALF_EXTENTS_M)

    # --- what can be drawn ----------------------------------------------------------------------
    def table(self) -> Drawn:
        return Drawn(self.fixtures.get("table"), Mat4.from_translation(Vec3(0.0, 0.0, -TABLE_HALF_EXTENTS_M[2])),
                     TABLE_SURFACE)

    def piece(self, piece: str, pose: Pose3, ghost: bool = False, bright: bool = False,
              moving: bool = False, tint: tuple[float, float, float] | None = None) -> Drawn:
        surface = piece_surface(piece)
        if bright:
            surface = replace(surface, colour=tuple(c + (g - c) * HOVER_TINT for c, g in zip(surface.colour, GLOW, strict=True)))  # type: ignore[arg-type]
        if ghost:
            surface = replace(surface, alpha=GHOST_ALPHA, colour=tint or (0.75, 0.9, 1.0), grain=False)
        return Drawn(self.pieces.get(piece.split("#", 1)[0]), pose_matrix(*pose), surface, moving)

    def drop_line(self, top: tuple[float, float, float], bottom_z: float) -> Drawn:
        """A thin line from a held piece down to where it would touch."""
        length = max(top[2] - bottom_z, 1e-4)
        return Drawn(self.fixtures.get("stem"), Mat4.from_translation(Vec3(top[0], top[1], bottom_z + length / 2))
                     @ Mat4.from_scale(Vec3(0.0012, 0.0012, length)), STEM_SURFACE)

    def beans(self, seat: int, count: int) -> Drawn:
        at = self.places[seat].beans_at
        return Drawn(self.fixtures.get(f"beans {count}"), Mat4.from_translation(Vec3(at[0], at[1], 0.0032)),
                     BEAN_SURFACE)

    # --- drawing ---------------------------------------------------------------------------------
    def changed(self) -> None:
        """Something in the scene changed: draw the picture and all the shadows again."""
        self._scene_version += 1
        self._still_version += 1
        self._shadows_dirty = True

    def moved(self) -> None:
        """A new frame of the physics: the picture again, the shadows of what moves."""
        self._scene_version += 1
        self._shadows_dirty = True

    def draw(self, window: Any, area: tuple[float, float, float, float], camera: OrbitCamera,
             items: Callable[[], list[Drawn]], settling_seat: int) -> None:
        """Put the picture on the window at `area`, drawing it again first when the scene or the
        camera changed (`items()` lists what is on the table; `settling_seat`: whose tower the
        moving items belong to, -1 for none)."""
        ax, ay, width, height = area
        ratio = window.get_pixel_ratio()
        pixels = (max(1, int(width * ratio)), max(1, int(height * ratio)))
        key_now = (self._scene_version, pixels, camera.yaw, camera.pitch, camera.distance, tuple(camera.target))
        if key_now != self._drawn_key or not self.picture.valid:
            self._render(window, pixels, camera, items(), settling_seat, smooth=False)   # moving: fast
            self._drawn_key, self._smooth_pending = key_now, True
        elif self._smooth_pending:
            self._render(window, pixels, camera, items(), settling_seat, smooth=True)    # still: smooth
            self._smooth_pending = False
        self.picture.present(int(ax * ratio), int(ay * ratio))

    def _render(self, window: Any, pixels: tuple[int, int], camera: OrbitCamera, items: list[Drawn],
                seat: int, smooth: bool) -> None:
        if self._shadows_dirty:
            self.renderer.render_shadows(items, self._still_version)
            self._shadows_dirty = False
        renderer, picture = self.renderer, self.picture
        aspect = pixels[0] / pixels[1]
        moving = [item for item in items if item.moving]
        if smooth or not moving or seat < 0:

            def whole() -> None:
                with camera_pass(window, aspect, camera, ROOM):
                    renderer.draw(items, camera.eye())

            picture.render(*pixels, whole, smooth)
        else:
            # what stands still once, shadowed by what stands still; then each frame only the
            # moving pieces and the table around them, which their shadows fall on
            layer_key = (self._still_version, pixels, camera.yaw, camera.pitch, camera.distance,
                         tuple(camera.target))
            if layer_key != self._layer_key:
                still = [item for item in items if not item.moving]

                def layer() -> None:
                    with camera_pass(window, aspect, camera, ROOM):
                        renderer.draw(still, camera.eye(), still_shadows=True)

                picture.render_layer(*pixels, layer)
                self._layer_key = layer_key
            patch = Drawn(self.fixtures.get(f"patch {seat}"), self.table().model, TABLE_SURFACE)

            def frame() -> None:
                picture.restore_layer()
                with camera_pass(window, aspect, camera, clear=False):
                    renderer.draw_over([patch], camera.eye())
                    renderer.draw(moving, camera.eye())

            picture.render(*pixels, frame, smooth=False)
        gl.glViewport(0, 0, *window.get_framebuffer_size())

    def close(self) -> None:
        self.picture.delete()
        self.renderer.delete()
        self.pieces.delete()
        self.fixtures.delete()
