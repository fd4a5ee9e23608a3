"""Bunko's rules (rule book section 4): scoring and rolling on, the bell and the finishing roll,
roll-offs, movement between tables, score sheets and standings, saving, the dice's frequencies
over many seeded nights, and the window's dice resolver."""

from __future__ import annotations

import json
import math
import random

import pytest

from simulator.core import registry
from simulator.core.controller import COMPUTER, Seat, TurnController
from simulator.core.errors import IllegalAction, SettingsError
from simulator.core.state import OUTCOME, TERMINAL
from simulator.games.bunko import pace, rules
from simulator.games.bunko.rules import (
    BUNKO,
    FINISH,
    HITS,
    MISS,
    OVER,
    PLAY,
    ROLL_OFF,
    TRIPLE,
    BunkoState,
    Dice,
    Roll,
)
from simulator.selfplay import play_one


def roll(state: BunkoState, faces: tuple[int, int, int]) -> None:
    """The player to move rolls, and the dice land on `faces`."""
    assert state.current_player() >= 0
    state.apply(Roll())
    assert state.current_player() == OUTCOME
    state.apply(Dice(faces))


# --- scoring and rolling on -------------------------------------------------------------------------

@pytest.mark.parametrize(("faces", "target", "points", "kind"), [
    ((1, 1, 1), 1, 21, BUNKO),
    ((6, 6, 6), 6, 21, BUNKO),
    ((2, 2, 2), 1, 5, TRIPLE),
    ((3, 3, 3), 6, 5, TRIPLE),
    ((1, 2, 3), 1, 1, HITS),
    ((4, 1, 1), 1, 2, HITS),
    ((5, 5, 4), 5, 2, HITS),
    ((2, 3, 4), 1, 0, MISS),
    ((6, 6, 5), 4, 0, MISS),       # a pair of another number scores nothing
])
def test_what_a_roll_scores(faces, target, points, kind):
    assert rules.roll_points(faces, target) == points
    assert rules.roll_kind(faces, target) == kind


@pytest.mark.parametrize(("roll_on", "again_after"), [
    ("bunko-only", {BUNKO, HITS}),
    ("always", {BUNKO, TRIPLE, HITS}),
    ("not-after-bunko-or-triple", {HITS}),
])
def test_who_rolls_on(roll_on, again_after):
    for kind in (BUNKO, TRIPLE, HITS, MISS):
        assert rules.rolls_on(kind, roll_on) == (kind in again_after), (roll_on, kind)


# scripted rolls at one table (seats 0-3, target 1): faces, then the seat to roll next and the
# team scores after the roll
ONE_TABLE_SCRIPT = {
    "bunko-only": [
        ((1, 2, 3), 0, [1, 0]),          # one target: seat 0 rolls on
        ((2, 3, 4), 1, [1, 0]),          # no target: the dice go left
        ((5, 5, 5), 2, [1, 5]),          # a triple scores 5 but passes the dice
        ((1, 1, 4), 2, [3, 5]),
        ((1, 1, 1), 2, [24, 5]),         # a bunko rolls on (the round ends: 24 >= 21)
    ],
    "always": [
        ((1, 2, 3), 0, [1, 0]),
        ((2, 3, 4), 1, [1, 0]),
        ((5, 5, 5), 1, [1, 5]),          # a triple rolls on too
        ((1, 6, 6), 1, [1, 6]),
        ((2, 2, 3), 2, [1, 6]),
    ],
    "not-after-bunko-or-triple": [
        ((1, 1, 1), 1, [21, 0]),         # a bunko ends the turn (and here the round)
    ],
}


@pytest.mark.parametrize("roll_on", list(ONE_TABLE_SCRIPT))
def test_scripted_rolls_at_one_table(roll_on):
    state = rules.new_game(4, tables=1, roll_on=roll_on)
    assert state.current_player() == 0 and state.target == 1
    for faces, next_seat, scores in ONE_TABLE_SCRIPT[roll_on]:
        roll(state, faces)
        if state.round == 0:
            assert state.scores[0] == scores, faces
            assert state.current_player() == next_seat, faces
        else:                                              # the round ended on this roll
            assert state.results[-1]["tables"][0]["score"] == scores


