"""Play across machines with real sockets on the loopback interface: a host (the referee) and
joiners that play whole games of every game by the wire; codes, refusals of every kind of bad
message, a dropped joiner rejoining, an empty seat handed to the computer, and the headless host
of the command line killed and resumed."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from simulator.core.controller import TurnController
from simulator.core.state import OUTCOME
from simulator.net import codes
from simulator.net.joiner import Joiner, JoinError, join_line
from simulator.net.protocol import FROM_JOINER, VERSION, ProtocolError, RateLimit, decode, encode
from simulator.net.scripted import play_to_the_end, random_move

ROOT = Path(__file__).resolve().parent.parent


# --- the wire ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "words"), [
    ("not json", "one JSON object"), ("[1, 2]", "one JSON object"),
    ('{"type": "move", "action": "a1", "ply": 0}', "protocol version None"),
    ('{"v": 99, "type": "ping"}', "protocol version 99"), ('{"v": true, "type": "ping"}', "version"),
    ('{"v": 1, "type": "shout"}', "unknown message type"),
    ('{"v": 1, "type": "move", "action": "a1"}', "'ply' is missing"),
    ('{"v": 1, "type": "move", "action": "a1", "ply": true}', "'ply' is missing or of the wrong kind"),
    ('{"v": 1, "type": "move", "action": 7, "ply": 0}', "'action'"),
    ('{"v": 1, "type": "move", "action": "' + "x" * 300 + '", "ply": 0}', "at most 200"),
    ('{"v": 1, "type": "ping", "x": NaN}', "one JSON object"),
    ("x" * 5000, "at most 4096"),
])
def test_a_message_not_of_the_protocol_is_refused_in_one_line(text, words):
    with pytest.raises(ProtocolError, match=words) as refused:
        decode(text, FROM_JOINER, 4096)
    assert "\n" not in str(refused.value)


def test_the_rate_limit_lets_a_burst_through_then_one_message_per_step():
    limit = RateLimit(rate=10, burst=5)
    assert [limit.allow(now=0.0) for _ in range(6)] == [True] * 5 + [False]
    assert limit.allow(now=0.1) and not limit.allow(now=0.1)


def test_codes_are_long_random_and_compared_whole():
    made = {codes.new_code() for _ in range(200)}
    assert len(made) == 200 and all(len(codes.normalized(c)) == 16 for c in made)
    code = next(iter(made))
    assert codes.same_code(code.lower().replace("-", " "), code)
    assert not codes.same_code(code[:-1], code) and not codes.same_code("", code)
    keeper = codes.Doorkeeper(first=0.5, most=2.0)
    for _wrong in range(5):
        keeper.wrong("10.0.0.1")
    assert keeper.delay("10.0.0.1") == 2.0 and keeper.delay("10.0.0.2") == 0.0
    keeper.right("10.0.0.1")
    assert keeper.delay("10.0.0.1") == 0.0


# --- whole games -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "players", "settings"), [
    ("tanbo", ["remote", "remote"], {}),
    ("bandida", ["remote", "remote", "random"], {"mode": 2}),
    ("bunko", ["remote", "remote", "random", "random"], {}),
    ("buddel_bande", ["remote", "remote", "random"], {}),
    ("bandu", ["remote", "remote", "random"], {"reserve": 12}),
])
def test_each_game_plays_to_the_end_between_joiners_and_ends_as_at_the_host(tables, game, players, settings):
    table = tables(game, players, settings)
    joiners = [table.join(seat) for seat in table.host.remote]
    results: list[dict] = [{} for _ in joiners]
    threads = [threading.Thread(target=lambda k=k: results.__setitem__(k, play_to_the_end(joiners[k], k, timeout=300)))
               for k in range(len(joiners))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert table.controller.is_over(), (results, [j.refusals[-3:] for j in joiners])
    for joiner, result in zip(joiners, results, strict=True):
        assert result["over"], result
        assert result["winners"] == table.controller.state.winners()
        assert joiner.table["ply"] == table.controller.ply() and len(joiner.log) == table.controller.ply()
        assert not joiner.refusals


def test_a_finished_networked_game_is_an_ordinary_save(tables, tmp_path):
    table = tables("tanbo", ["remote", "mcts:easy"], {"size": 7})
    joiner = table.join(0)
    assert play_to_the_end(joiner, 1, timeout=120)["over"]
    path = table.controller.save(tmp_path / "networked.json")
    again = TurnController.load(path)
    assert again.is_over() and again.state == table.controller.state
    again.close()


# --- no one acts where they do not belong ----------------------------------------------------------

def test_a_wrong_code_is_refused_and_the_next_answer_comes_later(tables):
    table = tables("tanbo", ["remote", "remote"])
    started = time.monotonic()
    with pytest.raises(JoinError, match="no seat of this table has that code"):
        Joiner(table.address, "AAAA-BBBB-CCCC-DDDD")
    first = time.monotonic() - started
    started = time.monotonic()
    with pytest.raises(JoinError, match="no seat of this table has that code"):
        Joiner(table.address, "AAAA-BBBB-CCCC-DDDE")
    assert time.monotonic() - started >= first + 0.4          # slowed down after the first
    with pytest.raises(JoinError, match="no table answers"):
        Joiner("127.0.0.1:1", "AAAA")


def test_out_of_turn_replayed_malformed_and_flooding_messages_change_nothing(tables):
    table = tables("tanbo", ["remote", "remote"])
    black, white = table.join(0), table.join(1)
    assert black.wait_until(lambda j: j.table is not None) and white.wait_until(lambda j: j.table is not None)
    before = table.controller.state.clone()
    white.move(random_move(black, __import__("random").Random(1)))      # not White's turn
    white.send('{"v": 1, "type": "move"')                                 # cut short
    white.send(encode("hello", code=table.host.codes[1]))                # twice
    black.send(encode("move", action="a1 b2 c3", ply=0))                 # no move of Tanbo
    assert white.wait_until(lambda j: len(j.refusals) >= 3) and black.wait_until(lambda j: j.refusals)
    assert white.refusals[:3] == ["it is not your turn", "a message is one JSON object",
                                  "you have joined already"]
    assert "Tanbo" in black.refusals[0] or "not" in black.refusals[0]
    notation = random_move(black, __import__("random").Random(2))
    black.move(notation)
    assert black.wait_until(lambda j: j.table["ply"] == 1)
    black.send(encode("move", action=notation, ply=0))                   # the same move again
    assert black.wait_until(lambda j: len(j.refusals) == 2)
    assert "earlier position" in black.refusals[1] and table.controller.ply() == 1
    assert before.legal_actions()                                         # it was a position
    for _ in range(120):                                                  # a flood
        white.send(encode("ping"))
    assert white.wait_until(lambda j: any("slow down" in r for r in j.refusals), timeout=10)
    assert table.controller.ply() == 1


def test_a_watcher_sees_the_table_and_cannot_move(tables):
    table = tables("tanbo", ["remote", "remote"])
    watcher = table.join(None)
    assert watcher.seat is None and watcher.wait_until(lambda j: j.table is not None)
    watcher.send(encode("move", action="c1", ply=0))
    assert watcher.wait_until(lambda j: j.refusals) and watcher.refusals == ["a watcher makes no moves"]


# --- faults ----------------------------------------------------------------------------------------

def test_a_dropped_joiner_is_waited_for_and_rejoins_to_the_table_as_it_is(tables):
    table = tables("tanbo", ["remote", "remote"])
    black, white = table.join(0), table.join(1)
    rng = __import__("random").Random(5)
    for _ in range(4):
        for joiner in (black, white):                 # both see the newest table first
            assert joiner.wait_until(lambda j: j.table is not None and not j.table["paused"]
                                     and j.table["ply"] == table.controller.ply())
        mover = black if black.my_turn() else white
        assert mover.wait_until(lambda j: j.my_turn())
        ply = mover.table["ply"]
        mover.move(random_move(mover, rng))
        assert mover.wait_until(lambda j, p=ply: j.table["ply"] > p)
    white.connection.close()                          # the line drops, no goodbye
    assert black.wait_until(lambda j: j.table["waiting"] == [1])
    again = table.join(1)
    assert again.wait_until(lambda j: j.table is not None)
    assert again.table["ply"] == table.controller.ply() == 4 and len(again.log) == 4
    assert black.wait_until(lambda j: j.table["waiting"] == [])


def test_a_seat_left_empty_on_its_turn_is_handed_to_the_computer(tables):
    table = tables("tanbo", ["remote", "remote"], hand_over_after=0.5)
    black = table.join(0)                             # White never comes
    rng = __import__("random").Random(3)
    black.wait_until(lambda j: j.my_turn())
    black.move(random_move(black, rng))
    assert black.wait_until(lambda j: j.table["handed_over"] == [1] and j.table["ply"] >= 2, timeout=30)
    assert table.controller.seats[1].is_computer


def _host_process(home: Path, *argv: str) -> tuple[subprocess.Popen, dict]:
    process = subprocess.Popen([sys.executable, "-m", "simulator", "host", *argv, "--json"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "BANDU_SIM_HOME": str(home)})
    line = process.stdout.readline()
    assert line, process.stderr.read()
    return process, json.loads(line)


def test_a_killed_host_resumes_from_its_autosave_with_the_same_codes(tmp_path):
    """The host process killed with SIGKILL mid-game; `host --resume` serves the same game on
    the same port with the same codes, and nothing played is lost."""
    process, hosted = _host_process(tmp_path, "tanbo", "--players", "remote,mcts:easy", "--seed", "4")
    try:
        joiner = Joiner(hosted["address"], hosted["codes"]["0"])
        rng = __import__("random").Random(8)
        for _ in range(3):
            assert joiner.wait_until(lambda j: j.my_turn())
            ply = joiner.table["ply"]
            joiner.move(random_move(joiner, rng))
            assert joiner.wait_until(lambda j, p=ply: j.table["ply"] >= p + 2)   # the computer answered
        played = joiner.table["ply"]
        log = list(joiner.log)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        assert joiner.wait_until(lambda j: j.closed_reason is not None, timeout=10)
    finally:
        process.kill()
        process.communicate()
    process, again = _host_process(tmp_path, "--resume")
    try:
        assert again["address"] == hosted["address"] and again["codes"] == hosted["codes"]
        back = Joiner(again["address"], again["codes"]["0"])
        assert back.wait_until(lambda j: j.table is not None)
        assert back.table["ply"] == played and back.log == log
        back.close()
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_host_refuses_bad_command_lines_in_one_line(tmp_path):
    for argv, words in ((["tanbo"], "needs a GAME and --players"),
                        (["tanbo", "--players", "person,mcts"], "a person plays as remote"),
                        (["tanbo", "--players", "mcts,mcts"], "at least one remote seat"),
                        (["tanbo", "--players", "remote,mcts:godlike"], "godlike"),
                        (["--resume"], "no hosted game to resume")):
        done = subprocess.run([sys.executable, "-m", "simulator", "host", *argv], cwd=ROOT, text=True,
                              capture_output=True, timeout=60,
                              env={**os.environ, "BANDU_SIM_HOME": str(tmp_path)})
        assert done.returncode == 2 and words in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr


def test_the_version_the_wire_speaks_is_the_documented_one():
    page = (ROOT / "docs" / "NETWORK.md").read_text(encoding="utf-8")
    assert f'"v": {VERSION}' in page
    for kind in ("hello", "move", "welcome", "table", "refused", "closed"):
        assert f"`{kind}`" in page


# --- secrets never leave the host --------------------------------------------------------------------

@pytest.mark.parametrize(("game", "players", "settings"), [
    ("bandida", ["remote", "remote", "remote"], {"mode": 2}),
    ("bandida", ["remote", "remote"], {"mode": 1}),
    ("buddel_bande", ["remote", "remote", "remote"], {}),
    ("buddel_bande", ["remote", "remote"], {"know_own": False}),
])
def test_every_byte_a_seat_is_sent_holds_no_other_seats_cards_or_clans(tables, game, players, settings):
    """Whole games between joiners, every message each joiner received kept: the states hold no
    other seat's hand (Bandida) and no clan the seat never came to know (Buddel Bande), and
    each log entry is the game's notation as that seat may see it, never the host's own."""
    table = tables(game, players, settings, seed=6)
    joiners = [Joiner(table.address, table.host.codes[seat], keep_raw=True) for seat in table.host.remote]
    watcher = Joiner(table.address, table.host.watch_code, keep_raw=True)   # sees what all see
    table.joiners += [*joiners, watcher]
    threads = [threading.Thread(target=play_to_the_end, args=(joiner, k), kwargs={"timeout": 300})
               for k, joiner in enumerate(joiners)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    controller = table.controller
    assert controller.is_over()
    hidden_somewhere = False
    assert watcher.wait_until(lambda j: j.table is not None and j.table["over"])
    for seat, joiner in [*enumerate(joiners), (None, watcher)]:
        tables_seen = [json.loads(text) for text in joiner.raw if '"type":"table"' in text]
        assert tables_seen
        final = controller.state.redacted(seat) if seat is not None else controller.state.watched()
        for message in tables_seen:
            state = message["state"]
            if game == "bandida":
                others = [hand for s, hand in enumerate(state["hands"]) if s != seat]
                assert all(card == "?" for hand in others for card in hand)
                assert all(card == "?" for card in state["pool"])
            else:
                for mole, shown in enumerate(state["moles"]):
                    if shown["clan"] is not None:        # known by now, so known at the end
                        assert final.clan[mole] >= 0, (seat, mole)
            for offset, (player, notation) in enumerate(message["log"]):
                index = message["log_from"] + offset
                assert [player, notation] == [controller.history[index].player,
                                              controller.entry_seen_by(index, seat).action]
                hidden_somewhere |= notation != controller.history[index].action
        assert joiner.log == [[e.player, controller.entry_seen_by(k, seat).action]
                              for k, e in enumerate(controller.history)]
    assert hidden_somewhere                  # the games did hide something from someone


def test_a_game_that_shows_watchers_nothing_takes_none(tables):
    """Peek, the test games' hidden cards, says nothing of what all may see: no watcher joins."""
    import peek_game  # noqa: F401  (registers the test game)

    table = tables("peek", ["remote", "remote"])
    assert not table.host.watching_allowed
    with pytest.raises(JoinError, match="no seat of this table has that code"):
        Joiner(table.address, table.host.watch_code)
    assert table.controller.state.watched() is None


