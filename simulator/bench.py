"""`bandu-sim bench`: every figure measured beside its reference in one run.

Each registered game that brings a benchmark (Game.benchmark: Tanbo's playouts against its
naive reference), then the physics (simulator/towers/physics/speed.py). The JSON report has one key per
game and "physics"; the text report is the games' own texts, then the physics table.
"""

from __future__ import annotations

from simulator.core import registry
from simulator.progress import Progress


def run_benchmarks(quick: bool = False, progress: Progress | None = None) -> tuple[dict, str]:
    """(figures, text) of every benchmark."""
    from simulator.towers.commands import import_physics_quietly

    import_physics_quietly()        # PyBullet's build-time line would spoil --json
    from simulator.towers.physics.speed import format_physics_report, run_physics_benchmarks

    report: dict = {}
    texts: list[str] = []
    for game in registry.all_games():
        if game.benchmark is not None:
            figures, text = game.benchmark(quick=quick, progress=progress)
            report[game.name] = figures
            texts.append(text)
    report["physics"] = run_physics_benchmarks(quick, progress)
    texts.append(format_physics_report(report["physics"]))
    return report, "\n\n".join(texts)
