"""Win rates of Buddel Bande's computer players against random players (docs/buddel-bande.md).

    .venv/bin/python -m benchmarks buddel_bande --workers 2
    .venv/bin/python -m benchmarks buddel_bande --levels easy --tables 4 --games 40 --json

For each level and each table size, plays complete games of one computer player (mcts:LEVEL)
against random players. Game n uses seed S + n, and the computer sits at seat n mod players
(the first player is seat 0, so every seat is tried alike). Prints the win rate with its 95 %
Wilson interval; a random player's share at that table is 1 / players. Results depend only on
the seeds, not on the number of workers.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from simulator.selfplay import play_one
from simulator.towers.studies.wilson import wilson_interval

LEVELS = ("easy", "medium", "strong")
#: games per (level, players): enough for the intervals to part, within ~10 minutes on 2 cores
DEFAULT_GAMES = {2: 150, 4: 100}


def _seats(level: str, players: int, game: int) -> list[str]:
    seats = ["random"] * players
    seats[game % players] = f"mcts:{level}"
    return seats


def _play(job: tuple[str, int, int, int]) -> tuple[str, int, bool, int]:
    level, players, game, seed = job
    seats = _seats(level, players, game)
    result = play_one("buddel_bande", {}, seats, seed)
    return level, players, (game % players) in result["winners"], result["turns"]


def measure(levels: list[str], tables: list[int], games: dict[int, int], seed: int,
            workers: int) -> list[dict[str, Any]]:
    jobs = [(level, players, n, seed + n) for level in levels for players in tables
            for n in range(games[players])]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_play, jobs, chunksize=2))
    else:
        results = [_play(job) for job in jobs]
    rows = []
    for level in levels:
        for players in tables:
            mine = [(won, turns) for lv, p, won, turns in results if lv == level and p == players]
            wins = sum(won for won, _ in mine)
            low, high = wilson_interval(wins, len(mine))
            rows.append({"level": level, "players": players, "games": len(mine), "wins": wins,
                         "win_rate": round(wins / len(mine), 3), "interval_95": [round(low, 3), round(high, 3)],
                         "random_share": round(1 / players, 3),
                         "mean_turns": round(sum(t for _, t in mine) / len(mine), 1)})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated: easy,medium,strong")
    parser.add_argument("--tables", default="2,4", help="comma-separated player counts (2 to 4)")
    parser.add_argument("--games", type=int, default=None,
                        help=f"games per level and table (default {DEFAULT_GAMES[2]} at 2 players, "
                             f"{DEFAULT_GAMES[4]} otherwise)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    tables = [int(t) for t in args.tables.split(",")]
    if any(level not in LEVELS for level in levels) or any(not 2 <= t <= 4 for t in tables):
        parser.error("levels are easy, medium, strong; tables 2 to 4 players")
    games = {t: args.games or DEFAULT_GAMES.get(t, DEFAULT_GAMES[4]) for t in tables}
    started = time.perf_counter()
    rows = measure(levels, tables, games, args.seed, args.workers)
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps({"seed": args.seed, "workers": args.workers, "wall_seconds": round(elapsed, 1),
                          "results": rows}, indent=1))
        return
    print(f"{'player':<13} {'table':>5} {'games':>5} {'wins':>5} {'win rate':>8}  95 % interval   random")
    for row in rows:
        low, high = row["interval_95"]
        print(f"mcts:{row['level']:<8} {row['players']:>5} {row['games']:>5} {row['wins']:>5} "
              f"{row['win_rate']:>8.0%}  {low:>5.0%} - {high:<5.0%}    {row['random_share']:.0%}")
    print(f"{elapsed:.0f} s with {args.workers} worker(s)")
