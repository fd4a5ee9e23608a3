"""The command line: `bandu-sim play|selfplay|stability|pieces|bench|build-meshes`, and the
subcommands each game adds (Game.commands: solo, records) (also `python -m simulator`).

Exit status: 0 on success, 2 on bad input with a one-line message (no traceback), 1 on a bug.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import sys
from typing import Any, NoReturn

from simulator.core import registry
from simulator.core.command_kit import INTERRUPTED, MAX_SEED, add_workers, bounded_int, workers_of
from simulator.core.errors import SimulatorError, UsageError
from simulator.core.text import printable, shown
from simulator.studies.limits import DEFAULT_TRIALS, MAX_ORDERINGS, MAX_TRIALS


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        raise UsageError(message)


def _parse_setting(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise UsageError(f"--setting wants KEY=VALUE, not {shown(text, 40)}")
    try:
        parsed: Any = int(value)
    except ValueError:
        parsed = value
    return key.strip(), parsed


def _parse_settings(texts: list[str]) -> dict[str, Any]:
    """Every --setting KEY=VALUE; a key given twice is refused rather than the last one kept."""
    settings: dict[str, Any] = {}
    for text in texts:
        key, value = _parse_setting(text)
        if key in settings:
            raise UsageError(f"--setting {shown(key, 30)} is given twice ({settings[key]} and {value}): "
                             "give each setting once")
        settings[key] = value
    return settings


WINDOW_WIDTHS = (800, 7680)      # the window's minimum width up to an 8K screen
MAX_GAMES = 100_000              # selfplay --games


def _computer_players() -> str:
    """Each game's computer players as a spec names them: 'mcts:easy|medium|strong for ...'."""
    by_spec: dict[str, list[str]] = {}
    for game in registry.playable_games():
        if game.strengths:
            by_spec.setdefault(f"{game.agent_prefix}:{'|'.join(game.strengths)}", []).append(game.name)
    return "; ".join(f"{spec} for {', '.join(names)}" for spec, names in by_spec.items())


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bandu-sim", description="Desktop simulator of wooden board games.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    computer_players = _computer_players()         # said in the help of play and selfplay

    play = sub.add_parser("play", help="open the window (the menu, or straight into GAME)")
    names = [game.name for game in registry.all_games()]
    play.add_argument("game", nargs="?", help=f"{', '.join(names[:-1])} or {names[-1]} "
                                                "(the menu when none is given)")
    play.add_argument("--players", default=None, metavar="A,B,...",
                      help="start GAME at once with these players: person (someone at this "
                           "machine), random, or the game's computer players as selfplay spells "
                           f"them ({computer_players})")
    play.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                      help="with --players: a game setting, e.g. width=7 or start=classic (repeatable)")
    play.add_argument("--load", metavar="FILE", help="open a saved game")
    play.add_argument("--size", type=bounded_int(*WINDOW_WIDTHS), metavar="WIDTH",
                      help=f"window width in pixels ({WINDOW_WIDTHS[0]}-{WINDOW_WIDTHS[1]})")

    selfplay = sub.add_parser("selfplay", help="computer against computer, many games")
    selfplay.add_argument("game")
    selfplay.add_argument("--games", type=bounded_int(1, MAX_GAMES), default=10,
                          help=f"how many games (1-{MAX_GAMES})")
    selfplay.add_argument("--seed", type=bounded_int(0, MAX_SEED), default=0,
                          help="game n uses seed S + n (0 to 2^63 - 1)")
    selfplay.add_argument("--players", default=None,
                          help="comma-separated players: random, or the game's computer players "
                               f"({computer_players}); default: the game's usual player "
                               "against random")
    selfplay.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                          help="game setting, e.g. size=11 or start=classic (repeatable)")
    add_workers(selfplay, default=1)
    selfplay.add_argument("--json", action="store_true")

    for game in registry.all_games():        # a game's own subcommands (Game.commands)
        if game.commands is not None:
            game.commands(sub)

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
                   "verdict a probability of standing with a 95 percent interval (README)")
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

    pieces = sub.add_parser("pieces", help="the 54-piece catalogue")
    pieces.add_argument("--json", action="store_true")

    sub.add_parser("build-meshes", help="regenerate the piece meshes from the catalogue")

    bench = sub.add_parser("bench", help="measure speed against the reference implementations")
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--quick", action="store_true", help="one short run (a smoke test: an 8-piece tower, 3 verdicts)")
    return parser


def _players(text: str) -> list[str]:
    """--players: comma-separated, blanks ignored."""
    return [p.strip() for p in text.split(",") if p.strip()]


def _cmd_play(args) -> int:
    from simulator.app.main import run_app

    players = None if args.players is None else _players(args.players)
    settings = _parse_settings(args.setting)
    return run_app(game=args.game, load=args.load, width=args.size, players=players,
                   settings=settings)


def _default_selfplay_players(game: Any, settings: dict[str, Any]) -> str:
    """Without --players: the game's computer player against random ones, at the count the
    settings go with (usually the game's usual count; a solo variant's: 1)."""
    return ",".join([game.agent_prefix] + ["random"] * (game.info.players_for(settings) - 1))


