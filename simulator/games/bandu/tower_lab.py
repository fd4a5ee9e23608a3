"""A seat's tower rebuilt in a private PyBullet world, to try placements on: the computer
players' lab.

A `TowerLab` rebuilds one seat's tower from the settled poses the state records and releases a
piece over it as often as asked, each release shaken by a hand tremor, restoring a snapshot
after each. It holds a tall tower's lower pieces still (`moving`: the top LAB_MOVING of every
column, column_tops), which makes trials quick. It also reads the tower's top: where placements
aim (the axis, the top piece, the hollows), the shelves a piece lands flat on, and the room left
for the next piece.

A trial depends on the trials run before it on the same lab (docs/PHYSICS.md, "A trial
remembers the trials before it"): the same releases in another order move the pieces by
slightly different amounts. Decisions therefore run their trials on labs whose histories are
fixed by the decision alone (trial_streams.py).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from simulator.games.bandu.referee import orientation_of, rebuild_tower, release_over, tower_axes
from simulator.games.bandu.rules import BanduState, Place
from simulator.towers.physics.height_map import tower_height_map
from simulator.towers.physics.hollows import find_hollows
from simulator.towers.physics.shelves import STEP_MM, landing_spots, room_mm2, shelf_aims
from simulator.towers.physics.stability import tower_fallen
from simulator.towers.physics.tremor import Tremor
from simulator.towers.physics.world import PhysicsSettings, Quat, World, rotate, support_points

SAME_CENTRE_MM = 4.0            # aim points closer than this are one
ROOM_FULL_MM2 = 600.0           # room left for the next piece (shelves.room_mm2) that is plenty:
# the landing spots on a 40 mm cube's top for another such cube
LAB_SETTLE_SECONDS = 2.0
LAB_MOVING = 4                  # the tower's highest pieces that move in a placement's trials
HOLLOWS_TRIED = 2               # the deepest hollows of a tower's top that placements aim at
TOP_MARGIN_MM = 6.0             # the height map of a tower's top reaches this far past its sides

def footprint_half_mm(piece: str, orientation: Quat) -> tuple[float, float]:
    """Half the piece's extent along x and y (mm) from its centre of mass, turned to `orientation`."""
    points = rotate(orientation, support_points(piece)) * 1000
    return float(np.abs(points[:, 0]).max()), float(np.abs(points[:, 1]).max())


def column_tops(world: World, bodies: list[int], depth: int) -> list[int]:
    """The pieces with fewer than `depth` pieces resting on them, directly or through others:
    the top `depth` of every column the tower stands in. A tower of one column gives its
    `depth` highest pieces; one of two stacks on the base gives the top of each, so that a
    placement on the lower stack does not rest on pieces held still (held, a cove laid out
    over the end of a short stack stood in 8 trials of 8 and in none under the referee:
    python -m benchmarks lab_columns, benchmarks/lab_cases/cove-off-the-short-stack.json)."""
    below = world.resting_on(bodies)
    above: dict[int, set[int]] = {body: set() for body in bodies}
    for upper in bodies:                        # every piece, to everything under it
        seen, todo = set(), list(below[upper])
        while todo:
            lower = todo.pop()
            if lower not in seen and lower != upper:
                seen.add(lower)
                above[lower].add(upper)
                todo.extend(below[lower])
    return [body for body in bodies if len(above[body]) < depth]


class Trial(NamedTuple):
    stood: bool
    moved_mm: float             # how far the tower's pieces moved
    room_mm2: float             # what the tower left for the next piece (0 when not asked for)


