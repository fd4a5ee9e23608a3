"""The PettingZoo AEC environment of every registered game (simulator/envs/aec.py): PettingZoo's
own API and seed tests, unmodified, on each game and on the test suite's own games, and checks
of what the environment promises besides: the mask is the rules' legal actions, an illegal index
is refused, a game ends with every agent's return, no seat sees what the rules hide from it."""

from __future__ import annotations

import json
import random
import time

import crowd_game  # noqa: F401  (registers the test games)
import numpy as np
import peek_game  # noqa: F401
import pytest
import stack_game  # noqa: F401
from pettingzoo.test import api_test, seed_test

from simulator.core import registry
from simulator.core.controller import TurnController
from simulator.envs.aec import GameAEC, aec_env, decode_observation
from simulator.games.bandu.rules import Place

FLAT_GAMES = ["tanbo", "bandida", "bunko", "buddel_bande"]
BANDU_SMALL = {"reserve": 6}          # a short Bandu game: six pieces drawn into the reserve
BANDU_SECONDS = 60                    # the most one Bandu test may take
UNKNOWN_CARD = "?"                    # a card Bandida's JSON shows face down


def full_state(env: GameAEC):
    """The whole state of the environment's game, read back from its save (a public door)."""
    return env.game.state_from_dict(env.to_save_dict()["state"])


def as_json(data):
    """A dict as it reads back from JSON (tuples as lists, keys as text)."""
    return json.loads(json.dumps(data))


def play_out(env: GameAEC, seed: int, check=None, max_steps: int = 100_000) -> dict[str, float]:
    """Play the environment's game to its end with random masked actions, stepping each
    terminated agent with None; `check(env, agent)` runs before every live agent's step.
    Returns the reward each agent's last() gave when its game was over."""
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for steps, agent in enumerate(env.agent_iter()):
        assert steps < max_steps, "the game did not end"
        observation, reward, terminated, truncated, _ = env.last()
        assert not truncated
        if terminated:
            final[agent] = reward
            env.step(None)
            continue
        assert reward == 0
        if check is not None:
            check(env, agent)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return final


# --- PettingZoo's own tests -------------------------------------------------------------------
@pytest.mark.parametrize(("name", "options"), [
    ("tanbo", {}), ("tanbo", {"size": 11}), ("bandida", {}), ("bandida", {"players": 4}),
    ("bunko", {}), ("buddel_bande", {}), ("buddel_bande", {"players": 4})])
def test_api_test_passes_for_each_flat_game(name, options):
    env = aec_env(name, **options)
    api_test(env, num_cycles=300)
    env.close()


@pytest.mark.parametrize("name", FLAT_GAMES)
def test_seed_test_passes_for_each_flat_game(name):
    seed_test(lambda: aec_env(name), num_cycles=300)


@pytest.mark.slow
@pytest.mark.parametrize("options", [BANDU_SMALL, {**BANDU_SMALL, "variant": "solo"}],
                         ids=["standard", "solo"])
def test_api_test_passes_for_bandu(options):
    started = time.monotonic()
    env = aec_env("bandu", **options)
    api_test(env, num_cycles=20)
    env.close()
    assert time.monotonic() - started < BANDU_SECONDS


@pytest.mark.slow
def test_seed_test_passes_for_bandu():
    started = time.monotonic()
    seed_test(lambda: aec_env("bandu", **BANDU_SMALL), num_cycles=20)
    assert time.monotonic() - started < BANDU_SECONDS


@pytest.mark.parametrize(("name", "players"), [("peek", None), ("stack", None), ("crowd", 1),
                                                ("crowd", 20)])
def test_a_test_suites_own_game_gets_an_environment_with_no_code_of_its_own(name, players):
    """Peek has chance and hidden cards, Stack outcomes from a slow thread, Crowd one seat or
    twenty: registered by the tests, never named by the environment."""
    assert registry.get_game(name).available
    env = aec_env(name, players=players)
    api_test(env, num_cycles=100)
    env.close()
    seed_test(lambda: aec_env(name, players=players), num_cycles=100)


# --- what the environment promises ------------------------------------------------------------
def test_agents_spaces_and_metadata():
    env = aec_env("buddel_bande", players=3, max_actions=64, observation_bytes=4096)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.metadata["name"] == "buddel_bande_v0"
    assert env.observation_space("player_1") is env.observation_space("player_1")
    assert env.action_space("player_2").n == 64
    assert env.observation_space("player_0")["observation"].shape == (4096,)
    assert env.observation_space("player_0")["action_mask"].shape == (64,)
    env.reset(seed=3)
    assert env.agents == env.possible_agents
    observation = env.observe("player_0")
    assert observation["observation"].dtype == np.uint8 and observation["action_mask"].dtype == np.int8


