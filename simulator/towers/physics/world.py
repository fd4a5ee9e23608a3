"""The PyBullet world of Bandu: a table, pieces placed on it, stepping, settling and judging.

Headless (a DIRECT client of its own), SI units inside. One World per simulation; the same
calls in the same order give the same poses (PyBullet is deterministic in one process).
The chosen settings and the measurements behind them are in docs/PHYSICS.md.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any

import numpy as np

from simulator.core.quiet_output import import_quietly, quiet_c_output
from simulator.towers.physics.table import FLOOR_Z_M, TABLE_HALF_EXTENTS_M
from simulator.towers.pieces.build import exact_parts, load_piece
from simulator.towers.pieces.catalogue import PieceSpec
from simulator.towers.pieces.geometry import Vec3, vec3
from simulator.towers.pieces.materials import BEECH

# PyBullet prints its build time when first imported, straight to the process's output: a
# library must print nothing into its user's, so the physics imports it silenced (once)
pybullet, bullet_client = import_quietly("pybullet"), import_quietly("pybullet_utils.bullet_client")

Quat = tuple[float, float, float, float]

FLOOR_Z = FLOOR_Z_M
MAX_DROP_M = 20.0          # drop_height looks no further down (a piece is held under 10 m up)
MAX_LOWERING_STEPS = round(MAX_DROP_M / 5e-3) + 20   # its 5 mm steps, and the first, finer ones
GRAVITY = 9.81


@dataclass(frozen=True)
class PhysicsSettings:
    """How the world steps. `chosen()` is what judges (the referee, the studies, `stability`);
    `trials()` is what the computer players estimate with; `pybullet_defaults()` is the
    baseline the benchmark compares with."""
    time_step: float = 1 / 240
    substeps: int = 4
    solver_iterations: int = 60  # multibody columns of 30 and more fell at 30 (PHYSICS.md)
    warm_starting: float | None = 0.95  # share of the last step's impulses the solver starts
    # from; None leaves PyBullet's own 0.1 (Bullet's library default is 0.85)
    restitution: float = BEECH.restitution
    # round pieces only: the lever arm of rolling resistance and of spinning (torsional)
    # friction against beech, metres (docs/PHYSICS.md, "Rolling and spinning") ...
    rolling_friction: float = 2e-5
    spinning_friction: float = 4e-5
    # ... but for an exact cylinder (below) lying on its side the rolling lever arm is this: with
    # less, Bullet's contact points along its line drive it across a level face by themselves
    # (a long pole rolled 250 mm off a level base at 2e-5); None: rolling_friction
    cylinder_rolling_friction: float | None = 5e-5
    # ... and, while a round piece stands on flat faces only (no rolling contact), a lever arm
    # far below any face's half width: it damps the solver's rocking of stacked round pieces;
    # None: the rolling figures everywhere
    face_friction: float | None = 7e-4
    material_friction: bool = True  # False: every body at PyBullet's default 0.5
    exact_boxes: bool = True  # cuboids as Bullet boxes rather than hulls
    # the poles and the tall cylinder as Bullet's own cylinders rather than 16-sided prisms (which
    # rest on a facet up to 11.25 degrees): one lying down starts rolling within a few hundredths
    # of a degree of atan(cylinder_rolling_friction / r) and stays on the level (docs/PHYSICS.md)
    exact_cylinders: bool = True
    # False: every piece a one-link multibody, whose solver holds friction between two pieces
    # to mu N (plain rigid bodies, True, grip 1-3 degrees of slope too hard: docs/PHYSICS.md)
    maximal_coordinates: bool = False
    friction_anchor: bool = True  # Bullet's friction drift correction, except on rolling
    # contacts (an anchored contact point stays put while a rolling one moves: see PHYSICS.md)
    contact_breaking_threshold: float | None = 0.005  # metres; PyBullet default 0.02
    check_every: int = 4  # steps between rest and verdict checks
    rest_linear: float = 0.004  # m/s
    rest_angular: float = 0.06  # rad/s
    rest_seconds: float = 0.15  # all bodies below the thresholds this long: at rest
    sleeping: bool = True  # Bullet stops simulating pieces slower than rest_linear for 2 s
    min_settle_seconds: float = 0.2
    # a finer time step where a tower is tall: (height in metres from which, substeps), the
    # highest reached wins; the world's top is read at the start of every settle
    tall_substeps: tuple[tuple[float, int], ...] = ((0.5, 8), (0.8, 16))

    @classmethod
    def chosen(cls) -> PhysicsSettings:
        return cls()

    @classmethod
    def trials(cls) -> PhysicsSettings:
        """The chosen settings with plain rigid bodies: about three times faster on the short
        towers a computer player tries its placements on, at the price of friction between
        pieces 1-3 degrees of slope too strong. An estimate, never a verdict (docs/PHYSICS.md)."""
        return cls(maximal_coordinates=True, solver_iterations=30)

    @staticmethod
    def changes_from(texts: list[str]) -> dict[str, Any]:
        """Fields by name from 'FIELD=VALUE' texts, each value a Python literal (the measuring
        tools' arguments: 'substeps=4', 'warm_starting=None', 'tall_substeps=()'); a text that
        names no field or holds no literal is a ValueError in one line."""
        known = {f.name for f in fields(PhysicsSettings)}
        changes = {}
        for text in texts:
            name, _, value = text.partition("=")
            if name not in known:
                raise ValueError(f"{text!r}: no setting {name!r} (settings: {', '.join(sorted(known))})")
            try:
                changes[name] = ast.literal_eval(value)
            except (ValueError, SyntaxError, RecursionError):
                raise ValueError(f"{text!r}: the value must be a Python literal") from None
        return changes

    @classmethod
    def pybullet_defaults(cls) -> PhysicsSettings:
        return cls(time_step=1 / 240, substeps=1, solver_iterations=50, warm_starting=None,
                   restitution=0.0,
                   rolling_friction=0.0, cylinder_rolling_friction=0.0, spinning_friction=0.0,
                   face_friction=None,
                   material_friction=False,
                   friction_anchor=False, maximal_coordinates=False, sleeping=False,
                   tall_substeps=())


@dataclass
class SettleResult:
    seconds: float  # simulated
    at_rest: bool
    stopped_early: bool  # the stop condition (a verdict) ended it


@dataclass
class _Body:
    piece_id: str
    body: int
    inertial_orientation: Quat  # principal axes in the piece frame
    rolls: bool  # has a curved surface (rolling and spinning friction)
    anchored: bool  # carries Bullet's friction-anchor flag now
    spec: PieceSpec  # its catalogue entry, kept: the checks after every few steps ask it
    # (loading the asset each time, a look for its files on disk, cost a tenth of a lab trial's CPU)
    on_faces: bool = False  # a round piece with no rolling contact: face_friction applies
    removed_pose: tuple[Vec3, Quat] | None = None


@cache
def _principal_axes(inertia: tuple[tuple[float, ...], ...]) -> tuple[tuple[float, float, float], Quat]:
    tensor = np.array(inertia)
    off_diagonal = np.abs(tensor - np.diag(np.diag(tensor))).max()
    if off_diagonal <= 1e-6 * np.abs(tensor).max():
        return vec3(np.diag(tensor)), (0.0, 0.0, 0.0, 1.0)
    moments, axes = np.linalg.eigh(tensor)
    if np.linalg.det(axes) < 0:
        axes[:, 2] *= -1
    return vec3(moments), _matrix_to_quaternion(axes)


def _matrix_to_quaternion(m: np.ndarray) -> Quat:
    w = math.sqrt(max(0.0, 1 + m[0, 0] + m[1, 1] + m[2, 2])) / 2
    x = math.copysign(math.sqrt(max(0.0, 1 + m[0, 0] - m[1, 1] - m[2, 2])) / 2, m[2, 1] - m[1, 2])
    y = math.copysign(math.sqrt(max(0.0, 1 - m[0, 0] + m[1, 1] - m[2, 2])) / 2, m[0, 2] - m[2, 0])
    z = math.copysign(math.sqrt(max(0.0, 1 - m[0, 0] - m[1, 1] + m[2, 2])) / 2, m[1, 0] - m[0, 1])
    return (x, y, z, w)


# a contact normal this close to an exact cylinder's axis is on one of its flat ends; any other
# (its side, its rim) is a rolling contact, however many points Bullet keeps along it
END_FACE_COS = math.cos(math.radians(3.0))


def _cylinder_span(centre_z: float, orientation: Quat, diameter_mm: float,
                   height_mm: float) -> tuple[float, float]:
    """The lowest and highest z of an exact cylinder (its axis the piece's z) centred at
    `centre_z`: half its height along the axis's vertical part, its radius across the rest."""
    axis_z = float(abs(rotate(orientation, np.array([[0.0, 0.0, 1.0]]))[0, 2]))   # a float, not numpy's
    reach = (height_mm / 2 * axis_z + diameter_mm / 2 * math.sqrt(max(0.0, 1 - axis_z * axis_z))) / 1000.0
    return centre_z - reach, centre_z + reach


MIN_FACE_WIDTH = 5e-4   # metres


def _spans_an_area(points: list[Vec3], width: float = MIN_FACE_WIDTH) -> bool:
    """Do these contact points span an area (a face) at least `width` wide, not a point or a
    line (a rolling contact)? A rolling ball's manifold keeps a trail of old points along its
    path: a line."""
    if len(points) < 3:
        return False
    first = points[0]
    far = max(points, key=lambda p: math.dist(p, first))
    length = math.dist(far, first)
    if length < width:
        return False
    axis = [(far[i] - first[i]) / length for i in range(3)]
    for p in points:
        offset = [p[i] - first[i] for i in range(3)]
        along = sum(offset[i] * axis[i] for i in range(3))
        if math.sqrt(max(0.0, sum(v * v for v in offset) - along * along)) > width:
            return True
    return False


@cache
def support_points(piece_id: str) -> np.ndarray:
    """The vertices of the piece's exact collision parts (metres, centre-of-mass frame)."""
    return np.vstack(exact_parts(piece_id))


def rotate(quaternion: Quat, points: np.ndarray) -> np.ndarray:
    matrix = np.array(pybullet.getMatrixFromQuaternion(quaternion)).reshape(3, 3)
    return points @ matrix.T


class World:
    def __init__(self, settings: PhysicsSettings | None = None, slope_deg: float = 0.0) -> None:
        self.settings = settings or PhysicsSettings.chosen()
        with quiet_c_output():
            self.client = bullet_client.BulletClient(connection_mode=pybullet.DIRECT)
        s = self.settings
        # the calls of every step and check, bound once (BulletClient makes a new partial at
        # each attribute access)
        self._step_simulation = self.client.stepSimulation
        self._contact_points = self.client.getContactPoints
        self._base_velocity = self.client.getBaseVelocity
        self.client.setPhysicsEngineParameter(fixedTimeStep=s.time_step, numSubSteps=s.substeps,
                                              numSolverIterations=s.solver_iterations,
                                              deterministicOverlappingPairs=1)
        if s.warm_starting is not None:
            self.client.setPhysicsEngineParameter(warmStartingFactor=s.warm_starting)
        if s.contact_breaking_threshold is not None:
            self.client.setPhysicsEngineParameter(
                contactBreakingThreshold=s.contact_breaking_threshold)
        # a slope is the table tilted about its y axis: the same as gravity tilted the other way
        tilt = math.radians(slope_deg)
        self.client.setGravity(GRAVITY * math.sin(tilt), 0, -GRAVITY * math.cos(tilt))
        self.seconds = 0.0
        self._steps = 0
        self.substeps = s.substeps          # more where a tower is tall (tall_substeps)
        self._shapes: dict[str, int] = {}
        self._bodies: dict[int, _Body] = {}
        # the table top's surface at z = 0
        table_shape = self.client.createCollisionShape(pybullet.GEOM_BOX,
                                                       halfExtents=TABLE_HALF_EXTENTS_M)
        self.table = self.client.createMultiBody(0, table_shape,
                                                 basePosition=(0, 0, -TABLE_HALF_EXTENTS_M[2]))
        floor_shape = self.client.createCollisionShape(pybullet.GEOM_PLANE)
        self.floor = self.client.createMultiBody(0, floor_shape, basePosition=(0, 0, FLOOR_Z))
        for ground in (self.table, self.floor):
            self.client.changeDynamics(ground, -1, lateralFriction=self._friction(BEECH.friction),
                                       restitution=s.restitution)

    # --- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        if self.client is not None:
            self.client.disconnect()
            self.client = None

    def __enter__(self) -> World:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- pieces -----------------------------------------------------------------------------

    def _friction(self, coefficient: float) -> float:
        return math.sqrt(coefficient) if self.settings.material_friction else 0.5

    def lever_arm(self, against_beech: float) -> float:
        """A round body's rolling or spinning value. Bullet combines a pair as
        r_a * f_b + r_b * f_a (f: the bodies' friction values); flat pieces and the table have
        r = 0, so this makes a round piece's lever arm on beech exactly `against_beech`."""
        return against_beech / self._friction(BEECH.friction)

    def _shape(self, piece_id: str) -> int:
        asset = load_piece(piece_id)
        if asset.id not in self._shapes:
            if asset.spec.sphere_radius_mm:
                shape = self.client.createCollisionShape(
                    pybullet.GEOM_SPHERE, radius=asset.spec.sphere_radius_mm / 1000.0)
            elif asset.spec.box_mm and self.settings.exact_boxes:
                shape = self.client.createCollisionShape(
                    pybullet.GEOM_BOX, halfExtents=[v / 2000.0 for v in asset.spec.box_mm])
            elif asset.spec.cylinder_mm and self.settings.exact_cylinders:
                diameter, height = asset.spec.cylinder_mm
                shape = self.client.createCollisionShape(
                    pybullet.GEOM_CYLINDER, radius=diameter / 2000.0, height=height / 1000.0)
            else:
                shape = self.client.createCollisionShape(pybullet.GEOM_MESH,
                                                         fileName=str(asset.collision_path))
            self._shapes[asset.id] = shape
        return self._shapes[asset.id]

    def add_piece(self, piece_id: str, position: Vec3, orientation: Quat = (0, 0, 0, 1),
                  clear_overlap: bool = True) -> int:
        """Put a piece (its centre of mass at `position`, table frame, metres) at rest.

        With `clear_overlap` it is raised by the least amount that keeps it off every body.
        """
        asset = load_piece(piece_id)
        inertial = _principal_axes(asset.inertia_kg_m2)[1]
        # createMultiBody takes the piece frame's orientation; PyBullet reports (and
        # resetBasePositionAndOrientation sets) that of the principal axes: see pose()
        body = self.client.createMultiBody(asset.mass_kg, self._shape(piece_id),
                                           basePosition=position,
                                           baseOrientation=orientation,
                                           baseInertialFrameOrientation=inertial,
                                           useMaximalCoordinates=self.settings.maximal_coordinates)
        s = self.settings
        self._give_mass(body, piece_id)
        self.client.changeDynamics(body, -1,
                                   lateralFriction=self._friction(asset.spec.material.friction),
                                   restitution=s.restitution)
        if s.sleeping:
            # one threshold for both: rest_linear in m/s and (stricter than rest_angular) rad/s
            self.client.changeDynamics(body, -1, sleepThreshold=s.rest_linear,
                                       activationState=pybullet.ACTIVATION_STATE_ENABLE_SLEEPING)
        self._bodies[body] = _Body(piece_id, body, inertial, asset.spec.rolls, s.friction_anchor, asset.spec)
        self._set_friction(body, s.friction_anchor, on_faces=False, force=True)
        if clear_overlap:
            self.raise_until_clear(body)
        return body

    def _give_mass(self, body: int, piece_id: str) -> None:
        asset = load_piece(piece_id)
        # the mass goes with the inertia: PyBullet zeroes a rigid body's mass otherwise
        self.client.changeDynamics(body, -1, mass=asset.mass_kg,
                                   localInertiaDiagonal=_principal_axes(asset.inertia_kg_m2)[0])

    def pose(self, body: int) -> tuple[Vec3, Quat]:
        """The piece frame's position (its centre of mass) and orientation."""
        position, com_orientation = self.client.getBasePositionAndOrientation(body)
        inverse = self.client.invertTransform((0, 0, 0), self._bodies[body].inertial_orientation)[1]
        return position, self.client.multiplyTransforms((0, 0, 0), com_orientation, (0, 0, 0),
                                                        inverse)[1]

    def set_pose(self, body: int, position: Vec3, orientation: Quat) -> None:
        """Put a piece at a pose, at rest; pieces that slept on or under it wake."""
        self._put(body, position, orientation)
        self._wake()

    def _put(self, body: int, position: Vec3, orientation: Quat) -> None:
        com_orientation = self.client.multiplyTransforms(
            (0, 0, 0), orientation, (0, 0, 0), self._bodies[body].inertial_orientation)[1]
        self.client.resetBasePositionAndOrientation(body, position, com_orientation)
        self.client.resetBaseVelocity(body, (0, 0, 0), (0, 0, 0))

    def _wake(self) -> None:
        """Wake every sleeping piece. Bullet wakes a sleeping stack when something moving
        touches it, not when a piece under it is taken away or moved by hand."""
        if self.settings.sleeping:
            for body in self.bodies():
                self.client.changeDynamics(body, -1,
                                           activationState=pybullet.ACTIVATION_STATE_WAKE_UP)

    def nudge(self, bodies: list[int], angular_speed: float, speed: float = 0.0) -> None:
        """Set each piece turning at `angular_speed` (rad/s) about the horizontal diagonal
        (1, 1, 0) through its centre of mass and moving at `speed` (m/s) along it, and wake
        every piece: the least a breath of air or a hand's last touch gives a tower. A piece at
        rest on a stable face rocks back; a piece balanced on an unstable point (a cube on a
        cone's apex, a plank on a free ball) is tipped off it."""
        diagonal = (1 / math.sqrt(2), 1 / math.sqrt(2), 0.0)
        self._wake()
        for body in bodies:
            self.client.resetBaseVelocity(body, tuple(speed * v for v in diagonal),
                                          tuple(angular_speed * v for v in diagonal))

    def velocity(self, body: int) -> Vec3:
        """The piece's centre of mass's velocity (m/s)."""
        return vec3(self._base_velocity(body)[0])

    def mass(self, body: int) -> float:
        """The piece's mass (kg), as the catalogue gives it."""
        return float(load_piece(self._bodies[body].piece_id).mass_kg)

    def piece_id(self, body: int) -> str:
        return self._bodies[body].piece_id

    def bodies(self) -> list[int]:
        """Pieces in the world (not removed), in the order they were added."""
        return [b for b, info in self._bodies.items() if info.removed_pose is None]

    def remove(self, body: int) -> None:
        """Take a piece out of the world (it keeps its id and can be restored where it was)."""
        info = self._bodies[body]
        info.removed_pose = self.pose(body)
        self.client.resetBasePositionAndOrientation(body, (0, 0, FLOOR_Z - 10 - body), (0, 0, 0, 1))
        self.client.resetBaseVelocity(body, (0, 0, 0), (0, 0, 0))
        self.client.changeDynamics(body, -1, mass=0)
        self._wake()

    def hold_still(self, body: int) -> None:
        """Make a piece immovable where it is (no mass, at rest): other pieces still rest on it
        and strike it. Until the world closes (a snapshot does not hold masses)."""
        self.client.resetBaseVelocity(body, (0, 0, 0), (0, 0, 0))
        self.client.changeDynamics(body, -1, mass=0)

    def restore(self, body: int) -> None:
        info = self._bodies[body]
        if info.removed_pose is None:
            return
        self._give_mass(body, info.piece_id)
        position, orientation = info.removed_pose
        info.removed_pose = None
        self.set_pose(body, position, orientation)

    # --- geometry queries -------------------------------------------------------------------

    def lowest_and_highest(self, body: int) -> tuple[float, float]:
        """The z of the piece's lowest and highest point (metres above the table)."""
        position, orientation = self.pose(body)
        spec = self._bodies[body].spec
        if spec.sphere_radius_mm:
            return position[2] - spec.sphere_radius_mm / 1000.0, position[2] + spec.sphere_radius_mm / 1000.0
        if spec.cylinder_mm and self.settings.exact_cylinders:
            return _cylinder_span(position[2], orientation, *spec.cylinder_mm)
        z = rotate(orientation, support_points(self.piece_id(body)))[:, 2] + position[2]
        return float(z.min()), float(z.max())

    def surface_heights(self, xs: np.ndarray, ys: np.ndarray, bodies: list[int]) -> np.ndarray:
        """The height (metres) of the first of `bodies` a ray straight down meets over each point
        of the grid xs x ys (shape len(xs) x len(ys)); NaN where it meets none of them (the table,
        another tower, nothing). PyBullet casts at most a few thousand rays a call."""
        top = max((self.lowest_and_highest(b)[1] for b in bodies), default=0.0) + 0.01
        grid_x, grid_y = np.meshgrid(xs, ys, indexing="ij")
        starts = [(float(x), float(y), top) for x, y in zip(grid_x.ravel(), grid_y.ravel(), strict=True)]
        ends = [(x, y, -0.001) for x, y, _ in starts]
        heights = np.full(len(starts), np.nan)
        wanted = set(bodies)
        for first in range(0, len(starts), 4000):
            hits = self.client.rayTestBatch(starts[first:first + 4000], ends[first:first + 4000])
            for n, hit in enumerate(hits):
                if hit[0] in wanted:
                    heights[first + n] = hit[3][2]
        return heights.reshape(grid_x.shape)

    def overlaps(self, body: int, clearance: float = 1e-4) -> bool:
        """Is the piece closer than `clearance` to any other body (the table included)?"""
        low, high = self.client.getAABB(body)
        near = self.client.getOverlappingObjects([v - clearance for v in low],
                                                 [v + clearance for v in high]) or []
        others = {other for other, _ in near if other != body}  # the broadphase's candidates
        return any(self.client.getClosestPoints(body, other, clearance) for other in sorted(others))

    def raise_until_clear(self, body: int, resolution: float = 5e-5) -> float:
        """Raise the piece by the least amount (to `resolution`) that clears every body."""
        if not self.overlaps(body):
            return 0.0
        position, orientation = self.pose(body)
        low, high = 0.0, 0.002
        while True:
            self._put(body, (position[0], position[1], position[2] + high), orientation)
            if not self.overlaps(body):
                break
            low, high = high, high * 2
            if high > 5.0:
                raise RuntimeError("cannot find a free place above the piece")
        while high - low > resolution:
            middle = (low + high) / 2
            self._put(body, (position[0], position[1], position[2] + middle), orientation)
            if self.overlaps(body):
                low = middle
            else:
                high = middle
        self.set_pose(body, (position[0], position[1], position[2] + high), orientation)
        return high

    def drop_height(self, body: int, step: float = 5e-4, resolution: float = 5e-5) -> float:
        """How far the piece would fall straight down before it first touches anything (metres;
        0 when it touches already). Found by lowering it in `step`s that grow to at most 5 mm
        (thinner than any piece, so nothing is jumped over), then by bisection. The piece is
        put back where it was, at rest."""
        position, orientation = self.pose(body)
        if not all(math.isfinite(v) for v in (*position, *orientation)):
            raise ValueError(f"a piece at {position} turned {orientation} cannot be lowered")

        def lowered(drop: float) -> bool:  # would it touch something `drop` lower?
            self._put(body, (position[0], position[1], position[2] - drop), orientation)
            return self.overlaps(body, clearance=0.0)

        try:
            clear, drop = 0.0, step
            # lowered at most to the floor, and at most MAX_DROP_M: a bounded loop whatever the pose
            for _ in range(MAX_LOWERING_STEPS):
                if lowered(drop):
                    break
                clear, drop = drop, drop + min(5e-3, max(step, drop))
                if position[2] - drop < FLOOR_Z:
                    return clear
            else:
                return clear
            while drop - clear > resolution:
                middle = (clear + drop) / 2
                clear, drop = (clear, middle) if lowered(middle) else (middle, drop)
            return clear
        finally:
            self._put(body, position, orientation)

    def bodies_on_ground(self, tolerance: float = 5e-4) -> set[int]:
        """The pieces touching the table or the floor (within `tolerance` metres) by the
        contact points of the last step: cheaper than asking `touches_ground` of each piece."""
        return {contact[2] for ground in (self.table, self.floor)
                for contact in self._contact_points(bodyA=ground) or ()
                if contact[8] <= tolerance and self._in_world(contact[2])}

    def resting_on(self, bodies: list[int], tolerance: float = 5e-4) -> dict[int, set[int]]:
        """For each of `bodies`, those of them it rests on: touching it (within `tolerance`
        metres, by the last step's contact points) from below, the contact's normal closer to
        the vertical than 60 degrees (a piece beside another does not rest on it)."""
        among = set(bodies)
        below: dict[int, set[int]] = {body: set() for body in bodies}
        for body in bodies:
            for contact in self._contact_points(bodyA=body) or ():
                other = contact[2]
                if other not in among or contact[8] > tolerance:
                    continue
                up = contact[7][2]              # the normal on `other`, pointing towards `body`
                if up > 0.5:
                    below[body].add(other)
                elif up < -0.5:
                    below[other].add(body)
        return below

    def touching_points(self, a: int, b: int, tolerance: float = 5e-4) -> list[Vec3]:
        """Where `a` touches `b` (within `tolerance` metres), by the last step's contact points:
        the points on `b`, table frame, metres."""
        return [vec3(contact[6]) for contact in self._contact_points(bodyA=a, bodyB=b) or ()
                if contact[8] <= tolerance]

    def _in_world(self, body: int) -> bool:
        """A piece not taken out (a removed one is parked under the floor, touching it)."""
        info = self._bodies.get(body)
        return info is not None and info.removed_pose is None

    def touches_ground(self, body: int, tolerance: float = 5e-4) -> bool:
        """Does the piece touch the table or the floor (within `tolerance` metres)? A piece
        taken out of the world does not."""
        return self._in_world(body) and any(self.client.getClosestPoints(body, ground, tolerance)
                   for ground in (self.table, self.floor))

    # --- time -------------------------------------------------------------------------------

    def step(self, steps: int = 1) -> None:
        for _ in range(steps):
            self._step_simulation()
            self._steps += 1
            if self._steps % self.settings.check_every == 0:
                self._fit_friction_to_contacts()
        self.seconds += steps * self.settings.time_step

    def _fit_friction_to_contacts(self) -> None:
        """Give rolling contacts what rolling needs, resting contacts what resting needs.

        A rolling contact is one where a round piece touches another body at a point or along a
        line: its contact points (closer than 0.1 mm) do not span an area (a ball, a cylinder on
        its side, a cone on its flank, a cube on an apex); a round piece standing on a flat face
        touches over an area. Bullet's friction anchor keeps a contact point where it was made
        while friction holds: right for a block on a block (without it, columns creep and fall),
        wrong where a piece rolls, because the true contact point moves (a ball on a 0.5 degree
        slope then rolls 40 % too fast). Bullet anchors a contact when either body carries the
        flag, so a round piece with a rolling contact loses the flag, and so does what it
        touches. Such pieces get the rolling lever arms; a round piece standing only on faces
        gets `face_friction` (docs/PHYSICS.md).
        """
        s = self.settings
        round_bodies = {b for b, info in self._bodies.items()
                        if info.rolls and info.removed_pose is None}
        if not round_bodies and not any(not i.anchored for i in self._bodies.values()):
            return
        # only the round pieces' contacts (a tower's flat pieces carry most of its points);
        # a pair of round pieces is read once, from the first of them asked
        points: dict[tuple[int, int], list[Vec3]] = {}
        on_its_side: set[tuple[int, int]] = set()   # an exact cylinder touching off its ends
        asked: set[int] = set()
        axes = {body: self._cylinder_axis(body) for body in round_bodies}
        for body in sorted(round_bodies):
            for contact in self._contact_points(bodyA=body) or ():
                if contact[8] > 1e-4 or contact[2] in asked:  # > 0.1 mm: a point the manifold
                    continue  # keeps after the bodies moved apart
                pair = (body, contact[2]) if body < contact[2] else (contact[2], body)
                points.setdefault(pair, []).append(contact[6])
                if any(axis is not None and abs(float(np.dot(axis, contact[7]))) < END_FACE_COS
                       for axis in (axes.get(body), axes.get(contact[2]))):
                    on_its_side.add(pair)
            asked.add(body)
        rolling: set[int] = set()
        touching: set[int] = set()
        # a face is wider than twice its lever arm, or that arm would hold a piece tipping past
        # the face's edge (a dome's crown, the half cylinder's top, 1.2 mm across, roll)
        face_width = max(MIN_FACE_WIDTH, 2.0 * (s.face_friction or 0.0))
        for pair, where in points.items():
            touching.update(pair)
            # a cylinder's end is a face however few points Bullet has kept on it yet
            only_cylinder_ends = all(axes.get(b) is not None for b in pair if b in round_bodies)
            if pair in on_its_side or (not only_cylinder_ends
                                       and not _spans_an_area(where, face_width)):
                rolling.update(pair)
        on_faces_only = round_bodies & touching
        for body in self._bodies:
            self._set_friction(body, s.friction_anchor and body not in rolling,
                               s.face_friction is not None and body in on_faces_only
                               and body not in rolling)

    def friction_state(self, body: int) -> tuple[bool, bool]:
        """(anchored, on faces) of a body now: whether its contacts carry Bullet's friction
        anchor, and whether a round body rests on faces (face friction, not rolling)."""
        info = self._bodies[body]
        return info.anchored, info.on_faces

    def _is_exact_cylinder(self, body: int) -> bool:
        return bool(self.settings.exact_cylinders and self._bodies[body].spec.cylinder_mm)

    def _cylinder_axis(self, body: int) -> np.ndarray | None:
        """An exact cylinder's axis in the world (None for any other piece)."""
        if not self._is_exact_cylinder(body):
            return None
        return rotate(self.pose(body)[1], np.array([[0.0, 0.0, 1.0]]))[0]

    def _set_friction(self, body: int, anchored: bool, on_faces: bool, force: bool = False) -> None:
        """Give a piece the friction anchor or not, and a round piece its face or rolling lever
        arms (Bullet is told only of changes, unless `force`)."""
        info, s = self._bodies[body], self.settings
        if anchored != info.anchored or force:
            info.anchored = anchored
            self.client.changeDynamics(body, -1, frictionAnchor=int(anchored))
        if info.rolls and (on_faces != info.on_faces or force):
            info.on_faces = on_faces
            face_arm = s.face_friction if on_faces else None  # on faces only with a face_friction
            lying_arm = s.rolling_friction
            if self._is_exact_cylinder(body) and s.cylinder_rolling_friction is not None:
                lying_arm = s.cylinder_rolling_friction
            rolling_arm = lying_arm if face_arm is None else face_arm
            spinning_arm = s.spinning_friction if face_arm is None else face_arm
            self.client.changeDynamics(body, -1, rollingFriction=self.lever_arm(rolling_arm),
                                       spinningFriction=self.lever_arm(spinning_arm))

    def _refine_for_height(self) -> None:
        """Step with the substeps `tall_substeps` gives the highest point of any piece now."""
        s = self.settings
        if not s.tall_substeps:
            return
        top = max((self.lowest_and_highest(body)[1] for body in self.bodies()), default=0.0)
        wanted = max([s.substeps] + [n for height, n in s.tall_substeps if top >= height])
        if wanted != self.substeps:
            self.substeps = wanted
            self.client.setPhysicsEngineParameter(numSubSteps=wanted)

    def at_rest(self, bodies: list[int] | None = None) -> bool:
        """Are these pieces (default: all) slower than the rest thresholds?"""
        s = self.settings
        for body in self.bodies() if bodies is None else bodies:
            linear, angular = self._base_velocity(body)
            if (linear[0] ** 2 + linear[1] ** 2 + linear[2] ** 2 > s.rest_linear ** 2
                    or angular[0] ** 2 + angular[1] ** 2 + angular[2] ** 2 > s.rest_angular ** 2):
                return False
        return True

    def settle(self, max_seconds: float, stop_when: Callable[[], bool] | None = None,
               watch: list[int] | None = None,
               after_chunk: Callable[[], None] | None = None,
               min_seconds: float | None = None) -> SettleResult:
        """Step until the watched pieces (default: all) have been at rest for a while,
        `stop_when()` is true (checked between chunks of steps), or `max_seconds` have passed;
        never less than `min_seconds` (default: the settings' min_settle_seconds) unless
        stopped. `after_chunk()` is called after every chunk of steps (to record frames)."""
        s = self.settings
        least = s.min_settle_seconds if min_seconds is None else min_seconds
        self._refine_for_height()
        start, resting_since = self.seconds, None
        while self.seconds - start < max_seconds - 1e-9:
            self.step(s.check_every)
            if after_chunk is not None:
                after_chunk()
            if stop_when is not None and stop_when():
                return SettleResult(self.seconds - start, False, True)
            if self.at_rest(watch):
                resting_since = self.seconds if resting_since is None else resting_since
                if (self.seconds - resting_since >= s.rest_seconds - 1e-9
                        and self.seconds - start >= least - 1e-9):
                    return SettleResult(self.seconds - start, True, False)
            else:
                resting_since = None
        return SettleResult(self.seconds - start, self.at_rest(watch), False)

    # --- whole-state snapshots --------------------------------------------------------------

    def save_state(self) -> Snapshot:
        return Snapshot(self.client.saveState(), self.seconds,
                        {b: info.removed_pose for b, info in self._bodies.items()}, self._steps,
                        {b: (info.anchored, info.on_faces) for b, info in self._bodies.items()})

    def restore_state(self, snapshot: Snapshot) -> None:
        """Back to a saved moment. Pieces added since then are taken out of the world."""
        for body in list(self._bodies):
            if body not in snapshot.removed:
                self.client.removeBody(body)
                del self._bodies[body]
        self.client.restoreState(snapshot.state_id)
        self.seconds = snapshot.seconds
        self._steps = snapshot.steps
        for body, removed in snapshot.removed.items():
            self._bodies[body].removed_pose = removed
        for body, (anchored, on_faces) in snapshot.friction.items():
            self._set_friction(body, anchored, on_faces, force=True)  # not in Bullet's state
        self._wake()


@dataclass
class Snapshot:
    state_id: int
    seconds: float
    removed: dict[int, tuple[Vec3, Quat] | None] = field(default_factory=dict)
    steps: int = 0
    friction: dict[int, tuple[bool, bool]] = field(default_factory=dict)  # anchored, on faces
