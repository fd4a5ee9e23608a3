"""The window's contracts and what a new user hit in it: navigation stack, handler stack, views
with their own draw pass (2D and 3D), hand-over between people, any number of seats, keyboard
menus, and the fixes of the window's known faults. Driven by events sent to the window."""

from __future__ import annotations

import json
import subprocess
import sys
import weakref

import crowd_game  # noqa: F401  (registers the test games)
import numpy as np
import peek_game  # noqa: F401
import pytest
import stack_game  # noqa: F401
from window_driver import button_named, click, click_on, move_to, press

pytestmark = pytest.mark.gui


def on_handler_stack(window) -> set:
    """The objects whose handlers are on pyglet's handler stack now."""
    return {handler().__self__ for frame in window._event_stack for handler in frame.values()
            if isinstance(handler, weakref.WeakMethod) and handler() is not None}


def pump(window, frames=2):
    window.pump(frames)


def start(app, window, game, seats, settings=None, seed=1):
    app.start_game(game, settings or {}, seats, seed=seed)
    window.top.controller.computer_delay = 0.0
    pump(window)
    return window.top


def people(n):
    from simulator.core.controller import PERSON, Seat

    return [Seat(PERSON) for _ in range(n)]


# --- navigation and handler stacks ------------------------------------------------------------------

def test_screens_stack_and_only_the_top_one_hears_input(gui):
    from pyglet.window import key

    window, app = gui
    app.show_menu()
    menu = window.top
    press(window, key.O, key.MOD_CTRL)                     # Ctrl+O on the menu: saved games
    assert window.top.title == "saved games" and window.screens[0] is menu
    assert menu not in on_handler_stack(window) and window.top in on_handler_stack(window)
    press(window, key.ESCAPE)                              # Back
    assert window.top is menu and len(window.screens) == 1
    press(window, key.F1)                                  # F1 on the menu: help
    assert menu.help.visible
    press(window, key.F1)
    assert not menu.help.visible


def test_menus_work_from_the_keyboard(gui):
    from pyglet.window import key

    window, app = gui
    app.show_menu()
    pump(window)
    press(window, key.TAB)
    focused = window.top.focus.focused
    assert focused is not None and focused.text.text == "Bandu"    # the first game on the menu
    press(window, key.ENTER)
    assert window.top.title == "new game"
    press(window, key.DOWN)
    assert window.top.focus.focused is not None
    press(window, key.ESCAPE)
    assert window.top.title == "menu" and window.top.focus.focused.text.text == "Bandu"  # kept
    press(window, key.ENTER)
    window.top.focus.move_to(None)
    press(window, key.ENTER)                               # Enter with nothing focused: Start
    assert window.top.title == "game"


# --- the new-game screen -------------------------------------------------------------------------

def test_a_setting_that_pins_another_shows_it_and_starts_it(gui):
    window, app = gui
    app.show_menu()
    app.open_new_game("tanbo")
    screen = window.top
    pump(window)
    click_on(window, button_named(screen, "7 x 7"))
    click_on(window, button_named(screen, "Classic 1993 (19 x 19)"))
    board_row = screen.setting_rows[0][1]
    selected = [b.text.text for b in board_row.options if b.selected]
    assert selected == ["19 x 19"]
    assert [b.text.text for b in board_row.options if b.enabled] == ["19 x 19"]
    click_on(window, button_named(screen, "Start"))
    state = window.top.controller.state
    assert (state.width, state.height, state.start) == (19, 19, "classic")


def test_any_number_of_seats_from_one_to_twenty(gui):
    window, app = gui
    app.show_menu()
    app.open_new_game("crowd")
    screen = window.top
    pump(window)
    assert [b.text.text for b in screen.count_row.options][:3] == ["1", "2", "3"]
    click_on(window, button_named(screen, "20"))
    assert len(screen.seat_buttons) == 20
    visible = [b for b in screen.seat_buttons if b.visible]
    assert len(visible) == 20 and all(b.y >= 0 and b.y + b.height <= window.height for b in visible)
    assert all(b.y > screen.start.y + screen.start.height for b in visible)    # none under Start
    seat = screen.seat_buttons[7]
    assert seat.text.text == "Player 8: Computer"
    assert all(b.text.content_width <= b.width for b in screen.seat_buttons)   # no text runs over
    click_on(window, seat)
    assert seat.text.text == "Player 8: Person"
    from pyglet.window import mouse
    click_on(window, seat, mouse.RIGHT)
    assert seat.text.text == "Player 8: Computer"
    click_on(window, button_named(screen, "Start"))
    game = window.top
    assert game.title == "game" and len(game.controller.seats) == 20
    pump(window, 3)
    names = [n for n in game.seat_names if n.text]
    assert len(names) == 20
    assert all(n.y > game.text_floor for n in names)


