"""The window's sound: short synthesized sounds (render/sound_synthesis.py) played through
pyglet's media player, never waiting and never in the way of a frame.

`Sound.play(name, make, gain)` plays the sound `name`, made once by `make()` (samples at
SAMPLE_RATE) and kept; `gain` scales it (a harder knock is louder) and the volume scales them
all. At most MAX_VOICES play at once (a collapse knocks dozens of times a second: the rest are
dropped). Where there is no audio device (Xvfb, CI), pyglet's silent driver takes the sounds and
nothing is heard; where pyglet's media cannot load at all, the sound is off. Ctrl+M mutes and
unmutes, Ctrl+Up and Ctrl+Down set the volume (the window's keys); `bandu-sim play --volume N`
starts at N percent. `heard` keeps the last sounds played, for tests and tools.
"""

from __future__ import annotations

import collections
import io
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from simulator.render.sound_synthesis import rattle, slide, wav_bytes

MAX_VOICES = 12
VOLUME_STEP = 0.1
HEARD_KEPT = 200
VARIANTS = 3                 # throws of the dice and slides of a card made, played in turn

Made = tuple[str, Callable[[], np.ndarray], float]    # (a sound's name, its maker, its gain)


def dice_sound(dice: int, turn: int) -> Made:
    """`dice` dice thrown: one of VARIANTS throws, picked by `turn` (a move's number), for variety."""
    variant = turn % VARIANTS
    return f"dice-{dice}-{variant}", partial(rattle, dice, np.random.default_rng(variant)), 1.0


def card_sound(turn: int) -> Made:
    """A card slid onto the table: one of VARIANTS slides, picked by `turn`."""
    variant = turn % VARIANTS
    return f"card-{variant}", partial(slide, np.random.default_rng(variant)), 1.0


class Sound:
    def __init__(self, volume: float = 0.8) -> None:
        self.volume = float(np.clip(volume, 0.0, 1.0))
        self.muted = False
        self._sources: dict[str, Any] = {}
        self._players: list[tuple[Any, float]] = []     # (player, when its sound ends)
        self._media: Any = None
        self._unavailable = False
        # (monotonic time, name, gain) of each sound played, the newest last
        self.heard: collections.deque[tuple[float, str, float]] = collections.deque(maxlen=HEARD_KEPT)

    def toggle_mute(self) -> str:
        """Ctrl+M: the sound off or on; what the toast says."""
        self.muted = not self.muted
        return "Sound off (Ctrl+M: on)" if self.muted else f"Sound on, volume {self.percent()} %"

    def change_volume(self, steps: int) -> str:
        """Ctrl+Up / Ctrl+Down: the volume a step up or down; what the toast says."""
        self.volume = float(np.clip(round(self.volume + steps * VOLUME_STEP, 2), 0.0, 1.0))
        self.muted = False
        return f"Volume {self.percent()} %"

    def percent(self) -> int:
        return round(self.volume * 100)

    def play(self, name: str, make: Callable[[], np.ndarray], gain: float = 1.0) -> bool:
        """Play `name` (made by `make` the first time) at `gain`; False when nothing was played
        (muted, silent, too many sounds at once, or no media)."""
        gain = float(np.clip(gain, 0.0, 1.0)) * self.volume
        if self.muted or gain <= 0.0:
            return False
        media = self._load_media()
        if media is None:
            return False
        now = time.monotonic()
        for player, ends in self._players:      # a sound over, by the clock (any driver's)
            if ends <= now:
                player.delete()
        self._players = [(player, ends) for player, ends in self._players if ends > now]
        if len(self._players) >= MAX_VOICES:
            return False
        source = self._sources.get(name)
        if source is None:
            source = media.load(f"{name}.wav", file=io.BytesIO(wav_bytes(make())), streaming=False)
            self._sources[name] = source
        player = media.Player()
        player.volume = gain
        player.queue(source)
        player.play()
        self._players.append((player, now + (source.duration or 0.0)))
        self.heard.append((now, name, gain))
        return True

    def voices(self) -> int:
        """The sounds playing now."""
        now = time.monotonic()
        return sum(ends > now for _, ends in self._players)

    def prepare(self) -> None:
        """Load pyglet's media and its audio driver now (see docs/MEASUREMENTS.md), so that the first
        sound played never holds a frame up."""
        media = self._load_media()
        if media is not None:
            try:
                from pyglet.media.drivers import get_audio_driver

                get_audio_driver()
            except Exception:                  # no driver at all: nothing will be heard
                self._unavailable, self._media = True, None

    def _load_media(self) -> Any:
        if self._media is None and not self._unavailable:
            try:
                import pyglet.media as media
            except Exception:                  # no media support here at all: no sound
                self._unavailable = True
                return None
            self._media = media
        return self._media

    def close(self) -> None:
        for player, _ in self._players:
            player.delete()
        self._players = []
