"""Bandu's own subcommands (Game.commands): `solo`, the computer's record attempts, and
`records`, every attempt and the personal bests, their export and import."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from simulator.core import registry
from simulator.core.command_kit import INTERRUPTED, MAX_SEED, add_workers, bounded_int, workers_of
from simulator.core.errors import UsageError
from simulator.core.registry import Subcommands
from simulator.core.text import printable, shown
from simulator.games.bandu.rules import BUILDING_PIECES

MAX_ATTEMPTS = 10_000            # solo --attempts


STANDARD_OUTPUT = "-"          # --export -: the records on standard output


def add_commands(sub: Subcommands) -> None:
    """`solo` and `records` on the command line's subparsers."""
    solo = sub.add_parser(
        "solo", help="the computer's record attempts at Bandu's solo or chain game",
        description="The computer plays one-player Bandu games to their end, every placement "
                    "judged by the physics, and stores each attempt in the solo records "
                    "(bandu-sim records). Attempt n uses seed S + n.")
    solo.add_argument("--player", required=True, metavar="ai:LEVEL",
                      help="the computer player: ai:easy, ai:medium or ai:strong")
    solo.add_argument("--attempts", type=bounded_int(1, MAX_ATTEMPTS), default=10,
                      help=f"how many attempts (1-{MAX_ATTEMPTS}, default 10)")
    solo.add_argument("--seed", type=bounded_int(0, MAX_SEED), default=0,
                      help="attempt n uses seed S + n (0 to 2^63 - 1)")
    chain = solo.add_mutually_exclusive_group()
    chain.add_argument("--chain", metavar="SCENE",
                       help="the chain game, the chain being the order of the first tower of "
                            "this scene file")
    chain.add_argument("--chain-seed", type=bounded_int(0, MAX_SEED), metavar="K",
                       help="the chain game with the chain drawn from seed K")
    solo.add_argument("--reserve", type=bounded_int(1, len(BUILDING_PIECES)), metavar="N",
                      help=f"play with N pieces, not all {len(BUILDING_PIECES)} (solo: drawn at random; a seeded "
                           "chain: its first N); kept apart from the full game's records")
    add_workers(solo, default=1)
    solo.add_argument("--json", action="store_true")

    records = sub.add_parser(
        "records", help="the solo records: every attempt and the personal bests",
        description="List the attempts at Bandu's solo and chain games (a person's or the "
                    "computer's) and the personal bests; export them to a JSON file, or import "
                    "one.")
    records.add_argument("--json", action="store_true")
    records.add_argument("--export", metavar="FILE",
                         help="write every attempt to a JSON file (-: to standard output)")
    records.add_argument("--import", dest="import_file", metavar="FILE",
                         help="add the attempts of an exported file (those already stored are "
                              "skipped)")
    solo.set_defaults(handler=run_solo)
    records.set_defaults(handler=run_records)


def _solo_player(spec: str) -> str:
    """--player: ai:LEVEL (ai alone is the medium player), as the records name it."""
    from simulator.core.agents import parse_agent_spec

    game = registry.get_game("bandu")
    kind, level = parse_agent_spec(spec)
    level = level or game.default_strength
    if kind != game.agent_prefix or level not in game.strengths:
        raise UsageError(f"--player wants {', '.join(f'ai:{s}' for s in game.strengths)}, "
                         f"not {shown(spec, 30)}")
    return f"{kind}:{level}"


def _solo_settings(args: Any) -> tuple[dict[str, Any], str | None]:
    """The game's settings for `solo` and the chain's scene name; checked before any work."""
    from simulator.games.bandu.chains import chain_from_scene, chain_text

    name = None
    if args.chain is not None:
        if args.reserve is not None:
            raise UsageError("--reserve does not go with --chain: the scene's tower is the chain")
        settings: dict[str, Any] = {"variant": "chain",
                                    "chain": chain_text(chain_from_scene(args.chain))}
        name = Path(args.chain).name
    elif args.chain_seed is not None:
        settings = {"variant": "chain", "chain": args.chain_seed,
                    "reserve": args.reserve or len(BUILDING_PIECES)}
    else:
        settings = {"variant": "solo", "reserve": args.reserve or len(BUILDING_PIECES)}
    registry.get_game("bandu").new_game(1, settings)
    return settings, name