# --- the game screen ---------------------------------------------------------------------------

def test_side_panel_text_stays_above_its_buttons_in_a_small_window(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    window.set_size(800, 560)
    window.dispatch_event("on_resize", 800, 560)
    try:
        screen = start(app, window, "tanbo", [Seat(PERSON), Seat(COMPUTER, "random")],
                       {"width": 5, "height": 7})
        screen.view.hint = "a very long hint " * 30
        pump(window)
        for text in (screen.status, screen.hint):
            assert text.y - text.content_height >= screen.text_floor - 1
        assert screen.text_floor >= screen.undo_button.y + screen.undo_button.height
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)


def test_the_layout_follows_the_window_when_a_resize_event_comes_wrong(gui):
    """F11 on and off without a window manager: the full screen's size came last, and the side
    panel stayed laid out for 1920 px, off the window. Every tick checks the real size."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = start(app, window, "tanbo", [Seat(PERSON), Seat(COMPUTER, "random")],
                   {"width": 5, "height": 7})
    pump(window)
    right_edge = screen.panel.x + screen.panel.width
    window.dispatch_event("on_resize", 1920, 1080)     # stale: the window is still 1280 x 800
    window.dispatch_events()                            # (pyglet queues an event sent by hand)
    assert screen.panel.x + screen.panel.width > window.width
    pump(window, 1)
    assert screen.panel.x + screen.panel.width == right_edge <= window.width


def test_messages_wrap_and_stay_off_the_board_and_buttons(gui):
    window, app = gui
    screen = start(app, window, "tanbo", people(2), {"width": 7, "height": 7})
    screen.toast.show("x" * 10 + " a long message about a file that could not be read " * 8, error=True)
    pump(window)
    box = screen.toast.box
    assert box.x >= screen.panel.x and box.x + box.width <= screen.panel.x + screen.panel.width
    assert box.y >= screen.undo_button.y + screen.undo_button.height
    text = screen.toast.text
    assert text.content_height > 2 * text.font_size and text.content_width <= text.width + 1


def test_row_numbers_and_letters_stay_clear_of_the_stones_on_19x19(gui):
    from simulator.games.tanbo.view import STONE_SCALE

    window, app = gui
    screen = start(app, window, "tanbo", people(2), {"width": 19, "height": 19, "start": "classic"})
    grid = screen.view.grid
    x0, y0 = grid.to_pixel(0, 0)
    radius = grid.spacing * STONE_SCALE / 2
    for coordinate in screen.view.coords:
        if coordinate.anchor_x == "right":                 # row numbers left of column a
            assert coordinate.x <= x0 - radius
            assert coordinate.x - coordinate.content_width >= grid.board_rect()[0] - 1
        else:                                              # column letters under row 1
            assert coordinate.y <= y0 - radius


def test_no_ghost_stone_after_undo(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = start(app, window, "tanbo", [Seat(PERSON), Seat(COMPUTER, "random")], {"width": 5, "height": 7})
    action = screen.controller.state.legal_actions()[0]
    click(window, *screen.view.grid.to_pixel(action.x, action.y))
    for _ in range(100):
        if screen.controller.is_person_turn():
            break
        screen.controller.wait_for_computer()
        pump(window, 1)
    assert screen.controller.ply() == 2
    click_on(window, screen.undo_button)
    pump(window)
    assert screen.controller.ply() == 0 and not screen.view.ghost.visible


def test_leaving_a_game_asks_and_a_new_game_keeps_the_other_autosave(gui, private_home):
    from pyglet.window import key

    window, app = gui
    first = start(app, window, "tanbo", people(2), {"width": 5, "height": 7})
    first.controller.submit(first.controller.state.legal_actions()[0])
    press(window, key.ESCAPE)
    assert first.leave_question.visible
    click_on(window, button_named(first, "Stay"))
    assert window.top is first and not first.leave_question.visible
    first_autosave = first.controller.autosave_path
    second = start(app, window, "tanbo", people(2), {"width": 7, "height": 7})
    second.controller.submit(second.controller.state.legal_actions()[0])
    assert first_autosave.exists() and second.controller.autosave_path != first_autosave
    assert json.loads(first_autosave.read_text())["history"]
    press(window, key.ESCAPE)
    click_on(window, button_named(second, "Leave"))
    assert window.top.title == "menu"
    app.continue_last()
    assert window.top.title == "game" and window.top.controller.state.width == 7


def test_saved_games_scroll_say_who_and_when_and_delete(gui, private_home):
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController

    window, app = gui
    saves = private_home / "saves"
    for n in range(14):
        c = TurnController("tanbo", {"width": 5, "height": 7}, [Seat(PERSON), Seat(COMPUTER, "mcts:strong")],
                           seed=n)
        c.save(saves / f"tanbo-{n:02d}.json")
    autosaved = TurnController("tanbo", {"width": 5, "height": 7}, [Seat(PERSON), Seat(PERSON)], seed=99)
    for _ in range(12):
        autosaved.submit(autosaved.state.legal_actions()[0])
    (private_home / "autosaves").mkdir(parents=True, exist_ok=True)
    autosaved.save(private_home / "autosaves" / "tanbo-2026-12-01-000000.json")   # '... · autosave'
    (saves / ".save-crashed.json").write_text("{")          # a temporary file left by a crash
    (saves / "dangling.json").symlink_to(saves / "nowhere.json")
    (saves / "folder.json").mkdir()
    app.show_menu()
    app.open_saved_games()
    screen = window.top
    pump(window)
    assert len(screen.entries) == 15
    assert any("autosave" in summary.detail for summary in screen.summaries)
    assert any("against the computer (strong)" in e.text.text for e in screen.entries)
    assert "today" in screen.summaries[0].detail
    for detail, summary in zip(screen.details, screen.summaries, strict=True):
        assert detail.text == summary.detail                   # whole at this width ('autos…')
    shown = [e for e in screen.entries if e.visible]
    assert 0 < len(shown) < 14 and screen.position_note.text
    press(window, key.PAGEDOWN)
    assert screen.first > 0 and screen.entries[-1].visible
    victim = screen.summaries[-1].path
    click_on(window, screen.deletes[-1])
    assert screen.confirm.visible and victim.exists()
    click_on(window, button_named(screen, "Delete"))
    assert not victim.exists() and len(screen.entries) == 14


def test_a_long_list_of_records_scrolls_and_the_focus_stays_in_view(gui, private_home):
    """The records screen scrolls as the saved games do: Page Down, the wheel, and Down on a
    Replay button past the last row shown (the list follows the focus)."""
    from pyglet.window import key
    from test_records import attempt

    from simulator.games.bandu.records import RecordStore

    window, app = gui
    with RecordStore.open() as store:
        for n in range(30):
            store.add(attempt(score=n, when=f"2026-01-{n + 1:02d}T10:00:00+00:00"))
    app.show_menu()
    click_on(window, button_named(window.top, "Records"))     # the menu button Bandu adds
    screen = window.top
    pump(window)
    shown = [n for n, row in enumerate(screen.rows) if row.visible]
    assert len(screen.rows) == 30 and 0 < len(shown) < 30
    assert screen.position_note.text.startswith(f"1-{len(shown)} of 30")
    press(window, key.PAGEDOWN)
    assert screen.first == len(shown) and screen.rows[len(shown)].visible and not screen.rows[0].visible
    window.dispatch_event("on_mouse_scroll", 400, 300, 0, 40)    # the wheel back up to the top
    pump(window)
    assert screen.first == 0
    screen.focus.move_to(screen.replays[len(shown) - 1])          # the last Replay shown ...
    press(window, key.DOWN)                                       # ... and one further down
    assert screen.focus.focused is screen.replays[len(shown)] and screen.replays[len(shown)].visible
    assert screen.first == 1


def test_an_unreadable_save_says_so_in_words(gui, private_home):
    window, app = gui
    app.show_menu()
    (private_home / "saves").mkdir(parents=True, exist_ok=True)
    binary = private_home / "saves" / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert not app.load_game(binary)
    message = window.top.toast.message
    assert message.startswith("binary.json: not a save file") and "codec" not in message
    assert str(private_home) not in message


# --- views: hidden information and 3D --------------------------------------------------------------

def test_hand_over_hides_the_table_until_the_next_person_is_there(gui):
    window, app = gui
    screen = start(app, window, "peek", people(2))
    view = screen.view
    # whoever is at the machine when the game opens says who they are before anything shows
    assert screen.handover.visible and not view.enabled
    assert all("holds" not in d.text for d in screen.seat_details)
    click_on(window, button_named(screen, "I am North"))
    assert screen.viewer == 0 and not screen.handover.visible
    own = screen.controller.state.cards["hand0"]
    assert view.cards["hand0"][1].text == str(own) and view.cards["hand1"][1].text == ""
    box = view.action_boxes["stay"]
    click(window, box.x + 5, box.y + 5)
    pump(window)
    assert screen.handover.visible and not view.enabled
    click(window, box.x + 5, box.y + 5)                     # the table does not answer meanwhile
    assert screen.controller.ply() == 7
    click_on(window, button_named(screen, "I am South"))
    assert screen.viewer == 1 and not screen.handover.visible
    other = screen.controller.state.cards["hand1"]
    assert view.cards["hand1"][1].text == str(other) and view.cards["hand0"][1].text == ""


def test_a_loaded_game_with_secrets_asks_who_is_there_first(gui, private_home):
    window, app = gui
    screen = start(app, window, "peek", people(2))
    click_on(window, button_named(screen, "I am North"))
    path = private_home / "peek.json"
    screen.controller.save(path)
    assert app.load_game(path)
    loaded = window.top
    pump(window)
    assert loaded is not screen and loaded.handover.visible and not loaded.view.enabled
    assert all("holds" not in d.text for d in loaded.seat_details)   # North's card not shown
    click_on(window, button_named(loaded, "I am North"))
    assert loaded.viewer == 0 and "holds" in loaded.seat_details[0].text


def test_a_finished_game_with_secrets_loads_with_its_board_shown(gui, private_home):
    from simulator.core.controller import PERSON, Seat, TurnController

    window, app = gui
    controller = TurnController("peek", {}, [Seat(PERSON), Seat(PERSON)], seed=3)
    controller.play_computer_moves()                        # the deal
    while not controller.is_over():
        controller.submit(controller.state.legal_actions()[0])
        controller.play_computer_moves()
    path = private_home / "peek-over.json"
    controller.save(path)
    controller.close()
    assert app.load_game(path)
    loaded = window.top
    pump(window)
    assert loaded.controller.is_over() and not loaded.table_hidden()  # it stayed hidden for good
    assert not loaded.handover.visible


def test_the_replay_of_an_unfinished_game_with_secrets_asks_who_is_there_first(gui):
    window, app = gui
    screen = start(app, window, "peek", people(2))
    click_on(window, button_named(screen, "I am North"))
    assert app.replay_game(screen.controller)
    replay = window.top
    pump(window)
    assert replay.title == "replay" and replay.handover.visible
    replay.seek(replay.replay.total)                       # where North holds a card
    assert all("holds" not in d.text for d in replay.seat_details)
    click_on(window, button_named(replay, "I am North"))
    from pyglet.window import key
    press(window, key.END)
    assert not replay.handover.visible and "holds" in replay.seat_details[0].text


def test_a_3d_view_draws_its_own_pass_and_gives_the_window_back(gui):
    from pyglet.window import key, mouse

    from simulator.render.screenshot import read_pixels

    window, app = gui
    screen = start(app, window, "stack", people(2))
    projection = window.projection
    window.pump(2)
    pixels = read_pixels()
    assert window.projection == projection                 # the 2D projection is back
    green = (pixels[..., 1].astype(int) > pixels[..., 0].astype(int) + 25) & (pixels[..., 1] > 90)
    assert green.mean() > 0.05                               # the table, lit, in perspective
    panel = pixels[:, -200:, :3].reshape(-1, 3)
    assert len(np.unique(panel, axis=0)) > 20              # the panel and its text drawn over it
    camera = screen.view.camera
    yaw, distance = camera.yaw, camera.distance
    window.dispatch_event("on_mouse_drag", 300, 300, 40, 0, mouse.RIGHT, 0)
    window.dispatch_event("on_mouse_scroll", 300, 300, 0, 2)
    pump(window, 1)
    assert camera.yaw != yaw and camera.distance < distance
    press(window, key._2)
    assert screen.controller.history[-1].action == "stack 2"
    assert screen.controller.outcome_in_progress() is not None or screen.controller.ply() == 2
    for _ in range(100):
        pump(window, 1)
        if screen.controller.ply() == 2:
            break
    assert screen.controller.history[-1].action in ("stood", "fell")


# --- the command line -----------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["-5", "1", "abc", "100000"])
def test_bad_window_sizes_get_one_line(size):
    result = subprocess.run([sys.executable, "-m", "simulator", "play", "--size", size],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--size" in lines[0] and "Traceback" not in result.stderr


# --- hardening in the window ------------------------------------------------------------------------

def test_an_unwritable_data_folder_is_said_once_and_the_game_plays_on(gui, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("BANDU_SIM_HOME", str(blocker / "home"))
    window, app = gui
    screen = start(app, window, "tanbo", people(2), {"width": 5, "height": 7})
    screen.controller.submit(screen.controller.state.legal_actions()[0])
    pump(window)
    assert "the game is not being saved: cannot write" in screen.toast.message
    screen.toast.remaining = 0
    screen.controller.submit(screen.controller.state.legal_actions()[0])
    pump(window)
    assert screen.controller.ply() == 2 and screen.toast.message == ""    # said once, plays on


def test_no_fault_in_a_load_escapes_the_window(gui, monkeypatch, tmp_path):
    from simulator.core import controller as controller_module

    window, app = gui
    app.show_menu()
    def broken(*args, **kwargs):
        raise RuntimeError("a fault of ours")
    monkeypatch.setattr(controller_module.TurnController, "load", classmethod(lambda cls, *a, **k: broken()))
    path = tmp_path / "some.json"
    path.write_text("{}")
    assert app.load_game(path) is False
    assert window.top.title == "menu" and "some.json: could not be opened" in window.top.toast.message


# --- what the play-test found ---------------------------------------------------------------------

def _small(window):
    window.set_size(800, 560)
    window.dispatch_event("on_resize", 800, 560)
    window.pump(1)


def _large(window):
    window.set_size(1280, 800)
    window.dispatch_event("on_resize", 1280, 800)
    window.pump(1)


def test_the_new_game_rows_scroll_in_a_small_window(gui):
    """At 800 x 560 Bandu's rows do not all fit above Start: none is drawn under the buttons, a
    note says there is more, and the wheel, Page Down and Tab bring the last row in."""
    from pyglet.window import key

    window, app = gui
    _small(window)
    try:
        app.show_menu()
        app.open_new_game("bandu")
        screen = window.top
        pump(window)
        floor = screen.start.y + screen.start.height

        def shown_rows():
            rows = [screen.count_row, *screen.seat_rows, *(row for _, row in screen.setting_rows)]
            for row in rows:
                if row.caption.visible:
                    assert all(b.y >= floor and b.y + b.height <= window.height for b in row.options if b.visible)
            return [row.caption.text for row in rows if row.caption.visible]

        first = shown_rows()
        assert "First player" not in first and "Players" in first
        assert "more below" in screen.more.text and screen.max_scroll > 0
        window.dispatch_event("on_mouse_scroll", 400, 300, 0, -20)
        pump(window)
        assert "First player" in shown_rows() and "Players" not in shown_rows()
        assert "more above" in screen.more.text and "more below" not in screen.more.text
        press(window, key.PAGEUP)
        press(window, key.PAGEUP)
        assert shown_rows() == first
        last_row = dict((s.name, row) for s, row in screen.setting_rows)["first"]
        for _ in range(200):                                   # Tab alone reaches the last row
            if screen.focus.focused in last_row.options:
                break
            press(window, key.TAB)
        assert screen.focus.focused in last_row.options
        assert last_row.caption.visible and screen.focus.focused.visible
        press(window, key.SPACE)
        assert last_row.options[last_row.options.index(screen.focus.focused)].selected
        _large(window)
        assert screen.max_scroll == 0 and screen.more.text == ""
        assert all(row.caption.visible for _, row in screen.setting_rows if not row.hidden)
    finally:
        _large(window)


def test_a_long_help_comes_in_pages_in_a_small_window(gui):
    """Bandida's keys and rules do not fit 800 x 560 even in the smallest type: the help shows
    them in pages (Page Down, the wheel), each ending above the Close button, none cut."""
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    _small(window)
    try:
        app.start_game("bandida", {}, [Seat(PERSON), Seat(COMPUTER, "random")], seed=3)
        screen = window.active_screen
        pump(window)
        press(window, key.F1)
        help_overlay = screen.help
        assert help_overlay.visible and len(help_overlay.pages) > 1 and help_overlay.body.font_size >= 9
        assert "page 1 of" in help_overlay.page_note.text
        seen = []
        for page in range(len(help_overlay.pages)):
            assert help_overlay.page == page
            body_bottom = help_overlay.body.y - help_overlay.body.content_height
            assert body_bottom >= help_overlay.page_note.y + help_overlay.page_note.content_height
            assert help_overlay.page_note.y >= max(b.y + b.height for b in help_overlay.buttons)
            seen.append(help_overlay.body.text)
            press(window, key.PAGEDOWN)
        assert "\n".join(seen).split() == help_overlay.text.split()      # every word, once, in order
        window.dispatch_event("on_mouse_scroll", 400, 300, 0, 1)          # the wheel turns back
        pump(window)
        assert help_overlay.page == len(help_overlay.pages) - 2
        press(window, key.ESCAPE)
        press(window, key.F1)
        assert help_overlay.page == 0                                      # opened again: page 1
        _large(window)
        assert len(help_overlay.pages) == 1 and help_overlay.page_note.text == ""
    finally:
        _large(window)



@pytest.mark.parametrize("game", ["bandida", "buddel_bande", "bunko", "tanbo"])
def test_the_help_text_sits_on_whole_pixels(gui, game):
    """Text drawn from half a pixel loses rows of its letters: the help of Buddel Bande at 1280 x
    800 (its panel centred on a half pixel) showed 'KEYS' and 'click' with their tops cut off.
    Every text of the help lies on whole pixels, whatever the window's size."""
    from pyglet.window import key

    from simulator.core import registry
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    seats = [Seat(PERSON)] + [Seat(COMPUTER, "random")] * (registry.get_game(game).info.default_players - 1)
    screen = start(app, window, game, seats)
    press(window, key.F1)
    try:
        help_overlay = screen.help
        assert help_overlay.visible
        for width, height in ((800, 560), (1280, 800), (1281, 801), (1447, 905), (1920, 1080)):
            window.set_size(width, height)
            window.dispatch_event("on_resize", width, height)
            pump(window, 1)
            texts = [help_overlay.title, help_overlay.body, help_overlay.page_note,
                     *(button.text for button in help_overlay.buttons)]
            for text in texts:
                assert (text.x, text.y) == (round(text.x), round(text.y)), (width, height, text.text[:20])
    finally:
        _large(window)
        press(window, key.ESCAPE)


