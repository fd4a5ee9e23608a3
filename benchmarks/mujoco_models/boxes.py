"""A second, independent engine for the box validation scenes: MuJoCo.

Builds an MJCF model of a parsed Scene whose pieces are all cuboids and runs it the way
`simulator.towers.physics.stability` runs PyBullet: the foundation released on the table, then each
explicit placement released at rest at its pose, raised just clear of overlap (bisection to
0.05 mm, 0.1 mm off every body), and settled until at rest or a fall. A tower has fallen when
a piece other than its foundation touches the table or the floor (within 0.5 mm), or the
foundation has left the table (its centre below the table top). The result
is a `stability.SceneReport`, so `stability.check_expectations` judges it.

The table is a 1.6 x 1.0 m box with its top at z = 0, the floor a plane 0.75 m below; a slope
tilts gravity, as World does: gravity = (g sin(slope), 0, -g cos(slope)). Each piece is a box
geom with the catalogue's size and mass (uniform density, so the box's own inertia), friction
0.5 (beech on beech; MuJoCo takes the larger of the two geoms' values, and every geom is
beech).

Settings (SETTINGS), measured on these scenes (drift of what stands over 10 s more):
1 ms steps, Newton solver, stiff contacts (solref 4 ms critically damped, solimp 0.95 .. 0.99:
MuJoCo's default 20 ms / 0.9 .. 0.95 let the base column and the bridges sink 1 - 2.7 mm, past
their 1 - 2 mm expectations), elliptic friction cones with impratio 10 (friction made stiffer
than the normal force: with the default pyramidal cones and impratio 1 a base on the 22 degree
slope, under the friction angle, slips 2.1 mm in 10 s and the upright plank on 10 degrees
2.3 mm; elliptic with impratio 10, 0.10 and 0.18 mm) and 3 no-slip iterations (a post-pass
that removes the soft friction's residual slip inside the cone: 0.000 and 0.003 mm; it does
not stop a block sliding where tan(slope) > 0.5). MuJoCo's defaults throughout (2 ms,
pyramidal, impratio 1) pass the verdicts but creep 1.4 mm (the harmonic staircase) and 4.7 mm
(the upright plank) in 2 s, which test_what_stands_in_mujoco_does_not_creep catches.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import mujoco
import numpy as np
from scipy.spatial.transform import Rotation

from simulator.towers.physics.scene_file import Scene
from simulator.towers.physics.stability import PieceIds, PieceReport, SceneReport, TowerReport
from simulator.towers.physics.table import FLOOR_Z_M, TABLE_HALF_EXTENTS_M
from simulator.towers.pieces.build import load_piece
from simulator.towers.pieces.catalogue import BY_ID

GRAVITY = 9.81
TABLE_HALF = TABLE_HALF_EXTENTS_M
FLOOR_Z = FLOOR_Z_M
FRICTION = 0.5  # beech on beech; the table is beech


def xyz(values: Iterable[float]) -> tuple[float, float, float]:
    """Three numbers as a tuple of Python floats (a position, in its unit)."""
    x, y, z = (float(v) for v in values)
    return x, y, z


def lift_until_clear(put: Callable[[float], None], overlaps: Callable[[], bool],
                     resolution: float) -> float:
    """The least lift (bisection to `resolution`) at which a piece put there (`put(lift)`)
    overlaps nothing (`overlaps()`); the piece is left at it. As World.raise_until_clear."""
    put(0.0)
    if not overlaps():
        return 0.0
    low, high = 0.0, 0.002
    put(high)
    while overlaps():
        low, high = high, high * 2
        put(high)
    while high - low > resolution:
        middle = (low + high) / 2
        put(middle)
        if overlaps():
            low = middle
        else:
            high = middle
    put(high)
    return high


@dataclass(frozen=True)
class Settings:
    timestep: float = 0.001
    solref: tuple[float, float] = (0.004, 1.0)  # contact time constant (s), damping ratio
    solimp: tuple[float, float, float] = (0.95, 0.99, 0.001)
    impratio: float = 10.0  # friction made this much stiffer than the normal force
    noslip_iterations: int = 3  # a post-pass that removes the soft friction's residual slip
    iterations: int = 50
    tolerance: float = 1e-10
    check_every: int = 4  # steps between rest and verdict checks
    rest_linear: float = 0.004  # m/s, as World
    rest_angular: float = 0.06  # rad/s
    rest_seconds: float = 0.15
    min_settle_seconds: float = 0.2
    touch: float = 5e-4  # a piece within this of the table or floor touches it
    clearance: float = 1e-4  # a released piece is raised to this far off every body
    resolution: float = 5e-5


SETTINGS = Settings()


def is_box_scene(scene: Scene) -> bool:
    return all(BY_ID[p].box_mm is not None
               for t in scene.towers for p in [t.foundation, *(q.piece for q in t.placements)])


def _quat_wxyz(rotation_deg) -> np.ndarray:
    # the scene's [roll, pitch, yaw]: R = Rz(yaw) Ry(pitch) Rx(roll), as PyBullet's Euler angles
    x, y, z, w = Rotation.from_euler("xyz", rotation_deg, degrees=True).as_quat()
    return np.array([w, x, y, z])


def _model(pieces: list[str], slope_deg: float, s: Settings) -> mujoco.MjModel:
    tilt = math.radians(slope_deg)
    gravity = f"{GRAVITY * math.sin(tilt):.9g} 0 {-GRAVITY * math.cos(tilt):.9g}"
    solref = " ".join(f"{v:g}" for v in s.solref)
    solimp = " ".join(f"{v:g}" for v in s.solimp)
    bodies = []
    for index, piece in enumerate(pieces):
        asset = load_piece(piece)
        assert asset.spec.box_mm is not None, f"{piece} is not a box"
        half = " ".join(f"{v / 2000.0:.9g}" for v in asset.spec.box_mm)
        bodies.append(f'<body name="p{index}" pos="0 0 {1 + index}"><freejoint/>'
                      f'<geom name="g{index}" type="box" size="{half}" mass="{asset.mass_kg:.9g}"/>'
                      f'</body>')
    xml = f"""<mujoco>
  <option timestep="{s.timestep}" gravity="{gravity}" cone="elliptic" impratio="{s.impratio:g}"
          solver="Newton" iterations="{s.iterations}" tolerance="{s.tolerance:g}"
          noslip_iterations="{s.noslip_iterations}"/>
  <default><geom friction="{FRICTION} 0.005 0.0001" condim="3" solref="{solref}"
                 solimp="{solimp}"/></default>
  <worldbody>
    <geom name="table" type="box" size="{' '.join(map(str, TABLE_HALF))}" pos="0 0 {-TABLE_HALF[2]}"/>
    <geom name="floor" type="plane" size="5 5 0.1" pos="0 0 {FLOOR_Z}"/>
    {''.join(bodies)}
  </worldbody>
