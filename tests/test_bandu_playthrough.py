"""A whole evening at Bandu, scripted through the window (Xvfb): a 3-seat game (two people and a
computer) played to its end at 800 x 560, saved with Ctrl+S, reopened from the saved-games path
and replayed move by move; then, at 1920 x 1080, a solo attempt to its fall, saved, reopened
and replayed. The people's moves are drawn at random among the legal ones and submitted as the
view submits a click; the computer plays itself, the referee judges every placement."""

from __future__ import annotations

import json
import random
import time

import pytest
from window_driver import press, small_window, wait_until_checked

pytestmark = pytest.mark.gui


def _play_to_the_end(window, screen, rng: random.Random, seconds: float = 240.0) -> None:
    from simulator.core.agents import RandomAgent

    controller = screen.controller
    controller.computer_delay = 0.0
    deadline = time.monotonic() + seconds
    while not controller.is_over():
        assert time.monotonic() < deadline, f"the game was not over after {seconds:.0f} s"
        if controller.is_person_turn():
            seat = controller.current_player()
            assert screen.view.submit(RandomAgent().choose(controller.visible_state(seat), rng))
        window.pump(1)
    window.pump(3)


def _save_reopen_and_replay(window, app, screen, private_home) -> None:
    from pyglet.window import key

    before = screen.controller.state.to_dict()
    moves = len(screen.controller.history)
    press(window, key.S, key.MOD_CTRL)
    saved = max((private_home / "saves").glob("bandu-*.json"), key=lambda p: p.stat().st_mtime_ns)
    assert json.loads(saved.read_text())["state"] == before
    assert app.load_game(saved), window.top.toast.message
    reopened = wait_until_checked(window)
    assert reopened.title == "game" and reopened.controller.state.to_dict() == before
    assert reopened.controller.load_notice is None            # checked by the referee, not refused
    assert app.replay_game(reopened.controller)
    window.pump(2)
    replay = window.top
    assert replay.title == "replay" and replay.replay.total == moves
    for ply in range(0, moves + 1, max(1, moves // 12)):
        replay.replay.show(ply)
        replay.view.sync()
        window.pump(1)
    replay.replay.show(moves)
    replay.view.sync()
    window.pump(2)
    assert replay.view.bandu.to_dict() == before                 # the replay ends where the game did
    press(window, key.ESCAPE)
    window.pump(2)


def test_a_three_seat_game_and_a_solo_attempt_played_saved_reopened_and_replayed(gui, private_home):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    rng = random.Random(8)
    with small_window(window):
        app.start_game("bandu", {"beans": 1}, [Seat(PERSON), Seat(PERSON), Seat(COMPUTER, "ai:easy")],
                       seed=8)
        screen = window.top
        _play_to_the_end(window, screen, rng)
        state = screen.controller.state
        assert state.placements >= 3 and len(state.winners()) == 1 and sum(state.alive) == 1
        assert screen.end.visible                                 # the end of the game is shown
        screen.close_modal(screen.end)
        _save_reopen_and_replay(window, app, screen, private_home)
    window.set_size(1920, 1080)
    window.dispatch_event("on_resize", 1920, 1080)
    try:
        app.start_game("bandu", {"variant": "solo"}, [Seat(PERSON)], seed=8)
        screen = window.top
        _play_to_the_end(window, screen, rng)
        assert screen.controller.state.placements >= 1
        screen.close_modal(screen.end)
        _save_reopen_and_replay(window, app, screen, private_home)
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)
        window.pump(1)