def test_a_stone_can_be_placed_from_the_keyboard(gui):
    from pyglet.window import key

    window, app = gui
    screen = start(app, window, "tanbo", people(2), {"width": 5, "height": 7})
    press(window, key.RIGHT)
    assert screen.view.cursor.visible and screen.view.hover_point is not None
    legal = {(a.x, a.y) for a in screen.controller.state.legal_actions()}
    for _ in range(40):                                   # walk the cursor to a legal point
        if screen.view.hover_point in legal:
            break
        press(window, key.UP if screen.view.hover_point[1] < 6 else key.RIGHT)
    assert screen.view.hover_point in legal
    press(window, key.ENTER)
    assert screen.controller.ply() == 1


def test_buttons_show_their_shortcut_on_hover(gui):
    window, app = gui
    screen = start(app, window, "tanbo", people(2), {"width": 5, "height": 7})
    button = screen.save_button
    move_to(window, button.x + 5, button.y + 5)
    assert screen.tooltip.visible and screen.tooltip.text == "Ctrl+S"
    move_to(window, 5, 5)
    assert not screen.tooltip.visible
    move_to(window, button.x + 5, button.y + 5)
    assert screen.tooltip.visible
    screen.resize(window.width, window.height)      # a resize moves the buttons from the mouse:
    assert not screen.tooltip.visible and not button.hover    # no tooltip left behind


