"""The replay viewer: a finished or saved game shown move by move with the game's own view,
reached from the saved-games list and from the end of a game. It steps, plays, jumps and scrubs;
it shows exactly the position after the move it names; and it never writes the save or the
autosave, asks a computer player or resolves an outcome again."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import stack_game  # noqa: F401  (registers the test game Stack: outcomes, a 3D view)
from window_driver import button_named, click, click_on, press

from simulator.core import registry
from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController

pytestmark = pytest.mark.gui


def finished_save(folder, game="tanbo", settings=None, seed=4):
    """A game played to its end by two random computer players, saved in `folder`."""
    controller = TurnController(game, settings if settings is not None else {"width": 7, "height": 7},
                                [Seat(COMPUTER, "random"), Seat(COMPUTER, "random")], seed=seed)
    controller.play_computer_moves()
    assert controller.is_over()
    path = controller.save(folder / f"{game}-finished.json")
    controller.close()
    return path


def position_after(save: dict, moves: int) -> dict:
    """The position after the first `moves` moves of a save, replayed by the rules alone."""
    game = registry.get_game(save["game"])
    state = game.new_game(len(save["seats"]), save["settings"])
    for entry in save["history"][:moves]:
        state.apply(state.action_from_str(entry["action"]))
    return state.to_dict()


def shown(screen) -> dict:
    """The state the replay's view draws."""
    return screen.view.state.to_dict()


def open_from_saved_games(window, app, path):
    app.show_menu()
    app.open_saved_games()
    saved = window.top
    window.pump(2)
    row = next(n for n, summary in enumerate(saved.summaries) if summary.path == path)
    click_on(window, saved.replays[row])
    window.pump(2)
    assert window.top.title == "replay"
    return saved, window.top