def test_the_head_table_reaching_21_ends_a_one_table_round_and_the_sheets_are_marked():
    state = rules.new_game(4, tables=1)
    for faces in [(1, 2, 3), (2, 3, 4), (5, 5, 5), (1, 1, 1)]:   # seats 0, 0, 1, 2
        roll(state, faces)
    assert state.round == 1 and state.target == 2 and state.phase == PLAY
    assert state.wins == [1, 0, 1, 0] and state.losses == [0, 1, 0, 1]
    assert state.bunkos == [0, 0, 1, 0] and state.points == [1, 5, 21, 0]
    assert state.results[0] == {"round": 1, "target": 1, "bell": True, "tables": [
        {"chairs": [0, 1, 2, 3], "score": [22, 5], "winner": 0, "roll_offs": []}]}
    # one table: nobody moves, the partners rotate; the first chair rolls first
    assert state.chairs == [[0, 1, 3, 2]] and state.current_player() == 0
    assert state.scores == [[0, 0]] and not state.bell


def test_partners_rotate_at_one_table_so_everyone_partners_everyone():
    partners = []
    for r in range(1, 7):
        chairs = rules.rotated_seating([0, 1, 2, 3], r)
        assert sorted(chairs) == [0, 1, 2, 3] and chairs[0] == 0
        partners.append(frozenset((chairs[0], chairs[2])))
    assert partners[0] == {0, 2}                 # round 1 is the first seating
    assert partners[:3] == [{0, 2}, {0, 3}, {0, 1}]
    assert partners[3:] == partners[:3]


# --- the bell and the finishing roll ------------------------------------------------------------

def test_the_bell_and_the_finishing_roll_of_the_other_tables():
    state = rules.new_game(12, tables=3)
    script = [
        # (faces, table that rolled, expected phase after, expected next player)
        ((2, 3, 4), 0, PLAY, 4),        # head table: miss, dice go left (to seat 1 next time)
        ((1, 1, 1), 1, PLAY, 8),        # table 2: a bunko (21) ends nothing: only the head table rings
        ((1, 1, 2), 2, PLAY, 1),        # table 3: +2, seat 8 rolls on
        ((1, 1, 1), 0, FINISH, 4),      # seat 1: bunko at the head table, the bell rings
        ((3, 3, 3), 1, FINISH, 8),      # table 2's one more roll: seat 4 (it rolled on), a triple
        ((1, 4, 4), 2, PLAY, None),     # table 3's one more roll ends the round
    ]
    for faces, table, phase, nxt in script:
        before = state.clone()
        roll(state, faces)
        if nxt is not None:
            assert state.phase == phase, faces
            assert state.current_player() == nxt, faces
            assert state.last_rolls[table]["faces"] == list(faces)
        else:
            assert before.phase == FINISH and state.round == 1
    assert [t["score"] for t in state.results[0]["tables"]] == [[0, 21], [26, 0], [3, 0]]
    assert state.results[0]["bell"]
    assert state.bunkos[4] == 1 and state.bunkos[1] == 1 and state.points[4] == 26


def test_after_the_bell_each_other_table_rolls_exactly_once_even_after_a_scoring_roll():
    state = rules.new_game(8, tables=2)
    roll(state, (1, 1, 1))                      # head table: bunko, bell
    assert state.bell and state.phase == FINISH and state.current_player() == 4
    roll(state, (1, 2, 2))                      # table 2 scores and would roll on, but the round is over
    assert state.round == 1 and state.phase == PLAY
    assert state.results[0]["tables"][1]["score"] == [1, 0]


# --- roll-offs ------------------------------------------------------------------------------------------

