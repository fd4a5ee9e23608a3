"""Scene -> verdicts: build each tower placement by placement, settle each, judge.

A tower has fallen when any of its pieces but the foundation touches the table or the floor.
Building stops at the first fall (settling stops the moment the verdict is certain), so the
poses reported for a fallen tower are those at that moment. Towers are built one after the
other on one table; a tower knocked over later by a neighbour is reported as fallen at its
last placement.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from simulator.physics.placement import place_on_table, place_on_top
from simulator.physics.scene import Placement, Scene, TowerSpec
from simulator.physics.world import PhysicsSettings, World, pybullet


@dataclass
class PieceReport:
    id: str
    position_mm: tuple[float, float, float]
    touches_table: bool

    def as_dict(self) -> dict:
        return {"id": self.id, "position_mm": [round(v, 2) for v in self.position_mm],
                "touches_table": self.touches_table}


@dataclass
class TowerReport:
    stood: bool
    fell_at: int | None
    height_mm: float
    pieces: list[PieceReport] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"stood": self.stood, "fell_at": self.fell_at, "height_mm": round(self.height_mm, 2),
                "pieces": [p.as_dict() for p in self.pieces]}


@dataclass
class SceneReport:
    name: str
    path: str
    towers: list[TowerReport]
    simulated_seconds: float
    wall_seconds: float

    def as_dict(self) -> dict:
        return {"name": self.name, "path": self.path, "towers": [t.as_dict() for t in self.towers],
                "simulated_seconds": round(self.simulated_seconds, 3),
                "wall_seconds": round(self.wall_seconds, 3)}


class PieceIds:
    """Live-game ids: the first copy of a piece is `base`, the next `base#2` ..."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, piece: str) -> str:
        self.seen[piece] = self.seen.get(piece, 0) + 1
        return piece if self.seen[piece] == 1 else f"{piece}#{self.seen[piece]}"


@dataclass
class Tower:
    """A tower being built: its foundation first, then the placed pieces."""
    spec: TowerSpec
    bodies: list[int]
    ids: list[str]
    fell_at: int | None = None

    @property
    def axis(self) -> tuple[float, float]:
        return self.spec.position_mm[0] / 1000.0, self.spec.position_mm[1] / 1000.0

    def fallen(self, world: World) -> bool:
        return any(world.touches_ground(b) for b in self.bodies[1:])


def _place(world: World, tower: Tower, placement: Placement) -> int:
    if placement.position_mm is None:
        return place_on_top(world, placement.piece, tower.axis, tower.bodies)
    x, y, z = (v / 1000.0 for v in placement.position_mm)
    orientation = pybullet.getQuaternionFromEuler([math.radians(a) for a in placement.rotation_deg])
    return world.add_piece(placement.piece, (tower.axis[0] + x, tower.axis[1] + y, z), orientation)


def place_and_settle(world: World, tower: Tower, placement: Placement, piece_id: str,
                     settle_seconds: float) -> bool:
    """Add one placement to the tower and settle it; True when the tower has fallen."""
    tower.bodies.append(_place(world, tower, placement))
    tower.ids.append(piece_id)
    world.settle(settle_seconds, stop_when=lambda: tower.fallen(world), watch=tower.bodies)
    return tower.fallen(world)


def build_tower(world: World, spec: TowerSpec, settle_seconds: float, ids: PieceIds) -> Tower:
    tower = Tower(spec, [], [ids(spec.foundation)])
    tower.bodies.append(place_on_table(world, spec.foundation, tower.axis))
    world.settle(settle_seconds, watch=tower.bodies)
    for index, placement in enumerate(spec.placements):
        if place_and_settle(world, tower, placement, ids(placement.piece), settle_seconds):
            tower.fell_at = index
            break
    return tower


def run_scene(scene: Scene, settings: PhysicsSettings | None = None) -> SceneReport:
    start = time.perf_counter()
    ids = PieceIds()
    with World(settings, slope_deg=scene.slope_deg) as world:
        towers = [build_tower(world, spec, scene.settle_seconds, ids) for spec in scene.towers]
        reports = []
        for tower in towers:
            if tower.fell_at is None and tower.fallen(world):
                tower.fell_at = len(tower.spec.placements) - 1
            pieces = []
            for body, piece_id in zip(tower.bodies, tower.ids, strict=True):
                position = world.pose(body)[0]
                pieces.append(PieceReport(piece_id, tuple(v * 1000.0 for v in position),
                                          world.touches_ground(body)))
            height = max(world.lowest_and_highest(b)[1] for b in tower.bodies) * 1000.0
            reports.append(TowerReport(tower.fell_at is None, tower.fell_at, height, pieces))
        simulated = world.seconds
    return SceneReport(scene.name, scene.path, reports, simulated, time.perf_counter() - start)


def check_expectations(scene: Scene, report: SceneReport) -> list[str]:
    """What in the report contradicts the scene's [expect] table (empty: all as expected)."""
    problems = []
    expect = scene.expect
    for index, tower in enumerate(report.towers):
        if expect.stood is not None and tower.stood != expect.stood[index]:
            problems.append(f"tower {index}: stood is {tower.stood}, expected {expect.stood[index]}")
        if expect.fell_at is not None and tower.fell_at != expect.fell_at[index]:
            problems.append(f"tower {index}: fell_at is {tower.fell_at}, "
                            f"expected {expect.fell_at[index]}")
    for piece in expect.pieces:
        pieces = report.towers[piece.tower].pieces
        if piece.index >= len(pieces):
            problems.append(f"tower {piece.tower}: no piece {piece.index}")
            continue
        spec = scene.towers[piece.tower]
        origin = (spec.position_mm[0], spec.position_mm[1], 0.0)
        final = [v - o for v, o in zip(pieces[piece.index].position_mm, origin, strict=True)]
        distance = math.dist(final, piece.position_mm)
        if piece.within_mm is not None and distance > piece.within_mm:
            problems.append(f"tower {piece.tower} piece {piece.index}: {distance:.1f} mm from "
                            f"{list(piece.position_mm)}, expected within {piece.within_mm:g}")
        if piece.beyond_mm is not None and distance < piece.beyond_mm:
            problems.append(f"tower {piece.tower} piece {piece.index}: {distance:.1f} mm from "
                            f"{list(piece.position_mm)}, expected beyond {piece.beyond_mm:g}")
    return problems


def format_reports(reports: list[SceneReport]) -> str:
    lines = []
    for scene in reports:
        lines.append(f"{scene.name}  ({scene.path}; {scene.simulated_seconds:.2f} s simulated "
                     f"in {scene.wall_seconds:.2f} s)")
        lines.append(f"  {'tower':>5}  {'verdict':<22} {'height mm':>9}  pieces")
        for index, tower in enumerate(scene.towers):
            verdict = "stood" if tower.stood else f"fell after placement {tower.fell_at}"
            down = [p.id for p in tower.pieces[1:] if p.touches_table]
            names = " ".join(p.id for p in tower.pieces)
            lines.append(f"  {index:>5}  {verdict:<22} {tower.height_mm:>9.1f}  {names}")
            if down:
                lines.append(f"  {'':>5}  on the table: {', '.join(down)}")
    return "\n".join(lines)
