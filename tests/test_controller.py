"""The turn controller: seats, computer moves off the UI thread, undo policy, save, load, autosave."""

from __future__ import annotations

import json

import dice_game
import peek_game  # noqa: F401  (registers the test game with hidden cards)
import pytest

from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController
from simulator.core.errors import IllegalAction, SaveError

PERSON_SEAT, RANDOM = Seat(PERSON), Seat(COMPUTER, "random")
DICE = dice_game.INFO


def first_legal(controller):
    return controller.state.legal_actions()[0]


def test_person_against_computer_and_undo_takes_back_the_answer_too():
    c = TurnController("tanbo", {}, [PERSON_SEAT, RANDOM], seed=5)
    assert not c.can_undo()
    start = c.state.to_dict()
    c.submit(first_legal(c))
    after_mine = c.state.to_dict()
    assert c.play_computer_moves() == 1 and c.ply() == 2 and c.is_person_turn()
    assert c.undo()
    assert c.state.to_dict() == start and c.ply() == 0 and after_mine != start
    assert not c.undo()


def test_hot_seat_undo_takes_back_only_the_last_persons_move():
    c = TurnController("tanbo", {}, [PERSON_SEAT, PERSON_SEAT], seed=1)
    c.submit(first_legal(c))
    after_black = c.state.to_dict()
    c.submit(first_legal(c))
    assert c.undo() and c.state.to_dict() == after_black and c.current_player() == 1


def test_undo_stops_at_chance():
    c = TurnController(DICE, {}, [PERSON_SEAT, PERSON_SEAT], seed=2)
    c.submit(first_legal(c))
    assert c.can_undo()            # the coin is not tossed yet
    c.poll()                       # the coin: chance revealed
    assert c.history[-1].player == -1
    assert not c.can_undo() and not c.undo()


def test_chance_is_seeded_and_replays():
    outcomes = []
    for _ in range(2):
        c = TurnController(DICE, {}, [RANDOM, RANDOM], seed=11)
        c.play_computer_moves()
        assert c.is_over()
        outcomes.append([h.action for h in c.history])
    assert outcomes[0] == outcomes[1]


def test_people_cannot_move_for_the_computer_or_illegally():
    c = TurnController("tanbo", {}, [RANDOM, PERSON_SEAT], seed=1)
    with pytest.raises(IllegalAction, match="not a person's turn"):
        c.submit(first_legal(c))
    c.play_computer_moves()
    with pytest.raises(IllegalAction, match="touches"):
        c.submit(c.state.action_from_str("d4"))
    assert c.ply() == 1


def test_computer_moves_run_off_the_calling_thread():
    c = TurnController("tanbo", {}, [PERSON_SEAT, Seat(COMPUTER, "mcts:easy")], seed=4)
    c.submit(first_legal(c))
    assert not c.poll()                       # starts the search, returns at once
    assert c.is_computer_thinking()
    c.wait_for_computer()
    assert c.poll() and c.ply() == 2 and c.is_person_turn()
    c.close()


def test_a_hold_keeps_computers_waiting_only_where_play_is_paced():
    """A view holds the computers while it shows a fall (BanduView); tests and tools, which
    play at full speed (computer_delay 0), are never held."""
    import time

    paced = TurnController("tanbo", {}, [PERSON_SEAT, RANDOM], seed=4, computer_delay=0.01)
    paced.submit(first_legal(paced))
    paced.hold_computers(60.0)
    time.sleep(0.05)                          # past the delay, not the hold
    assert not paced.poll() and not paced.is_computer_thinking() and paced.ply() == 1
    fast = TurnController("tanbo", {}, [PERSON_SEAT, RANDOM], seed=4)
    fast.submit(first_legal(fast))
    fast.hold_computers(60.0)
    assert not fast.paced() and fast.play_computer_moves() == 1
    paced.close()
    fast.close()


def test_undo_while_the_computer_thinks_discards_its_search():
    c = TurnController("tanbo", {}, [PERSON_SEAT, Seat(COMPUTER, "mcts:easy")], seed=4)
    c.submit(first_legal(c))
    c.poll()
    assert c.undo()
    c.wait_for_computer()
    c.poll()
    assert c.ply() == 0 and c.is_person_turn()
    c.close()


