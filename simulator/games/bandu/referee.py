"""Bandu's physics referee: PyBullet decides whether a placement (or a removal) stands.

One World holds every player's tower on one table at realistic spacing (towers 30 cm apart, in
one row for up to four players and two facing rows beyond), so a falling tower can really strike
a neighbour's. For each outcome node the referee:

- builds its world from the state it is given (pieces, and the settled poses recorded in the
  state after every placement), anew for every outcome, so that the physics depends on the
  game's state alone (a loaded game, an undo, a game played in one sitting: the same);
- releases the piece as the Place action says: its centre over the tower's axis plus (x, y),
  turned by roll, pitch and yaw, lowered until it touches, and settles everything until at rest,
  a fall, or `settle_seconds`; a tower at rest only on an unstable point is nudged and settled
  again (it falls, as it would at a real table); a challenge foundation is put on the bare table;
- judges every tower by the game's rule (a piece but the foundation on the table or the floor, or
  the foundation off the table), puts the towers knocked over by another's fall back as they
  stood before the placement (the rule book's rebuild), takes a fallen player's pieces off the
  table, and answers `Settled(fallen seats, settled poses)`.

Given a Timeline (the window's live resolver), it also publishes what the table looks like 60
times a simulated second, from the release to the verdict, and after a fall goes on simulating
the collapse for `AFTERMATH_SECONDS` to show it, on a snapshot it then discards, so the verdict
and the settled poses are those of headless play.

It imports physics, never pyglet; rules.py never imports it. A World cannot cross a process
boundary: each process (a self-play worker) makes its own referee.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Collection
from functools import cache, partial
from importlib.metadata import version

import numpy as np

from simulator.core.outcomes import LiveProcessResolver, ThreadResolver, Timeline
from simulator.core.state import GameState
from simulator.games.bandu.rules import BanduState, Place, Pose, Settled
from simulator.towers.physics.placement import (
    RELEASE_GAP_M,
    most_stable_orientation,
    place_on_table,
)
from simulator.towers.physics.scene_file import DEFAULT_SETTLE_SECONDS
from simulator.towers.physics.stability import (
    NUDGE_M_S,
    NUDGE_RAD_S,
    NUDGE_SECONDS,
    balances_unstably,
    tower_fallen,
)
from simulator.towers.physics.tremor import NO_TREMOR, Tremor
from simulator.towers.physics.world import GRAVITY as GRAVITY_M_S2
from simulator.towers.physics.world import PhysicsSettings, Quat, World, pybullet

SPACING_M = 0.30        # between neighbouring towers
FRAME_SECONDS = 1 / 60  # between the frames published for a view
AFTERMATH_SECONDS = 1.5  # a collapse shown on after the verdict
REBUILD_SETTLE_SECONDS = 0.2  # a world built from recorded poses settles its contacts

# piece -> x y z m, quaternion, and the contact impulse it took since the last frame (N s: the
# change of its momentum that gravity does not explain; the table's sound is made from it)
Frame = dict[str, tuple[float, float, float, float, float, float, float, float]]
IMPACT_MIN_M_S = 0.08     # speed a contact takes from a piece between frames for a knock
ROW_OFFSET_M = 0.22     # two facing rows beyond four players


def tower_axes(players: int) -> list[tuple[float, float]]:
    """Where each seat's tower stands on the table (metres, table frame)."""
    if players <= 4:
        return [((s - (players - 1) / 2) * SPACING_M, 0.0) for s in range(players)]
    front = (players + 1) // 2
    axes = [((s - (front - 1) / 2) * SPACING_M, -ROW_OFFSET_M) for s in range(front)]
    back = players - front          # the far row, seats going on round the table
    axes += [(((back - 1) / 2 - s) * SPACING_M, ROW_OFFSET_M) for s in range(back)]
    return axes


