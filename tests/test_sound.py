"""The table's sound: synthesized knocks, dice, cards and the bell (render/sound_synthesis.py),
Bandu's knocks made from the physics' contact impulses (games/bandu/sounds.py) and checked
off-line against the impacts of a recorded collapse, and the window's player (render/sound.py),
which plays them without holding a frame up and is silent where there is no audio device."""

from __future__ import annotations

import io
import random
import time
import wave

import numpy as np
import pytest

from simulator.render import sound_synthesis as synth

RATE = synth.SAMPLE_RATE


def _peak_hz(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.fft.rfftfreq(len(samples), 1 / RATE)[int(np.argmax(spectrum))])


def _decay_s(samples: np.ndarray) -> float:
    """When the sound's envelope (its RMS over 2 ms) falls below a tenth of its peak."""
    size = int(0.002 * RATE)
    frames = len(samples) // size
    envelope = np.sqrt((samples[:frames * size].reshape(frames, size) ** 2).mean(axis=1))
    envelope = np.repeat(envelope, size)
    peak = int(np.argmax(envelope))
    quiet = np.flatnonzero(envelope[peak:] < envelope[peak] * 0.1)
    return (peak + (quiet[0] if len(quiet) else len(envelope) - peak)) / RATE


def test_a_knock_rings_lower_for_a_bigger_piece_louder_for_a_harder_hit_longer_when_lacquered():
    small, large = synth.knock(0.02, 0.8), synth.knock(0.10, 0.8)
    assert _peak_hz(small) > 2 * _peak_hz(large)
    assert 1000 < _peak_hz(synth.knock(0.05, 0.8)) < 1600          # a 5 cm block near 1.3 kHz
    assert np.abs(synth.knock(0.05, 1.0)).max() > 2 * np.abs(synth.knock(0.05, 0.1)).max()
    assert _decay_s(synth.knock(0.05, 0.8, hard=True)) > _decay_s(synth.knock(0.05, 0.8))
    for sound in (small, large, synth.rattle(3, np.random.default_rng(0)),
                  synth.slide(np.random.default_rng(0)), synth.bell()):
        assert np.isfinite(sound).all() and np.abs(sound).max() <= 1.0


def test_dice_rattle_in_many_knocks_a_card_slides_and_the_bell_rings_on():
    rattle = synth.rattle(3, np.random.default_rng(1))
    assert len(synth.onsets(rattle, floor=0.02)) >= 5                # each die bounces
    slide = synth.slide(np.random.default_rng(1))
    assert len(synth.onsets(slide, floor=0.05)) <= 1                # one smooth swell
    bell = synth.bell()
    tail = bell[int(1.0 * RATE):int(1.1 * RATE)]
    assert np.abs(tail).max() > 0.05 * np.abs(bell).max()          # still ringing after a second


def test_a_sound_is_written_as_a_wav_file_and_mixed_on_a_time_line():
    knock = synth.knock(0.05, 1.0)
    track = synth.mix([(0.1, knock), (0.4, knock)])
    with wave.open(io.BytesIO(synth.wav_bytes(track))) as read:
        assert (read.getnchannels(), read.getsampwidth(), read.getframerate()) == (1, 2, RATE)
        samples = np.frombuffer(read.readframes(read.getnframes()), "<i2") / 32767
    found = synth.onsets(samples)
    assert len(found) == 2 and abs(found[0] - 0.1) < 0.005 and abs(found[1] - 0.4) < 0.005


@pytest.fixture(scope="module")
def collapse():
    """A tower of five pieces and a large cube released 45 mm off its axis: it falls. The
    live referee's frames, as the window receives them (each piece's contact impulse)."""
    from simulator.core.controller import PERSON, Seat, TurnController
    from simulator.core.outcomes import Timeline
    from simulator.games.bandu.referee import PhysicsReferee
    from simulator.games.bandu.rules import TAKE, Offer, Place

    controller = TurnController("bandu", {"variant": "solo"}, [Seat(PERSON)], seed=1)
    for piece in ("ashlar-large", "slab-square", "cylinder-wide", "ashlar-medium"):
        controller.submit(Offer(piece, TAKE))
        controller.submit(Place(piece))
        controller.play_computer_moves()
    controller.submit(Offer("cube-large", TAKE))
    controller.submit(Place("cube-large", 45.0, 0.0))
    state = controller.state.clone()
    controller.close()
    timeline, referee = Timeline(), PhysicsReferee()
    outcome = referee.resolve(state, random.Random(0), timeline)
    referee.close()
    assert outcome.fallen == (0,)
    times = [timeline.at(0.0)[0]]          # the frames in order, with their times
    frames, seconds = [], []
    t = 0.0
    while True:
        found = timeline.at(t)
        assert found is not None
        if not frames or found[0] is not frames[-1]:
            frames.append(found[0])
            seconds.append(t)
        if t > timeline.end:
            break
        t += 1 / 240
    del times
    return seconds, frames


