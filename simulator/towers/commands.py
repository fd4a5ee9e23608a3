"""The tower library's commands, which Bandu brings to the command line (Game.commands):
`stability` (whether the towers of scene files stand, and studies of them), `pieces` (the
catalogue) and `build-meshes` (the pieces' meshes)."""

from __future__ import annotations

import json
import sys

from simulator.core.command_kit import MAX_SEED, add_workers, bounded_int, workers_of
from simulator.core.errors import UsageError
from simulator.core.registry import Subcommands
from simulator.core.text import printable
from simulator.towers.studies.limits import DEFAULT_TRIALS, MAX_ORDERINGS, MAX_TRIALS


def add_commands(sub: Subcommands) -> None:
    """`stability`, `pieces` and `build-meshes` on the command line's subparsers."""
    stability = sub.add_parser(
        "stability", help="simulate the towers of scene files, judge them and check their [expect]",
        description="Build the towers of scene files piece by piece in PyBullet and say whether, "
                    "where and how they fall. A scene's [expect] table is checked: exit 1 when "
                    "any expectation fails, 0 when all hold (docs/SCENES.md).")
    stability.add_argument("scenes", nargs="+", metavar="SCENE", help="TOML scene files")
    stability.add_argument("--json", action="store_true", help="print the report as JSON")
    stability.add_argument("--tremor-mm", "--noise-mm", dest="tremor_mm", type=float, metavar="MM",
                           help="hand tremor (release noise): standard deviation of the release "
                                "point across the table, mm (overrides the scene's [tremor])")
    stability.add_argument("--tremor-deg", "--noise-deg", dest="tremor_deg", type=float,
                           metavar="DEG",
                           help="hand tremor (release noise): standard deviation of the release "
                                "tilt and turn, degrees (overrides the scene's [tremor])")
    stability.add_argument("--seed", type=bounded_int(0, MAX_SEED),
                           help="the tremor's seed (overrides the scene's); in a study, trial t "
                                "uses S + t")
    study = stability.add_argument_group(
        "studies", "any of these makes a study: every tower built many times, each ordering's "
                   "verdict a probability of standing with a 95 percent interval (docs/studies.md)")
    study.add_argument("--orderings", metavar="given|permutations|random:N",
                       help=f"orders of a tower's pieces to judge: its own (default), every "
                            f"distinct one (at most {MAX_ORDERINGS}), or N seeded at random")
    study.add_argument("--trials", type=bounded_int(1, MAX_TRIALS), metavar="T",
                       help=f"builds of each ordering, each with its own seed (1-{MAX_TRIALS}, "
                            f"default {DEFAULT_TRIALS})")
    add_workers(study, default=None)       # given, it makes a study
    study.add_argument("--backend", choices=("local", "ray"),
                       help="where the builds run: processes on this machine (default) or a Ray "
                            "cluster (the optional extra 'cluster')")
    study.add_argument("--address", metavar="HOST:PORT",
                       help="join the running Ray cluster whose head is there (implies --backend "
                            "ray); without it, --backend ray starts a private one here")
    study.add_argument("--report", metavar="DIR",
                       help="write an HTML report and the raw results (CSV, JSON) into DIR")

    stability.set_defaults(handler=run_stability)

    pieces = sub.add_parser("pieces", help="the 54-piece catalogue")
    pieces.add_argument("--json", action="store_true")
    pieces.set_defaults(handler=run_pieces)

    meshes = sub.add_parser("build-meshes", help="regenerate the piece meshes from the catalogue")
    meshes.set_defaults(handler=run_build_meshes)


def _study_workers(args) -> int | None:
    """A study's --workers: capped at this machine's cores, except on a Ray cluster joined by
    --address (None there when not given: every CPU of the cluster)."""
    if args.backend == "ray" and args.address is not None:
        return args.workers
    if args.backend == "ray" and args.workers is None:
        return None
    return workers_of(args)


def _tremor_override(args, scene):
    from simulator.towers.physics.tremor import Tremor

    for flag, value, high in (("--tremor-mm", args.tremor_mm, 50.0),
                              ("--tremor-deg", args.tremor_deg, 45.0)):
        if value is not None and not 0.0 <= value <= high:  # also refuses nan
            raise UsageError(f"{flag} must be between 0 and {high:g}, not {value}")
    if args.tremor_mm is None and args.tremor_deg is None:
        return scene.tremor
    return Tremor(scene.tremor.position_mm if args.tremor_mm is None else args.tremor_mm,
                  scene.tremor.angle_deg if args.tremor_deg is None else args.tremor_deg)


