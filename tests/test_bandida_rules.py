"""Bandida's rules: the decks against the rule book's tables, placement legality (each edge, each
rotation, taken cells, unconnected cards) against an independent checker written from the rule
text, every object and alarm effect, swap and pass, the win and the loss in each mode, the
provable early loss, hidden hands, and the notation."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from simulator.core.errors import IllegalAction, SettingsError
from simulator.core.state import CHANCE, TERMINAL
from simulator.games.bandida import cards, rules
from simulator.games.bandida.cards import KINDS, kind_of
from simulator.games.bandida.rules import (
    KEEP,
    PASS,
    SWAP,
    BandidaEnding,
    BandidaRefusal,
    BandidaState,
    Move,
)

RULE_BOOK = Path(__file__).resolve().parent.parent / "docs" / "RULES-BANDIDA.md"
EDGE_WORDS = {"A-end": "Ae", "A-top": "At", "A-bottom": "Ab", "B-end": "Be", "B-top": "Bt",
              "B-bottom": "Bb"}


def k(code: str) -> int:
    return kind_of(code).index


# --- the decks, read from the rule book's tables ----------------------------------------------------
def _table_rows(text: str, header: str) -> list[list[str]]:
    """The rows of the markdown table that follows `header` (cells stripped)."""
    lines = text[text.index(header):].splitlines()
    rows, started = [], False
    for line in lines:
        line = line.strip()
        if line.startswith("|"):
            started = True
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not set("".join(cells)) <= set("-"):
                rows.append(cells)
        elif started:
            break
    return rows[1:]                  # without the heading row


def _openings(cell: str) -> list[str]:
    """'{A-end, B-bottom}; {A-top}' -> ['Ae+Bb', 'At'] (canonical edge order)."""
    sets = re.findall(r"\{([^}]*)\}", cell)
    return [cards.canonical_shape("+".join(EDGE_WORDS[w.strip()] for w in s.split(","))) for s in sets]


def test_bandidos_deck_is_the_rule_books_table():
    text = RULE_BOOK.read_text()
    expected: Counter[int] = Counter()
    for copies, configurations in _table_rows(text, "### Bandido's deck"):
        each = int(re.match(r"(\d+) each", copies).group(1))
        for shape in _openings(configurations):
            expected[k(shape)] += each
    assert len(expected) == 31 and sum(expected.values()) == 69
    assert cards.bandido_deck() == expected


def test_bandidas_deck_is_the_rule_books_list():
    text = RULE_BOOK.read_text()
    rows = _table_rows(text, "### Bandido's deck")
    dead_ends = _openings(rows[0][1])
    two_cell = [s for row in rows[1:] for s in _openings(row[1])]
    two_openings, three_openings = _openings(rows[1][1]), _openings(rows[2][1])
    expected: Counter[int] = Counter()
    for shape in dead_ends:
        expected[k(shape)] += 3
    for shape in two_cell:
        expected[k(shape)] += 1
    for shape in two_openings + three_openings[:5]:
        expected[k(shape)] += 1
    assert sum(expected.values()) == 56
    objects = _table_rows(text, "10 object cards")
    assert len(objects) == 5
    for icon, copies, shape in objects:
        expected[k(f"{icon}:{_openings(shape)[0]}")] += int(copies)
    expected[k("alarm1")] += 1
    expected[k("alarm2")] += 1
    expected[k("ladder")] += 1
    deck = cards.bandida_deck()
    assert deck == expected and sum(deck.values()) == 69
    by_icon = Counter(KINDS[i].icon for i in deck.elements())
    assert by_icon == {"": 56, "backpack": 3, "dynamite": 3, "discard": 2, "skip": 2, "alarm1": 1,
                       "alarm2": 1, "ladder": 1}


def test_special_cards_shapes():
    assert KINDS[k("ladder")].shape == "Ae"
    assert KINDS[k("super")].openings(6) == "Ae+At+Ab+Be+Bt+Bb"
    assert KINDS[k("super")].openings(5) == "Ae+At+Ab+Bt+Bb"           # all but B-end
    assert KINDS[k("cell")].openings(5) == KINDS[k("super")].openings(5)


# --- an independent placement checker, from the rule text --------------------------------------------
# rotation 0: the edge's cell (0 = A, 1 = B) and the outward direction as a vector
EDGE_AT = {"Ae": (0, (-1, 0)), "At": (0, (0, 1)), "Ab": (0, (0, -1)), "Be": (1, (1, 0)),
           "Bt": (1, (0, 1)), "Bb": (1, (0, -1))}


def _turn(v: tuple[int, int], quarters: int) -> tuple[int, int]:
    x, y = v
    for _ in range(quarters):
        x, y = -y, x
    return x, y


def physical(openings: str, x: int, y: int, r: int) -> frozenset:
    """A placement as what lies on the table: each cell and the set of its open directions."""
    bx, by = _turn((1, 0), r)
    cells = [(x, y), (x + bx, y + by)]
    found: dict[tuple[int, int], set] = {c: set() for c in cells}
    for edge in openings.split("+") if openings else ():
        which, v = EDGE_AT[edge]
        found[cells[which]].add(_turn(v, r))
    return frozenset((c, frozenset(d)) for c, d in found.items())


def table_of(state: BandidaState) -> dict[tuple[int, int], frozenset]:
    table: dict = {}
    for kind, x, y, r, side in state.placed:
        for cell, dirs in physical(KINDS[kind].openings(side), x, y, r):
            table[cell] = dirs
    return table


def independent_legal(table: dict, placement: frozenset) -> bool:
    cells = {c for c, _ in placement}
    if any(c in table for c in cells):
        return False
    joined = False
    for (cx, cy), dirs in placement:
        for v in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            n = (cx + v[0], cy + v[1])
            if n in cells or n not in table:
                continue
            mine, theirs = v in dirs, (-v[0], -v[1]) in table[n]
            if mine != theirs:
                return False
            joined = joined or mine
    return joined


def independent_placements(state: BandidaState, kinds: list[int]) -> set[frozenset]:
    table = table_of(state)
    xs = [c[0] for c in table]
    ys = [c[1] for c in table]
    found = set()
    for kind in set(kinds):
        sides = (5, 6) if KINDS[kind].two_sided else (0,)
        for side in sides:
            for r in range(4):
                for x in range(min(xs) - 2, max(xs) + 3):
                    for y in range(min(ys) - 2, max(ys) + 3):
                        p = physical(KINDS[kind].openings(side), x, y, r)
                        if independent_legal(table, p):
                            found.add((kind, p))
    return found


def engine_placements(state: BandidaState) -> set:
    return {(m.card, physical(KINDS[m.card].openings(m.side), m.x, m.y, m.rotation))
            for m in state.legal_actions() if m.verb == "place"}


# --- positions for the tests --------------------------------------------------------------------------
def position(network=(), hands=((),), pool=None, mode=1, side=6, deck="bandida", ladder=True,
             early_loss=True, late=(), early=0, bottom=(), turn=0) -> BandidaState:
    """A state at the start of `turn`'s turn: the start card plus `network` (code, x, y, degrees),
    the hands, the pile (`pool`; None: every card not named elsewhere), the rest out of the game."""
    players = len(hands)
    state = rules.new_game(players, mode=mode, deck=deck, side=side, ladder=ladder, early_loss=early_loss)
    data = state.to_dict()
    data["network"] = data["network"][:1] + [[c, x, y, deg, s] for c, x, y, deg, *rest in network
                                              for s in [rest[0] if rest else 0]]
    named = [c for c, *_ in network] + [c for h in hands for c in h] + list(late) + [c for c, _ in bottom]
    rest = state.composition()
    rest.subtract(Counter(k(c) for c in named))
    rest[state.placed[0][0]] -= 1
    leftover = sorted(rest.elements())
    if pool is None:
        pool_codes, removed = [KINDS[i].code for i in leftover], []
    else:
        rest.subtract(Counter(k(c) for c in pool))
        pool_codes, removed = list(pool), [KINDS[i].code for i in sorted(rest.elements())]
    assert all(v >= 0 for v in rest.values()), "the test names more cards than the deck has"
    data.update(hands=[list(h) for h in hands], pool=pool_codes, removed=removed, late=list(late),
                early=early, bottom=[list(b) for b in bottom], phase="play", turn=turn, actor=turn,
                draw_left=0, resume="end")
    return BandidaState.from_dict(json.loads(json.dumps(data)))


def play(state: BandidaState, *moves: str) -> BandidaState:
    for text in moves:
        state.apply(state.action_from_str(text))
    return state


# --- placement legality ----------------------------------------------------------------------------------
# start card (6 exits) on 0,0 and 1,0; cell A's openings west, north, south; B's east, north, south
PLACEMENTS = [
    # (network, move, None when legal, else a part of the reason)
    ((), "place Ae+Be 2,0 r0", None),                              # straight meets B-end
    ((), "place Ae 2,0 r0", None),                                 # a dead end closes it
    ((), "place At 2,0 r0", "an open tunnel would meet earth on the west side of 2,0"),
    ((), "place Ae 0,1 r90", None),                                # turned: A-end faces south
    ((), "place Ae 0,1 r0", "an open tunnel would meet earth on the south side of 0,1"),
    ((), "place Ae 0,1 r180", "an open tunnel would meet earth on the south side of 0,1"),
    ((), "place Ae+Be 0,2 r270", None),                            # upright: B-end faces south
    ((), "place Ae 0,2 r270", "an open tunnel would meet earth on the south side of 0,1"),
    ((), "place Ab+Bb 0,1 r0", None),                              # the U closes two exits
    ((), "place Ab+Bb 0,1 r180", "an open tunnel would meet earth on the south side of 0,1"),
    ((), "place Ab+Bb 1,1 r180", "an open tunnel would meet earth on the south side of 1,1"),
    ((), "place Ae 1,0 r0", "cell 1,0 is taken"),
    ((), "place Ae+Be 0,0 r90", "cell 0,0 is taken"),
    ((), "place Ae+Be 5,5 r0", "must join an open tunnel"),
    ((), "place Ae+Be -3,0 r0", "must join an open tunnel"),       # B at -2,0: one cell short
    ((), "place Ae+Be -2,0 r0", None),                             # B-end meets A-end
    ((("Ae", 2, 0, 0),), "place Ab+Bb 2,1 r0", "a tunnel would run into earth on the south side of 2,1"),
    ((("Ae", 2, 0, 0),), "place Ab 1,1 r0", None),                 # joins 1,0; earth on earth at 2,0
    ((("Ae", 2, 0, 0),), "place Ab+Bb 1,1 r0", "a tunnel would run into earth on the south side of 2,1"),
    ((("Ae", 2, 0, 0),), "place Ae 3,0 r0", "cell 3,0 is taken"),
]


@pytest.mark.parametrize(("network", "move", "reason"), PLACEMENTS)
def test_placement_legality(network, move, reason):
    action = rules.new_game(1).action_from_str(move)
    state = position(network, hands=[[KINDS[action.card].code]])
    table = table_of(state)
    p = physical(KINDS[action.card].openings(action.side), action.x, action.y, action.rotation)
    assert independent_legal(table, p) == (reason is None)         # the test's own reading agrees
    if reason is None:
        assert state.is_legal(action)
        state.apply(action)
        assert {c for c, _ in p} <= set(state.cell_mask) and state.placed[-1][0] == action.card
    else:
        assert not state.is_legal(action)
        assert reason in state.illegal_reason(action)
        with pytest.raises(IllegalAction, match=re.escape(reason)) as refused:
            state.apply(action)
        # the refusal in a code and fields too, for a view to word its own way
        code = {"cell": BandidaRefusal.TAKEN, "a tunnel": BandidaRefusal.TUNNEL_INTO_EARTH,
                "an open": BandidaRefusal.EARTH_MEETS_TUNNEL, "must join": BandidaRefusal.NOT_JOINED
                }[next(w for w in ("cell", "a tunnel", "an open", "must join") if reason.startswith(w))]
        found = refused.value.refusal
        assert found.code is code and found.text == state.illegal_reason(action)
        if (named := re.search(r"(-?\d+),(-?\d+)", reason)) is not None:
            assert found.fields["cell"] == (int(named[1]), int(named[2]))
        if (side := re.search(r"on the (\w+) side", reason)) is not None:
            assert found.fields["side"] == side[1]


def test_a_card_not_in_hand_and_a_wrong_side_are_refused():
    state = position(hands=[["Ae"]])
    assert "not in your hand" in state.illegal_reason(Move("place", k("At"), 0, 1, 1))
    state = position(mode=3, hands=[["super"]], late=(), pool=None)
    assert "side" in state.illegal_reason(Move("place", k("super"), 2, 0, 0, 0))
    assert state.is_legal(Move("place", k("super"), 2, 0, 0, 6))


@pytest.mark.parametrize("side", [1000, -1, 2, 5, 6])
def test_a_one_sided_card_on_any_side_is_refused_and_never_reaches_the_save(side, tmp_path):
    """The bug (fuzz, issue 60): a one-sided card placed with side 1000, -1 or 2 was taken; it
    entered the history as 'place At+Ab -1,0 r90 s1000' and the game's own save and autosave
    were then refused ('not a Bandida move')."""
    from simulator.core.controller import Seat, TurnController

    c = TurnController("bandida", {}, [Seat(), Seat()], seed=1, autosave_path=tmp_path / "auto.json")
    c.play_computer_moves()                    # the deal
    legal = next(m for m in c.state.legal_actions()
                 if m.verb == "place" and not KINDS[m.card].two_sided)
    assert legal.side == 0
    forged = Move("place", legal.card, legal.x, legal.y, legal.rotation, side)
    with pytest.raises(IllegalAction, match="side"):
        c.submit(forged)
    c.submit(legal)
    assert TurnController.load(tmp_path / "auto.json").state == c.state


@pytest.mark.parametrize("seed", range(6))
def test_move_generation_matches_the_independent_checker(seed):
    """Random networks: the engine's placements are exactly the rule text's, every rotation."""
    rng = random.Random(seed)
    state = rules.new_game(2, mode=3, side=5 + seed % 2)
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_decision_node() and state.phase == "play":
            hand = state.hands[state.turn]
            assert engine_placements(state) == independent_placements(state, hand)
            for m in state.legal_actions():
                assert state.is_legal(m)
        state.apply(state.random_action(rng))


def test_symmetric_cards_are_listed_once_per_placement():
    state = position(hands=[["Ae+Be"]])
    moves = [m for m in state.legal_actions() if m.verb == "place"]
    shapes = [physical("Ae+Be", m.x, m.y, m.rotation) for m in moves]
    assert len(shapes) == len(set(shapes)) and all(m.rotation < 2 for m in moves)


# --- exits -----------------------------------------------------------------------------------------------
def test_open_exits_follow_the_network():
    assert position(side=6).exits == 6
    assert position(side=5).exits == 5
    state = position([("Ab+Bb", 0, 1, 0)], side=6)                  # closes A-top and B-top
    assert state.exits == 4
    assert set(state.targets) == {(-1, 0), (0, -1), (1, -1), (2, 0)}


# --- effects -------------------------------------------------------------------------------------------
def test_backpack_draws_one_extra_card_until_played_down():
    state = position(hands=[["backpack:Ae+Be", "Ae", "At"]], pool=["Ab"] * 3 + ["Ae+Ab"] * 3)
    play(state, "place backpack:Ae+Be 2,0 r0")
    assert state.phase == "draw" and state.draw_left == 2            # back to 3, and one extra
    play(state, "draw Ab", "draw Ab")
    assert len(state.hands[0]) == 4 and state.phase == "play"
    play(state, "place Ae 4,0 r0")
    assert len(state.hands[0]) == 3 and state.phase == "play"       # later refills: up to 3


def draw_all(state: BandidaState) -> None:
    """Resolve chance (the first outcome each time) until a seat decides or the game ends."""
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0][0])


FILLER = ["Ae+Ab+Be+Bb", "Ae+At+Ab+Bb", "Ae+Ab+Bt+Bb", "At+Ab+Be+Bb", "Ab+Be+Bt+Bb", "At+Ab+Bt+Bb",
          "Ae+At+Ab+Be", "Ae+Ab+Be+Bt", "Ae+At+Be+Bb", "Ae+Ab+Bt", "At+Ab+Be", "Ae+Be+Bb"]


def test_dynamite_blows_up_a_card_that_keeps_the_network_joined():
    # a chain east (2,0 and 4,0) and a leaf on 0,1; the U goes on the chain's end
    network = [("Ae+Be", 2, 0, 0), ("Ae+Be", 4, 0, 0), ("Ae", 0, 1, 90)]
    state = position(network, hands=[["dynamite:Ab+Bb", "At"]], pool=["Ab"] * 3)
    assert state.exits == 5
    play(state, "place dynamite:Ab+Bb 6,0 r270")
    assert state.phase == "blow" and state.current_player() == 0 and state.exits == 5
    assert [(m.x, m.y) for m in state.legal_actions()] == [(0, 1)]
    assert "cut other cards off" in state.illegal_reason(Move("blow", -1, 2, 0))
    assert "cut other cards off" in state.illegal_reason(Move("blow", -1, 4, 0))
    assert "start card" in state.illegal_reason(Move("blow", -1, 0, 0))
    assert "the card it is on" in state.illegal_reason(Move("blow", -1, 6, 0))
    play(state, "blow 0,1")
    assert k("Ae") in state.removed and (0, 1) not in state.cell_mask and (0, 2) not in state.cell_mask
    assert state.exits == 6 and state.targets[(0, 1)] == 1             # the start's A-top is open again
    assert state.phase == "draw" and state.draw_left == 2


def _joined_without(state: BandidaState, index: int) -> bool:
    """The rule text, by brute force: every other card reaches the start card without `index`."""
    cells = {cell: card for cell, card in state.cell_card.items() if card != index}
    seen, todo = {0}, [0]
    while todo:
        card = todo.pop()
        for (x, y), owner in cells.items():
            if owner != card:
                continue
            for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
                other = cells.get((x + dx, y + dy))
                if other is not None and other not in seen:
                    seen.add(other)
                    todo.append(other)
    return len(seen) == len(state.placed) - 1


@pytest.mark.parametrize("seed", range(3))
def test_blast_targets_are_the_cards_whose_loss_cuts_nothing_off(seed):
    rng = random.Random(seed)
    state = rules.new_game(1, deck="bandido", side=6)
    checked = 0
    while not state.is_terminal():
        if state.phase == "play" and len(state.placed) > 3:
            expected = [i for i in range(1, len(state.placed))
                        if _joined_without(state, i) and state.placed[i][0] != k("ladder")]
            assert state.blast_targets() == expected
            checked += 1
        state.apply(state.random_action(rng))
    assert checked > 5


def test_dynamite_never_blows_the_ladder_or_the_card_just_placed():
    state = position([("ladder", 2, 0, 0)], mode=2, hands=[["dynamite:Ae+Be"]], pool=FILLER)
    play(state, "place dynamite:Ae+Be -2,0 r0")
    assert state.phase == "draw" and "no card can be blown up" in state.event


def test_discard_lets_everyone_discard_up_to_two_and_draw_back_up():
    state = position(hands=[["discard:Ab+Bt", "Ae", "At"], ["Ab", "Ae+At", "Ae+Ab"]], pool=FILLER)
    play(state, "place discard:Ab+Bt 2,0 r270")
    assert state.phase == "discard" and state.current_player() == 0
    assert state.legal_actions() == [Move("discard", k("Ae")), Move("discard", k("At")), KEEP]
    play(state, "discard Ae", "keep")
    assert state.phase == "draw" and state.draw_seat == 0 and state.draw_left == 2   # back up to 3
    draw_all(state)
    assert state.phase == "discard" and state.current_player() == 1
    play(state, "discard Ab", "discard Ae+At")                      # two: done at once
    assert state.phase == "draw" and state.draw_seat == 1 and state.draw_left == 2
    draw_all(state)
    assert [len(h) for h in state.hands] == [3, 3] and state.turn == 1 and state.phase == "play"
    assert Counter(state.removed) >= Counter([k("Ae"), k("Ab"), k("Ae+At")])


def test_discard_never_offers_the_ladder():
    state = position(mode=2, hands=[["discard:Ab+Bt", "ladder", "Ae"], ["Ab"]], pool=FILLER)
    play(state, "place discard:Ab+Bt 2,0 r270")
    assert state.current_player() == 0 and state.legal_actions() == [Move("discard", k("Ae")), KEEP]
    assert "never discarded" in state.illegal_reason(Move("discard", k("ladder")))
    play(state, "keep")
    assert state.current_player() == 1                               # no draw: nothing discarded


def test_skip_makes_the_placer_miss_their_next_turn():
    state = position(hands=[["skip:Ab+Be", "Ae"], ["Ab", "At"]], pool=FILLER)
    play(state, "place skip:Ab+Be 3,0 r180")
    draw_all(state)
    assert state.turn == 1 and state.skip == [True, False]
    state.apply(state.legal_actions()[0])
    draw_all(state)
    assert state.turn == 1 and state.skip == [False, False]          # seat 0 was skipped
    assert state.event.endswith("Player 1 sits out this turn (skip).")  # and the table is told
    state.apply(state.legal_actions()[0])
    draw_all(state)
    assert state.turn == 0


def test_skip_does_nothing_alone():
    state = position(hands=[["skip:Ab+Be", "Ae"]], pool=FILLER)
    play(state, "place skip:Ab+Be 3,0 r180")
    draw_all(state)
    assert state.skip == [False] and state.turn == 0 and state.phase == "play"


def test_alarm_1_everyone_discards_one_and_the_drawer_stays_short():
    state = position(hands=[["Ae", "At", "Ab"], ["Ae+At", "Ae+Ab", "At+Ab"]], pool=["alarm1", "Ae+At+Ab"])
    play(state, "place Ae 2,0 r0")
    assert state.current_player() == CHANCE and len(state.chance_outcomes()) == 2
    play(state, "draw alarm1")
    assert state.phase == "alarm" and state.current_player() == 0
    assert KEEP not in state.legal_actions()
    assert "must discard" in state.illegal_reason(KEEP)
    play(state, "discard At", "discard Ae+At")
    assert state.phase == "draw" and state.draw_seat == 0
    play(state, "draw Ae+At+Ab")                                    # the replacement
    assert [len(h) for h in state.hands] == [2, 2] and state.turn == 1
    assert k("alarm1") in state.removed


def test_alarm_2_burns_the_top_five_and_shuffles_the_ladder_back():
    pool = ["alarm2", "Ae", "At", "Ab", "Ae+At", "Ae+Ab", "At+Ab", "Ae+At+Ab", "ladder"]
    state = position(mode=2, hands=[["Ae+Be", "Ab", "At"]], pool=pool)
    play(state, "place Ae+Be 2,0 r0", "draw alarm2")
    assert state.phase == "burn" and state.current_player() == CHANCE
    play(state, "draw Ae", "draw ladder", "draw At", "draw Ab", "draw Ae+At")
    assert state.phase == "draw"
    assert k("ladder") in state.pool and k("ladder") not in state.removed
    assert Counter(state.removed) >= Counter(k(c) for c in ("alarm2", "Ae", "At", "Ab", "Ae+At"))
    assert "Alarm 2" in state.event


def test_an_alarm_is_never_dealt():
    state = rules.new_game(4)
    while state.current_player() == CHANCE and state.phase == "draw" and state.resume == "deal":
        outcomes = state.chance_outcomes()
        assert not any(m.card in cards.ALARM_KINDS for m, _ in outcomes)
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply(outcomes[-1][0])
    assert all(len(h) == 3 for h in state.hands) and state.phase == "play"


def test_mode_2_keeps_the_ladder_out_of_the_top_ten():
    state = rules.new_game(2, mode=2)
    rng = random.Random(1)
    while state.phase != "play":
        state.apply(state.random_action(rng))
    assert state.late == [k("ladder")] and state.early == 10 and k("ladder") not in state.pool
    drawn = 0
    while state.early > 0:
        assert k("ladder") not in state.pool and not state.is_terminal()
        drawn += state.phase in ("deal", "draw")
        state.apply(state.random_action(rng))
    assert drawn == 10 and k("ladder") in state.pool and not state.late


def test_mode_3_shuffles_the_super_card_and_the_ladder_in():
    state = rules.new_game(1, mode=3)
    assert sorted(state.composition()[i] for i in (k("super"), k("ladder"), k("cell"))) == [1, 1, 1]
    assert rules.new_game(1, mode=3, ladder=False).composition()[k("ladder")] == 0


# --- swap and pass ------------------------------------------------------------------------------------
# start (6 exits) with every exit closed but 0,1, which two openings face (south and east): a
# single-opening dead end can never fill it
TIGHT = [("Ae+At", 1, 1, 90), ("Ae", -1, 0, 180), ("Ae", 2, 0, 0), ("Ab+Bb", 1, -1, 180)]


def test_swap_when_nothing_fits_and_pass_with_an_empty_pile():
    state = position(TIGHT, hands=[["At", "At", "Ab"]], pool=["Ae+Ab", "Ae+At", "Ae+At+Ab"], early_loss=False)
    assert state.exits == 2 and list(state.targets) == [(0, 1)]
    assert state.legal_actions() == [SWAP]
    assert "still has cards" in state.illegal_reason(PASS)
    play(state, "swap")
    assert state.bottom == [(k("At"), 0), (k("At"), 0), (k("Ab"), 0)]
    draw_all(state)
    assert state.hands[0] == sorted([k("Ae+Ab"), k("Ae+At"), k("Ae+At+Ab")]) and state.turn == 0
    assert state.phase == "play" and state.legal_actions()[0].verb == "place"
    state = position(TIGHT, hands=[["At"], ["Ae+Ab"]], pool=[], early_loss=False)
    assert state.legal_actions() == [PASS]
    assert "pile is empty" in state.illegal_reason(SWAP)
    play(state, "pass")
    assert state.turn == 1 and state.hands[0] == [k("At")] and state.phase == "play"


# --- the end -------------------------------------------------------------------------------------------
U_BOTH = [("Ab+Bb", 0, 1, 0), ("Ab+Bb", 1, -1, 180)]     # side 5: leaves only the A-end exit


def test_mode_1_is_won_when_no_exit_is_left():
    state = position(U_BOTH, side=5, hands=[["Ae"]], pool=["At"] * 3)
    assert state.exits == 1
    play(state, "place Ae -1,0 r180")
    assert state.is_terminal() and state.result == "won" and state.returns() == [1.0]
    assert "caught" in state.reason and state.winners() == [0]


def test_mode_2_needs_the_ladder_in_the_network():
    state = position(U_BOTH, mode=2, side=5, hands=[["ladder", "Ae"], ["At"]], pool=["At", "Ab", "Ab"])
    assert "earth" in state.illegal_reason(Move("place", k("ladder"), -2, 0, 0))
    play(state, "place ladder -1,0 r180")
    assert state.result == "won" and "escapes" in state.reason
    state = position(U_BOTH, mode=2, side=5, hands=[["Ae", "ladder"], ["At"]], pool=["At", "Ab", "Ab"])
    play(state, "place Ae -1,0 r180")
    assert not state.is_terminal()                                   # all closed, but no ladder
    draw_all(state)
    assert state.result == "lost" and "the ladder never reached" in state.reason
    assert state.returns() == [-1.0, -1.0] and state.winners() == []


# the super card west of the start, and dead ends closing its top and one bottom: one exit left
SUPER_WEST = [*U_BOTH, ("super", -1, 0, 180, 5), ("Ae", -1, 1, 90), ("Ae", -2, 1, 90), ("Ae", -1, -1, 270)]


def test_mode_3_is_won_with_the_super_card_in_and_every_exit_closed():
    state = position(SUPER_WEST, mode=3, ladder=False, side=5, hands=[["Ab"]], pool=FILLER)
    assert state.exits == 1 and list(state.targets) == [(-2, -1)]
    play(state, "place Ab -2,-1 r180")
    assert state.result == "won" and "lovers escape" in state.reason


def test_mode_3_with_the_ladder_needs_it_too():
    state = position(SUPER_WEST, mode=3, side=5, hands=[["Ab", "ladder"]], pool=FILLER)
    play(state, "place ladder -2,-1 r270")
    assert state.result == "won"
    state = position(SUPER_WEST, mode=3, side=5, hands=[["Ab", "ladder"]], pool=FILLER)
    play(state, "place Ab -2,-1 r180")
    draw_all(state)
    assert state.result == "lost" and "the ladder" in state.reason


def test_mode_3_is_lost_when_the_super_card_is_blown_up():
    state = position(SUPER_WEST, mode=3, ladder=False, side=5, hands=[["dynamite:Ae+Be"]], pool=FILLER)
    play(state, "place dynamite:Ae+Be -2,-1 r270")
    assert state.phase == "blow"
    blow = [m for m in state.legal_actions() if (m.x, m.y) == (-1, 0)]
    assert blow, "the super card may be blown up (it is not a start card)"
    state.apply(blow[0])
    draw_all(state)
    assert state.result == "lost" and "super card has left the game" in state.reason


def test_no_card_left_that_fits_loses_even_without_the_early_loss():
    state = position(TIGHT, hands=[["At"], ["Ab"]], pool=["At", "Ab", "Ae"], early_loss=False)
    assert state.result == "lost" and "No card left in the game fits" in state.reason


def test_the_empty_pile_with_no_card_to_place_loses():
    state = position(TIGHT, hands=[["At"], ["Ab"]], pool=[], early_loss=False)
    assert state.result == "lost" and "pile is empty" in state.reason


def test_with_one_card_in_the_pile_the_swap_is_still_made():
    """The publisher: the cards go under the pile first, then 3 are drawn from the top, so some
    of the player's own come back last; only an empty pile stops the swap."""
    state = position(TIGHT, hands=[["At", "At", "Ab"]], pool=["Ae+Ab"], early_loss=False)
    assert not state.is_terminal() and state.legal_actions() == [SWAP]
    play(state, "swap")
    draw_all(state)
    assert sorted(state.hands[0]) == sorted([k("Ae+Ab"), k("At"), k("At")])   # the top, then own
    assert state.bottom == [(k("Ab"), 0)]
    assert state.phase == "play" and state.legal_actions()[0].verb == "place"   # and it can win on


