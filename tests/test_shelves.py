"""Shelves of a tower's top (where a piece lands flat beside the rest) and the room a placement
leaves: height maps made by hand, then the computer players keeping room on a real base."""

from __future__ import annotations

import random

import numpy as np
import pytest

from simulator.games.bandu.ai import LEVELS, BanduAgent
from simulator.games.bandu.referee import PhysicsReferee
from simulator.games.bandu.rules import Offer, Place, Respond, new_game
from simulator.towers.physics.shelves import landing_spots, room_mm2, shelf_aims

STEP = 3.0
XS = np.arange(-57.0, 57.1, STEP)            # a 100 x 50 mm base, the table all round it
YS = np.arange(-30.0, 30.1, STEP)


def _base() -> np.ndarray:
    heights = np.full((len(XS), len(YS)), 25.0)
    heights[np.abs(XS) > 50, :] = np.nan
    heights[:, np.abs(YS) > 25] = np.nan
    return heights


def _with_cone(x_mm: float) -> np.ndarray:
    """The base with a cone 40 mm across and 60 mm high standing at `x_mm` on its middle line."""
    heights = _base()
    gx, gy = np.meshgrid(XS, YS, indexing="ij")
    r = np.hypot(gx - x_mm, gy)
    heights = np.where(r < 20.0, 25.0 + 60.0 * (1.0 - r / 20.0), heights)
    return heights


def test_a_bare_base_is_one_shelf_aimed_at_in_its_middle_and_towards_its_ends():
    spots = landing_spots(_base(), STEP, 20.0, 20.0)
    assert spots[XS == 0.0, YS == 0.0].all()
    assert not spots[np.abs(XS) > 45, :].any()           # the flat patch under the centre ends
    middle, *ends = shelf_aims(spots, XS, YS)
    assert middle == pytest.approx((0.0, 0.0), abs=STEP)
    assert sorted(x for x, _ in ends) == pytest.approx([-0.7 * 39.0, 0.7 * 39.0], abs=STEP)
    assert all(abs(y) <= STEP for _, y in ends)


def test_a_piece_lands_only_where_its_footprint_clears_a_cone():
    heights = _with_cone(0.0)
    spots = landing_spots(heights, STEP, 15.0, 15.0)      # a piece 30 mm across
    xs_free = XS[spots.any(axis=1)]
    assert xs_free.size and np.all(np.abs(xs_free) >= 34.0)     # the cone's 19 mm + the piece's 15
    assert not landing_spots(heights, STEP, 20.0, 20.0).any()  # a 40 mm piece would overhang too far
    narrow = landing_spots(heights, STEP, 5.0, 5.0)            # a pin finds more room
    assert narrow.sum() > spots.sum()
    assert len({round(x) > 0 for x, _ in shelf_aims(narrow, XS, YS)}) == 2     # both sides


def test_a_cone_at_the_end_of_the_base_leaves_room_and_one_in_the_middle_does_not():
    assert room_mm2(_base()) > 2000.0
    assert room_mm2(_with_cone(0.0)) == 0.0
    assert room_mm2(_with_cone(-30.0)) > 900.0


def _placing(piece: str, variant: str = "standard"):
    """A 2-player game (or a solo one) in which seat 1 (seat 0 alone) must place `piece` on its
    bare base."""
    if variant == "solo":
        state = new_game(players=1, variant="solo")
        state.apply(Offer(piece, "take"))
        return state
    state = new_game(players=2)
    state.apply(Offer(piece, "refuse"))
    state.apply(Respond("accept"))
    return state


@pytest.mark.slow
def test_a_cone_won_in_an_auction_goes_to_the_end_of_the_base():
    state = _placing("cone-tall")
    place = BanduAgent(LEVELS["medium"]).planned_place(state, np.random.default_rng(0))
    assert isinstance(place, Place) and abs(place.x_mm) > 20.0, place
    alone = _placing("cone-tall", "solo")                  # a planned tower keeps its axis
    place = BanduAgent(LEVELS["medium"]).planned_place(alone, np.random.default_rng(0))
    assert abs(place.x_mm) < 10.0, place


def _one_then_another(level: str, first: str, second: str, seed: int) -> tuple[Place, Place]:
    """Seat 1 of a 2-player game takes `first` on its bare base, then `second`; both
    placements its player chose, the second judged by the referee to stand."""
    state = new_game(players=2)
    referee = PhysicsReferee()
    agent = BanduAgent(LEVELS[level])
    rng = random.Random(seed)
    try:
        state.apply(Offer(first, "refuse"))                # seat 0 offers; seat 1 takes it
        state.apply(Respond("accept"))
        one = agent.choose(state, rng)
        assert isinstance(one, Place)
        state.apply(one)
        state.apply(referee.resolve(state, rng))
        state.apply(Offer(second, "refuse"))               # seat 1 offers; seat 0 refuses
        state.apply(Respond("refuse"))
        state.apply(Respond("accept"))
        assert state.placer == 1 and state.towers[1] == ["base#2", first]
        another = agent.choose(state, rng)
        assert isinstance(another, Place)
        state.apply(another)
        assert referee.resolve(state, rng).fallen == (), (one, another)
        return one, another
    finally:
        referee.close()


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_an_egg_goes_to_the_end_of_the_base_and_a_doorknob_then_stands_beside_it(level):
    """An egg in the base's middle leaves no flat spot a doorknob fits on (its round top drops
    any); at one end it leaves the other end free."""
    egg, knob = _one_then_another(level, "egg", "doorknob", seed=3)
    assert abs(egg.x_mm) > 20.0 and knob.x_mm * egg.x_mm < 0, (egg, knob)     # the other end


@pytest.mark.slow
def test_a_wide_piece_after_a_jack_lands_flat_beside_it_not_over_it():
    """The jack goes to one end of the base; the wide cylinder then lands on the flat end left
    free, where on the axis it would perch on the jack's arm (a logged game of ai:strong fell
    so)."""
    jack, wide = _one_then_another("strong", "jack", "cylinder-wide", seed=5)
    assert abs(jack.x_mm) > 20.0 and wide.x_mm * jack.x_mm < 0 and abs(wide.x_mm) > 20.0, (jack, wide)
