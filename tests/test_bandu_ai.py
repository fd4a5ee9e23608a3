"""Bandu's computer players: they judge pieces with physics, answer auctions by it, and place
pieces where they stand."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_hollows import stacked

from simulator.core import registry
from simulator.core.controller import COMPUTER, Seat, TurnController
from simulator.games.bandu.ai import (
    LEVELS,
    BanduAgent,
    rough_cost,
    top_cost,
    top_flatness,
)
from simulator.games.bandu.referee import PhysicsReferee
from simulator.games.bandu.rules import Offer, Place, Respond, new_game
from simulator.games.bandu.tower_lab import TowerLab, Trial, column_tops
from simulator.games.bandu.trial_streams import DecisionLabs

pytestmark = pytest.mark.slow


def test_strengths_are_named_ai_and_load_physics_only_when_asked():
    game = registry.get_game("bandu")
    assert set(game.strengths) == {"easy", "medium", "strong"}
    assert game.make_agent("ai:strong").level.name == "strong"
    assert game.make_agent("ai").level.name == "medium"           # the default level
    with pytest.raises(Exception, match="unknown player 'mcts'"):
        game.make_agent("mcts")


def test_a_flat_top_is_told_from_a_point():
    assert top_flatness("cube-large") == 1.0 and top_flatness("slab-square") == 1.0
    assert top_flatness("cone-tall") == 0.0 and top_flatness("egg") == 0.0
    assert top_flatness("doorknob") < 0.05


def _offered(piece: str, to_seat: int = 1) -> object:
    state = new_game(players=2)
    state.apply(Offer(piece, "refuse"))
    assert state.auction.responder == to_seat
    return state


def test_an_easy_piece_is_accepted_and_a_hopeless_one_refused():
    agent = BanduAgent(LEVELS["strong"])
    rng = random.Random(1)
    assert agent.choose(_offered("slab-square"), rng) == Respond("accept")
    state = _offered("ball")
    state.beans = [2, 5]                  # the auctioneer would run out of beans first
    assert state.forced_taker() == (0, [2, 3])
    assert agent.choose(state, rng) == Respond("refuse")   # a ball leaves no top: pass it on


def test_a_piece_that_would_come_back_anyway_is_taken_without_paying():
    """A player with one bean left, the others with five and the ball as bad for them: if it
    refused, the ball would go round and come back to it with no bean left, so it takes it now.
    When the next player has no bean (and must take it), it refuses."""
    rng = random.Random(1)
    for level in ("easy", "medium", "strong"):
        agent = BanduAgent(LEVELS[level])
        state = new_game(players=3)
        state.beans = [5, 1, 5]
        state.apply(Offer("ball", "refuse"))
        assert agent.choose(state, rng) == Respond("accept"), level
        state = new_game(players=3)
        state.beans = [5, 5, 0]
        state.apply(Offer("ball", "refuse"))
        assert agent.choose(state, rng) == Respond("refuse"), level


def test_a_hard_piece_is_refused_when_the_others_may_well_take_it():
    """Four players with five beans each: the first asked would run out first if everyone
    refused the square pyramid to the end, but nobody is sure to refuse (a random player takes
    half of what it is offered): each of the three others may take it on the way, so a bean is
    worth paying to pass it on."""
    rng = random.Random(1)
    state = new_game(players=4)
    state.apply(Offer("pyramid-square", "refuse"))
    assert state.forced_taker()[0] == state.auction.responder == 1
    for level in ("easy", "medium", "strong"):
        assert BanduAgent(LEVELS[level]).choose(state.clone(), rng) == Respond("refuse"), level


def test_a_refusal_war_is_not_started_for_a_piece_that_would_mostly_come_back():
    """Four players with five beans each, the pin offered to the first asked: the others would
    refuse it too (by their rule it costs them as much), so refusing starts a war of about two
    beans a player that ends with the pin back here two times in three: the strong player
    takes it now and keeps its beans. The square pyramid, which the others would likely take on
    the way, is still refused."""
    rng = random.Random(1)
    for piece, answer in (("pin", "accept"), ("pyramid-square", "refuse")):
        state = new_game(players=4)
        state.apply(Offer(piece, "refuse"))
        assert BanduAgent(LEVELS["strong"]).choose(state, rng) == Respond(answer), piece


def test_a_piece_that_surely_drops_the_tower_is_refused_while_a_bean_is_left():
    """Every tower topped by an upright long pole, two beans each, the egg offered "to refuse":
    it drops the tower of whoever takes it, so it would come back two times in three. Taking it
    puts the player out at once; refusing keeps it in a third of the time, and beans are worth
    something only to a player still in. (The rule that weighed the beans of the war against
    the risk alone took it: two beans a round, each worth its acceptance threshold, came to
    more than a fall.)"""
    rng = random.Random(1)
    for level in ("medium", "strong"):
        state = new_game(players=4)
        for seat in range(4):
            state.towers[seat].append("pole-long")            # stood on end on the axis
        state.beans = [2, 2, 2, 2]
        state.apply(Offer("egg", "refuse"))
        assert BanduAgent(LEVELS[level]).choose(state, rng) == Respond("refuse"), level


def test_a_piece_is_worth_beans_only_when_it_mends_a_pointed_top():
    """Placing a piece gains nothing on a flat top, so nobody bids for a cube there; on a cone a
    washer (it slips over the point and leaves a flat top) is worth bidding for."""
    rng = random.Random(3)
    state = new_game(players=3)
    assert top_cost(state, 1) == 0.0 and rough_cost(state, 1, "cube-large") > 0
    state.towers[1].append("cone-tall")                       # stacked on the axis when rebuilt
    assert top_cost(state, 1) == pytest.approx(0.5) and rough_cost(state, 1, "washer") < -0.3
    for level in ("easy", "medium", "strong"):
        flat = new_game(players=3)
        flat.apply(Offer("cube-large", "acquire"))
        assert BanduAgent(LEVELS[level]).choose(flat, rng) == Respond("pass"), level
        pointed = state.clone()
        pointed.apply(Offer("washer", "acquire"))
        assert BanduAgent(LEVELS[level]).choose(pointed, rng) == Respond("bid", 1), level


def test_an_auctioneer_short_of_beans_offers_nothing_that_would_come_back_to_it():
    """With one bean left, a hard piece "to refuse" would go round and end with the auctioneer:
    it offers one the others take (played out by the same players' answers)."""
    rng = random.Random(2)
    agent = BanduAgent(LEVELS["medium"])
    state = new_game(players=3)
    state.beans = [1, 5, 5]
    offer = agent.choose(state, rng)
    assert isinstance(offer, Offer)
    state.apply(offer)
    while state.phase in ("refuse", "acquire"):
        state.apply(agent.choose(state, rng))
    assert state.phase == "place" and state.placer != 0


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_an_auctioneer_offers_nothing_it_would_hate_to_get_back(level):
    """At the start (every tower a bare base, five beans each) a pointed piece "to refuse" goes
    round the table, everyone refusing, and comes back to the auctioneer, who takes it rather
    than pay for a second round. So the auctioneer's model of its own answer takes it back too:
    what it offers at the start costs it little if it comes back. Before, it counted on
    refusing again, offered the fir tree (0.66 by the rough model) and placed it itself."""
    state = new_game(players=4)
    offer = BanduAgent(LEVELS[level]).choose(state, random.Random(2))
    assert isinstance(offer, Offer)
    assert rough_cost(state, 0, offer.piece) < 0.3 < rough_cost(state, 0, "fir-tree"), offer


def test_the_lab_moves_the_top_of_every_column():
    """Five small cubes at one end of the base, two at the other: holding all but the four
    highest pieces would hold the short stack still, so a piece laid out over its end could
    not tip it. The top four of each column move; of one column, its four highest."""
    world, bodies = stacked([("base", 0)] + [("cube-small", -30)] * 5 + [("cube-small", 30)] * 2)
    try:
        tall, short = bodies[1:6], bodies[6:]
        assert set(column_tops(world, bodies, 4)) == set(tall[1:]) | set(short)
    finally:
        world.close()
    world, bodies = stacked([("base", 0)] + [("cube-small", 0)] * 6)
    try:
        assert set(column_tops(world, bodies, 4)) == set(bodies[-4:])
    finally:
        world.close()


def test_a_piece_beside_another_does_not_rest_on_it():
    world, bodies = stacked([("base", 0), ("cube-large", -20.5), ("cube-large", 20.5)])
    try:
        base, left, right = bodies
        assert world.resting_on(bodies) == {base: set(), left: {base}, right: {base}}
    finally:
        world.close()


class _OneLab:
    """A search's labs (trial_streams.SeatLabs) made of one lab, and another for the releases
    over the whole tower: every trial runs on them in order."""

    def __init__(self, lab, whole=None) -> None:
        self.lab, self.whole = lab, whole
        self.holds_still = getattr(lab, "holds_still", True)

    def aim_points_mm(self) -> list[tuple[float, float]]:
        return [(0.0, 0.0), (20.0, 0.0)]

    def run(self, releases):
        return [(self.whole if r.whole else self.lab).trial(r.place, r.hand, None, r.room) for r in releases]


class _FixedLab:
    """A lab whose trials stand where `stands(x_mm)` says; `holds_still` as TowerLab's."""

    def __init__(self, stands, holds_still: bool = True) -> None:
        self.stands, self.holds_still = stands, holds_still
        self.releases: list[float] = []

    def trial(self, place, tremor, rng, room=False):
        self.releases.append(place.x_mm)
        return Trial(self.stands(place.x_mm), 0.0, 0.0)


def test_the_medium_player_spends_no_more_trials_in_an_auction_game_than_building_alone():
    """Its think-time target (2 s a decision at the 90th percentile) holds at 12 trials a
    decision and no release over the whole tower; at 24 and one such release it did not."""
    medium = LEVELS["medium"]
    assert medium.budget_for(new_game(players=4)) == medium.budget == 12 and medium.verify == 0


@pytest.mark.parametrize("level", ["strong"])
def test_a_placement_on_held_pieces_is_tried_over_the_whole_tower_before_it_is_taken(level):
    """The lab holds a tall tower's lower pieces still, so nothing under the placement can tip:
    there every placement stands. With every piece moving, the one over the axis falls: it is
    not taken, and the one that stands there is, after `verify` releases over the whole tower."""
    verify = LEVELS[level].verify
    held, whole = _FixedLab(lambda x: True), _FixedLab(lambda x: abs(x) >= 1.0)
    agent = BanduAgent(LEVELS[level])
    agent.trials_left = 100
    found = agent.best_placement(_OneLab(held, whole), "cube-large", 1, np.random.default_rng(0),
                                 confirm=LEVELS[level].confirm, verify=verify)
    assert found.place.x_mm == pytest.approx(20.0) and found.rate == 1.0
    assert whole.releases.count(20.0) == verify >= 1 and 0.0 in whole.releases
    # a lab that holds nothing still is the whole tower: it is not asked twice
    unheld, whole = _FixedLab(lambda x: True, holds_still=False), _FixedLab(lambda x: False)
    found = agent.best_placement(_OneLab(unheld, whole), "cube-large", 1, np.random.default_rng(0),
                                 confirm=LEVELS[level].confirm, verify=verify)
    assert found.place.x_mm == 0.0 and whole.releases == []


def test_the_chosen_placement_stands_under_the_referee():
    state = new_game(players=2)
    referee = PhysicsReferee()
    rng = random.Random(4)
    try:
        for piece in ("arch", "cube-large"):
            state.apply(Offer(piece, "refuse"))
            state.apply(Respond("accept"))
            place = BanduAgent(LEVELS["strong"]).choose(state, rng)
            assert isinstance(place, Place) and state.is_legal(place)
            state.apply(place)
            outcome = referee.resolve(state, rng)
            assert outcome.fallen == ()
            state.apply(outcome)
    finally:
        referee.close()
    assert state.towers[1] == ["base#2", "arch"] and state.towers[0] == ["base", "cube-large"]


def test_the_strong_player_counts_the_room_a_piece_takes_from_the_next():
    """A fir tree stands at one end of the base; a ball at the other end would stand, but
    would leave no room for the next piece. Counting room (Level.room_loss, strong only), the
    ball costs the strong player more than its fall chance and its top say. Judged as an answer
    is (confirmed releases: one lucky release of the ball wedged against the tree is no spot)."""
    state = new_game(players=2)
    referee = PhysicsReferee()
    try:
        state.apply(Offer("fir-tree", "refuse"))
        state.apply(Respond("accept"))
        state.apply(BanduAgent(LEVELS["strong"]).choose(state, random.Random(1)))
        state.apply(referee.resolve(state, random.Random(1)))
    finally:
        referee.close()
    assert state.towers[1] == ["base#2", "fir-tree"]
    judged = {}
    for room in (False, True):
        agent = BanduAgent(LEVELS["strong"])
        agent.trials_left = 36
        with DecisionLabs(state) as labs:
            judged[room] = agent.judgement(state, 1, "ball", np.random.default_rng(0), labs,
                                           confirm=LEVELS["strong"].confirm, room=room)
    assert judged[True][1] >= judged[False][1] + 0.2, judged
    assert LEVELS["medium"].room_loss == 0.0 < LEVELS["strong"].room_loss


class _ScriptedLab:
    """A lab whose trials are scripted by where the piece is aimed: over the axis the piece
    stands every other time, 20 mm to the side always."""

    def __init__(self) -> None:
        self.releases: list[float] = []

    def trial(self, place, tremor, rng, room=False):
        self.releases.append(place.x_mm)
        on_axis = [x for x in self.releases if abs(x) < 1.0]
        return Trial(abs(place.x_mm) >= 1.0 or len(on_axis) % 2 == 1, 0.0, 0.0)


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_a_placement_that_stood_once_is_tried_again_before_it_is_taken(level):
    """In an auction game one lucky release is not a stand rate: the placement over the axis,
    which stands every other time, stood in its first trial; it is tried again, falls, and the
    one that stands every time is taken, after `confirm` trials."""
    agent = BanduAgent(LEVELS[level])
    agent.trials_left = 100
    lab = _ScriptedLab()
    place, rate, _ = agent.best_placement(_OneLab(lab), "cube-large", 1, np.random.default_rng(0),
                                          confirm=LEVELS[level].confirm)
    assert place.x_mm == pytest.approx(20.0) and rate == 1.0
    assert lab.releases.count(20.0) == LEVELS[level].confirm >= 4
    # without confirming, the first release decides
    lucky = BanduAgent(LEVELS[level])
    lucky.trials_left = 100
    assert lucky.best_placement(_OneLab(_ScriptedLab()), "cube-large", 1,
                                np.random.default_rng(0)).place.x_mm == 0.0


def test_the_lab_restores_its_tower_after_every_trial():
    state = new_game(players=2)
    lab = TowerLab(state, 0)
    noise = np.random.default_rng(0)
    try:
        before = lab.world.pose(lab.tower[0])
        results = [lab.trial(Place("ball", 30.0, 0.0), LEVELS["strong"].lab_hand, noise) for _ in range(2)]
        assert all(isinstance(r.stood, bool) and r.room_mm2 == 0.0 for r in results)
        assert lab.world.pose(lab.tower[0]) == before and len(lab.world.bodies()) == 1
    finally:
        lab.close()


def test_a_game_between_computer_players_ends_with_legal_moves_and_quick_decisions():
    seats = [Seat(COMPUTER, "ai:easy"), Seat(COMPUTER, "ai:medium"), Seat(COMPUTER, "random")]
    c = TurnController("bandu", {"reserve": 8}, seats, seed=3)
    c.play_computer_moves()
    assert c.is_over() and c.state.winners()
    for agent in c.agents[:2]:
        assert agent.decision_seconds and max(agent.decision_seconds) < 10.0
    c.close()


def test_a_shaky_hand_never_turns_a_placement_out_of_range():
    from simulator.games.bandu.ai import _wrapped

    assert _wrapped(181.0) == -179.0 and _wrapped(-181.0) == 179.0 and _wrapped(90.0) == 90.0
    state = new_game(players=2)
    state.apply(Offer("roof-block", "refuse"))
    state.apply(Respond("accept"))
    agent = BanduAgent(LEVELS["easy"])
    for seed in range(12):                        # easy's hand turns by a few degrees each time
        place = agent.choose(state, random.Random(seed))
        assert state.is_legal(place), place


def test_the_same_seed_plays_the_same_game():
    histories = []
    for _ in range(2):
        seats = [Seat(COMPUTER, "ai:strong"), Seat(COMPUTER, "ai:medium")]
        c = TurnController("bandu", {"reserve": 12}, seats, seed=21)   # 6 placements
        c.play_computer_moves()
        histories.append([h.action for h in c.history])
        c.close()
    assert histories[0] == histories[1]


def test_the_rough_model_knows_a_point_on_a_point():
    """A fir tree on a doorknob falls at once: the rough model rates it dearer than on a flat
    base, while a washer over the doorknob's knob is cheaper than on the base (it mends the top).
    The easy player (the rough model alone), with two beans and the next player with none,
    refuses the fir tree on its doorknob, and would take the washer."""
    state = new_game(players=3)
    flat = state.clone()
    state.towers[1].append("doorknob")
    state.reserve.remove("doorknob")
    assert rough_cost(state, 1, "fir-tree") > rough_cost(flat, 1, "fir-tree") + 0.2
    assert rough_cost(state, 1, "fir-tree") > 0.8
    assert rough_cost(state, 1, "washer") < rough_cost(flat, 1, "washer") - 0.3
    state.beans = [5, 2, 0]
    easy = BanduAgent(LEVELS["easy"])
    rng = random.Random(5)
    fir = state.clone()
    fir.apply(Offer("fir-tree", "refuse"))
    assert fir.auction.responder == 1
    assert easy.choose(fir, rng) == Respond("refuse")
    washer = state.clone()
    washer.apply(Offer("washer", "refuse"))
    assert easy.choose(washer, rng) == Respond("accept")


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_a_neighbour_without_beans_is_offered_a_bad_piece(level):
    """The player on the auctioneer's left has no bean: it must take whatever it is offered "to
    refuse". The auctioneer (whose own cone a washer would mend "to acquire") offers it, "to
    refuse", a piece that is hard for that neighbour."""
    state = new_game(players=3)
    state.towers[0].append("cone-tall")
    state.reserve.remove("cone-tall")
    state.beans = [5, 0, 5]
    offer = BanduAgent(LEVELS[level]).choose(state, random.Random(6))
    assert isinstance(offer, Offer) and offer.auction == "refuse"
    hardness = sorted(rough_cost(state, 1, p) for p in state.reserve)
    assert rough_cost(state, 1, offer.piece) >= hardness[-8], (offer.piece, hardness[-8:])


def test_a_tower_spread_along_its_base_gets_no_release_beyond_reach():
    """Game 725 of four ai:medium players (python -m benchmarks bandu_ai): seat 1's tower has spread
    along its base, its top piece (the medium ashlar) 156 mm from the axis. The medium player
    aimed the egg at that piece's centre, beyond the rules' reach (150 mm), and the game stopped
    on an illegal action. It now releases as near as the reach allows."""
    import json
    from pathlib import Path

    from simulator.games.bandu.rules import REACH_MM

    save = json.loads((Path(__file__).parent / "bandu_positions" / "egg-beyond-reach.json").read_text())
    controller = TurnController.from_save_dict(save, verify=False)
    try:
        state = controller.state
        assert state.phase == "place" and state.auction.piece == "egg" and state.placer == 1
        top = state.poses[state.towers[1][-1]]
        base = state.poses[state.towers[1][0]]
        assert abs(top[0] - base[0]) > REACH_MM                 # the aim that was out of reach
        controller.play_computer_moves(limit=1)     # raised IllegalAction before
        request = controller.state.outcome_request()
        assert request["piece"] == "egg", request
        assert max(abs(request["x_mm"]), abs(request["y_mm"])) <= REACH_MM
    finally:
        controller.close()


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_no_candidate_is_released_beyond_reach(level):
    """Every candidate release, whatever its aim, is one the rules allow: an aim 170 mm out is
    tried at the edge of the reach."""
    from simulator.games.bandu.rules import REACH_MM

    places = BanduAgent(LEVELS[level]).candidates("cube-small", [(0.0, 0.0), (170.0, -160.0)])
    assert places and all(max(abs(p.x_mm), abs(p.y_mm)) <= REACH_MM for p in places)
    assert any(p.x_mm == REACH_MM and p.y_mm == -REACH_MM for p in places)