def test_a_joiner_process_killed_mid_game_is_waited_for_and_its_seat_rejoined(tables):
    """kill -9 of a joiner's process: the host sees the seat away, the others see it waited
    for, and the same code rejoins to the table as it is."""
    table = tables("tanbo", ["remote", "remote"])
    black = table.join(0)
    script = ("import sys, time\nfrom simulator.net.joiner import Joiner\n"
              "j = Joiner(sys.argv[1], sys.argv[2])\nprint('joined', flush=True)\ntime.sleep(600)\n")
    process = subprocess.Popen([sys.executable, "-c", script, table.address, table.host.codes[1]],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "joined"
        assert black.wait_until(lambda j: j.table["waiting"] == [] and not j.table["paused"])
        rng = __import__("random").Random(4)
        black.move(random_move(black, rng))
        assert black.wait_until(lambda j: j.table["ply"] == 1)
        os.kill(process.pid, signal.SIGKILL)
        assert black.wait_until(lambda j: j.table["waiting"] == [1], timeout=30)
    finally:
        process.kill()
        process.communicate()
    white = table.join(1)
    assert white.wait_until(lambda j: j.table is not None and j.my_turn())
    assert white.table["ply"] == 1 and black.wait_until(lambda j: j.table["waiting"] == [])


def test_a_bandu_placement_judged_at_the_host_is_played_back_from_its_frames(tables):
    """The host's physics publishes each placement frame by frame; every joiner gets the same
    frames, the last of them the poses of the table that follows."""
    table = tables("bandu", ["remote", "remote"], {"reserve": 6}, seed=2)
    joiners = [table.join(seat) for seat in (0, 1)]
    results: list[dict] = [{}, {}]
    threads = [threading.Thread(target=lambda k=k: results.__setitem__(k, play_to_the_end(joiners[k], k, timeout=300)))
               for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    outcomes = [k for k, entry in enumerate(table.controller.history) if entry.player == OUTCOME]
    assert outcomes and all(result["over"] for result in results)
    for joiner in joiners:
        assert joiner.outcomes_seen == outcomes          # every placement's frames, to the last
        frames = [frame for message in joiner.frames for frame in message["frames"]]
        assert len(frames) > 10 and all(b[0] >= a[0] for a, b in itertools.pairwise(frames))
    assert joiners[0].frames == joiners[1].frames        # the same fall in every window


def test_a_table_held_for_a_playback_never_overtakes_a_newer_one():
    """The bug (a joiner's window, 2 runs in 5): the table after a placement waited for its
    fall to be played back; the next table came once the playback had ended, was shown, and
    then the older one that had waited was shown over it: the joiner was one move behind."""
    import queue
    from types import SimpleNamespace

    from simulator.net.remote_game import RemoteGame

    welcome = {"type": "welcome", "seat": 0, "game": "tanbo", "settings": {},
               "seats": [{"plays": "Person", "remote": True}, {"plays": "Computer", "remote": False}]}
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    game = RemoteGame(SimpleNamespace(welcome=welcome, seat=0, closed_reason=None), inbox, "x:1", "c")
    state = game.state.to_dict()

    def table(ply: int) -> dict:
        return {"type": "table", "ply": ply, "state": state, "log_from": 0, "log": [[0, "c1"]] * ply,
                "current": 0, "over": False, "waiting": [], "winners": []}

    inbox.put({"type": "frames", "ply": 2, "frames": [[0.0, {}], [0.2, {}]], "last": True})
    inbox.put(table(3))                       # comes while the fall is played back: held
    game.poll()
    assert game.table_ply == 0 and game.outcome is not None
    time.sleep(0.3)                           # the playback is over
    inbox.put(table(4))
    game.poll()
    assert game.table_ply == 4
    game.poll()
    assert game.table_ply == 4                # and stays there


def test_a_hosts_join_line_is_read_whole_or_as_address_and_code():
    assert join_line("White: bandu-sim join 127.0.0.1:41873 K7QM-2XHV-9TCE-WRNP") == \
        ("127.0.0.1:41873", "K7QM-2XHV-9TCE-WRNP")
    assert join_line(" 10.0.0.2:8765  K7QM2XHV9TCEWRNP\n") == ("10.0.0.2:8765", "K7QM2XHV9TCEWRNP")
    assert join_line("bandu-sim join 127.0.0.1 K7QM-2XHV") is None        # no port
    assert join_line("hello there") is None and join_line("") is None


def test_nothing_moves_before_every_remote_seat_has_joined(tables):
    table = tables("tanbo", ["mcts:easy", "remote"], {"size": 7})
    time.sleep(1.0)                                   # the computer would have moved by now
    assert table.controller.ply() == 0 and table.controller.paused
    white = table.join(1)
    assert white.wait_until(lambda j: j.table is not None and j.table["ply"] >= 1)
    assert table.controller.paused is None


def test_a_message_over_the_size_limit_is_refused_and_a_huge_frame_closes_the_line(tables):
    """The fuzzer's network family: a 5 kB move (over the 4096-byte limit) was closed by the
    WebSocket library (code 1009), not refused in one line as the protocol says; the library
    now reads frames up to 64 KiB and the host refuses what is over the limit."""
    table = tables("tanbo", ["remote", "remote"])
    black, white = table.join(0), table.join(1)
    assert black.wait_until(lambda j: j.my_turn())
    black.send(encode("move", action="a" * 5000, ply=0))
    assert black.wait_until(lambda j: j.refusals)
    assert "bytes" in black.refusals[-1] and black.closed_reason is None
    black.move(random_move(black, __import__("random").Random(2)))      # the line still works
    assert black.wait_until(lambda j: j.table["ply"] == 1)
    white.send("x" * 70_000)
    assert white.wait_until(lambda j: j.closed_reason is not None)
    assert table.controller.ply() == 1
