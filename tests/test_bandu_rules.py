"""Bandu's rules with a fake referee (scripted results): every auction path and edge case, the
empty reserve, the variants, and invariants over many random games. Runs in milliseconds: no
physics here."""

from __future__ import annotations

import random

import pytest

from simulator.core.errors import IllegalAction, SettingsError
from simulator.core.state import CHANCE, OUTCOME, TERMINAL
from simulator.games.bandu.rules import (
    BUILDING_PIECES,
    BanduState,
    Offer,
    Place,
    Respond,
    Settled,
    new_game,
)

STOOD, FELL = "result stood", "result fell: {}"


def play(state: BanduState, *moves: str) -> BanduState:
    """Apply moves in notation; 'place' alone places the piece in hand at the tower's axis."""
    for move in moves:
        if move == "place":
            assert state.phase == "place", state.phase
            action = Place(state.auction.piece)
        else:
            action = state.action_from_str(move)
        state.apply(action)
    return state


def test_a_bean_less_player_is_forced_to_take():
    state = new_game(players=3, beans=0)
    play(state, "offers ring to refuse")
    assert state.current_player() == 1 and state.legal_actions() == [Respond("accept")]
    with pytest.raises(IllegalAction, match="no beans left, the piece must be accepted"):
        play(state, "refuses")
    play(state, "accepts", "place")
    assert state.current_player() == OUTCOME
    play(state, STOOD)
    assert state.towers[1] == ["base#2", "ring"] and state.auctioneer == 1


def test_a_refuse_auction_circles_twice_and_the_auctioneer_pays_too():
    state = new_game(players=3, beans=2)
    play(state, "offers egg to refuse")
    for seat in (1, 2, 0, 1, 2, 0):          # everyone refuses twice, the auctioneer included
        assert state.current_player() == seat
        play(state, "refuses")
    assert state.beans == [0, 0, 0] and state.beans_out == 6
    assert state.current_player() == 1 and state.legal_actions() == [Respond("accept")]
    play(state, "accepts")
    assert state.placer == 1


@pytest.mark.parametrize(("beans", "first", "forced", "paid"), [
    ([2, 2, 2], 1, 1, [2, 2, 2]),          # equal beans: the first asked runs out first
    ([2, 1, 2], 1, 1, [1, 1, 1]),          # fewer beans: sooner
    ([0, 3, 3], 1, 0, [0, 1, 1]),          # the auctioneer without beans is forced next time round
    ([3, 3, 3], 2, 2, [3, 3, 3]),
])
def test_who_is_forced_to_take_when_everyone_refuses(beans, first, forced, paid):
    state = new_game(players=3)
    state.beans = list(beans)
    assert state.forced_taker(first) == (forced, paid)
    play(state, "offers egg to refuse")
    if first == 1:
        assert state.forced_taker() == (forced, paid)
        for _ in range(sum(paid)):             # and so it goes in play
            play(state, "refuses")
        assert state.legal_actions() == [Respond("accept")] and state.auction.responder == forced


def test_an_eliminated_player_is_not_in_the_circle():
    state = new_game(players=4, beans=1)
    state.alive[2] = False
    assert state.forced_taker(1) == (1, [1, 1, 0, 1])


def test_the_odds_of_who_ends_up_with_a_refused_piece():
    """Two players with a bean each, who take the piece half the time: seat 1 takes it at once
    (1/2), or pays and seat 0 takes it (1/4), or pays too and seat 1, without beans, must (1/4).
    Chances of 0 and 1 give forced_taker's one seat; the chances always add up to one."""
    state = new_game(players=2, beans=1)
    takes, paid = state.refusal_odds(1, lambda seat, beans, refusals: 0.5)
    assert takes == pytest.approx([0.25, 0.75]) and paid == pytest.approx([0.25, 0.5])
    state = new_game(players=4, beans=3)
    state.beans = [3, 1, 2, 3]
    takes, paid = state.refusal_odds(2)
    assert takes == [0.0, 1.0, 0.0, 0.0] and paid == [2.0, 1.0, 2.0, 2.0]
    assert state.forced_taker(2) == (1, [2, 1, 2, 2])
    takes, _ = state.refusal_odds(2, lambda seat, beans, refusals: 0.1 * seat + 0.05 * refusals)
    assert sum(takes) == pytest.approx(1.0) and all(t > 0 for t in takes)


