"""Window tests under Xvfb: every screen drawn and checked for content, and games played by
sending mouse and key events to the window's handlers, the way a person plays."""

from __future__ import annotations

import json

import numpy as np
import pytest
import window_driver
from window_driver import button_named, click, click_on, press, share, wait_for_person

pytestmark = pytest.mark.gui


def frame(window, frames: int = 3):
    return window_driver.frame(window, frames)


def distinct_colours(pixels: np.ndarray) -> int:
    packed = pixels[..., :3].reshape(-1, 3).astype(np.uint32)
    return len(np.unique(packed[:, 0] << 16 | packed[:, 1] << 8 | packed[:, 2]))


def is_wood(r, g, b):
    return (r > 150) & (r > g + 20) & (g > b + 20)


def is_black_stone(r, g, b):
    return (r < 60) & (g < 60) & (b < 70)


def is_white_stone(r, g, b):
    return (r > 200) & (g > 200) & (b > 190)


def click_button(window, text: str):
    click_on(window, button_named(window.active_screen, text))


def point_pixel(window, x: int, y: int):
    return window.active_screen.view.grid.to_pixel(x, y)


def test_menu(gui):
    window, app = gui
    app.show_menu()
    pixels = frame(window)
    assert window.active_screen.title == "menu"
    assert distinct_colours(pixels) > 50                           # text, buttons, not a blank fill
    assert share(pixels, lambda r, g, b: (r > 200) & (g > 140) & (b < 110)) > 0.005   # the brass game buttons
    games = {b.text.text: b for b in window.active_screen.buttons}
    for title in ("Bandu", "Tanbo", "Bandida", "Bunko", "Buddel Bande"):
        assert games[title].enabled, f"{title} is not on the menu"


def test_a_game_not_built_yet_is_listed_as_coming(gui, coming_game):
    window, app = gui
    app.show_menu()
    window.pump(2)
    coming = button_named(window.active_screen, "Coming  (coming)")
    assert not coming.enabled


def test_new_game_screen_and_start(gui):
    window, app = gui
    app.show_menu()
    window.pump(1)
    click_button(window, "Tanbo")
    assert window.active_screen.title == "new game"
    pixels = frame(window)
    assert distinct_colours(pixels) > 50
    click_button(window, "11 x 11")
    click_button(window, "Start")
    screen = window.active_screen
    assert screen.title == "game"
    assert (screen.controller.state.width, screen.controller.state.height) == (11, 11)
    assert screen.controller.seats[1].is_computer
    pixels = frame(window)
    assert share(pixels, is_wood) > 0.25                           # a wooden board fills much of it
    assert share(pixels, is_black_stone) > 0.01 and share(pixels, is_white_stone) > 0.01


def test_the_new_game_screen_opens_with_what_was_chosen_last_time(gui, private_home):
    window, app = gui
    app.show_menu()
    window.pump(1)
    click_button(window, "Tanbo")
    screen = window.active_screen
    first = [row.selected for row in screen.seat_rows]
    click_button(window, "11 x 11")
    row = screen.seat_rows[1]
    easy = next(n for n, b in enumerate(row.options) if b.text.text == "Easy")
    click_on(window, row.options[easy])
    click_button(window, "Start")
    assert window.active_screen.title == "game"
    app.show_menu()
    window.pump(1)
    click_button(window, "Tanbo")
    again = window.active_screen
    assert again is not screen and again.title == "new game"
    assert again.seat_rows[1].selected == easy != first[1]             # the computer's strength
    size = next(r for setting, r in again.setting_rows if "11 x 11" in [b.text.text for b in r.options])
    assert size.options[size.selected].text.text == "11 x 11"           # and the board
    (private_home / "new-game.json").write_text("{not json")             # a broken file: defaults
    app.show_menu()
    click_button(window, "Tanbo")
    assert [row.selected for row in window.active_screen.seat_rows] == first
    # an option that no longer exists falls back for its own seat; the next seat keeps its place
    (private_home / "new-game.json").write_text(
        '{"tanbo": {"players": 2, "seats": ["Wizard", "Easy"], "settings": {}}}')
    app.show_menu()
    click_button(window, "Tanbo")
    assert [row.selected for row in window.active_screen.seat_rows] == [first[0], easy]


def _start(app, window, seats, settings=None, seed=1):
    app.start_game("tanbo", settings or {"width": 5, "height": 7}, seats, seed=seed)
    window.active_screen.controller.computer_delay = 0.0
    window.pump(2)
    return window.active_screen


