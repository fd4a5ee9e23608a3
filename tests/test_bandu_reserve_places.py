"""The reserve stays put (table_layout.reserve_places): every piece keeps its place on the table
for the whole game, a taken piece leaves a gap, and a piece that comes back from a fallen
tower lies where it lay before. Rules only (random games with random results): no physics,
no window."""

from __future__ import annotations

import random

import pytest

from simulator.core.state import CHANCE
from simulator.games.bandu.rules import BanduState, new_game
from simulator.games.bandu.table_layout import reserve_places


def footprint(piece: str) -> tuple[float, float]:
    """A made-up footprint per piece (the real one needs the meshes): 20-80 mm deep."""
    return 0.04, 0.02 + (sum(map(ord, piece)) % 7) * 0.01


def _playout(state: BanduState, seed: int):
    rng = random.Random(seed)
    for _ in range(3000):
        if state.is_terminal():
            return
        state.apply(state.random_action(rng))
        yield state


@pytest.mark.parametrize(("variant", "players", "reserve"), [("standard", 3, 48), ("standard", 4, 12),
                                                       ("challenge", 3, 48), ("solo", 1, 48)])
def test_every_piece_keeps_its_place_from_the_first_auction_to_the_last(variant, players, reserve):
    for seed in range(4):
        state = new_game(players=players, variant=variant, reserve=reserve)
        rng = random.Random(seed)
        while state.current_player() == CHANCE:          # a small reserve is drawn first
            state.apply(state.random_action(rng))
        place_of = reserve_places(state, footprint)
        came_back = 0
        for now in _playout(state, seed):
            places = reserve_places(now, footprint)
            assert set(places) == set(now.reserve)
            for piece, where in places.items():
                came_back += piece not in place_of
                assert place_of.setdefault(piece, where) == where, f"{piece} moved (seed {seed})"
        if variant == "standard" and players == 3:
            assert came_back == 0       # a returned piece was in the reserve at the start


def test_a_taken_piece_leaves_a_gap_and_comes_back_to_it():
    state = new_game(players=3)
    before = reserve_places(state, footprint)
    taken = state.reserve[5]
    state.reserve.remove(taken)                         # as an auction takes it
    after = reserve_places(state, footprint)
    assert taken not in after and all(after[p] == before[p] for p in after)
    state.reserve.append(taken)                         # as a fallen tower gives it back
    state.reserve.sort()
    assert reserve_places(state, footprint) == before


def test_the_places_fill_the_reserves_columns_in_order():
    """The layout the places come from: the first piece nearest the middle, the near edge."""
    state = new_game(players=2)
    places = list(reserve_places(state, footprint).values())
    assert places[0][0] > 0 and places[0][1] < 0
    assert len(set(places)) == len(places)