def release_over(world: World, piece: str, xy: tuple[float, float], orientation: Quat,
                 tower: list[int]) -> int:
    """Hold the piece above the tower's bodies, lower it until it first touches, release it
    (just clear). A tower of no bodies: the piece stands on the bare table."""
    if not tower:
        return place_on_table(world, piece, xy, orientation)
    body = world.add_piece(piece, (xy[0], xy[1], 1.0), orientation, clear_overlap=False)
    lower_onto(world, body, xy, orientation, tower)
    return body


def lower_onto(world: World, body: int, xy: tuple[float, float], orientation: Quat,
               tower: list[int]) -> None:
    """Hold `body` over the tower's bodies (over the bare table when there are none) and lower it
    straight down until it first touches: it ends just clear (RELEASE_GAP_M), at rest."""
    top = max((world.lowest_and_highest(b)[1] for b in tower), default=0.0)
    world.set_pose(body, (xy[0], xy[1], top + 0.3), orientation)
    lowest = world.lowest_and_highest(body)[0]
    position = world.pose(body)[0]
    world.set_pose(body, (xy[0], xy[1], position[2] - lowest + top + 0.02), orientation)
    drop = world.drop_height(body)
    position = world.pose(body)[0]
    world.set_pose(body, (position[0], position[1], position[2] - drop + RELEASE_GAP_M), orientation)


def standing_towers(state: BanduState) -> list[list[str]]:
    """Each seat's tower as the physics holds it: none for a seat that is out."""
    return [list(tower) if alive else [] for tower, alive in zip(state.towers, state.alive, strict=True)]


def rebuild_tower(world: World, pieces: list[str], poses: dict[str, list[float]],
                  axis: tuple[float, float]) -> list[int]:
    """A seat's tower in `world`: each piece at its recorded settled pose (mm, quaternion), or,
    without one (a game resolved by the rules' model), stacked on the axis by the default face."""
    bodies: list[int] = []
    for piece in pieces:
        pose = poses.get(piece)
        if pose is not None:
            x, y, z, qx, qy, qz, qw = pose
            body = world.add_piece(piece, (x / 1000, y / 1000, z / 1000), (qx, qy, qz, qw),
                                   clear_overlap=False)
        else:
            body = release_over(world, piece, axis, most_stable_orientation(piece), bodies)
        bodies.append(body)
    return bodies


def build_world(state: BanduState, settings: PhysicsSettings | None = None
                ) -> tuple[World, dict[str, int], list[list[str]]]:
    """A world of the towers as the state records them, each piece at its recorded settled
    pose, settled REBUILD_SETTLE_SECONDS: (world, piece -> body, each seat's tower). The
    referee judges every outcome in such a world and the landing preview shows its ghost in
    one, so the ghost is where the referee will release the piece."""
    world = World(settings)
    bodies: dict[str, int] = {}
    towers = standing_towers(state)
    for tower, axis in zip(towers, tower_axes(state.players), strict=True):
        bodies.update(zip(tower, rebuild_tower(world, tower, state.poses, axis), strict=True))
    world.settle(REBUILD_SETTLE_SECONDS)
    return world, bodies, towers


def orientation_of(place: Place) -> Quat:
    turn = pybullet.getQuaternionFromEuler([math.radians(place.roll_deg), math.radians(place.pitch_deg),
                                            math.radians(place.yaw_deg)])
    # the piece's most stable face down first, then the player's turn about the table's axes
    return pybullet.multiplyTransforms((0, 0, 0), turn, (0, 0, 0), most_stable_orientation(place.piece))[1]


