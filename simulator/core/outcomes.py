"""Resolvers of outcome nodes: where a result the rules cannot compute comes from.

At an OUTCOME node (core/state.py) the controller calls `resolver.begin(state, rng)` with a copy
of the state and the seeded RNG of that ply, and polls the returned PendingOutcome every frame
(`done()`), so the window keeps drawing while physics settles a tower or dice tumble. In blocking
play (self-play, the command line, tests) it calls `result()` at once, which waits for the work
but not for any animation. The result is an action of the game, applied and recorded like any
other, so a save replays it without resolving it again.

- ModelResolver: the game's own model (`state.sample_outcome(rng)`), instant.
- AnimatedResolver: the same result, reported done only after `seconds` on the clock, so a view
  can show the roll; `progress()` tells it how far along the animation is.
- ThreadResolver: any slow function (a physics referee) run on a worker thread.
- LiveProcessResolver: slow work in a process of its own that publishes frames (what the world
  looks like at a simulated time) as it goes, sent back through a pipe onto a Timeline; the
  pending outcome is done only when its frames have been played back in real time, so a view
  shows a tower settle or fall as it happened. A process, not a thread: a C library that holds
  Python's lock while it steps (PyBullet does) would stall the window's drawing meanwhile.
"""

from __future__ import annotations

import bisect
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

from simulator.core.piped_process import start_piped_process, stop_process
from simulator.core.state import GameState


class PendingOutcome(Protocol):
    def done(self) -> bool:
        """True when the result may be applied (the work and any animation are over)."""
        ...

    def result(self) -> Any:
        """The outcome action; waits for the work (never for an animation)."""
        ...

    def progress(self) -> float:
        """0..1, how far along the resolution is (for a view's animation)."""
        ...

    def cancel(self) -> None: ...


class OutcomeResolver(Protocol):
    def begin(self, state: GameState[Any], rng: random.Random) -> PendingOutcome:
        """Start resolving the outcome node `state` is at; `state` is the resolver's own copy."""
        ...


class _Ready:
    """An outcome known at once, done after `seconds` on the monotonic clock."""

    def __init__(self, action: Any, seconds: float, clock: Callable[[], float]) -> None:
        self._action = action
        self._clock = clock
        self._start = clock()
        self._seconds = seconds

    def done(self) -> bool:
        return self.progress() >= 1.0

    def result(self) -> Any:
        return self._action

    def progress(self) -> float:
        if self._seconds <= 0:
            return 1.0
        return min(1.0, (self._clock() - self._start) / self._seconds)

    def cancel(self) -> None:
        pass


class ModelResolver:
    """The game's own model of the outcome, at once."""

    def begin(self, state: GameState[Any], rng: random.Random) -> PendingOutcome:
        return _Ready(state.sample_outcome(rng), 0.0, time.monotonic)


class AnimatedResolver:
    """The game's model, shown for `seconds` before it counts (dice rolling on the table)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock

    def begin(self, state: GameState[Any], rng: random.Random) -> PendingOutcome:
        return _Ready(state.sample_outcome(rng), self.seconds, self.clock)


class _Threaded:
    def __init__(self, future: Future[Any]) -> None:
        self._future = future

    def done(self) -> bool:
        return self._future.done()

    def result(self) -> Any:
        return self._future.result()

    def progress(self) -> float:
        return 1.0 if self._future.done() else 0.0

    def cancel(self) -> None:
        self._future.cancel()


class ThreadResolver:
    """`work(state, rng) -> action` on a daemon thread of its own per outcome (physics)."""

    def __init__(self, work: Callable[[GameState[Any], random.Random], Any],
                 close: Callable[[], None] | None = None) -> None:
        self.work = work
        self._close = close

    def close(self) -> None:
        """Free what the work holds (a physics world); the controller calls it when done."""
        if self._close is not None:
            self._close()

    def begin(self, state: GameState[Any], rng: random.Random) -> PendingOutcome:
        return _Threaded(self._run(lambda: self.work(state, rng)))

    @staticmethod
    def _run(work: Callable[[], Any]) -> Future[Any]:
        """`work()` on a daemon thread of its own; its result or error in the future."""
        future: Future[Any] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(work())
            except BaseException as error:  # handed to whoever asks for the result
                future.set_exception(error)

        threading.Thread(target=run, name="outcome-resolver", daemon=True).start()
        return future


class Timeline:
    """Frames a resolver's work publishes as it goes: (simulated seconds, frame), in time order.
    Written by the worker thread, read by the drawing thread."""

    def __init__(self) -> None:
        self._times: list[float] = []
        self._frames: list[Any] = []
        self._lock = threading.Lock()
        self.finished = False            # the work published its last frame

    def add(self, seconds: float, frame: Any) -> None:
        with self._lock:
            if self._times and seconds < self._times[-1]:
                raise ValueError("frames are published in time order")
            self._times.append(seconds)
            self._frames.append(frame)

    @property
    def end(self) -> float:
        """The simulated time of the last frame so far (0 without frames)."""
        with self._lock:
            return self._times[-1] if self._times else 0.0

    def __len__(self) -> int:
        with self._lock:
            return len(self._times)

    def since(self, index: int) -> list[tuple[float, Any]]:
        """The frames from the `index`-th on, as (simulated seconds, frame): what a host has
        not yet sent its joiners."""
        with self._lock:
            return list(zip(self._times[index:], self._frames[index:], strict=True))

    def at(self, seconds: float) -> tuple[Any, Any, float] | None:
        """The frames on either side of `seconds` and how far between them (0..1), for drawing
        interpolated poses; past the last frame, the last one. None before any frame."""
        with self._lock:
            if not self._times:
                return None
            index = bisect.bisect_right(self._times, seconds)
            if index == 0:
                return self._frames[0], self._frames[0], 0.0
            if index >= len(self._times):
                return self._frames[-1], self._frames[-1], 0.0
            t0, t1 = self._times[index - 1], self._times[index]
            blend = (seconds - t0) / (t1 - t0) if t1 > t0 else 0.0
            return self._frames[index - 1], self._frames[index], blend


class _LiveRemote:
    """An outcome being resolved in the resolver's process; its frames arrive through a pipe."""

    def __init__(self, resolver: LiveProcessResolver, request: int, clock: Callable[[], float]) -> None:
        self._resolver = resolver
        self.request = request
        self.timeline = Timeline()
        self._clock = clock
        self._start: float | None = None
        self._outcome: tuple[str, Any] | None = None       # ("result", action) or ("error", text)
        self.cancelled = False

    def _take(self, kind: str, payload: Any) -> None:
        if kind == "frame":
            self.timeline.add(*payload)
            if self._start is None:
                self._start = self._clock()
        else:
            self.timeline.finished = True
            self._outcome = (kind, payload)

    def playback_seconds(self) -> float:
        self._resolver.drain()
        return 0.0 if self._start is None else self._clock() - self._start

    def frame(self) -> tuple[Any, Any, float] | None:
        return self.timeline.at(self.playback_seconds())

    def done(self) -> bool:
        self._resolver.drain()
        return self._outcome is not None and self.playback_seconds() >= self.timeline.end

    def result(self) -> Any:
        while self._outcome is None:
            self._resolver.drain(block=True)
        kind, payload = self._outcome
        if kind == "error":
            raise RuntimeError(f"the outcome could not be resolved: {payload}")
        return payload

    def progress(self) -> float:
        if self._outcome is None:
            return 0.0
        end = self.timeline.end
        return 1.0 if end <= 0 else min(1.0, self.playback_seconds() / end)

    def cancel(self) -> None:
        self.cancelled = True


