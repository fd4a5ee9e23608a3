"""Bunko in the window under Xvfb: a round played by key presses and clicks, the dice tumbling
and landing on the outcome, movement between tables, the score sheets, a 12-player night set up
on the new-game screen and played to the standings; screenshots checked for content."""

from __future__ import annotations

import itertools
import re
import time

import numpy as np
import pytest
from window_driver import button_named, click, click_on, frame, press, share, small_window

pytestmark = pytest.mark.gui


def is_head_felt(r, g, b):          # the head table's red felt
    return (r > 70) & (r < 170) & (g < 60) & (b < 70) & (r > 2 * g)


def is_green_felt(r, g, b):
    return (g > 60) & (g > r + 25) & (g > b + 10) & (r < 90)


def is_die(r, g, b):                # ivory dice bodies
    return (r > 235) & (g > 228) & (b > 210) & (b < 240)


def is_gold_plaque(r, g, b):
    return (r > 215) & (g > 165) & (g < 200) & (b < 100)


def is_blue_plaque(r, g, b):
    return (r < 110) & (g > 160) & (b > 200)


def is_sheet(r, g, b):              # the cream score-sheet paper
    return (r > 240) & (g > 235) & (b > 220)


def _start(app, window, seats, settings):
    app.start_game("bunko", settings, seats, seed=4)
    screen = window.active_screen
    screen.controller.computer_delay = 0.0
    window.pump(2)
    return screen


def _until(window, screen, condition, limit: int = 400) -> None:
    """Pump the window (computers roll, dice land) until `condition()` or a person must roll."""
    for _ in range(limit):
        if condition():
            return
        screen.controller.wait_for_computer()
        window.pump(1)
    raise AssertionError("the game did not get there")


def test_a_round_played_by_key_presses(gui):
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    seats = [Seat(PERSON), Seat(COMPUTER, "mcts:ghost"), Seat(PERSON), Seat(COMPUTER, "mcts")]
    screen = _start(app, window, seats, {"tables": 1, "pace": "instant"})
    controller, view = screen.controller, screen.view
    assert screen.view.prompt().startswith("Space")
    pixels = frame(window)
    assert share(pixels, is_head_felt) > 0.08                  # one big table with red felt
    assert share(pixels, is_die) > 0.001                       # its three dice
    assert share(pixels, is_gold_plaque) > 0.001 and share(pixels, is_blue_plaque) > 0.001
    presses = 0
    while controller.state.round == 0:
        if controller.is_person_turn():
            rolls = controller.state.rolls
            press(window, key.SPACE)
            presses += 1
            _until(window, screen, lambda r=rolls: controller.state.rolls > r)
        else:
            _until(window, screen, lambda: controller.is_person_turn() or controller.state.round > 0)
    state = controller.state
    assert presses >= 2
    people_rolls = [h for h in controller.history if h.action == "roll"]
    assert len(people_rolls) == state.rolls                     # every roll was a roll, then dice
    assert [state.wins[s] + state.losses[s] for s in range(4)] == [1, 1, 1, 1]
    assert state.chairs == [[0, 1, 3, 2]]                       # one table: the partners rotated
    assert view.sheet.visible is False
    pixels = frame(window)
    assert share(pixels, is_die) > 0.001


def test_dice_tumble_and_land_on_the_outcome_and_refusals_say_why(gui):
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.games.bunko import pace

    window, app = gui
    seats = [Seat(PERSON)] + [Seat(COMPUTER, "mcts")] * 7
    screen = _start(app, window, seats, {"tables": 2, "pace": "fast"})
    controller, view = screen.controller, screen.view
    view.on_mouse_motion(*_table_centre(view, 0), 0, 0)
    assert "Space" in view.hint and "Player 1" in view.hint
    click(window, *_table_centre(view, 0))                     # a click rolls, like Space
    assert controller.state.awaiting
    pending = controller.outcome_in_progress()
    window.pump(1)
    pending = controller.outcome_in_progress()
    assert isinstance(pending, pace.RollingDice)
    dice = view.tables[0].dice
    assert any(d.rolling for d in dice)
    press(window, key.SPACE)                                     # not again while they roll
    assert "wait for them to land" in screen.toast.message
    deadline = time.monotonic() + 5
    while controller.state.rolls == 0 and time.monotonic() < deadline:
        window.pump(1)
    assert controller.state.rolls == 1
    window.pump(1)
    landed = controller.state.last_rolls[0]["faces"]
    assert [d.face for d in dice] == landed and not any(d.rolling for d in dice)
    assert tuple(landed) == pending.result().faces             # the outcome, as the RNG drew it
    # a computer's turn: Space says whose turn it is
    _until(window, screen, lambda: not controller.is_person_turn() and not controller.state.awaiting)
    press(window, key.SPACE)
    assert "rolls by itself" in screen.toast.message or "wait for them to land" in screen.toast.message


