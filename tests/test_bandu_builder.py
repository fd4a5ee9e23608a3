"""Bandu's builder: the computer keeps platforms for the tower, puts round pieces in hollows and
saves pointed pieces for last, in solo games played to the physics referee's verdicts."""

from __future__ import annotations

import random

import pytest

from simulator.games.bandu.ai import LEVELS, BanduAgent
from simulator.games.bandu.builder import (
    building_order,
    face_order,
    flat_top_mm2,
    platform_face,
    stage,
)
from simulator.games.bandu.referee import PhysicsReferee
from simulator.games.bandu.rules import BUILDING_PIECES, Offer, Place, new_game
from simulator.towers.physics.placement import resting_faces

pytestmark = pytest.mark.slow


def test_a_platform_is_judged_by_its_real_top_not_its_hull():
    """The column lying down offers only its two end caps (the hull spans the gap between them);
    standing, its 35 mm cap: the builder stands it up. The channel's groove goes down."""
    lying = 0                                      # the most stable face: lying on its caps
    assert resting_faces("column")[lying].area_mm2 == pytest.approx(3150, rel=0.01)
    assert flat_top_mm2("column", lying) == pytest.approx(2 * 35 * 10, rel=0.05)
    column = platform_face("column")
    assert column is not None and column.top_mm2 == pytest.approx(35 * 35, rel=0.05)
    channel = platform_face("channel")
    assert channel is not None and channel.top_mm2 == pytest.approx(60 * 40, rel=0.05)
    assert face_order("column")[0] == column.index
    for capper in ("cone-tall", "pyramid-square", "egg", "ball", "fir-tree", "pin"):
        assert platform_face(capper) is None and stage(capper) == 2, capper


def test_the_plan_lays_broad_platforms_first_and_pointed_pieces_last():
    order = building_order(list(BUILDING_PIECES), None)
    stages = [stage(p) for p in order]
    assert stages == sorted(stages)                        # platforms, small tops, cappers
    assert order[0] in ("slab-square", "plank-long", "arch", "ashlar-large")
    cappers = order[stages.index(2):]
    assert {"cone-tall", "cone-small", "pyramid-square", "fir-tree", "pin"} <= set(cappers)
    # a ball or an egg comes first of the cappers on a washer (it sits in the hole), else last
    assert building_order(["ball", "cone-small", "cube-large"], "washer") == ["cube-large", "ball", "cone-small"]
    assert building_order(["ball", "cone-small", "cube-large"], "cube-large")[-1] == "ball"


def _play_solo(state, agent, referee, rng, placements):
    taken = []
    for _ in range(placements):
        offer = agent.choose(state, rng)
        assert isinstance(offer, Offer) and state.is_legal(offer)
        state.apply(offer)
        place = agent.choose(state, rng)
        assert isinstance(place, Place) and state.is_legal(place)
        state.apply(place)
        outcome = referee.resolve(state, rng)
        assert outcome.fallen == (), (offer.piece, place)
        state.apply(outcome)
        taken.append(offer.piece)
    return taken


def test_the_cone_and_the_pyramid_are_saved_for_last():
    """Of a square pyramid, a small cone, a slab and an ashlar, the strong builder takes the
    slab and the ashlar first (taken in the rules' order of risk, the pyramid came second)."""
    state = new_game(players=1, variant="solo")
    state.reserve = ["ashlar-medium", "cone-small", "pyramid-square", "slab-square"]
    referee = PhysicsReferee()
    try:
        taken = _play_solo(state, BanduAgent(LEVELS["strong"]), referee, random.Random(7), 3)
    finally:
        referee.close()
    assert taken[:2] == ["slab-square", "ashlar-medium"]
    assert taken[2] in ("pyramid-square", "cone-small")


def test_a_ball_goes_into_the_washers_hole():
    """On a washer the ball is placed over the hole and rests in it: centred on the washer,
    lower than a ball lying on a flat top would be."""
    state = new_game(players=1, variant="solo")
    state.reserve = ["washer", "ball"]
    referee = PhysicsReferee()
    try:
        taken = _play_solo(state, BanduAgent(LEVELS["strong"]), referee, random.Random(8), 2)
    finally:
        referee.close()
    assert taken == ["washer", "ball"]
    washer, ball = state.poses["washer"], state.poses["ball"]
    assert abs(ball[0] - washer[0]) < 3.0 and abs(ball[1] - washer[1]) < 3.0
    # PIECES: the ball is 40 mm across, the washer 12 mm thick with a 25 mm hole; in the hole
    # the ball's centre is sqrt(20^2 - 12.5^2) = 15.6 mm above the rim, on a flat top 20 mm
    washer_top = washer[2] + 6.0
    assert ball[2] - washer_top == pytest.approx(15.6, abs=1.0)
