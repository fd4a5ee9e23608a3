"""Win rates and think times of Bandu's computer players, for the README's figures.

    .venv/bin/python tools/measure_bandu_ai.py ai:strong,random,random,random --games 16 --seed 200
    .venv/bin/python tools/measure_bandu_ai.py ai:easy,ai:medium,ai:strong,random --games 4 --workers 1

Plays complete games with the physics referee (bandu-sim selfplay's games: game n uses seed
S + n) and prints, per seat, the wins and the think time of every decision (median, 90th
percentile, maximum) by player. Think times are wall-clock seconds per decision; with one
worker the games run on one core, as the README's figures are measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from simulator.core.controller import COMPUTER, Seat, TurnController


def play(job: tuple[list[str], int, dict]) -> dict:
    players, seed, settings = job
    controller = TurnController("bandu", settings, [Seat(COMPUTER, p) for p in players], seed=seed)
    controller.play_computer_moves()
    result = {"winners": controller.state.winners(), "think": controller.think_seconds,
              "placements": controller.state.placements}
    controller.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("players")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    players = args.players.split(",")
    settings = {k: int(v) if v.isdigit() else v for k, v in (s.split("=", 1) for s in args.setting)}
    jobs = [(players, args.seed + n, settings) for n in range(args.games)]
    started = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(play, jobs))
    else:
        results = [play(job) for job in jobs]
    wins = [sum(seat in r["winners"] and len(r["winners"]) == 1 for r in results) for seat in range(len(players))]
    shared = sum(len(r["winners"]) > 1 for r in results)
    think: dict[str, list[float]] = {}
    for r in results:
        for seat, times in enumerate(r["think"]):
            think.setdefault(players[seat], []).extend(times)
    report = {"players": players, "games": args.games, "seed": args.seed, "wins": wins, "shared_wins": shared,
              "wall_seconds": round(time.perf_counter() - started, 1),
              "mean_placements": round(statistics.mean(r["placements"] for r in results), 1),
              "think_seconds": {p: {"decisions": len(t), "median": round(statistics.median(t), 3),
                                    "p90": round(sorted(t)[int(0.9 * (len(t) - 1))], 3),
                                    "max": round(max(t), 3)}
                                for p, t in think.items() if t and p != "random"}}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
