"""What Bandu's table sounds like: a wooden piece knocks where the physics gives it a contact
impulse (the referee's frames carry each piece's, games/bandu/referee.py), louder for a harder
hit, higher for a smaller piece, brighter for a lacquered one; a released piece knocks softly
as it lands; a falling tower is many knocks, a clatter.

`knocks(frame)` turns one frame into (sound name, samples maker, gain) to play; `track(times,
frames)` renders a whole outcome's sound off-line (tests: its onsets against the impacts).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, partial
from typing import Any

import numpy as np

from simulator.render import sound_synthesis
from simulator.render.sound import Made
from simulator.towers.pieces.build import load_piece
from simulator.towers.pieces.catalogue import BY_ID, kind

QUIET_N_S, LOUD_N_S = 0.003, 0.3      # a knock's impulse from barely heard to full (log scale)
LEVELS = 6                            # knock strengths made and kept per piece
MAX_KNOCKS_A_FRAME = 4                # the hardest of a frame's knocks are played
PLACED_GAIN = 0.35                    # a piece set down on the tower


def gain_of(impulse_n_s: float) -> float:
    """How loud a knock of `impulse_n_s` is, 0 to 1, on a log scale (a hearing's)."""
    if impulse_n_s <= QUIET_N_S:
        return 0.0
    return min(1.0, math.log(impulse_n_s / QUIET_N_S) / math.log(LOUD_N_S / QUIET_N_S))


@cache
def piece_sound(piece: str) -> tuple[float, bool]:
    """A piece's size (its longest side, m) and whether it is lacquered (harder, brighter)."""
    spec = BY_ID[kind(piece)]
    size_mm = max(float(v) for v in load_piece(spec.id).facts["size_mm"])
    return size_mm / 1000.0, spec.material.glossy


def knock_of(piece: str, gain: float) -> Made:
    """The knock of `piece` at `gain`: (its name, the maker of its samples, the gain to play
    it at); strengths are kept in LEVELS steps, so a piece has few distinct sounds."""
    level = max(1, min(LEVELS, math.ceil(gain * LEVELS)))
    size, hard = piece_sound(piece)
    strength = level / LEVELS
    name = f"knock-{kind(piece)}-{level}"
    return name, partial(sound_synthesis.knock, size, strength, hard), gain


def knocks(frame: dict[str, Sequence[float]]) -> list[Made]:
    """The knocks of one frame of the physics, the hardest MAX_KNOCKS_A_FRAME."""
    hits = sorted(((pose[7], piece) for piece, pose in frame.items() if len(pose) > 7 and pose[7] > 0),
                  reverse=True)
    found = []
    for impulse, piece in hits[:MAX_KNOCKS_A_FRAME]:
        gain = gain_of(impulse)
        if gain > 0:
            found.append(knock_of(piece, gain))
    return found


def placed(piece: str) -> Made:
    """A piece set down on the tower: a soft knock."""
    return knock_of(piece, PLACED_GAIN)


def track(times: Sequence[float], frames: Sequence[dict[str, Any]]) -> tuple[np.ndarray, list[float]]:
    """A whole outcome's sound, off-line: the samples, and the times of the knocks in it."""
    events: list[tuple[float, np.ndarray]] = []
    for at, frame in zip(times, frames, strict=True):
        for _, make, gain in knocks(frame):
            events.append((at, make() * gain))
    return sound_synthesis.mix(events), [at for at, _ in events]