@pytest.mark.parametrize("name", FLAT_GAMES)
def test_the_mask_is_the_rules_legal_actions_at_the_agents_turn_only(name):
    env = aec_env(name)
    env.reset(seed=11)
    seen = []

    def check(env, agent):
        state = env.state_of(agent)
        legal = env.legal_actions(agent)
        assert legal == full_state(env).legal_actions() and len(legal) >= 1
        for other in env.agents:
            mask = env.observe(other)["action_mask"]
            expected = np.zeros(env.max_actions, dtype=np.int8)
            if other == agent:
                expected[:len(legal)] = 1
            else:
                assert env.legal_actions(other) == []
            assert np.array_equal(mask, expected)
        index = len(legal) - 1
        assert env.index_of(agent, legal[index]) == index
        assert env.action_to_str(agent, index) == state.action_to_str(legal[index])
        seen.append(len(legal))

    play_out(env, seed=5, check=check)
    assert seen


def test_an_illegal_index_is_refused_and_changes_nothing():
    env = aec_env("tanbo")
    env.reset(seed=2)
    agent = env.agent_selection
    count = len(env.legal_actions(agent))
    before = env.observe(agent)
    for bad in (count, env.max_actions - 1, -1):
        with pytest.raises(ValueError, match=rf"{agent} chose action {bad}, but only {count} actions"):
            env.step(bad)
    with pytest.raises(ValueError, match="None is only for an agent whose game is over"):
        env.step(None)
    with pytest.raises(ValueError, match="must be a whole number"):
        env.step(1.5)
    assert env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], before["observation"])
    env.step(np.int64(count - 1))            # the last legal index is taken
    assert env.agent_selection != agent


@pytest.mark.parametrize("name", FLAT_GAMES)
def test_a_random_game_ends_with_every_agents_return(name):
    env = aec_env(name)
    env.reset(seed=7)
    final = play_out(env, seed=7)
    state = full_state(env)
    assert state.is_terminal()
    assert env.agents == []
    assert final == {agent: state.returns()[seat] for seat, agent in enumerate(env.possible_agents)}
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(None)


def test_a_dead_agent_takes_only_none():
    env = aec_env("tanbo")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not env.terminations[env.agent_selection]:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert all(env.terminations.values())
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)


@pytest.mark.parametrize("name", ["bandida", "buddel_bande", "peek"])
def test_an_observation_is_what_the_seat_may_know(name):
    """Every agent's observation decodes to the rules' redaction of the state for its seat,
    at every step of a game; and the rules hide something somewhere in it."""
    env = aec_env(name)
    env.reset(seed=4)
    hidden = []

    def check(env, agent):
        state = full_state(env)
        for seat, other in enumerate(env.possible_agents):
            seen = decode_observation(env.observe(other))
            assert seen == as_json(state.redacted(seat).to_dict())
            assert seen == as_json(env.state_of(other).to_dict())
            hidden.append(seen != as_json(state.to_dict()))

    play_out(env, seed=4, check=check)
    assert any(hidden)


def test_no_seat_sees_another_seats_bandida_hand():
    env = aec_env("bandida", players=3)
    env.reset(seed=9)
    looked = []

    def check(env, agent):
        state = full_state(env)
        hands_held = as_json(state.to_dict())["hands"]
        for seat, other in enumerate(env.possible_agents):
            hands = decode_observation(env.observe(other)["observation"])["hands"]
            assert hands[seat] == hands_held[seat]
            for owner, hand in enumerate(hands):
                if owner != seat:
                    assert hand == [UNKNOWN_CARD] * len(hands_held[owner])
                    looked.append(any(card != UNKNOWN_CARD for card in hands_held[owner]))

    play_out(env, seed=9, check=check)
    assert any(looked)


def test_state_of_is_a_copy():
    env = aec_env("tanbo")
    env.reset(seed=0)
    agent = env.agent_selection
    before = env.observe(agent)["observation"]
    state = env.state_of(agent)
    state.apply(state.legal_actions()[0])
    assert np.array_equal(env.observe(agent)["observation"], before)