def _selected(new_game) -> list[str]:
    return [setting.choices[row.selected].label for setting, row in new_game.setting_rows]


def _table_centre(view, table):
    spot = view.spots[table]
    return spot.x, spot.y


def test_a_twelve_player_night_set_up_on_the_new_game_screen_played_to_the_standings(gui):
    from pyglet.window import key

    window, app = gui
    app.show_menu()
    window.pump(1)
    click_on(window, button_named(window.active_screen, "Bunko"))
    assert window.active_screen.title == "new game"
    new_game = window.active_screen
    assert new_game.players() == 12 and "3 (12 players)" in _selected(new_game)   # the usual night
    click_on(window, button_named(new_game, "4"))               # the count leads the tables ...
    assert "1 (4 players)" in _selected(new_game)
    click_on(window, button_named(new_game, "2 (8 players)"))   # ... and the tables the count
    assert new_game.players() == 8
    click_on(window, button_named(new_game, "12"))
    assert "3 (12 players)" in _selected(new_game)
    click_on(window, button_named(new_game, "Instant"))
    click_on(window, button_named(new_game, "Start"))
    screen = window.active_screen
    assert screen.title == "game"
    controller, view = screen.controller, screen.view
    controller.computer_delay = 0.0
    assert controller.state.players == 12 and controller.state.tables == 3
    assert controller.person_seats() == [0] and controller.seats[5].agent == "mcts:ghost"
    pixels = frame(window)
    assert share(pixels, is_head_felt) > 0.015 and share(pixels, is_green_felt) > 0.03   # three tables
    # the first rolls by the window's own clock, the person's by key; then on to the round's end
    from simulator.games.bunko.rules import Roll

    while controller.state.rolls < 12:
        if controller.is_person_turn():
            press(window, key.SPACE)
        else:
            controller.wait_for_computer()
            window.pump(1)
    assert any(h.player == 0 for h in controller.history)
    controller.autosave_path = None            # fast forward: no file written after every move
    while controller.state.round == 0:
        if controller.is_person_turn():
            controller.submit(Roll())
        controller.play_computer_moves(limit=1)
    window.pump(2)
    # players moved: the head table's losers went to table 3, table 2's winners came up
    first = controller.state.results[0]["tables"]
    head_winners = [first[0]["chairs"][c] for c in range(4) if c % 2 == first[0]["winner"]]
    assert sorted(controller.state.chairs[0][:2]) == sorted(head_winners)
    assert not view.tokens.glide.running                       # instant pace: no glide
    # the score sheets on S, and off again
    press(window, key.S)
    assert view.sheet.visible
    assert share(frame(window), is_sheet) > 0.15
    press(window, key.S)
    assert not view.sheet.visible
    # the rest of the night, quickly: people roll through the controller, computers in-process
    while not controller.is_over():
        if controller.is_person_turn():
            controller.submit(Roll())
        controller.play_computer_moves()
    pixels = frame(window, 3)
    assert screen.end.visible and re.search(r"Player \d+ wins!|Player \d+ and Player \d+ win!", screen.end.title.text)
    assert "by wins, then bunkos, then points" in screen.end.body.text
    winner = controller.state.standings()[0]
    assert f"1. Player {winner + 1}:" in screen.end.body.text
    click_on(window, button_named(window.active_screen, "Look at the board"))
    pixels = frame(window, 2)
    assert view.sheet.visible and share(pixels, is_sheet) > 0.12   # the standings on the table
    texts = [item.text for item in view.sheet.labels]
    assert "Standings: the night is over" in texts and f"Player {winner + 1}" in texts
    assert texts.index(f"Player {winner + 1}") < min(texts.index(f"Player {s + 1}") for s in range(12)
                                                     if s != winner)
    window.pump(2)
    assert " won. Enter: results." in screen.status.text
    press(window, key.ENTER)                                    # the results come back
    assert screen.end.visible and f"1. Player {winner + 1}:" in screen.end.body.text
    click_on(window, button_named(window.active_screen, "Look at the board"))
    # the night's replay, move by move, with the same view
    app.replay_game(controller)
    replay = window.active_screen
    assert replay is not screen and share(frame(window), is_head_felt) > 0.005
    press(window, key.END)
    assert replay.view.state.is_terminal()
    press(window, key.HOME)
    assert replay.view.state.rolls == 0 and share(frame(window), is_die) > 0.001