def test_hover_shows_preview_and_clicks_play(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "mcts:easy")])
    state = screen.controller.state
    legal = state.legal_actions()[0]
    x, y = point_pixel(window, legal.x, legal.y)
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    frame(window, 1)
    assert screen.view.ghost.visible and screen.view.hint.startswith(state.action_to_str(legal))
    # an illegal point says why, in the hint and, on a click, in the toast
    taken = next((cx, cy) for cx in range(state.width) for cy in range(state.height) if state.colour_at(cx, cy))
    click(window, *point_pixel(window, *taken))
    assert "already taken" in screen.toast.message
    assert screen.controller.ply() == 0
    click(window, x, y)
    assert screen.controller.ply() == 1
    wait_for_person(window, screen)
    assert screen.controller.ply() == 2
    # the computer searched in the app's worker process, not on a thread beside the drawing
    from simulator.core.workers import SearchPool

    assert isinstance(screen.controller.executor, SearchPool)
    assert screen.controller.search_error is None


def test_removal_preview_rings_the_roots_that_would_go(gui):
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(PERSON)])
    controller = screen.controller
    # play random legal moves until a move that removes stones is available, then hover it
    import random

    rng = random.Random(3)
    for _ in range(200):
        state = controller.state
        removing = [a for a in state.legal_actions() if state.removals_if(a)]
        if removing:
            action = removing[0]
            window.dispatch_event("on_mouse_motion", *point_pixel(window, action.x, action.y), 0, 0)
            frame(window, 1)
            assert len(screen.view.marks) == len(state.removals_if(action))
            assert "removes" in screen.view.hint
            return
        controller.submit(rng.choice(state.legal_actions()))
        window.pump(1)
    pytest.fail("no removing move found")


def test_full_game_against_the_computer_with_undo_save_and_load(gui, private_home):
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "mcts:easy")], seed=7)
    controller = screen.controller

    def play_one_move():
        state = controller.state
        action = state.legal_actions()[len(state.legal_actions()) // 2]
        click(window, *point_pixel(window, action.x, action.y))
        wait_for_person(window, screen)

    play_one_move()
    play_one_move()
    assert controller.ply() == 4
    # undo with the button: my move and the computer's answer go
    click_button(window, "Undo")
    assert controller.ply() == 2 and "taken back" in screen.toast.message
    # save with Ctrl+S, then keep playing, then load the save from the saved-games screen
    press(window, key.S, key.MOD_CTRL)
    saves = list((private_home / "saves").glob("tanbo-*.json"))
    assert len(saves) == 1 and "saved" in screen.toast.message
    saved_position = json.loads(saves[0].read_text())["state"]
    play_one_move()
    press(window, key.O, key.MOD_CTRL)
    assert window.active_screen.title == "saved games"
    frame(window, 1)
    listing = window.active_screen
    assert len(listing.entries) == 1 and listing.summaries[0].path.parent.name == "autosaves"
    click(window, listing.olders[0].x + 5, listing.olders[0].y + 5)   # the game's older files
    index = next(n for n, s in enumerate(listing.summaries) if s.path.parent.name == "saves")
    assert "Tanbo 5x7 · against the computer" in listing.entries[index].text.text
    assert "today" in listing.summaries[index].detail
    entry = listing.entries[index]
    click(window, entry.x + 5, entry.y + 5)
    screen = window.active_screen
    assert screen.title == "game" and screen is not None
    controller = screen.controller
    controller.computer_delay = 0.0
    assert controller.state.to_dict() == saved_position
    # finish the game with the mouse
    for _ in range(200):
        if controller.is_over():
            break
        play_one_move()
    assert controller.is_over()
    pixels = frame(window, 2)
    assert screen.end.visible and "wins" in screen.end.title.text
    assert distinct_colours(pixels) > 50
    click_button(window, "New game")
    assert window.active_screen.title == "game" and window.active_screen.controller.ply() == 0


def test_saved_games_titles_are_whole_at_1280_and_a_finished_game_saves_from_its_results(gui, private_home):
    """Titles that differ only at their end ('... against the computer (medium)') were cut at
    1280 x 720 and looked alike; Ctrl+S with a game's results open did nothing."""
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController

    window, app = gui
    for seats in ([Seat(PERSON), Seat(PERSON), Seat(COMPUTER, "ai:medium")],
                  [Seat(PERSON), Seat(COMPUTER, "ai:easy"), Seat(COMPUTER, "ai:strong")]):
        controller = TurnController("bandu", {"reserve": 12}, seats, seed=1)
        controller.save(private_home / "saves" / f"bandu-{len(controller.seats)}-{seats[1].agent}.json")
        controller.close()
    window.set_size(1280, 720)
    window.dispatch_event("on_resize", 1280, 720)
    try:
        app.open_saved_games()
        frame(window, 2)
        listing = window.active_screen
        titles = [entry.text.text for entry in listing.entries]
        assert len(titles) == 2 and all("…" not in t for t in titles), titles
        assert {t.rsplit("(", 1)[1] for t in titles} == {"medium)", "easy, strong)"}
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)
    assert app.start_game("tanbo", {"width": 5, "height": 7}, [Seat(PERSON), Seat(PERSON)], seed=1)
    frame(window, 1)
    screen = window.active_screen
    controller = screen.controller
    while not controller.is_over():
        controller.submit(controller.state.legal_actions()[0])
    frame(window, 3)
    assert screen.end.visible
    press(window, key.S, key.MOD_CTRL)
    assert list((private_home / "saves").glob("tanbo-*.json")) and "saved" in screen.toast.message
    app.show_menu()