def test_a_tooltip_goes_when_a_dialog_opens_over_its_button(gui):
    """Help's tooltip ('F1') stayed drawn over the help it opened: tooltips draw above dialogs."""
    window, app = gui
    screen = start(app, window, "tanbo", people(2), {"width": 5, "height": 7})
    button = screen.help_button
    move_to(window, button.x + 5, button.y + 5)
    assert screen.tooltip.visible and screen.tooltip.text == "F1"
    click_on(window, button)
    assert screen.help.visible
    assert not screen.tooltip.visible and not screen.tooltip_box.visible
    move_to(window, button.x + 6, button.y + 6)   # under the dialog
    assert not screen.tooltip.visible
    click_on(window, button_named(screen, "Close"))
    move_to(window, button.x + 5, button.y + 5)   # closed: it shows again
    assert screen.tooltip.visible


def test_esc_on_the_menu_asks_before_quitting(gui):
    from pyglet.window import key

    window, app = gui
    app.show_menu()
    press(window, key.ESCAPE)
    menu = window.top
    assert menu.quit_question.visible and not window.has_exit
    press(window, key.ESCAPE)
    assert not menu.quit_question.visible and not window.has_exit


def test_hand_over_hides_the_panels_secrets_and_undo_stays_with_its_person(gui):
    window, app = gui
    screen = start(app, window, "peek", people(2))
    click_on(window, button_named(screen, "I am North"))
    assert "holds" in screen.seat_details[0].text
    box = screen.view.action_boxes["stay"]
    click(window, box.x + 5, box.y + 5)
    pump(window)
    assert screen.handover.visible
    assert all("holds" not in d.text for d in screen.seat_details)
    click_on(window, button_named(screen, "I am South"))
    assert not screen.undo_button.enabled                   # North's move is not South's to undo
    assert not screen.controller.can_undo(1) and screen.controller.can_undo()


