"""Bandu's table in the window: lit wooden pieces in 3D, auctions on screen, placing with the mouse.

The view decides what is on the table and where (the towers at the settled poses the state
records, or at the frames of the physics being played back; the reserve at the table's ends,
games/bandu/table_layout.py; the piece up for auction, the held piece and its ghost, beans
and names) and turns input into actions; games/bandu/table_drawing.py draws it, and
games/bandu/auction_bar.py is the bar at the top.

A person's turn, by phase:
- offer: hover a piece of the reserve (or, with the reserve empty, of their own tower), click
  it, then choose the auction with the buttons (or keys 1, 2);
- refuse / acquire: the buttons Accept / Refuse (1 bean) or Bid n / Pass (keys 1, 2);
- place: the piece floats above the tower and follows the mouse on a plane above the tower's
  top; Q/E turn it about the vertical, R/F and Z/C tilt it (Shift: fine steps), Ctrl+wheel
  raises or lowers it, a ghost shows where it would first touch (games/bandu/preview.py: pure
  geometry, never an outcome) and a left click releases it there, at rest.
The camera: right drag orbits, middle drag (or Shift+right drag) pans, the wheel zooms, T
flies to the tower in play, Home back to the whole table.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from pyglet.graphics import Group
from pyglet.math import Vec3
from pyglet.window import key, mouse

from simulator.core.state import OUTCOME
from simulator.games.bandu.aids import practice_aid_of
from simulator.games.bandu.auction_bar import AuctionBar
from simulator.games.bandu.hint import HINT_SETTING, HintAdvisor
from simulator.games.bandu.practice import PracticeAid
from simulator.games.bandu.preview import LandingPreview
from simulator.games.bandu.referee import orientation_of, tower_axes
from simulator.games.bandu.rotations import (
    euler_quaternion,
    quat_multiply,
    quaternion_euler,
    rotation_matrix,
)
from simulator.games.bandu.rules import (
    ACQUIRE,
    REACH_MM,
    REFUSE,
    TAKE,
    BanduState,
    Offer,
    Place,
    Respond,
)
from simulator.games.bandu.table_drawing import (
    Pose3,
    TableDrawing,
    blend_poses,
    lying,
    piece_mesh,
    ray_hits_box,
    ray_hits_piece,
)
from simulator.games.bandu.table_layout import (
    SeatPlace,
    auction_spot,
    reserve_places,
    seat_places,
)
from simulator.render.camera import OrbitCamera
from simulator.render.game_view import GameView, ViewContext
from simulator.render.widgets import label
from simulator.render.wood import Drawn
from simulator.towers.pieces.catalogue import BY_ID, kind, piece_name

TURN_STEP, FINE_STEP = 15.0, 3.0  # degrees per key press
HOVER_RANGE_M = (0.01, 0.20)      # how high the held piece floats above the tower's top
LIFT_M = 0.035                    # a piece up for auction hovers this much above its place
HELD_GAP_M = 0.02                 # the held piece hovers at least this far over its ghost's top
FALL_HOLD_SECONDS = 1.6           # a fallen tower stays in view this long before play moves on
G_LABELS = Group(order=41)


@dataclass(frozen=True)
class Held:
    """The piece a person is placing, as they hold it: a Place and how high it floats."""
    place: Place
    hover_m: float = 0.06


SOLO_RULES = (
    "Solo: take the pieces from the reserve one at a time, in any order, and stack each on your "
    "base. Only the base may touch the table. The attempt ends when the tower falls or the "
    "reserve is empty; the score is the pieces standing after the last placement that stood (the "
    "piece that brought the tower down does not count), the height breaking ties. Your records "
    "are kept.")
CHAIN_SOLO_RULES = (
    "Chain, alone: place the pieces of the chain in their order on your base. Only the base may "
    "touch the table. The score is the pieces of the chain standing when the tower falls or the "
    "chain ends.")


class BanduView(GameView[BanduState]):
    state_class = BanduState
    rules_summary = (
        "Each turn the auctioneer picks a piece from the reserve and auctions it. To refuse: "
        "each player from the left accepts it or pays 1 bean to pass it on, round and round "
        "until someone accepts (a player without beans must). To acquire: bid exactly one bean "
        "more or pass for good; the highest bidder pays and takes it, and if nobody bids the "
        "auctioneer gets it free. Whoever gets the piece places it on their own tower. Only the "
        "base may touch the table: a tower that falls knocks its builder out, their pieces "
        "return to the reserve. The last tower standing wins. With the reserve empty, the "
        "auctioneer auctions a piece from their own tower (not the one placed last).")
    controls: tuple[tuple[str, str], ...] = (
        ("Click", "pick a reserve piece; release the held piece"),
        ("1, 2, 3", "the auction buttons in order"),
        ("Q / E", "turn the held piece about the vertical"),
        ("R / F", "tilt it away from you / towards you"),
        ("Z / C", "tilt it to your left / right"),
        ("Shift", "with Q E R F Z C: fine steps"),
        ("Ctrl+wheel", "hold the piece higher or lower"),
        ("Right drag", "orbit the camera"),
        ("Middle drag", "pan (or Shift+right drag)"),
        ("Wheel", "zoom"),
        ("M", "the magnet on or off (snaps to the axis, the top piece's centre)"),
        ("V", "the next view of the tower: your angle, from above, from the side"),
        ("T", "fly to the tower in play"),
        ("Home", "the whole table"),
    )

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        self.preview = LandingPreview()
        # the solo practice aid (the game refuses the setting anywhere else); its process starts
        # at the first question, so a replay (which holds no piece) never starts it
        aided = practice_aid_of(context.controller.settings)
        self.practice: PracticeAid | None = PracticeAid() if aided else None
        # the hint (G): a person building alone only; its process starts at the first hint
        alone_person = context.controller.state.num_players == 1 and not context.controller.seats[0].is_computer
        self.hints: HintAdvisor | None = HintAdvisor() if alone_person else None
        self.hint_ghost: Pose3 | None = None
        self.camera = OrbitCamera(yaw=-90.0, pitch=50.0, distance=2.0, target=Vec3(0.0, 0.07, 0.0),
                                  min_distance=0.12, max_distance=4.5, fov=40.0)
        self.held: Held | None = None
        self.ghost: Pose3 | None = None
        self.chosen: str | None = None          # the reserve piece a person picked to auction
        self.hovered: str | None = None
        self.tower_poses: dict[str, Pose3] = {}
        self.slots: dict[str, Pose3] = {}
        self._ghost_dirty = False
        self._ghost_touches_table = False       # the ghost's lowest point on the table (a fall)
        self.released: tuple[str, Pose3] | None = None   # a placement's piece awaiting its physics
        self._last_frame: Any = None
        self._focus_key: tuple = ()
        self._fall_shown_until = 0.0            # the camera stays on a fall until then
        self._keys_down: set[int] = set()
        self.magnet = True                      # M turns it off and on
        # the camera over a tower being built: the player's own angle, kept from one placement
        # to the next (yaw from the seat's side, pitch), and the view V chose
        self._placing_angles = (0.0, PLACING_PITCH_DEG)
        self._view = 0
        self._history_seen = len(self.controller.history)   # verdicts said so far
        self._out_said: set[int] = set()        # for Ctrl+wheel: the wheel event has no modifiers
        n = self.state.num_players
        self.places: list[SeatPlace] = seat_places(tower_axes(n))
        self.auction_spot = auction_spot(tower_axes(n))
        if self._alone():
            self.rules_summary = CHAIN_SOLO_RULES if self.bandu.variant == "chain" else SOLO_RULES
            self.controls = tuple(("1, 2", "the bar's buttons: take it, cancel") if k == "1, 2, 3" else (k, v)
                                  for k, v in self.controls)
            if self.hints is not None:
                self.controls += (("G", "a hint: the strong player's placement, a blue ghost; G again "
                                        "releases it there (the record is marked)"),)
        self.drawing = TableDrawing(self.places)
        self.bar = AuctionBar(self.batch)
        self.seat_labels = [label("", size=10.5, batch=self.batch, group=G_LABELS, anchor_x="center",
                                  bold=True, multiline=True, width=130, align="center") for _ in range(n)]
        self.sync()

    @property
    def action_buttons(self) -> list[Any]:
        """The auction bar's buttons (visible or not), left to right."""
        return self.bar.buttons

    # --- what the state says ---------------------------------------------------------------------
    @property
    def bandu(self) -> BanduState:
        state = self.state
        assert isinstance(state, BanduState)
        return state

    def seat_name(self, seat: int) -> str:
        seats = self.controller.seats
        name = seats[seat].name if seat < len(seats) else ""
        return name or self.controller.info.seat_name(seat)

    def _alone(self) -> bool:
        """A solo attempt (or a chain built alone): no auctions, no beans, nothing to say of them."""
        return self.bandu.players == 1


    def sync(self) -> None:
        state = self.bandu
        self.tower_poses = {piece: (tuple(pose[0]), tuple(pose[1]))            # type: ignore[misc]
                            for piece, pose in self.preview.tower_poses(state).items()}
        for seat in range(state.players):        # a fallen solo or chain tower stays on the table
            if not state.alive[seat]:            # where its pieces came down (the outcome says)
                for piece in state.towers[seat]:
                    if (pose := state.came_down.get(piece)) is not None:
                        self.tower_poses[piece] = (tuple(v / 1000 for v in pose[:3]), tuple(pose[3:]))  # type: ignore[assignment]
        centres = reserve_places(state, lambda piece: lying(piece)[2])
        self.slots = {piece: ((x, y, lying(piece)[1]), lying(piece)[0]) for piece, (x, y) in centres.items()}
        self.released = self._released(state)
        if state.phase != "place" or not self.may_act():
            self.held, self.ghost = None, None
            self.hint = ""
            if self.hints is not None:
                self.hints.forget()
                self.hint_ghost = None
        elif self.held is None or self.held.place.piece != state.auction.piece:  # type: ignore[union-attr]
            self.held = Held(Place(state.auction.piece))                           # type: ignore[union-attr]
            self._ghost_dirty = True
        if state.phase != "offer" or not self.may_act():
            self.chosen = None
        elif state.variant == "chain":
            self.chosen = state.legal_actions()[0].piece                           # type: ignore[union-attr]
        self._say_verdict()
        self._focus_on_play()
        self._refresh_hud()
        self.drawing.changed()

    def _released(self, state: BanduState) -> tuple[str, Pose3] | None:
        """While a placement waits for its physics (or in a replay, which shows no physics): the
        piece where it was released, lowered until it touches."""
        request = state.outcome_request()
        if request.get("kind") != "placement":
            return None
        place = Place(request["piece"], request["x_mm"], request["y_mm"], request["yaw_deg"],
                      request["roll_deg"], request["pitch_deg"])
        position, orientation = self.preview.landing(state, request["seat"], place)
        return place.piece, (tuple(position), tuple(orientation))               # type: ignore[return-value]

    def _say_verdict(self) -> None:
        """A physics result just applied: say it in the message line, once."""
        history = self.controller.history
        if len(history) > self._history_seen and history[-1].player == OUTCOME:
            sentence = self.describe_move(history[-1].action)
            fell = "fell" in sentence
            out = [self.seat_name(s) for s in range(self.bandu.players)
                   if not self.bandu.alive[s] and s not in self._out_said]
            self._out_said.update(s for s in range(self.bandu.players) if not self.bandu.alive[s])
            extra = (f": {' and '.join(out)} {'is' if len(out) == 1 else 'are'} out"
                     if out and self.bandu.players > 1 else "")       # alone, 'out' says nothing
            self.toast.show(sentence[0].upper() + sentence[1:] + extra + ".", error=fell)
            if fell and self.controller.paced():      # let people see it come down
                self.controller.hold_computers(FALL_HOLD_SECONDS)
                self._fall_shown_until = time.monotonic() + FALL_HOLD_SECONDS
        self._history_seen = len(history)

    def _focus_on_play(self) -> None:
        """Fly to the tower a piece is going to; back over the table when a new auction begins."""
        state = self.bandu
        key_now: tuple = (state.phase, state.placer if state.phase == "place" else state.auctioneer)
        if key_now == self._focus_key:
            return
        if state.phase in ("offer", "over") and time.monotonic() < self._fall_shown_until:
            return                               # still showing a fall: update() comes back
        self._focus_key = key_now
        if state.phase == "place":
            self.focus_tower(state.placer)
        elif state.phase in ("offer", "over"):
            self.camera.reset()

    def focus_tower(self, seat: int) -> None:
        """Fly to `seat`'s tower, seen at the angle the player last chose over a tower."""
        place = self.places[seat]
        top = self.preview.tower_top(self.bandu, seat)
        turn, pitch = self._placing_angles
        view_pitch = VIEWS[self._view][1]
        self.camera.glide_to(Vec3(place.axis[0], place.axis[1], top * 0.6 + 0.02),
                             distance=max(0.55, top * 2.5 + 0.45),
                             yaw=self._seat_yaw(seat) + turn,
                             pitch=pitch if view_pitch is None else view_pitch)

    def _seat_yaw(self, seat: int) -> float:
        return -90.0 if self.places[seat].facing > 0 else 90.0

    def _keep_placing_angles(self) -> None:
        """The player turned the camera over the tower they build: keep that angle."""
        if self.held is not None and VIEWS[self._view][1] is None:
            turn = (self.camera.yaw - self._seat_yaw(self.bandu.placer) + 180.0) % 360.0 - 180.0
            self._placing_angles = (turn, self.camera.pitch)

    def _next_view(self) -> None:
        self._view = (self._view + 1) % len(VIEWS)
        seat = self.bandu.placer if self.bandu.phase == "place" else max(self.bandu.auctioneer, 0)
        self.focus_tower(seat)
        self.toast.show(f"View: {VIEWS[self._view][0]} (V: the next)")

    # --- the HUD ------------------------------------------------------------------------------------
    def _buttons_for_turn(self) -> list[tuple[str, Any]]:
        state = self.bandu
        if not self.may_act() or self.controller.outcome_in_progress() is not None:
            return []
        if state.phase == "offer" and self.chosen is not None:
            kinds = sorted({a.auction for a in state.legal_actions()
                            if isinstance(a, Offer) and a.piece == self.chosen})
            names = {ACQUIRE: "To acquire", REFUSE: "To refuse", TAKE: "Take it"}
            choices: list[tuple[str, Any]] = [(names[k], Offer(self.chosen, k)) for k in kinds]
            if state.variant != "chain":
                choices.append(("Cancel", None))
            return choices
        if state.phase in (ACQUIRE, REFUSE):
            labels = {"accept": "Accept", "refuse": "Refuse (1 bean)", "pass": "Pass"}
            return [(f"Bid {a.amount}" if a.kind == "bid" else labels[a.kind], a)
                    for a in state.legal_actions() if isinstance(a, Respond)]
        return []

    def _refresh_hud(self) -> None:
        state = self.bandu
        self.bar.set_text(*self._auction_text(state))
        self.bar.set_choices([(text, partial(self._choose, action)) for text, action in self._buttons_for_turn()])
        for seat, text_label in enumerate(self.seat_labels):
            beans = state.beans[seat]
            status = (_out_word(state) if not state.alive[seat]
                      else _count(self._built(seat), "piece") if self._alone()
                      else f"{beans} bean{'s' if beans != 1 else ''}")
            text_label.text = f"{self.seat_name(seat)}\n{status}"
            active = seat == self.controller.current_player() and not self.controller.is_over()
            text_label.color = (255, 214, 140, 255) if active else ((150, 140, 130, 255) if not state.alive[seat]
                                                                    else (240, 232, 220, 255))
        self._layout_hud()

    def _auction_text(self, state: BanduState) -> tuple[str, str]:
        name = self.seat_name
        if self.controller.is_over():
            return "Game over", self.result_text()
        if self.controller.current_player() == OUTCOME:
            piece = piece_name(state.auction.piece) if state.auction else "the piece"
            if self.controller.outcome_in_progress() is None:      # a replay shows no physics
                return f"{piece} released", "The next move says whether the tower stood."
            return f"{piece}: will the tower stand?", "The physics decides; wait for the tower to settle."
        auction = state.auction
        if state.phase == "offer":
            reserve = f"{len(state.reserve)} pieces in the reserve"
            if self.chosen:                      # short: the buttons under it say the rest
                return (f"{name(state.auctioneer)} picked the {piece_name(self.chosen)}",
                        f"{'Take it or pick another' if self._alone() else 'Choose the auction'}"
                        f" · {reserve}")
            where = "the reserve" if state.reserve else "their own tower"
            return f"{name(state.auctioneer)} chooses a piece from {where}", reserve
        if auction is None:
            return "", ""
        if state.phase == REFUSE:
            return (f"Auction to refuse: {piece_name(auction.piece)}",
                    f"{name(auction.responder)} accepts or pays 1 bean to pass it on"
                    f" · {auction.refusals} refused so far")
        if state.phase == ACQUIRE:
            high = (f"high bid {auction.high_bid} by {name(auction.high_bidder)}" if auction.high_bid
                    else "no bid yet")
            return (f"Auction to acquire: {piece_name(auction.piece)}",
                    f"{name(auction.responder)} to bid or pass · {high}")
        if state.phase == "place":
            return (f"{name(state.placer)} places the {piece_name(auction.piece)}",
                    "Only the base may touch the table.")
        return "", ""

    def _layout_hud(self) -> None:
        self.bar.layout(*self.area)
        self._place_seat_labels()

    def _place_seat_labels(self) -> None:
        for place, text_label in zip(self.places, self.seat_labels, strict=True):
            at = self.camera.to_screen(Vec3(place.label_at[0], place.label_at[1], 0.0), self.area)
            text_label.visible = at is not None and self.contains(*at)
            if at is not None:
                text_label.position = (at[0], at[1], 0)

    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        # far enough back for the whole table, reserve included, whatever the view's shape
        half_fov = math.radians(self.camera.fov / 2)
        across = math.atan(math.tan(half_fov) * width / max(height, 1.0))
        self.camera.set_home(max(0.93 / math.tan(across), 0.68 / math.tan(half_fov)) + 0.05)
        self._layout_hud()

    # --- acting ----------------------------------------------------------------------------------
    def _choose(self, action: Any) -> None:
        if action is None:
            self.chosen = None
            self._refresh_hud()
            self.drawing.changed()
            return
        self.submit(action)

    def _release(self) -> None:
        """Release the held piece where its ghost is: the place the ghost was worked out for
        (never the pointer's position at the click, which Ctrl+wheel or a camera move since
        the last motion would put elsewhere)."""
        if self.held is None:
            return
        self._refresh_ghost()
        if self.submit(self.held.place.rounded()):
            self.held, self.ghost = None, None

    def _refresh_ghost(self) -> None:
        """The ghost: where the held piece, as it will be released (rounded as the notation
        rounds it), first touches the tower."""
        if not self._ghost_dirty or self.held is None:
            return
        self._ghost_dirty = False
        position, orientation = self.preview.landing(self.bandu, self.bandu.placer, self.held.place.rounded())
        self.ghost = (tuple(position), tuple(orientation))                       # type: ignore[assignment]
        lowest = position[2] + _lowest_offset(self.held.place.piece, orientation)
        self._ghost_touches_table = bool(self.bandu.towers[self.bandu.placer]) and lowest < ON_TABLE_M
        self.drawing.changed()

    # --- clock and drawing ------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self._fall_shown_until and time.monotonic() >= self._fall_shown_until:
            self._fall_shown_until = 0.0
            self._focus_on_play()                 # the fall has been seen: on with the game
        if self.camera.update(dt):
            self._place_seat_labels()
        pending = self.controller.outcome_in_progress()
        frame = getattr(pending, "frame", None)
        if frame is not None:
            now = frame()
            if now is not None and now != self._last_frame:
                if self._last_frame is None:
                    self.drawing.changed()                   # the settling tower starts to move
                self._last_frame = now
                self.drawing.moved()
        elif self._last_frame is not None:
            self._last_frame = None
            self.drawing.changed()
        self._refresh_ghost()
        if self.held is not None and self.practice is None:
            self.hint = f"Click to release where the ghost shows. {self._aim_readout()}"
        if self.practice is not None:
            held = self.held.place if self.held is not None else None
            if self.practice.update(self.bandu, self.bandu.placer, held):
                self.drawing.changed()
            if held is not None:
                self.hint = self.practice.sentence()
        self._follow_hint()
        self._refresh_hud_text_only()

    def _follow_hint(self) -> None:
        """Show the hint's answer as the blue ghost once it comes, and say so."""
        if self.hints is None or self.held is None:
            return
        if self.hints.poll() and self.hints.answer is not None:
            place = self.hints.answer
            self.hint_ghost = self.preview.landing(self.bandu, self.bandu.placer, place)
            self.drawing.changed()
        if self.hints.thinking:
            self.hint = "Hint: the strong player is thinking ..."
        elif self.hints.answer is not None:
            self.hint = "Hint: the blue ghost is where the strong player would release it. G releases it there."

    def _refresh_hud_text_only(self) -> None:
        self.bar.set_text(*self._auction_text(self.bandu))

    def _items(self) -> list[Drawn]:
        state, scene = self.bandu, self.drawing
        items = [scene.table()]
        live = self._live_poses()
        settling = set(state.towers[state.placer]) if live is not None and state.placer >= 0 else set()
        for piece, pose in self.tower_poses.items():
            shown = live.get(piece, pose) if live is not None else pose
            items.append(scene.piece(piece, shown, moving=piece in settling))
        if live is not None:                          # the piece being released, not yet in the state
            for piece, pose in live.items():
                if piece not in self.tower_poses:
                    items.append(scene.piece(piece, pose, moving=True))
        for piece, (position, orientation) in self.slots.items():
            if live is not None and piece in live:
                continue
            lift = LIFT_M if piece == self.chosen else 0.012 if piece == self.hovered else 0.0
            items.append(scene.piece(piece, ((position[0], position[1], position[2] + lift), orientation),
                                     bright=piece in (self.hovered, self.chosen)))
        if self.released is not None and live is None:   # released, its physics not shown yet
            items.append(scene.piece(self.released[0], self.released[1]))
        offered = state.auction.piece if state.auction is not None else None
        if (offered is not None and offered not in self.tower_poses and self.held is None
                and live is None and self.released is None):   # up for auction: mid-table
            orientation, height, _ = lying(offered.split("#", 1)[0])
            items.append(scene.piece(offered, ((*self.auction_spot, height + LIFT_M), orientation), bright=True))
        if self.held is not None:
            held_pose = self._held_pose()
            if VIEWS[self._view][0] != "top":       # from above it would hide its ghost
                items.append(scene.piece(self.held.place.piece, held_pose))
            if self.ghost is not None:
                tint = self.practice.colour() if self.practice is not None else None
                if self.ghost_on_table():
                    tint = GHOST_ON_TABLE
                items.append(scene.piece(self.held.place.piece, self.ghost, ghost=True, tint=tint))
                items.append(scene.drop_line(held_pose[0], self.ghost[0][2]))
            if self.hint_ghost is not None and self.hints is not None and self.hints.answer is not None:
                items.append(scene.piece(self.hints.answer.piece, self.hint_ghost, ghost=True, tint=HINT_GHOST))
        items += [scene.beans(seat, state.beans[seat]) for seat in range(state.players) if state.beans[seat]]
        return items

    def draw(self) -> None:
        self.drawing.draw(self.context.window, self.area, self.camera, self._items,
                        self.bandu.placer if self._last_frame is not None else -1)
        self.batch.draw()

    def _live_poses(self) -> dict[str, Pose3] | None:
        if self._last_frame is None:
            return None
        before, after, blend = self._last_frame
        return {piece: blend_poses(pose, after.get(piece, pose), blend) for piece, pose in before.items()}

    def _held_pose(self) -> Pose3:
        assert self.held is not None
        state = self.bandu
        axis = self.places[state.placer].axis
        place = self.held.place
        top = self.preview.tower_top(state, state.placer)
        orientation = orientation_of(place)
        lowest, highest = _vertical_extent(place.piece, orientation)
        # above its own ghost, however tall the piece: a gap over the ghost's top at the least
        hover = max(self.held.hover_m, highest - lowest + HELD_GAP_M)
        return ((axis[0] + place.x_mm / 1000, axis[1] + place.y_mm / 1000, top + hover - lowest),
                tuple(orientation))                                                  # type: ignore[return-value]

    def close(self) -> None:
        self.drawing.close()
        self.preview.close()
        if self.practice is not None:
            self.practice.close()
        if self.hints is not None:
            self.hints.close()

    # --- input -------------------------------------------------------------------------------------
    def _pick(self, x: float, y: float) -> str | None:
        """The clickable piece under the pointer: one the auctioneer may offer."""
        state = self.bandu
        if state.phase != "offer" or not self.may_act() or state.variant == "chain":
            return None
        offerable = {a.piece for a in state.legal_actions() if isinstance(a, Offer)}
        origin, direction = self.camera.ray(x, y, self.area)
        poses = {piece: pose for piece in offerable
                 if (pose := self.slots.get(piece) or self.tower_poses.get(piece)) is not None}
        # on the piece itself; else inside its bounding box (the hole of a ring or a washer)
        for hits in (ray_hits_piece, ray_hits_box):
            best, nearest = None, math.inf
            for piece, pose in poses.items():
                distance = hits(origin, direction, pose, piece_mesh(piece.split("#", 1)[0]))
                if distance is not None and distance < nearest:
                    best, nearest = piece, distance
            if best is not None:
                return best
        return None

    def aim_height(self) -> float:
        """The height (metres) of the plane the pointer aims the held piece on: its tower's top."""
        return self.preview.tower_top(self.bandu, self.bandu.placer)

    def _follow_mouse(self, x: float, y: float) -> None:
        """Move the held piece to where the pointer is on the plane of its tower's top: the
        ghost lands under the pointer, from any view (the piece floats above it)."""
        if self.held is None:
            return
        axis = self.places[self.bandu.placer].axis
        aimed = self.camera.on_level(x, y, self.area, self.aim_height())
        if aimed is None:
            return
        limit = REACH_MM - 0.5
        dx = max(-limit, min(limit, (aimed.x - axis[0]) * 1000))
        dy = max(-limit, min(limit, (aimed.y - axis[1]) * 1000))
        if self.magnet:
            dx, dy = self._snapped(dx, dy, x, y)
        self.held = replace(self.held, place=replace(self.held.place, x_mm=dx, y_mm=dy))
        self._ghost_dirty = True

    def magnet_points(self) -> list[tuple[float, float]]:
        """Where the magnet pulls the held piece (mm from the tower's axis): the axis, and the
        centre of the tower's top piece."""
        state = self.bandu
        points = [(0.0, 0.0)]
        tower = state.towers[state.placer] if state.placer >= 0 else []
        pose = self.tower_poses.get(tower[-1]) if tower else None
        if pose is not None:
            axis = self.places[state.placer].axis
            points.append(((pose[0][0] - axis[0]) * 1000, (pose[0][1] - axis[1]) * 1000))
        return points

    def _snapped(self, dx: float, dy: float, x: float, y: float) -> tuple[float, float]:
        """The first magnet point (the axis before the top piece's centre) whose picture is
        within MAGNET_PX of the pointer (x, y), or within MAGNET_MM on the table: a pull that
        is the same for the hand from near and far."""
        axis = self.places[self.bandu.placer].axis
        height = self.aim_height()
        for point in self.magnet_points():
            at = self.camera.to_screen(Vec3(axis[0] + point[0] / 1000, axis[1] + point[1] / 1000, height),
                                       self.area)
            near_on_screen = at is not None and math.hypot(at[0] - x, at[1] - y) <= MAGNET_PX
            if near_on_screen or math.hypot(dx - point[0], dy - point[1]) <= MAGNET_MM:
                return round(point[0], 1), round(point[1], 1)
        return dx, dy

    def ghost_on_table(self) -> bool:
        """Would the held piece, released, touch the table (its tower has a foundation)? Worked
        out with the ghost (_refresh_ghost), not at every frame."""
        return self.ghost is not None and self.held is not None and self._ghost_touches_table

    def _aim_readout(self) -> str:
        """The live readout under the status: the offset from the axis, the magnet, the table."""
        if self.held is None:
            return ""
        place = self.held.place
        if self.ghost_on_table():
            return "Released there it touches the table: your tower falls."
        offset = math.hypot(place.x_mm, place.y_mm)
        magnet = "magnet on (M)" if self.magnet else "magnet off (M)"
        return f"{offset:.1f} mm from the axis (x {place.x_mm:+.1f}, y {place.y_mm:+.1f}) · {magnet}"

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        if not self.contains(x, y):
            return None
        if self.held is not None:
            self._follow_mouse(x, y)
            return True
        hovered = self._pick(x, y)
        if hovered != self.hovered:
            self.hovered = hovered
            self.drawing.changed()
        verb = "take" if self._alone() else "auction"
        self.hint = f"Click to {verb} the {piece_name(hovered)}." if hovered else ""
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if not self.contains(x, y) or not self.enabled or button != mouse.LEFT:
            return None
        if self.bar.click(x, y):
            return True
        if self.held is not None and self.controller.outcome_in_progress() is None:
            self._release()
            return True
        picked = self._pick(x, y)
        if picked is not None:
            self.chosen = picked
            self._refresh_hud()
            self.drawing.changed()
            return True
        return None

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        if self.camera.on_mouse_drag(x, y, dx, dy, buttons, modifiers):
            self._place_seat_labels()
            self._keep_placing_angles()
            return True
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        if not self.contains(x, y):
            return None
        if self.held is not None and self._keys_down & _CTRL_KEYS:
            low, high = HOVER_RANGE_M
            self.held = replace(self.held, hover_m=min(high, max(low, self.held.hover_m + 0.01 * scroll_y)))
            self.drawing.changed()
            return True
        self.camera.on_mouse_scroll(x, y, scroll_x, scroll_y, self.area)   # towards the pointer
        self._place_seat_labels()
        self.on_mouse_motion(x, y, 0, 0)         # what is under the pointer now (the hover)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        self._keys_down.add(symbol)
        if not self.enabled:
            return None
        if self.held is not None and symbol in _TURNS and not modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            axis, sign = _TURNS[symbol]
            if axis != 2:                        # tilts as the player at that seat sees them
                sign *= self.places[self.bandu.placer].facing
            step = (FINE_STEP if modifiers & key.MOD_SHIFT else TURN_STEP) * sign
            self.held = replace(self.held, place=_turned(self.held.place, axis, step))
            self._ghost_dirty = True
            return True
        if symbol in (key._1, key._2, key._3) and self.bar.press(symbol - key._1):
            return True
        if symbol == key.T and not modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            seat = self.bandu.placer if self.bandu.phase == "place" else self.bandu.auctioneer
            self.focus_tower(max(seat, 0))
            return True
        if symbol == key.HOME:
            self.camera.reset()
            return True
        if symbol == key.M and not modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            self.magnet = not self.magnet
            self.toast.show(f"Magnet {'on' if self.magnet else 'off'}: the held piece "
                            f"{'snaps to' if self.magnet else 'no longer snaps to'} the axis and the top piece's centre")
            return True
        if symbol == key.V and not modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            self._next_view()
            return True
        if symbol == key.G and not modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            return self._hint_key()
        return None

    def _hint_key(self) -> bool | None:
        """G: ask for a hint for the held piece (the game is marked as hinted from then on), or,
        once it is shown, release the piece where it says."""
        if self.hints is None:
            if self.held is not None:
                self.toast.show("Hints are for a person building alone (solo and chain games)")
            return True if self.held is not None else None
        if self.held is None or self.controller.outcome_in_progress() is not None:
            return None
        answer = self.hints.answer
        if answer is not None and answer.piece == self.held.place.piece:
            if self.submit(answer.rounded()):
                self.held, self.ghost, self.hint_ghost = None, None, None
                self.hints.forget()
            return True
        if not self.controller.settings.get(HINT_SETTING):
            self.controller.settings[HINT_SETTING] = True      # saved with the game: the record is marked
            self.toast.show("Hint asked: this attempt will be marked in the records and is never a best")
        self.hints.ask(self.bandu)
        return True

    def on_key_release(self, symbol: int, modifiers: int) -> bool | None:
        self._keys_down.discard(symbol)
        return None

    # --- text for the shared panel ----------------------------------------------------------------
    def seat_detail(self, seat: int) -> str:
        state = self.bandu
        if not state.alive[seat]:
            return _out_word(state)
        if self._alone():
            return _count(self._built(seat), "piece")
        return f"{_count(state.beans[seat], 'bean')} · {_count(self._built(seat), 'piece')}"

    def _built(self, seat: int) -> int:
        """The pieces on the seat's tower, its foundation not counted (a challenge game's
        foundation is a piece it took)."""
        return len(self.bandu.towers[seat]) - (0 if self.bandu.variant == "challenge" else 1)

    def prompt(self) -> str:
        state = self.bandu
        if state.phase == "offer":
            if self._alone():
                return "Take it, or pick another." if self.chosen else "Click a piece to take it."
            if self.chosen:
                return "Choose the auction."
            return "Click a piece to auction."
        if state.phase == REFUSE:
            return "Accept the piece or refuse it."
        if state.phase == ACQUIRE:
            return "Bid or pass."
        if state.phase == "place":
            return "Place the piece: move, turn (Q/E, R/F, Z/C), click."
        return ""

    def result_text(self) -> str:
        state = self.bandu
        if state.variant in ("solo", "chain") and state.players == 1:
            return f"Score: {_count(state.score_pieces[0], 'piece')} standing."
        winners = [s for s in range(state.players) if state.alive[s]]
        if len(winners) == 1:
            built = len(state.towers[winners[0]]) - (0 if state.variant == "challenge" else 1)
            if built == 0:
                return "The last tower standing: a base with nothing on it yet."
            on = "" if state.variant == "challenge" else " on its base"
            return f"The last tower standing, {_count(built, 'piece')}{on}."
        return ""

    def describe_move(self, notation: str) -> str:
        """A move as a person says it: pieces by their names ('offers the wide cylinder to
        refuse'), a physics result without its poses ('the tower stands', 'Player 2's tower
        fell')."""
        if (placed := _PLACED.fullmatch(notation)) is not None:
            return _placed_words(*placed.groups())
        if not notation.startswith("result "):
            return _with_piece_names(notation)
        verdict = notation.split(" poses ", 1)[0].removeprefix("result ")
        if verdict == "stood":
            return "the tower stands"
        if self.bandu.players == 1:              # a solo attempt: no one else to name
            return "the tower fell"
        seats = [int(s) for s in verdict.removeprefix("fell: ").split(",") if s.strip().isascii() and s.strip().isdigit()]
        names = " and ".join(f"{self.seat_name(s)}'s" for s in seats if 0 <= s < self.bandu.players)
        return f"{names or 'a'} tower fell"


