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
- LiveThreadResolver: the same, and the work publishes frames (what the world looks like at a
  simulated time) on a Timeline as it goes; the pending outcome is done only when its frames
  have been played back in real time, so a view shows a tower settle or fall as it happened.
"""

from __future__ import annotations

import bisect
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

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
    def begin(self, state: GameState, rng: random.Random) -> PendingOutcome:
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

    def begin(self, state: GameState, rng: random.Random) -> PendingOutcome:
        return _Ready(state.sample_outcome(rng), 0.0, time.monotonic)


class AnimatedResolver:
    """The game's model, shown for `seconds` before it counts (dice rolling on the table)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock

    def begin(self, state: GameState, rng: random.Random) -> PendingOutcome:
        return _Ready(state.sample_outcome(rng), self.seconds, self.clock)


class _Threaded:
    def __init__(self, future: Future) -> None:
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

    def __init__(self, work: Callable[[GameState, random.Random], Any],
                 close: Callable[[], None] | None = None) -> None:
        self.work = work
        self._close = close

    def close(self) -> None:
        """Free what the work holds (a physics world); the controller calls it when done."""
        if self._close is not None:
            self._close()

    def begin(self, state: GameState, rng: random.Random) -> PendingOutcome:
        return _Threaded(self._run(lambda: self.work(state, rng)))

    @staticmethod
    def _run(work: Callable[[], Any]) -> Future:
        """`work()` on a daemon thread of its own; its result or error in the future."""
        future: Future = Future()

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


class _Live(_Threaded):
    def __init__(self, future: Future, timeline: Timeline, clock: Callable[[], float]) -> None:
        super().__init__(future)
        self.timeline = timeline
        self._clock = clock
        self._start = clock()

    def playback_seconds(self) -> float:
        """Where the real-time playback is (seconds since the work began)."""
        return self._clock() - self._start

    def frame(self) -> tuple[Any, Any, float] | None:
        """The frames to draw now (Timeline.at of the playback time)."""
        return self.timeline.at(self.playback_seconds())

    def done(self) -> bool:
        return self._future.done() and self.playback_seconds() >= self.timeline.end

    def progress(self) -> float:
        end = self.timeline.end
        if not self._future.done() or end <= 0:
            return 1.0 if self._future.done() else 0.0
        return min(1.0, self.playback_seconds() / end)


class LiveThreadResolver(ThreadResolver):
    """`work(state, rng, timeline) -> action` on a worker thread; the work adds frames to the
    timeline as it simulates, and the outcome counts once they have played back in real time
    (`result()` never waits for the playback: blocking play is as fast as the work)."""

    def __init__(self, work: Callable[[GameState, random.Random, Timeline], Any],
                 close: Callable[[], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(lambda state, rng: None, close)
        self.live_work = work
        self.clock = clock

    def begin(self, state: GameState, rng: random.Random) -> PendingOutcome:
        timeline = Timeline()
        pending = _Live(self._run(lambda: self.live_work(state, rng, timeline)), timeline, self.clock)
        return pending
