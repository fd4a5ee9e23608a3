"""Win rates and think times of Bandu's computer players (docs/bandu-computer-players.md).

    .venv/bin/python -m benchmarks bandu_ai ai:strong,random,random,random --games 16 --seed 200
    .venv/bin/python -m benchmarks bandu_ai ai:easy,ai:medium,ai:strong,random --games 4 --workers 1
    .venv/bin/python -m benchmarks bandu_ai ai:easy,ai:medium,ai:strong,random --games 8 --solo 10 --workers 2

`--from-log FILE` plays nothing and prints the table of the games a run listed on standard
error (each game's line carries its think times), e.g. of a run stopped part way; to combine
runs, concatenate their logs into one file.

`--trial-workers N` runs each computer player's trials on N processes (1 or 2; default: as
many as each game's share of the cores allows, trial_streams.py): the games are the same
whatever N, only their think times differ, which measures what the second core gives.

`--solo N` also plays N solo record attempts (all 48 pieces, attempt n with seed S + n, as
`bandu-sim solo` does, not stored) for each computer level at the table and prints their table
(best, mean and median pieces standing; the think time of their decisions) in the same run.
With `--games 0` it plays the solo attempts only, and one computer player will do:

    .venv/bin/python -m benchmarks bandu_ai ai:strong --games 0 --seed 1000 --solo 10 --workers 2

Plays complete games with the physics referee (bandu-sim selfplay's games: game n uses seed
S + n) and prints, per seat, the wins and how often its tower fell first (`first_out`), and
the think time of every decision (median, 90th percentile, maximum) by player. Think times are
wall-clock seconds per decision; with one worker the games run on one core, as the documentation's
figures are measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from simulator.core.command_kit import (
    MAX_SEED,
    add_workers,
    bounded_int,
    parse_settings,
    players_of,
    workers_of,
)
from simulator.core.controller import COMPUTER, Seat, TurnController
from simulator.core.cores import share_cores, usable_cores
from simulator.core.errors import SettingsError, UsageError
from simulator.games.bandu.rules import BanduState
from simulator.games.bandu.solo import AttemptJob
from simulator.selfplay import check_selfplay


def play(job: tuple[list[str], int, dict, int | None]) -> dict:
    players, seed, settings, trial_workers = job
    controller = TurnController("bandu", settings, [Seat(COMPUTER, p) for p in players], seed=seed)
    for agent in controller.agents:
        if trial_workers is not None and agent is not None and hasattr(agent, "trial_workers"):
            agent.trial_workers = trial_workers     # the same games, on that many processes
    controller.play_computer_moves()
    state = controller.state
    assert isinstance(state, BanduState)
    result = {"winners": state.winners(), "think": controller.think_seconds,
              "placements": state.placements, "eliminated": list(state.eliminated)}
    placed = [sum(h.player == seat and h.action.startswith("places ") for h in controller.history)
              for seat in range(len(players))]
    # every placement in order: seat, piece, and whether that seat's tower fell with it
    pieces = [[h.player, h.action.split()[1], controller.history[n + 1].action.startswith(f"result fell: {h.player}")]
              for n, h in enumerate(controller.history[:-1]) if h.action.startswith("places ")]
    controller.close()
    # each game as it ends, on standard error: a long run stopped part way still says what it measured
    print(json.dumps({"seed": seed, "winners": result["winners"], "placements": result["placements"],
                      "eliminated": list(state.eliminated), "placed_by_seat": placed, "pieces": pieces,
                      "think": [[round(t, 3) for t in times] for times in controller.think_seconds]}),
          file=sys.stderr, flush=True)
    return result


def percentiles(times: list[float]) -> dict:
    ordered = sorted(times)
    return {"decisions": len(ordered), "median": round(statistics.median(ordered), 3),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 3), "max": round(ordered[-1], 3)}


def solo_attempt(job: AttemptJob) -> dict:
    controller = TurnController("bandu", job.settings, [Seat(COMPUTER, job.player)], seed=job.seed)
    try:
        controller.play_computer_moves()
        state = controller.state
        assert isinstance(state, BanduState)
        return {"player": job.player, "score": state.score_pieces[0], "fell": not state.alive[0],
                "think": controller.think_seconds[0]}
    finally:
        controller.close()


def solo_table(levels: list[str], attempts: int, seed: int, pool: ProcessPoolExecutor | None,
               reserve: int | None = None) -> dict:
    """`reserve`: fewer pieces than the full game's 48 (a quick check)."""
    settings = {"variant": "solo"} | ({"reserve": reserve} if reserve else {})
    jobs = [AttemptJob(n, level, seed + n, settings) for level in levels for n in range(attempts)]
    results = []
    for result in (pool.map(solo_attempt, jobs) if pool else map(solo_attempt, jobs)):
        results.append(result)          # each attempt as it ends, on standard error: a long run
        think = result["think"]         # stopped part way still says what it measured
        print(json.dumps({"player": result["player"], "score": result["score"], "fell": result["fell"],
                          "think_seconds": percentiles(think) if think else None}), file=sys.stderr, flush=True)
    table = {}
    for level in levels:
        mine = [r for r in results if r["player"] == level]
        scores = [r["score"] for r in mine]
        table[level] = {"attempts": len(mine), "best": max(scores), "mean": round(statistics.mean(scores), 1),
                        "median": statistics.median(scores), "scores": scores,
                        "fell": sum(r["fell"] for r in mine),
                        "think_seconds": percentiles([t for r in mine for t in r["think"]])}
    return table