def live_outcome_worker(connection: Any, make_work: Callable[[], Callable[..., Any]]) -> None:
    """The resolver process: build the work once, then resolve what the pipe asks, one by one."""
    work = make_work()

    class _PipeTimeline:
        def __init__(self, request: int) -> None:
            self.request = request
            self.finished = False

        def add(self, seconds: float, frame: Any) -> None:
            connection.send((self.request, "frame", (seconds, frame)))

    try:
        while (message := connection.recv()) is not None:
            request, state, rng = message
            try:
                result = work(state, rng, _PipeTimeline(request))
            except Exception as error:  # said to the window, which shows it and goes on
                connection.send((request, "error", f"{type(error).__name__}: {error}"))
            else:
                connection.send((request, "result", result))
    except (EOFError, OSError):         # the window has gone, maybe mid-outcome: nobody to tell
        return


class LiveProcessResolver:
    """Live outcomes resolved in a process of its own (started at once, spawned, so it is a
    fresh interpreter): `make_work()`, a function that can be pickled, builds there the
    `work(state, rng, timeline) -> action` (a physics referee); the frames it publishes come
    back through a pipe; playback starts when the first frame is there. If the process dies,
    its outcomes fail with a message and the next outcome starts a new one."""

    def __init__(self, make_work: Callable[[], Callable[..., Any]],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.make_work = make_work
        self.clock = clock
        self._process: Any = None
        self._connection: Any = None
        self._pending: dict[int, _LiveRemote] = {}
        self._requests = 0
        self._start_process()

    def _start_process(self) -> None:
        self._connection, self._process = start_piped_process(live_outcome_worker, (self.make_work,),
                                                              "outcome-resolver")

    def begin(self, state: GameState[Any], rng: random.Random) -> PendingOutcome:
        if self._process is None or not self._process.is_alive():
            self.close()
            self._start_process()
        self._requests += 1
        pending = _LiveRemote(self, self._requests, self.clock)
        self._pending[pending.request] = pending
        self._connection.send((pending.request, state, rng))
        return pending

    def drain(self, block: bool = False) -> None:
        """Take what the process has sent so far (with `block`, wait for at least one message)."""
        connection = self._connection
        if connection is None:
            return
        try:
            while block or connection.poll():
                if block and not connection.poll(0.5):
                    if self._process is not None and self._process.is_alive():
                        continue
                    raise EOFError
                block = False
                request, kind, payload = connection.recv()
                pending = self._pending.get(request)
                if pending is not None and not pending.cancelled:
                    pending._take(kind, payload)
                if kind != "frame":
                    self._pending.pop(request, None)
        except (EOFError, OSError):                 # the process died: its outcomes fail
            for pending in self._pending.values():
                pending._take("error", "the physics process stopped")
            self._pending.clear()
            self._connection = None
            self._process = None

    def close(self) -> None:
        """Stop the process (the controller calls it when the game is closed)."""
        stop_process(self._connection, self._process)
        self._connection, self._process = None, None
