"""Bandu in the window, played as a person plays it: events sent to the window's handlers pick a
reserve piece, run an auction with its buttons, move the held piece with the mouse, turn it with
the keys and release it with a click; the physics judges the tower and the view plays it back.
Screenshots are checked for content: the wooden table, the towers where they stand."""

from __future__ import annotations

import time

import numpy as np
import pytest
from window_driver import button_named, click, click_on, press, small_window

pytestmark = pytest.mark.gui

TABLE_BROWN = np.array([150, 90, 50])      # roughly the lit table top


def pump_until(window, condition, seconds: float = 60.0) -> float:
    """Draw frames until `condition()`; returns the longest frame (seconds)."""
    deadline = time.monotonic() + seconds
    longest = 0.0
    while not condition():
        assert time.monotonic() < deadline, "the window never got there"
        start = time.monotonic()
        window.pump(1)
        longest = max(longest, time.monotonic() - start)
    return longest


def start_bandu(app, window, seats, settings=None, seed=5):
    app.start_game("bandu", settings or {}, seats, seed=seed)
    screen = window.top
    screen.controller.computer_delay = 0.0
    window.pump(3)
    return screen, screen.view


def screen_point(view, point):
    from pyglet.math import Vec3

    at = view.camera.to_screen(Vec3(*point), view.area)
    assert at is not None and view.contains(*at), f"{point} is not in the view"
    return at


def action_button(view, text):
    found = [b for b in view.action_buttons if b.visible and b.text.text == text]
    assert found, f"no button {text!r}: {[b.text.text for b in view.action_buttons if b.visible]}"
    return found[0]


def offer(window, view, piece, auction_button):
    """The auctioneer clicks `piece` in the reserve, then the auction's button."""
    pump_until(window, lambda: not view.camera.gliding)          # back over the whole table
    (x, y, z), _ = view.slots[piece]
    sx, sy = screen_point(view, (x, y, z))
    window.dispatch_event("on_mouse_motion", sx, sy, 0, 0)
    window.pump(1)
    assert view.hovered == piece
    click(window, sx, sy)
    assert view.chosen == piece
    button = action_button(view, auction_button)
    click(window, button.x + button.width / 2, button.y + button.height / 2)


def press_button(window, view, text):
    button = action_button(view, text)
    click(window, button.x + button.width / 2, button.y + button.height / 2)


def pixels():
    from simulator.render.screenshot import read_pixels

    return read_pixels()[:, :, :3].astype(int)


def people(n):
    from simulator.core.controller import PERSON, Seat

    return [Seat(PERSON) for _ in range(n)]


def test_a_refuse_auction_a_placement_by_mouse_and_the_physics_verdict(gui, tmp_path):
    from pyglet.window import key

    window, app = gui
    screen, view = start_bandu(app, window, people(2))
    controller = screen.controller
    image = pixels()
    assert image.std() > 20, "the table screenshot is flat"
    # the bases stand where the towers are: a light beech block at each tower's axis
    for place in view.places:
        x, y = screen_point(view, (place.axis[0], place.axis[1], 0.025))
        block = image[image.shape[0] - int(y) - 3:image.shape[0] - int(y) + 3, int(x) - 3:int(x) + 3]
        assert block.mean() > TABLE_BROWN.mean() + 25, "no base where the tower stands"

    offer(window, view, "cube-large", "To refuse")
    assert controller.state.phase == "refuse" and controller.current_player() == 1
    assert view.bar.headline.text == "Auction to refuse: large cube"
    pump_until(window, lambda: not view.camera.gliding)
    window.pump(2)
    image = pixels()
    # the piece up for auction stands lit in the middle of the table, the bar above has buttons
    x, y = screen_point(view, (*view.auction_spot, 0.045))
    spot = image[image.shape[0] - int(y) - 2:image.shape[0] - int(y) + 2, int(x) - 2:int(x) + 2]
    assert spot.mean() > TABLE_BROWN.mean() + 40, "the piece up for auction is not shown"
    bar = image[:110, 200:740]
    assert bar.std() > 15, "the auction bar is empty"
    press_button(window, view, "Refuse (1 bean)")              # P2 pays a bean, the piece comes back
    assert controller.state.beans == [5, 4]
    press_button(window, view, "Accept")                         # P1 takes it: they place it
    window.pump(2)
    assert controller.state.phase == "place" and view.held is not None
    pump_until(window, lambda: not view.camera.gliding)          # the camera flies to the tower
    axis = view.places[0].axis
    height = view.aim_height()        # the plane the pointer aims on
    sx, sy = screen_point(view, (axis[0] + 0.004, axis[1], height))
    window.dispatch_event("on_mouse_motion", sx, sy, 0, 0)
    press(window, key.Q)                                         # turned 15 degrees
    window.pump(2)
    assert view.held.place.yaw_deg == 15.0
    assert abs(view.held.place.x_mm) < 20 and abs(view.held.place.y_mm) < 20
    assert view.ghost is not None and view.ghost[0][2] > 0.025   # it would land on the base
    released = time.monotonic()
    click(window, sx, sy)
    assert controller.state.phase == "settle"
    pending = controller.outcome_in_progress()
    assert pending is not None and hasattr(pending, "timeline")
    pump_until(window, lambda: controller.state.phase != "settle")
    # played back in real time: the verdict came no sooner than the simulated settling took
    assert len(pending.timeline) > 5 and pending.timeline.finished
    assert time.monotonic() - released >= pending.timeline.end
    state = controller.state
    assert state.towers[0] == ["base", "cube-large"] and state.alive == [True, True]
    assert state.poses["cube-large"][2] > 40                     # on top of the base, not on the table
    assert controller.history[-1].action.startswith("result stood")


