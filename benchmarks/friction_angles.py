"""The slope at which a piece slides on another piece, for each material pair, against atan(mu).

    .venv/bin/python -m benchmarks friction_angles                          # the chosen settings
    .venv/bin/python -m benchmarks friction_angles maximal_coordinates=True   # plain rigid bodies

The lower piece lies on the table, which is given a friction far above any piece's so that it
stays put; the upper piece is released centred on it, both turned 0 or 45 degrees about the vertical. Once
both are at rest on the level table, the table is tilted (gravity turned at once, no impact) and the angle at which the
upper piece slides (moves more than 2 mm along the lower one within 2 s) is bisected to 0.05
degrees. Each argument overrides one field of PhysicsSettings (a Python literal). Prints, per
pair, the measured angle, atan(mu) and the difference (docs/PHYSICS.md, "True friction").
"""

from __future__ import annotations

import math
import sys
import time

from simulator.towers.physics.fidelity import friction_angle_deg
from simulator.towers.physics.placement import place_on_table, place_on_top
from simulator.towers.physics.world import GRAVITY, PhysicsSettings, World

# (upper, lower): beech on beech, lacquer on beech, lacquer on lacquer
PAIRS = (("cube-large", "base"), ("cone-small", "base"), ("cone-small", "spool"))
SLID_MM = 2.0
WATCH_SECONDS = 2.0
YAWS_DEG = (0.0, 45.0)   # the slope along the pieces' x axis, and along their diagonal


def slides(settings: PhysicsSettings, upper: str, lower: str, slope_deg: float,
           yaw_deg: float = 0.0) -> bool:
    turn = (0.0, 0.0, math.sin(math.radians(yaw_deg) / 2), math.cos(math.radians(yaw_deg) / 2))
    with World(settings) as world:
        world.client.changeDynamics(world.table, -1, lateralFriction=10.0)
        below = place_on_table(world, lower, (0.0, 0.0), turn)
        above = place_on_top(world, upper, (0.0, 0.0), [below], turn)
        world.settle(1.0)   # landed and at rest on the level table, then the table is tilted
        tilt = math.radians(slope_deg)
        world.client.setGravity(GRAVITY * math.sin(tilt), 0, -GRAVITY * math.cos(tilt))
        world.set_pose(above, *world.pose(above))   # awake
        start = [a - b for a, b in zip(world.pose(above)[0], world.pose(below)[0], strict=True)]
        world.step(round(WATCH_SECONDS / settings.time_step))
        end = [a - b for a, b in zip(world.pose(above)[0], world.pose(below)[0], strict=True)]
        return math.dist(start, end) * 1000.0 > SLID_MM


def sliding_angle(settings: PhysicsSettings, upper: str, lower: str, low: float, high: float,
                  yaw_deg: float = 0.0, resolution: float = 0.05) -> float:
    """The least slope (degrees) at which the upper piece slides, between `low` (holds) and
    `high` (slides)."""
    while high - low > resolution:
        middle = (low + high) / 2
        low, high = (low, middle) if slides(settings, upper, lower, middle, yaw_deg) else (middle, high)
    return (low + high) / 2


def main(argv: list[str]) -> int | None:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    try:
        settings = PhysicsSettings(**{**PhysicsSettings.chosen().__dict__,
                                      **PhysicsSettings.changes_from(argv)})
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{'upper on lower':<26} {'turned':>6} {'slides from':>11} {'atan(mu)':>9} {'error':>7} "
          f"{'wall s':>7}")
    for upper, lower in PAIRS:
        for yaw in YAWS_DEG:
            started = time.perf_counter()
            theory = friction_angle_deg(upper, lower)
            angle = sliding_angle(settings, upper, lower, theory - 6.0, theory + 10.0, yaw)
            print(f"{upper + ' on ' + lower:<26} {yaw:>6.0f} {angle:>11.2f} {theory:>9.2f} "
                  f"{angle - theory:>+7.2f} {time.perf_counter() - started:>7.1f}", flush=True)
    return 0