def test_a_short_pile_is_lost_only_when_no_card_left_fits():
    state = position(TIGHT, hands=[["At"], ["Ab"]], pool=["Ab"], early_loss=False)
    assert state.result == "lost" and "No card left in the game fits" in state.reason


# --- the provable early loss ------------------------------------------------------------------------------
def _dead_cell_position(**kwargs) -> BandidaState:
    # the card on 1,1 turns its A-top west, so 0,1 is faced by two openings; a dead end can't fill it
    return position([("Ae+At", 1, 1, 90)], hands=[["At", "Ab"]], **kwargs)


def test_early_loss_names_the_cell_that_can_never_be_closed():
    state = _dead_cell_position(pool=["At", "Ab", "Ab"])
    assert state.result == "lost" and "0,1" in state.reason and "no dynamite" in state.reason
    # the test's own checker agrees: no card left covers 0,1 legally
    table = table_of(state)
    for kind in state.cards_left():
        for r in range(4):
            for x, y in ((0, 1), (-1, 1), (1, 1), (0, 2), (0, 0), (-1, 1)):
                p = physical(KINDS[kind].openings(), x, y, r)
                assert not (independent_legal(table, p) and (0, 1) in {c for c, _ in p})


def test_no_early_loss_while_dynamite_is_left_or_when_the_setting_is_off():
    assert not _dead_cell_position(pool=["At", "Ab", "dynamite:Ae+Be"]).is_terminal()
    assert not _dead_cell_position(pool=["At", "Ab", "Ab"], early_loss=False).is_terminal()
    assert not _dead_cell_position(pool=["At", "Ab", "Ae+At"]).is_terminal()   # Ae+At fills it


