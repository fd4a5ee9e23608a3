"""Tanbo's benchmark: random playouts per second with the incremental rules against the naive
reference (everything recomputed from scratch each move).

Both play the same games: the same seeds and the same choice rule (uniform over the sorted legal
points), so the ratio compares equal work. The incremental rules' own playout fast path (no
sorting) is reported as well.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import asdict, dataclass

from simulator.games.tanbo.reference import NaiveTanbo
from simulator.games.tanbo.rules import new_game
from simulator.progress import Progress


@dataclass
class TanboFigure:
    board: str
    playouts_per_run: int
    naive_playouts_per_run: int
    runs: int
    incremental_per_s: float
    fast_path_per_s: float
    naive_per_s: float
    mean_length: float

    @property
    def ratio(self) -> float:
        return self.incremental_per_s / self.naive_per_s

    def as_dict(self) -> dict:
        return asdict(self) | {"ratio": round(self.ratio, 1)}


def _incremental(size: int, seeds: range) -> tuple[float, int]:
    moves = 0
    start = time.perf_counter()
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(size=size)
        while not state.winner_colour:
            points = state.legal_points()
            state.place_index(points[int(rng.random() * len(points))])
            moves += 1
    return time.perf_counter() - start, moves


def _fast_path(size: int, seeds: range) -> float:
    start = time.perf_counter()
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(size=size)
        while not state.winner_colour:
            state.random_playout_step(rng)
    return time.perf_counter() - start


def _naive(size: int, seeds: range) -> tuple[float, int]:
    moves = 0
    start = time.perf_counter()
    for seed in seeds:
        rng = random.Random(seed)
        game = NaiveTanbo(size, size)
        while not game.winner:
            points = game.legal_points()
            game.play(*points[int(rng.random() * len(points))])
            moves += 1
    return time.perf_counter() - start, moves


def bench_tanbo(size: int, playouts: int, naive_playouts: int, runs: int) -> TanboFigure:
    inc, fast, naive = [], [], []
    lengths = 0
    for run in range(runs):
        seeds = range(run * 1000, run * 1000 + playouts)
        naive_seeds = range(run * 1000, run * 1000 + naive_playouts)
        seconds, moves = _incremental(size, seeds)
        inc.append(playouts / seconds)
        lengths += moves
        fast.append(playouts / _fast_path(size, seeds))
        seconds, _ = _naive(size, naive_seeds)
        naive.append(naive_playouts / seconds)
    return TanboFigure(f"{size}x{size}", playouts, naive_playouts, runs,
                       statistics.median(inc), statistics.median(fast), statistics.median(naive),
                       lengths / (playouts * runs))


def run_benchmark(quick: bool = False, progress: Progress | None = None) -> dict:
    """Each board size's figures: one short run when `quick` (a smoke test)."""
    plan = [(7, 200, 40, 5), (19, 6, 1, 3)]
    if quick:
        plan = [(7, 20, 4, 1), (19, 1, 1, 1)]
    results = []
    for index, (size, playouts, naive_playouts, runs) in enumerate(plan):
        if progress:
            progress(index, len(plan), f"Tanbo {size}x{size}")
        results.append(bench_tanbo(size, playouts, naive_playouts, runs).as_dict())
    if progress:
        progress(len(plan), len(plan), "Tanbo done")
    return {"tanbo_random_playouts": results}


def format_report(report: dict) -> str:
    lines = ["Tanbo random playouts per second (median of runs; same games for both)",
             f"{'board':>7} {'incremental':>12} {'fast path':>10} {'naive':>8} {'ratio':>7} {'moves/game':>11}"]
    for row in report["tanbo_random_playouts"]:
        lines.append(f"{row['board']:>7} {row['incremental_per_s']:>12.1f} {row['fast_path_per_s']:>10.1f}"
                     f" {row['naive_per_s']:>8.2f} {row['ratio']:>6.1f}x {row['mean_length']:>11.0f}")
    return "\n".join(lines)
