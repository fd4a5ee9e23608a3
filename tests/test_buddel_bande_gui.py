"""Buddel Bande in the window under Xvfb: a game played with the mouse through the window's
event handlers (lit moles, the hovered move's preview, a refused click's reason, look and done,
undo before the look), the dice thrown, the computer's turns told in the log, the peek hidden
from the next person at the machine, and screenshots checked for the meadow, the haystack, the
holes, the moles and the dice."""

from __future__ import annotations

import numpy as np
import pytest
from window_driver import (
    button_named,
    click,
    click_on,
    frame,
    press,
    share,
    small_window,
    wait_for_person,
)

from simulator.games.buddel_bande.rules import DEN_ENTRANCE, IN_DEN

pytestmark = pytest.mark.gui


def is_grass(r, g, b):
    return (g > r + 25) & (g > b + 35) & (g > 80)


def is_straw(r, g, b):
    return (r > 170) & (g > 130) & (b < 120) & (r > b + 80)


def is_hole(r, g, b):
    return (r < 45) & (g < 35) & (b < 30)


def is_mole_fur(r, g, b):
    return (abs(r - g) < 18) & (abs(g - b) < 18) & (r > 55) & (r < 130)


def is_die(r, g, b):
    return (r > 225) & (g > 220) & (b > 200)


def _start(app, window, seats, settings=None, seed=3):
    app.start_game("buddel_bande", settings or {}, seats, seed=seed)
    screen = window.active_screen
    screen.controller.computer_delay = 0.0
    window.pump(2)
    return screen


def _phase(screen) -> str:
    return screen.controller.state.to_dict()["phase"]


def _mole_target(view):
    """A lit mole (an action and where it is drawn)."""
    found = [(a, x, y) for a, x, y, _ in view.pointer.targets if a.kind == "mole"]
    return found[0] if found else None


def _mole_to_a_hole(view, also=lambda mole: True):
    """A lit mole that runs to a hole (so the look follows), and for which also(mole) holds; or
    None. An action and where the mole is drawn."""
    state = view.state
    found = [(a, x, y) for a, x, y, _ in view.pointer.targets if a.kind == "mole"
             and state.destination(a.a, state.symbol) != DEN_ENTRANCE and also(a.a)]
    return found[0] if found else None


def _refused_moles(state):
    """The moles on the board (or the haystack) that the roll does not let the player move."""
    return [m for m in range(len(state.pos)) if state.pos[m] != IN_DEN
            and not any(a.kind == "mole" and a.a == m for a in state.legal_actions())]


def _play_until_a_mole_move(window, screen, wanted=_mole_target):
    """Seat 0 moves with the mouse until wanted(view) finds a lit mole (other rolls: click the
    first lit move and do not look, then let the computers play); that target."""
    view = screen.view
    for _ in range(40):
        wait_for_person(window, screen)
        window.pump(1)
        found = wanted(view)
        if found:
            return found
        _action, x, y, _ = view.pointer.targets[0]
        click(window, x, y)
        if _phase(screen) == "look":
            click_on(window, view.card.buttons["no-look"])
    raise AssertionError("no such mole to move in 40 turns")


def test_the_board_is_drawn(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "mcts:easy"), Seat(COMPUTER, "mcts:easy")])
    window.pump(60)                                           # the dice land
    view = screen.view
    assert screen.title == "game" and len(view.meadow.dens) == 3 and len(view.animals.moles) == 9
    pixels = frame(window)
    assert share(pixels, is_grass) > 0.25                     # the meadow fills much of the window
    assert share(pixels, is_straw) > 0.004                    # the haystack
    assert share(pixels, is_hole) > 0.01                      # 24 holes and the den entrance
    assert share(pixels, is_mole_fur) > 0.004                 # nine moles on the haystack
    assert share(pixels, is_die) > 0.002                      # the two dice in their tray
    assert "Each turn" in view.turn_log.label.text or "(computer)" in view.turn_log.label.text