_NUMBER = r"(-?[0-9.]+)"
_PLACED = re.compile(rf"places (\S+) at {_NUMBER} {_NUMBER} mm, yaw {_NUMBER} roll {_NUMBER} pitch {_NUMBER}")


def _placed_words(piece: str, x: str, y: str, yaw: str, roll: str, pitch: str) -> str:
    """'places the large cube on the axis', '... 3.2 mm off the axis, turned 15 degrees'."""
    off = math.hypot(float(x), float(y))
    words = f"places the {piece_name(piece)} " + ("on the axis" if off < 0.05 else f"{off:.1f} mm off the axis")
    turns = [f"{name} {float(value):g} degrees" for name, value in (("turned", yaw), ("rolled", roll),
                                                                       ("pitched", pitch)) if float(value)]
    return words + (", " + ", ".join(turns) if turns else "")


def _with_piece_names(notation: str) -> str:
    """A move's notation with its piece ids said as names: 'offers the wide cylinder to
    refuse' (an id is a word of its own in the notation)."""
    words = notation.split(" ")
    return " ".join(f"the {piece_name(word)}" if kind(word) in BY_ID else word for word in words)


def _out_word(state: BanduState) -> str:
    """How a seat whose tower fell is marked: out of the game, or, alone, its attempt over."""
    return "tower fell" if state.players == 1 else "out"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_CTRL_KEYS = {key.LCTRL, key.RCTRL, key.LCOMMAND, key.RCOMMAND}
