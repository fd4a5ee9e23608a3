"""Bandu's solo stacking game as a Gymnasium environment (`BanduStackEnv`), for learning agents.

An episode is one solo game of Bandu (docs/RULES-BANDU.md, "Solo"): one player, one base, the
pieces of the reserve taken one at a time and placed on the tower, until the tower falls or the
reserve is empty. A step is one placement. The environment is a thin door onto the game itself:
the moves go through a TurnController of one person's seat, and every placement is judged by
the game's own physics referee (games/bandu/referee.py, PhysicsReferee on a ThreadResolver,
exactly as `physics_resolver` gives it to every game), shaken, when a tremor is asked for, by
that referee the way it shakes every release. So a score here is a score of the game.

The tower library (towers/) is reached only through Bandu's package, as the house's floors
require of every room but Bandu's (tests/test_layering.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from simulator.core.controller import Seat, TurnController
from simulator.core.outcomes import ThreadResolver
from simulator.core.state import TERMINAL
from simulator.games.bandu import GAME
from simulator.games.bandu.attempts import tower_height_mm
from simulator.games.bandu.builder import resting_faces  # placement.py's
from simulator.games.bandu.practice import PRACTICE_TREMOR
from simulator.games.bandu.referee import (  # the physics, PyBullet imported silenced
    NO_TREMOR,
    PhysicsReferee,
    Tremor,
    most_stable_orientation,
    tower_axes,
)
from simulator.games.bandu.rotations import (
    euler_quaternion,
    quat_multiply,
    rotation_matrix,
)
from simulator.games.bandu.rules import (
    BUILDING_PIECES,
    FLOOR_MM,
    REACH_MM,
    ROOM_MM,
    TAKE,
    BanduState,
    Offer,
    Place,
    base_id,
)

Quat = tuple[float, float, float, float]

PIECES = len(BUILDING_PIECES)          # 48
SLOTS = PIECES + 1                     # a tower's places: the base and every building piece
EMPTY, BASE_CODE = 0, 1                # tower_pieces codes; BUILDING_PIECES[i] is 2 + i
CODES = PIECES + 2                     # how many codes there are
INDEX = {piece: i for i, piece in enumerate(BUILDING_PIECES)}
HAND = "hand"
# The human hand: Bandu's own preset for a person's release in the solo game, the tremor the
# practice aid shakes its trials with (games/bandu/practice.py, PRACTICE_TREMOR), 1 mm and 1
# degree; the same as the computer players' trial hand (games/bandu/ai.py, Level.lab_hand) and
# a stability study's default noise (towers/studies/study.py, DEFAULT_TREMOR).
HAND_TREMOR: Tremor = PRACTICE_TREMOR


@cache
def face_count(piece: str) -> int:
    """How many resting faces `piece` has (placement.resting_faces), at least one: a piece with
    none found rests on its catalogue orientation."""
    return max(1, len(resting_faces(piece)))


@cache
def max_face_count() -> int:
    """The most resting faces any of the 48 building pieces has (the ball's, 226)."""
    return max(face_count(piece) for piece in BUILDING_PIECES)


def face_orientation(piece: str, face: int) -> Quat:
    """The orientation that rests `piece` on its resting face number `face` (most stable
    first), `face` taken modulo the piece's face count."""
    faces = resting_faces(piece)
    if not faces:
        return (0.0, 0.0, 0.0, 1.0)
    x, y, z, w = faces[face % len(faces)].orientation
    return (x, y, z, w)


def place_on_face(piece: str, face: int, x_mm: float, y_mm: float, yaw_deg: float) -> Place:
    """The Place action that releases `piece` resting on its face number `face` (modulo its
    face count), then turned by `yaw_deg` about the vertical, its centre `x_mm`, `y_mm` from the
    tower's axis.

    The referee releases a Place turned by T = R(roll, pitch, yaw) applied after the piece's
    most stable orientation M (referee.orientation_of: T * M). The release wanted is Z(yaw) * F,
    F the face's orientation, so T = Z(yaw) * F * M^-1, written as roll, pitch and yaw by
    `euler_angles`, each within a Place's range. (The computer player does the same with
    PyBullet's getEulerFromQuaternion, games/bandu/ai.py's _placement_for, and wraps its yaw
    later: at a right-angle pitch PyBullet gives yaws such as -270 degrees.) The rules keep a
    Place's angles to 0.1 degree, so the release is the one wanted within about 0.1 degree."""
    inverse = _conjugate(most_stable_orientation(piece))
    turn = quat_multiply(quat_multiply(euler_quaternion(0.0, 0.0, yaw_deg), face_orientation(piece, face)),
                         inverse)
    roll, pitch, yaw = euler_angles(turn)
    return Place(piece, x_mm, y_mm, yaw, roll, pitch)


def euler_angles(quaternion: tuple[float, ...]) -> tuple[float, float, float]:
    """Roll, pitch and yaw in degrees (turns about x, then y, then z: a Place's convention and
    rotations.euler_quaternion's) of a unit quaternion: roll and yaw -180 to 180, pitch -90 to
    90. Where the pitch is a right angle only the difference (or sum) of roll and yaw counts;
    the roll is then 0 and the yaw carries the whole turn about the vertical."""
    m = rotation_matrix(quaternion)              # = Z(yaw) Y(pitch) X(roll)
    cos_pitch = math.hypot(m[0, 0], m[1, 0])
    pitch = math.atan2(-m[2, 0], cos_pitch)
    if cos_pitch > 1e-6:
        roll = math.atan2(m[2, 1], m[2, 2])
        yaw = math.atan2(m[1, 0], m[0, 0])
    else:                                        # pitch +-90 degrees: Z(yaw) Y(pitch) alone
        roll = 0.0
        yaw = math.atan2(-m[0, 1], m[1, 1])
    roll_deg, pitch_deg, yaw_deg = (max(-180.0, min(180.0, math.degrees(a))) for a in (roll, pitch, yaw))
    return roll_deg, pitch_deg, yaw_deg


def _conjugate(q: tuple[float, ...]) -> tuple[float, float, float, float]:
    """The inverse turn of a unit quaternion."""
    x, y, z, w = q
    return (-x, -y, -z, w)


def tremor_named(tremor: str | Tremor | None) -> Tremor:
    """The releasing hand's tremor: None an exact release, "hand" the human hand
    (HAND_TREMOR), a Tremor as given (standard deviations finite and not negative)."""
    if tremor is None:
        return NO_TREMOR
    if isinstance(tremor, str):
        if tremor == HAND:
            return HAND_TREMOR
        raise ValueError(f"tremor must be None, {HAND!r} or a Tremor, not {tremor!r}")
    if not isinstance(tremor, Tremor):
        raise ValueError(f"tremor must be None, {HAND!r} or a Tremor, not {type(tremor).__name__}")
    for name in ("position_mm", "angle_deg"):
        value = getattr(tremor, name)
        if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value) \
                or value < 0:
            raise ValueError(f"a tremor's {name} is a finite number of at least 0, not {value!r}")
    return tremor


