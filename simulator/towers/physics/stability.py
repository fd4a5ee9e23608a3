"""Scene -> verdicts: build each tower placement by placement, settle each, judge.

A tower has fallen when any of its pieces but the foundation touches the table or the floor.
Building stops at the first fall (settling stops the moment the verdict is certain), so the
poses reported for a fallen tower are those at that moment. Towers are built one after the
other on one table; a tower knocked over later by a neighbour is reported as fallen at its
last placement.

Beside the verdict, every piece reports how far its centre of mass moved (`moved_mm`) and how
far it tilted (`tilt_deg`) since its release, and a tower that stood is `disturbed` when a
piece moved more than DISTURBED_MM or tilted more than DISTURBED_DEG. An explicit placement
that had to be raised more than WARN_MM out of another body, or is released more than WARN_MM
above what it lands on, gets a warning.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from simulator.core.text import printable
from simulator.towers.physics.crowns import loads_a_crown_unstably
from simulator.towers.physics.placement import place_on_table, place_on_top
from simulator.towers.physics.scene_file import Placement, Scene, TowerSpec
from simulator.towers.physics.tremor import NO_TREMOR, Tremor
from simulator.towers.physics.world import PhysicsSettings, Quat, Vec3, World, pybullet
from simulator.towers.pieces.geometry import vec3

DISTURBED_MM = 5.0
DISTURBED_DEG = 10.0
WARN_MM = 3.0
# the balance test (docs/PHYSICS.md, "Settling and the verdict"): a standing tower's pieces are
# set turning and moving this fast and watched this long; a piece that then moves this far was
# balanced on an unstable point
NUDGE_RAD_S = 0.01
NUDGE_M_S = 0.001
NUDGE_SECONDS = 1.0
NUDGE_MOVED_MM = 2.0


@dataclass
class PieceReport:
    id: str
    position_mm: tuple[float, float, float]
    touches_table: bool
    moved_mm: float = 0.0  # its centre of mass, since its release
    tilt_deg: float = 0.0  # its vertical axis against the one it was released with

    @property
    def disturbed(self) -> bool:
        return self.moved_mm > DISTURBED_MM or self.tilt_deg > DISTURBED_DEG

    def as_dict(self) -> dict:
        return {"id": self.id, "position_mm": [round(v, 2) for v in self.position_mm],
                "touches_table": self.touches_table, "moved_mm": round(self.moved_mm, 2),
                "tilt_deg": round(self.tilt_deg, 2)}


@dataclass
class TowerReport:
    stood: bool
    fell_at: int | None
    height_mm: float
    pieces: list[PieceReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # stood, but only on an unstable point: the least nudge tips it (balances_unstably), or a
    # load stands on a dome higher than its radius (crowns.py); why, in words
    unstable: bool = False
    unstable_because: str = ""

    @property
    def disturbed(self) -> bool:
        """Stood, but a piece moved more than DISTURBED_MM or tilted more than DISTURBED_DEG."""
        return self.stood and any(p.disturbed for p in self.pieces)

    def as_dict(self) -> dict:
        return {"stood": self.stood, "fell_at": self.fell_at, "disturbed": self.disturbed,
                "unstable": self.unstable, "height_mm": round(self.height_mm, 2),
                "pieces": [p.as_dict() for p in self.pieces], "warnings": self.warnings}


@dataclass
class SceneReport:
    name: str
    path: str
    towers: list[TowerReport]
    simulated_seconds: float
    wall_seconds: float
    tremor: Tremor = NO_TREMOR
    seed: int = 0

    def as_dict(self) -> dict:
        return {"name": self.name, "path": self.path, "towers": [t.as_dict() for t in self.towers],
                "tremor": {"position_mm": self.tremor.position_mm,
                           "angle_deg": self.tremor.angle_deg, "seed": self.seed},
                "simulated_seconds": round(self.simulated_seconds, 3),
                "wall_seconds": round(self.wall_seconds, 3)}

    @property
    def warnings(self) -> list[str]:
        return [w for tower in self.towers for w in tower.warnings]


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
    released: list[tuple[Vec3, Quat]] = field(default_factory=list)  # per body, at release
    warnings: list[str] = field(default_factory=list)
    index: int = 0  # in its scene
    path: str = ""  # of its scene, for warnings

    @property
    def axis(self) -> tuple[float, float]:
        return self.spec.position_mm[0] / 1000.0, self.spec.position_mm[1] / 1000.0

    def fallen(self, world: World) -> bool:
        return tower_fallen(world, self.bodies)


def tower_fallen(world: World, bodies: list[int]) -> bool:
    """The game's rule: a piece other than the foundation (bodies[0]) touches the table or the
    floor, or the foundation itself has left the table (pushed over its edge, slid off a slope:
    its centre below the table top). No bodies: nothing to fall."""
    if not bodies:
        return False
    if not world.bodies_on_ground().isdisjoint(bodies[1:]):
        return True
    return world.pose(bodies[0])[0][2] < 0.0


def balances_unstably(world: World, bodies: list[int]) -> bool:
    """Does this standing tower, at rest, stand only because nothing disturbs it? Its pieces are
    given a nudge (World.nudge) and simulated NUDGE_SECONDS on a snapshot that is then put
    back: a tower at rest on stable faces rocks back, one balanced on an unstable point (a cube
    released exactly on a cone's apex, a cone on its tip) falls or moves NUDGE_MOVED_MM."""
    if not bodies or not world.at_rest(bodies):      # still moving (a ball rolling away)
        return False
    snapshot = world.save_state()
    before = [world.pose(body)[0] for body in bodies]
    try:
        world.nudge(bodies, NUDGE_RAD_S, NUDGE_M_S)
        chunk = world.settings.check_every
        for _ in range(round(NUDGE_SECONDS / world.settings.time_step / chunk)):
            world.step(chunk)           # the whole time: a slow start is still at rest
            if tower_fallen(world, bodies):
                return True
        moved = max(math.dist(world.pose(body)[0], start) for body, start in zip(bodies, before, strict=True))
        return moved * 1000.0 > NUDGE_MOVED_MM          # a fall was seen after every chunk
    finally:
        world.restore_state(snapshot)


def _place_explicitly(world: World, tower: Tower, placement: Placement, tremor: Tremor,
                      rng: np.random.Generator | None) -> int:
    """Release a piece at the placement's pose (shaken by the tremor), raised just clear of
    anything it would overlap; warn when it starts inside another body or in the air."""
    assert placement.position_mm is not None, "an explicit placement has a position"
    x, y, z = (v / 1000.0 for v in placement.position_mm)
    rotation_deg = placement.rotation_deg or (0.0, 0.0, 0.0)
    orientation = pybullet.getQuaternionFromEuler([math.radians(a) for a in rotation_deg])
    xy, orientation = tremor.shake((tower.axis[0] + x, tower.axis[1] + y), orientation, rng)
    body = world.add_piece(placement.piece, (*xy, z), orientation, clear_overlap=False)
    where = (f"{tower.path}: towers[{tower.index}].placements[{len(tower.bodies) - 1}] "
             f"({placement.piece})")
    raised = world.raise_until_clear(body) * 1000.0
    if raised > WARN_MM:
        tower.warnings.append(f"{where}: starts {raised:.1f} mm inside another body; "
                              f"released {raised:.1f} mm higher")
    elif not placement.drop and (drop := world.drop_height(body) * 1000.0) > WARN_MM:
        tower.warnings.append(f"{where}: released {drop:.1f} mm above what it lands on "
                              f"(write drop = true if meant)")
    return body


def place_and_settle(world: World, tower: Tower, placement: Placement, piece_id: str,
                     settle_seconds: float, tremor: Tremor = NO_TREMOR,
                     rng: np.random.Generator | None = None) -> bool:
    """Add one placement to the tower and settle it; True when the tower has fallen."""
    if placement.position_mm is None:
        body = place_on_top(world, placement.piece, tower.axis, tower.bodies, tremor=tremor, rng=rng)
    else:
        body = _place_explicitly(world, tower, placement, tremor, rng)
    tower.bodies.append(body)
    tower.ids.append(piece_id)
    tower.released.append(world.pose(body))
    settled = world.settle(settle_seconds, stop_when=lambda: tower.fallen(world), watch=tower.bodies)
    fallen = tower.fallen(world)
    if not fallen and not settled.at_rest:      # bounded: said, never waited for longer
        tower.warnings.append(f"{tower.path}: towers[{tower.index}].placements"
                              f"[{len(tower.bodies) - 2}] ({placement.piece}): the tower was still "
                              f"moving after {settle_seconds:g} s of settling; the next placement "
                              f"(or the verdict) went on from there")
    return fallen


def tremor_rng(seed: int, tower: int) -> np.random.Generator:
    """The tremor's random numbers for one tower of a scene: the same seed gives the same
    hand, whichever order or process the towers are built in."""
    return np.random.default_rng([seed, tower])


def build_tower(world: World, spec: TowerSpec, settle_seconds: float, ids: PieceIds,
                tremor: Tremor = NO_TREMOR, rng: np.random.Generator | None = None,
                index: int = 0, path: str = "", placed: Callable[[int], object] | None = None) -> Tower:
    """`placed(n)`, when given, hears of every n placements done (those a fall leaves unbuilt
    too), for a progress bar: a tall tower settles for minutes."""
    tower = Tower(spec, [], [ids(spec.foundation)], index=index, path=path)
    tower.bodies.append(place_on_table(world, spec.foundation, tower.axis))
    tower.released.append(world.pose(tower.bodies[0]))
    world.settle(settle_seconds, watch=tower.bodies)
    for number, placement in enumerate(spec.placements):
        fell = place_and_settle(world, tower, placement, ids(placement.piece), settle_seconds, tremor, rng)
        if placed is not None:
            placed(len(spec.placements) - number if fell else 1)
        if fell:
            tower.fell_at = number
            break
    return tower


def _tilt_deg(before: Quat, after: Quat) -> float:
    """The angle between a piece's vertical axis at its release and now."""
    up_before = np.array(pybullet.getMatrixFromQuaternion(before)).reshape(3, 3)[:, 2]
    up_after = np.array(pybullet.getMatrixFromQuaternion(after)).reshape(3, 3)[:, 2]
    return math.degrees(math.acos(max(-1.0, min(1.0, float(up_before @ up_after)))))


def judge_tower(world: World, tower: Tower) -> TowerReport:
    """The verdict on a built tower as the world stands now (a later fall counts)."""
    if tower.fell_at is None and tower.fallen(world):
        tower.fell_at = len(tower.spec.placements) - 1
    pieces = []
    for body, piece_id, (position0, orientation0) in zip(tower.bodies, tower.ids, tower.released,
                                                         strict=True):
        position, orientation = world.pose(body)
        pieces.append(PieceReport(piece_id, vec3(v * 1000.0 for v in position),
                                  world.touches_ground(body),
                                  math.dist(position, position0) * 1000.0,
                                  _tilt_deg(orientation0, orientation)))
    height = max(world.lowest_and_highest(b)[1] for b in tower.bodies) * 1000.0
    stood = tower.fell_at is None
    because = ""
    if stood:
        because = loads_a_crown_unstably(world, tower.bodies) or (
            f"a nudge of {NUDGE_M_S * 1000:g} mm/s and {NUDGE_RAD_S:g} rad/s tips it"
            if balances_unstably(world, tower.bodies) else "")
    return TowerReport(stood, tower.fell_at, height, pieces, tower.warnings,
                       unstable=bool(because), unstable_because=because)


def run_scene(scene: Scene, settings: PhysicsSettings | None = None,
              tremor: Tremor | None = None, seed: int | None = None,
              placed: Callable[[int], object] | None = None) -> SceneReport:
    """Build and judge a scene; `tremor` and `seed` override the scene's own; `placed` as
    for `build_tower`."""
    tremor = scene.tremor if tremor is None else tremor
    seed = scene.seed if seed is None else seed
    start = time.perf_counter()
    ids = PieceIds()
    with World(settings, slope_deg=scene.slope_deg) as world:
        towers = [build_tower(world, spec, scene.settle_seconds, ids, tremor, tremor_rng(seed, i),
                              i, scene.path, placed)
                  for i, spec in enumerate(scene.towers)]
        world.step(round(scene.hold_seconds / world.settings.time_step))
        reports = [judge_tower(world, tower) for tower in towers]
        simulated = world.seconds
    return SceneReport(scene.name, scene.path, reports, simulated, time.perf_counter() - start,
                       tremor, seed)


def _fell(fell_at: int | None) -> str:
    return "-1 (did not fall)" if fell_at is None else str(fell_at)


def check_expectations(scene: Scene, report: SceneReport) -> list[str]:
    """What in the report contradicts the scene's [expect] table (empty: all as expected)."""
    problems = []
    expect = scene.expect
    for index, tower in enumerate(report.towers):
        if expect.stood is not None and tower.stood != expect.stood[index]:
            problems.append(f"tower {index}: stood is {tower.stood}, expected {expect.stood[index]}")
        if expect.fell_at is not None and tower.fell_at != expect.fell_at[index]:
            problems.append(f"tower {index}: fell_at is {_fell(tower.fell_at)}, "
                            f"expected {_fell(expect.fell_at[index])}")
        if expect.unstable is not None and tower.unstable != expect.unstable[index]:
            problems.append(f"tower {index}: unstable is {tower.unstable}, expected "
                            f"{expect.unstable[index]}")
        if expect.disturbed is not None and tower.disturbed != expect.disturbed[index]:
            moved = ", ".join(f"{p.id} {p.moved_mm:.1f} mm / {p.tilt_deg:.1f} deg"
                              for p in tower.pieces if p.disturbed) or "nothing moved"
            problems.append(f"tower {index}: disturbed is {tower.disturbed}, expected "
                            f"{expect.disturbed[index]} ({moved})")
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
        lines.append(f"{printable(scene.name)}  ({printable(scene.path, 200)}; "
                     f"{scene.simulated_seconds:.2f} s simulated "
                     f"in {scene.wall_seconds:.2f} s)")
        lines.append(f"  {'tower':>5}  {'verdict':<22} {'height mm':>9}  pieces")
        for index, tower in enumerate(scene.towers):
            if tower.stood and tower.unstable:
                verdict = "stood, unstable"
            elif tower.stood:
                verdict = "stood, disturbed" if tower.disturbed else "stood"
            else:
                verdict = f"fell after placement {tower.fell_at}"
            down = [p.id for p in tower.pieces[1:] if p.touches_table]
            names = " ".join(p.id for p in tower.pieces)
            lines.append(f"  {index:>5}  {verdict:<22} {tower.height_mm:>9.1f}  {names}")
            if down:
                lines.append(f"  {'':>5}  on the table: {', '.join(down)}")
            if tower.stood and tower.unstable:
                lines.append(f"  {'':>5}  balances on an unstable point: {tower.unstable_because}")
            moved = [f"{p.id} {p.moved_mm:.1f} mm / {p.tilt_deg:.0f} deg"
                     for p in tower.pieces if p.disturbed]
            if moved:
                lines.append(f"  {'':>5}  moved since release: {', '.join(moved)}")
    return "\n".join(lines)
