"""Count the frames the window draws in a few seconds on a Tanbo game screen (needs a display:
`xvfb-run -a .venv/bin/python tools/measure_frame_rate.py --players mcts:strong,mcts:strong`).

--players person,person measures drawing alone; computer players show what their searches cost
the window. --thread runs the searches on a thread in the window's process instead of the
worker process, for comparison.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="mcts:strong,mcts:strong")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--thread", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("BANDU_SIM_HOME", tempfile.mkdtemp(prefix="bandu-sim-fps-"))

    import pyglet

    from simulator.app.main import build_app
    from simulator.core.controller import COMPUTER, PERSON, Seat

    seats = [Seat(PERSON) if p == "person" else Seat(COMPUTER, p) for p in args.players.split(",")]
    window, app = build_app(visible=True)
    if args.thread:
        app.search_pool = lambda: None          # controllers fall back to their own thread
    app.start_game("tanbo", {"size": 7}, seats, seed=3)
    controller = window.active_screen.controller
    controller.computer_delay = 0.0
    stamps: list[float] = []
    draw = window.on_draw

    def counting_draw() -> None:
        stamps.append(time.perf_counter())
        draw()

    window.on_draw = counting_draw
    pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), args.seconds)
    pyglet.app.run(1 / 60)
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)] or [0.0]
    print(f"players {args.players}{' (thread)' if args.thread else ''}: {len(stamps)} frames in "
          f"{args.seconds:g} s, {controller.ply()} moves, longest gap {max(gaps) * 1000:.0f} ms")
    app.shutdown()


if __name__ == "__main__":
    main()
