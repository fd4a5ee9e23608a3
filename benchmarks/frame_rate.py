"""Count the frames the window draws in a few seconds on a Tanbo game screen (needs a display:
`xvfb-run -a .venv/bin/python -m benchmarks frame_rate --players mcts:strong,mcts:strong`).

--players person,person measures drawing alone; computer players show what their searches cost
the window. --thread runs the searches on a thread in the window's process instead of the
worker process, for comparison.

--game bandu plays a 2-player Bandu game instead (default players ai:strong,ai:strong) and
also counts the frames drawn while a computer player thinks; --trial-workers 1 or 2 sets the
processes its trials run on (the search process alone, or with a helper process beside it:
games/bandu/trial_streams.py).

--hint PIECES gives a person ai:strong's solo tower of seed 1000 at PIECES pieces, the next piece
held, and counts the frames drawn for --seconds, then from G (the hint) until its ghost shows:
`xvfb-run -a .venv/bin/python -m benchmarks frame_rate --hint 30`.
"""

from __future__ import annotations

import argparse
import itertools
import os
import tempfile
import time


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["tanbo", "bandu"], default="tanbo")
    parser.add_argument("--players", default=None)
    parser.add_argument("--trial-workers", type=int, choices=[1, 2], default=None)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--thread", action="store_true")
    parser.add_argument("--hint", type=int, metavar="PIECES", default=None)
    args = parser.parse_args(argv)
    if args.hint is not None and not 1 <= args.hint <= 40:
        parser.error(f"--hint is a tower of 1 to 40 pieces, not {args.hint}")
    os.environ.setdefault("BANDU_SIM_HOME", tempfile.mkdtemp(prefix="bandu-sim-fps-"))
    if args.hint is not None:
        print(measure_hint(args.hint, args.seconds))
        return

    import pyglet

    from simulator.app.main import build_app
    from simulator.core.controller import COMPUTER, PERSON, Seat

    players = args.players or ("ai:strong,ai:strong" if args.game == "bandu" else "mcts:strong,mcts:strong")
    seats = [Seat(PERSON) if p == "person" else Seat(COMPUTER, p) for p in players.split(",")]
    window, app = build_app(visible=True)
    if args.thread:
        # controllers fall back to their own thread
        app.search_pool = lambda: None  # type: ignore[method-assign, assignment, return-value]
    app.start_game(args.game, {"size": 7} if args.game == "tanbo" else {}, seats, seed=3)
    controller = window.active_screen.controller
    controller.computer_delay = 0.0
    for agent in controller.agents:
        if args.trial_workers is not None and hasattr(agent, "trial_workers"):
            agent.trial_workers = args.trial_workers
    stamps: list[float] = []
    thinking: list[bool] = []               # at each frame: was a computer player thinking?
    draw = window.on_draw

    def counting_draw() -> None:
        stamps.append(time.perf_counter())
        thinking.append(controller.is_computer_thinking())
        draw()

    window.on_draw = counting_draw
    pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), args.seconds)
    pyglet.app.run(1 / 60)
    gaps = [b - a for a, b in itertools.pairwise(stamps)] or [0.0]
    # the frames drawn while a computer thought, over the time between such frames
    think_gaps = [gap for gap, a, b in zip(gaps, thinking, thinking[1:], strict=False) if a and b]
    while_thinking = (f", {len(think_gaps) / sum(think_gaps):.1f} frames a second over {sum(think_gaps):.1f} s "
                      f"of thinking (longest gap {max(think_gaps) * 1000:.0f} ms)") if think_gaps else ""
    print(f"{args.game} players {players}{' (thread)' if args.thread else ''}"
          f"{f' trial workers {args.trial_workers}' if args.trial_workers else ''}: {len(stamps)} frames in "
          f"{args.seconds:g} s, {controller.ply()} moves, longest gap {max(gaps) * 1000:.0f} ms{while_thinking}")
    app.shutdown()


def strong_solo_game(seed: int = 1000):
    """ai:strong's solo game of `seed`, headless: its controller at the start and after each
    move, to its end (tools/screenshots.py's tall tower reads it too)."""
    from simulator.core.controller import COMPUTER, Seat, TurnController

    controller = TurnController("bandu", {"variant": "solo"}, [Seat(COMPUTER, "ai:strong")], seed=seed)
    try:
        yield controller
        while not controller.is_over():
            controller.play_computer_moves(limit=1)
            yield controller
    finally:
        controller.close()


def strong_tower_held(pieces: int) -> dict:
    """A save of ai:strong's solo game of seed 1000 when its tower holds `pieces` pieces and the
    next one awaits placement, the seat given to a person (who then holds that piece)."""
    for controller in strong_solo_game(1000):
        state = controller.state
        if state.phase == "place" and len(state.towers[0]) == pieces:
            save = controller.to_save_dict()
            save["seats"] = [{"kind": "person", "name": ""}]
            return save
    raise SystemExit(f"ai:strong's tower of seed 1000 fell before it held {pieces} pieces")


def measure_hint(pieces: int, seconds: float) -> str:
    """Frames a second drawing alone for `seconds`, then from G until the hint's ghost shows."""
    from pyglet.window import key

    from simulator.app.main import build_app
    from simulator.core.controller import TurnController

    save = strong_tower_held(pieces)
    window, app = build_app(visible=True)
    try:
        app._show_game(TurnController.from_save_dict(save, verify=False))
        view = window.top.view
        pump_for(window, lambda: not view.camera.gliding, 10.0)
        if view.hints is None or view.held is None:
            raise SystemExit("no piece held for a hint")
        alone = pump_for(window, lambda: False, seconds)
        window.dispatch_event("on_key_press", key.G, 0)
        hinting = pump_for(window, lambda: view.hint_ghost is not None, 120.0)
        shown = view.hint_ghost is not None
    finally:
        app.shutdown()
    return (f"bandu hint on a tower of {pieces} pieces: drawing alone {alone[0]:.1f} frames a second "
            f"(longest gap {alone[1] * 1000:.0f} ms); the hint {'shown' if shown else 'NOT shown'} after "
            f"{hinting[2]:.1f} s, {hinting[0]:.1f} frames a second meanwhile (longest gap "
            f"{hinting[1] * 1000:.0f} ms)")


def pump_for(window, done, seconds: float) -> tuple[float, float, float]:
    """Draw frames until `done()` or `seconds` have passed: (frames a second, longest gap, seconds)."""
    stamps = [time.perf_counter()]
    while not done() and stamps[-1] - stamps[0] < seconds:
        window.pump(1)
        stamps.append(time.perf_counter())
    gaps = [b - a for a, b in itertools.pairwise(stamps)] or [0.0]
    elapsed = stamps[-1] - stamps[0]
    return (len(gaps) / elapsed if elapsed else 0.0, max(gaps), elapsed)
