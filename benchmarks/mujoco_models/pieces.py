"""The random towers of real pieces in a second, independent engine: MuJoCo.

boxes.py (beside it) cross-checks the box scenes; this module does the same for towers of any
of the 49 pieces, the way `simulator.towers.physics.stability.build_tower` builds an `order` tower
with the default placement policy (towers/physics/placement.py) and the hand's tremor:

- **Shapes.** Cuboids are box geoms of the catalogue's size, the ball an exact sphere (the
  poles and the tall cylinder exact cylinders only where PyBullet's `exact_cylinders` is on);
  every other piece its exact convex collision parts (`meshes.exact_parts`, not the copies in
  <id>.collision.obj that are inset by Bullet's 1 mm margin), one mesh geom per part (MuJoCo
  collides a mesh as its convex hull). PyBullet collides the inset hulls plus its 1 mm margin:
  the same solids with their edges rounded by 1 mm.
- **Mass and inertia** are the catalogue's (catalogue.json via `load_piece`: the body's
  <inertial> at the centre of mass with the full tensor), the piece frame being the centre of
  mass frame, as in PyBullet.
- **Friction.** A pair's coefficient is sqrt(mu_a * mu_b), mu against beech (beech 0.5,
  lacquer 0.35; the table is beech): beech-beech 0.5, lacquer-beech 0.418, lacquer-lacquer
  0.35, as PyBullet's product of square roots. MuJoCo takes the larger of two geoms'
  friction unless one has the higher `priority`, so beech geoms carry 0.5 and lacquer geoms
  0.418 with priority 1 (lacquer-beech: 0.418), and lacquer-lacquer contacts, which would get
  0.418, are not generated dynamically (contype/conaffinity: beech 1/3, lacquer 2/1) but by
  an explicit <pair> per pair of lacquer geoms with friction 0.35. condim 3 (sliding friction
  only): PyBullet's rolling and spinning lever arms (0.02 / 0.04 mm on a rolling contact)
  are below what decides a verdict, and its 0.7 mm on round pieces standing on faces is a
  damping of Bullet's rocking, not a physical figure. No restitution (MuJoCo's contacts are
  critically damped; PyBullet's 0.15 barely bounces wood).
- **Table.** A plane at z = 0 (beech). A tower stands at the table's centre and its build
  stops the moment a piece but the foundation touches the table, so the table's edge and the
  floor below it (PyBullet has them) are never reached; the rule's second half (the
  foundation's centre below the table top) is kept.
- **Release poses: the policy re-implemented, with the same tremor draws.** The foundation is
  released on the table, identity orientation, raised 0.1 mm clear (as `place_on_table`).
  Each placement takes the piece's most stable orientation (`placement.most_stable_orientation`,
  pure geometry) and shakes it with `Tremor.shake` drawing from `stability.tremor_rng(seed, 0)`
  in the same order as PyBullet (one shake per placement, the foundation draws nothing), so
  the x, y and orientation of every release are PyBullet's to the last bit (checked by
  `python -m benchmarks crosscheck` against `Tower.released`). The height is this engine's own:
  the piece's lowest point 0.5 mm above the MuJoCo tower's highest point, then raised by the
  least amount (bisection to 0.05 mm) that keeps it 0.1 mm off every body. Taking PyBullet's
  released heights instead would release a piece inside, or above, a tower that settled a
  little differently; the policy's own rule is what both engines should follow.
- **Settling and the verdict** as `World.settle` and `stability.tower_fallen`: after each
  placement, step until the tower (every body) has been below 4 mm/s and 0.06 rad/s for
  0.15 s, at least 0.2 s, at most the scene's settle_seconds (3 s), or until a piece but the
  foundation touches the table within 0.5 mm (its lowest point, which for a plane table is
  its exact distance to the table, less than 0.5 mm above z = 0; checked every 4 steps) or
  the foundation's centre is below the table top. Building
  stops at the first fall; fell_at is that placement's index (0 = the first piece on the
  foundation), None when the tower stood.

The solver settings are boxes.SETTINGS (1 ms, Newton, elliptic cones, impratio 10,
stiff contacts, 3 no-slip iterations: why is in that module's docstring).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import cache

import mujoco
import numpy as np

from benchmarks.mujoco_models.boxes import SETTINGS, Settings, lift_until_clear, xyz
from simulator.towers.physics.placement import RELEASE_GAP_M, most_stable_orientation
from simulator.towers.physics.stability import tremor_rng
from simulator.towers.physics.tremor import NO_TREMOR, Tremor
from simulator.towers.physics.world import PhysicsSettings, support_points
from simulator.towers.pieces.build import exact_parts, load_piece
from simulator.towers.pieces.catalogue import BY_ID
from simulator.towers.pieces.materials import BEECH, Material

GRAVITY = 9.81
SETTLE_SECONDS = 3.0  # scene.DEFAULT_SETTLE_SECONDS
TABLE = 0  # the table plane is the model's first geom
# contype / conaffinity: lacquer geoms do not meet each other dynamically (explicit pairs do)
_BEECH_BITS = (1, 3)
_LACQUER_BITS = (2, 1)

Quat = tuple[float, float, float, float]  # x y z w, as PyBullet and tremor.py


def pair_friction(a: Material, b: Material) -> float:
    """The coefficient of a pair of materials: the geometric mean of theirs against beech."""
    return math.sqrt(a.friction * b.friction)


def _is_lacquer(material: Material) -> bool:
    return material.friction != BEECH.friction


def _geom_friction(material: Material) -> tuple[float, int]:
    """The geom's friction and priority that give pair_friction against beech pieces and the
    table (lacquer-lacquer pairs are explicit)."""
    if _is_lacquer(material):
        return pair_friction(material, BEECH), 1
    return BEECH.friction, 0


def _f(values) -> str:
    return " ".join(f"{float(v):.9g}" for v in values)


def _wxyz(q: Quat) -> np.ndarray:
    return np.array([q[3], q[0], q[1], q[2]])


def _xyzw(q) -> Quat:
    return (float(q[1]), float(q[2]), float(q[3]), float(q[0]))


def _matrix(q: Quat) -> np.ndarray:
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def extent(piece: str, q: Quat) -> tuple[float, float]:
    """How far the piece's lowest point is below its centre and its highest above it."""
    spec = BY_ID[piece]
    if spec.sphere_radius_mm:
        r = spec.sphere_radius_mm / 1000.0
        return r, r
    z = (support_points(piece) @ _matrix(q).T)[:, 2]
    return float(-z.min()), float(z.max())