def _cmd_selfplay(args) -> int:
    from simulator.progress import ProgressBar
    from simulator.selfplay import check_selfplay, selfplay

    settings = _parse_settings(args.setting)
    game = registry.get_game(args.game)
    heavy = game.worker_import                 # a physics engine may print on import,
    if heavy is not None:                      # and checking the players makes its agents
        from simulator.physics.quiet import import_quietly

        import_quietly(heavy)
    spec = args.players or _default_selfplay_players(game, settings)
    players = _players(spec)
    info = check_selfplay(args.game, players, settings)
    report = selfplay(info.name, args.games, args.seed, players, settings, workers=workers_of(args),
                      progress=ProgressBar(f"{info.name} selfplay"), quiet_import=heavy)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    if info.info.cooperative:                  # the seats win or lose together
        print(f"team of {len(players)} ({', '.join(players)}): {report['wins'][0]} wins of {args.games}")
    else:
        for seat, (player, wins) in enumerate(zip(report["players"], report["wins"], strict=True)):
            print(f"seat {seat} {player:<14} {wins:>4} wins of {args.games}")
    lengths = [g["length"] for g in report["games"]]
    print(f"mean length {sum(lengths) / len(lengths):.1f} moves")
    return 0


def _study_workers(args) -> int | None:
    """A study's --workers: capped at this machine's cores, except on a Ray cluster joined by
    --address (None there when not given: every CPU of the cluster)."""
    if args.backend == "ray" and args.address is not None:
        return args.workers
    if args.backend == "ray" and args.workers is None:
        return None
    return workers_of(args)


def _tremor_override(args, scene):
    from simulator.physics.tremor import Tremor

    for flag, value, high in (("--tremor-mm", args.tremor_mm, 50.0),
                              ("--tremor-deg", args.tremor_deg, 45.0)):
        if value is not None and not 0.0 <= value <= high:  # also refuses nan
            raise UsageError(f"{flag} must be between 0 and {high:g}, not {value}")
    if args.tremor_mm is None and args.tremor_deg is None:
        return scene.tremor
    return Tremor(scene.tremor.position_mm if args.tremor_mm is None else args.tremor_mm,
                  scene.tremor.angle_deg if args.tremor_deg is None else args.tremor_deg)


def _import_physics_quietly() -> None:
    """Load the physics world with PyBullet's build-time line silenced: it goes straight to the
    process's output, where --json must print nothing but JSON."""
    from simulator.physics.quiet import import_quietly

    import_quietly("simulator.physics.world")


def _cmd_stability(args) -> int:
    _import_physics_quietly()
    from simulator.physics.scene_file import load_scene
    from simulator.physics.stability import check_expectations, format_reports, run_scene
    from simulator.progress import ProgressBar

    study = any(value is not None for value in (args.orderings, args.trials, args.workers,
                                                args.report, args.backend, args.address))
    if study:
        from simulator.studies import command

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


def _cmd_pieces(args) -> int:
    from simulator.pieces.build import piece_table

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


def _cmd_build_meshes(args) -> int:
    from simulator.pieces.build import assets_dir, write_assets
    from simulator.progress import ProgressBar

    try:
        written = write_assets(progress=ProgressBar("build-meshes"))
    except OSError as error:
        where = printable(str(error.filename or assets_dir()), 200)
        raise UsageError(f"cannot write the meshes to {where}: {error.strerror or error}") from None
    print(f"wrote {len(written)} files to {assets_dir()}")
    return 0


def _cmd_bench(args) -> int:
    _import_physics_quietly()
    from simulator.bench import run_benchmarks
    from simulator.progress import ProgressBar

    report, text = run_benchmarks(quick=args.quick, progress=ProgressBar("bench"))
    print(json.dumps(report, indent=1) if args.json else text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["play", *(argv or [])])
        handler = getattr(args, "handler", None) or {
            "play": _cmd_play, "selfplay": _cmd_selfplay, "stability": _cmd_stability,
            "pieces": _cmd_pieces, "build-meshes": _cmd_build_meshes, "bench": _cmd_bench}[args.command]
        status = handler(args)
        sys.stdout.flush()          # a closed pipe or a full disk shows here, not at exit
        return status
    except SimulatorError as error:
        print(f"bandu-sim: error: {printable(str(error), 400)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bandu-sim: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # the reader went away (`bandu-sim pieces | head -3`): stop quietly, as a pipeline expects
        _silence_stdout()
        return 128 + signal.SIGPIPE
    except OSError as error:
        if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO) and _is_output_error(error):
            _silence_stdout()
            print(f"bandu-sim: error: cannot write the output: {error.strerror}", file=sys.stderr)
            return 1
        raise


def _is_output_error(error: OSError) -> bool:
    """An error of writing standard output (not of a file the command was working on)."""
    return error.filename is None


def _silence_stdout() -> None:
    """Point standard output at /dev/null so that Python's flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    raise SystemExit(main())