def test_decode_observation_reads_the_array_or_the_dict():
    env = aec_env("tanbo", size=7)
    env.reset(seed=0)
    observation = env.observe("player_1")
    expected = as_json(env.state_of("player_1").to_dict())
    assert decode_observation(observation) == expected
    assert decode_observation(observation["observation"]) == expected
    for bad, words in [(np.zeros(8, dtype=np.uint8), "does not encode a state's dict"),
                       ({"x": 1}, "under 'observation'"), ("hello", "not an observation"),
                       (np.array([255, 254, 1], dtype=np.uint8), "not an observation")]:
        with pytest.raises(ValueError, match=words):
            decode_observation(bad)


def test_an_observation_too_big_for_its_bytes_says_to_pass_more():
    env = aec_env("tanbo", observation_bytes=64)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="pass a larger observation_bytes"):
        env.last()


def test_more_legal_actions_than_max_actions_says_to_pass_more():
    env = aec_env("tanbo", max_actions=4)
    with pytest.raises(ValueError, match=r"lists 24 legal actions here.*pass a larger max_actions"):
        env.reset(seed=0)


def test_unknown_games_settings_and_counts_are_refused():
    with pytest.raises(ValueError, match=r"unknown game 'chess'.*tanbo"):
        aec_env("chess")
    with pytest.raises(ValueError, match="size"):
        aec_env("tanbo", size=8)
    with pytest.raises(ValueError, match="unknown setting 'colour'"):
        aec_env("tanbo", colour="red")
    with pytest.raises(ValueError, match="for 2 players, not 3"):
        aec_env("tanbo", players=3)
    with pytest.raises(ValueError, match="max_actions"):
        aec_env("tanbo", max_actions=0)
    with pytest.raises(ValueError, match="render_mode"):
        aec_env("tanbo", render_mode="human")


def test_a_seed_replays_the_game_and_another_seed_deals_another():
    def observations(seed):
        env = aec_env("bandida")
        env.reset(seed=seed)
        seen = []
        play_out(env, seed=0, check=lambda env, agent: seen.append(
            env.observe(agent)["observation"].tobytes()))
        return seen, env.to_save_dict()["seed"]

    first, seed = observations(21)
    assert seed == 21
    assert observations(21)[0] == first
    assert observations(22)[0][0] != first[0]        # another deal


def test_reset_without_a_seed_draws_from_the_seeded_generator():
    one, two = aec_env("bunko"), aec_env("bunko")
    for env in (one, two):
        env.reset(seed=8)
        env.reset()
    assert one.to_save_dict()["seed"] == two.to_save_dict()["seed"] != 8


def test_the_game_saves_and_replays_in_the_controller():
    env = aec_env("buddel_bande")
    env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(12):
        env.step(rng.randrange(len(env.legal_actions(env.agent_selection))))
    replayed = TurnController.from_save_dict(env.to_save_dict())
    assert replayed.state == full_state(env)
    replayed.close()


def test_render_ansi_names_the_game_and_the_agent_to_move():
    env = aec_env("tanbo", render_mode="ansi")
    env.reset(seed=0)
    env.step(0)
    text = env.render()
    assert text.startswith("Tanbo (7x7), seed 0, 1 moves played")
    assert "(player_1) to move, " in text and "last move: Black: " in text
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert aec_env("tanbo").render() is None
    env.close()
    with pytest.raises(RuntimeError, match="call reset"):
        env.last()


@pytest.mark.slow
def test_bandu_keeps_a_knocked_out_seat_an_agent_that_never_moves():
    """Three players, a small reserve: seats fall out one by one; each stays an agent without
    a turn until the game ends, and the placements are the rules' own (over the axis, 0 or 90
    degrees)."""
    started = time.monotonic()
    env = aec_env("bandu", players=3, **BANDU_SMALL)
    env.reset(seed=0)
    out_while_playing, placements = set(), []

    def check(env, agent):
        state = env.state_of(agent)
        assert state.alive[env.possible_agents.index(agent)]
        out_while_playing.update(s for s, alive in enumerate(state.alive) if not alive)
        assert env.agents == env.possible_agents
        if state.phase == "place":
            legal = env.legal_actions(agent)
            placements.append(legal)
            assert all(isinstance(a, Place) and (a.x_mm, a.y_mm) == (0.0, 0.0) for a in legal)
            assert sorted(a.yaw_deg for a in legal) == [0.0, 90.0]

    final = play_out(env, seed=0, check=check)
    state = full_state(env)
    assert out_while_playing and placements
    assert final == {agent: state.returns()[seat] for seat, agent in enumerate(env.possible_agents)}
    env.close()
    assert time.monotonic() - started < BANDU_SECONDS
