"""BanduStackEnv (simulator/envs/stack.py): Bandu's solo game as a Gymnasium environment.

It passes Gymnasium's own checker unmodified (exact release and the hand's tremor, built
directly and through gymnasium.make), an episode's rewards add up to the score the game reports,
a seed replays an episode exactly while the hand's tremor makes different seeds differ, a piece
released on a chosen resting face lands on that face, observations stay in their space, and an
action outside its space is refused with a ValueError before the game sees it.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from simulator.envs.stack import (
    HAND_TREMOR,
    BanduStackEnv,
    euler_angles,
    face_count,
    face_orientation,
    max_face_count,
    place_on_face,
)
from simulator.games.bandu.attempts import attempt_of
from simulator.games.bandu.builder import resting_faces
from simulator.games.bandu.referee import NO_TREMOR, Tremor, orientation_of
from simulator.games.bandu.rotations import euler_quaternion, quat_multiply, rotation_matrix
from simulator.games.bandu.rules import BUILDING_PIECES

IDS = {"BanduStack-v0": {}, "BanduStackTremor-v0": {"tremor": "hand"}}
for _id, _kwargs in IDS.items():    # simulator/envs/__init__.py registers them, once it does
    if _id not in gymnasium.envs.registry:
        gymnasium.register(id=_id, entry_point="simulator.envs.stack:BanduStackEnv", kwargs=_kwargs)

# what check_env says of any environment of this design: the pose is in mm and degrees, not
# normalised to -1..1 (the design's choice), and one built directly has no spec to remake it from
EXPECTED_WARNINGS = ("we recommend using a symmetric and normalized space",
                     "not having a spec")


def turn_angle_deg(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The angle of the turn between two orientations (unit quaternions), degrees."""
    dot = abs(sum(x * y for x, y in zip(a, b, strict=True)))
    return math.degrees(2 * math.acos(min(1.0, dot)))


def wanted_orientation(piece: str, face: int, yaw_deg: float) -> tuple[float, float, float, float]:
    """The piece resting on `face`, then turned `yaw_deg` about the vertical."""
    return quat_multiply(euler_quaternion(0.0, 0.0, yaw_deg), face_orientation(piece, face))


