"""`bandu-sim host`: a headless host of a table played across machines (for a server, or a
friend's game without a window at the host). It prints, for each remote seat, the address to
join and that seat's code, and serves until the game ends or Ctrl+C; `--resume` takes up the
last hosted game from its autosave with the same codes, after a crash or a kill."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.core import registry
from simulator.core.command_kit import (
    INTERRUPTED,
    MAX_SEED,
    bounded_int,
    parse_settings,
    players_of,
)
from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController
from simulator.core.data_home import data_dir
from simulator.core.errors import SaveError, SettingsError, UsageError
from simulator.net.protocol import LOOPBACK
from simulator.net.seats import is_remote

if TYPE_CHECKING:
    from simulator.net.host import Host

HOSTED_FILE = "hosted.json"       # the last hosted table: its autosave, codes and address


def add_commands(sub: Any) -> None:
    host = sub.add_parser("host", help="host a game for people on other machines (headless)")
    host.add_argument("game", nargs="?", help="the game to host (not with --resume)")
    host.add_argument("--players", metavar="A,B,...",
                      help="remote (a person on another machine), random, or a computer player "
                           "as selfplay spells it, e.g. remote,remote,mcts:easy")
    host.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                      help="a game setting (repeatable)")
    host.add_argument("--seed", type=bounded_int(0, MAX_SEED), default=0)
    host.add_argument("--bind", default=LOOPBACK, metavar="ADDRESS",
                      help="the address to listen on (default 127.0.0.1: this machine only; "
                           "0.0.0.0 for every network it is on)")
    host.add_argument("--port", type=bounded_int(0, 65535), default=0,
                      help="the port (default: a free one)")
    host.add_argument("--hand-over", type=bounded_int(1, 86_400), default=None, metavar="SECONDS",
                      help="a remote seat away this long on its turn is played by the computer")
    host.add_argument("--resume", action="store_true",
                      help="take up the last hosted game from its autosave, with the same codes")
    host.add_argument("--json", action="store_true",
                      help="print the address and codes as one JSON line")
    host.set_defaults(handler=run_host)


def seats_of(game: str, players: list[str]) -> tuple[list[Seat], list[int]]:
    """The seats, and which are remote; a player the game does not know is one line."""
    rules = registry.get_game(game)
    seats, remote = [], []
    for seat, player in enumerate(players):
        if is_remote(player):
            seats.append(Seat(PERSON))
            remote.append(seat)
        elif player.lower() == "person":
            raise UsageError("a headless host has nobody at its machine: a person plays as remote")
        else:
            rules.make_agent(player)            # refuses an unknown player in one line
            seats.append(Seat(COMPUTER, player))
    if not remote:
        raise UsageError("--players needs at least one remote seat")
    return seats, remote


def run_host(args: argparse.Namespace) -> int:
    home = data_dir()
    record = home / HOSTED_FILE
    if args.resume:
        if args.game or args.players:
            raise UsageError("--resume takes up the last hosted game: give no game or players")
        controller, kept = _resumed(record)
        remote = [int(seat) for seat in kept["codes"]]
        codes = {int(seat): code for seat, code in kept["codes"].items()}
        watch, port = kept.get("watch"), args.port or int(kept.get("port", 0))
    else:
        if not args.game or not args.players:
            raise UsageError("host needs a GAME and --players (or --resume)")
        seats, remote = seats_of(args.game, players_of(args.players))
        autosave = home / "autosaves" / f"{args.game}-hosted.json"
        controller = TurnController(args.game, parse_settings(args.setting), seats, seed=args.seed,
                                    autosave_path=autosave)
        codes, watch, port = {}, None, args.port
    from simulator.net.host import Host  # websockets: only when hosting

    host = Host(controller, remote, codes=codes, watch_code=watch, bind=args.bind, port=port,
                hand_over_after=args.hand_over)
    try:
        address = host.start()
    except OSError as error:
        controller.close()
        raise UsageError(f"cannot listen on {args.bind}:{port} ({error.strerror or error})") from None
    _keep(record, controller, host)
    _announce(host, controller, args.json)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        controller.autosave()
        host.run(stop)
    except KeyboardInterrupt:
        print("bandu-sim: the host stopped; `bandu-sim host --resume` takes the game up again",
              file=sys.stderr)
        return INTERRUPTED
    finally:
        host.close()
        controller.close()
    print(f"the game at {address} is over" if controller.is_over() else "the host stopped",
          file=sys.stderr)
    return 0


def _announce(host: Host, controller: TurnController, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"address": host.address, "codes": {str(s): c for s, c in host.codes.items()},
                          "watch": host.watch_code if host.watching_allowed else None}), flush=True)
        return
    print(f"hosting {controller.info.title} at {host.address}")
    for seat, code in host.codes.items():
        print(f"  {controller.info.seat_name(seat)}: bandu-sim join {host.address} {code}")
    if host.watching_allowed:
        print(f"  watchers: bandu-sim join {host.address} {host.watch_code}")
    print("Ctrl+C stops the host; the game is autosaved after every move", flush=True)


def _keep(record: Path, controller: TurnController, host: Host) -> None:
    """What a resumed host needs: the autosave, the codes and the port (the user's own file)."""
    record.parent.mkdir(parents=True, exist_ok=True)
    data = {"autosave": str(controller.autosave_path), "codes": {str(s): c for s, c in host.codes.items()},
            "watch": host.watch_code, "port": host.port}
    temporary = record.with_suffix(".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)   # secrets
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump(data, file)
    os.replace(temporary, record)


def _resumed(record: Path) -> tuple[TurnController, dict[str, Any]]:
    try:
        kept = json.loads(record.read_text(encoding="utf-8"))
        autosave = Path(kept["autosave"])
        if not isinstance(kept["codes"], dict):
            raise TypeError
    except FileNotFoundError:
        raise UsageError("no hosted game to resume") from None
    except (ValueError, KeyError, TypeError):
        raise UsageError(f"{record} is damaged: no hosted game to resume") from None
    try:
        controller = TurnController.load(autosave, autosave_path=autosave)
    except (SaveError, SettingsError) as error:
        raise UsageError(f"the hosted game cannot be resumed: {error}") from None
    return controller, kept