def test_a_die_of_another_game_with_its_own_faces(gui):
    """render/dice.py is game-neutral: a painter draws the faces, the throw lands on the face
    it is given, and the tumble's faces are the same for the same seed."""
    from pyglet import shapes
    from pyglet.graphics import Batch

    from simulator.render.dice import Die, Mark, pip_positions, tumble_faces

    painted: list[tuple[int, bool]] = []

    def star(face, size, batch, group, style, marked):
        painted.append((face, marked))
        return [Mark(shapes.Star(0, 0, size * 0.35, size * 0.15, num_spikes=face + 2, batch=batch,
                                 group=group), size * 0.1, 0)]

    die = Die(Batch(), size=40, painter=star, faces=4)
    die.place(200, 100)
    die.throw(3, seconds=1.0, start=(20, 30), seed=9)
    assert die.rolling and die.marks[0].shape.x != 210
    die.update(0.5)
    assert die.rolling and 1 <= die.face <= 4
    die.update(0.6)
    assert not die.rolling and die.face == 3
    assert die.marks[0].shape.position == pytest.approx((200 + 4 * np.cos(np.radians(die.angle)),
                                                        100 - 4 * np.sin(np.radians(die.angle))))
    die.show(2, angle=0.0, marked=True)
    assert painted[-1] == (2, True) and die.marks[0].shape.position == pytest.approx((204, 100))
    faces = tumble_faces(5, 8, seed=1)
    assert faces == tumble_faces(5, 8, seed=1) and faces[-1] == 5 and len(faces) == 8
    assert all(a != b for a, b in itertools.pairwise(faces))
    assert len(pip_positions(6)) == 6
    with pytest.raises(ValueError, match="1 to 6"):
        pip_positions(7)
    die.delete()


def test_a_night_in_the_smallest_window_stays_legible(gui):
    """At 800 x 560 the head table is not shrunk to a coaster, its title keeps clear of the north
    chair, and what happens now is said without running over the target die: there is no room
    for it beside the die, so it is said under the round, left of the target."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    with small_window(window):
        screen = _start(app, window, [Seat(PERSON)] + [Seat(COMPUTER, "mcts:ghost")] * 11, {})
        view = screen.view
        window.pump(3)
        head, *others = view.spots
        assert head.radius >= 70 and all(o.radius >= 50 for o in others)
        assert not view.phase_label.visible                           # no room beside the die
        assert view.set_label.text.startswith("Player 1 rolls")
        assert view.set_label.x + view.set_label.content_width < view.target_caption.x
        title = view.tables[0].title
        north_token = view.tokens.sprites[2]
        assert title.x < north_token.x - north_token.width / 2            # right-anchored, left of it


def test_in_a_window_just_wide_enough_what_happens_now_is_said_beside_the_target_die(gui):
    """At 920 x 560 the line on what happens now fits right of the target die once set smaller:
    it is shown there, and keeps clear of the die."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    with small_window(window, 920, 560):
        screen = _start(app, window, [Seat(PERSON)] + [Seat(COMPUTER, "mcts:ghost")] * 11, {})
        view = screen.view
        window.pump(3)
        phase = view.phase_label
        assert phase.visible and phase.text.startswith("Player 1 rolls")
        assert phase.font_size < 13                                       # made to fit: set smaller
        assert phase.x - phase.content_width > view.target_die.x + view.target_die.size / 2
        assert view.set_label.text.startswith("set 1 of 1")               # and not said twice