def checked_without_surprises(env: gymnasium.Env) -> list[str]:
    """check_env(env), unmodified; the warnings it gave beyond the expected ones."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    return [str(w.message) for w in caught
            if not any(expected in str(w.message) for expected in EXPECTED_WARNINGS)]


def action(piece: int = 0, face: int = 0, x_mm: float = 0.0, y_mm: float = 0.0,
           yaw_deg: float = 0.0) -> dict:
    return {"piece": piece, "face": face, "pose": np.array([x_mm, y_mm, yaw_deg], dtype=np.float32)}


def index_of(env: BanduStackEnv, piece: str) -> int:
    return env.available().index(piece)


# --- Gymnasium's checker -------------------------------------------------------------------------

@pytest.mark.parametrize("settings", [{}, {"tremor": "hand"}, {"tremor": "hand", "reserve": 12}],
                         ids=["exact-release", "hand", "hand-small-reserve"])
def test_check_env_passes(settings):
    env = BanduStackEnv(**settings)
    try:
        assert checked_without_surprises(env) == []
    finally:
        env.close()


def test_the_registered_ids_make_environments_that_pass_check_env():
    env = gymnasium.make("BanduStack-v0")
    shaken = gymnasium.make("BanduStackTremor-v0")
    try:
        assert isinstance(env.unwrapped, BanduStackEnv) and env.unwrapped.tremor == NO_TREMOR
        assert isinstance(shaken.unwrapped, BanduStackEnv) and shaken.unwrapped.tremor == HAND_TREMOR
        # with a spec, check_env also remakes it in every render mode and closes it twice
        for made in (env, shaken):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                check_env(made.unwrapped)
            surprises = [str(w.message) for w in caught if EXPECTED_WARNINGS[0] not in str(w.message)]
            assert surprises == []
        obs, _ = env.reset(seed=3)
        obs, _reward, _terminated, truncated, _info = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs) and truncated is False
    finally:
        env.close()
        shaken.close()


def test_the_hand_is_the_programs_human_hand_preset():
    from simulator.games.bandu.ai import LEVELS
    from simulator.games.bandu.practice import PRACTICE_TREMOR
    from simulator.towers.studies.study import DEFAULT_TREMOR

    assert HAND_TREMOR == DEFAULT_TREMOR == PRACTICE_TREMOR == Tremor(1.0, 1.0)
    assert all(level.lab_hand == HAND_TREMOR for level in LEVELS.values())
    assert BanduStackEnv(tremor=Tremor(2.0, 0.5)).tremor == Tremor(2.0, 0.5)
    assert BanduStackEnv().tremor == NO_TREMOR and not NO_TREMOR


@pytest.mark.parametrize("arguments", [
    {"tremor": "shaky"}, {"tremor": Tremor(-1.0, 1.0)}, {"tremor": Tremor(float("nan"), 0.0)},
    {"tremor": 1.0}, {"reserve": 0}, {"reserve": 49}, {"reserve": True}, {"reserve": 2.0},
    {"render_mode": "human"}])
def test_settings_out_of_range_are_refused(arguments):
    with pytest.raises(ValueError, match=next(iter(arguments))):   # the message names it
        BanduStackEnv(**arguments)


# --- spaces and observations ---------------------------------------------------------------------

def test_the_spaces_are_as_documented():
    env = BanduStackEnv()
    faces = max(len(resting_faces(piece)) for piece in BUILDING_PIECES)
    assert max_face_count() == faces == env.faces == env.action_space["face"].n
    assert env.action_space["piece"].n == 48
    pose = env.action_space["pose"]
    assert pose.dtype == np.float32 and pose.shape == (3,)
    assert pose.low.tolist() == [-150, -150, -180] and pose.high.tolist() == [150, 150, 180]
    obs_space = env.observation_space
    assert obs_space["reserve"].n == 48
    assert obs_space["tower_pieces"].shape == (49,) and obs_space["tower_pieces"].nvec.tolist() == [50] * 49
    assert obs_space["tower_poses"].shape == (49, 7) and obs_space["height_mm"].shape == (1,)
    for name in ("tower_poses", "height_mm"):
        box = obs_space[name]
        assert box.dtype == np.float32 and np.all(np.isfinite(box.low)) and np.all(np.isfinite(box.high))


def test_the_observation_follows_the_game():
    env = BanduStackEnv(reserve=3)
    try:
        obs, info = env.reset(seed=11)
        assert obs["reserve"].dtype == np.int8 and obs["reserve"].sum() == 3 == info["reserve_left"]
        assert [BUILDING_PIECES[i] for i in np.flatnonzero(obs["reserve"])] == env.available()
        assert sorted(env.available()) == sorted(env.state.reserve)
        assert obs["tower_pieces"].tolist() == [1] + [0] * 48
        base = obs["tower_poses"][0]
        assert base[0] == base[1] == 0 and 0 < base[2] < 100 and abs(np.linalg.norm(base[3:]) - 1) < 1e-6
        assert not obs["tower_poses"][1:].any()
        assert obs["height_mm"][0] == pytest.approx(info["height_mm"]) and info["score"] == 0
        # "piece" counts the pieces left modulo their number, "face" the piece's faces
        left = env.available()
        expected = left[47 % 3]
        obs, _reward, _terminated, _, info = env.step(action(piece=47, face=env.faces - 1))
        assert info["placed"] == expected and info["face"] == (env.faces - 1) % face_count(expected)
        assert info["place"] == env.controller.history[-2].action        # the game's own record
        assert obs["tower_pieces"][1] == 2 + BUILDING_PIECES.index(expected)
        assert obs["reserve"][BUILDING_PIECES.index(expected)] == 0 and obs["reserve"].sum() == 2
        placed = obs["tower_poses"][1]
        assert np.any(placed[:3]) and abs(np.linalg.norm(placed[3:]) - 1) < 1e-5
        assert env.observation_space.contains(obs)
        # the settled base is where the observation stood it before the first placement
        assert np.allclose(obs["tower_poses"][0][:3], base[:3], atol=0.5)
    finally:
        env.close()


def test_render_ansi_shows_the_tower():
    env = BanduStackEnv(reserve=2, render_mode="ansi")
    quiet = BanduStackEnv(reserve=2)
    try:
        env.reset(seed=5)
        quiet.reset(seed=5)
        env.step(action(piece=0))
        text = env.render()
        assert isinstance(text, str) and "Bandu solo: score" in text and "base" in text
        assert env.state.towers[0][1] in text
        assert quiet.render() is None
    finally:
        env.close()
        quiet.close()


# --- episodes and rewards ------------------------------------------------------------------------

@pytest.mark.parametrize("tremor", [None, "hand"])
def test_a_random_agents_episodes_end_and_their_rewards_add_up_to_the_score(tremor):
    env = BanduStackEnv(tremor=tremor)
    env.action_space.seed(2)
    try:
        for episode in range(3):
            obs, info = env.reset(seed=episode)
            total, steps, terminated = 0.0, 0, False
            while not terminated:
                obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
                assert truncated is False and isinstance(terminated, bool)
                assert env.observation_space.contains(obs)
                total += reward
                steps += 1
                assert steps <= 48
            record = attempt_of(env.controller)       # the score the game reports (the records')
            assert total == record.score == info["score"]
            assert info["fell"] == record.fell
            assert info["fell"] or info["reserve_left"] == 0
            assert env.state.returns() == [record.score / 48]
    finally:
        env.close()


def test_a_careful_builders_rewards_add_up_to_the_score_until_the_reserve_is_empty():
    """Every piece released on the axis on its most stable face: rewards of 1 while the tower
    stands, none for a fall, and they add up to the game's final score."""
    env = BanduStackEnv(reserve=6)
    try:
        obs, info = env.reset(seed=4)
        rewards: list[float] = []
        terminated = False
        while not terminated:
            obs, reward, terminated, _, info = env.step(action(piece=0, yaw_deg=15.0 * len(rewards)))
            assert env.observation_space.contains(obs)
            assert reward == (0.0 if info["fell"] else 1.0)
            rewards.append(float(reward))
        record = attempt_of(env.controller)
        assert sum(rewards) == record.score == info["score"] >= 3
        assert record.height_mm == pytest.approx(float(obs["height_mm"][0]), abs=0.05)
        assert info["fell"] or (info["reserve_left"] == 0 and len(rewards) == 6 == record.score)
        with pytest.raises(RuntimeError):
            env.step(action())                       # the game is over
    finally:
        env.close()