def run_solo(args: Any) -> int:
    from simulator.core.quiet_output import import_quietly
    from simulator.games.bandu.records import RecordStore
    from simulator.games.bandu.records_text import format_solo_run
    from simulator.games.bandu.solo import AttemptJob, AttemptResult, run_attempts
    from simulator.progress import ProgressBar

    player = _solo_player(args.player)
    settings, chain_name = _solo_settings(args)
    if args.seed + args.attempts - 1 > MAX_SEED:
        raise UsageError(f"--seed {args.seed} with {args.attempts} attempts goes past 2^63 - 1")
    workers = workers_of(args)
    import_quietly("simulator.towers.physics.world")     # PyBullet's build line kept off --json
    jobs = [AttemptJob(n, player, args.seed + n, settings, chain_name) for n in range(args.attempts)]
    results: list[AttemptResult] = []
    started = time.perf_counter()
    with RecordStore.open() as store, ProgressBar(f"{player} {settings['variant']}",
                                                  unit="attempt") as progress:
        def store_it(result: AttemptResult) -> None:    # here, as each attempt finishes
            results.append(replace(result, attempt=store.add(result.attempt)))
            progress(len(results), len(jobs), f"{result.attempt.score} pieces")

        progress(0, len(jobs), "")
        interrupted = run_attempts(jobs, workers, store_it)
        where = str(store.path)
    rows = [r.as_dict() for r in sorted(results, key=lambda r: r.number)]
    key = results[0].attempt.chain_key if results else ""
    title = f"{player} {settings['variant']}{' ' + key if key else ''}"
    if args.json:
        print(json.dumps({"player": player, "variant": settings["variant"], "chain_key": key,
                          "settings": settings, "seed": args.seed, "workers": workers,
                          "attempts": rows, "interrupted": interrupted, "records": where,
                          "wall_seconds": round(time.perf_counter() - started, 1)}, indent=1))
    else:
        print(format_solo_run(rows, title))
        print(f"stored in {printable(where, 200)}")
    if interrupted:
        print(f"bandu-sim: interrupted: {len(results)} of {len(jobs)} attempts finished "
              "(stored, and shown above)", file=sys.stderr)
        return INTERRUPTED
    return 0


def run_records(args: Any) -> int:
    from simulator.games.bandu.records import RecordStore
    from simulator.games.bandu.records_text import format_records

    to_output = args.export == STANDARD_OUTPUT
    if to_output and args.json:
        raise UsageError("--export - writes the records to standard output: not with --json")
    with RecordStore.open() as store:
        where = printable(str(store.path), 200)
        report: dict[str, Any] = {"records": str(store.path)}
        if args.import_file is not None:
            report["imported"], report["skipped"] = store.import_file(args.import_file)
            report["import_file"] = args.import_file
        if to_output:
            document = store.export_document()
            json.dump(document, sys.stdout, indent=1)
            print()
            print(f"exported {len(document['attempts'])} attempts to standard output", file=sys.stderr)
            args.export = None
        if args.export is not None:
            report["exported"] = store.export(args.export)
            report["export_file"] = args.export
        if args.import_file is None and args.export is None and not to_output:
            attempts = store.attempts(replays=False)
            bests = store.personal_bests()
            if not args.json:
                print(format_records(attempts, bests, where))
                return 0
            report |= {"attempts": [a.as_dict(replay=False) for a in attempts],
                       "bests": [a.as_dict(replay=False) for a in bests]}
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    if "imported" in report:
        print(f"imported {report['imported']} attempts from {printable(args.import_file, 200)} "
              f"({report['skipped']} already there, skipped) into {where}")
    if "exported" in report:
        print(f"exported {report['exported']} attempts to {printable(args.export, 200)}")
    return 0
