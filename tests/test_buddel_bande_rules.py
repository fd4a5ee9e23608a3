"""Table-driven Buddel Bande rule tests: scripted positions and move lists with the expected
table after each move (the track, the dog, the dens, whose turn, the legal moves), the win on an
opponent's turn, hidden information, settings, notation and saved states."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from simulator.core.controller import PERSON, Seat, TurnController
from simulator.core.errors import IllegalAction, SettingsError
from simulator.core.registry import get_game
from simulator.core.state import CHANCE, TERMINAL
from simulator.games.buddel_bande.rules import (
    CLANS,
    DEN_ENTRANCE,
    IN_DEN,
    ROLLS,
    SIZES,
    TRACK,
    UNKNOWN,
    Act,
    BuddelState,
    game_report,
    new_game,
)

# The standard two-clan haystack of these tests: spots 1-3 the ladybirds' small, medium and
# large mole (seat 0), spots 4-6 the ants' (seat 1).
TWO_CLANS = [("ladybirds", s) for s in SIZES] + [("ants", s) for s in SIZES]


def table(at: dict[int, Any] | None = None, dog: int = 24, to_move: int = 0, looked: list | None = None,
          moles: list[tuple[str, str]] | None = None, players: int = 2, know_own: bool = True) -> BuddelState:
    """A state at the start of `to_move`'s turn (the dice not rolled yet): every mole on the
    haystack except those `at` names (spot -> hole number or 'den')."""
    moles = moles or TWO_CLANS
    at = at or {}
    dens = {clan: 0 for clan in CLANS[:players]}
    rows = []
    for spot, (clan, size) in enumerate(moles, start=1):
        where = at.get(spot, 0)
        if where == "den":
            dens[clan] += 1
        rows.append({"spot": spot, "size": size, "clan": clan, "at": where})
    return BuddelState.from_dict({
        "game": "buddel_bande", "players": players, "know_own": know_own, "first": 0, "moles": rows,
        "dog": dog, "phase": "roll", "to_move": to_move, "roll": None, "rolls": [], "move": None,
        "moved": None, "looked": looked or [[] for _ in range(players)], "dens": dens, "winner": None,
        "turns": 0, "last_turn": None})


def snapshot(state: BuddelState) -> dict[str, Any]:
    """The table in short: each mole's place by spot ('H' haystack, a hole, 'den'), the dog,
    the phase, whose turn, the dens, the winner and the legal moves in notation."""
    shot: dict[str, Any] = {f"m{m + 1}": ("H" if p == 0 else "den" if p == IN_DEN else p)
                            for m, p in enumerate(state.pos)}
    shot.update(dog=state.dog, phase=state.to_dict()["phase"], to_move=state.to_move,
                dens=dict(state.to_dict()["dens"]), winner=state.winner if state.winner >= 0 else None,
                legal=[state.action_to_str(a) for a in state.legal_actions()],
                rolls=len(state.turn_rolls))
    return shot


def play(state: BuddelState, script: list[tuple[str, dict[str, Any]]]) -> None:
    """Apply each move (notation) and check the expected part of the table after it."""
    for step, (move, expected) in enumerate(script, start=1):
        state.apply(state.action_from_str(move))
        shot = snapshot(state)
        got = {key: shot[key] for key in expected}
        assert got == expected, f"after step {step} ({move})"


# --- the track ---------------------------------------------------------------------------------

def test_the_track_has_eight_holes_of_each_symbol():
    assert len(TRACK) == 24
    assert sorted(TRACK.count(c) for c in "FLC") == [8, 8, 8]
    assert TRACK[:6] == "FLCLFC" and TRACK[-3:] == "FCL"


def test_a_new_game_arranges_the_haystack_by_chance_then_the_first_player_rolls():
    state = new_game(3, first=2)
    assert state.current_player() == CHANCE and state.legal_actions() == []
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 9 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    rng = random.Random(5)
    while state.to_dict()["phase"] == "arrange":
        state.apply(state.random_action(rng))
    assert sorted(zip(state.clan, state.size, strict=True)) == [(c, s) for c in range(3) for s in range(3)]
    assert set(state.pos) == {0} and state.dog == 24
    assert state.current_player() == CHANCE and state.to_move == 2
    rolls = state.chance_outcomes()
    assert len(rolls) == 18 and abs(sum(p for _, p in rolls) - 1) < 1e-12
    # the symbol die shows each symbol on two of its six faces: 1/3 each
    assert {a.b for a, _ in rolls} == {0, 1, 2}


def test_the_same_seed_arranges_the_same_haystack():
    def arranged(seed: int) -> list:
        controller = TurnController("buddel_bande", {}, [Seat(PERSON), Seat(PERSON)], seed=seed)
        controller.poll()
        controller.close()
        return controller.state.to_dict()["moles"]

    assert arranged(3) == arranged(3)
    assert arranged(3) != arranged(4)


# --- moving: table-driven scripts ----------------------------------------------------------------

SCRIPTS = {
    "a haystack mole skips the occupied flower holes 1 and 5 and stops on 8": (
        {"at": {4: 1, 5: 5}},
        [("roll small flower", {"phase": "move", "legal": ["mole 1", "mole 4"]}),
         ("mole 1", {"m1": 8, "m4": 1, "m5": 5, "phase": "look", "legal": ["look", "no-look"]}),
         ("look", {"phase": "peek", "legal": ["done"], "to_move": 0}),
         ("done", {"phase": "roll", "to_move": 1})]),
    "haystack moles are chosen by their spot": (
        {},
        [("roll medium leaf", {"legal": ["mole 2", "mole 5"]}),
         ("mole 5", {"m5": 2, "m2": "H", "phase": "look"}),
         ("no-look", {"phase": "roll", "to_move": 1})]),
    "with no free clover hole ahead a mole reaches the den entrance and goes into its den": (
        {"at": {6: 21, 2: 23}},
        [("roll large clover", {"legal": ["mole 3", "mole 6"]}),
         ("mole 6", {"m6": "den", "m2": 23, "dens": {"ladybirds": 0, "ants": 1}, "phase": "roll",
                     "to_move": 1})]),
    "a mole on hole 23 with clover goes home: hole 24 shows a leaf": (
        {"at": {2: 23}},
        [("roll medium clover", {"legal": ["mole 2", "mole 5"]}),
         ("mole 2", {"m2": "den", "dens": {"ladybirds": 1, "ants": 0}, "to_move": 1})]),
    "the mole beside the dog is paralysed": (
        {"at": {3: 24}, "dog": 24},
        [("roll large leaf", {"phase": "move", "legal": ["mole 6"]}),
         ("mole 6", {"m6": 2, "m3": 24})]),
    "a mole may move next to the dog, and is paralysed there": (
        {"at": {1: 10, 4: 3}, "dog": 12},
        [("roll small leaf", {"legal": ["mole 1", "mole 4"]}),
         ("mole 1", {"m1": 12, "phase": "look"}),
         ("no-look", {"to_move": 1}),
         ("roll small flower", {"legal": ["mole 4"]}),
         ("mole 4", {"m4": 5})]),
    "the dog goes back and then forward, beside free or occupied holes": (
        {"at": {1: 2, 4: 19}, "dog": 12},
        [("roll dog leaf", {"legal": ["dog 2", "dog 4", "dog 9", "dog 13", "dog 17", "dog 20", "dog 24"]}),
         ("dog 2", {"dog": 2, "phase": "roll", "to_move": 1}),
         ("roll dog-or-any flower", {"legal": ["dog 1", "dog 5", "dog 8", "dog 10", "dog 15", "dog 18",
                                               "dog 19", "dog 22", "mole 2", "mole 3", "mole 4", "mole 5",
                                               "mole 6"]}),
         ("dog 19", {"dog": 19, "m4": 19, "to_move": 0}),
         ("roll small flower", {"legal": ["mole 1"]})]),
    "a dog-or-any roll may move a mole instead": (
        {"dog": 24},
        [("roll dog-or-any clover", {"phase": "move"}),
         ("mole 4", {"m4": 3, "dog": 24, "phase": "look"})]),
    "nothing of the rolled size can move: the same player rolls again": (
        {"at": {6: "den", 3: 24}, "dog": 24},
        [("roll large flower", {"phase": "roll", "to_move": 0, "rolls": 1, "legal": []}),
         ("roll large leaf", {"phase": "roll", "to_move": 0, "rolls": 2}),
         ("roll small leaf", {"phase": "move", "to_move": 0, "rolls": 3, "legal": ["mole 1", "mole 4"]})]),
    "every small mole home: a small roll is rolled again": (
        {"at": {1: "den", 4: "den"}},
        [("roll small clover", {"phase": "roll", "to_move": 0, "rolls": 1}),
         ("roll any clover", {"phase": "move", "legal": ["mole 2", "mole 3", "mole 5", "mole 6"]})]),
    "a mole the mover knows to be an opponent's would be brought home: it may decline": (
        {"at": {3: "den", 6: 23}, "looked": [[6], []]},
        [("roll large clover", {"legal": ["decline", "mole 6"]}),
         ("decline", {"m6": 23, "phase": "roll", "to_move": 1, "dens": {"ladybirds": 1, "ants": 0}})]),
    "by elimination: the mover's own large mole is home, so the other is an opponent's": (
        {"at": {3: "den", 6: 23}},
        [("roll large clover", {"legal": ["decline", "mole 6"]}),
         ("decline", {"m6": 23, "phase": "roll", "to_move": 1, "dens": {"ladybirds": 1, "ants": 0}})]),
    "without having looked, the mover may not decline": (
        {"at": {3: 12, 6: 23}, "dog": 12, "know_own": False},   # its own large mole never seen
        [("roll large clover", {"legal": ["mole 6"]}),
         ("mole 6", {"m6": "den", "dens": {"ladybirds": 0, "ants": 1}})]),
    "no declining when some move keeps every mole out of the dens": (
        {"at": {6: 23}, "looked": [[6], []]},
        [("roll large clover", {"legal": ["mole 3", "mole 6"]})]),
    "no declining when the dog may move instead": (
        {"at": {6: 23}, "looked": [[6], []]},
        [("roll dog-or-any clover", {"legal": ["dog 3", "dog 6", "dog 7", "dog 11", "dog 14", "dog 16",
                                               "dog 21", "dog 23", "mole 1", "mole 2", "mole 3", "mole 4",
                                               "mole 5", "mole 6"]})]),
    "an own mole going home is no reason to decline": (
        {"at": {6: "den", 3: 23}, "looked": [[3], []]},
        [("roll large clover", {"legal": ["mole 3"]})]),
    "declining an any-mole roll: every movable mole is a known opponent's going home": (
        {"at": {1: "den", 2: "den", 3: 21, 4: 22, 5: 23, 6: "den"}, "looked": [[4, 5], []], "dog": 21},
        [("roll any clover", {"legal": ["decline", "mole 4", "mole 5"]}),
         ("decline", {"to_move": 1, "m4": 22, "m5": 23})]),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_scripted_moves(name):
    setup, script = SCRIPTS[name]
    play(table(**setup), script)


def test_the_win_comes_on_an_opponents_turn():
    """The ladybirds' player, not knowing the mole, must move the ants' third mole home: the
    ants win."""
    state = table({4: "den", 5: "den", 6: 23, 3: 12}, dog=12, know_own=False)
    play(state, [("roll large clover", {"legal": ["mole 6"]}),
                 ("mole 6", {"m6": "den", "phase": "over", "winner": 1, "legal": [],
                             "dens": {"ladybirds": 0, "ants": 3}})])
    assert state.current_player() == TERMINAL and state.is_terminal()
    assert state.returns() == [-1.0, 1.0] and state.winners() == [1]
    assert game_report(state) == {"turns": 1, "dens": {"ladybirds": 0, "ants": 3}, "winning_clan": "ants"}
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(Act("roll", 0, 0))


def test_by_elimination_the_mover_may_decline_the_opponents_win():
    """Each clan has one mole of each size: the ladybirds' large mole is in their den, so the
    large mole on the track is an opponent's, though nobody looked under it (RULES: "sure"
    includes elimination)."""
    state = table({4: "den", 5: "den", 6: 23, 3: "den"}, know_own=False)
    assert state.surely_an_opponents(0, 5) and not state.surely_an_opponents(1, 5)
    play(state, [("roll large clover", {"legal": ["decline", "mole 6"]}),
                 ("decline", {"phase": "roll", "to_move": 1, "winner": None})])


def test_having_looked_the_mover_may_decline_the_opponents_win():
    state = table({4: "den", 5: "den", 6: 23, 3: "den"}, looked=[[6], []])
    play(state, [("roll large clover", {"legal": ["decline", "mole 6"]}),
                 ("decline", {"phase": "roll", "to_move": 1, "winner": None})])


def test_the_win_with_four_clans_goes_to_the_owner_of_the_clan():
    moles = [(clan, size) for clan in CLANS for size in SIZES]
    at = {1: "den", 2: "den", 3: 23, 4: 5}       # ladybirds: two home, the large one on 23
    state = table(at, moles=moles, players=4, to_move=2)
    play(state, [("roll large clover", {"legal": ["mole 3", "mole 6", "mole 9", "mole 12"]}),
                 ("mole 3", {"winner": 0, "phase": "over"})])
    assert state.returns() == [1.0, -1.0, -1.0, -1.0]


def test_illegal_moves_say_why():
    state = table({3: 24}, dog=24)
    state.apply(state.action_from_str("roll large leaf"))
    reasons = {
        "mole 3": "paralysed",
        "mole 1": "this is a small mole",
        "dog 2": "move a mole, not the dog",
        "decline": "you may decline only when",
        "look": "move first",
    }
    for move, reason in reasons.items():
        with pytest.raises(IllegalAction, match=reason):
            state.apply(state.action_from_str(move))
    dog_roll = table()
    dog_roll.apply(dog_roll.action_from_str("roll dog flower"))
    with pytest.raises(IllegalAction, match="move the dog, not a mole"):
        dog_roll.apply(Act("mole", 0))
    with pytest.raises(IllegalAction, match="goes beside a flower hole"):
        dog_roll.apply(Act("dog", 2))
    with pytest.raises(IllegalAction, match="roll"):
        table().apply(Act("mole", 0))     # the dice come first (a chance move)
    looking = table()
    looking.apply(looking.action_from_str("roll small flower"))
    looking.apply(Act("mole", 0))
    with pytest.raises(IllegalAction, match="look under the mole or not"):
        looking.apply(Act("mole", 3))


# --- reveals and undo ------------------------------------------------------------------------------

def test_a_look_and_a_mole_going_home_reveal_other_moves_do_not():
    state = table({6: 23})
    state.apply(state.action_from_str("roll large clover"))
    assert state.reveals(Act("mole", 5)) and not state.reveals(Act("mole", 2))
    state.apply(Act("mole", 2))
    assert state.reveals(Act("look")) and not state.reveals(Act("no-look"))


def person_game(seed: int = 1) -> TurnController:
    controller = TurnController("buddel_bande", {}, [Seat(PERSON), Seat(PERSON)], seed=seed)
    controller.poll()          # the haystack and the first roll
    return controller


def test_undo_takes_a_move_back_until_the_look():
    controller = person_game()
    state = controller.state
    while state.current_player() != 0 or not any(a.kind == "mole" and state.pos[a.a] == 0
                                                  for a in state.legal_actions()):
        controller.submit(state.legal_actions()[0])      # play on until seat 0 moves a mole
        if state.to_dict()["phase"] == "look":
            controller.submit(Act("no-look"))
        controller.poll()
    before = state.to_dict()
    mole = next(a for a in state.legal_actions() if a.kind == "mole" and state.pos[a.a] == 0)
    controller.submit(mole)
    assert controller.state.to_dict()["phase"] == "look" and controller.can_undo()
    assert controller.undo() and controller.state.to_dict() == before
    controller.submit(mole)
    controller.submit(Act("look"))
    assert not controller.can_undo()                     # the look showed the clan
    controller.submit(Act("done"))
    controller.close()


def test_the_roll_cannot_be_undone():
    controller = person_game()
    assert controller.history[-1].reveal and not controller.can_undo()
    controller.close()


# --- hidden information ------------------------------------------------------------------------------

def arranged(players: int = 2, seed: int = 0, **settings: Any) -> BuddelState:
    state = new_game(players, **settings)
    rng = random.Random(seed)
    while state.to_dict()["phase"] == "arrange":
        state.apply(state.random_action(rng))
    return state


def clans_seen(state: BuddelState, seat: int) -> dict[int, str | None]:
    return {mole["spot"]: mole["clan"] for mole in state.redacted(seat).to_dict()["moles"]}


def test_each_seat_sees_only_its_own_moles_at_the_start():
    state = arranged(3, seed=4)
    for seat in range(3):
        seen = clans_seen(state, seat)
        mine = {m + 1 for m in range(9) if state.clan[m] == seat}
        assert {spot for spot, clan in seen.items() if clan is not None} == mine
        assert all(clan == CLANS[seat] for spot, clan in seen.items() if clan is not None)


def test_without_know_own_nobody_knows_any_clan():
    state = arranged(2, seed=4, know_own="off")
    assert all(clan is None for seat in range(2) for clan in clans_seen(state, seat).values())
    assert state.redacted(0).clan == [UNKNOWN] * 6


def test_a_look_shows_the_clan_to_the_looker_alone():
    state = table({6: 10}, moles=[(c, s) for c in CLANS[:3] for s in SIZES], players=3)
    state.apply(state.action_from_str("roll any leaf"))
    state.apply(state.action_from_str("mole 7"))           # seat 0 moves the worms' small mole
    assert clans_seen(state, 0)[7] is None
    state.apply(Act("look"))
    assert clans_seen(state, 0)[7] == "worms"
    assert clans_seen(state, 1)[7] is None                  # seat 1 saw only that seat 0 looked
    assert state.redacted(1).to_dict()["looked"] == [[7], [], []]
    state.apply(Act("done"))
    assert clans_seen(state, 0)[7] == "worms"               # remembered on later turns


def test_a_mole_in_its_den_is_turned_over_for_everyone():
    state = table({6: 23})
    state.apply(state.action_from_str("roll large clover"))
    assert clans_seen(state, 0)[6] is None
    state.apply(state.action_from_str("mole 6"))
    assert clans_seen(state, 0)[6] == "ants" and clans_seen(state, 1)[6] == "ants"


def test_nothing_hidden_leaks_into_the_redacted_state():
    state = arranged(4, seed=9)
    for seat in range(4):
        text = json.dumps(state.redacted(seat).to_dict()["moles"])
        for other in range(4):
            assert (CLANS[other] in text) == (other == seat)


def test_resampling_deals_the_unknown_clans_from_the_seats_knowledge_only():
    state = table({6: 10, 2: 4}, moles=[(c, s) for c in CLANS[:3] for s in SIZES], players=3,
                  looked=[[6], [], []])
    redacted = state.redacted(0)
    assert redacted.clan == [0, 0, 0, UNKNOWN, UNKNOWN, 1, UNKNOWN, UNKNOWN, UNKNOWN]
    dealt: dict[int, set[int]] = {m: set() for m in range(9)}
    rng = random.Random(1)
    for _ in range(200):
        sample = redacted.resample(0, rng)
        for size in range(3):                              # one clan of each size per clan
            assert sorted(sample.clan[m] for m in range(9) if sample.size[m] == size) == [0, 1, 2]
        for mole, clan in enumerate(sample.clan):
            dealt[mole].add(clan)
    assert [dealt[m] for m in (0, 1, 2, 5)] == [{0}, {0}, {0}, {1}]   # what seat 0 knows stays
    assert dealt[3] == dealt[6] == {1, 2}                  # the unknown small moles: ants or worms
    assert dealt[4] == dealt[7] == {1, 2} and dealt[8] == {2}   # the large ant is known: worms
    assert redacted.resample(0, rng).redacted(0).to_dict() == redacted.to_dict()


def test_the_decline_is_offered_from_the_movers_knowledge_in_every_determinization():
    state = table({3: "den", 6: 23}, looked=[[6], []])
    state.apply(state.action_from_str("roll large clover"))
    rng = random.Random(0)
    for _ in range(20):
        assert state.redacted(0).resample(0, rng).legal_actions() == [Act("decline"), Act("mole", 5)]


# --- settings, notation, saved states ------------------------------------------------------------------

@pytest.mark.parametrize(("players", "settings", "message"), [
    (5, {}, "for 2 to 4 players, not 5"),
    (1, {}, "for 2 to 4 players, not 1"),
    (2, {"first": 2}, "first player must sit at one of the 2 seats"),
    (3, {"know_own": "maybe"}, "know_own must be on or off"),
    (2, {"colour": "red"}, "unknown setting 'colour'"),
])
def test_bad_settings_say_why(players, settings, message):
    with pytest.raises(SettingsError, match=message):
        get_game("buddel_bande").new_game(players, settings)


def test_settings_first_and_know_own():
    state = get_game("buddel_bande").new_game(4, {"first": 3, "know_own": False})
    assert state.first == 3 and state.know_own is False and state.num_players == 4
    assert new_game(2, know_own="on").know_own and not new_game(2, know_own=0).know_own


def test_notation_round_trip():
    state = arranged(4)
    actions = [Act("mole", 0), Act("mole", 11), Act("dog", 1), Act("dog", 24), Act("decline"),
               Act("look"), Act("no-look"), Act("done"), *ROLLS, Act("arrange", 3, 2)]
    for action in actions:
        assert state.action_from_str(state.action_to_str(action)) == action
    assert state.action_to_str(Act("roll", 5, 2)) == "roll dog-or-any clover"
    for bad, message in [("mole 13", "no mole 13"), ("dog 25", "holes 1 to 24"), ("fly", "not a Buddel")]:
        with pytest.raises(IllegalAction, match=message):
            state.action_from_str(bad)


def test_a_game_saves_and_loads_at_every_node():
    state = arranged(3, seed=2)
    rng = random.Random(2)
    while not state.is_terminal():
        data = json.loads(json.dumps(state.to_dict()))
        assert BuddelState.from_dict(data).to_dict() == data
        state.apply(state.random_action(rng))
    assert BuddelState.from_dict(state.to_dict()).returns() == state.returns()


def broken(change) -> dict:
    data = table({1: 5, 6: "den"}).to_dict()
    change(data)
    return data


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(players=7), "players must be a whole number from 2 to 4"),
    (lambda d: d["moles"][1].update(at=5), "hole 5 holds two moles"),
    (lambda d: d["moles"][0].update(size="huge"), "size must be small, medium or large"),
    (lambda d: d["moles"][0].update(clan="snails"), "not in play"),
    (lambda d: d["moles"][1].update(size="small"), "two small ladybirds"),
    (lambda d: d.update(dens={"ladybirds": 0, "ants": 0}), "dens do not match"),
    (lambda d: d.update(dog=25), "dog must be a whole number from 1 to 24"),
    (lambda d: d.update(phase="dance"), "phase must be one of"),
    (lambda d: d.update(roll=["large", "flower"]), "a roll is in play exactly while"),
    (lambda d: d.update(winner=1), "the game is over exactly when"),
    (lambda d: d.update(looked=[[9], []]), r"looked\[0\] must be a whole number from 1 to 6"),
    (lambda d: d.pop("dog"), "KeyError"),
    (lambda d: d.update(moles="six"), "moles must list the 6 moles"),
])
def test_from_dict_says_what_is_wrong(change, message):
    with pytest.raises(ValueError, match=message):
        BuddelState.from_dict(broken(change))


def test_a_mole_at_the_den_entrance_is_a_mole_in_its_den():
    assert DEN_ENTRANCE == 25 and IN_DEN != DEN_ENTRANCE
    state = table({4: 24}, dog=12)
    state.apply(state.action_from_str("roll small leaf"))
    state.apply(Act("mole", 3))
    assert state.pos[3] == IN_DEN and state.to_dict()["last_turn"]["move"] == {
        "kind": "mole", "spot": 4, "from": 24, "to": 25, "den": "ants"}