def test_a_fall_earns_nothing_and_keeps_the_score_of_the_tower_that_stood():
    """Two pieces stand, then one released at the edge of reach misses the tower and falls to
    the table: the tower has fallen, the step earns 0, the game keeps the score of 2 and the
    height of the tower as it stood, and the episode ends."""
    env = BanduStackEnv(reserve=6)
    try:
        env.reset(seed=4)
        heights = []
        for _ in range(2):
            obs, reward, terminated, _, info = env.step(action(piece=0))
            assert reward == 1.0 and not terminated
            heights.append(float(obs["height_mm"][0]))
        obs, reward, terminated, truncated, info = env.step(action(piece=0, x_mm=150.0, y_mm=150.0))
        assert info["fell"] and terminated and not truncated and reward == 0.0
        assert info["score"] == 2 == attempt_of(env.controller).score
        assert float(obs["height_mm"][0]) == heights[-1]
        assert obs["tower_pieces"][3] == 2 + BUILDING_PIECES.index(info["placed"])   # it is listed
        assert env.observation_space.contains(obs)
    finally:
        env.close()


def test_step_before_reset_is_refused_and_close_twice_is_fine():
    env = BanduStackEnv()
    with pytest.raises(RuntimeError):
        env.step(action())
    env.reset(seed=0)
    env.close()
    env.close()