def test_a_piece_released_beside_the_tower_knocks_its_builder_out(gui):
    window, app = gui
    screen, view = start_bandu(app, window, people(2), seed=6)
    controller = screen.controller
    offer(window, view, "ball", "To acquire")
    press_button(window, view, "Pass")                           # nobody bids: the auctioneer's, free
    window.pump(2)
    assert controller.state.phase == "place" and controller.state.placer == 0
    pump_until(window, lambda: not view.camera.gliding)
    axis = view.places[0].axis
    height = view.aim_height()                  # the tower's top plane
    sx, sy = screen_point(view, (axis[0], axis[1] - 0.12, height))       # beyond the base's edge
    window.dispatch_event("on_mouse_motion", sx, sy, 0, 0)
    window.pump(2)
    assert view.ghost is not None and view.ghost[0][2] < 0.03            # it would land on the table
    click(window, sx, sy)
    shot_taken: list[np.ndarray] = []

    def falling() -> bool:
        if view.playback.frame is not None and not shot_taken:
            shot_taken.append(pixels())
        return controller.state.phase != "settle"

    pump_until(window, falling)
    assert shot_taken and shot_taken[0].std() > 20
    state = controller.state
    assert state.alive == [False, True] and controller.is_over()
    assert state.winners() == [1]
    assert "ball" in state.reserve                              # back to the reserve

    # its replay: the release shows the ball where it landed, the last move the fall
    app.replay_game(controller)
    window.pump(2)
    replay = window.top
    assert replay.title == "replay"
    moves = replay.replay
    released = next(n for n, entry in enumerate(moves.moves, start=1) if entry.action.startswith("places"))
    moves.show(released)
    replay.view.sync()
    window.pump(2)
    assert replay.view.released is not None and replay.view.released[0] == "ball"
    assert replay.view.released[1][0][2] < 0.03                 # on the table, beside the base
    assert "released" in replay.view.bar.headline.text
    moves.show(moves.total)
    replay.view.sync()
    window.pump(2)
    assert replay.view.describe_move(moves.moves[-1].action) == "Player 1's tower fell"
    assert pixels().std() > 20
    window.dispatch_event("on_key_press", __import__("pyglet").window.key.ESCAPE, 0)
    window.pump(2)