def test_a_turn_played_with_the_mouse(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "mcts:easy")], seed=5)
    controller, view = screen.controller, screen.view
    # a roll of one size, so that some mole may not move, and a lit mole that runs to a hole
    action, x, y = _play_until_a_mole_move(
        window, screen, lambda v: _refused_moles(v.state) and _mole_to_a_hole(v))
    state = controller.state
    assert view.dice.figure_die.rolling or controller.ply() > 0
    window.pump(60)
    assert not view.dice.figure_die.rolling
    # every move is lit; hovering one shows where it would go
    assert len(view.pointer.lights) == len([a for a in state.legal_actions() if a.kind in ("mole", "dog")])
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    window.pump(1)
    destination = state.destination(action.a, state.symbol)
    assert view.pointer.ghost.visible and view.pointer.hover_ring.visible
    assert view.hint.startswith(f"Mole {action.a + 1}") and (f"hole {destination}" in view.hint
                                                            or "den" in view.hint)
    assert " ".join(view.hint.split()) in " ".join(screen.hint.text.split())   # shown as it is
    # a mole the roll does not allow: the click says why and changes nothing
    others = _refused_moles(state)
    assert others
    plies = controller.ply()
    click(window, *view.board.mole_xy(state, others[0]))
    assert screen.toast.message and controller.ply() == plies
    # the click moves it; undo takes it back before the look
    click(window, x, y)
    assert controller.ply() == plies + 1
    assert _phase(screen) == "look"
    assert screen.undo_button.enabled
    press(window, __import__("pyglet").window.key.U)
    assert controller.ply() == plies and _phase(screen) == "move"
    click(window, x, y)
    assert _phase(screen) == "look"
    mine = view.state.clan[action.a] == 0                      # as far as seat 0 knows
    assert view.card.text.text.startswith("Your" if mine else "The")   # never a false 'your'
    click_on(window, view.card.buttons["look"])
    assert _phase(screen) == "peek"
    window.pump(2)
    assert view.card.peek_picture.visible and "Only you see this" in view.card.text.text
    assert not screen.undo_button.enabled                   # the look cannot be taken back
    pixels = frame(window)
    assert share(pixels, is_grass) > 0.2
    click_on(window, view.card.buttons["done"])
    assert not view.card.peek_picture.visible
    # the computer answers and the log tells what it did
    wait_for_person(window, screen)
    window.pump(2)
    assert "Ants (computer):" in view.turn_log.label.text
    newest = screen.move_log.lines[-1]            # the panel's move log shows the newest move
    assert newest.startswith(f"{len(screen.controller.history)}. ") and newest in screen.move_log.label.text


def test_a_turn_played_from_the_keyboard(gui):
    """Tab goes through the lit moves (each shown as on hover), Shift+Tab back, Enter makes the
    one shown; L and N answer the look."""
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "mcts:easy")], seed=5)
    controller, view = screen.controller, screen.view
    wanted, _, _ = _play_until_a_mole_move(window, screen, _mole_to_a_hole)   # its move: the look follows
    moves = [target[0] for target in view.pointer.targets]
    assert moves and view.pointer.hover is None
    seen = []
    for _ in moves:
        press(window, key.TAB)
        seen.append(view.pointer.hover)
        assert view.pointer.ghost.visible and view.pointer.hover_ring.visible and view.hint
    assert seen == moves                                      # each lit move once, in order
    press(window, key.TAB)
    assert view.pointer.hover == moves[0]
    press(window, key.TAB, key.MOD_SHIFT)
    assert view.pointer.hover == moves[-1]
    for _ in moves:                                           # on to the mole that runs to a hole
        if view.pointer.hover == wanted:
            break
        press(window, key.TAB)
    assert view.pointer.hover == wanted
    plies = controller.ply()
    chosen = controller.state.action_to_str(view.pointer.hover)
    press(window, key.ENTER)
    assert controller.ply() > plies and controller.history[plies].action == chosen
    assert _phase(screen) == "look"
    press(window, key.N)
    assert _phase(screen) != "look"


