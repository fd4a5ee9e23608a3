"""The win rates of Bandida's computer team (docs/bandida.md).

    .venv/bin/python -m benchmarks bandida                       # a quick look, ~3 min on 2 cores
    .venv/bin/python -m benchmarks bandida --games random=400,mcts:easy=20 --modes 1 --sides 5

For each kind of player, each mode and each side of the start card, a team of `--players`
seats all played by that kind plays whole games (game n uses seed S + n, as `bandu-sim selfplay`
does: chance from the seed, every seat searching on its own information only). Prints the team's
wins, the win rate and its 95% Wilson interval, the mean number of turns, and the wall time.
Games run on `--workers` processes; a progress bar on standard error shows the rate and the time left.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

from tqdm import tqdm

from simulator.selfplay import play_one
from simulator.towers.studies.wilson import wilson_interval

DEFAULT_GAMES = "random=150,mcts:easy=30,mcts:medium=10,mcts:strong=3"


def play(job: tuple[str, int, int, int, int]) -> tuple[str, int, int, bool, int]:
    player, mode, side, players, seed = job
    result = play_one("bandida", {"mode": mode, "side": side}, [player] * players, seed)
    return player, mode, side, result["result"] == "won", result["turns"]


def parse_games(text: str) -> dict[str, int]:
    games = {}
    for part in text.split(","):
        player, _, count = part.partition("=")
        games[player.strip()] = int(count)
    return games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=DEFAULT_GAMES, help=f"PLAYER=GAMES,... (default {DEFAULT_GAMES})")
    parser.add_argument("--modes", default="1,2,3")
    parser.add_argument("--sides", default="5,6")
    parser.add_argument("--players", type=int, default=2, help="seats in the team (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = parser.parse_args(argv)
    games = parse_games(args.games)
    modes = [int(m) for m in args.modes.split(",")]
    sides = [int(s) for s in args.sides.split(",")]
    jobs = [(player, mode, side, args.players, args.seed + n)
            for player, count in games.items() for mode in modes for side in sides for n in range(count)]
    started = time.perf_counter()
    tally: dict[tuple[str, int, int], list[int]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        games_done = tqdm(pool.map(play, jobs, chunksize=1), total=len(jobs), unit="game",
                          desc="Bandida games", leave=False)
        for player, mode, side, won, turns in games_done:
            entry = tally.setdefault((player, mode, side), [0, 0, 0])
            entry[0] += won
            entry[1] += 1
            entry[2] += turns
    seconds = time.perf_counter() - started
    rows = []
    for (player, mode, side), (wins, played, turns) in tally.items():
        low, high = wilson_interval(wins, played)
        rows.append({"player": player, "mode": mode, "side": side, "games": played, "wins": wins,
                     "rate": wins / played, "low": low, "high": high, "turns": turns / played})
    if args.json:
        print(json.dumps({"players": args.players, "seed": args.seed, "workers": args.workers,
                          "seconds": round(seconds, 1), "rows": rows}, indent=1))
        return
    print(f"Bandida, a team of {args.players}, seeds from {args.seed}, {args.workers} workers, "
          f"{seconds:.0f} s")
    print(f"{'player':<13}{'mode':>5}{'side':>5}{'games':>7}{'wins':>6}{'rate':>8}   95% interval   turns")
    for row in rows:
        print(f"{row['player']:<13}{row['mode']:>5}{row['side']:>5}{row['games']:>7}{row['wins']:>6}"
              f"{row['rate']:>8.0%}   {row['low']:>4.0%} - {row['high']:<4.0%}   {row['turns']:>5.1f}")