def test_a_tie_is_settled_by_a_roll_off_that_goes_on_no_score_sheet():
    """The publisher: "chaque équipe a droit à un dernier lancer": one last roll per team, by
    its player in the earlier chair, repeated while tied."""
    state = rules.new_game(8, tables=2)
    roll(state, (1, 1, 1))                      # head table 21-0, bell
    roll(state, (2, 3, 4))                      # table 2 finishes 0-0: tied
    assert state.phase == ROLL_OFF and state.rolloff_tables == [1]
    assert state.current_player() == 4
    points_before, bunkos_before = state.points[:], state.bunkos[:]
    # first roll-off: both miss, tied again; seat 4 rolls for its team (chairs 0 and 2), seat 5
    # for the other (chairs 1 and 3); seats 6 and 7 never roll
    for seat in (4, 5):
        assert state.current_player() == seat
        roll(state, (2, 3, 4))
    assert state.phase == ROLL_OFF and state.rolloffs[1] == [[0, 0]]
    # second: seat 4 a triple (5), seat 5 a bunko (21): the team of 5 and 7 wins
    assert state.current_player() == 4
    roll(state, (6, 6, 6))
    assert state.current_player() == 5
    roll(state, (1, 1, 1))
    assert state.round == 1
    table = state.results[0]["tables"][1]
    assert table == {"chairs": [4, 5, 6, 7], "score": [0, 0], "winner": 1, "roll_offs": [[0, 0], [5, 21]]}
    assert [state.wins[s] for s in (4, 5, 6, 7)] == [0, 1, 0, 1]
    assert state.points == points_before and state.bunkos == bunkos_before
    assert state.rolls == 2 + 4 and state.bunko_rolls == 2    # every roll counts for the dice figures


def test_tied_tables_roll_off_in_table_order_with_one_table_too():
    state = rules.new_game(12, tables=3)
    roll(state, (1, 1, 1))                     # head table: bell
    roll(state, (2, 3, 4))                     # table 2: 0-0
    roll(state, (2, 3, 4))                     # table 3: 0-0
    assert state.rolloff_tables == [1, 2] and state.current_player() == 4
    for faces in [(1, 2, 3), (2, 3, 4)]:
        roll(state, faces)
    assert state.rolloff_tables == [2] and state.current_player() == 8
    for faces in [(2, 3, 4), (1, 2, 3)]:
        roll(state, faces)
    assert [t["winner"] for t in state.results[0]["tables"]] == [0, 0, 1]


# --- movement ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("chairs", "winners", "expected"), [
    # two tables: head winners stay with table 2's winners; table 2's losers get the head's losers
    ([[0, 1, 2, 3], [4, 5, 6, 7]], [0, 1], [[0, 2, 5, 7], [4, 6, 1, 3]]),
    # three tables
    ([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [1, 0, 0],
     [[1, 3, 4, 6], [5, 7, 8, 10], [9, 11, 0, 2]]),
    # five tables, seats mixed
    ([[3, 0, 2, 1], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [19, 18, 17, 16]], [0, 1, 1, 0, 1],
     [[2, 3, 5, 7], [4, 6, 9, 11], [8, 10, 12, 14], [13, 15, 16, 18], [17, 19, 0, 1]]),
])
def test_movement_after_a_round(chairs, winners, expected):
    seating = rules.next_seating(chairs, winners, 2)
    assert seating == expected

    def partners(tables):
        return {frozenset((t[c], t[c + 2])) for t in tables for c in (0, 1)}

    assert not partners(chairs) & partners(seating)          # nobody keeps a partner
    assert sorted(s for t in seating for s in t) == sorted(s for t in chairs for s in t)


def test_movement_in_play_the_lower_stayer_rolls_first():
    state = rules.new_game(8, tables=2)
    roll(state, (2, 3, 4))                      # seat 0 misses
    roll(state, (1, 2, 3))                      # table 2: seat 4 +1 for seats 4 and 6
    roll(state, (1, 1, 1))                      # seat 1: bunko for seats 1 and 3, bell
    roll(state, (2, 3, 4))                      # table 2's finishing roll (seat 4 again): 1-0 stands
    assert state.round == 1 and state.target == 2
    # head table: winners 1 and 3 stay, table 2's winners 4 and 6 arrive; table 2: 5, 7 stay
    assert state.chairs == [[1, 3, 4, 6], [5, 7, 0, 2]]
    assert state.current_player() == 1
    assert state.table_of(0) == (1, 2) and state.table_of(3) == (0, 1)


