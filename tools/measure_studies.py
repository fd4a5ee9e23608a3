"""Orderings a stability study judges per minute, on 1 worker and on 2, in one run (README).

    .venv/bin/python tools/measure_studies.py scenes/examples/mixed-tower.toml --orderings random:12 --trials 5

Runs the same study (`bandu-sim stability SCENE --orderings ... --trials ...`) once per worker
count asked for (default 1, then 2), checks that every run gave the same results build for
build, and prints per run the wall time, the builds per second and the orderings judged (all
their trials done) per minute, as JSON. The workers are spawned processes, their start
included in the time, as the command runs them.
"""

from __future__ import annotations

import argparse
import json


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scene", nargs="?", default="scenes/examples/mixed-tower.toml")
    parser.add_argument("--orderings", default="random:12")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    args = parser.parse_args()

    from simulator.physics.quiet import import_quietly

    import_quietly("simulator.physics.world")
    from simulator.physics.scene import load_scene
    from simulator.studies.orderings import parse_orderings
    from simulator.studies.study import DEFAULT_TREMOR, plan_study, run_study

    scene = load_scene(args.scene)
    plan = plan_study([scene], [scene.tremor or DEFAULT_TREMOR], parse_orderings(args.orderings),
                      args.trials, args.seed)
    runs, first = [], None
    for workers in (int(w) for w in args.workers.split(",")):
        result = run_study(plan, workers=workers)
        if first is None:
            first = result.results
        assert result.results == first, f"{workers} workers gave other results than the first run"
        runs.append({"workers": workers, "builds": result.finished,
                     "wall_seconds": round(result.wall_seconds, 1),
                     "builds_per_second": round(result.finished / result.wall_seconds, 2),
                     "orderings_per_minute": round(result.orderings_per_minute(), 1)})
    stood = sum(r.stood for r in first or [])
    print(json.dumps({"scene": args.scene, "pieces": len(plan.towers[0].pieces),
                      "orderings": args.orderings, "trials": args.trials, "seed": args.seed,
                      "stood": stood, "identical_results": True, "runs": runs}, indent=1))


if __name__ == "__main__":     # guarded: the spawned workers import this module again
    main()
