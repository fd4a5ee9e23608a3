"""Bandu's rules, pure: auctions, placements, eliminations, the empty reserve, every variant.

No physics and no window here. Whether a placement stands is an OUTCOME node: the physical
result (which towers fell, the settled poses) comes from the referee the controller is given
(games/bandu/referee.py runs PyBullet); tests and search use `sample_outcome`, the game's own
rough model. The rule book is docs/RULES-BANDU.md; the decisions taken where the published
rules are silent are marked there.

A turn: the auctioneer offers a piece (`Offer`) in an auction "to refuse" or "to acquire"; the
others answer (`Respond`: accept, refuse, bid, pass) until someone must place it (`Place`: the
piece, where over the tower's axis and how it is turned; it is lowered until it touches, then
released); the physics answers (`Settled`). Seats are numbered clockwise: a seat's left is the
next number. Chance (`Draw`) fills a small reserve at the start.

Pieces are named by catalogue id; bases are `base`, `base#2` ... `base#8` (one per seat in the
standard game).
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from simulator.core.action_fields import Between, OneOf
from simulator.core.errors import IllegalAction, SettingsError
from simulator.core.state import CHANCE, OUTCOME, TERMINAL, GameState
from simulator.core.text import shown

BUILDING_PIECES = (
    "ashlar-large", "ashlar-medium", "ashlar-small", "plank-long", "plank-short", "slab-square",
    "cube-large", "cube-small", "pole-long", "pole-short", "cylinder-wide", "cylinder-tall", "disc",
    "cone-tall", "cone-small", "pyramid-square", "pyramid-triangle", "wedge-ramp", "wedge-steep",
    "prism-triangle", "prism-hexagon", "arch", "cove", "l-block", "t-block", "cross-flat", "jack",
    "egg", "half-egg", "ball", "hemisphere", "ring", "washer", "egg-cup", "doorknob", "fir-tree",
    "spool", "star", "crescent", "column", "stairs", "roof-block", "channel", "barrel", "pin",
    "diamond", "half-cylinder", "zigzag")
ROUND_PIECES = frozenset({"egg", "ball", "half-egg", "hemisphere", "cone-tall", "cone-small",
                          "doorknob", "diamond", "pin", "fir-tree", "spool", "barrel", "jack"})
AUCTIONS = ("both", "acquire", "refuse")
VARIANTS = ("standard", "challenge", "solo", "chain")
MAX_PLAYERS = 8
MAX_BEANS = 10
REACH_MM = 150.0        # how far from the tower's axis a piece may be released
ACQUIRE, REFUSE, TAKE = "acquire", "refuse", "take"


def within_reach(x_mm: float, y_mm: float, margin_mm: float = 0.0) -> tuple[float, float]:
    """The release point nearest (x_mm, y_mm) that the rules allow: at most REACH_MM from the
    tower's axis each way (less `margin_mm`)."""
    limit = REACH_MM - margin_mm
    return (max(-limit, min(limit, x_mm)), max(-limit, min(limit, y_mm)))


def base_id(seat: int) -> str:
    return "base" if seat == 0 else f"base#{seat + 1}"


def reserve_pool(variant: str) -> tuple[str, ...]:
    """Every piece that can lie in the variant's reserve, sorted: the building pieces, and two
    bases in the challenge game (the other four leave it); none in the chain game, where each
    tower is built from the chain."""
    if variant == "chain":
        return ()
    extra = (base_id(0), base_id(1)) if variant == "challenge" else ()
    return tuple(sorted((*BUILDING_PIECES, *extra)))


# --- actions ----------------------------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class Draw:
    """Chance: a piece drawn into a small reserve."""
    piece: str


@dataclass(frozen=True, order=True)
class Offer:
    """The auctioneer puts `piece` up in an auction (`acquire` or `refuse`); solo and chain
    players `take` it."""
    piece: str
    auction: Annotated[str, OneOf(ACQUIRE, REFUSE, TAKE)]


@dataclass(frozen=True, order=True)
class Respond:
    """An answer in an auction: accept, refuse (pay 1 bean, pass it on), bid (amount), pass."""
    kind: Annotated[str, OneOf("accept", "refuse", "bid", "pass")]
    amount: Annotated[int, Between(0, MAX_PLAYERS * MAX_BEANS)] = 0


@dataclass(frozen=True, order=True)
class Place:
    """Release `piece` over the placer's tower: its centre of mass `x_mm`, `y_mm` from the
    tower's axis, turned by roll, pitch (about the table's x, y axes) then yaw (about z),
    lowered until it touches. Values are kept to 0.1 mm and 0.1 degree."""
    piece: str
    x_mm: Annotated[float, Between(-REACH_MM, REACH_MM)] = 0.0
    y_mm: Annotated[float, Between(-REACH_MM, REACH_MM)] = 0.0
    yaw_deg: Annotated[float, Between(-180, 180)] = 0.0
    roll_deg: Annotated[float, Between(-180, 180)] = 0.0
    pitch_deg: Annotated[float, Between(-180, 180)] = 0.0

    def rounded(self) -> Place:
        return Place(self.piece, *(round(v, 1) + 0.0 for v in (self.x_mm, self.y_mm, self.yaw_deg,
                                                                self.roll_deg, self.pitch_deg)))


