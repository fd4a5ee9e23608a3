"""The piece a person is placing, as they hold it: turned with the keys, raised with Ctrl+wheel,
aimed with the pointer on the plane of its tower's top (the magnet snapping it to the axis or
the top piece's centre), where it floats over the tower, and its ghost: where it would first
touch (games/bandu/preview.py), and whether that touches the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Protocol

from pyglet.math import Vec3
from pyglet.window import key

from simulator.games.bandu.preview import LandingPreview
from simulator.games.bandu.referee import orientation_of
from simulator.games.bandu.rotations import (
    euler_quaternion,
    quat_multiply,
    quaternion_euler,
    rotation_matrix,
)
from simulator.games.bandu.rules import BanduState, Place, within_reach
from simulator.games.bandu.table_drawing import Pose3, TableDrawing, piece_mesh
from simulator.games.bandu.table_layout import SeatPlace
from simulator.render.camera import OrbitCamera
from simulator.towers.pieces.catalogue import kind

TURN_STEP, FINE_STEP = 15.0, 3.0  # degrees per key press
HOVER_RANGE_M = (0.01, 0.20)      # how high the held piece floats above the tower's top
HELD_GAP_M = 0.02                 # the held piece hovers at least this far over its ghost's top
GHOST_ON_TABLE = (1.0, 0.25, 0.2)   # the ghost's colour when the release would touch the table
MAGNET_MM = 4.0          # the held piece snaps to the axis or the top piece's centre this near,
MAGNET_PX = 10.0         # or when the pointer is this near its picture
NUDGE_MM, FINE_NUDGE_MM = 1.0, 0.2   # an arrow key moves the held piece (Shift: fine)
NUDGE_KEYS = {key.LEFT: (-1.0, 0.0), key.RIGHT: (1.0, 0.0), key.UP: (0.0, 1.0), key.DOWN: (0.0, -1.0)}
POINTER_STILL_PX = 4.0   # after a nudge the aim stays put until the pointer moves this far
ON_TABLE_M = 0.001       # a ghost whose lowest point is this near the table top touches it
# a turn of the held piece about one of the table's axes, whatever turns it has had: z (Q, E),
# x (R, F: its top away from or towards the player in front of the tower, at -y) or y (Z, C:
# its top to their left or right)
TURNS = {key.Q: (2, 1.0), key.E: (2, -1.0), key.R: (0, -1.0), key.F: (0, 1.0),
         key.Z: (1, -1.0), key.C: (1, 1.0)}


@dataclass(frozen=True)
class Held:
    """The piece a person is placing, as they hold it: a Place and how high it floats."""
    place: Place
    hover_m: float = 0.06


class Table(Protocol):
    """What the aim reads of the table it is on (Bandu's view)."""
    area: tuple[float, float, float, float]
    camera: OrbitCamera
    preview: LandingPreview
    places: list[SeatPlace]
    tower_poses: dict[str, Pose3]
    drawing: TableDrawing

    @property
    def bandu(self) -> BanduState: ...


class Aim:
    """The held piece and its ghost on `table`; None held when nothing is being placed."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.held: Held | None = None
        self.ghost: Pose3 | None = None
        self.magnet = True                      # M turns it off and on
        self._pinned_at: tuple[float, float] | None = None   # the pointer when the aim was nudged
        self._pointer: tuple[float, float] | None = None
        self._ghost_dirty = False
        self._ghost_touches_table = False       # the ghost's lowest point on the table (a fall)

    def take(self, piece: str) -> None:
        """Hold `piece` (unturned, on the axis), unless it is held already."""
        if self.held is None or self.held.place.piece != piece:
            self.held = Held(Place(piece))
            self._pinned_at = None               # a new piece follows the pointer at once
            self._ghost_dirty = True

    def drop(self) -> None:
        """Hold nothing (the piece was released, or it is no one's turn at this machine)."""
        self.held, self.ghost = None, None

    def turn(self, symbol: int, modifiers: int) -> None:
        """Q/E, R/F, Z/C: turn the held piece a step (Shift: a fine one), tilts as the player at
        the placer's seat sees them."""
        assert self.held is not None
        axis, sign = TURNS[symbol]
        if axis != 2:                        # tilts as the player at that seat sees them
            sign *= self.table.places[self.table.bandu.placer].facing
        step = (FINE_STEP if modifiers & key.MOD_SHIFT else TURN_STEP) * sign
        self.held = replace(self.held, place=turned(self.held.place, axis, step))
        self._ghost_dirty = True

    def raise_by(self, scroll_y: float) -> None:
        """Ctrl+wheel: the held piece floats higher or lower, within HOVER_RANGE_M."""
        assert self.held is not None
        low, high = HOVER_RANGE_M
        self.held = replace(self.held, hover_m=min(high, max(low, self.held.hover_m + 0.01 * scroll_y)))
        self.table.drawing.changed()

    def refresh_ghost(self) -> None:
        """The ghost: where the held piece, as it will be released (rounded as the notation
        rounds it), first touches the tower; worked out again only when the piece moved."""
        if not self._ghost_dirty or self.held is None:
            return
        self._ghost_dirty = False
        state = self.table.bandu
        position, orientation = self.table.preview.landing(state, state.placer, self.held.place.rounded())
        self.ghost = (tuple(position), tuple(orientation))                       # type: ignore[assignment]
        lowest = position[2] + vertical_extent(self.held.place.piece, orientation)[0]
        self._ghost_touches_table = bool(state.towers[state.placer]) and lowest < ON_TABLE_M
        self.table.drawing.changed()

    def ghost_on_table(self) -> bool:
        """Would the held piece, released, touch the table (its tower has a foundation)? Worked
        out with the ghost (refresh_ghost), not at every frame."""
        return self.ghost is not None and self.held is not None and self._ghost_touches_table

    def held_pose(self) -> Pose3:
        """Where the held piece is drawn: over its aim on the tower's axis, floating above its
        own ghost however tall the piece is."""
        assert self.held is not None
        state = self.table.bandu
        axis = self.table.places[state.placer].axis
        place = self.held.place
        top = self.table.preview.tower_top(state, state.placer)
        orientation = orientation_of(place)
        lowest, highest = vertical_extent(place.piece, orientation)
        # above its own ghost, however tall the piece: a gap over the ghost's top at the least
        hover = max(self.held.hover_m, highest - lowest + HELD_GAP_M)
        return ((axis[0] + place.x_mm / 1000, axis[1] + place.y_mm / 1000, top + hover - lowest),
                tuple(orientation))                                                  # type: ignore[return-value]

    def aim_height(self) -> float:
        """The height (metres) of the plane the pointer aims the held piece on: its tower's top."""
        return self.table.preview.tower_top(self.table.bandu, self.table.bandu.placer)

    def follow_mouse(self, x: float, y: float) -> None:
        """Move the held piece to where the pointer is on the plane of its tower's top: the
        ghost lands under the pointer, from any view (the piece floats above it)."""
        self._pointer = (x, y)
        if self.held is None:
            return
        if self._pinned_at is not None:          # nudged with the keys: a still hand keeps it
            if math.hypot(x - self._pinned_at[0], y - self._pinned_at[1]) < POINTER_STILL_PX:
                return
            self._pinned_at = None
        table = self.table
        axis = table.places[table.bandu.placer].axis
        aimed = table.camera.on_level(x, y, table.area, self.aim_height())
        if aimed is None:
            return
        dx, dy = within_reach((aimed.x - axis[0]) * 1000, (aimed.y - axis[1]) * 1000, margin_mm=0.5)
        if self.magnet:
            dx, dy = self._snapped(dx, dy, x, y)
        self.held = replace(self.held, place=replace(self.held.place, x_mm=dx, y_mm=dy))
        self._ghost_dirty = True

    def nudge(self, symbol: int, modifiers: int, facing: tuple[float, float]) -> None:
        """An arrow key: move the held piece NUDGE_MM (Shift: FINE_NUDGE_MM) to the viewer's
        left, right, farther or nearer, as the camera faces (`facing`, on the table); the magnet
        does not pull it, and the pointer leaves it there until it moves on."""
        assert self.held is not None
        right, farther = NUDGE_KEYS[symbol]
        step = FINE_NUDGE_MM if modifiers & key.MOD_SHIFT else NUDGE_MM
        fx, fy = _unit(facing)
        place = self.held.place
        dx, dy = within_reach(place.x_mm + step * (right * fy + farther * fx),
                              place.y_mm + step * (-right * fx + farther * fy), margin_mm=0.5)
        self.held = replace(self.held, place=replace(place, x_mm=round(dx, 1), y_mm=round(dy, 1)))
        self._pinned_at = self._pointer
        self._ghost_dirty = True

    def magnet_points(self) -> list[tuple[float, float]]:
        """Where the magnet pulls the held piece (mm from the tower's axis): the axis, and the
        centre of the tower's top piece."""
        state = self.table.bandu
        points = [(0.0, 0.0)]
        tower = state.towers[state.placer] if state.placer >= 0 else []
        pose = self.table.tower_poses.get(tower[-1]) if tower else None
        if pose is not None:
            axis = self.table.places[state.placer].axis
            points.append(((pose[0][0] - axis[0]) * 1000, (pose[0][1] - axis[1]) * 1000))
        return points

    def _snapped(self, dx: float, dy: float, x: float, y: float) -> tuple[float, float]:
        """The first magnet point (the axis before the top piece's centre) whose picture is
        within MAGNET_PX of the pointer (x, y), or within MAGNET_MM on the table: a pull that
        is the same for the hand from near and far."""
        axis = self.table.places[self.table.bandu.placer].axis
        height = self.aim_height()
        for point in self.magnet_points():
            at = self.table.camera.to_screen(Vec3(axis[0] + point[0] / 1000, axis[1] + point[1] / 1000, height),
                                             self.table.area)
            near_on_screen = at is not None and math.hypot(at[0] - x, at[1] - y) <= MAGNET_PX
            if near_on_screen or math.hypot(dx - point[0], dy - point[1]) <= MAGNET_MM:
                return round(point[0], 1), round(point[1], 1)
        return dx, dy

    def toggle_magnet(self) -> str:
        """M: the magnet off or on; what the toast says of it."""
        self.magnet = not self.magnet
        return (f"Magnet {'on' if self.magnet else 'off'}: the held piece "
                f"{'snaps to' if self.magnet else 'no longer snaps to'} the axis and the top piece's centre")

    def readout(self, facing: tuple[float, float] = (0.0, 1.0)) -> str:
        """The live readout of the aim: the offset from the axis in the viewer's words (right or
        left, farther or nearer, as the camera faces: `facing` is its forward direction on the
        table), the magnet, and a release that touches the table."""
        if self.held is None:
            return ""
        if self.ghost_on_table():
            return TABLE_WARNING
        place = self.held.place
        magnet = "magnet on (M)" if self.magnet else "magnet off (M)"
        offset = math.hypot(place.x_mm, place.y_mm)
        if offset < 0.05:
            return f"On the axis · {magnet}"
        return f"{offset:.1f} mm off the axis: {screen_words(place.x_mm, place.y_mm, facing)} · {magnet}"


TABLE_WARNING = "Released there it touches the table: your tower falls."


def _unit(facing: tuple[float, float]) -> tuple[float, float]:
    """The camera's direction on the table, of length one (the readout's and the arrows')."""
    length = math.hypot(*facing) or 1.0
    return facing[0] / length, facing[1] / length


def screen_words(x_mm: float, y_mm: float, facing: tuple[float, float]) -> str:
    """An offset on the table (mm) in a viewer's words: how far right or left of the axis and
    how far beyond or before it, for a viewer facing `facing` (a direction on the table)."""
    fx, fy = _unit(facing)
    right = x_mm * fy - y_mm * fx             # the facing turned a quarter clockwise: right
    farther = x_mm * fx + y_mm * fy
    side = f"{abs(right):.1f} {'right' if right >= 0 else 'left'}"
    depth = f"{abs(farther):.1f} {'farther' if farther >= 0 else 'nearer'}"
    return f"{side}, {depth}"


def vertical_extent(piece: str, orientation: tuple[float, float, float, float]) -> tuple[float, float]:
    """The heights of the piece's lowest and highest points relative to its centre (metres),
    turned as given: from its visual mesh."""
    z = (piece_mesh(kind(piece)).positions @ rotation_matrix(orientation).T)[:, 2]
    return float(z.min()), float(z.max())


def turned(place: Place, axis: int, degrees: float) -> Place:
    """`place` turned by `degrees` about the table's axis 0 (x), 1 (y) or 2 (z)."""
    half = math.radians(degrees) / 2
    step = [0.0, 0.0, 0.0, math.cos(half)]
    step[axis] = math.sin(half)
    now = euler_quaternion(place.roll_deg, place.pitch_deg, place.yaw_deg)
    roll, pitch, yaw = quaternion_euler(quat_multiply(tuple(step), now))
    return replace(place, roll_deg=round(roll, 6) + 0.0, pitch_deg=round(pitch, 6) + 0.0,
                   yaw_deg=round(yaw, 6) + 0.0)