def test_a_computer_turn_runs_while_frames_keep_coming(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen, _view = start_bandu(app, window, [Seat(COMPUTER, "ai:easy"), Seat(PERSON)], seed=7)
    controller = screen.controller
    frames = 0

    def computer_done() -> bool:
        nonlocal frames
        frames += 1
        return controller.is_person_turn() or controller.is_over()

    longest = pump_until(window, computer_done, seconds=120)
    assert frames > 10                                           # it thought, the window drew on
    assert longest < 1.0, f"a frame took {longest:.2f} s while the computer played"
    assert any(entry.player == 0 for entry in controller.history)


def test_play_bandu_from_the_command_line_seats_people_and_computers(gui, tmp_path, monkeypatch):
    from simulator.app.main import build_app

    monkeypatch.setenv("BANDU_SIM_HOME", str(tmp_path))
    window, app = build_app(game="bandu", players=["person", "ai:easy", "ai:medium"],
                            settings={"beans": 3})
    try:
        window.pump(2)
        screen = window.top
        assert screen.title == "game" and type(screen.view).__name__ == "BanduView"
        seats = screen.controller.seats
        assert [s.kind for s in seats] == ["person", "computer", "computer"]
        assert [s.agent for s in seats[1:]] == ["ai:easy", "ai:medium"]
        assert screen.controller.state.beans == [3, 3, 3]
    finally:
        app.shutdown()
        window.close()
        gui[0].switch_to()              # the module's window draws on in its own GL context


def test_settings_the_game_refuses_are_said_and_the_new_game_screen_stays(gui):
    from window_driver import button_named, click_on

    window, app = gui
    app.show_menu()
    app.open_new_game("bandu")
    screen = window.top
    window.pump(2)
    first_row = next(row for setting, row in screen.setting_rows if setting.name == "first")
    seat_five = next(b for b in first_row.options if b.text.text == "5")
    assert not seat_five.enabled                                 # 2 players: no seat 5 offered
    click_on(window, seat_five)
    assert first_row.options[first_row.selected].text.text == "1"
    click_on(window, next(b for b in screen.count_row.options if b.text.text == "6"))
    assert seat_five.enabled                                     # six players: it is a seat
    click_on(window, seat_five)
    click_on(window, next(b for b in screen.count_row.options if b.text.text == "2"))
    assert first_row.options[first_row.selected].text.text == "1"   # back to a real seat
    aid_row = next(row for setting, row in screen.setting_rows if setting.name == "practice_aid")

    def aid():
        return aid_row.options[aid_row.selected].text.text

    aid_row.choose(1)                                            # On (solo): for one player,
    assert screen.players() == 1 and aid() == "On (solo)"        # the count follows
    screen.count_row.choose(2)                                   # three players: the aid goes off
    assert screen.players() == 3 and aid() == "Off"
    from simulator.app import last_choices
    assert last_choices.load("bandu") == (None, [], {})         # what the game refused is not kept

    def variant():
        row = next(row for setting, row in screen.setting_rows if setting.name == "variant")
        return row.options[row.selected].text.text

    click_on(window, button_named(screen, "Solo (one player)"))  # a solo game is for one player:
    assert screen.players() == 1 and len(screen.seat_rows) == 1  # the count follows
    assert aid() == "Off"                                        # but the aid is never turned on
    rows = {setting.name: row for setting, row in screen.setting_rows}
    assert rows["beans"].hidden and rows["auctions"].hidden      # no auctions alone: no such rows
    assert not any(b.visible or b.enabled for b in rows["beans"].options)
    assert "beans" not in screen.settings() and screen.settings()["variant"] == "solo"
    standard = rows["variant"].options[0]
    assert standard.text.text == "Standard" and not standard.enabled   # a standard game needs two
    count_two = next(b for b in screen.count_row.options if b.text.text == "2")
    click_on(window, count_two)                                  # two players: not solo any more
    assert screen.players() == 2 and variant() == "Standard"
    click_on(window, next(b for b in screen.count_row.options if b.text.text == "1"))
    assert variant() == "Solo (one player)"                      # one player: the solo game
    click_on(window, button_named(screen, "Chain (a seeded list)"))  # a chain game alone
    assert screen.players() == 1 and variant() == "Chain (a seeded list)"
    click_on(window, count_two)
    click_on(window, next(b for b in screen.count_row.options if b.text.text == "1"))
    assert variant() == "Chain (a seeded list)"                  # stays what the person chose


def test_a_solo_attempt_is_stored_in_the_records_and_replays(gui, private_home):
    from simulator.core.controller import PERSON, Seat
    from simulator.games.bandu.records import RecordStore

    window, app = gui
    screen, view = start_bandu(app, window, [Seat(PERSON)], {"variant": "solo"}, seed=1)
    controller = screen.controller
    controller.computer_delay = 0.35           # paced for a person, as the window plays it
    for piece, dy in (("cube-large", 0.0), ("ball", -0.1)):      # the ball beside the base falls
        offer(window, view, piece, "Take it")
        window.pump(2)
        pump_until(window, lambda: not view.camera.gliding)
        axis = view.places[0].axis
        sx, sy = screen_point(view, (axis[0], axis[1] + dy, view.aim_height()))
        window.dispatch_event("on_mouse_motion", sx, sy, 0, 0)
        window.pump(2)
        click(window, sx, sy)
        pump_until(window, lambda: controller.state.phase != "settle")
    window.pump(3)
    # the fall is seen before the end screen covers it (issue 55: it came over the falling tower)
    assert controller.is_over() and view.still_showing() and not screen.end.visible
    pump_until(window, lambda: screen.end.visible)
    assert not view.still_showing()
    assert screen.end.title.text == "Game over"
    assert "The tower fell. Score: 1 piece, standing before the last one." in screen.end.body.text
    assert view.tower_poses["ball"][0][2] < 0.05          # drawn where it came down, on the table
    # alone: not 'Player 1 is out' (the end screen opens at once and takes the message away)
    assert view.describe_move(controller.history[-1].action) == "the tower fell"
    assert screen.toast.text.text == "The tower fell."
    assert view.seat_detail(0) == "tower fell"
    assert "Stored in your records" in screen.end.body.text and "personal best" in screen.end.body.text
    with RecordStore.open() as store:
        [attempt] = store.attempts()
    assert (attempt.kind, attempt.variant, attempt.score, attempt.fell) == ("person", "solo", 1, True)
    assert attempt.height_mm > 60                                   # the cube on the base

    app.show_menu()
    window.pump(1)
    click_on(window, button_named(window.top, "Records"))     # the menu button Bandu adds
    window.pump(2)
    records = window.top
    assert records.title == "records" and len(records.replays) == 1
    assert "1 piece" in records.rows[0].text and "fell" in records.rows[0].text
    click(window, records.replays[0].x + 5, records.replays[0].y + 5)
    window.pump(2)
    replay = window.top
    assert replay.title == "replay" and replay.replay.total == len(controller.history)
    from pyglet.window import key
    press(window, key.END)
    window.pump(2)
    # the last move shows the fallen tower where it came down, as the game did (it was blank)
    shown = replay.view.tower_poses
    assert {"cube-large", "ball"} <= set(shown) and any(p.startswith("base") for p in shown)
    ball_z = shown["ball"][0][2]
    assert ball_z < 0.05                          # on the table beside the base, not on the cube


def test_the_practice_aid_colours_the_ghost_by_its_stand_rate(gui, private_home):
    """Solo with the aid on: the held cube over the base rests, the ghost turns green and the
    hint says how often it stood; moved past the base's end it turns red."""
    from simulator.core.controller import PERSON, Seat
    from simulator.games.bandu.practice import FALLS, STANDS

    window, app = gui
    _screen, view = start_bandu(app, window, [Seat(PERSON)], {"variant": "solo", "practice_aid": True})
    assert view.practice is not None
    offer(window, view, "cube-large", "Take it")
    window.pump(2)
    pump_until(window, lambda: not view.camera.gliding)
    axis = view.places[0].axis
    # off the base first: the piece is held on the axis already, where nothing would be asked anew
    for dx, colour, said in ((0.075, FALLS, "stood 0 of 8 times"), (0.0, STANDS, "stood 8 of 8 times")):
        sx, sy = screen_point(view, (axis[0] + dx, axis[1], view.aim_height()))
        window.dispatch_event("on_mouse_motion", sx, sy, 0, 0)
        window.pump(2)
        assert view.practice.colour() is None                     # asked once the piece rests
        pump_until(window, lambda: view.practice.probe.answer is not None
                   and view.practice.probe.answer.complete, seconds=120)
        window.pump(2)
        assert view.practice.colour() == pytest.approx(colour)
        assert said in view.hint


def test_without_the_aid_no_stand_rate_is_ever_shown(gui):
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    _screen, view = start_bandu(app, window, [Seat(PERSON)], {"variant": "solo"})
    assert view.practice is None
    offer(window, view, "cube-large", "Take it")
    window.pump(5)
    assert "Practice aid" not in view.hint


def test_a_hint_shows_the_strong_players_placement_and_g_takes_it(gui, private_home):
    """Solo: G asks for a hint (the game is marked from then on, in its save too); the blue
    ghost comes without the window waiting; G again releases the piece there and it stands.
    With two people at the table there is no hint."""
    from pyglet.window import key

    from simulator.core.controller import PERSON, Seat, TurnController
    from simulator.render.screenshot import save_png

    window, app = gui
    screen, view = start_bandu(app, window, [Seat(PERSON)], {"variant": "solo"})
    assert view.hints is not None and any(k == "G" for k, _ in view.controls)
    offer(window, view, "washer", "Take it")
    window.pump(2)
    pump_until(window, lambda: not view.camera.gliding)
    assert view.hint_ghost is None and "hint_used" not in screen.controller.settings
    press(window, key.G)
    assert screen.controller.settings["hint_used"] is True
    longest = pump_until(window, lambda: view.hint_ghost is not None, seconds=120)
    assert longest < 0.5                                      # the window never waited for it
    window.pump(2)
    assert "blue ghost" in view.hint
    save_png(private_home / "hint.png")
    answer = view.hints.answer
    press(window, key.G)
    pump_until(window, lambda: "washer" in screen.controller.state.towers[0] and view.released is None,
               seconds=60)
    state = screen.controller.state
    axis = view.places[0].axis
    assert state.alive[0]
    assert state.poses["washer"][0] == pytest.approx(axis[0] * 1000 + answer.x_mm, abs=2.0)
    assert state.poses["washer"][1] == pytest.approx(axis[1] * 1000 + answer.y_mm, abs=2.0)
    saved = screen.controller.to_save_dict()
    assert saved["settings"]["hint_used"] is True
    assert TurnController.from_save_dict(saved).settings["hint_used"] is True
    _screen2, view2 = start_bandu(app, window, [Seat(PERSON), Seat(PERSON)])
    assert view2.hints is None and not any(k == "G" for k, _ in view2.controls)


def test_the_auction_bar_fits_a_small_window(gui):
    """At 800 x 560 the view is about 530 px wide: every line and button stays inside the bar,
    and the bar inside the view (the headline ran off both sides and a button was cut)."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen, view = start_bandu(app, window, [Seat(PERSON), Seat(COMPUTER, "ai:easy")])
    with small_window(window):
        window.pump(2)
        view.chosen = "cube-large"                             # picked: three buttons
        view.sync()
        window.pump(2)
        bar, (ax, _, aw, _) = view.bar, view.area
        panel = bar.panel
        assert ax <= panel.x and panel.x + panel.width <= ax + aw
        buttons = bar.visible_buttons()
        assert len(buttons) == 3
        for button in buttons:
            assert panel.x <= button.x and button.x + button.width <= panel.x + panel.width
            assert button.text.content_width <= button.width
        for line in (bar.headline, bar.subline):
            assert line.content_width <= panel.width - 20
        assert "large cube" in bar.headline.text               # what was picked still shows
        # the computer's line in the side panel is whole (it was cut before its piece count),
        # on two lines where the narrower panel needs them
        detail = screen.seat_details[1].text
        assert "…" not in detail
        assert detail.replace("\n", " · ") == "Computer, Easy · 5 beans · 0 pieces"


def test_a_ring_is_picked_by_clicking_its_hole(gui):
    """The ring's and the washer's middle is a hole: a click there picks the piece (it went
    through to the table, and the next click auctioned whatever had been picked before)."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen, view = start_bandu(app, window, [Seat(PERSON), Seat(COMPUTER, "ai:easy")])
    pump_until(window, lambda: not view.camera.gliding)
    for piece in ("ring", "washer"):
        (x, y, z), _ = view.slots[piece]                     # the centre of mass: mid-hole
        sx, sy = screen_point(view, (x, y, z))
        assert view.pick(sx, sy) == piece
    offer(window, view, "ring", "To refuse")
    window.pump(2)
    assert screen.controller.state.auction.piece == "ring"


def test_a_winner_with_a_bare_base_is_said_in_words(gui):
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen, view = start_bandu(app, window, [Seat(PERSON), Seat(PERSON)])
    state = screen.controller.state
    state.alive[1] = False
    assert view.result_text() == "The last tower standing: a base with nothing on it yet."
    state.towers[0].append("cube-large")
    assert view.result_text() == "The last tower standing, 1 piece on its base."


def _play_until_placements(window, screen, placements: int, rng) -> None:
    """Play on (a person's moves drawn at random, submitted as the view would) until the game
    has `placements` judged placements or is over."""
    from simulator.core.agents import RandomAgent

    controller = screen.controller
    controller.computer_delay = 0.0
    deadline = time.monotonic() + 120
    while controller.state.placements < placements and not controller.is_over():
        assert time.monotonic() < deadline, "the game never got there"
        if controller.is_person_turn():
            seat = controller.current_player()
            controller.submit(RandomAgent().choose(controller.visible_state(seat), rng))
        window.pump(1)
    pump_until(window, lambda: controller.state.phase != "settle")


def test_a_game_from_the_new_game_screen_saved_loaded_played_on_and_saved_reopens(gui, private_home,
                                                                                  monkeypatch):
    """The bugs: a game started from the new-game screen saved "practice_aid" in its settings,
    which the load's check gave to the rules (TypeError, in the window, the saved-games list and
    `play --load`); and a game loaded, played on and saved was refused at the next load."""
    import json
    import random

    from pyglet.window import key
    from window_driver import button_named, click_on, wait_until_checked

    from simulator.app.main import build_app

    window, app = gui
    monkeypatch.setattr(random.SystemRandom, "randrange", lambda self, n: 11)   # the game's seed
    app.show_menu()
    app.open_new_game("bandu")
    window.pump(2)
    new_game = window.top
    click_on(window, next(b for b in new_game.count_row.options if b.text.text == "3"))
    click_on(window, button_named(new_game, "12 pieces"))
    click_on(window, button_named(new_game, "Start"))
    window.pump(2)
    screen = window.top
    assert screen.title == "game" and "practice_aid" not in screen.controller.settings   # hidden
    rng = random.Random(4)
    _play_until_placements(window, screen, 2, rng)
    press(window, key.S, key.MOD_CTRL)
    first = max((private_home / "saves").glob("bandu-*.json"))
    assert app.load_game(first), screen.toast.message              # the saved-games list's way
    screen = wait_until_checked(window)
    saved_first = json.loads(first.read_text())["state"]
    assert screen.controller.state.to_dict() == saved_first
    _play_until_placements(window, screen, 5, rng)
    press(window, key.S, key.MOD_CTRL)
    second = max((private_home / "saves").glob("bandu-*.json"), key=lambda p: p.stat().st_mtime_ns)
    assert json.loads(second.read_text())["state"]["placements"] >= 5
    assert app.load_game(second), window.top.toast.message          # and again
    saved = json.loads(second.read_text())["state"]
    assert wait_until_checked(window).controller.state.to_dict() == saved
    other, other_app = build_app(load=str(second))                 # `bandu-sim play --load FILE`
    try:
        other.pump(2)
        wait_until_checked(other)
        assert other.top.title == "game" and other.top.controller.state.to_dict() == saved
        assert other.top.controller.load_notice is None
    finally:
        other_app.shutdown()
        other.close()
        window.switch_to()


def test_the_bar_the_hint_and_the_moves_say_pieces_by_their_names(gui):
    window, app = gui
    screen, view = start_bandu(app, window, people(2))
    assert view.describe_move("offers cylinder-wide to refuse") == "offers the wide cylinder to refuse"
    assert view.describe_move("places base#2 at 0 0 mm, yaw 0 roll 0 pitch 0") == \
        "places the base block 2 on the axis"
    assert view.describe_move("places cube-large at 3 -4 mm, yaw 15 roll 0 pitch -90") == \
        "places the large cube 5.0 mm off the axis, turned 15 degrees, pitched -90 degrees"
    pump_until(window, lambda: not view.camera.gliding)
    (x, y, z), _ = view.slots["cylinder-wide"]
    window.dispatch_event("on_mouse_motion", *screen_point(view, (x, y, z)), 0, 0)
    window.pump(1)
    assert view.hint == "Click to auction the wide cylinder."
    offer(window, view, "cylinder-wide", "To refuse")
    assert view.bar.headline.text == "Auction to refuse: wide cylinder"
    window.pump(2)
    assert "offers the wide cylinder to refuse" in screen.move_log.label.text


def test_a_window_made_small_mid_game_refits_the_whole_table(gui):
    """At 800 x 560, resized during a game: every reserve piece and every tower is in view (the
    camera kept its old distance, because its glide home had ended a full turn on, and both
    reserve columns were cut off); the seat lines wrap instead of being cut."""
    from simulator.core.controller import COMPUTER, Seat

    window, app = gui
    screen, view = start_bandu(app, window, [*people(2), Seat(COMPUTER, "ai:medium")])
    pump_until(window, lambda: not view.camera.gliding)
    with small_window(window):
        window.pump(3)
        for (x, y, z), _ in view.slots.values():
            for dx in (-0.02, 0.02):                   # both sides of the piece
                screen_point(view, (x + dx, y, z))
        for place in view.places:
            screen_point(view, (place.axis[0], place.axis[1], 0.0))
        detail = screen.seat_details[2]
        assert "…" not in detail.text and detail.text.replace("\n", " · ") == \
            "Computer, Medium · 5 beans · 0 pieces"


def test_solo_speaks_of_taking_pieces_not_of_auctions_or_beans(gui):
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen, view = start_bandu(app, window, [Seat(PERSON)], {"variant": "solo"})
    pump_until(window, lambda: not view.camera.gliding)
    said = [view.rules_summary, view.prompt(), screen.seat_details[0].text, view.seat_labels[0].text,
            *(v for _, v in view.controls)]
    (x, y, z), _ = view.slots["disc"]
    window.dispatch_event("on_mouse_motion", *screen_point(view, (x, y, z)), 0, 0)
    window.pump(1)
    assert view.hint == "Click to take the disc."
    offer(window, view, "disc", "Take it")
    pump_until(window, lambda: view.bandu.phase == "place")
    said += [view.bar.headline.text, view.bar.subline.text, screen.status.text]
    text = " ".join(said).lower()
    assert "auction" not in text and "bean" not in text, text
    assert screen.seat_details[0].text == "Person · 0 pieces"


def test_a_fall_stays_in_view_for_a_moment_before_play_moves_on(gui, monkeypatch):
    """Paced play (the window's): after a fall the camera stays on the fallen tower for
    FALL_HOLD_SECONDS and the computers wait (TurnController.hold_computers); only then does the
    camera go back over the table. The hold is timed from when the window showed the fall (a
    slow frame on a busy machine may pass before the test sees the new phase)."""
    from simulator.games.bandu.table_camera import FALL_HOLD_SECONDS, TableCamera

    shown: list[float] = []
    show_fall = TableCamera.show_fall

    def recorded(camera: TableCamera) -> None:
        shown.append(time.monotonic())
        show_fall(camera)

    monkeypatch.setattr(TableCamera, "show_fall", recorded)

    window, app = gui
    screen, view = start_bandu(app, window, people(2), seed=6)
    controller = screen.controller
    controller.computer_delay = 0.01                  # paced, as in the window
    offer(window, view, "ball", "To acquire")
    press_button(window, view, "Pass")
    window.pump(2)
    pump_until(window, lambda: not view.camera.gliding)
    axis = view.places[0].axis
    sx, sy = screen_point(view, (axis[0], axis[1] - 0.12, view.aim_height()))
    window.dispatch_event("on_mouse_motion", sx, sy, 0, 0)
    window.pump(2)
    click(window, sx, sy)
    pump_until(window, lambda: controller.state.phase != "settle")
    assert len(shown) == 1
    fallen_at = shown[0]
    on_tower = view.camera.target
    assert abs(on_tower.x - axis[0]) < 0.05                     # looking at the fallen tower
    window.pump(20)
    assert view.camera.target == on_tower and not view.camera.gliding   # still, for a moment
    pump_until(window, lambda: view.camera.gliding or time.monotonic() - fallen_at > 5)
    assert FALL_HOLD_SECONDS - 0.2 < time.monotonic() - fallen_at < FALL_HOLD_SECONDS + 1.5
    assert view.camera.gliding                                   # then back over the table


@pytest.mark.parametrize("size", [(800, 560), (1280, 720), (1920, 1080)])
def test_every_window_size_shows_the_whole_table_the_panel_and_the_bar(gui, tmp_path, size):
    """At the smallest size the program allows, at 720p and at 1080p: every reserve piece and
    every tower in view, the seat lines whole, the buttons in the window, the auction bar in
    the view; the screenshot is taken and is a picture (tools/screenshots.py puts these three
    in docs/)."""
    from simulator.core.controller import COMPUTER, Seat

    window, app = gui
    width, height = size
    window.set_size(width, height)
    window.dispatch_event("on_resize", width, height)
    try:
        screen, view = start_bandu(app, window, [*people(2), Seat(COMPUTER, "ai:medium")])
        pump_until(window, lambda: not view.camera.gliding)
        window.pump(2)
        for (x, y, z), _ in view.slots.values():
            screen_point(view, (x, y, z))
        for place in view.places:
            screen_point(view, (place.axis[0], place.axis[1], 0.0))
        assert all("…" not in detail.text for detail in screen.seat_details)
        for button in screen.buttons:
            assert button.x >= 0 and button.x + button.width <= width and button.y >= 0
            assert button.text.content_width + 16 <= button.width      # its word fits it
            if button.visible and button is not screen.menu_button:     # inside the panel
                assert screen.panel.x < button.x and button.x + button.width < screen.panel.x + screen.panel.width
        assert view.area[2] >= 0.64 * width        # the table has two thirds of a small window
        panel, (ax, _, aw, _) = view.bar.panel, view.area
        assert ax <= panel.x and panel.x + panel.width <= ax + aw
        shot = window.take_screenshot(tmp_path / f"bandu-{width}x{height}.png")
        image = pixels()
        assert image.shape[:2] == (height, width) and image.std() > 20 and shot.exists()
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)
        window.pump(1)


