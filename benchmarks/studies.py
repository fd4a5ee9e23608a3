"""Orderings a stability study judges per minute, on 1 worker, on 2, and on 2 through a private
Ray instance, in one run (docs/studies.md).

    .venv/bin/python -m benchmarks studies scenes/examples/mixed-tower.toml --orderings random:12 --trials 5

Runs the same study (`bandu-sim stability SCENE --orderings ... --trials ...`) once per run
asked for (--runs, default "1,2,ray:2": K local workers, or ray:K for K workers on a private Ray
instance, which needs the extra 'cluster'), checks that every run gave the same results build
for build, and prints per run the wall time, the builds per second and the orderings judged (all
their trials done) per minute, as JSON. The workers' start (spawned processes, or Ray starting
on this machine) is included in the time, as the command runs them.
"""

from __future__ import annotations

import argparse
import json


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scene", nargs="?", default="scenes/examples/mixed-tower.toml")
    parser.add_argument("--orderings", default="random:12")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", default="1,2,ray:2",
                        help="comma-separated: K local workers, or ray:K on a private Ray")
    args = parser.parse_args(argv)

    from simulator.core.quiet_output import import_quietly

    import_quietly("simulator.towers.physics.world")
    from simulator.towers.physics.scene_file import load_scene
    from simulator.towers.studies.orderings import parse_orderings
    from simulator.towers.studies.study import DEFAULT_TREMOR, plan_study, run_study

    scene = load_scene(args.scene)
    plan = plan_study([scene], [scene.tremor or DEFAULT_TREMOR], parse_orderings(args.orderings),
                      args.trials, args.seed)
    runs, first = [], None
    for run in args.runs.split(","):
        backend, _, count = run.rpartition(":")
        workers = int(count)
        result = run_study(plan, workers=workers, backend=backend or "local")
        if first is None:
            first = result.results
        assert result.results == first, f"run {run} gave other results than the first run"
        runs.append({"backend": backend or "local", "workers": workers, "builds": result.finished,
                     "wall_seconds": round(result.wall_seconds, 1),
                     "builds_per_second": round(result.finished / result.wall_seconds, 2),
                     "orderings_per_minute": round(result.orderings_per_minute(), 1)})
    stood = sum(r.stood for r in first or [])
    print(json.dumps({"scene": args.scene, "pieces": len(plan.towers[0].pieces),
                      "orderings": args.orderings, "trials": args.trials, "seed": args.seed,
                      "stood": stood, "identical_results": True, "runs": runs}, indent=1))
