"""Landings on a slope just below the friction angle: a piece released 0.4 mm above another's
sloping face, tilted by a 0.3 mm / 0.3 degree hand, and how far it slides; and the kinetic
friction of a piece sliding on another's face.

    .venv/bin/python -m benchmarks landings                                  # the chosen settings
    .venv/bin/python -m benchmarks landings contact_breaking_threshold=0.005  # one field changed

The cases: the small cube on the ramp wedge's face at 26.17 degrees (beech on beech, mu 0.5,
friction angle 26.57), the spool on it at 22.30 (lacquer on beech, 0.418, 22.70), the diamond on
the spool's top at 18.89 (lacquer on lacquer, 0.35, 19.29); the slope is the wedge's face
(26.57 degrees) with the table tilted the other way, or the table itself. Per seed: the slide
along the slope (mm) and what the fall allows, v_t^2 / (2 g cos(theta) (mu - tan(theta))) with
v_t the slope's part of the speed the piece's centre of mass gained falling until it landed
(by 60 ms: a landing whose impacts took none of that speed away, and kinetic friction after). Then, per
case, mu_k: the deceleration of the piece sent sliding at 50 mm/s on the face, as a
coefficient (the model's mu_k is its mu). Each argument overrides one field of PhysicsSettings.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np

from simulator.towers.physics.placement import most_stable_orientation, place_on_table
from simulator.towers.physics.tremor import Tremor, rotation_about, then
from simulator.towers.physics.world import GRAVITY, PhysicsSettings, World, rotate, support_points

WEDGE_DEG = math.degrees(math.atan2(30.0, 60.0))    # the ramp wedge: 60 long, 30 high
WEDGE_FACE_MIDDLE_M = (0.010, 0.0, 0.005)           # its face's middle, from its centre of mass
RELEASE_GAP_M = 0.0004
HAND = Tremor(position_mm=0.3, angle_deg=0.3)
SECONDS = 2.0
LANDED_SECONDS = 0.06      # the landing's impacts are over (its fall is measured then)


@dataclass(frozen=True)
class Case:
    name: str
    lower: str            # the ramp wedge (its face) or a piece whose top is flat (the spool)
    upper: str
    slope_deg: float      # the face's slope under gravity
    mu: float


CASES = (Case("small cube on the ramp wedge", "wedge-ramp", "cube-small", 26.17, 0.5),
         Case("spool on the ramp wedge", "wedge-ramp", "spool", 22.30, 0.418),
         Case("diamond on the spool", "spool", "diamond", 18.89, 0.35))


@dataclass(frozen=True)
class Landing:
    slide_mm: float
    allowed_mm: float       # what the fall's speed along the slope allows (module docstring)

    @property
    def within(self) -> bool:
        return self.slide_mm <= self.allowed_mm


@dataclass
class _Slope:
    """A world tilted so that the lower piece's face slopes as asked, the lower piece on the
    table: the face's outward normal and middle (metres), the turn that lays a piece's resting
    face on it, the downhill direction along it and gravity's."""
    world: World
    normal: np.ndarray
    middle: np.ndarray
    lay: tuple
    downhill: np.ndarray
    gravity: np.ndarray

    def touching(self, piece: str, orientation: tuple, point: np.ndarray, gap: float = 0.0) -> np.ndarray:
        """Where the piece's centre goes for its lowest point (along the normal) to be `gap`
        off the face at `point`."""
        points = rotate(orientation, support_points(piece))
        return point + self.normal * (gap - float((points @ self.normal).min()))