def test_save_and_load_continue_the_same_game(tmp_path):
    seats = [Seat(COMPUTER, "mcts:easy"), Seat(COMPUTER, "random")]
    c = TurnController("tanbo", {"width": 5, "height": 7}, seats, seed=9)
    c.play_computer_moves(limit=6)
    assert c.ply() == 6
    path = c.save(tmp_path / "game.json")
    loaded = TurnController.load(path)
    assert loaded.state.to_dict() == c.state.to_dict()
    assert [h.action for h in loaded.history] == [h.action for h in c.history]
    assert loaded.seats == c.seats and loaded.settings == c.settings
    c.play_computer_moves()
    loaded.play_computer_moves()
    assert loaded.state.to_dict() == c.state.to_dict()      # seeded by (seed, ply): same game


def test_autosave_after_every_turn(private_home):
    path = private_home / "auto.json"
    c = TurnController("tanbo", {}, [PERSON_SEAT, RANDOM], seed=3, autosave_path=path)
    c.submit(first_legal(c))
    assert len(json.loads(path.read_text())["history"]) == 1
    c.play_computer_moves()
    assert len(json.loads(path.read_text())["history"]) == 2
    c.undo()
    assert json.loads(path.read_text())["history"] == []


def _valid_save(tmp_path):
    c = TurnController("tanbo", {}, [PERSON_SEAT, PERSON_SEAT], seed=1)
    c.submit(first_legal(c))
    c.submit(first_legal(c))
    return c.to_save_dict()