@cache
def _mesh_assets(piece: str) -> str:
    return "".join(f'<mesh name="{piece}_{k}" vertex="{_f(part.ravel())}"/>'
                   for k, part in enumerate(exact_parts(piece)))


def _geoms(piece: str, index: int) -> list[str]:
    spec = BY_ID[piece]
    friction, priority = _geom_friction(spec.material)
    contype, conaffinity = _LACQUER_BITS if _is_lacquer(spec.material) else _BEECH_BITS
    common = (f'friction="{friction:.9g} 0.005 0.0001" priority="{priority}" '
              f'contype="{contype}" conaffinity="{conaffinity}"')
    if spec.sphere_radius_mm:
        return [f'<geom name="g{index}_0" type="sphere" size="{spec.sphere_radius_mm / 1000.0:.9g}" {common}/>']
    if spec.box_mm:
        return [f'<geom name="g{index}_0" type="box" size="{_f(v / 2000.0 for v in spec.box_mm)}" {common}/>']
    if spec.cylinder_mm and PhysicsSettings.chosen().exact_cylinders:     # as PyBullet has it
        radius, half = spec.cylinder_mm[0] / 2000.0, spec.cylinder_mm[1] / 2000.0
        return [f'<geom name="g{index}_0" type="cylinder" size="{radius:.9g} {half:.9g}" {common}/>']
    return [f'<geom name="g{index}_{k}" type="mesh" mesh="{piece}_{k}" {common}/>'
            for k in range(len(exact_parts(piece)))]


def model_xml(pieces: list[str], s: Settings = SETTINGS) -> str:
    """The MJCF of a table and these pieces (each a free body parked high up, apart)."""
    solref, solimp = _f(s.solref), _f(s.solimp)
    assets = "".join(_mesh_assets(p) for p in dict.fromkeys(pieces)
                     if not BY_ID[p].sphere_radius_mm and not BY_ID[p].box_mm
                     and not (BY_ID[p].cylinder_mm and PhysicsSettings.chosen().exact_cylinders))
    bodies, lacquer = [], []
    for index, piece in enumerate(pieces):
        asset = load_piece(piece)
        i = np.array(asset.inertia_kg_m2)
        geoms = _geoms(piece, index)
        if _is_lacquer(asset.spec.material):
            lacquer.append((asset.spec.material, [f"g{index}_{k}" for k in range(len(geoms))]))
        bodies.append(f'<body name="p{index}" pos="{index} 0 1"><freejoint/>'
                      f'<inertial pos="0 0 0" mass="{asset.mass_kg:.9g}" '
                      f'fullinertia="{_f([i[0, 0], i[1, 1], i[2, 2], i[0, 1], i[0, 2], i[1, 2]])}"/>'
                      f'{"".join(geoms)}</body>')
    pairs = [f'<pair geom1="{a}" geom2="{b}" condim="3" '
             f'friction="{_f([pair_friction(m1, m2)] * 2)} 0.005 0.0001 0.0001" '
             f'solref="{solref}" solimp="{solimp}"/>'
             for n, (m1, first) in enumerate(lacquer) for m2, second in lacquer[n + 1:]
             for a in first for b in second]
    return f"""<mujoco>
  <option timestep="{s.timestep}" gravity="0 0 {-GRAVITY}" cone="elliptic" impratio="{s.impratio:g}"
          solver="Newton" iterations="{s.iterations}" tolerance="{s.tolerance:g}"
          noslip_iterations="{s.noslip_iterations}"/>
  <default><geom condim="3" solref="{solref}" solimp="{solimp}"/></default>
  <asset>{assets}</asset>
  <worldbody>
    <geom name="table" type="plane" size="0.8 0.5 0.1" friction="{BEECH.friction} 0.005 0.0001"
          contype="{_BEECH_BITS[0]}" conaffinity="{_BEECH_BITS[1]}"/>
    {''.join(bodies)}
  </worldbody>
  <contact>{''.join(pairs)}</contact>
</mujoco>"""