# --- standings -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("wins", "bunkos", "points", "standings", "places"), [
    ([3, 3, 3, 2], [0, 1, 1, 5], [50, 10, 20, 99], [2, 1, 0, 3], [3, 2, 1, 4]),
    ([1, 4, 4, 1], [0, 0, 0, 0], [30, 30, 12, 31], [1, 2, 3, 0], [4, 1, 2, 3]),
    ([2, 2, 2, 2], [1, 1, 0, 0], [9, 9, 9, 9], [0, 1, 2, 3], [1, 1, 3, 3]),      # level: share a place
])
def test_ranking_by_wins_then_bunkos_then_points(wins, bunkos, points, standings, places):
    state = rules.new_game(4, tables=1)
    state.wins, state.bunkos, state.points = wins, bunkos, points
    state.losses = [6 - w for w in wins]
    state.phase = OVER
    assert state.standings() == standings
    assert state.places() == places
    returns = state.returns()
    assert returns[standings[0]] == 1.0 and all(-1.0 <= r <= 1.0 for r in returns)
    assert state.winners() == [s for s in range(4) if places[s] == 1]
    for a in range(4):
        for b in range(4):
            assert (returns[a] > returns[b]) == (places[a] < places[b])


# --- a whole night ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "sets", "roll_on"), [(4, 2, "bunko-only"), (12, 1, "always"),
                                                    (20, 1, "not-after-bunko-or-triple")])
def test_whole_nights_keep_their_books(players, sets, roll_on):
    state = rules.new_game(players, sets=sets, roll_on=roll_on)
    rng = random.Random(players)
    rolls = 0
    while not state.is_terminal():
        action = state.random_action(rng)
        rolls += isinstance(action, Dice)
        state.apply(action)
    assert state.current_player() == TERMINAL and state.phase == OVER
    assert len(state.results) == 6 * sets == state.round + 1
    assert all(w + loss == 6 * sets for w, loss in zip(state.wins, state.losses, strict=True))
    assert sum(state.wins) == sum(state.losses) == 6 * sets * players // 2
    assert state.rolls == rolls and state.bunko_rolls >= sum(state.bunkos)
    assert [r["target"] for r in state.results] == [1, 2, 3, 4, 5, 6] * sets
    for result in state.results:
        head = result["tables"][0]["score"]
        assert max(head) >= 21 > min(head)          # the head table ends every round at 21
    assert sorted(state.standings()) == list(range(players))
    assert state.winners()


def test_selfplay_reports_the_night():
    result = play_one("bunko", {}, ["mcts"] * 12, seed=3)
    assert result["rounds"] == 6
    assert len(result["bunkos"]) == len(result["wins"]) == len(result["losses"]) == len(result["points"]) == 12
    assert sorted(result["standings"]) == list(range(12))
    assert result["winners"] == [result["standings"][0]] or result["standings"][0] in result["winners"]
    assert result["rolls"] * 2 == result["length"]
    again = play_one("bunko", {}, ["random"] * 12, seed=3)      # the dice come from the seed alone
    assert {k: again[k] for k in ("rolls", "standings", "points")} == \
        {k: result[k] for k in ("rolls", "standings", "points")}
    other = play_one("bunko", {}, ["mcts"] * 12, seed=4)
    assert other["points"] != result["points"]


def test_the_dice_show_bunkos_and_triples_as_often_as_three_fair_dice():
    """Over seeded nights played by the controller: bunkos 1/216 and triples 5/216 per roll,
    within four binomial standard errors."""
    rolls = bunkos = triples = 0
    for seed in range(16):
        result = play_one("bunko", {"tables": 5}, ["random"] * 20, seed=1000 + seed)
        rolls += result["rolls"]
        bunkos += result["bunko_rolls"]
        triples += result["triple_rolls"]
    assert rolls > 20_000
    for count, p in ((bunkos, 1 / 216), (triples, 5 / 216)):
        error = math.sqrt(p * (1 - p) / rolls)
        assert abs(count / rolls - p) < 4 * error, (count, rolls, p)


