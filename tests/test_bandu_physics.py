"""Bandu with real physics: complete games decided by the PyBullet referee, and saves that
reproduce their towers when replayed."""

from __future__ import annotations

import json

import pytest

from simulator.core.controller import COMPUTER, Seat, TurnController
from simulator.core.state import OUTCOME
from simulator.games.bandu.referee import PhysicsReferee, check_replay, tower_axes
from simulator.games.bandu.rules import Place, new_game

pytestmark = pytest.mark.slow
RANDOM = Seat(COMPUTER, "random")


def test_towers_stand_apart_on_the_table():
    for players in range(1, 9):
        axes = tower_axes(players)
        assert len(axes) == players
        assert all(abs(x) <= 0.7 and abs(y) <= 0.4 for x, y in axes)
        for i, a in enumerate(axes):
            for b in axes[i + 1:]:
                assert ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 >= 0.29


def test_a_short_game_to_the_end_with_physics_and_its_replay(tmp_path):
    c = TurnController("bandu", {"reserve": 8}, [RANDOM, RANDOM, RANDOM], seed=11)
    c.play_computer_moves()
    assert c.is_over()
    outcomes = [h for h in c.history if h.player == OUTCOME]
    assert outcomes and all(h.action.startswith("result ") for h in outcomes)
    state = c.state
    # every placement the physics judged has left settled poses behind for what still stands
    for tower in state.towers:
        for piece in tower:
            assert piece in state.poses
            assert state.poses[piece][2] > 0          # above the table top
    path = c.save(tmp_path / "bandu.json")
    saved = json.loads(path.read_text())
    history = [(h["player"], h["action"]) for h in saved["history"]]
    start = new_game(players=len(saved["seats"]), **saved["settings"])
    assert check_replay(history, start) == []
    # a save whose towers were edited is caught
    for index, (player, action) in enumerate(history):
        if action.startswith("result stood") and '"base"' in action:
            tampered = action.replace('["base",', '["base",1', 1)
            history[index] = (player, tampered.replace('["base",1-', '["base",-', 1))
            break
    edited = [(p, a.replace('"base",-300.0', '"base",-250.0')) for p, a in history]
    problems = check_replay(edited, start)
    assert problems and "settled elsewhere than saved" in problems[0]
    c.close()


def test_a_centred_cube_on_the_base_stands_and_a_ball_on_a_cone_falls():
    state = new_game(players=2)
    referee = PhysicsReferee(settle_seconds=2.0)
    import random as random_module

    rng = random_module.Random(0)
    try:
        state.apply(state.action_from_str("offers cube-large to refuse"))
        state.apply(state.action_from_str("accepts"))
        state.apply(Place("cube-large"))
        outcome = referee.resolve(state, rng)
        assert outcome.fallen == ()
        state.apply(outcome)
        state.apply(state.action_from_str("offers cone-tall to refuse"))
        state.apply(state.action_from_str("accepts"))               # seat 0
        state.apply(Place("cone-tall"))
        state.apply(referee.resolve(state, rng))
        state.apply(state.action_from_str("offers ball to refuse"))   # seat 0 auctions the ball
        state.apply(state.action_from_str("refuses"))               # seat 1 pays to pass it on
        state.apply(state.action_from_str("accepts"))               # seat 0 must take it
        assert state.placer == 0
        state.apply(Place("ball", 0.0, 12.0))      # on the cone's flank: rolls off the narrow base
        outcome = referee.resolve(state, rng)
        assert outcome.fallen == (0,)
        # the fallen tower's pieces where they came down (a solo game's replay draws them)
        assert {"ball", "cone-tall"} <= {pose[0] for pose in outcome.poses}
        state.apply(outcome)
        assert state.is_terminal() and state.winners() == [1]
        assert state.towers[1] == ["base#2", "cube-large"]
    finally:
        referee.close()


def test_selfplay_reports_the_towers():
    from simulator.selfplay import selfplay

    report = selfplay("bandu", games=2, seed=5, players=["random", "random"], settings={"reserve": 6})
    for game in report["games"]:
        assert set(game) >= {"placements", "eliminated", "beans", "tower_pieces", "reserve"}
        assert len(game["tower_pieces"]) == 2 and game["placements"] >= 1
    again = selfplay("bandu", games=2, seed=5, players=["random", "random"], settings={"reserve": 6},
                     workers=2)
    def without_timing(games):
        return [{k: v for k, v in g.items() if "think" not in k} for g in games]

    assert without_timing(again["games"]) == without_timing(report["games"])   # same seed, same games


def test_loading_a_save_checks_its_results_with_the_physics(tmp_path):
    from simulator.core.errors import SaveError

    c = TurnController("bandu", {"reserve": 6}, [RANDOM, RANDOM], seed=13)
    c.play_computer_moves()
    path = c.save(tmp_path / "bandu.json")
    c.close()
    loaded = TurnController.load(path)                  # the physics agrees with every result
    assert loaded.state == c.state
    loaded.close()
    data = json.loads(path.read_text())
    del data["state"]                                   # so only the referee can notice
    for entry in data["history"]:
        if entry["action"].startswith("result stood"):
            entry["action"] = entry["action"].replace('"base",-150.0', '"base",-120.0', 1)
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    with pytest.raises(SaveError, match=r"not what the game's referee finds: move .* settled elsewhere"):
        TurnController.load(edited)