def _slope(case: Case, settings: PhysicsSettings, slope_deg: float | None = None) -> _Slope:
    """The world of `case`, its face sloping `slope_deg` (default: the case's)."""
    slope_deg = case.slope_deg if slope_deg is None else slope_deg
    table_deg = slope_deg - (WEDGE_DEG if case.lower == "wedge-ramp" else 0.0)
    world = World(settings, slope_deg=table_deg)
    world.client.changeDynamics(world.table, -1, lateralFriction=10.0)    # the lower piece stays
    lower = place_on_table(world, case.lower, (0.0, 0.0))
    if case.lower == "wedge-ramp":
        a = math.radians(WEDGE_DEG)
        normal = np.array([math.sin(a), 0.0, math.cos(a)])
        middle = np.array(world.pose(lower)[0]) + np.array(WEDGE_FACE_MIDDLE_M)
        lay = rotation_about((0.0, 1.0, 0.0), a)
    else:
        normal = np.array([0.0, 0.0, 1.0])
        middle = np.array([0.0, 0.0, world.lowest_and_highest(lower)[1]])
        lay = (0.0, 0.0, 0.0, 1.0)
    tilt = math.radians(table_deg)
    gravity = np.array([math.sin(tilt), 0.0, -math.cos(tilt)])
    downhill = gravity - normal * (gravity @ normal)
    return _Slope(world, normal, middle, lay, downhill / np.linalg.norm(downhill), gravity)


def landing(case: Case, seed: int, settings: PhysicsSettings | None = None) -> Landing:
    """Release `case.upper` on the face, shaken by the hand (seed), and watch it SECONDS."""
    slope = _slope(case, settings or PhysicsSettings.chosen())
    with slope.world as world:
        rng = np.random.default_rng(seed)
        xy, orientation = HAND.shake((0.0, 0.0), then(most_stable_orientation(case.upper), slope.lay), rng)
        centre = slope.touching(case.upper, orientation, slope.middle + np.array([xy[0], xy[1], 0.0]),
                                RELEASE_GAP_M)
        body = world.add_piece(case.upper, tuple(centre), orientation, clear_overlap=False)
        world.step(round(LANDED_SECONDS / world.settings.time_step))
        moved = np.array(world.pose(body)[0]) - centre
        fell = float((moved - slope.downhill * float(moved @ slope.downhill)) @ slope.gravity)   # the slide left out
        world.step(round((SECONDS - LANDED_SECONDS) / world.settings.time_step))
        slide = float((np.array(world.pose(body)[0]) - centre) @ slope.downhill)
        theta = math.radians(case.slope_deg)
        speed_along = math.sqrt(2 * GRAVITY * max(fell, 0.0)) * math.sin(theta)
        allowed = speed_along ** 2 / (2 * GRAVITY * math.cos(theta) * (case.mu - math.tan(theta)))
        return Landing(round(slide * 1000, 2), round(allowed * 1000, 2))


def kinetic_friction(case: Case, settings: PhysicsSettings | None = None, speed: float = 0.05,
                     below_deg: float = 0.6) -> float:
    """mu_k of the upper piece sliding down the lower's face, sloping `below_deg` under the
    case's slope (so that it stops): laid on it at rest, then sent downhill at `speed` (m/s);
    its deceleration over the next 0.1 s as a coefficient."""
    slope_deg = case.slope_deg - below_deg
    slope = _slope(case, settings or PhysicsSettings.chosen(), slope_deg)
    with slope.world as world:
        orientation = then(most_stable_orientation(case.upper), slope.lay)
        start = slope.touching(case.upper, orientation, slope.middle - slope.downhill * 0.012)
        body = world.add_piece(case.upper, tuple(start), orientation, clear_overlap=False)
        world.step(30)                                   # seated
        world.client.resetBaseVelocity(body, tuple(slope.downhill * speed), (0.0, 0.0, 0.0))
        world.step(12)
        before, at = float(np.array(world.velocity(body)) @ slope.downhill), world.seconds
        world.step(24)
        after = float(np.array(world.velocity(body)) @ slope.downhill)
        deceleration = (before - after) / (world.seconds - at)
        theta = math.radians(slope_deg)
        return math.tan(theta) + deceleration / (GRAVITY * math.cos(theta))


def main(argv: list[str]) -> int | None:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    settings = PhysicsSettings(**PhysicsSettings.changes_from(argv))
    for case in CASES:
        landings = [landing(case, seed, settings) for seed in range(5)]
        within = sum(each.within for each in landings)
        print(f"{case.name} at {case.slope_deg} degrees (mu {case.mu}): slides "
              + ", ".join(f"{each.slide_mm:.1f}" for each in landings) + " mm; the fall allows "
              + ", ".join(f"{each.allowed_mm:.1f}" for each in landings)
              + f" mm; within {within} of 5; mu_k {kinetic_friction(case, settings):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