def test_a_recorded_collapse_knocks_where_the_physics_struck(collapse, tmp_path):
    """The collapse's sound rendered off-line to a WAV: a knock begins at every impact the
    frames carry (the cube striking the table, then bouncing) and nowhere else."""
    from simulator.games.bandu import sounds

    seconds, frames = collapse
    samples, knock_times = sounds.track(seconds, frames)
    impacts = sorted({at for at, frame in zip(seconds, frames, strict=True)
                      if any(len(pose) > 7 and sounds.gain_of(pose[7]) > 0 for pose in frame.values())})
    assert len(impacts) >= 2, "the collapse struck nothing"
    assert knock_times and min(knock_times) >= impacts[0] - 1e-9
    path = tmp_path / "collapse.wav"
    path.write_bytes(synth.wav_bytes(samples))
    with wave.open(str(path)) as read:
        heard = np.frombuffer(read.readframes(read.getnframes()), "<i2") / 32767
    found = synth.onsets(heard, floor=0.01, gap_s=0.012)
    assert found, "the WAV is silent"
    for onset in found:                      # every sound begins at an impact
        assert min(abs(onset - at) for at in impacts) < 0.006, (onset, impacts)
    # every impact is heard, but one struck while the last still rings loud (under 30 ms on)
    separate = [at for n, at in enumerate(impacts) if n == 0 or at - impacts[n - 1] >= 0.03]
    for at in separate:
        assert min(abs(onset - at) for onset in found) < 0.006, (at, found)


def test_a_resting_tower_makes_no_sound(collapse):
    """Frames where every piece rests carry no impulse (the support of a piece at rest is no
    knock): the first frames, before the cube falls."""
    from simulator.games.bandu import sounds

    _, frames = collapse
    assert sounds.knocks(frames[1]) == []
    assert sounds.gain_of(0.0) == 0.0 and sounds.gain_of(1.0) == 1.0
    assert 0 < sounds.gain_of(0.03) < 1


@pytest.mark.gui
def test_the_window_plays_without_waiting_and_mutes(gui):
    from simulator.render.sound import MAX_VOICES

    window, app = gui
    app.finish_warm_up()                     # the audio driver loads with the work ahead
    sound = window.sound
    sound.muted, sound.volume = False, 0.8
    started = time.perf_counter()
    assert sound.play("test-knock", lambda: synth.knock(0.05, 0.8), 0.5)
    first = time.perf_counter() - started
    started = time.perf_counter()
    assert sound.play("test-knock", lambda: synth.knock(0.05, 0.8), 0.5)
    again = time.perf_counter() - started
    assert first < 0.05 and again < 0.005, (first, again)          # never a frame's wait
    assert sound.heard[-1][1:] == ("test-knock", pytest.approx(0.4))
    assert "Sound off" in sound.toggle_mute() and not sound.play("test-knock", lambda: synth.knock(0.05, 0.8))
    assert "Volume" in sound.change_volume(-1) and not sound.muted and sound.percent() == 70
    for _ in range(MAX_VOICES + 5):          # a clatter: the voices beyond the limit are dropped
        sound.play("test-knock", lambda: synth.knock(0.05, 0.8), 0.5)
    assert sound.voices() == MAX_VOICES
    time.sleep(0.3)                          # a knock lasts a quarter of a second: voices free
    assert sound.voices() == 0 and sound.play("test-knock", lambda: synth.knock(0.05, 0.8), 0.5)


def _pump_until_heard(window, prefix: str, seconds: float = 90.0) -> list[str]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        window.pump(1)
        heard = [name for _, name, _ in window.sound.heard if name.startswith(prefix)]
        if heard:
            return heard
    raise AssertionError(f"no {prefix!r} heard: {[n for _, n, _ in window.sound.heard]}")


@pytest.mark.gui
def test_a_bandu_piece_knocks_as_it_lands_and_a_fall_clatters(gui):
    from test_bandu_aiming import _hold, _pointer_at, _release, _solo

    window, _ = gui
    window.sound.muted, window.sound.volume = False, 0.8
    window.sound.heard.clear()
    window, _screen, view, controller = _solo(gui)
    _hold(window, view, "cube-large")
    _release(window, view, controller, _pointer_at(window, view, 0.0, 0.0))
    placed = _pump_until_heard(window, "knock-cube-large")
    assert placed, "the cube set down on the base made no sound"
    window.sound.heard.clear()
    _hold(window, view, "ball")
    _release(window, view, controller, _pointer_at(window, view, 0.0, 0.04))   # off the cube
    _pump_until_heard(window, "knock-")
    window.pump(60)
    assert controller.state.alive == [False]                     # it fell: heard, then seen


@pytest.mark.gui
@pytest.mark.parametrize(("game", "settings", "prefix"), [
    ("bunko", {"pace": "fast"}, "dice-3-"),
    ("buddel_bande", {}, "dice-2-"),
    ("bandida", {}, "card-"),
])
def test_dice_rattle_and_cards_slide_in_the_flat_games(gui, game, settings, prefix):
    from simulator.core import registry
    from simulator.core.controller import COMPUTER, Seat

    window, app = gui
    window.sound.muted, window.sound.volume = False, 0.8
    window.sound.heard.clear()
    info = registry.get_game(game).info
    seats = [Seat(COMPUTER, "random")] * info.default_players
    app.start_game(game, settings, seats, seed=3)
    window.top.controller.computer_delay = 0.0
    _pump_until_heard(window, prefix)
    app.show_menu()


@pytest.mark.gui
def test_the_bunko_bell_rings_when_the_head_table_reaches_21(gui):
    from simulator.core.controller import COMPUTER, Seat

    window, app = gui
    window.sound.muted, window.sound.volume = False, 0.8
    window.sound.heard.clear()
    app.start_game("bunko", {"pace": "instant"}, [Seat(COMPUTER, "random")] * 4, seed=3)
    window.top.controller.computer_delay = 0.0
    _pump_until_heard(window, "bell", seconds=120)
    app.show_menu()