def test_every_face_total_is_as_likely_as_the_dice_say():
    """The model's three dice: the sum of faces follows the distribution of three fair dice
    (a chi-square test at a fixed seed), and the faces are independent of the roller."""
    state = rules.new_game(4, tables=1)
    state.apply(Roll())
    rng = random.Random(77)
    n = 21_600
    counts = [0] * 19
    for _ in range(n):
        counts[sum(state.sample_outcome(rng).faces)] += 1
    ways = [0] * 19
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                ways[a + b + c] += 1
    chi2 = sum((counts[s] - n * ways[s] / 216) ** 2 / (n * ways[s] / 216) for s in range(3, 19))
    assert chi2 < 37.7            # 15 degrees of freedom, p = 0.001


# --- settings, notation, refusals -------------------------------------------------------------------

def test_settings():
    game = registry.get_game("bunko")
    assert game.new_game(12, {"tables": 3, "sets": 2}).total_rounds == 12
    assert game.new_game(20).tables == 5
    assert game.new_game().players == 12         # the usual night: three tables
    assert rules.new_game().players == 12        # the rule book's default: three tables
    for players, settings, message in [
        (4, {"tables": 3}, "3 tables seat 12 players, not 4"),
        (7, {}, "choose 4, 8, 12, 16 or 20 players, not 7"),
        (12, {"tables": 6}, "tables must be a whole number from 1 to 5"),
        (12, {"sets": 5}, "sets must be a whole number from 1 to 4"),
        (12, {"roll_on": "never"}, "roll_on must be one of bunko-only, always, not-after-bunko-or-triple"),
        (12, {"pace": "slow"}, "pace must be one of normal, fast, instant"),
        (12, {"bell": 21}, "unknown setting 'bell'"),
    ]:
        with pytest.raises(SettingsError, match=message):
            game.new_game(players, settings)
    labels = {s.name: [c.label for c in s.choices] for s in game.info.settings}
    assert labels["tables"][2] == "3 (12 players)" and game.info.settings[0].default == 2
    assert [c.kwargs["roll_on"] for c in game.info.settings[2].choices] == list(rules.ROLL_ON)
    assert game.info.settings[2].default == 0


def test_notation_and_refusals():
    state = rules.new_game(4, tables=1)
    assert state.action_to_str(Roll()) == "roll" and state.action_from_str("roll") == Roll()
    assert state.action_from_str(state.action_to_str(Dice((3, 5, 3)))) == Dice((3, 5, 3))
    for bad in ("3-5", "3-5-7", "0-1-2", "throw", "3-5-3-1"):
        with pytest.raises(IllegalAction, match="not a Bunko move"):
            state.action_from_str(bad)
    with pytest.raises(IllegalAction, match="must roll first"):
        state.apply(Dice((1, 1, 1)))
    state.apply(Roll())
    assert state.legal_actions() == []
    assert state.outcome_request() == {"kind": "dice", "dice": 3, "faces": 6, "seat": 0, "table": 0,
                                       "target": 1, "roll_off": False}
    with pytest.raises(IllegalAction, match="wait for them to land"):
        state.apply(Roll())
    with pytest.raises(IllegalAction, match="int 1 to 6, int 1 to 6, int 1 to 6"):
        state.apply(Dice((1, 7, 1)))
    state.apply(Dice((1, 1, 1)))
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply(state.random_action(rng))
    with pytest.raises(IllegalAction, match="night is over"):
        state.apply(Roll())