def test_the_peek_is_hidden_from_the_next_person(gui):
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(PERSON)], seed=8)
    controller, view = screen.controller, screen.view

    def hidden_from_the_ants(mole):                           # a ladybird mole seat 1 has not seen
        return controller.state.clan[mole] == 0 and not controller.state.knows(1, mole)

    # seat 0 plays until it can move such a mole to a hole, then looks under it
    for _ in range(40):
        window.pump(1)
        if screen.handover.visible:
            click_on(window, button_named(screen, f"I am {screen.controller.info.seat_name(controller.current_player())}"))
        found = controller.current_player() == 0 and _mole_to_a_hole(view, hidden_from_the_ants)
        if found:
            break
        action, x, y, _ = view.pointer.targets[0]
        click(window, x, y)
        if _phase(screen) == "look":
            click_on(window, view.card.buttons["no-look"])
    else:
        raise AssertionError("seat 0 never had such a mole to move in 40 turns")
    action, x, y = found
    click(window, x, y)
    mole = action.a
    press(window, __import__("pyglet").window.key.L)
    assert view.card.peek_picture.visible and view.state.clan[mole] == controller.state.clan[mole]
    press(window, __import__("pyglet").window.key.ENTER)
    window.pump(3)
    assert screen.handover.visible and not view.enabled
    pixels = frame(window)
    assert share(pixels, is_grass) < 0.01                     # the table is hidden meanwhile
    click_on(window, button_named(screen, "I am Ants"))
    window.pump(2)
    assert screen.viewer == 1 and view.enabled and not view.card.peek_picture.visible
    assert controller.state.clan[mole] != 1                   # not the ants' own mole, so:
    assert view.state.clan[mole] == -1                        # seat 1 does not know what seat 0 saw
    assert "looked under it" in view.turn_log.label.text
    assert "ants" not in view.describe_move("arrange ants large")      # the haystack stays secret


def test_a_screenshot_with_a_lit_move(gui, tmp_path):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON)] + [Seat(COMPUTER, "mcts:easy")] * 3, seed=4)
    _play_until_a_mole_move(window, screen)
    _action, x, y = _mole_target(screen.view)
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    window.pump(60)
    path = window.take_screenshot(tmp_path / "buddel.png")
    assert path.exists() and path.stat().st_size > 50_000
    lit = frame(window)
    for light in screen.view.pointer.lights:                  # the same table without the lights
        light.visible = False
    unlit = frame(window)
    for light in screen.view.pointer.lights:
        light.visible = True
    height = lit.shape[0]
    for _, tx, ty, radius in screen.view.pointer.targets:
        rows = slice(int(height - ty - radius * 1.4), int(height - ty + radius * 1.4))
        columns = slice(int(tx - radius * 1.4), int(tx + radius * 1.4))
        change = np.abs(lit[rows, columns, :3].astype(int) - unlit[rows, columns, :3].astype(int)).sum(-1)
        assert (change > 25).mean() > 0.05                   # a glowing ring around every lit move


def test_a_finished_game_replays_move_by_move(gui):
    from simulator.core.controller import COMPUTER, Seat

    window, app = gui
    screen = _start(app, window, [Seat(COMPUTER, "random")] * 2, seed=6)
    screen.controller.play_computer_moves()
    assert screen.controller.is_over()
    window.pump(2)
    assert app.replay_game(screen.controller)
    replay = window.active_screen
    view = replay.view
    total = replay.replay.total
    for ply in (0, 3, 6, 40, total // 2, total):
        replay.seek(ply)
        window.pump(2)
        state = view.state
        shown = sum(sprite.visible or turned.visible for sprite, turned in zip(view.animals.moles, view.animals.turned, strict=True))
        assert shown == len(state.pos)                       # only the moles arranged so far
    assert "are all home" in view.card.text.text
    pixels = frame(window)
    assert share(pixels, is_grass) > 0.2


def test_the_game_plays_on_in_a_small_window(gui):
    """At 800 x 560 the figure die is small: its mole faces gave pyglet an ellipse of no
    segments and the program died (ZeroDivisionError)."""
    from pyglet.graphics import Batch, Group

    from simulator.core.controller import COMPUTER, Seat
    from simulator.games.buddel_bande.dice_tray import ellipse

    tiny = Batch()
    ellipse(0, 0, 0.6, 0.4, (1, 2, 3), tiny, Group())        # pyglet alone divides by zero here
    tiny.draw()
    window, app = gui
    with small_window(window):
        screen = _start(app, window, [Seat(COMPUTER, "random"), Seat(COMPUTER, "random")], seed=4)
        for _ in range(200):                      # every face of the die comes up meanwhile
            window.pump(1)
            if screen.controller.is_over():
                break
        assert screen.controller.ply() > 20


def test_the_log_keeps_inside_its_box(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "random"), Seat(COMPUTER, "random")])
    view = screen.view
    long = "Worms (computer): dog or any mole + flower; ran the medium mole from the haystack to hole 5, looked under it."
    view.turn_log.lines = [long, long.replace("Worms", "Ants"), "Ladybirds: large mole + leaf; ran the large mole from hole 2 to hole 9."]
    view.turn_log.fit()
    assert view.turn_log.label.content_height <= view.turn_log.box.height - 12   # it ran onto the meadow
    assert view.turn_log.label.text.endswith("to hole 9.")                          # the newest turn stays