</mujoco>"""
    return mujoco.MjModel.from_xml_string(xml)


class MujocoWorld:
    """The pieces placed so far; adding one rebuilds the model and carries the state over."""

    def __init__(self, slope_deg: float, settings: Settings = SETTINGS) -> None:
        self.slope_deg, self.s = slope_deg, settings
        self.pieces: list[str] = []
        self.model = _model([], slope_deg, settings)
        self.data = mujoco.MjData(self.model)
        self.seconds = 0.0

    def _ground(self) -> tuple[int, int]:
        return (mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, "table"),
                mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, "floor"))

    def _geom(self, body: int) -> int:
        return mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, f"g{body}")

    def _qpos(self, body: int) -> slice:
        start = self.model.jnt_qposadr[body]
        return slice(start, start + 7)

    def _qvel(self, body: int) -> slice:
        start = self.model.jnt_dofadr[body]
        return slice(start, start + 6)

    def add(self, piece: str, position: np.ndarray, quat_wxyz: np.ndarray) -> int:
        """A piece at rest at the pose (table frame, metres), raised just clear of every body."""
        old_model, old_data = self.model, self.data
        self.pieces.append(piece)
        self.model = _model(self.pieces, self.slope_deg, self.s)
        self.data = mujoco.MjData(self.model)
        self.data.qpos[:old_model.nq] = old_data.qpos
        self.data.qvel[:old_model.nv] = old_data.qvel
        self.data.time = old_data.time
        body = len(self.pieces) - 1
        lift_until_clear(lambda lift: self._put(body, position, quat_wxyz, lift),
                         lambda: self._overlaps(body), self.s.resolution)
        mujoco.mj_forward(self.model, self.data)
        return body

    def _put(self, body: int, position, quat_wxyz, lift: float) -> None:
        self.data.qpos[self._qpos(body)] = [*position[:2], position[2] + lift, *quat_wxyz]
        self.data.qvel[self._qvel(body)] = 0.0
        mujoco.mj_kinematics(self.model, self.data)

    def _overlaps(self, body: int) -> bool:
        geom = self._geom(body)
        others = [*self._ground(), *(self._geom(b) for b in range(len(self.pieces)) if b != body)]
        return any(mujoco.mj_geomDistance(self.model, self.data, geom, other,
                                          self.s.clearance, None) < self.s.clearance
                   for other in others)

    def touches_ground(self, body: int) -> bool:
        geom = self._geom(body)
        return any(mujoco.mj_geomDistance(self.model, self.data, geom, ground, 0.01, None)
                   < self.s.touch for ground in self._ground())

    def position(self, body: int) -> np.ndarray:
        return np.array(self.data.qpos[self._qpos(body)][:3])

    def highest(self, body: int) -> float:
        pose = self.data.qpos[self._qpos(body)]
        return float(pose[2] + _lowest_offset(self.pieces[body], pose[3:]))  # a box: symmetric

    def at_rest(self, bodies: list[int]) -> bool:
        for body in bodies:
            v = self.data.qvel[self._qvel(body)]
            if (np.dot(v[:3], v[:3]) > self.s.rest_linear ** 2
                    or np.dot(v[3:], v[3:]) > self.s.rest_angular ** 2):
                return False
        return True

    def settle(self, max_seconds: float, watch: list[int], stop_when=None) -> None:
        """As World.settle: until a verdict, the watched pieces at rest a while, or max_seconds."""
        s = self.s
        start, resting_since = self.seconds, None
        while self.seconds - start < max_seconds - 1e-9:
            mujoco.mj_step(self.model, self.data, nstep=s.check_every)
            self.seconds += s.check_every * s.timestep
            if stop_when is not None and stop_when():
                return
            if self.at_rest(watch):
                resting_since = self.seconds if resting_since is None else resting_since
                if (self.seconds - resting_since >= s.rest_seconds - 1e-9
                        and self.seconds - start >= s.min_settle_seconds - 1e-9):
                    return
            else:
                resting_since = None


def _lowest_offset(piece: str, quat_wxyz: np.ndarray) -> float:
    """How far the box's lowest corner is below its centre in this orientation."""
    half = np.array(load_piece(piece).spec.box_mm) / 2000.0
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * half
    w, x, y, z = quat_wxyz
    matrix = Rotation.from_quat([x, y, z, w]).as_matrix()
    return float(-(corners @ matrix.T)[:, 2].min())