def _played(players: int = 8) -> BunkoState:
    """A night of two tables some way into its second round, no dice in the air."""
    state = rules.new_game(players)
    rng = random.Random(5)
    while not (state.results and state.round_rolls > 20 and state.current_player() >= 0):
        state.apply(state.random_action(rng))
    return state


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["chairs"][0].__setitem__(0, 5), "seat every player exactly once"),
    (lambda d: d["wins"].__setitem__(0, d["wins"][0] + 1), "do not add up"),
    (lambda d: d.__setitem__("phase", "dancing"), "phase must be one of"),
    (lambda d: d.__setitem__("players", 9), "choose 4, 8, 12, 16 or 20 players, not 9"),
    (lambda d: d.__setitem__("sets", True), "sets must be 1 to 4"),
    (lambda d: d["scores"].__setitem__(0, [-1, 0]), "must be a whole number 0 or more"),
    (lambda d: d.pop("roller"), "lacks the key 'roller'"),
    (lambda d: d.__setitem__("results", d["results"][:-1]), "results hold"),
    (lambda d: d.__setitem__("bunko_rolls", d["rolls"] + 1), "bunko_rolls must be"),
    (lambda d: d["last_rolls"].__setitem__(0, {"faces": [1, 2]}), "lacks the key|faces must be"),
    (lambda d: d.__setitem__("scores", [[21, 0], [0, 0]]), "reached 21, yet the round goes on"),
])
def test_loading_refuses_what_no_night_can_reach(change, message):
    state = _played()
    assert state.phase == PLAY and state.results
    data = json.loads(json.dumps(state.to_dict()))
    assert BunkoState.from_dict(data) == state
    change(data)
    with pytest.raises(ValueError, match=message):
        BunkoState.from_dict(data)


def test_a_seed_and_the_actions_replay_a_night_through_a_save():
    seats = [Seat(COMPUTER, "mcts")] * 8
    controller = TurnController("bunko", {"tables": 2}, seats, seed=42)
    controller.play_computer_moves(limit=500)
    saved = json.loads(json.dumps(controller.to_save_dict()))
    loaded = TurnController.from_save_dict(saved)
    assert loaded.state == controller.state
    controller.play_computer_moves()
    loaded.play_computer_moves()
    assert loaded.state == controller.state and controller.is_over()
    again = TurnController("bunko", {"tables": 2}, seats, seed=42)
    again.play_computer_moves()
    assert [h.action for h in again.history] == [h.action for h in controller.history]


# --- the window's dice ----------------------------------------------------------------------------------

class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_window_shows_each_roll_before_it_counts_and_waits_for_players_to_move():
    clock = FakeClock()
    resolver = pace.DiceResolver(clock)
    state = rules.new_game(4, tables=1)
    state.apply(Roll())
    pending = resolver.begin(state.clone(), random.Random(1))
    assert pending.result() == state.clone().sample_outcome(random.Random(1))   # the seeded model's dice
    assert pending.stage()[0] == "tumbling" and not pending.done()
    clock.now += pace.TUMBLE_SECONDS["normal"] + 0.01
    assert pending.stage()[0] == "landed" and not pending.done()
    clock.now += pace.HOLD_SECONDS["normal"]
    assert pending.done() and pending.progress() == 1.0
    # a roll that ends the round: the next round's first roll waits while players move
    state.apply(pending.result())
    assert state.round == 0
    state.apply(Roll())
    ending = resolver.begin(state.clone(), _rng_giving(state, Dice((1, 1, 1))))
    assert ending.result() == Dice((1, 1, 1)) and ending.lead == 0
    clock.now += ending.seconds
    state.apply(ending.result())
    assert state.round == 1
    state.apply(Roll())
    first = resolver.begin(state.clone(), random.Random(3))
    assert first.stage()[0] == "waiting" and first.lead == pytest.approx(pace.MOVE_SECONDS["normal"])
    clock.now += 10                      # a person who took longer than the move waits no more
    assert resolver.begin(state.clone(), random.Random(3)).lead == 0
    instant = rules.new_game(4, tables=1, pace="instant")
    instant.apply(Roll())
    assert resolver.begin(instant, random.Random(0)).done()


def _rng_giving(state: BunkoState, dice: Dice) -> random.Random:
    """A seeded RNG whose first draw from the model is `dice`."""
    for seed in range(100_000):
        if state.sample_outcome(random.Random(seed)) == dice:
            return random.Random(seed)
    raise AssertionError("no seed gives those dice")