def test_the_dog_sits_beside_its_own_hole(gui):
    """On the half turns the dog sat inside the turn, where the spots beside neighbouring holes
    nearly meet: beside hole 17 it looked to sit between 17 and 18. The spots beside any two
    holes lie a dog's width apart, each clearly nearest its own hole, and the dog is drawn there."""
    import math

    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.games.buddel_bande.board import DOG_WIDTH
    from simulator.games.buddel_bande.rules import DEN_ENTRANCE, HOLES

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "random")])
    view, controller = screen.view, screen.controller
    spots = {hole: view.board.dog_xy(hole) for hole in range(1, HOLES + 1)}
    for hole, spot in spots.items():
        own = math.dist(spot, view.board.hole_xy(hole))
        others = min(math.dist(spot, view.board.hole_xy(h)) for h in range(1, DEN_ENTRANCE + 1) if h != hole)
        assert own < 0.65 * others, hole
        nearest = min(math.dist(spot, spots[h]) for h in spots if h != hole)
        assert nearest >= DOG_WIDTH * view.board.unit, hole
    controller.state.dog = 17
    controller.version += 1
    for _ in range(90):                                          # the dog runs there
        window.pump(1)
    assert math.dist((view.animals.dog.x, view.animals.dog.y), spots[17]) < 1


def test_the_first_player_is_chosen_among_the_seats_there_are(gui):
    """With 2 players the first-player row still showed seats 3 and 4 (greyed out): it shows the
    seats there are, numbered from 1; one chosen at a larger table goes back to seat 1."""
    from pyglet.window import key

    window, app = gui
    app.open_new_game("buddel_bande")
    screen = window.top
    window.pump(1)
    row = next(row for setting, row in screen.setting_rows if setting.name == "first")

    def offered() -> list[str]:
        return [b.text.text for b in row.options if b.visible]

    players = {b.text.text: b for b in screen.count_row.options}
    click_on(window, players["2"])
    assert offered() == ["1", "2"]
    click_on(window, players["4"])
    assert offered() == ["1", "2", "3", "4"]
    click_on(window, row.options[3])
    click_on(window, players["2"])
    assert offered() == ["1", "2"] and row.options[row.selected].text.text == "1"
    assert screen.settings()["first"] == 0
    visited = set()
    for _ in range(len(screen.buttons)):                          # Tab lands on no seat not shown
        press(window, key.TAB)
        visited.add(screen.focus.focused)
    assert not {b for b in row.options if not b.visible} & visited
    press(window, key.ESCAPE)


def test_in_the_smallest_window_the_title_fits_the_narrower_panel(gui):
    """At 800 x 560 the side panel is 248 px: "Buddel Bande" at the heading's 26 points would be
    cut; it is set smaller so that the whole title shows."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    window.set_size(800, 560)
    window.dispatch_event("on_resize", 800, 560)
    try:
        screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "random")])
        window.pump(2)
        assert screen.panel_width < 320
        assert screen.heading.text == "Buddel Bande"
        assert screen.heading.content_width <= screen.panel_width - 40
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)
        window.pump(1)


def test_ones_own_moles_stay_marked_after_the_first_round(gui):
    """The play-test: with "Own moles: known from the start" the marks on one's own moles went
    after the first round, and nothing said one had to remember them. They stay, all game."""
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "mcts:easy")], seed=5)
    controller, view = screen.controller, screen.view
    assert controller.state.know_own
    moved = set()
    for _ in range(40):
        if controller.state.turns >= 5 and moved:
            break
        wait_for_person(window, screen)
        window.pump(1)
        action, x, y, _ = view.pointer.targets[0]
        click(window, x, y)
        if action.kind == "mole":
            moved.add(action.a)
        if _phase(screen) == "look":
            click_on(window, view.card.buttons["no-look"])
    wait_for_person(window, screen)
    window.pump(2)
    state = controller.state
    assert state.turns >= 5 and moved
    marked = {m for m in range(len(state.pos)) if view.animals.own_marks[m].visible}
    own = {m for m in range(len(state.pos)) if state.clan[m] == 0 and state.pos[m] != IN_DEN}
    assert marked == own and own