class PhysicsReferee:
    def __init__(self, settings: PhysicsSettings | None = None, tremor: Tremor = NO_TREMOR,
                 settle_seconds: float = DEFAULT_SETTLE_SECONDS) -> None:
        self.settings = settings or PhysicsSettings.chosen()
        self.tremor = tremor
        self.settle_seconds = settle_seconds
        self.world: World | None = None
        self.bodies: dict[str, int] = {}              # game piece id -> body
        self.towers: list[list[str]] = []             # what the world holds, per seat
        self.simulated_seconds = 0.0
        self._timeline: Timeline | None = None
        self._timeline_start = 0.0
        self._last_frame = -math.inf
        self._velocities: dict[str, tuple[float, float, float]] = {}   # at the last frame

    def close(self) -> None:
        if self.world is not None:
            self.world.close()
            self.world = None

    # --- the resolver's work ---------------------------------------------------------------------
    def resolve(self, state: GameState, rng: random.Random, timeline: Timeline | None = None) -> Settled:
        """The outcome of the node `state` is at (a ThreadResolver runs this off the UI thread);
        with a timeline, the frames of what happened are published on it as it is simulated."""
        assert isinstance(state, BanduState)
        request = state.outcome_request()
        self._sync(state)
        assert self.world is not None
        start = self.world.seconds
        self._timeline, self._timeline_start, self._last_frame = timeline, start, -math.inf
        self._velocities = {}
        if request["kind"] == "removal":
            outcome = self._removal(state, request["seat"], request["piece"])
        else:
            place = Place(request["piece"], request["x_mm"], request["y_mm"], request["yaw_deg"],
                          request["roll_deg"], request["pitch_deg"])
            outcome = self._placement(state, request["seat"], place, rng)
        self.simulated_seconds += self.world.seconds - start
        if timeline is not None:
            timeline.finished = True
        self._timeline = None
        return outcome

    # --- frames for a view ---------------------------------------------------------------------------
    def _record(self, force: bool = False) -> None:
        """Publish the table as it is now, at most once per FRAME_SECONDS (unless forced)."""
        world, timeline = self.world, self._timeline
        if timeline is None or world is None:
            return
        if not force and world.seconds - self._last_frame < FRAME_SECONDS - 1e-9:
            return
        elapsed = world.seconds - self._last_frame
        self._last_frame = world.seconds
        frame: Frame = {}
        for piece, body in self.bodies.items():
            position, orientation = world.pose(body)
            velocity = tuple(world.velocity(body))
            impulse = self._impulse(piece, world.mass(body), velocity, elapsed)
            self._velocities[piece] = velocity             # type: ignore[assignment]
            frame[piece] = (*position, *orientation, impulse)
        timeline.add(world.seconds - self._timeline_start, frame)

    def _impulse(self, piece: str, mass: float, velocity: tuple[float, ...], elapsed: float) -> float:
        """The contact impulse (N s) of a knock `piece` took since the last frame: its
        momentum's change beyond what gravity gave it, where the contact took IMPACT_MIN_M_S
        of its speed or more (a piece at rest is held up by what it rests on at every frame,
        and a piece sliding on slows gently: neither is a knock); else 0."""
        before = self._velocities.get(piece)
        if before is None or not math.isfinite(elapsed) or elapsed <= 0:
            return 0.0
        if math.hypot(*before) - math.hypot(*velocity) < IMPACT_MIN_M_S:
            return 0.0
        change = math.dist(velocity, (before[0], before[1], before[2] - GRAVITY_M_S2 * elapsed))
        return round(change * mass, 5)

    def _settle(self, seconds: float, seat: int | None, min_seconds: float | None = None) -> None:
        """Settle the world (until `seat`'s tower falls, when given), recording frames."""
        world = self.world
        assert world is not None
        if seat is None:
            world.settle(seconds, after_chunk=self._record, min_seconds=min_seconds)
        else:
            world.settle(seconds, stop_when=lambda: self._fallen(seat),
                         watch=[self.bodies[p] for p in self.towers[seat]], after_chunk=self._record,
                         min_seconds=min_seconds)
        self._record(force=True)

    def _settle_to_a_verdict(self, seat: int) -> None:
        """Settle `seat`'s tower; if it then stands only on an unstable point (a piece released
        exactly on a cone's apex: stability.balances_unstably), give it the nudge that tips it
        and settle again, as the least breath of air at a real table would."""
        self._settle(self.settle_seconds, seat)
        world = self.world
        assert world is not None
        bodies = [self.bodies[p] for p in self.towers[seat]]
        if not self._fallen(seat) and balances_unstably(world, bodies):
            world.nudge(bodies, NUDGE_RAD_S, NUDGE_M_S)   # as slow as rest: give it the time
            self._settle(self.settle_seconds, seat, min_seconds=NUDGE_SECONDS)

    def _aftermath(self, seat: int | None) -> dict[str, Pose]:
        """After a fall, the collapse simulated on (recorded for a view that watches) until the
        pieces lie still or AFTERMATH_SECONDS have passed: where the fallen `seat`'s pieces came
        down (None: no seat of its own fell, only the view is shown the collapse). The world is
        then put back, so a verdict never depends on whether someone watched."""
        world = self.world
        assert world is not None
        watched = self._timeline is not None
        if seat is None and not watched:
            return {}
        snapshot = world.save_state()
        world.settle(AFTERMATH_SECONDS, after_chunk=self._record if watched else None)
        came_down = ({pose[0]: pose for pose in self._poses() if pose[0] in self.towers[seat]}
                     if seat is not None else {})
        world.restore_state(snapshot)
        return came_down

    def _placement(self, state: BanduState, seat: int, place: Place, rng: random.Random) -> Settled:
        world = self.world
        assert world is not None
        before = {piece: world.pose(body) for piece, body in self.bodies.items()}
        axis = tower_axes(state.players)[seat]
        noise = np.random.default_rng(rng.getrandbits(64))
        xy, orientation = self.tremor.shake((axis[0] + place.x_mm / 1000, axis[1] + place.y_mm / 1000),
                                            orientation_of(place), noise)
        # on the tower; a challenge foundation on the bare table
        body = release_over(world, place.piece, xy, orientation, [self.bodies[p] for p in self.towers[seat]])
        self.bodies[place.piece] = body
        self.towers[seat].append(place.piece)
        self._record(force=True)
        self._settle_to_a_verdict(seat)
        if self._fallen(seat):
            self._settle(0.5, None)                   # let the fall reach the neighbours
        fallen = tuple(s for s in range(state.players) if self.towers[s] and self._fallen(s))
        came_down = self._aftermath(seat if seat in fallen else None) if fallen else {}
        for struck in fallen:
            if struck != seat:                        # rebuilt as it stood before the placement
                for piece in self.towers[struck]:
                    world.set_pose(self.bodies[piece], *before[piece])
        # a fallen tower's pieces where they came down (a solo game's replay draws them)
        poses = tuple(came_down.get(pose[0], pose) for pose in self._poses())
        if seat in fallen:
            self._take_off(seat)
        return Settled(fallen, poses)

    def _removal(self, state: BanduState, seat: int, piece: str) -> Settled:
        world = self.world
        assert world is not None
        world.remove(self.bodies.pop(piece))
        self.towers[seat].remove(piece)
        self._record(force=True)
        self._settle_to_a_verdict(seat)
        fallen = (seat,) if self._fallen(seat) else ()
        came_down = self._aftermath(seat) if fallen else {}
        poses = tuple(came_down.get(pose[0], pose) for pose in self._poses())
        if fallen:
            self._take_off(seat)
        return Settled(fallen, poses)

    def _fallen(self, seat: int) -> bool:
        assert self.world is not None
        return tower_fallen(self.world, [self.bodies[p] for p in self.towers[seat]])

    def _take_off(self, seat: int) -> None:
        """A player who is out: their pieces leave the table (back to the reserve, or the box)."""
        world = self.world
        assert world is not None
        for piece in self.towers[seat]:
            world.remove(self.bodies.pop(piece))
        self.towers[seat] = []

    def _poses(self) -> tuple[Pose, ...]:
        world = self.world
        assert world is not None
        poses = []
        for piece, body in sorted(self.bodies.items()):
            (x, y, z), (qx, qy, qz, qw) = world.pose(body)
            poses.append((piece, round(x * 1000, 2), round(y * 1000, 2), round(z * 1000, 2),
                          round(qx, 6), round(qy, 6), round(qz, 6), round(qw, 6)))
        return tuple(poses)

    # --- the world as the game records it ------------------------------------------------------
    def _sync(self, state: BanduState) -> None:
        """Build the world anew from what the state records: the towers, each piece at its
        recorded settled pose, settled briefly. Every outcome starts so, never from the world
        the last outcome left behind, so the physics is a function of the game's state alone: a
        game saved, loaded and played on comes out as the same game played in one sitting, and
        a save's check (check_replay) finds exactly what was played. A seat that is out has no
        tower on the table (a solo or chain game keeps its pieces for the score)."""
        self.close()
        self.world, self.bodies, self.towers = build_world(state, self.settings)


