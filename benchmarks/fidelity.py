"""The fidelity harness: the chosen physics settings against a converged reference, in one run.

    .venv/bin/python -m benchmarks fidelity                       # the whole corpus
    .venv/bin/python -m benchmarks fidelity --random 60 --workers 2
    .venv/bin/python -m benchmarks fidelity --chosen substeps=4 solver_iterations=60
    .venv/bin/python -m benchmarks fidelity --json > fidelity.json

The corpus and the reference are simulator/towers/physics/fidelity.py's: the validation scenes, the
benchmark towers, straight columns of 20 to 40 flat-topped pieces (exact and with a 0.2 mm
hand), seeded random towers of 4-12 real pieces (0.5 mm / 0.5 degree hand) and piece-on-piece
slopes, judged with the chosen settings and with each rung of a refinement ladder; the random
towers also with their hand's draws scaled by 0.96-1.04, which tells a verdict decided by
chance. It prints each setting's wall time (summed over the cases), how far each rung agrees
with the next (the same verdict, and within chance), the converged reference (the first rung
the next changes for under 0.5 % of the towers beyond chance), and the chosen settings'
agreement with it, overall and by group, and against the verdicts physics gives where they are
known. `--chosen FIELD=VALUE` judges other settings in place of the
chosen ones (a Python literal per field of PhysicsSettings).
"""

from __future__ import annotations

import argparse
import json
import sys

from simulator.progress import ProgressBar
from simulator.towers.physics import fidelity
from simulator.towers.physics.world import PhysicsSettings


def _changes(items: list[str]) -> tuple[tuple[str, object], ...]:
    return tuple(PhysicsSettings.changes_from(items).items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=fidelity.RANDOM_TOWERS,
                        help="random towers in the corpus (default %(default)s)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rungs", type=int, default=fidelity.DEFAULT_RUNGS,
                        help="how many rungs of the ladder to judge (at least 2)")
    parser.add_argument("--rung", action="append", default=[], metavar="'FIELD=VALUE ...'",
                        help="a rung of your own in place of the ladder (repeat, coarsest first)")
    parser.add_argument("--groups", default="", help="only these groups, e.g. column,random")
    parser.add_argument("--chosen", nargs="*", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cases = fidelity.corpus(random_towers=args.random)
    if args.groups:
        cases = [c for c in cases if c.group in args.groups.split(",")]
    try:
        chosen = fidelity.Rung("chosen" + (" + " + " ".join(args.chosen) if args.chosen else ""),
                               _changes(args.chosen))
        rungs = ([fidelity.Rung(text, _changes(text.split())) for text in args.rung] if args.rung
                 else list(fidelity.LADDER[:max(2, args.rungs)]))
    except ValueError as error:
        parser.error(str(error))
    with ProgressBar("fidelity", unit="scene") as bar:
        def progress(done: int, total: int, note: str) -> None:
            bar(done, total, note)
            if not bar.enabled and (done % 25 == 0 or done == total):   # a log, not a terminal
                print(f"fidelity: {done}/{total} {note}", file=sys.stderr, flush=True)

        judged, ladder, reference = fidelity.run(cases, chosen, rungs, workers=args.workers,
                                                 progress=progress)
    if args.json:
        print(json.dumps({"cases": [c.name for c in cases], "reference": reference,
                          "judgements": [{"rung": j.rung.name, "wall_seconds": j.wall_seconds,
                                          "variant_seconds": j.variant_seconds,
                                          "verdicts": j.verdicts,
                                          "outcomes": {name: [sorted(seen, key=str) for seen in towers]
                                                       for name, towers in j.outcomes.items()}}
                                         for j in (judged, *ladder)]}))
    else:
        print(fidelity.format_report(cases, judged, ladder, reference))
    return 0