def test_a_bid_war():
    state = new_game(players=3, beans=5)
    play(state, "offers cube-large to acquire")
    assert state.current_player() == 1
    play(state, "bids 1", "bids 2")             # seats 1 and 2
    assert state.current_player() == 0         # the auctioneer may bid once a bid exists
    play(state, "bids 3", "passes", "bids 4", "passes")   # 0, 1 out, 2, 0 out
    assert state.phase == "place" and state.placer == 2
    assert state.beans == [5, 5, 1] and state.beans_out == 4


def test_nobody_bids_and_the_auctioneer_takes_it_free():
    state = new_game(players=3)
    play(state, "offers disc to acquire", "passes", "passes")
    assert state.phase == "place" and state.placer == 0 and state.beans == [5, 5, 5]


def test_the_auctioneer_is_not_asked_before_a_bid():
    state = new_game(players=2)
    play(state, "offers disc to acquire")
    assert state.current_player() == 1
    play(state, "passes")
    assert state.placer == 0                   # never asked: nobody opened


def test_a_bid_above_ones_beans_is_refused_with_a_reason():
    state = new_game(players=3, beans=1)
    play(state, "offers disc to acquire", "bids 1")
    assert state.legal_actions() == [Respond("pass")]
    with pytest.raises(IllegalAction, match="more than the 1 beans held"):
        play(state, "bids 2")
    with pytest.raises(IllegalAction, match="exactly one more than the last: 2"):
        play(state, "bids 5")


def test_a_fallen_tower_puts_its_builder_out_and_play_skips_them():
    state = new_game(players=3)
    play(state, "offers ball to refuse", "accepts", "place", FELL.format(1))
    assert state.alive == [True, False, True] and state.eliminated == [1]
    assert "ball" in state.reserve and "base#2" in state.out and state.beans[1] == 0
    assert state.beans_out == 5 and state.auctioneer == 2       # seat 1 is skipped
    play(state, "offers ball to refuse")
    assert state.current_player() == 0                          # 2's left is 0, not 1


def test_a_knocked_over_tower_is_rebuilt_and_only_the_placer_can_lose():
    state = new_game(players=3)
    play(state, "offers plank-long to refuse", "accepts", "place", FELL.format("0,1"))
    assert state.alive == [True, False, True] and state.rebuilds == 1     # 1 placed, 0 was struck


def test_the_last_standing_wins():
    state = new_game(players=2)
    play(state, "offers ball to refuse", "accepts", "place", FELL.format(1))
    assert state.is_terminal() and state.winners() == [0] and state.returns() == [1.0, -1.0]


def _with_reserve(pieces: list[str], players: int = 2) -> BanduState:
    state = new_game(players=players, reserve=len(pieces))
    for piece in pieces:
        assert state.current_player() == CHANCE
        state.apply(state.action_from_str(f"draws {piece}"))
    return state


def test_a_small_reserve_is_drawn_by_chance():
    state = new_game(players=2, reserve=5)
    rng = random.Random(3)
    while state.current_player() == CHANCE:
        state.apply(state.random_action(rng))
    assert len(state.reserve) == 5 and len(state.out) == len(BUILDING_PIECES) - 5


def test_the_empty_reserve_takes_a_piece_off_ones_own_tower():
    state = _with_reserve(["cube-small", "disc", "plank-long"])
    play(state, "offers cube-small to refuse", "accepts", "place", STOOD)     # seat 1 holds cube
    play(state, "offers disc to refuse", "accepts", "place", STOOD)           # seat 0 holds disc
    play(state, "offers plank-long to refuse", "accepts", "place", STOOD)     # seat 1: plank last
    assert state.reserve == [] and state.auctioneer == 1
    # seat 1 may take the cube (not the plank, placed last; never the base)
    assert state.legal_actions() == [Offer("cube-small", "acquire"), Offer("cube-small", "refuse")]
    with pytest.raises(IllegalAction, match="cannot be taken off the tower"):
        play(state, "offers plank-long to refuse")
    play(state, "offers cube-small to refuse")
    assert state.current_player() == OUTCOME and state.outcome_request()["kind"] == "removal"
    play(state, STOOD)                                                        # it came off cleanly
    assert state.phase == "refuse" and state.current_player() == 0
    assert state.towers[1] == ["base#2", "plank-long"]


