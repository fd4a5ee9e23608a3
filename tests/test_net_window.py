"""The joiner's window: a host in the test process (the referee, stepped on a thread of its own)
and the program's window joined to one of its seats, as `bandu-sim join` and the menu's Join
screen open it. The host's moves show in the joiner's view and log, the joiner's moves made in
the window are played at the host, refusals are said, hidden hands stay hidden, a seat away is
waited for, a dropped line is rejoined, and a wrong code is refused in one line."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hosted_table import Table
from window_driver import button_named, click_on, press, pump_until

from simulator.core.errors import IllegalAction
from simulator.core.state import OUTCOME
from simulator.net.joiner import JoinError
from simulator.net.protocol import encode

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parent.parent


def joined(window, table: Table, seat: int = 0):
    """The window joined to the table's `seat`, as `bandu-sim join` opens it."""
    app = window.top.app
    app.join_game(table.address, table.host.codes[seat])
    screen = window.top
    assert screen.title == "remote game"
    return screen


def own_move(window, screen, rng: random.Random) -> str:
    """Wait for the joiner's turn and make a random legal move through the view; its notation."""
    pump_until(window, screen.controller.is_person_turn)
    state = screen.controller.state
    action = state.random_action(rng)
    assert screen.view.submit(action), screen.toast.message
    return state.action_to_str(action)


# --- a game with nothing hidden ---------------------------------------------------------------------

def test_the_joiners_window_shows_the_hosts_moves_and_its_own_are_played_at_the_host(window, tables):
    table = tables("tanbo", ["remote", "mcts:easy"], {"size": 7})
    screen = joined(window, table)
    remote = screen.controller
    assert remote.person_seats() == [0] and remote.who_plays(1).startswith("Computer")
    rng = random.Random(4)
    notation = own_move(window, screen, rng)
    assert not remote.is_person_turn()                 # sent: no second move until the table comes
    with pytest.raises(IllegalAction, match="judging your move"):
        remote.submit(remote.state.random_action(rng))
    pump_until(window, lambda: remote.ply() >= 2)       # the host played it, the computer answered
    assert table.controller.history[0].action == notation
    assert [entry.action for entry in remote.history] == [e.action for e in table.controller.history[:2]]
    window.pump(2)
    assert screen.move_log.lines[:2] == [f"1. Black {notation}",
                                         f"2. White {table.controller.history[1].action}"]
    assert not screen.save_button.enabled and not screen.undo_button.enabled


def test_a_move_the_rules_refuse_is_said_at_once_and_one_the_host_refuses_when_it_answers(window, tables):
    table = tables("tanbo", ["remote", "mcts:easy"], {"size": 7})
    screen = joined(window, table)
    remote = screen.controller
    rng = random.Random(5)
    own_move(window, screen, rng)
    pump_until(window, remote.is_person_turn)
    taken = remote.state.action_from_str(remote.history[0].action)      # a point already taken
    assert not screen.view.submit(taken)
    assert screen.toast.error and screen.toast.message
    ply = table.controller.ply()
    remote.joiner.send(encode("move", action=remote.history[0].action, ply=0))   # an old position
    pump_until(window, lambda: "the host refused" in screen.toast.message)
    assert "earlier position" in screen.toast.message and table.controller.ply() == ply


def test_a_remote_seat_away_is_waited_for_and_a_dropped_line_is_rejoined(window, tables):
    table = tables("tanbo", ["remote", "remote"], {"size": 7})
    screen = joined(window, table)
    window.pump(2)
    assert screen.status.text.startswith("The host paused the game: waiting for every player")
    white = table.join(1)                                 # White comes, and goes again
    assert white.wait_until(lambda j: j.table is not None and not j.table["paused"])
    white.close()
    own_move(window, screen, random.Random(6))
    pump_until(window, lambda: screen.controller.ply() == 1)
    window.pump(2)
    assert screen.status.text.startswith("Waiting for White (disconnected)")
    assert "disconnected" in screen.seat_details[1].text
    screen.controller.joiner.connection.close()          # the line drops
    pump_until(window, lambda: screen.closed.visible)
    assert "lost" in screen.closed.body.text
    press(window, __import__("pyglet").window.key.ENTER)  # Rejoin, the dialog's first choice
    again = window.top
    assert again is not screen and again.title == "remote game"
    pump_until(window, lambda: again.controller.ply() == 1)
    assert len(again.controller.history) == 1


def test_the_host_closing_says_why_and_offers_the_menu(window, tables):
    table = tables("tanbo", ["remote", "mcts:easy"], {"size": 7})
    screen = joined(window, table)
    own_move(window, screen, random.Random(7))
    table.host.close()
    pump_until(window, lambda: screen.closed.visible)
    assert "the host closed the table" in screen.closed.body.text.lower()
    click_on(window, button_named(screen, "Menu"))
    assert window.top.title == "menu"


