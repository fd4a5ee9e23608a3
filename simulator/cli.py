"""The command line: `bandu-sim play|selfplay|bench`, and the subcommands each game adds
through GameApp.commands (solo record attempts, records, tower stability, the piece catalogue and
its meshes) (also `python -m simulator`).

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
from simulator.core.command_kit import (
    INTERRUPTED,
    MAX_SEED,
    add_workers,
    bounded_int,
    parse_settings,
    players_of,
    workers_of,
)
from simulator.core.errors import InvalidArgument, SimulatorError, UsageError
from simulator.core.text import printable
from simulator.net.host_command import add_commands as add_network_commands
from simulator.net.protocol import LOOPBACK


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        raise UsageError(message)


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
                           "machine), remote (a person at another machine: the window hosts the "
                           "game and shows the join codes), random, or the game's computer "
                           f"players as selfplay spells them ({computer_players})")
    play.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                      help="with --players: a game setting, e.g. width=7 or start=classic (repeatable)")
    play.add_argument("--load", metavar="FILE", help="open a saved game")
    play.add_argument("--size", type=bounded_int(*WINDOW_WIDTHS), metavar="WIDTH",
                      help=f"window width in pixels ({WINDOW_WIDTHS[0]}-{WINDOW_WIDTHS[1]})")
    play.add_argument("--volume", type=bounded_int(0, 100), default=80, metavar="PERCENT",
                      help="the sound's volume, 0 (silent) to 100 (Ctrl+M mutes, Ctrl+Up and "
                           "Ctrl+Down change it in the window); default 80")
    play.add_argument("--bind", default=LOOPBACK, metavar="ADDRESS",
                      help="where a game hosted in the window listens for joiners (default "
                           "127.0.0.1: this machine only; 0.0.0.0 for every network it is on)")
    play.add_argument("--port", type=bounded_int(0, 65535), default=0,
                      help="the port of a game hosted in the window (default: a free one)")

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

    for game in registry.all_games():        # a game's own subcommands (GameApp.commands)
        commands = registry.get_app(game).commands
        if commands is not None:
            commands(sub)

    add_network_commands(sub)                # host: play across machines
    join = sub.add_parser("join", help="join a game hosted at another machine, in the window")
    join.add_argument("address", help="the host's address, HOST:PORT (the host prints it)")
    join.add_argument("code", help="your seat's code (the host prints it)")
    join.add_argument("--size", type=bounded_int(*WINDOW_WIDTHS), metavar="WIDTH",
                      help=f"window width in pixels ({WINDOW_WIDTHS[0]}-{WINDOW_WIDTHS[1]})")
    join.add_argument("--volume", type=bounded_int(0, 100), default=80, metavar="PERCENT",
                      help="the sound's volume, 0 (silent) to 100; default 80")

    bench = sub.add_parser("bench", help="measure speed against the reference implementations")
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--quick", action="store_true", help="one short run (a smoke test: an 8-piece tower, 3 verdicts)")
    return parser


def _cmd_play(args) -> int:
    from simulator.app.main import run_app

    players = None if args.players is None else players_of(args.players)
    settings = parse_settings(args.setting)
    return run_app(game=args.game, load=args.load, width=args.size, players=players,
                   settings=settings, volume=args.volume / 100, hosting=(args.bind, args.port))


def _cmd_join(args) -> int:
    from simulator.app.main import run_app

    return run_app(width=args.size, volume=args.volume / 100, join=(args.address, args.code))


def _default_selfplay_players(game: Any, settings: dict[str, Any]) -> str:
    """Without --players: the game's computer player against random ones, at the count the
    settings go with (usually the game's usual count; a solo variant's: 1)."""
    return ",".join([game.agent_prefix] + ["random"] * (game.info.players_for(settings) - 1))


def _cmd_selfplay(args) -> int:
    from simulator.progress import ProgressBar
    from simulator.selfplay import check_selfplay, selfplay

    settings = parse_settings(args.setting)
    game = registry.get_game(args.game)
    heavy = game.worker_import                 # a physics engine may print on import,
    if heavy is not None:                      # and checking the players makes its agents
        from simulator.core.quiet_output import import_quietly

        import_quietly(heavy)
    spec = args.players or _default_selfplay_players(game, settings)
    players = players_of(spec)
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


def _cmd_bench(args) -> int:
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
            "play": _cmd_play, "join": _cmd_join, "selfplay": _cmd_selfplay, "bench": _cmd_bench}[args.command]
        status = handler(args)
        sys.stdout.flush()          # a closed pipe or a full disk shows here, not at exit
        return status
    except SimulatorError as error:
        if isinstance(error, InvalidArgument):      # a library's refusal, in the flags' words
            error = error.as_usage_error()
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
