"""Table-driven Tanbo rule tests: scripted positions with the expected legal moves and removals."""

from __future__ import annotations

import random

import pytest

from simulator.core.errors import IllegalAction, SettingsError
from simulator.games.tanbo.reference import NaiveTanbo
from simulator.games.tanbo.rules import BLACK, WHITE, Place, TanboState, new_game


def position(rows: list[str], to_move: str = "black") -> TanboState:
    """A state from rows drawn top row first, like the board on screen."""
    return TanboState.from_dict({"width": len(rows[0]), "height": len(rows), "board": rows, "to_move": to_move})


def names(state: TanboState, points) -> list[str]:
    return [state.action_to_str(state.geo.actions[i]) for i in points]


# --- starting positions ------------------------------------------------------------------------

@pytest.mark.parametrize(("settings", "width", "height", "black", "white"), [
    ({}, 7, 7, 8, 8),
    ({"size": 11}, 11, 11, 18, 18),
    ({"size": 15}, 15, 15, 32, 32),
    ({"size": 19}, 19, 19, 50, 50),
    ({"width": 5, "height": 7}, 5, 7, 6, 6),
    ({"width": 7, "height": 9}, 7, 9, 10, 10),
    ({"width": 9, "height": 11}, 9, 11, 15, 15),
    ({"width": 11, "height": 13}, 11, 13, 21, 21),
    ({"start": "classic"}, 19, 19, 8, 8),
])
def test_starting_positions(settings, width, height, black, white):
    state = new_game(**settings)
    assert (state.width, state.height) == (width, height)
    assert (state.stones_of(BLACK), state.stones_of(WHITE)) == (black, white)
    assert state.current_player() == 0
    assert not state.bounded


def test_dense_start_is_the_checkerboard_with_black_in_the_corner():
    assert new_game().board_rows() == [
        "W.B.W.B",
        ".......",
        "B.W.B.W",
        ".......",
        "W.B.W.B",
        ".......",
        "B.W.B.W",
    ]


def test_classic_start_has_sixteen_single_stones_black_on_both_corners():
    state = new_game(start="classic")
    assert state.colour_at(0, 0) == BLACK and state.colour_at(18, 18) == BLACK
    assert state.colour_at(6, 0) == WHITE and state.colour_at(0, 6) == WHITE
    assert sum(1 for c in state.board if c) == 16


@pytest.mark.parametrize(("settings", "message"), [
    ({"size": 8}, "size must be one of"),
    ({"width": 6, "height": 9}, "is not a Tanbo board"),
    ({"size": 7, "start": "classic"}, "19x19"),
    ({"start": "sparse"}, "start must be one of"),
    ({"size": 7, "width": 7, "height": 7}, "either size"),
])
def test_bad_settings_say_why(settings, message):
    with pytest.raises(SettingsError, match=message):
        new_game(**settings)


# --- legal moves --------------------------------------------------------------------------------

LEGAL_CASES = [
    # (rows, to_move, expected legal points)
    (["B....", ".....", "....W", ".....", ".....", ".....", "....."], "black", ["a6", "b7"]),
    # two black stones: c3 touches two of them, so it is not legal; the far sides are
    (["..B..", ".....", "..B..", ".....", ".....", ".....", "W...."], "black", ["b5", "b7", "c4", "d5", "d7"]),
    # stones of the other colour do not matter
    (["B....", "W....", ".....", ".....", ".....", ".....", "....."], "black", ["b7"]),
    (["B....", "W....", ".....", ".....", ".....", ".....", "....."], "white", ["a5", "b6"]),
]


@pytest.mark.parametrize(("rows", "to_move", "expected"), LEGAL_CASES)
def test_legal_moves(rows, to_move, expected):
    state = position(rows, to_move)
    assert names(state, state.legal_points()) == expected
    assert [state.action_to_str(a) for a in state.legal_actions()] == expected


def test_illegal_moves_say_why():
    state = position(["..B..", ".....", "..B..", ".....", ".....", ".....", "W...."])
    with pytest.raises(IllegalAction, match="c6 touches 2 Black stones"):
        state.apply(Place(2, 5))
    with pytest.raises(IllegalAction, match="touches no Black stone"):
        state.apply(Place(4, 0))
    with pytest.raises(IllegalAction, match="already taken"):
        state.apply(Place(2, 6))
    with pytest.raises(IllegalAction, match="off the"):
        state.apply(Place(9, 9))
    assert state.move_number == 0       # nothing changed


# --- removals -----------------------------------------------------------------------------------