BROKEN = {
    "not JSON": (lambda d: "{ not json", "bad JSON at line 1"),
    "not a save": (lambda d: json.dumps({"hello": 1}), "not a bandu-sim save file"),
    "future version": (lambda d: json.dumps(d | {"version": 99}), "version 99"),
    "unknown game": (lambda d: json.dumps(d | {"game": "chess"}), "unknown game"),
    "bad settings": (lambda d: json.dumps(d | {"settings": {"size": 8}}), "size must be"),
    "bad seat": (lambda d: json.dumps(d | {"seats": [{"kind": "robot"}, {"kind": "person"}]}), "seat 1"),
    "too few seats": (lambda d: json.dumps(d | {"seats": [{"kind": "person"}]}), "is for 2 players, not 1"),
    "illegal move": (lambda d: json.dumps(d | {"history": [{"player": 0, "action": "a1"}]}), "move 1 \\(a1\\)"),
    "wrong player": (lambda d: json.dumps(d | {"history": [{"player": 1, "action": "b1"}]}), "seat 0 was to move"),
    "tampered position": (lambda d: json.dumps(d | {"state": d["state"] | {"move_number": 7}}), "do not lead"),
    "seed not a number": (lambda d: json.dumps(d | {"seed": "x"}), "seed"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_saves_get_one_clear_line(tmp_path, case):
    make, message = BROKEN[case]
    path = tmp_path / "broken.json"
    path.write_text(make(_valid_save(tmp_path)))
    with pytest.raises(SaveError, match=message) as error:
        TurnController.load(path)
    assert str(error.value).startswith(str(path))
    assert "\n" not in str(error.value)


def test_missing_save_file(tmp_path):
    with pytest.raises(SaveError, match="no such file"):
        TurnController.load(tmp_path / "nope.json")


def test_a_failed_autosave_is_reported_not_raised(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    c = TurnController("tanbo", {}, [PERSON_SEAT, RANDOM], seed=3, autosave_path=blocker / "auto.json")
    c.submit(first_legal(c))
    assert c.ply() == 1 and c.autosave_error and "not being saved" in c.autosave_error


def test_a_dead_search_process_falls_back_to_a_thread():
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    class DeadPool:
        def submit(self, *args, **kwargs):
            future = Future()
            future.set_exception(BrokenProcessPool("worker killed"))
            return future

    c = TurnController("tanbo", {}, [PERSON_SEAT, RANDOM], seed=4, executor=DeadPool())
    c.submit(first_legal(c))
    c.poll()                       # submits to the dead pool
    c.poll()                       # sees the failure, switches to a thread, submits again
    c.wait_for_computer()
    c.poll()
    assert c.ply() == 2 and "restarted" in c.search_error
    c.close()


class _FaultyAgent:
    name = "faulty"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, state, rng):
        self.calls += 1
        raise ZeroDivisionError("a bug in the computer player")


def _poll_until_settled(c: TurnController, polls: int = 40) -> None:
    for _ in range(polls):
        c.poll()                     # must never raise into the window's clock
        c.wait_for_computer()


def test_a_computer_player_that_fails_is_tried_three_times_then_said_never_raised():
    c = TurnController("tanbo", {}, [PERSON_SEAT, Seat(COMPUTER, "random")], seed=4)
    faulty = _FaultyAgent()
    c.agents[1] = faulty
    c.submit(first_legal(c))
    _poll_until_settled(c)
    assert faulty.calls == 3 and c.ply() == 1
    assert c.stuck is not None and "seat 2 failed" in c.stuck and "ZeroDivisionError" in c.stuck
    assert c.search_error == c.stuck and "undo" in c.stuck
    assert c.undo() and c.stuck is None and c.ply() == 0      # the position changed: tried again
    c.agents[1] = c.game.make_agent("random")
    c.submit(first_legal(c))
    _poll_until_settled(c)
    assert c.ply() == 2 and c.stuck is None
    c.close()


def test_a_result_that_cannot_be_worked_out_is_tried_three_times_then_the_move_may_be_undone():
    import stack_game
    from stack_game.rules import Stack

    class Failing:
        def done(self):
            return True

        def result(self):
            raise RuntimeError("the physics process died")

        def cancel(self):
            pass

    class FailingResolver:
        calls = 0

        def begin(self, state, rng):
            FailingResolver.calls += 1
            return Failing()

    c = TurnController(stack_game.GAME, {}, [PERSON_SEAT, PERSON_SEAT], seed=3, resolver=FailingResolver())
    c.submit(Stack(2))
    for _ in range(20):
        c.poll()                       # never raises, never retries without end
    assert FailingResolver.calls == 3 and c.stuck is not None
    assert "could not be worked out" in c.stuck and "RuntimeError" in c.stuck
    assert c.can_undo() and c.undo() and c.stuck is None and c.ply() == 0


def test_a_computer_seat_is_named_by_its_games_level_label_and_bunkos_by_computer_alone():
    tanbo = TurnController("tanbo", seats=[Seat(PERSON, name="Ann"), Seat(COMPUTER, "mcts:strong")])
    assert [tanbo.who_plays(s) for s in (0, 1)] == ["Ann", "Computer, Strong"]
    bunko = TurnController("bunko", seats=[Seat(PERSON), Seat(COMPUTER, "mcts:ghost"), Seat(COMPUTER, "mcts"), Seat(PERSON)])
    assert [bunko.who_plays(s) for s in (1, 2)] == ["Computer", "Computer (mcts)"]   # never "Ghost"


def test_the_history_as_a_seat_sees_it_is_worked_out_once_and_anew_after_an_undo():
    """A game that hides nothing is seen as it is; an entry taken back is not served again."""
    c = TurnController("tanbo", {}, [PERSON_SEAT, PERSON_SEAT], seed=1)
    legal = c.state.legal_actions()
    c.submit(legal[0])
    c.submit(first_legal(c))
    for seat in (None, 0, 1):
        assert c.history_seen_by(seat) == c.history
    first = c.entry_seen_by(0, None)
    assert c.entry_seen_by(0, None) is first          # worked out once
    assert c.undo() and c.undo()
    c.submit(legal[-1])
    assert [e.action for e in c.history_seen_by(None)] == [c.state.action_to_str(legal[-1])] != [first.action]


def test_a_peek_deal_is_seen_by_the_hand_it_goes_to_alone():
    c = TurnController("peek", {}, [RANDOM, RANDOM], seed=4)
    c.play_computer_moves()
    dealt = [e.action for e in c.history[:6]]
    assert [e.action for e in c.history_seen_by(0)[:6]] == [dealt[0]] + ["deal ?"] * 5
    assert [e.action for e in c.history_seen_by(1)[:6]] == ["deal ?", dealt[1]] + ["deal ?"] * 4
    assert [e.action for e in c.history_seen_by(None)] == ["deal ?"] * 6 + [e.action for e in c.history[6:]]
