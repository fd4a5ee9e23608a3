"""The practice aid of a solo game: how often the release the ghost shows would stand.

Solo and one-player chain games only, off by default (the setting `practice_aid`), and every
record made with it is marked: the rule book never shows a simulated outcome in a game against
others. The held piece's release is tried TRIALS times on a copy of the tower, each with the
hand tremor PRACTICE_TREMOR (seeded: the same release gives the same rate), in a process of its
own so that the window never waits for physics. A newer question (the piece moved) abandons an
older one between trials; the answer grows trial by trial, so the ghost's colour settles as the
trials come in.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simulator.games.bandu.asking import AskedProcess
from simulator.games.bandu.rules import BanduState, Place, tower_key
from simulator.towers.physics.tremor import Tremor

TRIALS = 8
PRACTICE_TREMOR = Tremor(1.0, 1.0)      # mm, degrees: the computer players' trial hand
SEED = 20261201                         # trial t shakes with (SEED, t)
REST_SECONDS = 0.25                     # the held piece rests this long before it is asked about
FALLS = (1.0, 0.32, 0.28)               # the ghost's colour when the release never stands ...
HALF = (1.0, 0.78, 0.25)                # ... half the time ...
STANDS = (0.35, 1.0, 0.45)              # ... always


@dataclass(frozen=True)
class StandRate:
    stood: int
    tried: int
    trials: int = TRIALS

    @property
    def rate(self) -> float:
        return self.stood / self.tried if self.tried else 0.0

    @property
    def complete(self) -> bool:
        return self.tried >= self.trials

    def sentence(self) -> str:
        state = "" if self.complete else f" (trial {self.tried} of {self.trials})"
        return (f"Practice aid: this release stood {self.stood} of {self.tried} times with a "
                f"{PRACTICE_TREMOR.position_mm:g} mm / {PRACTICE_TREMOR.angle_deg:g} degree "
                f"hand tremor{state}.")


def probe_worker(connection: Any, trials: int, tremor: Tremor) -> None:
    """The process: answer the newest question, trial by trial, until told to stop (None)."""
    from simulator.core.quiet_output import import_quietly

    import_quietly("simulator.games.bandu.ai")
    import numpy as np

    from simulator.games.bandu.tower_lab import TowerLab

    lab: Any = None
    lab_key: tuple | None = None
    try:
        message = connection.recv()
        while message is not None:
            while connection.poll():            # only the newest question matters
                message = connection.recv()
                if message is None:
                    break
            if message is None:
                break
            request, state, seat, place = message
            key = tower_key(state, seat)
            if key != lab_key:
                if lab is not None:
                    lab.close()
                lab, lab_key = TowerLab(state, seat), key
            stood = 0
            for trial in range(trials):
                if connection.poll():           # a newer question: this one is abandoned
                    break
                ok = lab.trial(place, tremor, np.random.default_rng((SEED, trial))).stood
                stood += ok
                connection.send((request, stood, trial + 1))
            message = connection.recv()      # the newer question, or the next one
    except (EOFError, OSError):         # the window has gone, maybe mid-question
        pass
    finally:
        if lab is not None:
            lab.close()


class StandRateProbe(AskedProcess):
    """Asks the probe process how often a release stands; `poll()` takes its answers."""

    def __init__(self, trials: int = TRIALS, tremor: Tremor = PRACTICE_TREMOR) -> None:
        super().__init__(probe_worker, (trials, tremor), "practice-aid")
        self.trials = trials
        self.tremor = tremor
        self.answer: StandRate | None = None

    def ask(self, state: BanduState, seat: int, place: Place) -> None:
        """How often would `place` released over `seat`'s tower stand? (Asked again for the
        same release and tower, nothing new is asked.)"""
        self._ask((place, tower_key(state, seat)), state, seat, place)

    def _answer_from(self, reply: tuple) -> StandRate:
        stood, tried = reply
        return StandRate(stood, tried, self.trials)


def stand_rate_colour(rate: float) -> tuple[float, float, float]:
    """Red (never stands) through amber (half the time) to green (always), for the ghost."""
    rate = min(max(rate, 0.0), 1.0)
    low, high, t = (FALLS, HALF, rate * 2) if rate < 0.5 else (HALF, STANDS, rate * 2 - 1)
    return tuple(a + (b - a) * t for a, b in zip(low, high, strict=True))   # type: ignore[return-value]


class PracticeAid:
    """The window's side of the aid: the held piece's release is asked about once the piece
    has rested REST_SECONDS (not on every mouse move); the answer colours the ghost and is said
    in the hint line."""

    def __init__(self, probe: StandRateProbe | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.probe = probe or StandRateProbe()
        self.clock = clock
        self._place: Place | None = None
        self._since = 0.0

    def update(self, state: BanduState, seat: int, place: Place | None) -> bool:
        """Follow the held piece (None: nothing held); True when the ghost's colour changed."""
        changed = False
        if place != self._place:
            changed = self.probe.answer is not None
            self.probe.forget()
            self._place, self._since = place, self.clock()
        if place is not None and self.clock() - self._since >= REST_SECONDS:
            self.probe.ask(state, seat, place)
        return self.probe.poll() or changed

    def colour(self) -> tuple[float, float, float] | None:
        answer = self.probe.answer
        return stand_rate_colour(answer.rate) if answer is not None and answer.tried else None

    def sentence(self) -> str:
        answer = self.probe.answer
        if self._place is None:
            return ""
        if answer is None:
            return "Practice aid: hold the piece still to see how often this release stands."
        return answer.sentence()

    def close(self) -> None:
        self.probe.close()