# Each case: the position before (top row first, 5 wide and 7 high), who moves, the move, the
# stones removed, the position after, and the winner (None while the game goes on). The cases
# were found by searching random games for each situation; the naive reference confirms them.
REMOVAL_CASES = {
    "case 1: the extended root is bounded, so it alone goes (another root bounded by the same "
    "stone survives, since removing the current root frees its point)": (
        ["..BB.",
         ".W...",
         ".WW..",
         ".B...",
         "BBBWW",
         ".....",
         "B..BB"], "black", "b2", ["a3", "b2", "b3", "b4", "c3"],
        ["..BB.",
         ".W...",
         ".WW..",
         ".....",
         "...WW",
         ".....",
         "B..BB"], None),
    "case 2: the extended root is free, every bounded root goes, of both colours": (
        ["W...W",
         ".....",
         "B.W..",
         "...W.",
         "..BWW",
         "..B..",
         "BWWWB"], "black", "b2", ["a1", "b1", "c1", "d1"],
        ["W...W",
         ".....",
         "B.W..",
         "...W.",
         "..BWW",
         ".BB..",
         "....B"], None),
    "the mover removes the opponent's last root and wins": (
        ["W..WW",
         "W...W",
         "..WW.",
         "..W..",
         "...W.",
         ".WWWB",
         "..WBB"], "white", "e3", ["d1", "e1", "e2"],
        ["W..WW",
         "W...W",
         "..WW.",
         "..W..",
         "...WW",
         ".WWW.",
         "..W.."], "white"),
    "a win on the opponent's turn: Black bounds its own last root, so White wins": (
        [".W...",
         "BWW..",
         "BBWW.",
         "B...W",
         "W...W",
         "W...W",
         ".WWW."], "black", "a7", ["a4", "a5", "a6", "a7", "b5"],
        [".W...",
         ".WW..",
         "..WW.",
         "....W",
         "W...W",
         "W...W",
         ".WWW."], "white"),
}


@pytest.mark.parametrize("case", list(REMOVAL_CASES), ids=lambda c: c.split(":")[0])
def test_removals(case):
    before, to_move, move, removed, after, winner = REMOVAL_CASES[case]
    state = position(before, to_move)
    action = state.action_from_str(move)
    naive = NaiveTanbo(state.width, state.height)
    naive.grid = [[{".": 0, "B": 1, "W": 2}[before[state.height - 1 - y][x]] for y in range(state.height)]
                  for x in range(state.width)]
    naive.to_move = BLACK if to_move == "black" else WHITE
    state.apply(action)
    assert names(state, state.last_removed) == removed
    assert state.board_rows() == after
    assert [state.action_to_str(Place(x, y)) for x, y in naive.play(action.x, action.y)] == removed
    assert state.to_dict()["winner"] == winner
    assert state.is_terminal() == (winner is not None)
    if winner is not None:
        assert state.winners() == [0 if winner == "black" else 1]
        assert state.legal_actions() == []
        with pytest.raises(IllegalAction, match="over"):
            state.apply(Place(0, 0))
    assert not state.bounded


# --- differential test against the literal rule text -------------------------------------------

@pytest.mark.parametrize(("width", "height", "start"), [(7, 7, "dense"), (5, 7, "dense"), (7, 9, "dense"),
                                                  (11, 11, "dense"), (19, 19, "classic")])
def test_incremental_rules_match_the_naive_reference(width, height, start):
    for seed in range(8):
        rng = random.Random(seed)
        state = new_game(width=width, height=height, start=start)
        naive = NaiveTanbo(width, height, start)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert [(a.x, a.y) for a in legal] == naive.legal_points()
            move = rng.choice(legal)
            state.apply(move)
            assert [state.geo.xy(i) for i in state.last_removed] == naive.play(move.x, move.y)
            assert not state.bounded                    # no bounded root survives a turn
        assert state.winner_colour == naive.winner


def test_notation_round_trip():
    state = new_game(size=19)
    for action in state.legal_actions():
        assert state.action_from_str(state.action_to_str(action)) == action
    with pytest.raises(IllegalAction):
        state.action_from_str("z99")
    with pytest.raises(IllegalAction):
        state.action_from_str("hello")


@pytest.mark.parametrize(("data", "message"), [
    ({"width": 7, "height": 7, "board": ["......."] * 6, "to_move": "black"}, "7 rows"),
    ({"width": 7, "height": 7, "board": ["..X...."] + ["......."] * 6, "to_move": "black"}, "'X'"),
    ({"width": 8, "height": 8, "board": ["........"] * 8, "to_move": "black"}, "size must be|not a Tanbo"),
    ({"width": 7, "height": 7, "board": ["......."] * 7, "to_move": "red"}, "to_move"),
    ({"width": 7, "height": 7, "board": ["......."] * 7}, "lacks the key"),
])
def test_from_dict_says_what_is_wrong(data, message):
    with pytest.raises(ValueError, match=message):
        TanboState.from_dict(data)