def logged_games(path: Path) -> list[dict]:
    """The games a run wrote on standard error (one JSON line each; other lines skipped)."""
    games = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {path}: {error}") from None
    for line in lines:
        try:
            game = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(game, dict) and {"winners", "placements", "eliminated", "think"} <= game.keys():
            games.append(game)
    if not games:
        raise UsageError(f"{path} lists no games with think times")
    return games


def table(players: list[str], results: list[dict], seed: int, wall_seconds: float | None) -> dict:
    """Wins by seat, placements a game and think-time percentiles by player."""
    wins = [sum(seat in r["winners"] and len(r["winners"]) == 1 for r in results) for seat in range(len(players))]
    shared = sum(len(r["winners"]) > 1 for r in results)
    # the seat whose tower fell first in each game: where the order of seats tells, it shows here first
    first_out = [sum(bool(r["eliminated"]) and r["eliminated"][0] == seat for r in results)
                 for seat in range(len(players))]
    think: dict[str, list[float]] = {}
    for r in results:
        for seat, times in enumerate(r["think"]):
            think.setdefault(players[seat], []).extend(times)
    return {"players": players, "games": len(results), "seed": seed, "wins": wins, "shared_wins": shared,
            "first_out": first_out, "wall_seconds": wall_seconds,
            "mean_placements": round(statistics.mean(r["placements"] for r in results), 1) if results else None,
            "think_seconds": {p: percentiles(t) for p, t in think.items() if t and p != "random"}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("players")
    parser.add_argument("--games", type=bounded_int(0, 10_000), default=8)
    parser.add_argument("--seed", type=bounded_int(0, MAX_SEED), default=0)
    add_workers(parser, 1)
    parser.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--solo", type=bounded_int(0, 10_000), default=0, metavar="N",
                        help="also N solo record attempts for each computer level at the table")
    parser.add_argument("--trial-workers", type=bounded_int(1, 2), metavar="N",
                        help="the processes a computer player's trials run on (1 or 2; default: "
                             "as many as the game's share of the cores allows); the games are "
                             "the same, only the think times differ")
    parser.add_argument("--from-log", type=Path, metavar="FILE",
                        help="play nothing: the table of the games listed in FILE (the lines a run "
                             "writes on standard error), e.g. of a run stopped part way")
    args = parser.parse_args(argv)
    players = players_of(args.players)
    try:                                    # bad input: one line after the usage, exit 2
        settings = parse_settings(args.setting)
        if args.games or args.from_log:
            check_selfplay("bandu", players, settings)  # as bandu-sim selfplay checks them
        else:                                           # solo attempts only: each level alone
            for player in players:
                check_selfplay("bandu", [player], settings | {"variant": "solo"})
        if args.from_log:
            print(json.dumps(table(players, logged_games(args.from_log), args.seed, None), indent=1))
            return
    except (SettingsError, UsageError) as error:
        parser.error(str(error))
    jobs = [(players, args.seed + n, settings, args.trial_workers) for n in range(args.games)]
    levels = list(dict.fromkeys(p for p in players if p.startswith("ai:")))
    started = time.perf_counter()
    solo: dict = {}
    workers = workers_of(args)              # capped at the cores, as bandu-sim's commands do
    if workers > 1:
        # each game's computer players spread their trials over its share of the cores
        with ProcessPoolExecutor(workers, initializer=share_cores, initargs=(usable_cores() // workers,)) as pool:
            results = list(pool.map(play, jobs))
            solo_started = time.perf_counter()
            solo = solo_table(levels, args.solo, args.seed, pool, settings.get("reserve")) if args.solo else {}
    else:
        results = [play(job) for job in jobs]
        solo_started = time.perf_counter()
        solo = solo_table(levels, args.solo, args.seed, None, settings.get("reserve")) if args.solo else {}
    solo_seconds = time.perf_counter() - solo_started
    report = table(players, results, args.seed, round(solo_started - started, 1))
    if solo:
        report["solo"] = solo
        report["solo_wall_seconds"] = round(solo_seconds, 1)
    print(json.dumps(report, indent=1))