def physics_resolver(settle_seconds: float = DEFAULT_SETTLE_SECONDS,
                     live: bool = False) -> ThreadResolver | LiveProcessResolver:
    """The resolver Bandu's controller is given: a referee of its own, on a worker thread.
    `live` (the window): a referee in a process of its own (PyBullet holds Python's lock while
    it steps, which would stall drawing), the settling published frame by frame and played back
    in real time."""
    if live:
        return LiveProcessResolver(partial(referee_work, settle_seconds))
    referee = PhysicsReferee(settle_seconds=settle_seconds)
    return ThreadResolver(referee.resolve, close=referee.close)


def referee_work(settle_seconds: float = DEFAULT_SETTLE_SECONDS) -> Callable[..., Settled]:
    """A referee's resolve, made in the resolver's process (LiveProcessResolver)."""
    return PhysicsReferee(settle_seconds=settle_seconds).resolve


REFEREE_VERSION = 3   # how an outcome is worked out; 2: every outcome from a world built
# anew; 3: a tower balanced on an unstable point is nudged


@cache
def referee_stamp() -> str:
    """What decides a Bandu save's outcomes, in a few characters: PyBullet's version and a hash
    of the physics settings and of how the referee settles. A save records it (Game.
    referee_stamp); only a save made under the same stamp can be checked by replaying it."""
    recipe = repr((REFEREE_VERSION, PhysicsSettings.chosen(), DEFAULT_SETTLE_SECONDS,
                   REBUILD_SETTLE_SECONDS, AFTERMATH_SECONDS))
    return f"pybullet {version('pybullet')} {hashlib.sha256(recipe.encode()).hexdigest()[:12]}"


