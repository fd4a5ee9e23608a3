"""Tweens: a value animated over time. A `Tween` runs from 0 to 1 over its seconds as the view's
clock advances it (a token gliding to its new chair, a bell swinging, a word fading);
`smoothstep` eases it in and out and `lerp` takes the value that far between two others.
"""

from __future__ import annotations


class Tween:
    """Progress from 0 to 1 over `seconds`, advanced by update(dt); not running until started
    (or when started for no time at all), and no longer once stopped."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = 0.0
        self.elapsed = 0.0
        self.start(seconds)

    @property
    def running(self) -> bool:
        return self.seconds > 0

    @property
    def progress(self) -> float:
        """How far it has run, 0 to 1 (1 when not running)."""
        return min(1.0, self.elapsed / self.seconds) if self.seconds > 0 else 1.0

    @property
    def done(self) -> bool:
        """It has run its whole time (stop() it to say it runs no more)."""
        return self.progress >= 1.0

    def start(self, seconds: float) -> None:
        self.seconds, self.elapsed = seconds, 0.0

    def stop(self) -> None:
        self.seconds = 0.0

    def update(self, dt: float) -> float:
        """Advance by dt seconds; the progress now."""
        self.elapsed += dt
        return self.progress


def smoothstep(t: float) -> float:
    """t in [0, 1] eased: slow at both ends."""
    return t * t * (3 - 2 * t)


def lerp(a: float, b: float, t: float) -> float:
    """The value `t` of the way from a to b."""
    return a + (b - a) * t
