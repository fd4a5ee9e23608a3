"""The host's window: a seat chosen Remote in the new-game screen (or `remote` in `bandu-sim
play --players`) makes Start host the game in the window; the join codes show, the game waits
for every seat, a joiner's moves are played at the host and the host's moves reach the joiner,
a seat left empty goes to the computer with Ctrl+T; and two windows on one machine, one hosting
and one joined, play a whole Bandu game with every placement judged at the host and seen
falling in both."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from window_driver import button_named, click_on, press, pump_until

from simulator.core.state import OUTCOME
from simulator.net.joiner import Joiner, join_line

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parent.parent


def keys():
    """pyglet's key names (pyglet.window opens the display: imported once the tests have one)."""
    from pyglet.window import key

    return key


def hosted(window, game: str, seat_options: list[str], settings: dict | None = None):
    """Start `game` from its new-game screen with these seat options ('Person', 'Remote', a
    computer's label) and settings (name: the choice's label), as a person clicks them; the
    hosting screen."""
    app = window.top.app
    app.open_new_game(game)
    screen = window.top
    count = str(len(seat_options))
    if screen.count_row.options[screen.count_row.selected].text.text != count:
        click_on(window, next(b for b in screen.count_row.options if b.text.text == count))
    for row, option in zip(screen.seat_rows, seat_options, strict=True):
        click_on(window, next(b for b in row.options if b.text.text == option))
    for name, choice in (settings or {}).items():
        row = next(r for s, r in screen.setting_rows if s.name == name)
        click_on(window, next(b for b in row.options if b.text.text == choice))
    click_on(window, screen.start)
    hosting = window.top
    assert hosting.title == "hosted game", window.top.toast.message
    return hosting


def joiner_of(screen, seat_name: str) -> Joiner:
    """A joiner with the line the codes dialog shows for `seat_name`."""
    lines = screen.codes.body.text.splitlines()
    line = lines[lines.index(f"{seat_name}:") + 1]
    found = join_line(line)
    assert found is not None, line
    return Joiner(*found)


def test_a_remote_seat_hosts_the_game_shows_its_code_and_waits_for_it(window):
    screen = hosted(window, "tanbo", ["Person", "Remote"], {"board": "7 x 7"})
    host, controller = screen.host, screen.controller
    assert screen.codes.visible and host.codes[1] in screen.codes.body.text
    assert controller.played_elsewhere == {1} and controller.person_seats() == [0]
    click_on(window, button_named(screen, "Close"))
    window.pump(2)
    assert screen.status.text.startswith("Waiting for White to join")
    assert "not joined yet" in screen.seat_details[1].text
    move = controller.state.random_action(random.Random(1))
    assert not screen.view.submit(move)                      # nobody moves before the table is full
    assert "waiting for every player" in screen.toast.message
    white = joiner_of(screen, "White")
    pump_until(window, lambda: white.table is not None and not white.table["paused"])
    assert screen.view.submit(move)                          # Black, at the host's window
    pump_until(window, lambda: white.my_turn())
    assert white.log == [[0, controller.history[0].action]]
    assert screen.status.text.startswith("Waiting for White at another machine")
    with pytest.raises(Exception, match="another machine"):
        controller.submit(controller.state.random_action(random.Random(2)))   # not the host's seat
    state = controller.state.clone()
    answer = state.action_to_str(state.random_action(random.Random(3)))
    white.move(answer)
    pump_until(window, lambda: controller.ply() == 2)
    assert controller.history[1].action == answer
    window.pump(2)
    assert screen.move_log.lines[1] == f"2. White {answer}"
    # no undo across machines; the Codes button has its place
    assert button_named(screen, "Codes") and not controller.can_undo()
    press(window, keys().U)
    assert "not taken back" in screen.toast.message
    # White's line drops: waited for on its turn, then handed to the computer with Ctrl+T
    pump_until(window, controller.is_person_turn)
    assert screen.view.submit(controller.state.random_action(random.Random(4)))
    white.close()
    pump_until(window, lambda: 1 in host.away_since and controller.current_player() == 1)
    window.pump(2)
    assert screen.status.text.startswith("Waiting for White (disconnected)")
    press(window, keys().T, keys().MOD_CTRL)
    assert controller.seats[1].is_computer and host.handed_over == [1]
    pump_until(window, lambda: controller.ply() >= 4 or controller.is_over())


