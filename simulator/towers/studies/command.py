"""`bandu-sim stability` as a study (any of --orderings, --trials, --workers, --report): the
options checked before any work, the jobs run under a progress bar, the results printed (text
or --json) and written (--report). Ctrl+C keeps what was finished: it is printed and written
as usual, a line on standard error says it was interrupted, and the exit status is 130.

The command line (cli.py) has already read every scene and settled each scene's tremor.
"""

from __future__ import annotations

import json
import sys
from argparse import Namespace
from collections.abc import Sequence

from simulator.core.errors import UsageError
from simulator.core.text import printable
from simulator.progress import ProgressBar
from simulator.towers.physics.scene_file import Scene
from simulator.towers.physics.tremor import Tremor
from simulator.towers.studies import study
from simulator.towers.studies.cluster import check_address, import_ray
from simulator.towers.studies.orderings import parse_orderings
from simulator.towers.studies.report import check_report_dir, write_report
from simulator.towers.studies.terminal_table import format_study

INTERRUPTED = 130


def check_study_options(args: Namespace) -> None:
    """--orderings and --report, refused in one line (UsageError) before any work."""
    parse_orderings(args.orderings or "given")
    if args.report is not None:
        check_report_dir(args.report)
    if args.address is not None:
        if args.backend == "local":
            raise UsageError("--address joins a Ray cluster: it goes with --backend ray, "
                             "not --backend local")
        args.backend = "ray"
        check_address(args.address)
    if args.backend == "ray":
        import_ray()                # not installed: said now, before any scene loads


def study_tremor(scene: Scene, tremor: Tremor, noise_given: bool) -> Tremor:
    """A study needs noise: without an option or a scene [tremor], DEFAULT_TREMOR."""
    return tremor if noise_given or scene.tremor else study.DEFAULT_TREMOR


def run_study_command(args: Namespace, scenes: Sequence[Scene], tremors: Sequence[Tremor],
                      workers: int | None) -> int:
    spec = parse_orderings(args.orderings or "given")
    directory = check_report_dir(args.report) if args.report is not None else None
    plan = study.plan_study(scenes, tremors, spec, args.trials or study.DEFAULT_TRIALS, args.seed)
    if spec.kind != "given":
        for tower in plan.towers:
            if not tower.reorderable:
                print(f"bandu-sim: note: {printable(tower.path, 200)}: towers[{tower.tower}] is "
                      "given as explicit placements: judged in its own order only", file=sys.stderr)
    with ProgressBar("stability study", unit="build") as progress:
        result = study.run_study(plan, workers, progress, args.backend or "local", args.address)
    print(json.dumps(result.as_dict(), indent=1) if args.json else format_study(result))
    sys.stdout.flush()
    if directory is not None:
        try:
            written = write_report(directory, result)
        except OSError as error:
            where = printable(str(error.filename or directory), 200)
            raise UsageError(f"cannot write the report to {where}: "
                             f"{error.strerror or error}") from None
        print(f"bandu-sim: report: {printable(str(written[-1]), 200)}", file=sys.stderr)
    if result.interrupted:
        print(f"bandu-sim: interrupted: {result.finished} of {len(plan.jobs)} builds finished "
              "(the results above are theirs)", file=sys.stderr)
        return INTERRUPTED
    return 0