def import_physics_quietly() -> None:
    """Load the physics world with PyBullet's build-time line silenced: it goes straight to the
    process's output, where --json must print nothing but JSON."""
    from simulator.core.quiet_output import import_quietly

    import_quietly("simulator.towers.physics.world")


def run_stability(args) -> int:
    import_physics_quietly()
    from simulator.progress import ProgressBar
    from simulator.towers.physics.scene_file import load_scene
    from simulator.towers.physics.stability import check_expectations, format_reports, run_scene

    study = any(value is not None for value in (args.orderings, args.trials, args.workers,
                                                args.report, args.backend, args.address))
    if study:
        from simulator.towers.studies import command

        command.check_study_options(args)   # before the scenes load: nothing is half-done
    scenes = [load_scene(path) for path in args.scenes]  # every file checked before any runs
    tremors = [_tremor_override(args, scene) for scene in scenes]
    if study:
        noise_given = args.tremor_mm is not None or args.tremor_deg is not None
        tremors = [command.study_tremor(scene, tremor, noise_given)
                   for scene, tremor in zip(scenes, tremors, strict=True)]
        return command.run_study_command(args, scenes, tremors, _study_workers(args))
    reports, failures, expecting, failed_scenes = [], [], 0, 0
    # counted in placements, not scenes: one scene within every limit (64 towers of 200
    # pieces) settles for hours, and the bar says how long it will take
    total = sum(len(tower.placements) for scene in scenes for tower in scene.towers) or 1
    done = 0
    with ProgressBar("stability", unit="piece") as progress:
        for scene, tremor in zip(scenes, tremors, strict=True):
            def placed(count: int, name: str = scene.name) -> None:
                nonlocal done
                done += count
                progress(done, total, name)

            progress(done, total, scene.name)
            report = run_scene(scene, tremor=tremor, seed=args.seed, placed=placed)
            reports.append(report)
            for warning in report.warnings:
                print(f"bandu-sim: warning: {warning}", file=sys.stderr)
            if scene.expect.expects_anything:
                expecting += 1
                problems = check_expectations(scene, report)
                failed_scenes += bool(problems)
                failures += [f"{scene.path}: {problem}" for problem in problems]
        progress(total, total, "done")
    if args.json:
        print(json.dumps({"scenes": [r.as_dict() for r in reports],
                          "expectations": {"scenes_checked": expecting, "failed": failures}},
                         indent=1))
    else:
        print(format_reports(reports))
        if expecting:
            print(f"expectations: {expecting - failed_scenes} of {expecting} scenes as expected")
    for failure in failures:
        print(f"bandu-sim: expectation failed: {failure}", file=sys.stderr)
    return 1 if failures else 0


def run_pieces(args) -> int:
    from simulator.towers.pieces.build import piece_table

    rows = piece_table()
    if args.json:
        print(json.dumps({"pieces": rows}, indent=1))
        return 0
    print(f"{'id':<17} {'name':<19} {'count':>5} {'material':<14} {'size mm':<18} {'mass g':>7} {'parts':>5}")
    for row in rows:
        size = " x ".join(f"{v:g}" for v in row["size_mm"])
        print(f"{row['id']:<17} {row['name']:<19} {row['count']:>5} {row['material']:<14} {size:<18}"
              f" {row['mass_g']:>7.1f} {row['convex_parts']:>5}")
    print(f"{sum(r['count'] for r in rows)} pieces in {len(rows)} kinds")
    return 0


def run_build_meshes(args) -> int:
    from simulator.progress import ProgressBar
    from simulator.towers.pieces.build import assets_dir, write_assets

    try:
        written = write_assets(progress=ProgressBar("build-meshes"))
    except OSError as error:
        where = printable(str(error.filename or assets_dir()), 200)
        raise UsageError(f"cannot write the meshes to {where}: {error.strerror or error}") from None
    print(f"wrote {len(written)} files to {assets_dir()}")
    return 0