def test_building_alone_a_second_click_takes_the_piece_and_a_taken_piece_is_no_longer_hovered(gui):
    """The bugs (issue 55): in the solo game a second click on the chosen piece did nothing
    (only 'Take it' took it), and 'Click to take the large cube.' stayed after it was taken."""
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen, view = start_bandu(app, window, [Seat(PERSON)], {"variant": "solo"})
    pump_until(window, lambda: not view.camera.gliding)
    (x, y, z), _ = view.slots["cube-large"]
    sx, sy = screen_point(view, (x, y, z))
    window.dispatch_event("on_mouse_motion", sx, sy, 0, 0)
    window.pump(1)
    assert view.hovered == "cube-large" and view.hint == "Click to take the large cube."
    click(window, sx, sy)
    assert view.chosen == "cube-large" and screen.controller.state.phase == "offer"
    click(window, sx, sy)                                          # again: taken
    window.pump(2)
    assert screen.controller.state.phase == "place" and view.held is not None
    assert view.hovered is None and "large cube" not in view.hint


def test_the_practice_aid_is_offered_only_to_a_person_building_alone(gui):
    """The bug (issue 55): a three-player setup showed 'Practice aid: On (solo)'."""
    from window_driver import button_named, click_on

    window, app = gui
    app.show_menu()
    app.open_new_game("bandu")
    window.pump(2)
    new_game = window.top
    rows = {setting.name: row for setting, row in new_game.setting_rows}
    click_on(window, next(b for b in new_game.count_row.options if b.text.text == "3"))
    assert rows["practice_aid"].hidden
    click_on(window, button_named(new_game, "Solo (one player)"))
    assert not rows["practice_aid"].hidden and new_game.players() == 1
    app.show_menu()