GHOST_ON_TABLE = (1.0, 0.25, 0.2)   # the ghost's colour when the release would touch the table
HINT_GHOST = (0.3, 0.55, 1.0)       # the hint's ghost: where the strong player would release it
MAGNET_MM = 4.0          # the held piece snaps to the axis or the top piece's centre this near,
MAGNET_PX = 10.0         # or when the pointer is this near its picture
ON_TABLE_M = 0.001       # a ghost whose lowest point is this near the table top touches it
PLACING_PITCH_DEG = 28.0  # the camera over a tower being built, until the player orbits
# V goes round these views of the tower being built (pitch in degrees; 'oblique' keeps the
# player's own): from above, the held piece is not drawn, so it never hides its ghost
VIEWS = (("oblique", None), ("top", 89.0), ("side", 4.0))
# a turn of the held piece about one of the table's axes, whatever turns it has had: z (Q, E),
# x (R, F: its top away from or towards the player in front of the tower, at -y) or y (Z, C:
# its top to their left or right)
_TURNS = {key.Q: (2, 1.0), key.E: (2, -1.0), key.R: (0, -1.0), key.F: (0, 1.0),
          key.Z: (1, -1.0), key.C: (1, 1.0)}


def _lowest_offset(piece: str, orientation: tuple[float, float, float, float]) -> float:
    """The height of the piece's lowest point relative to its centre (metres; negative), turned
    as given: from its visual mesh."""
    return _vertical_extent(piece, orientation)[0]


def _vertical_extent(piece: str, orientation: tuple[float, float, float, float]) -> tuple[float, float]:
    """The heights of the piece's lowest and highest points relative to its centre (metres),
    turned as given: from its visual mesh."""
    z = (piece_mesh(kind(piece)).positions @ rotation_matrix(orientation).T)[:, 2]
    return float(z.min()), float(z.max())


def _turned(place: Place, axis: int, degrees: float) -> Place:
    """`place` turned by `degrees` about the table's axis 0 (x), 1 (y) or 2 (z)."""
    half = math.radians(degrees) / 2
    step = [0.0, 0.0, 0.0, math.cos(half)]
    step[axis] = math.sin(half)
    now = euler_quaternion(place.roll_deg, place.pitch_deg, place.yaw_deg)
    roll, pitch, yaw = quaternion_euler(quat_multiply(tuple(step), now))
    return replace(place, roll_deg=round(roll, 6) + 0.0, pitch_deg=round(pitch, 6) + 0.0,
                   yaw_deg=round(yaw, 6) + 0.0)