def run_scene_mujoco(scene: Scene, settings: Settings = SETTINGS,
                     hold_seconds: float = 0.0) -> SceneReport:
    """The scene's verdicts in MuJoCo, in stability's report form (positions in mm).

    `hold_seconds`: simulate that much longer after the last tower is built (no early stop),
    to see whether what stood creeps."""
    if not is_box_scene(scene):
        raise ValueError(f"{scene.path}: not all pieces are cuboids")
    world = MujocoWorld(scene.slope_deg, settings)
    ids = PieceIds()
    towers = []  # (spec, bodies, ids, fell_at)
    for spec in scene.towers:
        axis = np.array([*spec.position_mm, 0.0]) / 1000.0
        identity = np.array([1.0, 0, 0, 0])
        bodies = [world.add(spec.foundation,
                            axis + np.array([0, 0, _lowest_offset(spec.foundation, identity)]), identity)]
        names = [ids(spec.foundation)]
        fell_at = None

        def fallen(bodies=bodies) -> bool:
            # as stability.Tower.fallen: a piece but the foundation on the ground, or the
            # foundation itself off the table (its centre below the table top)
            return (any(world.touches_ground(b) for b in bodies[1:])
                    or world.position(bodies[0])[2] < 0.0)

        world.settle(scene.settle_seconds, bodies, fallen)
        if fallen():
            fell_at = -1
        for index, placement in enumerate(spec.placements if fell_at is None else ()):
            if placement.position_mm is None:
                raise ValueError(f"{scene.path}: the MuJoCo cross-check takes explicit placements")
            quat = _quat_wxyz(placement.rotation_deg)
            position = axis + np.array(placement.position_mm) / 1000.0
            bodies.append(world.add(placement.piece, position, quat))
            names.append(ids(placement.piece))
            world.settle(scene.settle_seconds, bodies, fallen)
            if fallen():
                fell_at = index
                break
        towers.append((spec, bodies, names, fell_at, fallen))
    steps = round(hold_seconds / settings.timestep)
    if steps:
        mujoco.mj_step(world.model, world.data, nstep=steps)
        world.seconds += steps * settings.timestep
    reports = []
    for spec, bodies, names, fell_at, fallen in towers:
        if fell_at is None and fallen():
            fell_at = len(spec.placements) - 1
        pieces = [PieceReport(name, xyz(world.position(b) * 1000.0),
                              world.touches_ground(b)) for b, name in zip(bodies, names, strict=True)]
        height = max(world.highest(b) for b in bodies) * 1000.0
        reports.append(TowerReport(fell_at is None, fell_at, height, pieces))
    return SceneReport(name=scene.name, path=scene.path, towers=reports,
                       simulated_seconds=world.seconds, wall_seconds=0.0)