def test_every_early_loss_in_random_games_is_true():
    checked = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = rules.new_game(1 + seed % 4, mode=1 + seed % 3, side=5 + seed % 2,
                               deck="bandido" if seed % 3 == 0 else "bandida")
        while not state.is_terminal():
            state.apply(state.random_action(rng))
        match = re.search(r"cell (-?\d+),(-?\d+) can never", state.reason)
        if match:
            checked += 1
            cell = (int(match.group(1)), int(match.group(2)))
            assert cell in state.targets and not state.cards_left() & cards.DYNAMITE_KINDS
            for _kind, p in independent_placements(state, list(state.cards_left())):
                assert cell not in {c for c, _ in p}
    assert checked >= 3


# --- turns, chance and hidden hands ---------------------------------------------------------------------
def test_a_game_starts_with_the_deal_as_chance():
    state = rules.new_game(3, side=5)
    assert state.current_player() == CHANCE and state.exits == 5
    assert state.pile_count() == 68
    rng = random.Random(2)
    while state.current_player() == CHANCE:
        state.apply(state.random_action(rng))
    assert state.current_player() == 0 and state.pile_count() == 68 - 9


def test_a_seat_is_shown_only_its_own_hand_and_the_pile_count():
    state = position(hands=[["Ae", "At"], ["Ab", "Ae+At"]], bottom=[("Ae+Ab", 1)])
    redacted = state.redacted(0)
    seen = redacted.to_dict()
    pile = 68 - 4 - 1 + 1                  # the deck less the ladder and the hands; one card under
    assert seen["hands"][0] == ["Ae", "At"] and [len(h) for h in seen["hands"]] == [2, 2]
    assert redacted.pile_count() == pile
    text = json.dumps(seen)
    assert seen["removed"] == [] and not any(f'"{code}"' in text for code in ["Ab", "Ae+At", "Ae+Ab"])
    assert redacted.hands[1] == [cards.UNKNOWN] * 2 and set(redacted.pool) == {cards.UNKNOWN}
    assert state.redacted(1).to_dict()["bottom"] == [["Ae+Ab", 1]]