def test_a_removal_fall_eliminates():
    state = _with_reserve(["cube-small", "disc", "egg"])
    play(state, "offers cube-small to refuse", "accepts", "place", STOOD)     # 1: cube
    play(state, "offers disc to refuse", "accepts", "place", STOOD)           # 0: disc
    play(state, "offers egg to refuse", "accepts", "place", STOOD)            # 1: egg
    play(state, "offers cube-small to acquire", FELL.format(1))
    assert state.alive == [True, False] and state.is_terminal() and state.winners() == [0]
    assert {"cube-small", "egg"} <= set(state.reserve)


def test_when_nobody_can_offer_the_game_ends_level():
    state = _with_reserve(["cube-small"])
    play(state, "offers cube-small to refuse", "accepts", "place", STOOD)
    assert state.is_terminal() and state.winners() == [0, 1]


def test_the_challenge_foundation():
    state = new_game(players=2, variant="challenge")
    assert state.towers == [[], []] and {"base", "base#2"} <= set(state.reserve)
    assert {"base#3", "base#4", "base#5", "base#6"} <= set(state.out)
    play(state, "offers wedge-ramp to refuse", "accepts", "place")
    assert state.outcome_request()["foundation"] is True
    play(state, STOOD)
    assert state.towers[1] == ["wedge-ramp"]
    play(state, "offers ball to refuse", "accepts", "place", FELL.format(0))   # 0's foundation
    assert "ball" in state.out and state.is_terminal()        # left the game with its player


def test_an_eliminated_players_challenge_foundation_leaves_the_game_with_them():
    """Bandu Défi goes on "selon les règles habituelles": the foundation is the player's base, so
    it leaves the game with its player; the other pieces go back to the reserve."""
    state = new_game(players=3, variant="challenge")
    play(state, "offers wedge-ramp to refuse", "accepts", "place", STOOD)     # 1's foundation
    play(state, "offers ball to refuse", "refuses", "refuses", "accepts", "place", FELL.format(1))
    assert "wedge-ramp" in state.out and "wedge-ramp" not in state.reserve
    assert "ball" in state.reserve and state.towers[1] == []
    assert type(state).from_dict(state.to_dict()).out == state.out    # and the save holds it


@pytest.mark.parametrize("players", [2, 8])
def test_two_and_eight_players(players):
    state = new_game(players=players, first=players - 1)
    assert [t[0] for t in state.towers] == ["base"] + [f"base#{n}" for n in range(2, players + 1)]
    assert state.current_player() == players - 1
    play(state, "offers disc to refuse")
    assert state.current_player() == 0


def test_solo_scores_the_pieces_standing_before_the_fall():
    state = new_game(players=1, variant="solo")
    assert state.beans == [0]
    play(state, "takes cube-large", "place", STOOD, "takes disc", "place", STOOD,
         "takes ball", "place", FELL.format(0))
    assert state.is_terminal() and state.score_pieces == [2]
    assert state.returns() == [2 / 48]


def test_a_fallen_solo_tower_keeps_its_standing_poses_and_says_where_its_pieces_came_down():
    from simulator.games.bandu.rules import BanduState

    state = new_game(players=1, variant="solo")
    base = state.towers[0][0]
    standing = (base, 0.0, 0.0, 15.0, 0.0, 0.0, 0.0, 1.0)
    play(state, "takes cube-large", "place")
    state.apply(Settled((), (standing, ("cube-large", 0.0, 0.0, 50.0, 0.0, 0.0, 0.0, 1.0))))
    play(state, "takes ball", "place")
    state.apply(Settled((0,), ((base, 2.0, 0.0, 15.0, 0.0, 0.0, 0.0, 1.0),
                               ("cube-large", 90.0, 0.0, 20.0, 0.0, 0.0, 0.0, 1.0),
                               ("ball", 150.0, 0.0, 25.0, 0.0, 0.0, 0.0, 1.0))))
    assert state.is_terminal() and state.score_pieces == [1]
    assert state.poses["cube-large"][2] == 50.0            # as it stood: the height of the score
    assert state.came_down["cube-large"][0] == 90.0 and state.came_down["ball"][0] == 150.0
    again = BanduState.from_dict(state.to_dict())          # kept in a save ...
    assert again.came_down == state.came_down
    older = state.to_dict()
    del older["came_down"]                                 # ... and an older save still loads
    assert BanduState.from_dict(older).came_down == {}