# --- determinism and the tremor ------------------------------------------------------------------

def play(tremor: str | None, seed: int, reserve: int = 6) -> list[dict[str, np.ndarray]]:
    """Three centred placements on the most stable face: the observations."""
    env = BanduStackEnv(tremor=tremor, reserve=reserve)
    try:
        seen = [env.reset(seed=seed)[0]]
        for step in range(3):
            obs, _, terminated, _, _ = env.step(action(piece=step, yaw_deg=30.0 * step))
            seen.append(obs)
            if terminated:
                break
        return seen
    finally:
        env.close()


def same(a: list[dict[str, np.ndarray]], b: list[dict[str, np.ndarray]]) -> bool:
    return len(a) == len(b) and all(
        x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x) for x, y in zip(a, b, strict=True))


def test_a_seed_and_the_actions_replay_an_episode_and_the_hand_makes_seeds_differ():
    first, again, other = play("hand", 7, reserve=48), play("hand", 7, reserve=48), play("hand", 8, reserve=48)
    assert same(first, again)
    assert len(first) > 1 and len(other) > 1
    # the same pieces (the whole reserve, taken in the same order) at different poses
    assert np.array_equal(first[1]["tower_pieces"], other[1]["tower_pieces"])
    assert not np.array_equal(first[1]["tower_poses"][1], other[1]["tower_poses"][1])
    # with an exact release the seed changes nothing on a full reserve: the tremor did it
    assert same(play(None, 7, reserve=48), play(None, 8, reserve=48))


def test_a_small_reserve_is_drawn_from_the_seed():
    env = BanduStackEnv(reserve=3)
    try:
        draws = [env.reset(seed=seed)[0]["reserve"].tolist() for seed in (0, 1, 2, 3, 2)]
    finally:
        env.close()
    assert all(sum(draw) == 3 for draw in draws)
    assert len({tuple(draw) for draw in draws}) > 1 and draws[2] == draws[4]


# --- faces and yaw -------------------------------------------------------------------------------

def test_face_and_yaw_become_the_release_the_referee_makes():
    """The referee turns a Place's roll, pitch, yaw after the piece's most stable orientation
    (referee.orientation_of); place_on_face's angles give Z(yaw) * face, for every face of every
    piece, at right-angle pitches too, once the rules have kept the angles to 0.1 degree."""
    worst = 0.0
    for piece in BUILDING_PIECES:
        for face in range(face_count(piece)):
            for yaw in (-180.0, -97.3, 0.0, 45.0, 90.0, 179.9, 180.0):
                place = place_on_face(piece, face, 1.5, -2.0, yaw)
                assert max(abs(place.roll_deg), abs(place.yaw_deg)) <= 180 and abs(place.pitch_deg) <= 90
                released = orientation_of(place.rounded())
                worst = max(worst, turn_angle_deg(released, wanted_orientation(piece, face, yaw)))
    assert worst < 0.2


def test_euler_angles_invert_the_places_convention_everywhere():
    rng = np.random.default_rng(0)
    quaternions = [tuple(q / np.linalg.norm(q)) for q in rng.normal(size=(300, 4))]
    # right-angle pitches, where only roll minus (or plus) yaw counts
    quaternions += [euler_quaternion(roll, pitch, yaw)
                    for roll in (-170.0, 0.0, 33.0) for pitch in (-90.0, 90.0) for yaw in (-120.0, 10.0, 180.0)]
    for q in quaternions:
        roll, pitch, yaw = euler_angles(q)
        assert -180 <= roll <= 180 and -90 <= pitch <= 90 and -180 <= yaw <= 180
        assert np.allclose(rotation_matrix(euler_quaternion(roll, pitch, yaw)), rotation_matrix(q), atol=1e-9)