def test_resample_deals_only_unseen_cards_and_keeps_what_the_seat_sees():
    state = rules.new_game(3, mode=2)
    rng = random.Random(5)
    for _ in range(60):
        state.apply(state.random_action(rng))
    for seat in range(3):
        redacted = state.redacted(seat)
        for n in range(5):
            guess = redacted.resample(seat, random.Random(n))
            assert guess.hands[seat] == state.hands[seat]
            assert guess.redacted(seat).to_dict() == redacted.to_dict()
            assert Counter(guess.pool + [c for h in guess.hands for c in h]) + Counter(
                c for c, _ in guess.bottom) == Counter(state.pool + [c for h in state.hands for c in h]) + Counter(
                c for c, _ in state.bottom)
            assert not any(c in cards.ALARM_KINDS for h in guess.hands for c in h)
            assert BandidaState.from_dict(guess.to_dict()).to_dict() == guess.to_dict()


# --- settings, saves and notation -------------------------------------------------------------------------
@pytest.mark.parametrize(("settings", "words"), [
    ({"mode": 4}, "mode must be one of"),
    ({"deck": "bandido", "mode": 2}, "mode 1 only"),
    ({"ladder": "off"}, "mode 3 choice"),
    ({"side": 7}, "side must be one of"),
    ({"early_loss": "maybe"}, "on or off"),
])
def test_bad_settings_say_why(settings, words):
    with pytest.raises(SettingsError, match=words):
        rules.new_game(2, **settings)