# --- hidden hands -------------------------------------------------------------------------------------

def test_a_joiner_of_a_game_with_hidden_hands_sees_its_own_hand_only(window, tables):
    table = tables("bandida", ["remote", "random"], {"mode": 2})
    screen = joined(window, table)
    remote = screen.controller
    rng = random.Random(8)
    for _ in range(3):
        own_move(window, screen, rng)
        pump_until(window, lambda: remote.is_person_turn() or remote.is_over())
        if remote.is_over():
            break
    with table.host.lock:
        seen_by_the_seat = table.controller.visible_state(0).to_dict()
        whole = table.controller.state.to_dict()
    assert remote.state.to_dict() == seen_by_the_seat and seen_by_the_seat != whole
    assert [entry.player for entry in remote.history] == [e.player for e in table.controller.history]
    window.pump(2)
    assert all(line for line in screen.move_log.lines)


# --- a tower judged at the host ----------------------------------------------------------------------------

def test_a_placement_made_in_the_joiners_window_is_judged_at_the_host_and_its_fall_played_back(window, tables):
    table = tables("bandu", ["remote", "random"], {"reserve": 8})
    screen = joined(window, table)
    remote = screen.controller
    rng = random.Random(9)
    for _ in range(30):                       # offers and takes until the joiner places a piece
        pump_until(window, lambda: remote.is_person_turn() or remote.is_over(), timeout=120)
        assert not remote.is_over()
        placing, plies = remote.state.phase == "place", remote.ply()
        own_move(window, screen, rng)
        if placing:
            # the physics runs at the host; its frames are played back here, the same fall
            pump_until(window, lambda: remote.outcome_in_progress() is not None, timeout=120)
            pump_until(window, lambda: screen.view.playback.frame is not None, timeout=60)
            pump_until(window, lambda p=plies: any(e.player == OUTCOME for e in remote.history[p:]),
                       timeout=120)
            assert remote.outcome.done()        # the table after it waited for the playback
            break
    else:
        pytest.fail("the joiner never placed a piece")
    pump_until(window, lambda: remote.is_person_turn() or remote.is_over(), timeout=120)
    with table.host.lock:
        towers, ply = [list(tower) for tower in table.controller.state.towers], table.controller.ply()
    assert remote.ply() == ply and [list(tower) for tower in remote.state.towers] == towers
    pieces = {piece for tower in towers for piece in tower}
    window.pump(2)
    assert pieces and set(screen.view.tower_poses) >= pieces


# --- joining ---------------------------------------------------------------------------------------------

def test_join_with_a_wrong_code_exits_2_with_one_line(tables, tmp_path):
    table = tables("tanbo", ["remote", "mcts:easy"])
    done = subprocess.run([sys.executable, "-m", "simulator", "join", table.address, "AAAA-BBBB-CCCC-DDDD"],
                          cwd=ROOT, text=True, capture_output=True, timeout=60,
                          env={**os.environ, "BANDU_SIM_HOME": str(tmp_path)})
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "no seat of this table has that code" in done.stderr
    with pytest.raises(JoinError, match="no address"):
        __import__("simulator.net.remote_game", fromlist=["join_game"]).join_game("nowhere", "AAAA")


def test_the_menus_join_screen_refuses_a_wrong_code_then_joins_by_keyboard(window, tables):
    from pyglet.window import key

    table = tables("tanbo", ["remote", "mcts:easy"], {"size": 7})
    click_on(window, button_named(window.top, "Join a game"))
    screen = window.top
    assert screen.title == "join" and screen.focused_field is screen.address
    window.dispatch_event("on_text", table.address)
    press(window, key.TAB)
    assert screen.focused_field is screen.code
    window.dispatch_event("on_text", "AAAA-BBBB-CCCC-DDDD")
    press(window, key.ENTER)
    pump_until(window, lambda: not screen.joining)
    assert window.top is screen and "no seat of this table has that code" in screen.message.text
    for _ in "AAAA-BBBB-CCCC-DDDD":
        window.dispatch_event("on_text_motion", key.MOTION_BACKSPACE)
    window.dispatch_event("on_text", table.host.codes[0])
    press(window, key.ENTER)
    pump_until(window, lambda: not screen.joining)
    assert window.top.title == "remote game"
    press(window, key.ESCAPE)                       # leave (no move made: at once)
    assert window.top.title == "menu"
    click_on(window, button_named(window.top, "Join a game"))
    press(window, key.ESCAPE)
    assert window.top.title == "menu"