@pytest.mark.parametrize(("piece", "face", "yaw"), [
    ("cube-large", 3, 30.0), ("ashlar-large", 4, -97.3), ("ashlar-large", 5, -97.3),
    ("plank-long", 2, 0.0), ("arch", 4, 0.0), ("column", 1, 0.0), ("t-block", 2, 60.0),
    ("prism-hexagon", 3, 180.0), ("slab-square", 0, 45.0),
    # right-angle pitches, where PyBullet's getEulerFromQuaternion gives yaws beyond 180 degrees
    # (a release clamped to the rules' range there would land turned up to 90 degrees wrong)
    ("arch", 4, 180.0), ("column", 2, -97.3), ("l-block", 3, -180.0)])
def test_a_piece_released_on_a_face_lands_on_it(piece, face, yaw):
    """Released exactly (no tremor) on the base's centre, the piece settles with the chosen face
    down (its outward normal points down within a degree) and turned as asked."""
    env = BanduStackEnv()
    try:
        env.reset(seed=0)
        obs, reward, _, _, info = env.step(action(piece=index_of(env, piece), face=face, yaw_deg=yaw))
        assert reward == 1.0 and info["face"] == face
        settled = tuple(float(v) for v in obs["tower_poses"][1][3:])
        down = rotation_matrix(settled) @ np.array(resting_faces(piece)[face].normal)
        assert math.degrees(math.acos(min(1.0, -down[2]))) < 1.0
        assert turn_angle_deg(settled, wanted_orientation(piece, face, yaw)) < 1.0
    finally:
        env.close()


# --- actions outside the space -------------------------------------------------------------------

@pytest.mark.parametrize("bad", [
    action(piece=48), action(piece=-1), action(face=10_000), {**action(), "piece": np.True_},
    {**action(), "piece": 1.5}, {**action(), "face": "0"}, action(x_mm=150.5), action(y_mm=-151.0),
    action(yaw_deg=180.5), action(x_mm=float("nan")), {**action(), "pose": [0.0, 0.0]},
    {**action(), "pose": "0 0 0"}, {"piece": 0, "face": 0}, {**action(), "extra": 1}, [0, 0, 0, 0, 0], None])
def test_an_action_outside_the_space_is_a_value_error_and_changes_nothing(bad):
    env = BanduStackEnv(reserve=2)
    try:
        env.reset(seed=1)
        moves = len(env.controller.history)
        with pytest.raises(ValueError, match="action"):
            env.step(bad)
        assert len(env.controller.history) == moves and len(env.available()) == 2
        if isinstance(bad, dict):                    # outside the space by Gymnasium's own word
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")      # Box.contains casting a list
                assert not env.action_space.contains(bad)
        env.step(action())                           # and the game goes on
    finally:
        env.close()


def test_every_action_of_the_space_is_accepted():
    env = BanduStackEnv()
    env.action_space.seed(9)
    for _ in range(2000):
        sample = env.action_space.sample()
        piece, face, pose = env.checked(sample)
        assert (piece, face) == (sample["piece"], sample["face"]) and np.allclose(pose, sample["pose"])
    assert env.checked({"piece": True, "face": np.array(3), "pose": [1, 2, 3]}) == (1, 3, (1.0, 2.0, 3.0))


def test_the_edges_of_the_space_are_accepted():
    env = BanduStackEnv(reserve=1)
    try:
        env.reset(seed=1)
        edge = {"piece": np.int64(47), "face": np.int64(env.faces - 1),
                "pose": np.array([150.0, -150.0, 180.0], dtype=np.float32)}
        assert env.action_space.contains(edge)
        _obs, _reward, terminated, _, info = env.step(edge)
        assert terminated and "at 150 -150 mm" in info["place"]
    finally:
        env.close()


# --- the import ----------------------------------------------------------------------------------

def test_importing_the_environment_prints_nothing():
    result = subprocess.run([sys.executable, "-c", "import simulator.envs.stack"],
                            capture_output=True, text=True, check=True)
    assert result.stdout == "" and result.stderr == ""