def test_settings_from_the_command_line_are_text():
    state = rules.new_game(2, mode="3", side="5", ladder="off", early_loss="on", deck="bandida")
    assert (state.mode, state.side, state.ladder, state.early_loss) == (3, 5, False, True)


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(mode=5), "mode"),
    (lambda d: d["hands"][0].append("Ae"), "add up"),
    (lambda d: d.update(phase="dance"), "phase"),
    (lambda d: d["network"].append(["Ae", 0, 0, 0, 0]), "overlaps"),
    (lambda d: d["network"][0].__setitem__(3, 45), "rotation"),
    (lambda d: d.update(result="won"), "over"),
    (lambda d: d["hands"][0].__setitem__(0, "Zz"), "not a Bandida card"),
])
def test_a_damaged_state_is_refused_in_one_line(change, words):
    state = position(hands=[["Ae", "At"]])
    data = json.loads(json.dumps(state.to_dict()))
    change(data)
    with pytest.raises(ValueError, match=words) as error:
        BandidaState.from_dict(data)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("text", ["place Ae+Be 2,-1 r90", "place super 3,4 r270 s5", "swap", "pass",
                                  "blow -2,7", "discard dynamite:Ab+Bb", "keep", "draw alarm2",
                                  "place backpack:Ae+Be 0,1 r0"])