def check_replay(history: list[tuple[int, str]], start: BanduState, tolerance_mm: float = 0.5,
                 checked: Collection[int] | None = None,
                 progress: Callable[[int, int], object] | None = None) -> list[str]:
    """Replay a game's moves from its starting state `start` with a fresh referee, resolving
    every outcome again (or those at the history indices `checked`; the others are applied as
    recorded: another referee judged them), and compare with the outcomes recorded: the same
    towers fall and every standing piece's settled pose is within `tolerance_mm`. Each outcome
    is worked out from a world built anew from the state, so one can be checked alone.
    `progress(done, total)` hears of each outcome worked out again.
    Returns the differences, one line each (none: the save reproduces its towers)."""
    state = start.clone()
    referee = PhysicsReferee()
    problems: list[str] = []
    total = sum(text.startswith("result ") for _, text in history) if checked is None else len(checked)
    done = 0
    try:
        for number, (_, text) in enumerate(history, start=1):
            recorded = state.action_from_str(text)
            if isinstance(recorded, Settled) and (checked is None or number - 1 in checked):
                again = referee.resolve(state, random.Random(0))
                done += 1
                if progress is not None:
                    progress(done, total)
                if again.fallen != recorded.fallen:
                    problems.append(f"move {number}: towers {list(recorded.fallen)} fell in the save, "
                                    f"{list(again.fallen)} in the replay")
                mine = {p[0]: p[1:4] for p in again.poses}
                state.apply(recorded)
                # the standing towers' poses; where a fallen tower's pieces came down is chaos
                standing = {piece for tower in standing_towers(state) for piece in tower}
                for pose in recorded.poses:
                    if pose[0] not in standing:
                        continue
                    other = mine.get(pose[0])
                    if other is None or max(abs(a - b) for a, b in zip(pose[1:4], other, strict=True)) > tolerance_mm:
                        problems.append(f"move {number}: {pose[0]} settled elsewhere than saved")
                        break
                continue
            state.apply(recorded)
    finally:
        referee.close()
    return problems
