"""The table's sounds, synthesized: a wooden piece knocking, dice rattling, a card sliding, a
bell. Pure NumPy, no audio library: each function returns mono samples in [-1, 1] at
SAMPLE_RATE; `mix` lays sounds on a time line and `wav_bytes` writes one as a WAV file.

A knock is modal synthesis of a wooden block: a few decaying sines at the frequency ratios of a
free bar's bending modes (1, 2.76, 5.40, 8.93), excited by a short force pulse. A smaller piece
rings higher, a harder (lacquered) one brighter and longer, a harder hit louder and, its pulse
shorter, brighter too. Dice are a die's knocks bouncing closer and softer; a card is noise
shaped like a slide; the bell is a handbell's inharmonic partials.
"""

from __future__ import annotations

import io
import wave

import numpy as np

SAMPLE_RATE = 44_100
BAR_MODES = (1.0, 2.756, 5.404, 8.933)      # a free-free bar's bending modes, as ratios
WOOD_Q = 60.0                                # a mode's quality factor in beech (damping)
LACQUER_Q = 110.0                            # a lacquered piece rings longer


def knock(size_m: float, strength: float, hard: bool = False, seconds: float = 0.25) -> np.ndarray:
    """A wooden piece of `size_m` (its longest side) struck with `strength` (0 to 1): the
    fundamental near 1.3 kHz for a 5 cm piece, inversely with size."""
    fundamental = float(np.clip(1300.0 * 0.05 / max(size_m, 0.005), 250.0, 6000.0))
    strength = float(np.clip(strength, 0.0, 1.0))
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    q = LACQUER_Q if hard else WOOD_Q
    sound = np.zeros_like(t)
    for number, ratio in enumerate(BAR_MODES):
        frequency = fundamental * ratio
        if frequency > SAMPLE_RATE / 2.2:
            break
        decay = q / (np.pi * frequency)                     # seconds to 1/e
        weight = (0.55 + 0.45 * strength) ** number / ratio   # a hard hit excites higher modes
        sound += weight * np.sin(2 * np.pi * frequency * t) * np.exp(-t / decay)
    pulse_ms = 1.2 - 0.8 * strength                        # a harder hit: a shorter pulse
    pulse = _raised_cosine(pulse_ms / 1000)
    sound = np.convolve(sound, pulse / pulse.sum())[:len(t)]
    return _normalized(sound) * (0.15 + 0.85 * strength)


def rattle(dice: int, rng: np.random.Generator, seconds: float = 0.7) -> np.ndarray:
    """`dice` small wooden dice thrown on the table: each bounces, closer and softer."""
    track = np.zeros(int(seconds * SAMPLE_RATE))
    for _ in range(dice):
        at, gap, strength = rng.uniform(0.0, 0.05), rng.uniform(0.08, 0.14), rng.uniform(0.6, 1.0)
        while at < seconds - 0.05 and strength > 0.08:
            hit = knock(rng.uniform(0.014, 0.018), strength, hard=True, seconds=0.05)
            start = int(at * SAMPLE_RATE)
            end = min(len(track), start + len(hit))
            track[start:end] += hit[:end - start]
            at, gap, strength = at + gap, gap * 0.62, strength * 0.55
    return _normalized(track) * 0.8


def slide(rng: np.random.Generator, seconds: float = 0.28) -> np.ndarray:
    """A card slid across the table: noise, its highs softened, swelling and fading."""
    noise = rng.normal(0.0, 1.0, int(seconds * SAMPLE_RATE))
    smooth = np.convolve(noise, np.ones(6) / 6, mode="same")    # a gentle low-pass
    t = np.linspace(0.0, 1.0, len(smooth))
    envelope = np.sin(np.pi * t) ** 2 * np.exp(-1.5 * t)
    return _normalized(smooth * envelope) * 0.35


def bell(seconds: float = 1.6) -> np.ndarray:
    """A small handbell: inharmonic partials over 880 Hz, the higher ones dying first."""
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    partials = ((0.5, 0.35, 1.4), (1.0, 1.0, 1.2), (1.19, 0.5, 0.9), (1.5, 0.35, 0.7),
                (2.0, 0.3, 0.5), (2.51, 0.2, 0.35), (3.01, 0.12, 0.25))
    sound = sum(weight * np.sin(2 * np.pi * 880.0 * ratio * t) * np.exp(-t / decay)
                for ratio, weight, decay in partials)
    attack = np.minimum(1.0, t / 0.002)
    return _normalized(np.asarray(sound) * attack) * 0.6


def mix(events: list[tuple[float, np.ndarray]], seconds: float | None = None) -> np.ndarray:
    """Sounds laid on one track: (start in seconds, samples) each, summed and kept in [-1, 1]."""
    end = max((at + len(s) / SAMPLE_RATE for at, s in events), default=0.0)
    track = np.zeros(int((seconds if seconds is not None else end) * SAMPLE_RATE) + 1)
    for at, samples in events:
        start = round(at * SAMPLE_RATE)
        if start >= len(track):
            continue
        stop = min(len(track), start + len(samples))
        track[start:stop] += samples[:stop - start]
    return np.tanh(track)                         # loud moments round off, never wrap


def wav_bytes(samples: np.ndarray) -> bytes:
    """The samples as a 16-bit mono WAV file."""
    data = (np.clip(samples, -1.0, 1.0) * 32767).astype("<i2").tobytes()
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(SAMPLE_RATE)
        out.writeframes(data)
    return buffer.getvalue()


def onsets(samples: np.ndarray, window_s: float = 0.002, rise: float = 4.0,
           floor: float = 0.01, gap_s: float = 0.02) -> list[float]:
    """When sounds begin (seconds): where the short-time energy jumps `rise` times over the
    energy just before and above `floor`, at least `gap_s` apart. For checking a recording."""
    size = max(1, int(window_s * SAMPLE_RATE))
    frames = len(samples) // size
    energy = (samples[:frames * size].reshape(frames, size) ** 2).mean(axis=1)
    found: list[float] = []
    for index in range(1, frames):
        before = energy[max(0, index - 3):index].mean()
        if energy[index] > floor ** 2 and energy[index] > rise * (before + 1e-9):
            at = index * size / SAMPLE_RATE
            if not found or at - found[-1] >= gap_s:
                found.append(at)
    return found


def _raised_cosine(seconds: float) -> np.ndarray:
    count = max(2, int(seconds * SAMPLE_RATE))
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(count) / (count - 1))


def _normalized(sound: np.ndarray) -> np.ndarray:
    peak = float(np.max(np.abs(sound))) if len(sound) else 0.0
    return sound / peak if peak > 0 else sound