def test_a_lit_piece_goes_dark_after_cancel_and_a_resize(gui):
    """The bug (issue 55): the fir tree stayed lit after Cancel and after a resize."""
    from window_driver import small_window

    from simulator.core.controller import PERSON, Seat

    window, app = gui
    _screen, view = start_bandu(app, window, [Seat(PERSON), Seat(PERSON)])
    pump_until(window, lambda: not view.camera.gliding)
    piece = next(p for p in view.slots if p.startswith("fir"))
    (x, y, z), _ = view.slots[piece]
    sx, sy = screen_point(view, (x, y, z))
    window.dispatch_event("on_mouse_motion", sx, sy, 0, 0)
    window.pump(1)
    click(window, sx, sy)
    assert view.chosen == piece and view.hovered == piece
    press_button(window, view, "Cancel")
    assert view.chosen is None and view.hovered is None and view.hint == ""
    window.dispatch_event("on_mouse_motion", sx, sy, 0, 0)
    window.pump(1)
    assert view.hovered == piece
    with small_window(window):
        window.pump(1)
        assert view.hovered is None


@pytest.mark.parametrize("seats", [3, 8])
def test_at_the_smallest_size_the_panel_folds_the_key_help_before_it_cuts_the_prompt(gui, seats):
    """The play-test: at 800 x 560 a placement's prompt was cut ('turn (Q/E, R/F, Z/C),...').
    The key help (in the Help dialog) goes first, then the seat's name (its row is marked);
    the prompt itself is whole, with 3 seats and with 8 in compact rows."""
    from simulator.core.controller import PERSON, Seat
    from simulator.render.widgets import without_asides

    window, app = gui
    with small_window(window):
        app.start_game("bandu", {}, [Seat(PERSON)] * seats, seed=4)
        screen = window.top
        controller = screen.controller
        while controller.state.phase != "place":
            controller.submit(controller.state.legal_actions()[0])
        window.pump(3)
        shown = screen.status.text
        assert "…" not in shown and without_asides(screen.view.prompt()) in shown, shown
        assert screen.status.y - screen.status.content_height >= screen.text_floor - 1
        app.show_menu()
