"""How fast a Bunko night goes in the window: the dice resolver the window uses, pure Python.

A roll's result is drawn at once from the controller's seeded RNG (the game's model), exactly as
headless play draws it; in the window it counts only after the dice have been seen to tumble and
lie (`pace`: normal, fast or instant), so people can follow every table. After the roll that ends
a round, players change tables: the first roll of the next round waits until they have moved
(counted from when the round ended, so a person who takes their time waits no longer).
The view reads the stages of a pending roll (`RollingDice.stage`) to draw it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from simulator.core.state import GameState
from simulator.games.bunko.rules import BunkoState, Dice

TUMBLE_SECONDS = {"normal": 0.8, "fast": 0.4, "instant": 0.0}   # dice in the air
HOLD_SECONDS = {"normal": 0.5, "fast": 0.2, "instant": 0.0}     # dice lying, before they count
MOVE_SECONDS = {"normal": 1.6, "fast": 0.8, "instant": 0.0}     # players changing tables
BELL_SECONDS = 1.6                                              # the view rings this long


class RollingDice:
    """A roll being shown: waiting for players to move (`lead`), tumbling, then lying still."""

    def __init__(self, dice: Dice, lead: float, tumble: float, hold: float,
                 clock: Callable[[], float]) -> None:
        self.dice = dice
        self.lead, self.tumble, self.hold = lead, tumble, hold
        self._clock = clock
        self._start = clock()

    @property
    def seconds(self) -> float:
        return self.lead + self.tumble + self.hold

    def elapsed(self) -> float:
        return self._clock() - self._start

    def stage(self) -> tuple[str, float]:
        """('waiting' | 'tumbling' | 'landed', how far along that stage is, 0..1)."""
        t = self.elapsed()
        if t < self.lead:
            return "waiting", t / self.lead
        t -= self.lead
        if t < self.tumble:
            return "tumbling", t / self.tumble
        return "landed", 1.0 if self.hold <= 0 else min(1.0, (t - self.tumble) / self.hold)

    def done(self) -> bool:
        return self.elapsed() >= self.seconds

    def result(self) -> Dice:
        return self.dice

    def progress(self) -> float:
        total = self.seconds
        return 1.0 if total <= 0 else min(1.0, self.elapsed() / total)

    def cancel(self) -> None:
        pass


class DiceResolver:
    """The window's resolver of Bunko's dice (Game.live_resolver)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._moving_until = 0.0          # players change tables until then

    def begin(self, state: GameState, rng: random.Random) -> RollingDice:
        assert isinstance(state, BunkoState)
        dice = state.sample_outcome(rng)
        pace = state.pace
        tumble, hold = TUMBLE_SECONDS[pace], HOLD_SECONDS[pace]
        now = self.clock()
        lead = max(0.0, self._moving_until - now) if state.round_rolls == 0 else 0.0
        after = state.clone()
        after.apply_unchecked(dice)
        if after.round != state.round:    # this roll ends the round: then everyone moves
            self._moving_until = now + lead + tumble + hold + MOVE_SECONDS[pace]
        return RollingDice(dice, lead, tumble, hold, self.clock)
