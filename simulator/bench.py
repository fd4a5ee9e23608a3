"""`bandu-sim bench`: every figure measured beside its reference in one run.

Tanbo's playouts (simulator/games/tanbo/bench.py), then the physics (simulator/physics/bench.py).
"""

from __future__ import annotations

from simulator.games.tanbo import bench as tanbo_bench
from simulator.progress import Progress


def run_benchmarks(quick: bool = False, progress: Progress | None = None) -> dict:
    from simulator.physics.bench import run_physics_benchmarks

    return (tanbo_bench.run_benchmark(quick, progress)
            | {"physics": run_physics_benchmarks(quick, progress)})


def format_report(report: dict) -> str:
    text = tanbo_bench.format_report(report)
    if "physics" in report:
        from simulator.physics.bench import format_physics_report

        text += "\n\n" + format_physics_report(report["physics"])
    return text
