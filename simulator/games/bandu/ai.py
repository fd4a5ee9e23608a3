"""Bandu's computer players: they build with physics and bid with what the physics tells them.

A `TowerLab` (tower_lab.py) rebuilds one seat's tower in a private PyBullet world from the
settled poses the state records, and tries placements on it (a snapshot restored after each
trial), each released with a hand tremor so that only placements that survive small mistakes
score well. A decision's trials run two at a time on two streams of such labs, the second on a
helper process where the process may use two cores (trial_streams.py), asked for in rounds by
the placement search (placement_search.py); the game is the same either way.

- Placing: candidate poses (the piece's most stable resting faces, several yaws, small offsets,
  over the tower's axis, over its top piece and over the hollows of its top where a piece can
  hook in: holes, cups, grooves, notches) are each tried a few times, the plainest first; the
  one that stands most often wins (ties: the one that moved least); in an auction game, where
  every placement may put the player out, a pose that stood in all its trials is tried again
  (Level.confirm), and on a tower whose lower pieces the lab holds still, once more with
  every piece moving (Level.verify), before it is taken. The chosen pose is then
  released with the player's own tremor, so weaker players make human mistakes. In an auction
  game they first aim at the tower's shelves (flat spots where the piece lands clear of the
  rest, towers/physics/shelves.py), and a piece that leaves no platform also scores for the
  room it leaves the next piece, so it goes towards an end of the base.
- Judging a piece for a seat: its cost is the share of trials in which the seat's best quick
  placement fell (the easy player uses the rules' rough model instead of physics), plus what a
  pointed or rounded top will cost later, less what the top it covers costs now: placing a
  piece gains nothing, unless it mends a pointed top (a washer over a cone).
- Auctioneer: weighs every judged piece in every auction kind by who would end up with it. "To
  refuse": the odds that each seat takes it when everyone answers by the acceptance rule below,
  blurred and never certain (`_acceptance_chance`; a neighbour without beans must take
  anything: it gets the piece hardest for it), a rival's cost being the auctioneer's gain, its
  own its loss, plus the beans rivals pay; asked last, once the piece has gone round, the
  auctioneer takes it back (as it answers: a second round costs everyone a bean and brings it
  back again) unless it is hopeless, so it offers no piece that it would hate to get back;
  "to acquire": a piece that mends a rival is bid for, else it is the auctioneer's free.
  With an empty reserve it takes off the piece whose removal moves its tower least.
- The rough model (the easy player's whole judgement, everyone's first sort): the rules' fall
  chance, the top a piece leaves and covers, and the risk of resting it on a point (small for a
  washer over a cone, large for a fir tree on a doorknob).
- The lab holds a tall tower's lower pieces still (TowerLab's `moving`: the top LAB_MOVING of
  every column, column_tops), which makes trials quick; a placement about to be taken is
  released over the whole tower too, where held pieces sway and tip as they do under the
  referee.
- Answering: accepts in a refuse auction when the piece costs it little enough (the fewer beans
  left, the more it accepts; the strong player also counts the room the piece takes from the
  next one, Level.room_loss), or when the risk a refusal passes on is worth less than the beans
  of the war it starts (the others, answering by the same blurred rule on the rough model,
  would likely refuse it until it is this player's again); beans count only for a player still
  in, so a piece that surely drops the tower is refused while a bean is left. Bids
  in an acquire auction only for a piece that mends its tower, keeping a bean for refusals.

Strengths: `ai:easy`, `ai:medium`, `ai:strong` (LEVELS: their budgets and tremors).
It may use the physics package, never pyglet; a World is made in the process that thinks.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from simulator.core.cores import cores_here
from simulator.core.state import GameState
from simulator.games.bandu.builder import building_order, face_order
from simulator.games.bandu.placement_search import Found, PlacementSearch
from simulator.games.bandu.rules import (
    ACQUIRE,
    REFUSE,
    TAKE,
    BanduAction,
    BanduState,
    Offer,
    Place,
    Respond,
    tower_key,
    within_reach,
)
from simulator.games.bandu.tower_lab import ROOM_FULL_MM2, SAME_CENTRE_MM, TowerLab
from simulator.games.bandu.trial_streams import DecisionLabs, SeatLabs
from simulator.towers.physics.placement import most_stable_orientation, resting_faces
from simulator.towers.physics.tremor import Tremor
from simulator.towers.physics.world import Quat, pybullet
from simulator.towers.pieces.catalogue import kind

FLAT_TOP_MM2 = 1500.0           # a top face this large takes the next piece as well as any
TOP_WEIGHT = 0.5                # what a pointed or rounded top costs the rest of one's game
MENDS = -0.1                    # a piece whose cost is below this mends its placer's tower
# pieces whose underside has a hole, cup or groove that a pointed or rounded top fits into
POINT_CATCHERS = frozenset({"washer", "ring", "egg-cup", "arch", "channel", "cove"})
POINT_CATCHER_RISK = 0.1        # rough model: resting one of them on a point
POINT_PERCH_RISK = 0.7          # and any other piece (a fir tree on a doorknob)
BEAN_VALUE = 0.05               # a bean a rival pays, in fall chances: one refusal fewer later
OTHERS_CARELESS = 0.05          # the chance another player answers against one's model of it
TAKES_BACK = 0.9                # an auctioneer takes back a piece that went round unless it costs this
ACCEPT_SPREAD = 0.05            # fall chance: how sharp the others' acceptance rule is modelled
FLAT_ENOUGH = 0.5               # a piece whose top_flatness is below this leaves no platform: it
# keeps room beside itself for the next piece (a flat one is the next piece's platform)


@dataclass(frozen=True)
class Level:
    name: str
    faces: int                  # resting faces tried
    yaws: tuple[float, ...]     # degrees
    offsets_mm: tuple[tuple[float, float], ...]
    trials: int                 # per candidate placement
    judge_trials: int           # per piece when judging its difficulty (0: the rough model)
    pieces_judged: int          # how many reserve pieces the auctioneer judges with physics
    hand: Tremor                # the player's own release
    budget: int = 30            # physics trials per decision; then the best found so far is
    # taken (a count, not a clock: the same seed plays the same game on any machine)
    lab_hand: Tremor = Tremor(1.0, 1.0)    # the tremor trials are shaken with
    shortlist: int = 1          # building alone: the pieces of the plan tried with physics
    # in an auction game every placement may put the player out: a candidate that stood in all
    # its trials is tried until `confirm` trials in all before it is taken (one lucky trial
    # rated a doorknob that stands two times in three as sure), and a decision may spend
    # `auction_budget` trials
    confirm: int = 0
    # and, on a tower whose lower pieces the lab holds still (TowerLab's `moving`), then
    # released up to `verify` times more over the whole tower moving: held pieces neither
    # sway nor tip, and a pole stood on end atop a 17-piece tower stood 7 of 8 such trials,
    # 5 of 8 with every piece moving and none of 8 under the referee
    # (python -m benchmarks lab_columns, benchmarks/lab_cases/pole-on-a-tall-stack.json)
    verify: int = 0
    auction_budget: int = 0
    # and trials are shaken as the player's own hand will shake (None: lab_hand): at 1 mm an
    # ashlar over a doorknob and a hemisphere stood 9 times in 16, at the medium player's
    # 1.5 mm 3 times, as often as under the referee (3 in 16)
    auction_hand: Tremor | None = None
    # answering in an auction game: what losing all the room the tower has for the next piece
    # (shelves.room_mm2, up to ROOM_FULL_MM2) costs, in fall chances (0: room is not counted)
    room_loss: float = 0.0

    def budget_for(self, state: BanduState) -> int:
        return self.budget if state.built_alone else max(self.budget, self.auction_budget)

    def trial_hand(self, state: BanduState) -> Tremor:
        return self.lab_hand if state.built_alone or self.auction_hand is None else self.auction_hand


LEVELS = {
    "easy": Level("easy", 1, (0.0, 90.0), ((0.0, 0.0),), 1, 0, 0, Tremor(4.0, 4.0), budget=4),
    # medium: 12 trials a decision in auction games too, 2 pieces judged "to refuse", no release
    # over the whole tower: with more it missed its 2 s think-time target (the figures, with the
    # command that measures them: docs/MEASUREMENTS.md, "Bandu's computer players")
    "medium": Level("medium", 2, (0.0, 90.0), ((0.0, 0.0),), 1, 1, 2, Tremor(1.5, 1.5), budget=12,
                    shortlist=2, confirm=4, auction_hand=Tremor(1.5, 1.5)),
    "strong": Level("strong", 3, (0.0, 90.0, 45.0, 135.0), ((0.0, 0.0), (6.0, 0.0), (0.0, 6.0)),
                    2, 1, 5, Tremor(0.5, 0.5), budget=24, shortlist=4, confirm=6, auction_budget=36, verify=2,
                    room_loss=0.4),
}


def _turned(orientation: Quat, yaw_deg: float) -> Quat:
    """`orientation`, then a turn of `yaw_deg` about the vertical."""
    yaw_q = pybullet.getQuaternionFromEuler([0.0, 0.0, math.radians(yaw_deg)])
    return pybullet.multiplyTransforms((0, 0, 0), yaw_q, (0, 0, 0), orientation)[1]


def _placement_for(piece: str, face_orientation: Quat, yaw_deg: float, x: float, y: float) -> Place:
    """The Place action whose release orientation is `face_orientation` turned by `yaw_deg`: the
    referee turns the most stable face by (roll, pitch, yaw), so express the face that way. An
    aim beyond the rules' reach (the top piece's centre on a tower spread along its base) is
    released as near it as the reach allows."""
    wanted = _turned(face_orientation, yaw_deg)
    inverse = pybullet.invertTransform((0, 0, 0), most_stable_orientation(piece))[1]
    turn = pybullet.multiplyTransforms((0, 0, 0), wanted, (0, 0, 0), inverse)[1]
    roll, pitch, yaw = (round(math.degrees(a), 1) + 0.0 for a in pybullet.getEulerFromQuaternion(turn))
    return Place(piece, *within_reach(x, y), yaw, roll, pitch).rounded()


@cache
def top_flatness(piece: str) -> float:
    """0 (a point or a curve on top) .. 1 (a broad flat top) when the piece rests on its most
    stable face: the area of the face opposite that face, against FLAT_TOP_MM2."""
    faces = resting_faces(piece)
    if not faces:
        return 0.0
    down = np.array(faces[0].normal)
    opposite = [f.area_mm2 for f in faces if float(np.dot(np.array(f.normal), down)) < -0.99]
    return min(1.0, max(opposite, default=0.0) / FLAT_TOP_MM2)


def _accept_threshold(beans: int, refusals: int) -> float:
    """The risk a player takes on in a refuse auction rather than pay a bean: more with fewer
    beans left (they are kept for later refusals), and more once the piece has gone round
    (everyone pays for it, and it comes back)."""
    return 0.12 + 0.06 * max(0, 5 - beans) + 0.05 * refusals


def top_cost(state: BanduState, seat: int) -> float:
    """What the present top of a seat's tower costs it later: a pointed or rounded top piece
    (the highest recorded one) makes every next piece harder; a flat one costs nothing."""
    tower = state.towers[seat]
    if not tower:
        return 0.0
    top = max(tower, key=lambda p: (state.poses[p][2] if p in state.poses else -1.0, tower.index(p)))
    return TOP_WEIGHT * (1.0 - top_flatness(kind(top)))


def rough_cost(state: BanduState, seat: int, piece: str) -> float:
    """The rules' rough model of what placing `piece` costs `seat`: its fall chance, plus the
    top it leaves, less the top it covers (a piece that mends a pointed top can gain), plus
    the risk of resting it on a pointed or rounded top at all: small for a piece whose hollow
    underside takes the point (a washer over a cone), large for any other (a fir tree on a
    doorknob)."""
    covered = top_cost(state, seat) / TOP_WEIGHT           # 0 flat .. 1 a point
    perch = POINT_CATCHER_RISK if kind(piece) in POINT_CATCHERS else POINT_PERCH_RISK
    return (state.fall_chance(seat, piece) + TOP_WEIGHT * (1.0 - top_flatness(piece))
            - top_cost(state, seat) + perch * covered)


def _acceptance_chance(cost: float, beans: int, refusals: int) -> float:
    """The chance that another player takes a piece of this cost in a refuse auction: the
    acceptance rule, blurred (a cost near the threshold is a coin toss), and never certain
    either way: nobody plays by one's model of them (a random player takes half of what it is
    offered)."""
    margin = (_accept_threshold(beans, refusals) - cost) / ACCEPT_SPREAD
    sure = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, margin))))
    return OTHERS_CARELESS + (1.0 - 2.0 * OTHERS_CARELESS) * sure


def _refusal_prospect(state: BanduState, me: int, my_risk: float) -> tuple[float, float]:
    """If `me` refuses the piece of a refuse auction now: the chance that it ends with `me`
    all the same, and the beans `me` pays on average until someone takes it (this refusal and
    those of later rounds). The others take it by `_acceptance_chance` on the rules' rough
    model; `me`, asked again once the piece has gone round, by the acceptance rule on
    `my_risk`; a player with no bean left takes it."""
    assert state.auction is not None
    piece, now = state.auction.piece, state.auction.refusals

    def chance(seat: int, beans: int, refusals: int) -> float:
        if seat == me:
            return 1.0 if refusals > now and my_risk <= _accept_threshold(beans, refusals) else 0.0
        return _acceptance_chance(rough_cost(state, seat, piece), beans, refusals)

    takes, paid = state.refusal_odds(me, chance)
    return takes[me], paid[me]


def _wrapped(degrees: float) -> float:
    """The same turn within -180 .. 180 degrees (a Place's range)."""
    return (degrees + 180.0) % 360.0 - 180.0


class BanduAgent:
    """A computer player at one level (see LEVELS)."""

    def __init__(self, level: Level, trial_workers: int | None = None) -> None:
        """`trial_workers`: the processes a decision's trials may run on (trial_streams.py; None:
        as many as the streams and this process's cores allow, core/cores.cores_here). The game
        is the same for any number."""
        self.level = level
        self.trial_workers = trial_workers
        self.decision_seconds: list[float] = []
        self.trials_left = level.budget
        self._planned: dict[tuple, Place] = {}      # placements found while choosing a piece
        self._judged: dict[tuple, Place] = {}       # the best placement found judging a piece

    def choose(self, state: GameState, rng: random.Random) -> BanduAction:
        assert isinstance(state, BanduState)
        started = time.perf_counter()
        self.trials_left = self.level.budget_for(state)
        noise = np.random.default_rng(rng.getrandbits(64))
        try:
            if state.phase == "place":
                return self._place(state, noise)
            self._judged = {}                           # a new question: earlier finds are stale
            if state.phase == "offer":
                return self._offer(state, noise)
            if state.phase in (REFUSE, ACQUIRE):
                return self._respond(state, noise)
            return state.legal_actions()[0]
        finally:
            self.decision_seconds.append(time.perf_counter() - started)

    # --- placing ---------------------------------------------------------------------------------
    def candidates(self, piece: str, aims_mm: list[tuple[float, float]] | None = None,
                   face_indexes: list[int] | None = None,
                   shelves: Callable[[Quat], list[tuple[float, float]]] | None = None) -> list[Place]:
        """Aim points x resting faces x yaws x offsets, the plainest first: every aim point and
        face without a turn or an offset before the turns and offsets (the fine tuning), each
        group in order of how far its choices are from the first (the axis, the most stable
        face), so that a small budget tries every hollow before it tunes one spot. `shelves`
        puts first, before the aim points, where the piece turned to each orientation lands
        flat and clear of the rest (TowerLab.shelf_aims_mm)."""
        level = self.level
        every = resting_faces(piece)
        order = face_indexes if face_indexes is not None else list(range(len(every)))
        orientations = [every[i].orientation for i in order[:level.faces]] or [most_stable_orientation(piece)]
        common = aims_mm or [(0.0, 0.0)]
        aims: dict[tuple[int, int], list[tuple[float, float]]] = {}
        for face, orientation in enumerate(orientations):
            for turn, yaw in enumerate(level.yaws):
                found = shelves(_turned(orientation, yaw)) if shelves is not None else []
                points: list[tuple[float, float]] = []
                for point in found + common:
                    if all(math.dist(point, other) > SAME_CENTRE_MM for other in points):
                        points.append(point)
                aims[face, turn] = points
        choices = sorted(((turn + offset, aim + face), (aim, face, turn, offset))
                         for face in range(len(orientations)) for turn in range(len(level.yaws))
                         for aim in range(len(aims[face, turn])) for offset in range(len(level.offsets_mm)))
        places = []
        for _, (aim, face, turn, offset) in choices:
            (cx, cy), (dx, dy) = aims[face, turn][aim], level.offsets_mm[offset]
            places.append(_placement_for(piece, orientations[face], level.yaws[turn], cx + dx, cy + dy))
        return places

    def best_placement(self, labs: SeatLabs, piece: str, trials: int, noise: np.random.Generator,
                       face_indexes: list[int] | None = None, shelves: bool = False,
                       keep_room: bool = False, confirm: int = 0, hand: Tremor | None = None,
                       first: Place | None = None, verify: int = 0) -> Found:
        """The candidate that stood most often (ties: moved least), its stand rate and (with
        `keep_room`) the room it left: a PlacementSearch (placement_search.py) on `labs`.
        `shelves`: first aim where the piece lands flat and clear of the rest, on the top or on a
        lower shelf beside it, before the axis, the top piece and the hollows (a tower of an
        auction game takes pieces in no order of its own: a block lowered on the axis over a
        jack at the base's end would perch on it). `keep_room` (for a piece that leaves no
        platform): a candidate also scores for the room it leaves the next piece, so a cone
        goes towards the end of the base rather than its middle. `confirm`: a candidate that
        stood in all its trials is tried again, up to `confirm` trials in all or its first fall.
        `hand`: the tremor the trials are shaken with (None: the level's lab_hand). `first`: a
        placement tried before the candidates (the one found when the piece was judged).
        `verify`: where `labs` hold some pieces still, a candidate that stood in all its
        `confirm` trials is released up to `verify` times more over the whole tower moving."""
        turned = (lambda orientation: labs.shelf_aims_mm(piece, orientation)) if shelves else None
        places = ([first] if first is not None else []) + self.candidates(piece, labs.aim_points_mm(),
                                                                          face_indexes, turned)
        search = PlacementSearch(places, trials, hand or self.level.lab_hand, self.trials_left,
                                 int(noise.integers(2**63)), confirm=confirm,
                                 verify=verify if labs.holds_still else 0, room=keep_room)
        found, self.trials_left = search.run(labs)
        return found

    def _labs(self, state: BanduState) -> DecisionLabs:
        """The labs of one decision (trial_streams.py), on this player's trial workers."""
        workers = self.trial_workers if self.trial_workers is not None else cores_here()
        return DecisionLabs(state, workers)

    def planned_place(self, state: BanduState, noise: np.random.Generator) -> Place:
        """The placement this player finds best for the piece `state` awaits, before its own
        hand's tremor (the window's hint shows it)."""
        assert state.auction is not None
        piece = state.auction.piece
        if not state.towers[state.placer]:          # a challenge foundation: flat on the table
            return Place(piece)
        planned = self._planned.pop(self._plan_key(state, piece), None)
        if planned is not None:
            return planned
        judged = self._judged.pop((piece, tower_key(state, state.placer)), None)
        # in an auction game the pieces come in no order of one's own: land flat beside the rest,
        # and keep room beside a piece that leaves no platform (a tower built alone is planned)
        auctioned = not state.built_alone
        with self._labs(state) as labs:
            return self.best_placement(labs.seat(state.placer), piece, self.level.trials, noise,
                                       self._faces(state, piece), shelves=auctioned,
                                       keep_room=auctioned and top_flatness(piece) < FLAT_ENOUGH,
                                       confirm=self.level.confirm if auctioned else 0,
                                       hand=self.level.trial_hand(state), first=judged,
                                       verify=self.level.verify).place

    def _place(self, state: BanduState, noise: np.random.Generator) -> Place:
        assert state.auction is not None
        piece = state.auction.piece
        if not state.towers[state.placer]:          # a challenge foundation: flat on the table
            return Place(piece)
        place = self.planned_place(state, noise)
        # the player's own hand: weaker players release less exactly
        hand = self.level.hand
        jitter = noise.normal(0.0, hand.position_mm, size=2) if hand.position_mm else (0.0, 0.0)
        turn = float(noise.normal(0.0, hand.angle_deg)) if hand.angle_deg else 0.0
        x_mm, y_mm = within_reach(place.x_mm + float(jitter[0]), place.y_mm + float(jitter[1]))
        return Place(piece, x_mm, y_mm, _wrapped(place.yaw_deg + turn), place.roll_deg, place.pitch_deg).rounded()

    # --- judging pieces ---------------------------------------------------------------------------
    def difficulty(self, state: BanduState, seat: int, piece: str, noise: np.random.Generator,
                   labs: DecisionLabs, confirm: int = 0) -> float:
        """What `piece` costs `seat`: the chance it drops the tower now, plus what it costs
        later (below 0: it mends the tower; 0 easy .. above 1 hopeless): see `judgement`."""
        fall, later = self.judgement(state, seat, piece, noise, labs, confirm)
        return fall + later

    def judgement(self, state: BanduState, seat: int, piece: str, noise: np.random.Generator,
                  labs: DecisionLabs, confirm: int = 0, room: bool = False) -> tuple[float, float]:
        """(fall, later) of `piece` for `seat`: the chance it drops the tower now, and what it
        costs later: what a pointed or rounded top will cost, less what the top it covers costs
        now. `confirm`: see best_placement (a player judging a piece it may have to place
        itself)."""
        later = TOP_WEIGHT * (1.0 - top_flatness(piece)) - top_cost(state, seat)
        if self.level.judge_trials == 0 or not state.towers[seat] or self.trials_left <= 0:
            return rough_cost(state, seat, piece) - later, later    # the rough model: quick
        quick = Level(self.level.name, 1, (0.0, 90.0), ((0.0, 0.0),), self.level.judge_trials, 0, 0,
                      self.level.hand)
        judge = BanduAgent(quick)
        judge.trials_left = self.trials_left
        room = room and self.level.room_loss > 0.0
        found = judge.best_placement(labs.seat(seat), piece, self.level.judge_trials, noise,
                                     shelves=not state.built_alone, confirm=confirm,
                                     hand=self.level.trial_hand(state), keep_room=room, verify=self.level.verify)
        self.trials_left = judge.trials_left
        self._judged[piece, tower_key(state, seat)] = found.place    # where placing it starts
        if room and found.rate > 0.0:
            before = min(1.0, labs.lab(seat).room_mm2() / ROOM_FULL_MM2)
            later += self.level.room_loss * max(0.0, before - min(1.0, found.room_mm2 / ROOM_FULL_MM2))
        return 1.0 - found.rate, later

    def _offer(self, state: BanduState, noise: np.random.Generator) -> Offer:
        me = state.auctioneer
        legal = state.legal_actions()
        if state.built_alone:
            return self._offer_to_build(state, [a.piece for a in legal if isinstance(a, Offer)], noise)
        if not state.reserve:
            return self._offer_from_tower(state, legal)
        alive = [s for s in range(state.players) if state.alive[s]]
        kinds = state.auction_kinds
        # the pieces worth judging with physics: those the rough model finds best "to refuse"
        # (hardest for whoever would end up with them) and the easiest for itself "to acquire"
        rough = {p: {seat: rough_cost(state, seat, p) for seat in alive} for p in state.reserve}
        by_refusal = sorted(state.reserve, key=lambda p: (-self._offer_value(state, p, REFUSE, rough[p]), p))
        by_ease = sorted(state.reserve, key=lambda p: (rough[p][me], p))
        judged = dict.fromkeys(by_refusal[:max(2, self.level.pieces_judged)] + by_ease[:2])
        with self._labs(state) as labs:
            costs = {p: {seat: self.difficulty(state, seat, p, noise, labs) for seat in alive} for p in judged}
        options = [(self._offer_value(state, p, auction, costs[p]), p, auction)
                   for p in judged for auction in kinds]
        _, piece, auction = max(options, key=lambda o: (o[0], o[2] == REFUSE, o[1]))
        return Offer(piece, auction)

    def _offer_value(self, state: BanduState, piece: str, auction: str, costs: dict[int, float]) -> float:
        """What offering `piece` in `auction` is worth to the auctioneer, given what the piece
        costs each seat (rough model or physics): who ends up with it decides. "To refuse": the
        seat that takes it when each answers by `_accept_threshold` (a neighbour without beans
        must take anything), its cost being the auctioneer's gain (its loss when the piece comes
        back to it), plus the beans the rivals pay on the way. "To acquire": a piece that mends
        a rival's tower is bid for and mends it; otherwise nobody bids and the auctioneer places
        it itself."""
        me = state.auctioneer
        if auction == REFUSE:
            def chance(seat: int, beans: int, refusals: int) -> float:
                if seat == me:          # asked once it has gone round: it takes it back
                    return 1.0 if costs[me] <= _accept_threshold(beans, refusals) or costs[me] < TAKES_BACK else 0.0
                return _acceptance_chance(costs[seat], beans, refusals)

            takes, paid = state.refusal_odds(state.left_of(me), chance)
            drained = BEAN_VALUE * (sum(paid) - 2 * paid[me])
            return drained + sum(odds * (-costs[me] if seat == me else costs[seat])
                                 for seat, odds in enumerate(takes) if odds > 0.0)
        rivals = [costs[seat] for seat in costs if seat != me and state.beans[seat] > 0]
        if rivals and min(rivals) < MENDS:
            return min(rivals) + BEAN_VALUE
        return -costs[me]

    # --- building a tower alone (solo, chain) ------------------------------------------------------
    def _faces(self, state: BanduState, piece: str) -> list[int] | None:
        """Which faces to try: in a tower built alone, the platform face first (the builder);
        in an auction game, the most stable first."""
        return face_order(piece) if state.built_alone else None

    @staticmethod
    def _plan_key(state: BanduState, piece: str) -> tuple:
        seat = state.placer if state.phase == "place" else state.auctioneer
        return (piece, tower_key(state, seat))

    def _offer_to_build(self, state: BanduState, pieces: list[str], noise: np.random.Generator) -> Offer:
        """Take the first piece of the builder's plan that stands: the first `shortlist` pieces
        of `building_order` are tried with physics, each at its best placement; the first whose
        placement stood in every trial is taken (else the one that stood most often, the plan's
        order breaking ties). The placement found is kept for the placing decision."""
        me = state.auctioneer
        tower = state.towers[me]
        top = max(tower, key=lambda p: state.poses[p][2] if p in state.poses else -1.0) if tower else None
        order = building_order(pieces, top)
        if len(order) == 1 or not tower:
            return Offer(order[0], TAKE)
        best: tuple[float, int, str, Place] | None = None
        with self._labs(state) as labs:
            for rank, piece in enumerate(order[:self.level.shortlist]):
                place, rate, _ = self.best_placement(labs.seat(me), piece, self.level.trials, noise, face_order(piece))
                if best is None or (rate, -rank) > (best[0], -best[1]):
                    best = (rate, rank, piece, place)
                if rate == 1.0 or self.trials_left <= 0:
                    break
        assert best is not None
        _, _, piece, place = best
        self._planned = {self._plan_key(state, piece): place}
        return Offer(piece, TAKE)

    def _offer_from_tower(self, state: BanduState, legal: list[BanduAction]) -> Offer:
        me = state.auctioneer
        takeable = state.takeable(me)
        lab = TowerLab(state, me)
        try:
            costs = {piece: lab.removal_moves(state.towers[me].index(piece)) for piece in takeable}
        finally:
            lab.close()
        piece = min(takeable, key=lambda p: (costs[p], p))
        kind = REFUSE if REFUSE in state.auction_kinds else ACQUIRE
        return Offer(piece, kind)

    def _respond(self, state: BanduState, noise: np.random.Generator) -> Respond:
        assert state.auction is not None
        me = state.auction.responder
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
            assert isinstance(action, Respond)
            return action
        with self._labs(state) as labs:
            fall, later = self.judgement(state, me, state.auction.piece, noise, labs, self.level.confirm,
                                         room=True)
        risk = fall + later
        beans = state.beans[me]
        if state.phase == REFUSE:
            threshold = _accept_threshold(beans, state.auction.refusals)
            if risk <= threshold:
                return Respond("accept")
            # refusing costs the beans of the whole war it starts (this refusal and those of
            # later rounds, while the others refuse too), and passes on only the risk that does
            # not come back. Beans matter only to a player still in, and each is worth
            # `threshold` of what is left, so no number of them costs more than a fall
            back, spent = _refusal_prospect(state, me, risk)
            fall = min(1.0, max(0.0, fall))
            beans_cost = 1.0 - (1.0 - threshold) ** spent
            refusing = back * risk + (1.0 - back * fall) * beans_cost
            return Respond("refuse") if refusing < risk else Respond("accept")
        # a piece is worth beans only when it mends the tower (placing one gains nothing else)
        bid = state.auction.high_bid + 1
        worth = math.floor(-risk * 10)
        if risk < MENDS and bid <= min(worth, beans - 1):
            return Respond("bid", bid)
        return Respond("pass")