class PiecesWorld:
    """The pieces placed so far; adding one rebuilds the model and carries the state over."""

    def __init__(self, settings: Settings = SETTINGS) -> None:
        self.s = settings
        self.pieces: list[str] = []
        self.model = mujoco.MjModel.from_xml_string(model_xml([], settings))
        self.data = mujoco.MjData(self.model)
        self.seconds = 0.0

    # body index i (0 = the first piece) is MuJoCo body i + 1, its free joint i

    def _qpos(self, body: int) -> slice:
        start = self.model.jnt_qposadr[body]
        return slice(start, start + 7)

    def _qvel(self, body: int) -> slice:
        start = self.model.jnt_dofadr[body]
        return slice(start, start + 6)

    def geoms(self, body: int) -> np.ndarray:
        return np.flatnonzero(self.model.geom_bodyid == body + 1)

    def add(self, piece: str, position, q: Quat) -> int:
        """Put a piece at rest at the pose, then raise it just clear of every body; its index."""
        old_model, old_data = self.model, self.data
        self.pieces.append(piece)
        self.model = mujoco.MjModel.from_xml_string(model_xml(self.pieces, self.s))
        self.data = mujoco.MjData(self.model)
        self.data.qpos[:old_model.nq] = old_data.qpos
        self.data.qvel[:old_model.nv] = old_data.qvel
        self.data.qacc_warmstart[:old_model.nv] = old_data.qacc_warmstart
        self.data.time = old_data.time
        body = len(self.pieces) - 1
        self.raise_until_clear(body, np.asarray(position, float), _wxyz(q))
        mujoco.mj_forward(self.model, self.data)
        return body

    def _put(self, body: int, position: np.ndarray, wxyz: np.ndarray, lift: float) -> None:
        self.data.qpos[self._qpos(body)] = [position[0], position[1], position[2] + lift, *wxyz]
        self.data.qvel[self._qvel(body)] = 0.0
        mujoco.mj_kinematics(self.model, self.data)

    def overlaps(self, body: int) -> bool:
        """Is the piece closer than the clearance (0.1 mm) to any other body or the table?"""
        s, m, d = self.s, self.model, self.data
        clearance = s.clearance
        lowest = self.pose(body)[0][2] - extent(self.pieces[body], self.pose(body)[1])[0]
        if lowest < clearance:
            return True
        mine = self.geoms(body)
        others = np.flatnonzero((m.geom_bodyid != body + 1) & (m.geom_bodyid != 0))
        for g in mine:
            near = (np.linalg.norm(d.geom_xpos[others] - d.geom_xpos[g], axis=1)
                    < m.geom_rbound[others] + m.geom_rbound[g] + clearance)
            for other in others[near]:
                if mujoco.mj_geomDistance(m, d, int(g), int(other), clearance, None) < clearance:
                    return True
        return False

    def raise_until_clear(self, body: int, position: np.ndarray, wxyz: np.ndarray) -> float:
        """As World.raise_until_clear: the least lift (to 0.05 mm) that clears every body."""
        return lift_until_clear(lambda lift: self._put(body, position, wxyz, lift),
                                lambda: self.overlaps(body), self.s.resolution)

    def pose(self, body: int) -> tuple[np.ndarray, Quat]:
        q = self.data.qpos[self._qpos(body)]
        return np.array(q[:3]), _xyzw(q[3:] / np.linalg.norm(q[3:]))

    def lowest_and_highest(self, body: int) -> tuple[float, float]:
        position, q = self.pose(body)
        down, up = extent(self.pieces[body], q)
        return float(position[2] - down), float(position[2] + up)

    def lowest(self, body: int) -> float:
        """The height of the piece's lowest point: its distance to the table plane."""
        return self.lowest_and_highest(body)[0]

    def on_table(self, bodies: list[int]) -> list[int]:
        """Those of the pieces that touch the table (within 0.5 mm), now."""
        return [b for b in bodies if self.lowest(b) < self.s.touch]

    def fallen(self, bodies: list[int]) -> bool:
        """stability.tower_fallen: a piece but the foundation on the table, or the foundation's
        centre below the table top."""
        if not bodies:
            return False
        if self.on_table(bodies[1:]):
            return True
        return bool(self.pose(bodies[0])[0][2] < 0.0)

    def at_rest(self, bodies: list[int]) -> bool:
        for body in bodies:
            v = self.data.qvel[self._qvel(body)]
            if (np.dot(v[:3], v[:3]) > self.s.rest_linear ** 2
                    or np.dot(v[3:], v[3:]) > self.s.rest_angular ** 2):
                return False
        return True

    def settle(self, max_seconds: float, watch: list[int], stop_when=None) -> bool:
        """As World.settle: until `stop_when()`, the watched pieces at rest a while, or
        max_seconds; True when stop_when ended it."""
        s = self.s
        start, resting_since = self.seconds, None
        while self.seconds - start < max_seconds - 1e-9:
            mujoco.mj_step(self.model, self.data, nstep=s.check_every)
            self.seconds += s.check_every * s.timestep
            if stop_when is not None and stop_when():
                return True
            if self.at_rest(watch):
                resting_since = self.seconds if resting_since is None else resting_since
                if (self.seconds - resting_since >= s.rest_seconds - 1e-9
                        and self.seconds - start >= s.min_settle_seconds - 1e-9):
                    return False
            else:
                resting_since = None
        return False