def test_notation_round_trips(text):
    state = rules.new_game(1)
    assert state.action_to_str(state.action_from_str(text)) == text


@pytest.mark.parametrize("text", ["place", "place Ae 1,1 r45", "place Zz 0,0 r0", "blow 1", "dig", ""])
def test_bad_notation_says_how_to_write_a_move(text):
    with pytest.raises(IllegalAction, match="is not a Bandida move"):
        rules.new_game(1).action_from_str(text)


def test_a_seed_replays_a_game_and_the_game_ends():
    def run(seed):
        rng = random.Random(seed)
        state = rules.new_game(3, mode=3)
        moves = []
        while state.current_player() != TERMINAL:
            move = state.random_action(rng)
            moves.append(state.action_to_str(move))
            state.apply(move)
        return moves, state.to_dict()
    assert run(4) == run(4)
    assert run(4)[0] != run(5)[0]


def test_a_finished_game_says_why_it_ended_as_a_code_and_fields():
    """The view rings the cell an early loss names from the ending's fields, never from its
    sentence; each loss has its own code."""
    dead = _dead_cell_position(pool=["At", "Ab", "Ab"])
    ending = dead.ending()
    assert ending is not None and ending.code is BandidaEnding.CELL_NEVER_CLOSED
    assert ending.fields["cell"] == (0, 1) == dead.hopeless_cell() and ending.text == dead.reason
    empty = position(TIGHT, hands=[["At"], ["Ab"]], pool=[], early_loss=False).ending()
    assert empty is not None and empty.code is BandidaEnding.NO_ONE_CAN_PLACE
    nothing = position(TIGHT, hands=[["At"], ["Ab"]], pool=["Ab"], early_loss=False).ending()
    assert nothing is not None and nothing.code is BandidaEnding.NOTHING_FITS
    assert position(TIGHT, hands=[["At", "At", "Ab"]], pool=["Ae+Ab"], early_loss=False).ending() is None