@pytest.mark.parametrize(("settings", "players"), [
    ({"variant": "challenge", "reserve": 8}, 3), ({"variant": "solo", "reserve": 6}, 1),
    ({"variant": "chain", "chain": 4, "reserve": 5}, 2), ({"auctions": "acquire", "reserve": 10}, 8),
    ({"auctions": "refuse", "beans": 0, "reserve": 8}, 4)])
def test_every_variant_plays_to_the_end_with_physics(settings, players):
    """Without beans the reserve runs out and the auctioneers offer pieces off their own towers
    (the computer player weighs which with its lab). Such a game ends only when a tower falls:
    at seed 7 after 15 placements (with 6 pieces, 96: the seed and reserve keep it short)."""
    seats = [Seat(COMPUTER, "ai:easy")] + [RANDOM] * (players - 1)
    c = TurnController("bandu", settings, seats, seed=7)
    offered_from_a_tower = 0
    while not c.is_over():
        if c.state.phase == "offer" and not c.state.reserve and c.state.variant == "standard":
            offered_from_a_tower += 1
        c.play_computer_moves(limit=1)
    assert any(h.player == OUTCOME for h in c.history)
    assert c.state.placements >= 1
    assert offered_from_a_tower >= 1 or settings.get("beans") != 0
    c.close()


def test_a_seat_that_is_out_has_no_tower_in_the_physics():
    """A solo or chain game keeps a fallen tower's pieces for the score; the physics (referee
    and preview) must not stand them up again for the next placements."""
    from simulator.games.bandu.referee import standing_towers

    state = new_game(players=2, variant="chain")
    state.towers = [["base#1", "cube-large"], ["base#2", "disc"]]
    state.alive = [False, True]
    assert standing_towers(state) == [[], ["base#2", "disc"]]


def test_after_a_chain_tower_falls_the_referee_holds_only_the_standing_towers():
    import random as random_module

    state = new_game(players=2, variant="chain", chain=7, reserve=4)
    referee = PhysicsReferee(settle_seconds=1.0)
    rng = random_module.Random(0)

    def take_and_place(y_mm: float = 0.0):
        offer = state.legal_actions()[0]
        state.apply(offer)
        state.apply(Place(offer.piece, 0.0, y_mm))
        outcome = referee.resolve(state, rng)
        state.apply(outcome)
        return outcome

    try:
        assert take_and_place().fallen == ()
        assert take_and_place(80.0).fallen == (1,)            # seat 1 misses its base: out
        assert take_and_place().fallen == ()                   # seat 0 builds on
        # seat 1's pieces stay in its tower for the score, not stood up again in the physics
        assert len(state.towers[1]) == 2 and referee.towers[1] == []
        assert len(referee.world.bodies()) == len(state.towers[0])
    finally:
        referee.close()


def test_a_fallen_solo_towers_pieces_are_reported_lying_where_the_collapse_ends():
    """The poses a fall reports for its tower are where the collapse ends, not a moment of it:
    they were read half a second after the fall began, and stood up again there the pieces
    fell on by 27 cm (a piece still in the air)."""
    import math
    import random as random_module

    from simulator.towers.physics.bench_towers import TALL_NARROW
    from simulator.towers.physics.world import World

    state = new_game(players=1, variant="solo")
    referee = PhysicsReferee(settle_seconds=2.0)
    rng = random_module.Random(0)
    try:     # a tall narrow column, then a slab 25 mm off its axis: the whole column tips
        for piece, x_mm in [(p, 0.0) for p in TALL_NARROW[:7]] + [("slab-square", 25.0)]:
            state.apply(state.action_from_str(f"takes {piece}"))
            state.apply(Place(piece, x_mm, 0.0))
            outcome = referee.resolve(state, rng)
            state.apply(outcome)
            if outcome.fallen:
                break
    finally:
        referee.close()
    assert not state.alive[0] and len(state.towers[0]) == 9
    with World() as world:          # stood up again where they are said to lie
        bodies = {piece: world.add_piece(piece, tuple(v / 1000 for v in state.came_down[piece][:3]),
                                         tuple(state.came_down[piece][3:]), clear_overlap=False)
                  for piece in state.towers[0]}
        start_at = {piece: world.pose(body)[0] for piece, body in bodies.items()}
        in_the_air = {piece: 1000 * world.drop_height(body) for piece, body in bodies.items()}
        world.step(240)
        moved = {piece: 1000 * math.dist(start_at[piece], world.pose(body)[0])
                 for piece, body in bodies.items()}
    # where the collapse ended: every piece lies on something (the bug: 27 cm up, in the air),
    # and stood up again nothing falls far (a leaning pole may slide a little; a barrel roll)
    assert max(in_the_air.values()) < 2.0, in_the_air
    assert max(moved.values()) < 40.0, moved