Pose = tuple[str, float, float, float, float, float, float, float]   # id, x y z mm, quaternion
ROOM_MM = 10_000.0      # a settled pose lies within 10 m of the table's centre, the floor included
FLOOR_MM = -1_000.0     # and above this (the floor is 750 mm under the table's top)
UNIT_TOLERANCE = 1e-3   # |quaternion| of a recorded pose: 1 within this (poses keep 6 decimals)


def pose_problem(values: Any) -> str | None:
    """Why a recorded pose's seven numbers (x y z mm, quaternion) are none the physics could
    have settled a piece at, or None: each finite, x and y within ROOM_MM of the table's centre,
    z from FLOOR_MM to ROOM_MM, the quaternion a unit one within UNIT_TOLERANCE. A pose from a
    file is checked so before anything builds a world from it (a zero quaternion or a piece at
    1e19 mm would leave the physics lowering a piece forever)."""
    if not isinstance(values, list | tuple) or len(values) != 7 or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        return "a pose is seven finite numbers: x y z mm and a quaternion"
    x, y, z, *quaternion = values
    if max(abs(x), abs(y)) > ROOM_MM or not FLOOR_MM <= z <= ROOM_MM:
        return f"a piece at {x:.6g} {y:.6g} {z:.6g} mm is off the table and the floor around it"
    if abs(math.sqrt(sum(q * q for q in quaternion)) - 1) > UNIT_TOLERANCE:
        return "a pose's quaternion is not a unit one"
    return None


@dataclass(frozen=True, order=True)
class Settled:
    """Outcome: the seats whose towers fell, and every piece's settled pose (mm, quaternion)."""
    fallen: tuple[Annotated[int, Between(0, MAX_PLAYERS - 1)], ...] = ()
    poses: tuple[Pose, ...] = ()     # each checked by pose_problem before it is taken


BanduAction = Draw | Offer | Respond | Place | Settled


# --- state ----------------------------------------------------------------------------------------

@dataclass
class _Auction:
    piece: str
    kind: str                           # ACQUIRE, REFUSE or TAKE
    responder: int = -1                 # whose answer is awaited
    high_bid: int = 0
    high_bidder: int = -1
    passed: set[int] = field(default_factory=set)
    from_tower: bool = False            # taken off the auctioneer's tower (empty reserve)
    refusals: int = 0                   # beans paid so far to pass this piece on