def test_saving_twice_with_nothing_changed_keeps_one_file(gui, private_home):
    from pyglet.window import key

    window, app = gui
    screen = start(app, window, "tanbo", people(2), {"width": 5, "height": 7})
    screen.controller.submit(screen.controller.state.legal_actions()[0])
    press(window, key.S, key.MOD_CTRL)
    press(window, key.S, key.MOD_CTRL)
    assert len(list((private_home / "saves").glob("*.json"))) == 1
    screen.controller.submit(screen.controller.state.legal_actions()[0])
    press(window, key.S, key.MOD_CTRL)
    assert len(list((private_home / "saves").glob("*.json"))) == 2


def test_nothing_runs_over_in_the_smallest_window(gui, private_home):
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, Seat, TurnController

    window, app = gui
    _small(window)
    try:
        app.show_menu()
        pump(window)
        for _, blurb, _, players in window.top.game_buttons:  # the menu's blurbs end in the window
            assert blurb.x + blurb.content_width <= window.width
            assert blurb.text.endswith(players)                 # the player counts always show
        for n in range(3):
            c = TurnController("tanbo", {"width": 19, "height": 19, "start": "classic"},
                               [Seat(), Seat(COMPUTER, "mcts:strong")], seed=n)
            c.save(private_home / "saves" / f"tanbo-with-a-long-file-name-{n}.json")
        app.open_saved_games()
        listing = window.top
        pump(window)
        for entry, detail, delete in zip(listing.entries, listing.details, listing.deletes, strict=True):
            assert entry.text.content_width <= entry.width
            assert detail.x + detail.content_width <= delete.x
        app.show_menu()
        app.open_new_game("crowd")
        new = window.top
        click_on(window, button_named(new, "20"))
        for button in new.seat_buttons:
            assert button.y >= new.start.y + new.start.height and button.x + button.width <= window.width
        click_on(window, button_named(new, "Start"))
        game = window.top
        pump(window)
        for name in game.seat_names:
            assert name.y > game.text_floor and name.x + name.content_width <= window.width
        press(window, key.F1)
        help_overlay = game.help
        assert help_overlay.visible
        body_bottom = help_overlay.body.y - help_overlay.body.content_height
        assert body_bottom >= max(b.y + b.height for b in help_overlay.buttons)
    finally:
        _large(window)


