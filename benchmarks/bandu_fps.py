"""Frames per second of the program's window, drawn as fast as it can, for three scenes in one
run: the empty window, the Bandu table with all 54 pieces at rest, and a 20-piece tower
collapsing (its physics played back live).

Run it on a virtual screen, which has no vsync, with Mesa's software renderer (llvmpipe):

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python -m benchmarks bandu_fps

Options: --seconds S (measured per scene, default 4), --json, --size WxH (default 1280x720),
--redraw (also the two Bandu scenes with the 3D picture drawn again every frame, as without
the off-screen cache), --screenshot PATH (a PNG of a collapse half way, 2.8 simulated
seconds after the release, taken after the measurements).

A frame is what the event loop does, with no frame cap: the window's events, the top screen's
clock tick with the real time since the last frame (window._tick), on_draw, flip.

1. empty window: an empty screen (the background, nothing else).
2. 54 pieces at rest: a Bandu game of 6 people waiting for the first auction: 6 bases on their
   towers and 48 pieces in the reserve (the run checks the view drew 54 pieces); nothing moves.
3. 20-piece tower collapsing: a solo game whose tower holds 20 pieces (the foundation `base`
   and the first 19 pieces of simulator/towers/physics/speed.py's tower_20, each placed centred and
   settled by the physics referee, headless, before the window opens; the other 29 pieces lie
   in the reserve). A person takes the roof block (84 g) and releases it on the dome on top,
   and the top half of the tower falls. Frames are counted only while that outcome is in
   progress (controller.outcome_in_progress()): PyBullet simulates on the referee's thread
   and the view plays its frames back in real time. Whole collapses (about 4.3 s each) are
   measured, each from a fresh game screen, until the seconds asked for are reached. The run
   checks the outcome's `fallen` and that at least 5 pieces of the tower came down.
The ratio collapse / empty is the figure to watch (goal: at least 0.5).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TOWER_PIECES = 19                          # on the foundation: a tower of 20 pieces
KNOCKER = ("roof-block", 20.0, 0.0, 90.0)  # piece, x mm, y mm, yaw degrees: 20 mm off the axis
DROP_MM = 30.0                             # a piece this much lower than it stood came down
SCREENSHOT_AT_S = 2.8                      # simulated seconds into the collapse


@dataclass
class Measure:
    scene: str
    frames: int = 0
    seconds: float = 0.0
    frame_ms: list[float] = field(default_factory=list)
    renders: int = 0          # times the 3D picture was drawn again (not just copied)
    render_ms: float = 0.0    # the time spent in those renders (calls issued, not finished)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> dict[str, Any]:
        times = sorted(self.frame_ms) or [0.0]
        return {"scene": self.scene, "fps": round(self.fps, 1), "frames": self.frames,
                "seconds": round(self.seconds, 2),
                "median_frame_ms": round(statistics.median(times), 1),
                "p95_frame_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 1),
                "longest_frame_ms": round(times[-1], 1), "renders": self.renders,
                "mean_render_ms": round(self.render_ms / self.renders, 1) if self.renders else None,
                **self.notes}


def run_frames(window: Any, measure: Measure | None, seconds: float,
               stop: Callable[[], bool] | None = None,
               before_draw: Callable[[], None] | None = None) -> None:
    """Draw frames as the event loop would, as fast as possible, for `seconds` of wall time or
    until `stop()` (asked after each tick, before drawing: a frame it stops is not counted)."""
    start = last = end = time.perf_counter()
    while True:
        now = time.perf_counter()
        if now - start >= seconds:
            break
        window.dispatch_events()
        window._tick(now - last)
        last = now
        if stop is not None and stop():
            break
        if before_draw is not None:
            before_draw()
        window.switch_to()
        window.on_draw()
        window.flip()
        end = time.perf_counter()
        if measure is not None:
            measure.frames += 1
            measure.frame_ms.append((end - now) * 1000)
    if measure is not None:
        measure.seconds += end - start      # up to the end of the last frame counted


def settle_view(window: Any, view: Any, limit: float = 5.0) -> None:
    """Frames until the camera has stopped gliding and the still picture has been smoothed."""
    start = last = time.perf_counter()
    quiet = 0
    while last - start < limit and quiet < 10:
        now = time.perf_counter()
        window.dispatch_events()
        window._tick(now - last)
        last = now
        window.switch_to()
        window.on_draw()
        window.flip()
        quiet = quiet + 1 if not view.camera.gliding and not view.drawing._smooth_pending else 0


class Probe:
    """Wraps a BanduView's render and its renderer's draw: counts the renders into the measure
    given, and how many pieces the last render drew."""

    def __init__(self, view: Any) -> None:
        self.measure: Measure | None = None
        self.pieces_drawn = -1
        render, draw = view.drawing._render, view.drawing.renderer.draw

        def counted_render(*args: Any, **kwargs: Any) -> None:
            started = time.perf_counter()
            render(*args, **kwargs)
            if self.measure is not None:
                self.measure.renders += 1
                self.measure.render_ms += (time.perf_counter() - started) * 1000

        def counting_draw(items: list, eye: Any, **kwargs: Any) -> None:
            meshes = {id(mesh) for mesh in view.drawing.pieces._meshes.values()}
            self.pieces_drawn = sum(1 for item in items if id(item.mesh) in meshes)
            draw(items, eye, **kwargs)

        view.drawing._render = counted_render
        view.drawing.renderer.draw = counting_draw


# --- the scenes ------------------------------------------------------------------------------------

def measure_empty(window: Any, seconds: float) -> Measure:
    from simulator.render.screen import Screen

    window.reset(Screen(window))
    measure = Measure("empty window")
    run_frames(window, None, 0.5)
    run_frames(window, measure, seconds)
    return measure


def measure_table(window: Any, app: Any, seconds: float, redraw: bool) -> Measure:
    from simulator.core.controller import PERSON, Seat

    app.start_game("bandu", {}, [Seat(PERSON) for _ in range(6)], seed=1)
    view = window.top.view
    probe = Probe(view)
    settle_view(window, view)
    state = view.bandu
    pieces = sum(len(tower) for tower in state.towers) + len(state.reserve)
    view.drawing.changed()                      # one more render, to count what it draws
    run_frames(window, None, 0.3)
    assert probe.pieces_drawn == 54 == pieces, f"drew {probe.pieces_drawn} pieces, the state has {pieces}"
    measure = Measure("54 pieces at rest" + (", redrawn every frame" if redraw else ""))
    probe.measure = measure

    def bump() -> None:
        view.drawing.moved()

    run_frames(window, measure, seconds, before_draw=bump if redraw else None)
    measure.notes["pieces_drawn"] = probe.pieces_drawn
    return measure


def build_tower() -> dict[str, Any]:
    """A solo game (headless, the physics referee) whose tower holds 20 pieces, as a save."""
    from simulator.core.controller import PERSON, Seat, TurnController
    from simulator.games.bandu.rules import TAKE, BanduState, Offer, Place
    from simulator.towers.physics.bench_towers import BENCH_TOWERS

    foundation, pieces = BENCH_TOWERS["tower_20"]
    assert foundation == "base"
    controller = TurnController("bandu", {"variant": "solo"}, [Seat(PERSON)], seed=1)
    try:
        for piece in pieces[:TOWER_PIECES]:
            controller.submit(Offer(piece, TAKE))
            controller.submit(Place(piece))
            controller.play_computer_moves()            # the referee settles it
            state = controller.state
            assert isinstance(state, BanduState) and state.alive[0], f"the tower fell at {piece}"
        state = controller.state
        assert isinstance(state, BanduState) and len(state.towers[0]) == TOWER_PIECES + 1
        return controller.to_save_dict()
    finally:
        controller.close()


def collapse_once(window: Any, app: Any, save: dict[str, Any], measure: Measure | None,
                  redraw: bool = False, screenshot: Path | None = None) -> None:
    """Open the 20-piece tower's game, release the knocker, count frames into `measure` while
    the outcome is in progress, then check that the tower fell."""
    from simulator.core.controller import TurnController
    from simulator.games.bandu.rules import TAKE, BanduState, Offer, Place, Settled

    controller = TurnController.from_save_dict(save, verify=False)
    app._show_game(controller)                # the live resolver, as the window plays
    view = window.top.view
    probe = Probe(view)
    state = controller.state
    assert isinstance(state, BanduState)
    before = {piece: pose[2] for piece, pose in state.poses.items()}
    tower = list(state.towers[0])
    piece, x_mm, y_mm, yaw = KNOCKER
    assert view.submit(Offer(piece, TAKE))
    settle_view(window, view)                 # the camera flies to the tower; the piece is held
    assert view.aim.held is not None
    probe.measure = measure
    assert view.submit(Place(piece, x_mm, y_mm, yaw))
    window._tick(0.0)                         # the controller hands the node to the resolver
    pending: Any = controller.outcome_in_progress()
    assert pending is not None, "the placement's outcome did not start"
    shown: set[int] = set()
    waiting = [0]
    first_shown: list[float] = []

    def each_frame() -> None:
        if view.playback.frame is not None:
            shown.add(id(view.playback.frame[0]))
            if not first_shown:
                first_shown.append(pending.playback_seconds())
        timeline = pending.timeline
        if not timeline.finished and pending.playback_seconds() > timeline.end:
            waiting[0] += 1                   # the playback has caught up with the physics
        if redraw:
            view.drawing.moved()

    if measure is not None:
        frames = measure.frames
        run_frames(window, measure, 120.0, stop=lambda: controller.outcome_in_progress() is not pending,
                   before_draw=each_frame)
        assert measure.frames > frames and shown, "no frame of the collapse was drawn"
        notes = measure.notes
        notes["playbacks"] = notes.get("playbacks", 0) + 1
        notes["physics_frames_shown"] = notes.get("physics_frames_shown", 0) + len(shown)
        notes["frames_waiting_for_physics"] = notes.get("frames_waiting_for_physics", 0) + waiting[0]
        notes.setdefault("first_physics_frame_at_s", []).append(round(first_shown[0], 2))
    if screenshot is not None:
        from simulator.render.screenshot import save_png

        # SCREENSHOT_AT_S into the playback, or its last frame when the physics ended sooner
        # (waiting for the frame at SCREENSHOT_AT_S of a timeline that ended sooner never ended)
        while pending.playback_seconds() < SCREENSHOT_AT_S and not pending.done():
            window.pump(1)
        window.pump(1)
        save_png(screenshot)
    while controller.outcome_in_progress() is pending:      # the rest, not measured
        window.pump(1)
    result = pending.result()
    assert isinstance(result, Settled) and result.fallen == (0,), f"the tower stood: {result.fallen}"
    last = pending.timeline.at(pending.timeline.end)[0]
    came_down = sum(1 for p in tower if last[p][2] * 1000 < before[p] - DROP_MM)
    assert came_down >= 5, f"only {came_down} pieces of the tower came down"
    if measure is not None:
        measure.notes["pieces_came_down"] = came_down
        measure.notes["playback_seconds"] = round(pending.timeline.end, 2)


def measure_collapse(window: Any, app: Any, save: dict[str, Any], seconds: float,
                     redraw: bool = False) -> Measure:
    """Whole collapses, played again until at least `seconds` are measured."""
    name = "20-piece tower collapsing"
    if redraw:
        name += ", redrawn every frame"
    measure = Measure(name)
    while measure.seconds < seconds:
        collapse_once(window, app, save, measure, redraw)
    return measure


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="measured per scene (default 4)")
    parser.add_argument("--size", default="1280x720", help="the window, WxH (default 1280x720)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--redraw", action="store_true",
                        help="also the Bandu scenes with the 3D picture drawn every frame")
    parser.add_argument("--screenshot", type=Path, help="save a PNG of a collapse half way")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    os.environ.setdefault("BANDU_SIM_HOME", tempfile.mkdtemp(prefix="bandu-sim-fps-"))
    os.environ.setdefault("LIBGL_ALWAYS_SOFTWARE", "1")

    started = time.perf_counter()
    save = build_tower()                      # headless, before the window: nothing competes
    build_seconds = time.perf_counter() - started

    import pyglet

    from simulator.app.main import App
    from simulator.render.window import AppWindow

    window = AppWindow(width, height, visible=True)
    window.set_vsync(False)
    app = App(window)
    renderer = pyglet.gl.gl_info.get_renderer()
    size = f"{window.width}x{window.height}"
    try:
        results = [measure_empty(window, args.seconds),
                   measure_table(window, app, args.seconds, redraw=False),
                   measure_collapse(window, app, save, args.seconds)]
        if args.redraw:
            results += [measure_table(window, app, args.seconds, redraw=True),
                        measure_collapse(window, app, save, args.seconds, redraw=True)]
        if args.screenshot is not None:
            collapse_once(window, app, save, None, screenshot=args.screenshot)
    finally:
        app.shutdown()
        window.close()
        pyglet.clock.tick()
    empty = results[0].fps
    report = {"window": size, "renderer": renderer, "cpus": os.cpu_count(),
              "tower_built_seconds": round(build_seconds, 1),
              "scenes": [r.summary() for r in results],
              "collapse_over_empty": round(results[2].fps / empty, 3) if empty else None}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"window {size}, {renderer}, {report['cpus']} CPUs (tower built headless in {build_seconds:.1f} s)")
    print(f"{'scene':<52} {'fps':>6} {'frames':>6} {'median ms':>9} {'p95 ms':>7} {'max ms':>7} {'renders':>7}")
    for r in results:
        s = r.summary()
        print(f"{s['scene']:<52} {s['fps']:>6.1f} {s['frames']:>6} {s['median_frame_ms']:>9.1f} "
              f"{s['p95_frame_ms']:>7.1f} {s['longest_frame_ms']:>7.1f} {s['renders']:>7}")
    c = results[2].summary()
    print(f"collapse / empty: {report['collapse_over_empty']} (goal: at least 0.5)")
    print(f"collapse: {c['playbacks']} playback(s) of {c['playback_seconds']} s, {c['pieces_came_down']} "
          f"of 20 pieces came down; {c['physics_frames_shown']} physics frames shown, the first "
          f"{c['first_physics_frame_at_s']} s after the release; {c['frames_waiting_for_physics']} "
          f"frames drawn while the playback waited for the physics")