class BanduState(GameState[BanduAction]):

    def __init__(self, players: int = 2, beans: int = 5, auctions: str = "both",
                 variant: str = "standard", reserve: int = 48, first: int = 0,
                 chain: tuple[str, ...] = ()) -> None:
        _check_settings(players, beans, auctions, variant, reserve, first, chain)
        self.players = players
        self.variant = variant
        self.auction_kinds: tuple[str, ...] = (ACQUIRE, REFUSE) if auctions == "both" else (auctions,)
        self.reserve_size = reserve
        self.beans = [0 if self.built_alone else beans] * players
        self.beans_dealt = sum(self.beans)
        self.beans_out = 0               # paid for refusals and won bids, or lost with a tower
        self.alive = [True] * players
        self.eliminated: list[int] = []
        self.towers: list[list[str]] = [[] if variant == "challenge" else [base_id(s)] for s in range(players)]
        self.last_placed: list[str | None] = [None] * players
        self.out: list[str] = []         # pieces and bases that left the game
        self.chain = tuple(chain)
        self.chain_next = [0] * players
        self.reserve: list[str] = []
        self.to_draw: list[str] = []     # pieces the reserve is drawn from (chance), until full
        pool = list(reserve_pool(variant))
        if variant == "challenge":       # 4 of the 6 bases leave the game, 2 join the reserve
            self.out += [base_id(s) for s in range(2, 6)]
        if reserve >= len(BUILDING_PIECES) or variant == "chain":
            self.reserve = pool
        else:
            self.to_draw = pool
        self.auctioneer = first
        self.phase = "draw" if self.to_draw else "offer"
        self.auction: _Auction | None = None
        self.placer = -1
        self.poses: dict[str, list[float]] = {}
        # solo and chain: where a fallen tower's pieces came down (its poses stay as they stood,
        # for the score and the height)
        self.came_down: dict[str, list[float]] = {}
        self.placements = 0
        self.rebuilds = 0
        self.score_pieces = [0] * players  # solo and chain: pieces standing (the score)
        self.tower_at_fall: dict[int, list[str]] = {}   # seat -> its tower when it fell
        if self.phase == "offer":
            self._start_turn()

    # --- whose turn ----------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.players

    def current_player(self) -> int:
        if self.phase == "draw":
            return CHANCE
        if self.phase in ("settle", "removal"):
            return OUTCOME
        if self.phase == "over":
            return TERMINAL
        if self.phase == "offer":
            return self.auctioneer
        if self.phase == "place":
            return self.placer
        assert self.auction is not None
        return self.auction.responder

    def _next_alive(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if self.alive[other]:
                return other
        return seat

    # --- the actions a seat may take ---------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[BanduAction, float]]:
        if self.phase != "draw":
            return []
        return [(Draw(p), 1 / len(self.to_draw)) for p in self.to_draw]

    def chain_piece(self, seat: int) -> str:
        """The next piece of `seat`'s chain: every seat has its own copy (ring, ring#2 ...)."""
        piece = self.chain[self.chain_next[seat]]
        return piece if seat == 0 else f"{piece}#{seat + 1}"

    def takeable(self, seat: int) -> list[str]:
        """With the reserve empty: the pieces `seat` may take off its tower (not the foundation,
        not the piece placed last)."""
        return sorted(p for p in self.towers[seat][1:] if p != self.last_placed[seat])

    def legal_actions(self) -> list[BanduAction]:
        phase = self.phase
        if phase == "offer":
            if self.variant == "chain":
                return [Offer(self.chain_piece(self.auctioneer), TAKE)]
            if self.variant == "solo":
                return [Offer(p, TAKE) for p in self.reserve]
            pieces = self.reserve or self.takeable(self.auctioneer)
            return sorted(Offer(p, kind) for p in pieces for kind in self.auction_kinds)
        if phase == "place":
            assert self.auction is not None
            piece = self.auction.piece
            return [Place(piece, 0.0, 0.0, 0.0), Place(piece, 0.0, 0.0, 90.0)]
        if phase in ("refuse", "acquire"):
            assert self.auction is not None
            seat = self.auction.responder
            answers: list[BanduAction] = []
            if phase == REFUSE:
                answers.append(Respond("accept"))
                if self.beans[seat] > 0:
                    answers.append(Respond("refuse"))
                return answers
            bid = self.auction.high_bid + 1
            if self.beans[seat] >= bid:
                answers.append(Respond("bid", bid))
            return [*answers, Respond("pass")]
        return []

    def is_legal(self, action: BanduAction) -> bool:
        if self.phase in ("place",) and isinstance(action, Place):
            return self._place_problem(action) is None
        return super().is_legal(action)

    def _place_problem(self, action: Place) -> str | None:
        assert self.auction is not None
        if action.piece != self.auction.piece:
            return f"the piece to place is {self.auction.piece}, not {shown(action.piece, 30)}"
        values = (action.x_mm, action.y_mm, action.yaw_deg, action.roll_deg, action.pitch_deg)
        if not all(isinstance(v, int | float) and v == v for v in values):
            return "a placement needs numbers"
        if max(abs(action.x_mm), abs(action.y_mm)) > REACH_MM:
            return f"release the piece over your tower: within {REACH_MM:g} mm of its axis"
        if max(abs(action.yaw_deg), abs(action.roll_deg), abs(action.pitch_deg)) > 180:
            return "angles are -180 to 180 degrees"
        return None

    def illegal_reason(self, action: BanduAction) -> str:
        if self.phase == "over":
            return "the game is over"
        if isinstance(action, Settled) and self.phase in ("settle", "removal") \
                and (problem := self._poses_problem(action)) is not None:
            return problem
        if self.phase == "place" and isinstance(action, Place):
            return self._place_problem(action) or "not now"
        seat = self.current_player()
        if isinstance(action, Respond) and self.phase == "acquire" and action.kind == "bid":
            assert self.auction is not None
            wanted = self.auction.high_bid + 1
            if action.amount != wanted:
                return f"a bid is exactly one more than the last: {wanted}"
            return f"a bid of {action.amount} is more than the {self.beans[seat]} beans held"
        if isinstance(action, Respond) and action.kind == "refuse" and self.phase == "refuse":
            return "with no beans left, the piece must be accepted"
        if isinstance(action, Offer) and self.phase == "offer":
            if action.auction not in self.auction_kinds and not self.built_alone:
                return f"this game plays only auctions to {' and to '.join(self.auction_kinds)}"
            if self.reserve:
                return f"{shown(action.piece, 30)} is not in the reserve"
            return (f"{shown(action.piece, 30)} cannot be taken off the tower (not the foundation, "
                    "not the piece placed last)")
        return f"{self.action_to_str(action)} is not a legal move now"

    # --- applying ----------------------------------------------------------------------------------
    def apply_unchecked(self, action: BanduAction) -> None:
        if isinstance(action, Draw):
            self._draw(action.piece)
        elif isinstance(action, Offer):
            self._offer(action)
        elif isinstance(action, Respond):
            self._respond(action)
        elif isinstance(action, Place):
            self.phase = "settle"
            self._pending_place = action.rounded()
        elif isinstance(action, Settled):
            if self.phase == "removal":
                self._removal_settled(action)
            else:
                self._placement_settled(action)

    def _draw(self, piece: str) -> None:
        self.to_draw.remove(piece)
        self.reserve.append(piece)
        self.reserve.sort()
        if len(self.reserve) >= self.reserve_size:
            self.out += self.to_draw        # what was not drawn leaves the game
            self.to_draw = []
            self.phase = "offer"
            self._start_turn()

    def _start_turn(self) -> None:
        """The auctioneer's turn begins: find one who can offer something, or end the game."""
        if self.built_alone:
            self._start_solo_turn()
            return
        if self.reserve:
            self.phase = "offer"
            return
        seat = self.auctioneer
        for _ in range(self.players):
            if self.alive[seat] and self.takeable(seat):
                self.auctioneer = seat
                self.phase = "offer"
                return
            seat = self._next_alive(seat)
        self.phase = "over"                 # Decision: nobody can offer anything: a tie

    def _start_solo_turn(self) -> None:
        if self.variant == "solo":
            self.phase = "offer" if self.reserve and self.alive[0] else "over"
            return
        seat = self.auctioneer            # chain: the next seat still building
        for _ in range(self.players):
            if self.alive[seat] and self.chain_next[seat] < len(self.chain):
                self.auctioneer = seat
                self.phase = "offer"
                return
            seat = (seat + 1) % self.players
        self.phase = "over"

    def _offer(self, action: Offer) -> None:
        seat = self.auctioneer
        if action.auction == TAKE:
            if self.variant == "solo":
                self.reserve.remove(action.piece)
            else:
                self.chain_next[seat] += 1
            self.auction = _Auction(action.piece, TAKE)
            self.placer = seat
            self.phase = "place"
            return
        from_tower = not self.reserve
        self.auction = _Auction(action.piece, action.auction, from_tower=from_tower)
        if from_tower:
            self.phase = "removal"          # does the tower stand without it? physics says
            return
        self.reserve.remove(action.piece)
        self._open_auction()

    def _open_auction(self) -> None:
        auction = self.auction
        assert auction is not None
        auction.responder = self._next_alive(self.auctioneer)
        self.phase = auction.kind
        if auction.kind == ACQUIRE:
            self._next_bidder(self.auctioneer)

    def _respond(self, action: Respond) -> None:
        auction = self.auction
        assert auction is not None
        seat = auction.responder
        if action.kind == "accept":
            self._hand_to(seat)
        elif action.kind == "refuse":
            self.beans[seat] -= 1
            self.beans_out += 1
            auction.refusals += 1
            auction.responder = self._next_alive(seat)
        elif action.kind == "bid":           # paid by the winner only, when the auction ends
            auction.high_bid, auction.high_bidder = action.amount, seat
            self._next_bidder(seat)
        else:                                # pass: out of this auction for good
            auction.passed.add(seat)
            self._next_bidder(seat)

    def _next_bidder(self, after: int) -> None:
        """Whose turn to bid after `after`; when nobody is left to ask, the auction ends."""
        auction = self.auction
        assert auction is not None
        seat = after
        for _ in range(self.players):
            seat = (seat + 1) % self.players
            if not self.alive[seat] or seat in auction.passed or seat == auction.high_bidder:
                continue
            if seat == self.auctioneer and auction.high_bid == 0:
                continue                     # the auctioneer never opens the bidding
            auction.responder = seat
            return
        if auction.high_bid == 0:
            self._hand_to(self.auctioneer)   # nobody bid: the auctioneer takes it, free
        else:
            self.beans[auction.high_bidder] -= auction.high_bid
            self.beans_out += auction.high_bid
            self._hand_to(auction.high_bidder)

    def _hand_to(self, seat: int) -> None:
        self.placer = seat
        self.phase = "place"

    def _placement_settled(self, outcome: Settled) -> None:
        place = self._pending_place
        seat = self.placer
        self.placements += 1
        self.towers[seat].append(place.piece)
        self.last_placed[seat] = place.piece
        self._record_poses(outcome, seat)
        others = [s for s in outcome.fallen if s != seat]
        self.rebuilds += len(others)         # knocked over by another's tower: rebuilt
        if seat in outcome.fallen:
            self._eliminate(seat)
        elif self.built_alone:
            self.score_pieces[seat] = len(self.towers[seat]) - 1       # standing, the base aside
        self.auction = None
        self.placer = -1
        if not self.built_alone and sum(self.alive) <= 1:
            self.phase = "over"
            return
        self.auctioneer = (self.auctioneer + 1) % self.players if self.built_alone \
            else self._next_alive(self.auctioneer)
        self._start_turn()

    def _removal_settled(self, outcome: Settled) -> None:
        auction = self.auction
        assert auction is not None
        seat = self.auctioneer
        self._record_poses(outcome, seat)
        self.towers[seat].remove(auction.piece)
        self.poses.pop(auction.piece, None)
        if seat in outcome.fallen:           # taking it off brought the tower down: out
            self.reserve.append(auction.piece)
            self.reserve.sort()
            self._eliminate(seat)
            self.auction = None
            if sum(self.alive) <= 1:
                self.phase = "over"
                return
            self.auctioneer = self._next_alive(seat)
            self._start_turn()
            return
        self._open_auction()

    def _eliminate(self, seat: int) -> None:
        """The seat's tower fell: it is out. Its pieces go back to the reserve; its foundation (the
        base, or in a challenge game the first piece it took) and its beans leave the game."""
        self.alive[seat] = False
        self.eliminated.append(seat)
        tower = self.towers[seat]
        self.tower_at_fall[seat] = list(tower)
        if self.built_alone:
            return                           # the score stays as it was before the fall
        keep_out = [tower[0]] if tower and self.variant in ("standard", "challenge") else []
        self.out += keep_out
        self.reserve += [p for p in tower if p not in keep_out]
        self.reserve.sort()
        self.towers[seat] = []
        self.beans_out += self.beans[seat]
        self.beans[seat] = 0
        for piece in tower:
            self.poses.pop(piece, None)
            self.came_down.pop(piece, None)

    def _record_poses(self, outcome: Settled, seat: int) -> None:
        """The settled poses; those of `seat`'s tower, when it just fell, go to `came_down`."""
        fallen_tower = self.towers[seat] if seat in outcome.fallen else []
        for pose in outcome.poses:
            where = self.came_down if pose[0] in fallen_tower else self.poses
            where[pose[0]] = [float(v) for v in pose[1:]]

    # --- outcome nodes -------------------------------------------------------------------------------
    def outcome_request(self) -> dict[str, Any]:
        if self.phase == "settle":
            p = self._pending_place
            return {"kind": "placement", "seat": self.placer, "piece": p.piece,
                    "x_mm": p.x_mm, "y_mm": p.y_mm, "yaw_deg": p.yaw_deg, "roll_deg": p.roll_deg,
                    "pitch_deg": p.pitch_deg, "foundation": not self.towers[self.placer]}
        if self.phase == "removal":
            assert self.auction is not None
            return {"kind": "removal", "seat": self.auctioneer, "piece": self.auction.piece}
        return {}

    def is_valid_outcome(self, action: BanduAction) -> bool:
        return (isinstance(action, Settled) and self.phase in ("settle", "removal")
                and all(isinstance(s, int) and 0 <= s < self.players for s in action.fallen)
                and self._poses_problem(action) is None)

    @staticmethod
    def _poses_problem(action: Settled) -> str | None:
        for pose in action.poses:
            if not isinstance(pose, tuple) or len(pose) != 8 or not isinstance(pose[0], str):
                return "a pose is a piece and seven numbers"
            if (problem := pose_problem(pose[1:])) is not None:
                return f"{shown(pose[0], 30)}: {problem}"
        return None

    def left_of(self, seat: int) -> int:
        """The next player still in the game, clockwise (to the left) of `seat`."""
        return self._next_alive(seat)

    def forced_taker(self, first: int | None = None,
                     accepts: Callable[[int, int, int], bool] | None = None) -> tuple[int, list[int]]:
        """A refuse auction's end if everyone refuses while they can: the seat that takes the
        piece (the first one asked with no bean left) and the beans each seat pays until then.
        `first`: the first seat asked (default: the one whose answer is awaited now).
        `accepts(seat, beans, refusals)`, when given, says which players take it on their own
        before then (beans: theirs when asked; refusals: paid for this piece so far)."""
        takes, paid = self.refusal_odds(
            first, None if accepts is None else lambda s, b, r: 1.0 if accepts(s, b, r) else 0.0)
        return takes.index(max(takes)), [round(p) for p in paid]

    def refusal_odds(self, first: int | None = None,
                     accept_chance: Callable[[int, int, int], float] | None = None
                     ) -> tuple[list[float], list[float]]:
        """A refuse auction's likely end when each player asked takes the piece with
        `accept_chance(seat, beans, refusals)` and otherwise refuses while it can (one with no
        bean left takes it): for every seat, the chance that it ends up with the piece, and the
        beans it pays on average. `first` as for `forced_taker`; without `accept_chance` nobody
        takes the piece before they must."""
        if first is None:
            assert self.auction is not None
            first = self.auction.responder
        beans = list(self.beans)
        takes, paid = [0.0] * self.players, [0.0] * self.players
        refusals = self.auction.refusals if self.auction is not None else 0
        going, seat = 1.0, first                  # the chance that nobody has taken it yet
        while going > 0.0:
            if beans[seat] == 0:
                chance = 1.0
            elif accept_chance is None:
                chance = 0.0
            else:
                chance = min(1.0, max(0.0, accept_chance(seat, beans[seat], refusals)))
            takes[seat] += going * chance
            going *= 1.0 - chance
            paid[seat] += going
            beans[seat] -= 1
            refusals += 1
            seat = self._next_alive(seat)
        return takes, paid

    @property
    def built_alone(self) -> bool:
        """Solo and chain: every tower is built by its own player from pieces taken, not won in
        auctions (no beans, and a chain game ends only when the chains do)."""
        return self.variant in ("solo", "chain")

    def fall_chance(self, seat: int, piece: str) -> float:
        """The rough model: a taller tower and a round piece fall more often."""
        height = len(self.towers[seat])
        return min(0.9, 0.02 + 0.025 * height + (0.12 if piece in ROUND_PIECES else 0.0))

    def sample_outcome(self, rng: random.Random) -> Settled:
        if self.phase == "removal":
            assert self.auction is not None
            chance = 0.05 + 0.02 * len(self.towers[self.auctioneer])
            return Settled((self.auctioneer,) if rng.random() < chance else ())
        place = self._pending_place
        if not self.towers[self.placer]:
            return Settled()                 # a challenge foundation on the bare table stands
        return Settled((self.placer,) if rng.random() < self.fall_chance(self.placer, place.piece) else ())

    # --- the end -------------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if self.phase != "over":
            return [0.0] * self.players
        if self.variant == "solo":
            return [self.score_pieces[0] / len(BUILDING_PIECES)]
        if self.variant == "chain":
            best = max(self.score_pieces)
            return [1.0 if s == best and best > 0 else -1.0 for s in self.score_pieces]
        standing = [s for s in range(self.players) if self.alive[s]]
        return [1.0 if s in standing else -1.0 for s in range(self.players)]

    def summary(self) -> str:
        if self.players == 1:
            return self.variant                        # a solo or one-player chain attempt
        count = f"{self.players} players"
        return count if self.variant == "standard" else f"{self.variant}, {count}"

    # --- copies and JSON ------------------------------------------------------------------------------
    def clone(self) -> BanduState:
        other = BanduState.__new__(BanduState)
        other.__dict__ = {k: (list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items()}
        other.towers = [list(t) for t in self.towers]
        other.poses = {k: list(v) for k, v in self.poses.items()}
        other.came_down = {k: list(v) for k, v in self.came_down.items()}
        other.tower_at_fall = {k: list(v) for k, v in self.tower_at_fall.items()}
        if self.auction is not None:
            a = self.auction
            other.auction = _Auction(a.piece, a.kind, a.responder, a.high_bid, a.high_bidder,
                                     set(a.passed), a.from_tower, a.refusals)
        return other

    def to_dict(self) -> dict[str, Any]:
        a = self.auction
        return copy.deepcopy({        # a snapshot: later moves must not change it (a save kept in
                                      # memory while the game goes on once stopped reopening)
            "game": "bandu", "players": self.players, "variant": self.variant,
            "auctions": list(self.auction_kinds), "reserve_size": self.reserve_size,
            "beans": self.beans, "beans_dealt": self.beans_dealt, "beans_out": self.beans_out,
            "alive": self.alive,
            "eliminated": self.eliminated, "towers": self.towers, "last_placed": self.last_placed,
            "reserve": self.reserve, "to_draw": self.to_draw, "out": sorted(self.out),
            "chain": list(self.chain), "chain_next": self.chain_next, "auctioneer": self.auctioneer,
            "phase": self.phase, "placer": self.placer, "placements": self.placements,
            "rebuilds": self.rebuilds, "score_pieces": self.score_pieces,
            "auction": None if a is None else {
                "piece": a.piece, "kind": a.kind, "responder": a.responder, "high_bid": a.high_bid,
                "high_bidder": a.high_bidder, "passed": sorted(a.passed), "from_tower": a.from_tower,
                "refusals": a.refusals},
            "pending_place": (None if self.phase != "settle" else
                              self.action_to_str(self._pending_place)),
            "poses": {k: v for k, v in sorted(self.poses.items())},
            "came_down": {k: v for k, v in sorted(self.came_down.items())},
            "tower_at_fall": {str(k): v for k, v in sorted(self.tower_at_fall.items())},
        })

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BanduState:
        if not isinstance(data, dict):
            raise ValueError("a Bandu state must be a JSON object")
        try:
            state = cls.__new__(cls)
            state.players = int(data["players"])
            state.variant = str(data["variant"])
            state.auction_kinds = tuple(str(k) for k in data["auctions"])
            state.reserve_size = int(data["reserve_size"])
            state.beans = [int(b) for b in data["beans"]]
            state.beans_dealt, state.beans_out = int(data["beans_dealt"]), int(data["beans_out"])
            state.alive = [bool(a) for a in data["alive"]]
            state.eliminated = [int(s) for s in data["eliminated"]]
            state.towers = [[str(p) for p in t] for t in data["towers"]]
            state.last_placed = [None if p is None else str(p) for p in data["last_placed"]]
            state.reserve = [str(p) for p in data["reserve"]]
            state.to_draw = [str(p) for p in data["to_draw"]]
            state.out = [str(p) for p in data["out"]]
            state.chain = tuple(str(p) for p in data["chain"])
            state.chain_next = [int(n) for n in data["chain_next"]]
            state.auctioneer, state.phase = int(data["auctioneer"]), str(data["phase"])
            state.placer, state.placements = int(data["placer"]), int(data["placements"])
            state.rebuilds = int(data["rebuilds"])
            state.score_pieces = [int(n) for n in data["score_pieces"]]
            a = data["auction"]
            state.auction = None if a is None else _Auction(
                str(a["piece"]), str(a["kind"]), int(a["responder"]), int(a["high_bid"]),
                int(a["high_bidder"]), {int(s) for s in a["passed"]}, bool(a["from_tower"]),
                int(a["refusals"]))
            state.poses = {str(k): [float(x) for x in v] for k, v in data["poses"].items()}
            state.came_down = {str(k): [float(x) for x in v]           # not in older saves
                               for k, v in data.get("came_down", {}).items()}
            state.tower_at_fall = {int(k): [str(p) for p in v] for k, v in data["tower_at_fall"].items()}
            if data["pending_place"] is not None:
                state._pending_place = state._parse_place(str(data["pending_place"]))
        except (KeyError, TypeError, ValueError, AttributeError, IllegalAction) as error:
            raise ValueError(f"not a Bandu state: {type(error).__name__} {shown(str(error), 60)}") from None
        if state.phase not in ("draw", "offer", "refuse", "acquire", "place", "settle", "removal", "over"):
            raise ValueError(f"unknown phase {shown(state.phase)}")
        if not (len(state.beans) == len(state.alive) == len(state.towers) == state.players):
            raise ValueError("one entry per seat in beans, alive and towers")
        for piece, pose in (*state.poses.items(), *state.came_down.items()):
            if (problem := pose_problem(pose)) is not None:
                raise ValueError(f"{shown(piece, 30)}: {problem}")
        return state

    # --- notation --------------------------------------------------------------------------------------
    def action_to_str(self, action: BanduAction) -> str:
        if isinstance(action, Draw):
            return f"draws {action.piece}"
        if isinstance(action, Offer):
            if action.auction == TAKE:
                return f"takes {action.piece}"
            return f"offers {action.piece} to {action.auction}"
        if isinstance(action, Respond):
            piece = self.auction.piece if self.auction is not None else "the piece"
            if action.kind == "accept":
                return f"accepts {piece}"
            if action.kind == "refuse":
                return f"refuses {piece} (1 bean)"
            if action.kind == "bid":
                return f"bids {action.amount} for {piece}"
            return f"passes on {piece}"
        if isinstance(action, Place):
            p = action.rounded()
            return (f"places {p.piece} at {p.x_mm:g} {p.y_mm:g} mm, yaw {p.yaw_deg:g} roll "
                    f"{p.roll_deg:g} pitch {p.pitch_deg:g}")
        if isinstance(action, Settled):
            verdict = "stood" if not action.fallen else "fell: " + ",".join(map(str, action.fallen))
            return f"result {verdict} poses {json.dumps([list(p) for p in action.poses], separators=(',', ':'))}"
        raise IllegalAction(f"not a Bandu action: {shown(action)}")

    def action_from_str(self, text: str) -> BanduAction:
        words = str(text).split()
        if not words or len(text) > 200_000:
            raise IllegalAction(f"{shown(text, 40)} is not a Bandu move")
        verb = words[0]
        try:
            if verb == "draws" and len(words) == 2:
                return Draw(words[1])
            if verb == "takes" and len(words) == 2:
                return Offer(words[1], TAKE)
            if verb == "offers" and len(words) == 4 and words[2] == "to" and words[3] in (ACQUIRE, REFUSE):
                return Offer(words[1], words[3])
            if verb == "accepts":
                return Respond("accept")
            if verb == "refuses":
                return Respond("refuse")
            if verb == "passes":
                return Respond("pass")
            if verb == "bids" and len(words) >= 2 and words[1].isascii() and words[1].isdigit() and len(words[1]) < 4:
                return Respond("bid", int(words[1]))
            if verb == "places":
                return self._parse_place(text)
            if verb == "result":
                return _parse_settled(text)
        except (ValueError, TypeError, IndexError, RecursionError) as error:
            raise IllegalAction(f"{shown(text, 40)} is not a Bandu move ({type(error).__name__})") from None
        raise IllegalAction(f"{shown(text, 40)} is not a Bandu move")

    @staticmethod
    def _parse_place(text: str) -> Place:
        # places PIECE at X Y mm, yaw A roll B pitch C
        words = text.replace(",", " ").split()
        if len(words) != 12 or words[2] != "at" or words[5] != "mm" or words[6:11:2] != ["yaw", "roll", "pitch"]:
            raise IllegalAction(f"{shown(text, 40)}: write places PIECE at X Y mm, yaw A roll B pitch C")
        x, y, yaw, roll, pitch = (_finite(w) for w in (words[3], words[4], words[7], words[9], words[11]))
        return Place(words[1], x, y, yaw, roll, pitch)


def _finite(word: str) -> float:
    if len(word) > 20:
        raise ValueError("number too long")
    value = float(word)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("not a finite number")
    return value


def _parse_settled(text: str) -> Settled:
    head, _, poses_text = text.partition(" poses ")
    words = head.split()
    if words[:2] == ["result", "stood"] and len(words) == 2:
        fallen: tuple[int, ...] = ()
    elif words[:2] == ["result", "fell:"] and len(words) == 3:
        fallen = tuple(int(s) for s in words[2].split(",") if s.isascii() and s.isdigit() and len(s) < 3)
    else:
        raise ValueError("result stood | result fell: SEATS")
    raw = json.loads(poses_text) if poses_text else []
    poses = tuple((str(p[0]), *(_finite(str(v)) for v in p[1:8])) for p in raw if len(p) == 8)
    return Settled(fallen, poses)  # type: ignore[arg-type]


def _check_settings(players: int, beans: int, auctions: str, variant: str, reserve: int, first: int,
                    chain: tuple[str, ...]) -> None:
    if variant not in VARIANTS:
        raise SettingsError(f"variant must be one of {', '.join(VARIANTS)}, not {shown(variant)}")
    low = 1 if variant in ("solo", "chain") else 2
    high = 1 if variant == "solo" else MAX_PLAYERS
    if not isinstance(players, int) or not low <= players <= high:
        count = "one player" if high == 1 else f"{low} to {high} players"
        raise SettingsError(f"Bandu's {variant} game is for {count}, not {shown(players)}")
    if not isinstance(beans, int) or isinstance(beans, bool) or not 0 <= beans <= MAX_BEANS:
        raise SettingsError(f"beans must be 0 to {MAX_BEANS}, not {shown(beans)}")
    if auctions not in AUCTIONS:
        raise SettingsError(f"auctions must be one of {', '.join(AUCTIONS)}, not {shown(auctions)}")
    if not isinstance(reserve, int) or isinstance(reserve, bool) or not 1 <= reserve <= len(BUILDING_PIECES):
        raise SettingsError(f"reserve must be 1 to {len(BUILDING_PIECES)} pieces, not {shown(reserve)}")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        seat = f" (seat {first + 1})" if isinstance(first, int) and not isinstance(first, bool) else ""
        raise SettingsError(f"the first player must sit at one of the {players} seats, 1 to {players}: "
                            f"first = 0 for seat 1 ... first = {players - 1} for seat {players}, "
                            f"not {shown(first)}{seat}")
    if variant == "chain" and not chain:
        raise SettingsError("the chain variant needs a chain of pieces (a scene file or a seed)")
    unknown = [p for p in chain if p.split("#")[0] not in BUILDING_PIECES and p.split("#")[0] != "base"]
    if unknown:
        raise SettingsError(f"unknown piece {shown(unknown[0])} in the chain")
    repeated = [p for n, p in enumerate(chain) if p in chain[:n] or p.split("#")[0] == "base"]
    if repeated:   # every seat's tower already stands on a base; a piece is placed only once
        raise SettingsError(f"{shown(repeated[0])} cannot be in the chain: a chain names each "
                            "building piece at most once, and no base")


def game_report(state: GameState) -> dict[str, Any]:
    """A finished game's figures for self-play's JSON."""
    assert isinstance(state, BanduState)
    return {"placements": state.placements, "eliminated": list(state.eliminated),
            "beans": list(state.beans),
            "tower_pieces": [state.tower_at_fall.get(s, state.towers[s]) for s in range(state.players)],
            "reserve": list(state.reserve), "rebuilds": state.rebuilds}


def seeded_chain(seed: int, length: int = len(BUILDING_PIECES)) -> tuple[str, ...]:
    """A chain drawn from the 48 building pieces with its own seed (the same on every machine)."""
    return tuple(random.Random(f"bandu-chain:{seed}").sample(BUILDING_PIECES, min(length, len(BUILDING_PIECES))))


def tower_key(state: BanduState, seat: int) -> tuple:
    """What a trial of `seat`'s tower depends on: its pieces and their settled poses."""
    return (state.players, seat, tuple(state.towers[seat]),
            tuple(tuple(state.poses.get(p, ())) for p in state.towers[seat]))


def new_game(players: int = 2, beans: int = 5, auctions: str = "both", variant: str = "standard",
             reserve: int = 48, first: int = 0, chain: tuple[str, ...] | int | None = None) -> BanduState:
    if isinstance(chain, bool):
        raise SettingsError("chain must be a seed or a list of pieces")
    if isinstance(chain, int):
        pieces = seeded_chain(chain, reserve)
    elif chain is None:
        pieces = seeded_chain(0, reserve) if variant == "chain" else ()
    else:
        pieces = tuple(str(p) for p in chain)
    return BanduState(players, beans, auctions, variant, reserve, first, pieces)