@pytest.mark.parametrize("game", ["bandu", "tanbo", "bandida", "bunko", "buddel_bande"])
def test_no_new_game_caption_runs_under_its_buttons(gui, game):
    window, app = gui
    app.open_new_game(game)
    screen = window.top
    pump(window)
    rows = [screen.count_row, *screen.seat_rows, *(row for _, row in screen.setting_rows)]
    for row in rows:
        if row.caption.visible and row.options:
            first = min(b.x for b in row.options if b.visible)   # a seat there is not: not shown
            assert row.caption.x + row.caption.content_width < first, row.caption.text
    app.show_menu()


def test_the_panel_logs_every_move_and_the_wheel_scrolls_back_through_them(gui):
    """A move log like a game table's online: one line per move, the newest at the bottom,
    the wheel over it goes back through the game; a new move brings the newest back."""
    import random

    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen = start(app, window, "tanbo", [Seat(PERSON), Seat(PERSON)], {"width": 7, "height": 7})
    controller, rng = screen.controller, random.Random(3)
    for _ in range(30):
        controller.submit(rng.choice(controller.state.legal_actions()))
    pump(window)
    log = screen.move_log
    assert len(log.lines) == 30 and log.lines[0].startswith("1. Black ")
    first, last = log.shown
    assert last == 30 and 5 <= last - first < 30             # the newest that fit
    assert log.label.text.splitlines()[-1] == log.lines[-1]
    x, top = log.label.x + 20, log.label.y - 5
    window.dispatch_event("on_mouse_scroll", x, top, 0, 3)    # up: back through the game
    pump(window, 1)
    # one move back, and a last line saying so: one move fewer fits
    assert log.shown == (first, last - 1) and log.lines[-1] not in log.label.text
    assert log.label.text.splitlines()[-1] == "\u25bc 1 newer (wheel down)"
    controller.submit(rng.choice(controller.state.legal_actions()))
    pump(window)
    assert log.shown[1] == 31 and log.lines[-1].startswith("31. ") and "newer" not in log.label.text
    assert log.label.y - log.label.content_height >= screen.text_floor - 1   # above the buttons


