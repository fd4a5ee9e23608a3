"""How the exact cylinders lying on their side roll: distance in 1 s by slope, and the rolling
acceleration against a solid cylinder's with the chosen rolling lever arm.

    .venv/bin/python -m benchmarks rolling                                   # the chosen settings
    .venv/bin/python -m benchmarks rolling cylinder_rolling_friction=2e-5     # another lever arm

Each piece is released at rest on its side across a base block on the tilted table, its axis
across the slope (tests/test_rolling.py uses the same set-up). The acceleration is a least-squares
fit of x(t) = x0 + a t^2 / 2 over 20 samples in the first second, against
a = 2/3 g (sin t - b / r cos t). Each argument overrides one field of PhysicsSettings (a Python
literal). Prints two tables for docs/PHYSICS.md, "Round shapes".
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from simulator.towers.physics.placement import place_on_table
from simulator.towers.physics.world import GRAVITY, PhysicsSettings, World, pybullet
from simulator.towers.pieces.build import load_piece

PIECES = ("cylinder-tall", "pole-long", "pole-short")
SLOPES_DEG = (0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1.0)
FIT_SLOPES_DEG = (0.5, 1.0)
SAMPLES = 20


def radius_m(piece: str) -> float:
    size = load_piece(piece).spec.cylinder_mm
    assert size is not None, f"{piece} is not a cylinder"
    return size[0] / 2000.0


def roll(settings: PhysicsSettings, piece: str, slope_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """Times (s) and distances (m) the lying `piece` has rolled over the first second."""
    radius = radius_m(piece)
    with World(settings, slope_deg=slope_deg) as world:
        base = place_on_table(world, "base", (0, 0))
        world.settle(0.5)
        lying = pybullet.getQuaternionFromEuler([math.pi / 2, 0, 0])
        body = world.add_piece(piece, (0.0, 0.0, world.lowest_and_highest(base)[1] + radius + 1e-4),
                               lying)
        start = np.array(world.pose(body)[0][:2])
        steps = round(1.0 / SAMPLES / settings.time_step)
        times, distances = [], []
        for i in range(SAMPLES):
            world.step(steps)
            times.append((i + 1) / SAMPLES)
            distances.append(float(np.linalg.norm(np.array(world.pose(body)[0][:2]) - start)))
    return np.array(times), np.array(distances)


def fitted_acceleration(times: np.ndarray, distances: np.ndarray) -> float:
    moving = distances > 5e-4
    if moving.sum() < 4:
        return 0.0
    return 2.0 * float(np.polyfit(times[moving], distances[moving], 2)[0])


def main(argv: list[str]) -> int | None:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    settings = replace(PhysicsSettings.chosen(), exact_cylinders=True,
                       **PhysicsSettings.changes_from(argv))
    arm = settings.cylinder_rolling_friction or settings.rolling_friction
    print(f"lever arm b = {arm * 1000:.3f} mm; mm rolled in 1 s")
    print("| slope, degrees | " + " | ".join(f"{s:g}" for s in SLOPES_DEG) + " | onset atan(b/r) |")
    print("|---" * (len(SLOPES_DEG) + 2) + "|")
    for piece in PIECES:
        radius = radius_m(piece)
        cells = [f"{roll(settings, piece, s)[1][-1] * 1000:.2f}" for s in SLOPES_DEG]
        print(f"| {piece} | " + " | ".join(cells) + f" | {math.degrees(math.atan(arm / radius)):.2f} |")
    print("\nrolling acceleration, m/s^2: measured (theory), and the extra slope it amounts to")
    for piece in PIECES:
        radius = radius_m(piece)
        cells = []
        for slope in FIT_SLOPES_DEG:
            t = math.radians(slope)
            theory = 2.0 / 3.0 * GRAVITY * (math.sin(t) - arm / radius * math.cos(t))
            measured = fitted_acceleration(*roll(settings, piece, slope))
            extra = math.degrees((measured - theory) / (2.0 / 3.0 * GRAVITY))
            cells.append(f"{slope:g} degrees: {measured:.4f} ({theory:.4f}), {extra:+.2f} degrees")
        print(f"{piece}: " + "; ".join(cells))
    return 0