def test_the_head_tables_title_is_whole(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    seats = [Seat(PERSON)] + [Seat(COMPUTER, "random")] * 7
    screen = _start(app, window, seats, {"tables": 2})
    view = screen.view
    for drawing in view.tables:
        assert drawing.title.x - drawing.title.content_width >= view.area[0]   # 'Table 1 (head)' was cut
    assert view.tables[0].title.text == "Table 1 (head)"


def test_a_computer_player_is_said_to_roll_not_to_think(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    app.start_game("bunko", {}, [Seat(COMPUTER, "random")] * 3 + [Seat(PERSON)], seed=4)
    screen = window.active_screen
    screen.controller.computer_delay = 60.0            # Player 1 (a computer) is about to roll
    assert screen.controller.current_player() == 0
    window.pump(1)
    assert screen.status.text.startswith("Player 1 is rolling")


def test_a_bunko_word_is_replaced_by_the_next_and_goes_sooner_at_instant_pace(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.games.bunko.view import FLASH_SECONDS

    window, app = gui
    screen = _start(app, window, [Seat(PERSON)] + [Seat(COMPUTER, "random")] * 3, {"pace": "instant"})
    view = screen.view
    view.flash("BUNKO!", view.spots[0], (255, 214, 90, 255))
    view.flash("BUNKO!", view.spots[0], (255, 214, 90, 255))
    assert len(view.flashes) == 1                      # not one word over another
    screen.controller.computer_delay = 60.0            # nothing else happens meanwhile
    view.update(FLASH_SECONDS["instant"] + 0.05)
    assert view.flashes == [] and FLASH_SECONDS["instant"] < FLASH_SECONDS["normal"]


def test_five_tables_in_a_small_window_do_not_overlap(gui):
    """20 players at 800 x 560: the four small tables in one row ran into each other (their
    chairs, plaques and records); they go in two rows, and a tiny table's plaques keep clear
    of its south chair."""
    import itertools

    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.games.bunko.room import room_layout

    spots = room_layout(5, 0, 0, 460, 540)
    for a, b in itertools.combinations(spots, 2):
        reach = a.radius + b.radius + 2 * (a.token_radius + b.token_radius)
        assert (a.x - b.x) ** 2 + (a.y - b.y) ** 2 >= reach ** 2
    wide = room_layout(5, 0, 0, 920, 780)                   # a big window: one row, as before
    assert len({round(s.y) for s in wide[1:]}) == 1
    window, app = gui
    with small_window(window):
        screen = _start(app, window, [Seat(PERSON)] + [Seat(COMPUTER, "random")] * 19, {"tables": 5})
        view = screen.view
        window.pump(2)
        for t, drawing in enumerate(view.tables):
            sx, sy = view.spots[t].chair(0)
            reach = view.spots[t].token_radius
            for plaque in drawing.plaques:            # the south chair's token not under a plaque
                nearest_x = min(max(sx, plaque.x), plaque.x + plaque.width)
                nearest_y = min(max(sy, plaque.y), plaque.y + plaque.height)
                assert (sx - nearest_x) ** 2 + (sy - nearest_y) ** 2 >= reach ** 2

        def box(name):                                # anchored at its centre
            w, h = name.content_width, name.content_height
            return name.x - w / 2, name.y - h / 2, name.x + w / 2, name.y + h / 2

        state = screen.controller.state
        for a, b in itertools.combinations(range(state.players), 2):
            if state.table_of(a)[0] == state.table_of(b)[0] or not view.tokens.names[a].text:
                continue
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = box(view.tokens.names[a]), box(view.tokens.names[b])
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a, b)   # records apart


def test_the_score_sheet_fits_a_small_window(gui):
    """At 800 x 560 the sheet's columns ran into each other ('WinsLossesBunkos', names over
    'Computer, ghost') and the colour chips hung out of the paper."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    with small_window(window):
        screen = _start(app, window, [Seat(PERSON)] + [Seat(COMPUTER, "random")] * 7, {"tables": 2})
        view = screen.view
        view.show_sheet(True)
        panel = view.sheet.panel
        left, right = panel.x, panel.x + panel.width

        def span(item):
            if hasattr(item, "content_width"):
                w = item.content_width
                x0 = {"left": item.x, "center": item.x - w / 2, "right": item.x - w}[item.anchor_x]
                return x0, x0 + w
            return item.x - item.radius, item.x + item.radius      # a chip
        for item in view.sheet.labels + [m for m in view.sheet.marks if hasattr(m, "radius")]:
            x0, x1 = span(item)
            assert left <= x0 and x1 <= right, getattr(item, "text", "chip")
        rows: dict[float, list] = {}
        for item in view.sheet.labels:
            if item.text:
                rows.setdefault(round(item.y), []).append(span(item))
        for spans in rows.values():                              # no two texts of a row touch
            spans.sort()
            assert all(a[1] < b[0] for a, b in itertools.pairwise(spans)), spans


def test_hovering_a_player_says_their_table_and_partner_first(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON)] + [Seat(COMPUTER, "random")] * 7, {"tables": 2})
    view = screen.view
    x, y = view.tokens.xy[5]
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    window.pump(1)
    table, chair = screen.controller.state.table_of(5)
    partner = screen.controller.state.chairs[table][(chair + 2) % 4]
    assert view.hint.startswith(f"Player 6: table {table + 1}, partner Player {partner + 1}")
    assert f"table {table + 1}" in screen.hint.text          # shown, even in a full panel


def _four_at_one_table(app, window):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    screen = _start(app, window, [Seat(PERSON)] + [Seat(COMPUTER, "random")] * 3, {"tables": 1, "pace": "instant"})
    screen.controller.autosave_path = None      # fast forward: no file written after every move
    return screen, screen.controller, screen.view


def _play_on(window, controller, until) -> None:
    from simulator.games.bunko.rules import Roll

    while not until():
        if controller.is_person_turn():
            controller.submit(Roll())
        controller.play_computer_moves(limit=1)
    window.pump(2)


def test_in_round_two_the_table_and_the_hint_name_the_partners_of_now(gui):
    """In round 2 the table said 'P2 & P4 won 24-10' beside its two new teams, in which P2 and P4
    were opponents, and the hint on the player under the mouse still named last round's partner:
    the caption says which round it tells of, and the hint follows the new seating."""
    window, app = gui
    screen, controller, view = _four_at_one_table(app, window)
    x, y = view.tokens.xy[0]                                    # Player 1 keeps chair 0 at one table
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    window.pump(1)
    assert view.hint.startswith("Player 1: table 1, partner Player 3")
    _play_on(window, controller, lambda: controller.state.round == 1)
    partner = controller.state.chairs[0][2]
    assert partner != 2                                          # the partners rotated
    assert view.hint.startswith(f"Player 1: table 1, partner Player {partner + 1};")
    assert f"partner Player {partner + 1}" in screen.hint.text
    result = controller.state.results[0]["tables"][0]
    a, b = result["score"]
    winners = [result["chairs"][c] + 1 for c in range(4) if c % 2 == result["winner"]]
    assert view.tables[0].caption.text == f"round 1: P{winners[0]} & P{winners[1]} won {max(a, b)}-{min(a, b)}"


def test_the_end_dialog_leaves_the_standings_in_sight_and_says_each_players_table(gui):
    """At the end of the night the dialog covered the standings and their title, and the sheet's
    Table column was empty: the dialog keeps clear of the sheet where the window has room (in the
    smallest one, it leaves the title, the column heads and the first three in sight), and Table
    says where each player sat in the last round."""
    window, app = gui
    screen, controller, view = _four_at_one_table(app, window)
    _play_on(window, controller, controller.is_over)
    assert screen.end.visible and view.sheet.visible
    try:
        for width, height in ((1920, 1080), (1280, 800), (800, 560)):
            window.set_size(width, height)
            window.dispatch_event("on_resize", width, height)
            window.pump(2)
            dialog, sheet = screen.end.panel, view.sheet.panel
            if height >= 800:                                    # room for both
                assert dialog.y >= sheet.y + sheet.height or dialog.y + dialog.height <= sheet.y
            lines = sorted({item.y for item in view.sheet.labels}, reverse=True)
            for item in view.sheet.labels:                        # title, heads, the first three
                if item.y >= lines[4]:
                    assert item.y - 4 >= dialog.y + dialog.height, (width, height, item.text)
        heading = next(item for item in view.sheet.labels if item.text == "Table")
        tables = [item.text for item in view.sheet.labels if item.x == heading.x and item is not heading]
        assert tables == [str(controller.state.table_of(seat)[0] + 1) for seat in controller.state.standings()]
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)
        window.pump(1)


def test_who_plays_never_runs_into_the_wins_column_at_the_end_of_the_night(gui):
    """In the bold winner row at 1920 x 1080, 'Computer (random)' ran into the Wins figures."""
    window, app = gui
    _screen, controller, view = _four_at_one_table(app, window)
    _play_on(window, controller, controller.is_over)
    try:
        window.set_size(1920, 1080)
        window.dispatch_event("on_resize", 1920, 1080)
        window.pump(2)
        heading = next(item for item in view.sheet.labels if item.text == "Wins")
        wins = [item for item in view.sheet.labels if item.x == heading.x and item is not heading]
        computers = [item for item in view.sheet.labels if item.text.startswith("Computer")]
        assert computers
        for who in computers:
            figure = next(item for item in wins if abs(item.y - who.y) < 1)
            assert who.x + who.content_width + 6 <= figure.x - figure.content_width, who.text
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)
        window.pump(1)