def test_help_overlay_lists_keys_and_rules(gui):
    from pyglet.window import key

    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(PERSON)])
    before = frame(window)
    press(window, key.F1)
    assert screen.help.visible
    after = frame(window)
    assert after[5, 5, :3].sum() < before[5, 5, :3].sum()    # the table is dimmed around the panel
    assert share(after, lambda r, g, b: (r > 235) & (g > 230) & (b > 215)) > 0.1   # the light panel
    body = screen.help.body.text
    for needle in ("Ctrl+Z", "Ctrl+S", "F1", "exactly one", "bounded"):
        assert needle in body
    # clicks on the board do nothing while help is open
    action = screen.controller.state.legal_actions()[0]
    click(window, *point_pixel(window, action.x, action.y))
    assert screen.controller.ply() == 0
    press(window, key.ESCAPE)
    assert not screen.help.visible


def test_broken_save_shows_an_error_and_keeps_the_game(gui, private_home):
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(PERSON)])
    screen.controller.submit(screen.controller.state.legal_actions()[0])
    (private_home / "saves").mkdir(parents=True, exist_ok=True)
    broken = private_home / "saves" / "zz-broken.json"
    broken.write_text("{ this is not json")
    app.open_saved_games()
    window.pump(1)
    entry = next(b for b in window.active_screen.entries if "not a readable save" in b.text.text)
    click(window, entry.x + 5, entry.y + 5)
    assert window.active_screen.title == "saved games"
    assert "zz-broken.json" in window.active_screen.toast.message
    click_button(window, "Back")
    assert window.active_screen is screen and screen.controller.ply() == 1


def test_every_screen_resizes(gui):
    window, app = gui
    for show in (app.show_menu, lambda: app.open_new_game("tanbo"), app.open_saved_games):
        show()
        for size in ((820, 580), (1600, 1000), (1280, 800)):
            window.set_size(*size)
            window.dispatch_event("on_resize", *size)
            pixels = frame(window, 2)
            assert pixels.shape[:2] == (size[1], size[0])
            assert distinct_colours(pixels) > 20


def test_screenshot_key_writes_a_png(gui, private_home):
    from pyglet.window import key

    window, app = gui
    app.show_menu()
    window.screenshot_dir = private_home / "shots"
    press(window, key.F12)
    pngs = list((private_home / "shots").glob("*.png"))
    assert len(pngs) == 1 and pngs[0].read_bytes()[:4] == b"\x89PNG"


def test_a_computer_player_that_fails_is_said_in_the_window_at_once(gui):
    """The controller contains a failing search (tests/test_controller.py); the window says so
    at the next frame, though no move was made."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "mcts:easy")])
    frame(window, 1)
    screen.controller.search_error = "the computer player of seat 2 failed (ZeroDivisionError: x); trying again"
    frame(window, 1)
    assert "seat 2 failed" in screen.toast.message and screen.controller.search_error is None


def test_a_view_lets_a_person_act_only_on_their_turn_with_the_table_shown(gui):
    """GameView.may_act, the one test every view asks before it takes a click or a key."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "mcts:easy")])
    view = screen.view
    assert view.may_act()
    view.enabled = False                          # the hand-over screen hides the table
    assert not view.may_act()
    view.enabled = True
    screen.controller.submit(screen.controller.state.legal_actions()[0])
    assert not view.may_act()                     # the computer's turn


def test_a_mesh_is_read_the_same_by_the_fast_reader_as_line_by_line():
    """read_obj parses the numbers a kind of line at a time: for every piece the same arrays as
    reading the file line by line, and a polygon with `//` normals becomes a fan of triangles."""
    from simulator.render.gpu_meshes import read_obj
    from simulator.towers.pieces.build import load_piece
    from simulator.towers.pieces.catalogue import BY_ID

    for piece in BY_ID:
        text = load_piece(piece).visual_path.read_text(encoding="utf-8")
        rows = [line.split() for line in text.splitlines()]
        positions = np.array([r[1:4] for r in rows if r and r[0] == "v"], np.float32)
        normals = np.array([r[1:4] for r in rows if r and r[0] == "vn"], np.float32)
        faces = [[int(w.split("/")[0]) - 1 for w in r[1:]] for r in rows if r and r[0] == "f"]
        fan = np.array([(f[0], f[k], f[k + 1]) for f in faces for k in range(1, len(f) - 1)], np.uint32)
        mesh = read_obj(text)
        assert np.array_equal(mesh.positions, positions) and np.array_equal(mesh.normals, normals)
        assert np.array_equal(mesh.indices, fan.reshape(-1)), piece
    square = read_obj("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n" + "vn 0 0 1\n" * 4 + "f 1//1 2//2 3//3 4//4\n")
    assert square.indices.tolist() == [0, 1, 2, 0, 2, 3]