def test_a_finished_save_steps_scrubs_plays_and_stays_untouched(gui, private_home, tmp_path):
    from pyglet.window import key, mouse

    from simulator.app.replay import STEP_SECONDS
    from simulator.render.screenshot import read_pixels

    window, app = gui
    path = finished_save(private_home / "saves")
    before = path.read_bytes()
    save = json.loads(before)
    total = len(save["history"])
    saved, screen = open_from_saved_games(window, app, path)
    replay = screen.replay
    assert (replay.shown, replay.total) == (0, total)
    assert screen.counter.text == f"Move 0 of {total}" and shown(screen) == position_after(save, 0)

    press(window, key.RIGHT)
    press(window, key.RIGHT)
    assert replay.shown == 2 and shown(screen) == position_after(save, 2)
    assert screen.counter.text == f"Move 2 of {total}"
    second = save["history"][1]["action"]
    assert screen.move_text.text == f"White: {second}"            # the history's own notation
    press(window, key.LEFT)
    assert replay.shown == 1 and shown(screen) == position_after(save, 1)
    click_on(window, screen.next_button)
    assert replay.shown == 2
    press(window, key.END)
    assert replay.shown == total and shown(screen) == save["state"]
    assert "won." in screen.move_text.text and replay.is_over()
    press(window, key.RIGHT)                                         # nothing after the end
    assert replay.shown == total
    screen.toast.show("a message from before", error=True)
    assert screen.toast.box.opacity == 255                # opaque: no text shows through it
    press(window, key.F1)                     # the help opens: the message goes, not glare over it
    assert screen.help.visible and screen.toast.message == "" and screen.toast.box.opacity == 0
    press(window, key.F1)
    press(window, key.HOME)
    assert replay.shown == 0 and not screen.previous_button.enabled

    # the scrub bar: a click goes to the move under it, a drag follows the mouse
    left, middle, width = screen.bar
    click(window, left + width * 0.4, middle)
    target = round(0.4 * total)
    assert replay.shown == target and shown(screen) == position_after(save, target)
    window.dispatch_event("on_mouse_press", left + width * 0.25, middle + 6, mouse.LEFT, 0)
    window.dispatch_event("on_mouse_drag", left + width * 0.75, middle + 40, width * 0.5, 34, mouse.LEFT, 0)
    window.pump(1)
    dragged = round(0.75 * total)
    assert replay.shown == dragged and shown(screen) == position_after(save, dragged)
    window.dispatch_event("on_mouse_release", left + width * 0.75, middle + 40, mouse.LEFT, 0)
    window.dispatch_event("on_mouse_drag", left, middle, -width * 0.75, 0, mouse.LEFT, 0)
    window.pump(1)
    assert replay.shown == dragged                                   # released: no longer scrubbing

    # play: a move every STEP_SECONDS, a pause where Space says, the end stops it
    press(window, key.SPACE)
    assert screen.playing and screen.play_button.text.text == "Pause"
    window.pump(3, dt=STEP_SECONDS / 2 + 0.01)
    assert replay.shown == dragged + 1 and shown(screen) == position_after(save, dragged + 1)
    press(window, key.SPACE)
    assert not screen.playing
    window.pump(3, dt=STEP_SECONDS)
    assert replay.shown == dragged + 1
    press(window, key.SPACE)
    window.pump(total, dt=STEP_SECONDS)
    assert replay.shown == total and not screen.playing

    # what it shows: the board with its stones, the panel, the bar
    press(window, key.HOME)
    for _ in range(total // 2):
        press(window, key.RIGHT)
    window.pump(2)
    shot = window.take_screenshot(tmp_path / "replay.png")
    assert shot.exists() and shot.stat().st_size > 10_000
    pixels = read_pixels()
    assert len(np.unique(pixels[..., :3].reshape(-1, 3), axis=0)) > 200   # not blank
    board = pixels[pixels.shape[0] // 3: 2 * pixels.shape[0] // 3, 100:500, :3].astype(int)
    wood = (board[..., 0] > board[..., 2] + 40) & (board[..., 0] > 120)
    assert wood.mean() > 0.2                                          # the wooden board is there

    press(window, key.ESCAPE)
    assert window.top is saved
    assert path.read_bytes() == before                                # byte for byte
    assert not list((private_home / "autosaves").glob("*.json"))       # and no autosave written


def test_replay_from_the_end_of_a_game_leaves_the_game_and_its_autosave(gui, private_home):
    from pyglet.window import key

    window, app = gui
    app.start_game("tanbo", {"width": 7, "height": 7}, [Seat(PERSON), Seat(PERSON)], seed=2)
    game_screen = window.top
    controller = game_screen.controller
    rng = random.Random(2)
    while not controller.is_over():
        controller.submit(controller.state.random_action(rng))
    window.pump(2)
    assert game_screen.end.visible
    autosave = controller.autosave_path.read_bytes()
    version, moves = controller.version, controller.ply()
    click_on(window, button_named(game_screen, "Replay"))
    screen = window.top
    assert screen.title == "replay" and screen.replay.total == moves and screen.replay.shown == 0
    press(window, key.END)
    assert shown(screen) == controller.state.to_dict()
    press(window, key.LEFT)
    assert screen.replay.shown == moves - 1 and controller.ply() == moves   # the game is untouched
    press(window, key.F1)
    assert screen.help.visible and "Left, Right" in screen.help.body.text
    press(window, key.ESCAPE)                                           # closes the help
    assert not screen.help.visible and window.top is screen
    press(window, key.ESCAPE)                                           # back to the game's end
    assert window.top is game_screen and game_screen.end.visible
    assert controller.version == version and controller.ply() == moves
    assert controller.autosave_path.read_bytes() == autosave


def test_outcomes_are_replayed_never_resolved_and_nothing_moves(gui, private_home, monkeypatch):
    """Stack (outcome nodes, a 3D view): a replay applies the recorded results; a resolver or a
    computer player asked for anything fails the test."""
    from pyglet.window import key

    from simulator.core.agents import RandomAgent
    from simulator.core.errors import IllegalAction
    from simulator.core.outcomes import ModelResolver

    window, app = gui
    path = finished_save(private_home / "saves", game="stack", settings={}, seed=7)
    save = json.loads(path.read_bytes())
    assert any(entry["player"] < 0 for entry in save["history"])        # it has outcomes

    def refuse(*args, **kwargs):
        raise AssertionError("a replay asked for a result or a move")

    monkeypatch.setattr(ModelResolver, "begin", refuse)
    monkeypatch.setattr(RandomAgent, "choose", refuse)
    _, screen = open_from_saved_games(window, app, path)
    for moves in range(screen.replay.total + 1):
        assert shown(screen) == position_after(save, moves)
        press(window, key.RIGHT)
    window.pump(3)
    with pytest.raises(IllegalAction, match="replay"):
        screen.replay.submit(screen.replay.state.legal_actions()[0] if not screen.replay.is_over()
                             else None)
    assert not screen.replay.poll() and not screen.replay.undo()
    press(window, key.ESCAPE)