def test_a_chain_is_built_in_order_by_every_seat():
    state = new_game(players=2, variant="chain", chain=7, reserve=3)
    chain = state.chain
    assert len(chain) == 3 and state.legal_actions() == [Offer(chain[0], "take")]
    play(state, f"takes {chain[0]}", "place", STOOD)                            # seat 0
    play(state, f"takes {chain[0]}#2", "place", FELL.format(1))                # seat 1 falls
    play(state, f"takes {chain[1]}", "place", STOOD, f"takes {chain[2]}", "place", STOOD)
    assert state.is_terminal() and state.score_pieces == [3, 0] and state.winners() == [0]


@pytest.mark.parametrize(("settings", "message"), [
    ({"players": 9}, "2 to 8 players"), ({"beans": 11}, "beans must be 0 to 10"),
    ({"auctions": "silent"}, "auctions must be"), ({"variant": "speed"}, "variant must be"),
    ({"reserve": 0}, "reserve must be 1 to 48"),
    ({"first": 5}, r"the first player must sit at one of the 2 seats, 1 to 2: .* not 5 \(seat 6\)"),
    ({"variant": "solo", "players": 2}, "solo game is for one player, not 2"), ({"chain": ["nope"], "variant": "chain"},
                                                            "unknown piece"),
    ({"chain": ["ring", "disc", "ring"], "variant": "chain"}, "'ring' cannot be in the chain"),
    ({"chain": ["disc", "base"], "variant": "chain"}, "'base' cannot be in the chain"),
])
def test_bad_settings_say_why(settings, message):
    with pytest.raises(SettingsError, match=message):
        new_game(**settings)


def test_the_notation_reads_like_a_log():
    state = new_game(players=3)
    assert state.action_to_str(Offer("ring", "refuse")) == "offers ring to refuse"
    play(state, "offers ring to refuse")
    assert state.action_to_str(Respond("refuse")) == "refuses ring (1 bean)"
    play(state, "refuses")
    assert state.action_to_str(Respond("accept")) == "accepts ring"
    play(state, "accepts")
    text = state.action_to_str(Place("ring", 1.25, -2, 90))
    assert text == "places ring at 1.2 -2 mm, yaw 90 roll 0 pitch 0"
    assert state.action_from_str(text) == Place("ring", 1.2, -2.0, 90.0)
    with pytest.raises(IllegalAction, match=r"Place\.x_mm: wants float -150 to 150, not 400"):
        state.apply(Place("ring", 400.0, 0.0))      # the field's declared range, before the rules
    result = Settled((1,), (("ring", 1.0, 2.0, 30.5, 0.0, 0.0, 0.0, 1.0),))
    state.apply(Place("ring"))
    assert state.action_from_str(state.action_to_str(result)) == result


def _pieces_everywhere(state: BanduState) -> list[str]:
    held = [state.auction.piece] if state.auction is not None and state.auction.piece not in \
        state.reserve and not any(state.auction.piece in t for t in state.towers) else []
    return sorted(state.reserve + state.to_draw + state.out + [p for t in state.towers for p in t] + held)


@pytest.mark.parametrize("settings", [{"players": 2}, {"players": 5, "beans": 2},
                                      {"players": 3, "variant": "challenge"},
                                      {"players": 4, "auctions": "refuse", "reserve": 12},
                                      {"players": 8, "beans": 0, "auctions": "acquire"}])
def test_invariants_over_many_random_games(settings):
    everything = None
    for seed in range(25):
        state = new_game(**settings)
        rng = random.Random(seed)
        if everything is None:
            everything = _pieces_everywhere(state)
        for _ in range(5000):
            if state.is_terminal():
                break
            state.apply(state.random_action(rng))
            assert sum(state.beans) + state.beans_out == state.beans_dealt
            assert _pieces_everywhere(state) == everything          # each piece in one place
            assert all(b >= 0 for b in state.beans)
        assert state.current_player() == TERMINAL
        standing = [s for s in range(state.players) if state.alive[s]]
        assert state.winners() == standing and standing
        assert len(standing) == 1 or state.reserve == [] or state.phase == "over"
