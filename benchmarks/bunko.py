"""Bunko's figures (docs/bunko.md): how fast self-play runs whole nights headless, what a night holds
(rolls, roll-offs, bunkos), how often the dice show bunkos and triples against three fair dice
(1/216 and 5/216 per roll), and how long a night lasts in the window at each dice pace.

    .venv/bin/python -m benchmarks bunko --nights 40 --tables 3

Plays `--nights` nights of `4 x --tables` computer seats through the same path as
`bandu-sim selfplay bunko` (simulator.selfplay.play_one: the turn controller, its seeded dice),
seeds S, S+1, ..., on one process, and prints JSON. The window's time per night is worked out
from the rolls each night made: every roll waits for the computer's pause (the window's
COMPUTER_DELAY), then the dice tumble and lie (games/bunko/pace.py), and every new round waits
while the players change tables.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nights", type=int, default=40)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--sets", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    from simulator.app.main import COMPUTER_DELAY
    from simulator.games.bunko import pace
    from simulator.selfplay import play_one

    players = ["mcts"] * (4 * args.tables)
    settings = {"tables": args.tables, "sets": args.sets}
    play_one("bunko", settings, players, args.seed - 1)          # imports and registry, untimed
    started = time.perf_counter()
    results = [play_one("bunko", settings, players, args.seed + n) for n in range(args.nights)]
    seconds = time.perf_counter() - started
    rolls = [r["rolls"] for r in results]
    total = sum(rolls)
    bunkos = sum(r["bunko_rolls"] for r in results)
    triples = sum(r["triple_rolls"] for r in results)

    def frequency(count: int, p: float) -> dict[str, float]:
        error = math.sqrt(p * (1 - p) / total)
        return {"per_roll": round(count / total, 5), "expected": round(p, 5),
                "standard_errors_off": round((count / total - p) / error, 2)}

    window = {}
    rounds = args.sets * 6
    for name in pace.TUMBLE_SECONDS:
        per_roll = COMPUTER_DELAY + pace.TUMBLE_SECONDS[name] + pace.HOLD_SECONDS[name]
        night = statistics.mean(rolls) * per_roll + (rounds - 1) * pace.MOVE_SECONDS[name]
        window[name] = {"seconds_per_roll": round(per_roll, 2), "minutes_per_night": round(night / 60, 1)}
    print(json.dumps({
        "players": len(players), "tables": args.tables, "sets": args.sets, "nights": args.nights,
        "seed": args.seed,
        "nights_per_second": round(args.nights / seconds, 2),
        "rolls_per_second": round(total / seconds),
        "rolls_per_night": {"mean": round(statistics.mean(rolls), 1), "min": min(rolls), "max": max(rolls)},
        "roll_offs_per_night": round(statistics.mean(r["roll_offs"] for r in results), 2),
        "bunkos_per_night": round(bunkos / args.nights, 2),
        "bunko": frequency(bunkos, 1 / 216), "triple": frequency(triples, 5 / 216),
        "window_with_computers_only": window,
    }, indent=1))