def test_the_codes_copy_to_the_clipboard_and_a_pasted_line_fills_the_join_screen(window):
    screen = hosted(window, "buddel_bande", ["Person", "Remote"])
    copied: list[str] = []
    window.set_clipboard_text = copied.append
    click_on(window, button_named(screen, "Copy"))
    assert copied and f"{screen.host.address} {screen.host.codes[1]}" in copied[0]
    assert join_line(copied[0]) == (screen.host.address, screen.host.codes[1])
    click_on(window, button_named(screen, "Close"))
    window.top.app.open_join()                        # the friend's Join screen, the line pasted
    join_screen = window.top
    window.get_clipboard_text = lambda: copied[0]
    window.dispatch_event("on_text_motion", keys().MOTION_PASTE)
    window.pump(1)
    assert (join_screen.address.text, join_screen.code.text) == (screen.host.address, screen.host.codes[1])
    press(window, keys().ESCAPE)


def test_a_game_with_hidden_hands_needs_a_person_at_the_hosts_window(window):
    app = window.top.app
    app.open_new_game("bandida")
    screen = window.top
    click_on(window, next(b for b in screen.count_row.options if b.text.text == "2"))
    for row in screen.seat_rows:
        click_on(window, next(b for b in row.options if b.text.text == "Remote"))
    click_on(window, screen.start)
    assert window.top is screen and "needs a person at this machine" in screen.toast.message


# --- two windows, one hosting, one joined -----------------------------------------------------------

def test_two_windows_play_a_whole_bandu_game_every_fall_judged_at_the_host_and_seen_in_both(window):
    """Player 1 at the host's window, Player 2 in a second window, a program of its own
    (tests/joiner_window.py, joined with the line the codes dialog shows), a computer at the
    host; every placement is judged once, at the host, and its fall is played back in both
    windows' views from the same frames."""
    host_screen = hosted(window, "bandu", ["Person", "Remote", "Easy"], {"reserve": "12 pieces"})
    controller = host_screen.host.controller
    address, code = join_line(next(text for _, text in host_screen.join_lines()))
    seen_at_host: set[int] = set()
    follow = host_screen.view.playback.follow

    def following(pending) -> None:
        follow(pending)
        if pending is not None and host_screen.view.playback.frame is not None:
            seen_at_host.add(controller.ply())

    host_screen.view.playback.follow = following
    joiner = subprocess.Popen([sys.executable, str(ROOT / "tests" / "joiner_window.py"), address,
                               code, "11"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        rng = random.Random(12)
        deadline = time.monotonic() + 900
        while joiner.poll() is None or not controller.is_over() or host_screen.view.still_showing():
            assert time.monotonic() < deadline, "the game did not end"
            window.pump(1)
            if controller.is_person_turn() and not host_screen.view.still_showing():
                assert host_screen.view.submit(controller.state.random_action(rng)), host_screen.toast.message
            time.sleep(0.005)
        output, errors = joiner.communicate(timeout=60)
    finally:
        if joiner.poll() is None:
            joiner.kill()
    assert joiner.returncode == 0, errors
    joined = json.loads(output.strip().splitlines()[-1])
    outcomes = {index for index, entry in enumerate(controller.history) if entry.player == OUTCOME}
    assert len(outcomes) >= 3                      # a whole game: towers built until they fell
    assert seen_at_host == outcomes, (sorted(outcomes), sorted(seen_at_host))
    assert set(joined["seen"]) == outcomes, (sorted(outcomes), joined["seen"])
    assert joined["over"] and joined["end_shown"]
    assert joined["history"] == [[entry.player, entry.action] for entry in controller.history]
    assert joined["winners"] == controller.state.winners()
    window.pump(2)
    assert host_screen.end.visible


def test_play_with_a_remote_player_hosts_from_the_command_line_and_says_an_address_it_cannot_take(x_display):
    """`bandu-sim play tanbo --players person,remote` (and --bind), each in a program of its own."""
    shown = ("from simulator.app.main import build_app; "
             "w, a = build_app(game='tanbo', players=['person', 'remote'], width=900, hosting=HOSTING); "
             "s = w.top; print(s.title, getattr(s, 'host', None) and s.host.remote, "
             "getattr(s, 'host', None) and s.host.bind, s.toast.message); a.shutdown(); w.close()")
    here = subprocess.run([sys.executable, "-c", shown.replace("HOSTING", "('127.0.0.1', 0)")],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert here.stdout.startswith("hosted game [1] 127.0.0.1"), here.stderr
    elsewhere = subprocess.run([sys.executable, "-c", shown.replace("HOSTING", "('192.0.2.1', 0)")],
                               capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert elsewhere.stdout.startswith("menu None None cannot host at 192.0.2.1:0"), elsewhere.stderr