@dataclass
class TowerResult:
    """A tower built in MuJoCo: the verdict, and what is needed to see why."""
    pieces: list[str]  # the foundation first
    stood: bool
    fell_at: int | None
    released: list[tuple[tuple[float, float, float], Quat]] = field(default_factory=list)
    final: list[tuple[float, float, float]] = field(default_factory=list)  # centres, metres
    on_table: list[bool] = field(default_factory=list)  # touches the table at the end
    simulated_seconds: float = 0.0
    wall_seconds: float = 0.0

    @property
    def verdict(self) -> tuple[bool, int | None]:
        return self.stood, self.fell_at


def release_orientations(pieces, tremor: Tremor, seed: int,
                         axis: tuple[float, float] = (0.0, 0.0)):
    """The x, y and orientation of every placement's release, drawn as PyBullet's default
    policy draws them (place_on_top: one Tremor.shake per placement from tremor_rng(seed, 0))."""
    rng = tremor_rng(seed, 0) if tremor else None
    for piece in pieces:
        yield tremor.shake(axis, most_stable_orientation(piece), rng)


def build_tower(foundation: str, pieces, tremor: Tremor = NO_TREMOR, seed: int = 0,
                settle_seconds: float = SETTLE_SECONDS, settings: Settings = SETTINGS,
                world: PiecesWorld | None = None) -> TowerResult:
    """Build a tower at the table's centre with the default placement policy; its verdict."""
    started = time.perf_counter()
    world = world or PiecesWorld(settings)
    identity: Quat = (0.0, 0.0, 0.0, 1.0)
    bodies = [world.add(foundation, (0.0, 0.0, extent(foundation, identity)[0]), identity)]
    released = [world.pose(bodies[0])]
    world.settle(settle_seconds, bodies)
    fell_at = None
    for number, (piece, (xy, q)) in enumerate(zip(pieces, release_orientations(pieces, tremor, seed),
                                                  strict=True)):
        top = max(world.lowest_and_highest(b)[1] for b in bodies)
        z = top + RELEASE_GAP_M + extent(piece, q)[0]
        bodies.append(world.add(piece, (xy[0], xy[1], z), q))
        released.append(world.pose(bodies[-1]))
        world.settle(settle_seconds, bodies, lambda: world.fallen(bodies))
        if world.fallen(bodies):
            fell_at = number
            break
    names = [foundation, *pieces[:len(bodies) - 1]]
    return TowerResult(names, fell_at is None, fell_at,
                       [(xyz(p), q) for p, q in released],
                       [xyz(world.pose(b)[0]) for b in bodies],
                       [bool(world.on_table([b])) for b in bodies],
                       world.seconds, time.perf_counter() - started)