class TowerLab:
    """One seat's tower, rebuilt from the state's settled poses, to try placements on."""

    def __init__(self, state: BanduState, seat: int, settings: PhysicsSettings | None = None,
                 moving: int | None = None) -> None:
        """`moving`: only the top `moving` pieces of each of the tower's columns move in the
        trials (column_tops), the rest held still (and then no finer step at height: the moving
        part is short). A tall tower
        sways for seconds on end, so a trial on the whole of it runs its full settle time; with
        the top four moving, 48 trials on a 19-piece tower took 17 s instead of 129 s and gave
        the same verdict in 47 (python -m benchmarks lab; docs/PHYSICS.md, "What the computer
        players try")."""
        settings = settings or PhysicsSettings.trials()
        held = moving is not None and len(state.towers[seat]) > moving
        if held:
            settings = replace(settings, tall_substeps=())
        self.world = World(settings)
        self.axis = tower_axes(state.players)[seat]
        self.tower = rebuild_tower(self.world, state.towers[seat], state.poses, self.axis)
        self.world.settle(0.2)
        self.moving = list(self.tower)
        if held:
            assert moving is not None
            self.moving = column_tops(self.world, self.tower, moving)
            for body in self.tower:
                if body not in self.moving:
                    self.world.hold_still(body)
        self.holds_still = len(self.moving) < len(self.tower)     # some pieces held
        self.snapshot = self.world.save_state()
        self._aims: list[tuple[float, float]] | None = None
        self._top: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def close(self) -> None:
        self.world.close()

    def top_offset_mm(self) -> tuple[float, float]:
        """Where the tower's highest piece sits, from the tower's axis (mm)."""
        if not self.tower:
            return (0.0, 0.0)
        top = max(self.tower, key=lambda b: self.world.lowest_and_highest(b)[1])
        x, y, _ = self.world.pose(top)[0]
        return (round((x - self.axis[0]) * 1000, 1), round((y - self.axis[1]) * 1000, 1))

    def _top_view(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The height map of the tower as rebuilt (heights, xs, ys; mm, the table's frame),
        cast once: the hollows and the shelves both read it."""
        if self._top is None:
            self._top = tower_height_map(self.world, self.tower, STEP_MM, TOP_MARGIN_MM)
        return self._top

    def room_mm2(self) -> float:
        """The room the tower as rebuilt leaves for the next piece (shelves.room_mm2)."""
        return room_mm2(self._top_view()[0]) if self.tower else ROOM_FULL_MM2

    def _from_axis(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (round(x_mm - self.axis[0] * 1000, 1), round(y_mm - self.axis[1] * 1000, 1))

    def hollows_mm(self) -> list[tuple[float, float]]:
        """The centres of the deepest hollows of the tower's top (holes, cups, grooves, notches),
        from the tower's axis (mm)."""
        if not self.tower:
            return []
        found = find_hollows(*self._top_view())[:HOLLOWS_TRIED]
        return [self._from_axis(h.x_mm, h.y_mm) for h in found]

    def aim_points_mm(self) -> list[tuple[float, float]]:
        """Where placements aim, from the tower's axis (mm): the axis, the top piece's centre
        when it has shifted off it, and the hollows of the top; each point once."""
        if self._aims is None:
            aims: list[tuple[float, float]] = []
            for point in [(0.0, 0.0), self.top_offset_mm(), *self.hollows_mm()]:
                if all(math.dist(point, other) > SAME_CENTRE_MM for other in aims):
                    aims.append(point)
            self._aims = aims
        return self._aims

    def shelf_aims_mm(self, piece: str, orientation: Quat) -> list[tuple[float, float]]:
        """Where on the tower's shelves `piece`, turned to `orientation`, lands flat and clear of
        the rest (shelves.py): the two largest shelves' middles and spots towards their ends,
        from the tower's axis (mm); none on a tower of no pieces."""
        if not self.tower:
            return []
        heights, xs, ys = self._top_view()
        spots = landing_spots(heights, STEP_MM, *footprint_half_mm(piece, orientation))
        return [self._from_axis(x, y) for x, y in shelf_aims(spots, xs, ys)]

    def trial(self, place: Place, tremor: Tremor, rng: np.random.Generator, room: bool = False) -> Trial:
        """One release of `place`; with `room`, what a tower that stood leaves for the next piece
        (shelves.room_mm2)."""
        world = self.world
        before = [world.pose(b)[0] for b in self.tower]
        xy, orientation = tremor.shake((self.axis[0] + place.x_mm / 1000, self.axis[1] + place.y_mm / 1000),
                                       orientation_of(place), rng)
        body = release_over(world, place.piece, xy, orientation, self.tower)
        bodies = [*self.tower, body]
        world.settle(LAB_SETTLE_SECONDS, stop_when=lambda: tower_fallen(world, bodies),
                     watch=[*self.moving, body])
        stood = not tower_fallen(world, bodies)
        moved = max((math.dist(p, world.pose(b)[0]) * 1000 for p, b in zip(before, self.tower, strict=True)),
                    default=0.0)
        left = room_mm2(tower_height_map(world, bodies, STEP_MM, TOP_MARGIN_MM)[0]) if room and stood else 0.0
        world.restore_state(self.snapshot)
        return Trial(stood, moved, left)

    def removal_moves(self, piece_index: int) -> float:
        """How far the rest of the tower moves (mm) when the piece at `piece_index` is taken off;
        infinity when the tower falls."""
        world = self.world
        body = self.tower[piece_index]
        rest = [b for b in self.tower if b != body]
        before = [world.pose(b)[0] for b in rest]
        world.remove(body)
        world.settle(LAB_SETTLE_SECONDS, stop_when=lambda: tower_fallen(world, rest), watch=rest)
        fell = tower_fallen(world, rest)
        moved = max((math.dist(p, world.pose(b)[0]) * 1000 for p, b in zip(before, rest, strict=True)),
                    default=0.0)
        world.restore(body)                  # its mass back first, then every pose as before
        world.restore_state(self.snapshot)
        return math.inf if fell else moved
