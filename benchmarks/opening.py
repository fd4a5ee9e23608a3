"""Opening a saved Bandu game in the window: the time to its first frame, how long the physics
check of its results runs in the background, per result, and the longest frame meanwhile.

    xvfb-run -a .venv/bin/python -m benchmarks opening                 # a 72-move game, made here
    xvfb-run -a .venv/bin/python -m benchmarks opening SAVE.json --workers 2
    xvfb-run -a .venv/bin/python -m benchmarks opening --cold          # no warm-up at the menu

The game made here is three random players with a reserve of 24, seed 11, its first 72 moves
(9 placements). `--workers` sets the check's processes (default: the window's choice, one core
left to drawing). Without `--cold` the menu's warm-up (Game.warm_up) ends before the game is
opened, as when a person spends a few seconds at the menu.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path


def make_save(folder: Path, moves: int = 72) -> Path:
    from simulator.core.controller import COMPUTER, Seat, TurnController

    controller = TurnController("bandu", {"reserve": 24}, [Seat(COMPUTER, "random")] * 3, seed=11)
    controller.play_computer_moves(limit=moves)
    path = folder / "bandu-long.json"
    controller.save(path)
    controller.close()
    return path


def measure(path: Path, workers: int | None, cold: bool) -> dict:
    from simulator.app import main as app_main
    from simulator.app.main import build_app

    if workers is not None:
        from simulator.core import cores

        app_main.MAX_CHECK_WORKERS = workers
        cores.usable_cores = lambda: workers + 1           # the window leaves one core to drawing
    window, app = build_app(visible=True)
    try:
        window.pump(2)
        if not cold:
            app.finish_warm_up()
        started = time.perf_counter()
        assert app.load_game(path), window.top.toast.message
        window.pump(1)
        first_frame = time.perf_counter() - started
        screen = window.top
        check = screen.save_check
        results = check.total if check is not None else 0
        checking = time.perf_counter()
        times: list[float] = []
        while screen.save_check is not None and window.top is screen:
            before = time.perf_counter()
            window.pump(1)
            times.append(time.perf_counter() - before)
        longest, frames = max(times, default=0.0), len(times)
        slowest = sorted(range(frames), key=lambda n: -times[n])[:3]
        check_seconds = time.perf_counter() - checking
        refused = window.top is not screen
        return {"save": str(path), "moves": len(json.loads(path.read_text())["history"]),
                "results_checked": results, "first_frame_s": round(first_frame, 3),
                "check_s": round(check_seconds, 2),
                "check_per_result_s": round(check_seconds / results, 3) if results else None,
                "longest_frame_ms": round(longest * 1000, 1), "frames": frames,
                "slowest_frames": {str(n): round(times[n] * 1000, 1) for n in slowest},
                "refused": refused, "cold": cold}
    finally:
        app.shutdown()
        window.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("save", nargs="?", type=Path, help="a Bandu save (default: one made here)")
    parser.add_argument("--workers", type=int, default=None, help="the check's processes")
    parser.add_argument("--cold", action="store_true", help="open it before the warm-up ends")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = args.save or make_save(Path(folder))
        figures = measure(path, args.workers, args.cold)
    print(json.dumps(figures, indent=1))
    return 0