def _whole(action: Mapping[str, Any], key: str, count: int) -> int:
    """action[key] as a whole number 0 to count - 1: what gymnasium's Discrete(count) holds (a
    Python int, a NumPy integer, a 0-d array of one); a ValueError otherwise."""
    value = action[key]
    if isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.integer):
        value = value.item()
    if not isinstance(value, int | np.integer):
        raise ValueError(f"action[{key!r}] must be a whole number 0 to {count - 1}, not {value!r}")
    if not 0 <= int(value) < count:
        raise ValueError(f"action[{key!r}] must be 0 to {count - 1}, not {int(value)}")
    return int(value)


class BanduStackEnv(gymnasium.Env[dict[str, Any], dict[str, Any]]):
    """Bandu's solo game: place the reserve's pieces one by one on a base without the tower
    falling. One step is one placement, judged by the game's physics referee.

    Arguments (keywords only):
      reserve      how many building pieces the reserve holds, 1 to 48 (None: all 48). Fewer
                   are drawn at random from the 48 at the start of the game (the rules' chance
                   moves, drawn from the episode's seed).
      tremor       the releasing hand: None an exact release; "hand" the human hand, Bandu's
                   preset HAND_TREMOR (1 mm, 1 degree: see the module's constant); or a Tremor
                   (towers/physics/tremor.py) as given. The game's referee shakes every release
                   with it, seeded from the episode's seed and the move's number.
      render_mode  None, or "ansi": render() returns a short text of the tower.

    Action space, a Dict:
      "piece"  Discrete(48): which of the pieces still in the reserve to take: the number k
               takes the (k mod n)-th of the n pieces left, counted in the order the
               observation's "reserve" lists them (BUILDING_PIECES order), i.e.
               np.flatnonzero(obs["reserve"])[k % n]. Every value is a valid move.
      "face"   Discrete(F), F = max_face_count() (226, the ball's): which resting face the
               piece is released resting on, counted in placement.resting_faces' order (most
               stable first), modulo the number of faces the piece has (face_count(piece):
               6 for a cube, 2 for the ring).
      "pose"   Box(3,) float32: x_mm and y_mm, where the piece's centre of mass is released
               relative to the tower's axis, each -150 to 150 (the rules' REACH_MM); yaw_deg,
               -180 to 180, a turn about the vertical after the face is put down (0: the face's
               orientation as resting_faces gives it).
      The piece is lowered until it first touches the tower, then let go (the rules' release).
      A value outside the space (a piece of 48, a face of F, x of 151 mm, a NaN, a missing key)
      is refused with a ValueError before the game sees it.

    Observation space, a Dict (fixed shapes, every bound finite):
      "reserve"       MultiBinary(48), int8: 1 where BUILDING_PIECES[i] is still in the reserve.
      "tower_pieces"  MultiDiscrete(49 x 50), int8: the tower's pieces in the order they were
                      placed, the base first: 0 an empty slot, 1 the base, 2 + i
                      BUILDING_PIECES[i]. After a fall it still lists the piece that fell.
      "tower_poses"   Box(49, 7) float32: for each slot of "tower_pieces", the piece's settled
                      pose as the referee recorded it: x, y (mm, from the tower's axis), z (mm
                      above the table's top) of its centre of mass, and its quaternion x, y, z, w;
                      zeros for an empty slot. Before the first placement the base is given the
                      pose the referee stands it at (its most stable face down, centred on the
                      axis). After a fall, the poses where the tower's pieces came down (the
                      referee's aftermath). Bounds: x, y within +-ROOM_MM (10 m) and z from
                      FLOOR_MM (-1 m) to ROOM_MM, the bounds the rules accept for a pose
                      (rules.pose_problem); the quaternion's components within +-1.
      "height_mm"     Box(1,) float32, 0 to ROOM_MM: the height of the tower the score counts
                      (its highest point above the table, mm, as the records measure it:
                      attempts.tower_height_mm); after a fall, the tower as it stood before.

    Reward: the change in the game's solo score (the pieces standing, the base aside) made by
    the step: 1 when the placed piece stands, and 0 when the tower falls, for the rules keep
    the score of the last placement that did not fall. The rewards of an episode sum to the
    game's final score.

    Terminated: when the game is over, the tower fell or the reserve is empty. Never truncated.
    Info: plain values; reset's {"score", "fell", "reserve_left", "height_mm"}, step's the same
    and "placed" (the piece's id), "face" (the resting face used, after the modulo) and "place"
    (the placement in the game's notation, as its history records it).

    Determinism: reset(seed=...) decides the game's seed, from which the referee's tremor and a
    small reserve's draw come; the same seed and the same actions give the same observations.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(self, *, reserve: int | None = None, tremor: str | Tremor | None = None,
                 render_mode: str | None = None) -> None:
        if reserve is not None and (not isinstance(reserve, int) or isinstance(reserve, bool)
                                    or not 1 <= reserve <= PIECES):
            raise ValueError(f"reserve must be 1 to {PIECES} pieces (None: all), not {reserve!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.reserve_size = PIECES if reserve is None else reserve
        self.tremor = tremor_named(tremor)
        self.render_mode = render_mode
        self.faces = max_face_count()
        self.pose_space = spaces.Box(low=np.array([-REACH_MM, -REACH_MM, -180.0], dtype=np.float32),
                                     high=np.array([REACH_MM, REACH_MM, 180.0], dtype=np.float32),
                                     shape=(3,), dtype=np.float32)
        self.action_space = spaces.Dict({"piece": spaces.Discrete(PIECES),
                                         "face": spaces.Discrete(self.faces),
                                         "pose": self.pose_space})
        low = np.tile(np.array([-ROOM_MM, -ROOM_MM, FLOOR_MM, -1, -1, -1, -1], dtype=np.float32),
                      (SLOTS, 1))
        high = np.tile(np.array([ROOM_MM, ROOM_MM, ROOM_MM, 1, 1, 1, 1], dtype=np.float32), (SLOTS, 1))
        self.poses_space = spaces.Box(low=low, high=high, shape=(SLOTS, 7), dtype=np.float32)
        self.observation_space = spaces.Dict({
            "reserve": spaces.MultiBinary(PIECES),
            "tower_pieces": spaces.MultiDiscrete(np.full(SLOTS, CODES), dtype=np.int8),
            "tower_poses": self.poses_space,
            "height_mm": spaces.Box(low=0.0, high=ROOM_MM, shape=(1,), dtype=np.float32),
        })
        self._controller: TurnController | None = None

    # --- the game -------------------------------------------------------------------------------
    @property
    def controller(self) -> TurnController:
        """The game being played, for inspection (its state, its history in the game's
        notation, a record of it: attempts.attempt_of); moves go through step() only."""
        if self._controller is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._controller

    @property
    def state(self) -> BanduState:
        """The game's state now (the controller's own: read it, do not change it)."""
        state = self.controller.state
        assert isinstance(state, BanduState)
        return state

    def available(self) -> list[str]:
        """The pieces still in the reserve, in the order the action's "piece" counts them."""
        reserve = set(self.state.reserve)
        return [piece for piece in BUILDING_PIECES if piece in reserve]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new solo game. `seed` seeds the environment's generator, which draws the game's
        seed; `options` takes nothing (an empty dict, or None)."""
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset takes no options, not {sorted(options)}")
        self._close_game()
        referee = PhysicsReferee(tremor=self.tremor)
        # the game's own resolver, with this referee (games/bandu/referee.py, physics_resolver)
        resolver = ThreadResolver(referee.resolve, close=referee.close)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._controller = TurnController(GAME, {"variant": "solo", "reserve": self.reserve_size},
                                          [Seat()], seed=game_seed, resolver=resolver)
        self._controller.play_computer_moves()       # a small reserve's draw (chance moves)
        return self._observation(), self._info()

    def step(self, action: dict[str, Any]
             ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Take a piece from the reserve, release it on the tower as `action` says, and let the
        referee settle it. Raises ValueError for an action outside the action space and
        RuntimeError before reset() or after the episode ended."""
        if self._controller is None:
            raise RuntimeError("call reset() before step()")
        if self.state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        piece_number, face, (x_mm, y_mm, yaw_deg) = self.checked(action)
        pieces = self.available()
        piece = pieces[piece_number % len(pieces)]
        place = place_on_face(piece, face, x_mm, y_mm, yaw_deg)
        score = self.state.score_pieces[0]
        controller = self._controller
        controller.submit(Offer(piece, TAKE))
        controller.submit(place)
        controller.play_computer_moves()             # the referee's verdict (an outcome node)
        if controller.current_player() not in (0, TERMINAL):
            raise RuntimeError(f"the game waits on {controller.current_player()} after a placement")
        state = self.state
        reward = float(state.score_pieces[0] - score)
        info = self._info()
        info.update(placed=piece, face=face % face_count(piece), place=state.action_to_str(place))
        return self._observation(), reward, state.is_terminal(), False, info

    def checked(self, action: Mapping[str, Any]) -> tuple[int, int, tuple[float, float, float]]:
        """`action` as (piece number, face number, (x_mm, y_mm, yaw_deg)); a ValueError says
        how it leaves the action space."""
        if not isinstance(action, Mapping):
            raise ValueError(f"an action is a dict with 'piece', 'face' and 'pose', not "
                             f"{type(action).__name__}")
        if set(action) != {"piece", "face", "pose"}:
            raise ValueError(f"an action has the keys 'face', 'piece' and 'pose', not "
                             f"{sorted(map(str, action))}")
        piece = _whole(action, "piece", PIECES)
        face = _whole(action, "face", self.faces)
        try:
            pose = np.asarray(action["pose"], dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"action['pose'] must be three numbers, not {action['pose']!r}") from None
        if pose.shape != (3,) or not np.all(np.isfinite(pose)):
            raise ValueError(f"action['pose'] must be three finite numbers x_mm, y_mm, yaw_deg, "
                             f"not {action['pose']!r}")
        if np.any(pose < self.pose_space.low) or np.any(pose > self.pose_space.high):
            raise ValueError(f"action['pose'] {pose.tolist()} is outside x, y -{REACH_MM:g} to "
                             f"{REACH_MM:g} mm, yaw -180 to 180 degrees")
        x_mm, y_mm, yaw_deg = (float(v) for v in pose)
        return piece, face, (x_mm, y_mm, yaw_deg)

    # --- what the agent sees -----------------------------------------------------------------------
    def _observation(self) -> dict[str, np.ndarray]:
        state = self.state
        reserve = np.zeros(PIECES, dtype=np.int8)
        for piece in state.reserve:
            reserve[INDEX[piece]] = 1
        codes = np.zeros(SLOTS, dtype=np.int8)
        poses = np.zeros((SLOTS, 7), dtype=np.float32)
        axis_x, axis_y = (1000.0 * v for v in tower_axes(state.players)[0])
        for slot, piece in enumerate(state.towers[0]):
            codes[slot] = BASE_CODE if piece == base_id(0) else 2 + INDEX[piece]
            pose = state.came_down.get(piece) or state.poses.get(piece)
            if pose is None:                         # the base before the first placement
                poses[slot] = resting_pose(piece)
                continue
            x, y, z, *quaternion = pose
            poses[slot] = (x - axis_x, y - axis_y, z, *quaternion)
        # the rules accept only poses within these bounds (rules.pose_problem): a guard
        np.clip(poses, self.poses_space.low, self.poses_space.high, out=poses)
        height = np.array([min(max(tower_height_mm(state), 0.0), ROOM_MM)], dtype=np.float32)
        return {"reserve": reserve, "tower_pieces": codes, "tower_poses": poses, "height_mm": height}

    def _info(self) -> dict[str, Any]:
        state = self.state
        return {"score": state.score_pieces[0], "fell": not state.alive[0],
                "reserve_left": len(state.reserve), "height_mm": tower_height_mm(state)}

    def render(self) -> str | None:
        """With render_mode "ansi", the tower as text (the top piece first); None without one."""
        if self.render_mode is None:
            return None
        if self._controller is None:
            return "Bandu solo: no game yet (reset() starts one)\n"
        state = self.state
        fell = not state.alive[0]
        lines = [f"Bandu solo: score {state.score_pieces[0]}, {len(state.reserve)} in the "
                 f"reserve, {tower_height_mm(state):.1f} mm high" + (", the tower fell" if fell else "")]
        observation = self._observation()
        for slot in range(len(state.towers[0]) - 1, -1, -1):
            x, y, z = observation["tower_poses"][slot][:3]
            lines.append(f"  {slot:2d} {state.towers[0][slot]:<16} x {x:7.1f}  y {y:7.1f}  z {z:7.1f} mm")
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        """Free the physics (the referee's world and the game's controller)."""
        self._close_game()
        super().close()

    def _close_game(self) -> None:
        if self._controller is not None:
            self._controller.close()
            self._controller = None


@cache
def resting_pose(piece: str) -> tuple[float, ...]:
    """Where the referee stands a piece of no recorded pose (the base before the first
    placement, referee.rebuild_tower): on its most stable face, its centre of mass on the
    tower's axis (x, y from the axis and z above the table, mm; its quaternion)."""
    faces = resting_faces(piece)
    height_mm = 1000.0 * faces[0].com_height_m if faces else 0.0
    return (0.0, 0.0, height_mm, *most_stable_orientation(piece))