def test_every_move_so_far_opens_in_a_dialog_in_any_window(gui):
    """Ctrl+L or the panel's Moves button shows the whole log, at its newest page, also where
    the panel has no room for it (800 x 560 with three seats); Ctrl+L again closes it."""
    import random

    from pyglet.window import key

    from simulator.core.controller import PERSON, Seat

    window, app = gui
    window.set_size(800, 560)
    window.dispatch_event("on_resize", 800, 560)
    try:
        screen = start(app, window, "tanbo", [Seat(PERSON), Seat(PERSON)], {"width": 7, "height": 7})
        controller, rng = screen.controller, random.Random(5)
        for _ in range(60):
            controller.submit(rng.choice(controller.state.legal_actions()))
        pump(window)
        moves = len(controller.history)
        assert not controller.is_over() and screen.top_overlay() is None
        assert screen.moves_button.visible and screen.moves_button.x + screen.moves_button.width <= 800
        window.dispatch_event("on_key_press", key.L, key.MOD_CTRL)
        pump(window, 1)
        dialog = screen.moves
        assert dialog.visible and len(dialog.pages) > 1 and dialog.page == len(dialog.pages) - 1
        assert dialog.body.text.splitlines()[-1].startswith(f"{moves}. ")
        assert dialog.text.splitlines()[0].startswith("1. Black ")
        window.dispatch_event("on_key_press", key.L, key.MOD_CTRL)
        pump(window, 1)
        assert not dialog.visible
        screen.moves_button.click()
        pump(window, 1)
        assert dialog.visible
        window.dispatch_event("on_key_press", key.ESCAPE, 0)
        pump(window, 1)
        assert not dialog.visible
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)
        app.show_menu()


