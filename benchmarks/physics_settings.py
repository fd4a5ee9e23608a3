"""Measure candidate physics settings on the towers docs/PHYSICS.md chose them by.

    .venv/bin/python -m benchmarks physics_settings                      # the chosen settings
    .venv/bin/python -m benchmarks physics_settings substeps=4 solver_iterations=20
    .venv/bin/python -m benchmarks physics_settings warm_starting=None sleeping=False

Each argument overrides one field of PhysicsSettings (a Python literal). For three towers built
placement by placement (20 base blocks, 20 short planks, the benchmark's 20 mixed pieces) it
prints the verdict, how far the worst piece drifted from the axis after 3 s more standing, the
top piece's sway (standard deviation of its position over those 3 s), and the real-time factors
of the build and of the 3 s standing.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from simulator.towers.physics.bench_towers import TWENTY_MIXED
from simulator.towers.physics.scene_file import Placement, TowerSpec
from simulator.towers.physics.stability import PieceIds, build_tower
from simulator.towers.physics.world import PhysicsSettings, World

TOWERS = {"20 bases": ("base",) * 19, "20 short planks": ("plank-short",) * 19,
          "20 mixed": TWENTY_MIXED}


def measure(settings: PhysicsSettings, pieces: tuple[str, ...]) -> str:
    spec = TowerSpec("base", (0.0, 0.0), tuple(Placement(p) for p in pieces))
    with World(settings) as world:
        start = time.perf_counter()
        tower = build_tower(world, spec, 3.0, PieceIds())
        build_rtf = world.seconds / (time.perf_counter() - start)
        start, path_m = time.perf_counter(), []
        for _ in range(60):
            world.step(round(0.05 / settings.time_step))
            path_m.append([world.pose(b)[0][:2] for b in tower.bodies])
        standing_rtf = 3.0 / (time.perf_counter() - start)
        path = np.array(path_m) * 1000.0
        drift = float(np.abs(path[-1]).sum(axis=1).max())
        sway = float(path[:, -1].std(axis=0).sum())
        verdict = "stood" if tower.fell_at is None and not tower.fallen(world) else (
            f"fell at {tower.fell_at}" if tower.fell_at is not None else "fell standing")
    return (f"{verdict:<14} drift {drift:7.1f} mm  top sway {sway:6.2f} mm  "
            f"build rtf {build_rtf:5.1f}  standing rtf {standing_rtf:6.1f}")


def main(argv: list[str]) -> None:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return
    settings = dataclasses.replace(PhysicsSettings.chosen(), **PhysicsSettings.changes_from(argv))
    print(" ".join(argv) or "chosen settings")
    for name, pieces in TOWERS.items():
        print(f"  {name:<16} {measure(settings, pieces)}")