def test_the_codes_are_the_words_they_always_were():
    """Codes are enum members, and each is the plain word it was as a string: JSON, logs and
    anything that kept one read the same."""
    assert [str(code) for code in BandidaRefusal] == [
        "not_in_hand", "never_placed", "rotation", "side", "taken", "tunnel_into_earth",
        "earth_meets_tunnel", "not_joined"]
    assert [str(code) for code in BandidaEnding] == [
        "caught", "escaped", "lost", "special_card_gone", "special_card_missing",
        "no_one_can_place", "nothing_fits", "cell_never_closed"]
    assert json.dumps({"code": BandidaEnding.CELL_NEVER_CLOSED}) == '{"code": "cell_never_closed"}'
    assert BandidaRefusal("taken") is BandidaRefusal.TAKEN == "taken"


def test_cards_are_named_by_what_they_do_not_by_their_edge_names():
    """The play-test: the log said 'placed tunnel (A-top)'; edge names are the notation's."""
    from simulator.games.bandida.words import describe_move

    titles = {kind.code: kind.title() for kind in KINDS}
    assert not any(edge in title for title in titles.values() for edge in ("A-", "B-", "(At", "Ae"))
    assert describe_move("place At 0,1 r0") == "placed a dead end"
    assert describe_move("place Ae+Be 2,0 r0") == "placed a straight tunnel"
    assert describe_move("place Ae+Ab+Bb 2,0 r0") == "placed a 3-way tunnel"
    assert describe_move("discard Ae+At") == "discarded a dead end of 2 openings"
    assert titles["dynamite:Ab+Bb"] == "dynamite (a bent tunnel)"


def test_the_first_player_is_a_setting_as_in_the_other_games():
    """Issue 60: RULES: "the youngest player (setting: seat 0) starts"; `first` was refused as
    unknown."""
    import random

    from simulator.core import registry

    state = registry.get_game("bandida").new_game(3, {"first": 2})
    rng = random.Random(1)
    while state.current_player() == CHANCE:
        state.apply(state.random_action(rng))
    assert state.current_player() == 2
    again = type(state).from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict() and again.current_player() == 2
    with pytest.raises(SettingsError, match="one of the 2 seats"):
        registry.get_game("bandida").new_game(2, {"first": 2})