@pytest.mark.parametrize("size", [(800, 560), (1280, 800)])
def test_one_row_per_saved_game_and_a_loaded_save_goes_on_in_its_autosave(gui, private_home, size):
    """The bugs (issue 55): one game showed as four rows (its saves and autosaves), details
    were cut to 'auto...', and every load of a save started a new autosave. A game's files are
    one row, its newest; '+N' unfolds the others; loading a save goes on in its autosave."""
    from window_driver import small_window

    window, app = gui
    with small_window(window, *size):
        screen = start(app, window, "tanbo", people(2), {"width": 5, "height": 7})
        controller = screen.controller
        for _ in range(2):
            controller.submit(controller.state.legal_actions()[0])
        saved = app.save_game(controller)
        controller.submit(controller.state.legal_actions()[0])   # the autosave goes on, newer
        autosave = controller.autosave_path
        assert saved is not None and autosave.exists()
        app.show_menu()
        app.open_saved_games()
        listing = window.top
        pump(window)
        assert len(listing.entries) == 1 and listing.summaries[0].path == autosave
        assert listing.olders[0].visible and listing.olders[0].text.text == "+1"
        for detail, summary in zip(listing.details, listing.summaries, strict=True):
            assert detail.text == summary.detail, detail.text            # whole at every width
        click_on(window, listing.olders[0])
        assert [s.path for s in listing.summaries] == [autosave, saved] and listing.older_rows == [False, True]
        assert listing.details[1].text.startswith("saved · move 2")
        autosaves_before = sorted((private_home / "autosaves").glob("*.json"))
        assert app.load_game(saved)                       # the save: its game's autosave goes on
        loaded = window.top
        assert loaded.controller.autosave_path == autosave
        loaded.controller.submit(loaded.controller.state.legal_actions()[0])
        assert sorted((private_home / "autosaves").glob("*.json")) == autosaves_before
        app.show_menu()


def test_a_run_of_the_same_move_is_one_line_of_the_log(gui):
    """The bugs (issue 55): Bandida's log said 'a card is drawn' six times in a row, Buddel
    Bande's 'arranged the haystack' six times."""
    from simulator.app.move_log import runs_of

    moves = ["a card is drawn"] * 6 + ["North placed the ladder", "a card is drawn"]
    assert runs_of(moves) == ["1-6. a card is drawn (6 times)", "7. North placed the ladder",
                              "8. a card is drawn"]
    assert runs_of([]) == [] and runs_of(["x"]) == ["1. x"]


@pytest.mark.parametrize(("game", "seats"), [("tanbo", 2), ("bunko", 4), ("buddel_bande", 3)])
def test_the_side_panels_icons_never_cover_the_names_and_the_toast_never_the_log(gui, game, seats):
    """The bugs (issue 55): the stone, token and ladybird icons overlapped the names' first
    letters; "The tower stands." covered the log's last line."""
    window, app = gui
    screen = start(app, window, game, people(seats))
    for icon, name in zip(screen.seat_icons, screen.seat_names, strict=True):
        if icon is not None and icon.visible:
            assert icon.x + icon.width / 2 <= name.x, (icon.x, icon.width, name.x)
    screen.toast.show("The tower stands.")
    toast_top = screen.toast.box.y + screen.toast.box.height
    assert screen.log_floor() >= toast_top, (screen.log_floor(), toast_top)
    app.show_menu()


def test_an_aided_attempt_is_whole_in_the_records_at_800_by_560(gui, private_home):
    """The bug (issue 55): the row of an aided attempt was cut at 'aided (practice a...'."""
    from test_records import attempt
    from window_driver import small_window

    from simulator.games.bandu.records import RecordStore
    from simulator.games.bandu.records_screen import contest, describe

    window, app = gui
    aided, long_named = attempt(practice_aid=True), attempt(who="Annabelle Bartholomew-Okonkwo " * 2,
                                                            practice_aid=True, when="2026-01-01T00:00:00+00:00")
    with RecordStore.open() as store:
        store.add(aided)
        store.add(long_named)
    with small_window(window):
        app.show_menu()
        click_on(window, button_named(window.top, "Records"))
        screen = window.top
        pump(window)
        whole = f"{contest(aided.variant, aided.chain_key)}:  {describe(aided)}"
        assert screen.rows[0].text == whole                      # whole at the smallest size
        assert "fell · aided · " in screen.rows[1].text            # a long name: the date cut, not the mark
        assert "aided:" in screen.list_heading.text
        app.show_menu()
