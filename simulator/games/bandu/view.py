"""Bandu's table in the window: lit wooden pieces in 3D, auctions on screen, placing with the mouse.

The scene (render/wood.py, render/meshes.py): a wooden table, every player's tower where the
referee stands it, the reserve at both ends of the table (games/bandu/table_layout.py), a pile
of beans and a name in front of each player. Towers are drawn at the settled poses the state
records; while the physics settles a placement (the live resolver, core/outcomes.py) the view
plays its frames back in real time, interpolated, so a fall is seen as it happened.

A person's turn, by phase:
- offer: hover a piece of the reserve (or, with the reserve empty, of their own tower), click
  it, then choose the auction with the buttons (or keys 1, 2);
- refuse / acquire: the buttons Accept / Refuse (1 bean) or Bid n / Pass (keys 1, 2);
- place: the piece floats above the tower and follows the mouse on a plane above the tower's
  top; Q/E turn it about the vertical, R/F and Z/C tilt it (Shift: fine steps), Ctrl+wheel
  raises or lowers it, a ghost shows where it would first touch (games/bandu/preview.py: pure
  geometry, never an outcome) and a left click releases it there, at rest.
The camera: right drag orbits, middle drag (or Shift+right drag) pans, the wheel zooms, Tab
flies to the tower in play, Home back to the whole table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import Any

import numpy as np
from pyglet import gl, shapes
from pyglet.graphics import Group
from pyglet.math import Mat4, Vec3
from pyglet.window import key, mouse

from simulator.core.state import OUTCOME
from simulator.games.bandu.preview import LandingPreview, held_orientation
from simulator.games.bandu.referee import tower_axes
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
from simulator.games.bandu.table_layout import (
    SeatPlace,
    auction_spot,
    bean_offsets,
    reserve_slots,
    seat_places,
)
from simulator.physics.placement import most_stable_orientation
from simulator.physics.table import TABLE_HALF_EXTENTS_M
from simulator.pieces.meshes import load_piece
from simulator.render import theme
from simulator.render.camera import OrbitCamera
from simulator.render.game_view import GameView, ViewContext
from simulator.render.meshes import MeshData, MeshShelf, box_mesh, ellipsoid_mesh, merged, read_obj
from simulator.render.offscreen import OffscreenPicture
from simulator.render.scene3d import camera_pass
from simulator.render.widgets import Button, label
from simulator.render.wood import Drawn, Surface, WoodRenderer, pose_matrix

Pose3 = tuple[tuple[float, float, float], tuple[float, float, float, float]]   # metres, quaternion

TABLE_SURFACE = Surface((0.50, 0.32, 0.19), grain=True, ring_spacing=0.011, gloss=0.25)
STEM_SURFACE = Surface((0.75, 0.9, 1.0), alpha=0.5, casts_shadow=False)
ROOM = (0.11, 0.085, 0.07)        # the dim room around the lit table
BEAN_SURFACE = Surface((0.55, 0.12, 0.08), gloss=0.6)
HOVER_TINT = 0.5                  # how far a piece under the mouse or picked turns to GLOW
GLOW = (1.0, 0.78, 0.3)
TURN_STEP, FINE_STEP = 15.0, 3.0  # degrees per key press
HOVER_RANGE_M = (0.01, 0.20)      # how high the held piece floats above the tower's top
PATCH_M = 0.35                    # the table around a moving tower, redrawn with it
LIFT_M = 0.035                    # a piece up for auction hovers this much above its place
G_HUD, G_HUD_TEXT = Group(order=40), Group(order=41)


@dataclass(frozen=True)
class Held:
    """The piece a person is placing, as they hold it: a Place and how high it floats."""
    place: Place
    hover_m: float = 0.06


def _axis_vector(name: str) -> tuple[float, float, float]:
    return {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0)}.get(name, (0.0, 0.0, 1.0))


@cache
def _surface(piece: str) -> Surface:
    asset = load_piece(piece)
    material = asset.spec.material
    return Surface(material.colour, grain=material.grain,
                   grain_axis=_axis_vector(str(asset.facts.get("grain_axis", "x"))),
                   ring_spacing=0.0035, gloss=0.75 if material.glossy else 0.15)


def _quat_multiply(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def _rotation(quaternion: tuple[float, ...]) -> np.ndarray:
    """The 3x3 rotation matrix of a quaternion (x, y, z, w)."""
    x, y, z, w = quaternion
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


@cache
def _mesh_data(piece: str) -> MeshData:
    return read_obj(load_piece(piece).visual_path.read_text(encoding="utf-8"))


@cache
def _lying(piece: str) -> tuple[tuple[float, float, float, float], float, tuple[float, float]]:
    """How a reserve piece lies: its orientation (most stable face down, longer side along y),
    the height of its centre of mass and its footprint (x, y) in metres."""
    orientation = most_stable_orientation(piece)
    points = _mesh_data(piece).positions @ _rotation(orientation).T
    extent = points.max(axis=0) - points.min(axis=0)
    if extent[0] > extent[1]:
        turn = (0.0, 0.0, math.sin(math.pi / 4), math.cos(math.pi / 4))
        orientation = _quat_multiply(turn, orientation)
        points = _mesh_data(piece).positions @ _rotation(orientation).T
        extent = points.max(axis=0) - points.min(axis=0)
    return orientation, float(-points[:, 2].min()), (float(extent[0]), float(extent[1]))


def table_patch(low: tuple[float, float], high: tuple[float, float], top: float) -> MeshData:
    """A rectangle of the table's top face, in the table's frame (its top at z = `top`)."""
    corners = [(low[0], low[1], top), (high[0], low[1], top), (high[0], high[1], top), (low[0], high[1], top)]
    return MeshData(np.asarray(corners, np.float32), np.tile(np.array([0, 0, 1], np.float32), (4, 1)),
                    np.asarray([0, 1, 2, 0, 2, 3], np.uint32))


def bean_pile(count: int) -> MeshData:
    """`count` beans in a loose pile, one mesh (table_layout.bean_offsets)."""
    bean = ellipsoid_mesh((0.0065, 0.0045, 0.0032))
    parts = []
    for dx, dy, dz, yaw in bean_offsets(count):
        turn = (0.0, 0.0, math.sin(math.radians(yaw) / 2), math.cos(math.radians(yaw) / 2))
        transform = np.eye(4)
        transform[:3, :3], transform[:3, 3] = _rotation(turn), (dx, dy, dz)
        parts.append((bean, transform))
    return merged(parts)


def _blend(a: tuple[float, ...], b: tuple[float, ...], t: float) -> Pose3:
    """Between two frame poses (x y z qx qy qz qw): positions lerped, rotations nlerped."""
    position = tuple(a[k] + (b[k] - a[k]) * t for k in range(3))
    qa, qb = a[3:], b[3:]
    sign = -1.0 if sum(x * y for x, y in zip(qa, qb, strict=True)) < 0 else 1.0
    q = [x + (sign * y - x) * t for x, y in zip(qa, qb, strict=True)]
    norm = math.sqrt(sum(v * v for v in q)) or 1.0
    return (position[0], position[1], position[2]), (q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm)


def _wrap(angle: float) -> float:
    return (angle + 180.0) % 360.0 - 180.0 if abs(angle) > 180.0 else angle


class BanduView(GameView):
    rules_summary = (
        "Each turn the auctioneer picks a piece from the reserve and auctions it. To refuse: "
        "each player from the left accepts it or pays 1 bean to pass it on, round and round "
        "until someone accepts (a player without beans must). To acquire: bid exactly one bean "
        "more or pass for good; the highest bidder pays and takes it, and if nobody bids the "
        "auctioneer gets it free. Whoever gets the piece places it on their own tower. Only the "
        "base may touch the table: a tower that falls knocks its builder out, their pieces "
        "return to the reserve. The last tower standing wins. With the reserve empty, the "
        "auctioneer auctions a piece from their own tower (not the one placed last).")
    controls = (
        ("Click", "pick a reserve piece; release the held piece"),
        ("1, 2, 3", "the auction buttons in order"),
        ("Q / E", "turn the held piece about the vertical"),
        ("R / F", "tilt it forward / back"),
        ("Z / C", "tilt it left / right"),
        ("Shift", "with Q E R F Z C: fine steps"),
        ("Ctrl+wheel", "hold the piece higher or lower"),
        ("Right drag", "orbit the camera"),
        ("Middle drag", "pan (or Shift+right drag)"),
        ("Wheel", "zoom"),
        ("Tab", "fly to the tower in play"),
        ("Home", "the whole table"),
    )

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        self.preview = LandingPreview()
        self.camera = OrbitCamera(yaw=-90.0, pitch=50.0, distance=2.0, target=Vec3(0.0, 0.07, 0.0),
                                  min_distance=0.12, max_distance=4.5, fov=40.0)
        self.renderer = WoodRenderer(Vec3(0.0, 0.0, 0.0), 1.0)
        self.pieces = MeshShelf(_mesh_data)
        self.fixtures = MeshShelf(self._fixture)
        self.held: Held | None = None
        self.ghost: Pose3 | None = None
        self.chosen: str | None = None          # the reserve piece a person picked to auction
        self.hovered: str | None = None
        self.mouse = (0.0, 0.0)
        self.tower_poses: dict[str, Pose3] = {}
        self.slots: dict[str, Pose3] = {}
        self._ghost_dirty = False
        self._shadows_dirty = True
        self._scene_version = 0
        self._still_version = 0                 # bumps when what stands still changed
        self._layer_key: tuple = ()             # what the picture's still layer shows
        self._drawn_key: tuple = ()
        self._smooth_pending = False
        self.picture = OffscreenPicture()
        self._last_frame: Any = None
        self._pending: Any = None                # the outcome being played back
        self._fallen_frame: dict[str, tuple[float, ...]] = {}
        self._focus_key: tuple = ()
        self._keys_down: set[int] = set()
        self._history_seen = len(self.controller.history)   # verdicts said so far
        self._out_said: set[int] = set()        # for Ctrl+wheel: the wheel event has no modifiers
        n = self.state.num_players
        self.places: list[SeatPlace] = seat_places(tower_axes(n))
        self.auction_spot = auction_spot(tower_axes(n))
        self.panel = shapes.RoundedRectangle(0, 0, 10, 10, radius=10, segments=6, color=(26, 20, 16, 215),
                                             batch=self.batch, group=G_HUD)
        self.headline = label("", size=14, batch=self.batch, group=G_HUD_TEXT, bold=True, anchor_x="center")
        self.subline = label("", size=11.5, batch=self.batch, group=G_HUD_TEXT, anchor_x="center",
                             color=theme.TEXT_DIM)
        self.action_buttons: list[Button] = [Button("", lambda: None, self.batch, size=13, width=150, height=36,
                                                    group=G_HUD, text_group=G_HUD_TEXT) for _ in range(3)]
        self.seat_labels = [label("", size=10.5, batch=self.batch, group=G_HUD_TEXT, anchor_x="center",
                                  bold=True, multiline=True, width=130, align="center") for _ in range(n)]
        self.sync()

    def _fixture(self, name: str) -> MeshData:
        """The meshes that are not pieces: the table, a pile of n beans, the drop line, and the
        patch of table top around a seat's tower (in the table's own frame)."""
        kind, _, number = name.partition(" ")
        if kind == "beans":
            return bean_pile(int(number))
        if kind == "patch":
            x, y = self.places[int(number)].axis
            half = TABLE_HALF_EXTENTS_M
            return table_patch((max(x - PATCH_M, -half[0]), max(y - PATCH_M, -half[1])),
                               (min(x + PATCH_M, half[0]), min(y + PATCH_M, half[1])), half[2])
        if kind == "stem":
            return box_mesh((0.5, 0.5, 0.5))
        return box_mesh(TABLE_HALF_EXTENTS_M)

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

    def _my_turn(self) -> bool:
        return self.enabled and self.controller.is_person_turn() and not self.controller.is_over()

    def sync(self) -> None:
        state = self.bandu
        self._follow_outcome()
        self.tower_poses = {piece: (tuple(pose[0]), tuple(pose[1]))            # type: ignore[misc]
                            for piece, pose in self.preview.tower_poses(state).items()}
        for seat in range(state.players):        # a fallen solo tower: where its pieces came down
            if not state.alive[seat]:
                for piece in state.towers[seat]:
                    fallen = self._fallen_frame.get(piece)
                    if fallen is None:
                        self.tower_poses.pop(piece, None)
                    else:
                        self.tower_poses[piece] = (fallen[:3], fallen[3:])       # type: ignore[assignment]
        lying = {piece: _lying(piece) for piece in state.reserve}
        centres = reserve_slots(state.reserve, lambda piece: lying[piece][2])
        self.slots = {piece: ((x, y, lying[piece][1]), lying[piece][0]) for piece, (x, y) in centres.items()}
        if state.phase != "place" or not self._my_turn():
            self.held, self.ghost = None, None
            self.hint = ""
        elif self.held is None or self.held.place.piece != state.auction.piece:  # type: ignore[union-attr]
            self.held = Held(Place(state.auction.piece))                           # type: ignore[union-attr]
            self._ghost_dirty = True
        if state.phase != "offer" or not self._my_turn():
            self.chosen = None
        elif state.variant == "chain":
            self.chosen = state.legal_actions()[0].piece                           # type: ignore[union-attr]
        self._say_verdict()
        self._focus_on_play()
        self._refresh_hud()
        self._changed()

    def _say_verdict(self) -> None:
        """A physics result just applied: say it in the message line, once."""
        history = self.controller.history
        if len(history) > self._history_seen and history[-1].player == OUTCOME:
            sentence = self.describe_move(history[-1].action)
            fell = "fell" in sentence
            out = [self.seat_name(s) for s in range(self.bandu.players)
                   if not self.bandu.alive[s] and s not in self._out_said]
            self._out_said.update(s for s in range(self.bandu.players) if not self.bandu.alive[s])
            extra = f": {' and '.join(out)} {'is' if len(out) == 1 else 'are'} out" if out else ""
            self.toast.show(sentence[0].upper() + sentence[1:] + extra + ".", error=fell)
        self._history_seen = len(history)

    def _focus_on_play(self) -> None:
        """Fly to the tower a piece is going to; back over the table when a new auction begins."""
        state = self.bandu
        key_now: tuple = (state.phase, state.placer if state.phase == "place" else state.auctioneer)
        if key_now == self._focus_key:
            return
        self._focus_key = key_now
        if state.phase == "place":
            self.focus_tower(state.placer)
        elif state.phase in ("offer", "over"):
            self.camera.reset()

    def focus_tower(self, seat: int) -> None:
        place = self.places[seat]
        top = self.preview.tower_top(self.bandu, seat)
        self.camera.glide_to(Vec3(place.axis[0], place.axis[1], top * 0.6 + 0.02),
                             distance=max(0.55, top * 2.5 + 0.45),
                             yaw=-90.0 if place.facing > 0 else 90.0, pitch=28.0)

    # --- the HUD ------------------------------------------------------------------------------------
    def _buttons_for_turn(self) -> list[tuple[str, Any]]:
        state = self.bandu
        if not self._my_turn() or self.controller.outcome_in_progress() is not None:
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
        head, sub = self._auction_text(state)
        self.headline.text, self.subline.text = head, sub
        choices = self._buttons_for_turn()
        for button, choice in zip(self.action_buttons, [*choices, None, None, None], strict=False):
            if choice is None:
                button.set_visible(False)
                continue
            text, action = choice
            button.set_text(text)
            button.on_click = partial(self._choose, action)
            button.set_visible(True)
        for seat, text_label in enumerate(self.seat_labels):
            beans = state.beans[seat]
            status = "out" if not state.alive[seat] else f"{beans} bean{'s' if beans != 1 else ''}"
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
            piece = state.auction.piece if state.auction else "the piece"
            return f"{piece}: will the tower stand?", "The physics decides; wait for the tower to settle."
        auction = state.auction
        if state.phase == "offer":
            where = "the reserve" if state.reserve else "their own tower"
            chosen = f" · picked: {self.chosen}" if self.chosen else ""
            return (f"{name(state.auctioneer)} chooses a piece from {where}{chosen}",
                    f"{len(state.reserve)} pieces in the reserve")
        if auction is None:
            return "", ""
        if state.phase == REFUSE:
            return (f"Auction to refuse: {auction.piece}",
                    f"{name(auction.responder)} accepts or pays 1 bean to pass it on"
                    f" · {auction.refusals} refused so far")
        if state.phase == ACQUIRE:
            high = (f"high bid {auction.high_bid} by {name(auction.high_bidder)}" if auction.high_bid
                    else "no bid yet")
            return f"Auction to acquire: {auction.piece}", f"{name(auction.responder)} to bid or pass · {high}"
        if state.phase == "place":
            return f"{name(state.placer)} places {auction.piece}", "Only the base may touch the table."
        return "", ""

    def _layout_hud(self) -> None:
        ax, ay, width, height = self.area
        centre = ax + width / 2
        visible = [b for b in self.action_buttons if b.visible]
        panel_height = 58 + (50 if visible else 0)
        self.panel.position = (centre - min(width - 20, 620) / 2, ay + height - panel_height - 10)
        self.panel.width, self.panel.height = min(width - 20, 620), panel_height
        self.headline.position = (centre, ay + height - 36, 0)
        self.subline.position = (centre, ay + height - 58, 0)
        total = sum(b.width for b in visible) + 12 * max(len(visible) - 1, 0)
        x = centre - total / 2
        for button in visible:
            button.place(x, ay + height - panel_height - 2)
            x += button.width + 12
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
            self._changed()
            return
        self.submit(action)

    def _release(self) -> None:
        if self.held is None:
            return
        place = self.held.place.rounded()
        if self.submit(place):
            self.held, self.ghost = None, None

    # --- clock and drawing ------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.camera.update(dt):
            self._place_seat_labels()
        pending = self._follow_outcome()
        frame = getattr(pending, "frame", None)
        if frame is not None:
            now = frame()
            if now is not None and now != self._last_frame:
                if self._last_frame is None:
                    self._changed()                   # the settling tower starts to move
                self._last_frame = now
                self._moved()
        elif self._last_frame is not None:
            self._last_frame = None
            self._changed()
        if self._ghost_dirty and self.held is not None:
            self._ghost_dirty = False
            position, orientation = self.preview.landing(self.bandu, self.bandu.placer, self.held.place)
            self.ghost = (tuple(position), tuple(orientation))                       # type: ignore[assignment]
            self._changed()
        self._refresh_hud_text_only()

    def _follow_outcome(self) -> Any:
        """The outcome in progress; when the one played back is over, keep where its pieces
        ended (a fallen tower that stays on the table, in a solo game, is drawn that way)."""
        pending = self.controller.outcome_in_progress()
        if pending is not self._pending:
            timeline = getattr(self._pending, "timeline", None)
            frames = timeline.at(timeline.end) if timeline is not None else None
            if frames is not None:
                self._fallen_frame = dict(frames[0])
            self._pending = pending
        return pending

    def _refresh_hud_text_only(self) -> None:
        head, sub = self._auction_text(self.bandu)
        if (head, sub) != (self.headline.text, self.subline.text):
            self.headline.text, self.subline.text = head, sub

    def _items(self) -> list[Drawn]:
        state = self.bandu
        fixtures = self.fixtures
        items = [Drawn(fixtures.get("table"), Mat4.from_translation(Vec3(0.0, 0.0, -TABLE_HALF_EXTENTS_M[2])),
                       TABLE_SURFACE)]
        live = self._live_poses()
        settling = set(state.towers[state.placer]) if live is not None and state.placer >= 0 else set()
        for piece, pose in self.tower_poses.items():
            shown = live.get(piece, pose) if live is not None else pose
            items.append(self._piece(piece, shown, moving=piece in settling))
        if live is not None:                          # the piece being released, not yet in the state
            for piece, pose in live.items():
                if piece not in self.tower_poses:
                    items.append(self._piece(piece, pose, moving=True))
        for piece, (position, orientation) in self.slots.items():
            if live is not None and piece in live:
                continue
            lift = LIFT_M if piece == self.chosen else 0.012 if piece == self.hovered else 0.0
            items.append(self._piece(piece, ((position[0], position[1], position[2] + lift), orientation),
                                     bright=piece in (self.hovered, self.chosen)))
        offered = state.auction.piece if state.auction is not None else None
        if (offered is not None and offered not in self.tower_poses and self.held is None
                and live is None):                    # up for auction: in the middle of the table
            orientation, height, _ = _lying(offered.split("#", 1)[0])
            items.append(self._piece(offered, ((*self.auction_spot, height + LIFT_M), orientation), bright=True))
        if self.held is not None:
            held_pose = self._held_pose()
            items.append(self._piece(self.held.place.piece, held_pose))
            if self.ghost is not None:
                items.append(self._piece(self.held.place.piece, self.ghost, alpha=0.38))
                # a thin line from the held piece down to where it would touch
                (hx, hy, hz), (gz) = held_pose[0], self.ghost[0][2]
                length = max(hz - gz, 1e-4)
                items.append(Drawn(fixtures.get("stem"), Mat4.from_translation(Vec3(hx, hy, gz + length / 2))
                                   @ Mat4.from_scale(Vec3(0.0012, 0.0012, length)), STEM_SURFACE))
        for seat, place in enumerate(self.places):
            if state.beans[seat]:
                items.append(Drawn(fixtures.get(f"beans {state.beans[seat]}"), Mat4.from_translation(
                    Vec3(place.beans_at[0], place.beans_at[1], 0.0032)), BEAN_SURFACE))
        return items

    def _piece(self, piece: str, pose: Pose3, alpha: float = 1.0, bright: bool = False,
               moving: bool = False) -> Drawn:
        surface = _surface(piece)
        if bright:
            surface = replace(surface, colour=tuple(c + (g - c) * HOVER_TINT for c, g in zip(surface.colour, GLOW, strict=True)))  # type: ignore[arg-type]
        if alpha < 1.0:
            surface = replace(surface, alpha=alpha, colour=(0.75, 0.9, 1.0), grain=False)
        return Drawn(self.pieces.get(piece.split("#", 1)[0]), pose_matrix(*pose), surface, moving)

    def _live_poses(self) -> dict[str, Pose3] | None:
        if self._last_frame is None:
            return None
        before, after, blend = self._last_frame
        return {piece: _blend(pose, after.get(piece, pose), blend) for piece, pose in before.items()}

    def _held_pose(self) -> Pose3:
        assert self.held is not None
        state = self.bandu
        axis = self.places[state.placer].axis
        place = self.held.place
        top = self.preview.tower_top(state, state.placer)
        orientation = held_orientation(place)
        lowest = float((_mesh_data(place.piece.split("#", 1)[0]).positions @ _rotation(orientation).T)[:, 2].min())
        return ((axis[0] + place.x_mm / 1000, axis[1] + place.y_mm / 1000, top + self.held.hover_m - lowest),
                tuple(orientation))                                                  # type: ignore[return-value]

    def _changed(self) -> None:
        """Something in the scene changed: draw the picture and all the shadows again."""
        self._scene_version += 1
        self._still_version += 1
        self._shadows_dirty = True

    def _moved(self) -> None:
        """A new frame of the physics: the picture again, the shadows of what moves."""
        self._scene_version += 1
        self._shadows_dirty = True

    def draw(self) -> None:
        ax, ay, width, height = self.area
        ratio = self.context.window.get_pixel_ratio()
        pixels = (max(1, int(width * ratio)), max(1, int(height * ratio)))
        camera = self.camera
        key_now = (self._scene_version, pixels, camera.yaw, camera.pitch, camera.distance, tuple(camera.target))
        if key_now != self._drawn_key or not self.picture.valid:
            self._render(pixels, smooth=False)          # moving: plain, fast frames
            self._drawn_key, self._smooth_pending = key_now, True
        elif self._smooth_pending:
            self._render(pixels, smooth=True)           # still again: once more, anti-aliased
            self._smooth_pending = False
        self.picture.present(int(ax * ratio), int(ay * ratio))
        self.batch.draw()

    def _render(self, pixels: tuple[int, int], smooth: bool) -> None:
        items = self._items()
        if self._shadows_dirty:
            self.renderer.render_shadows(items, self._still_version)
            self._shadows_dirty = False
        window, camera, renderer, picture = self.context.window, self.camera, self.renderer, self.picture
        aspect = pixels[0] / pixels[1]
        moving = [item for item in items if item.moving]
        seat = self.bandu.placer
        if smooth or not moving or seat < 0:

            def whole() -> None:
                with camera_pass(window, aspect, camera, ROOM):
                    renderer.draw(items, camera.eye())

            picture.render(*pixels, whole, smooth)
        else:
            # what stands still once, shadowed by what stands still; then each frame only the
            # moving pieces and the table around them, which their shadows fall on
            layer_key = (self._still_version, pixels, camera.yaw, camera.pitch, camera.distance,
                         tuple(camera.target))
            if layer_key != self._layer_key:
                still = [item for item in items if not item.moving]

                def layer() -> None:
                    with camera_pass(window, aspect, camera, ROOM):
                        renderer.draw(still, camera.eye(), still_shadows=True)

                picture.render_layer(*pixels, layer)
                self._layer_key = layer_key
            patch = Drawn(self.fixtures.get(f"patch {seat}"), items[0].model, TABLE_SURFACE)

            def frame() -> None:
                picture.restore_layer()
                with camera_pass(window, aspect, camera, clear=False):
                    renderer.draw_over([patch], camera.eye())
                    renderer.draw(moving, camera.eye())

            picture.render(*pixels, frame, smooth=False)
        gl.glViewport(0, 0, *window.get_framebuffer_size())

    def close(self) -> None:
        self.picture.delete()
        self.renderer.delete()
        self.pieces.delete()
        self.fixtures.delete()
        self.preview.close()

    # --- input -------------------------------------------------------------------------------------
    def _pick(self, x: float, y: float) -> str | None:
        """The clickable piece under the pointer: one the auctioneer may offer."""
        state = self.bandu
        if state.phase != "offer" or not self._my_turn() or state.variant == "chain":
            return None
        offerable = {a.piece for a in state.legal_actions() if isinstance(a, Offer)}
        origin, direction = self.camera.ray(x, y, self.area)
        best, nearest = None, math.inf
        for piece in offerable:
            pose = self.slots.get(piece) or self.tower_poses.get(piece)
            if pose is None:
                continue
            distance = _ray_hits_box(origin, direction, pose, _mesh_data(piece.split("#", 1)[0]))
            if distance is not None and distance < nearest:
                best, nearest = piece, distance
        return best

    def _follow_mouse(self, x: float, y: float) -> None:
        """Move the held piece to where the pointer is, on the plane it floats on."""
        if self.held is None:
            return
        state = self.bandu
        axis = self.places[state.placer].axis
        height = self._held_pose()[0][2]
        origin, direction = self.camera.ray(x, y, self.area)
        if abs(direction.z) < 1e-6:
            return
        t = (height - origin.z) / direction.z
        if t <= 0:
            return
        limit = REACH_MM - 0.5
        dx = max(-limit, min(limit, (origin.x + direction.x * t - axis[0]) * 1000))
        dy = max(-limit, min(limit, (origin.y + direction.y * t - axis[1]) * 1000))
        self.held = replace(self.held, place=replace(self.held.place, x_mm=dx, y_mm=dy))
        self._ghost_dirty = True

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        self.mouse = (x, y)
        if not self.contains(x, y):
            return None
        if self.held is not None:
            self._follow_mouse(x, y)
            self.hint = "Click to release the piece where the ghost shows."
            return True
        hovered = self._pick(x, y)
        if hovered != self.hovered:
            self.hovered = hovered
            self._changed()
        self.hint = f"Click to auction {hovered}." if hovered else ""
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if not self.contains(x, y) or not self.enabled or button != mouse.LEFT:
            return None
        for action_button in self.action_buttons:
            if action_button.visible and action_button.contains(x, y):
                action_button.click()
                return True
        if (self.panel.x <= x <= self.panel.x + self.panel.width
                and self.panel.y <= y <= self.panel.y + self.panel.height):
            return True
        if self.held is not None and self.controller.outcome_in_progress() is None:
            self._follow_mouse(x, y)
            self._release()
            return True
        picked = self._pick(x, y)
        if picked is not None:
            self.chosen = picked
            self._refresh_hud()
            self._changed()
            return True
        return None

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        if self.camera.on_mouse_drag(x, y, dx, dy, buttons, modifiers):
            self._place_seat_labels()
            return True
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        if not self.contains(x, y):
            return None
        if self.held is not None and self._keys_down & _CTRL_KEYS:
            low, high = HOVER_RANGE_M
            self.held = replace(self.held, hover_m=min(high, max(low, self.held.hover_m + 0.01 * scroll_y)))
            self._changed()
            return True
        self.camera.on_mouse_scroll(x, y, scroll_x, scroll_y)
        self._place_seat_labels()
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        self._keys_down.add(symbol)
        if not self.enabled:
            return None
        if self.held is not None and symbol in _TURNS:
            step = FINE_STEP if modifiers & key.MOD_SHIFT else TURN_STEP
            field_name, sign = _TURNS[symbol]
            place = self.held.place
            value = _wrap(getattr(place, field_name) + sign * step)
            self.held = replace(self.held, place=replace(place, **{field_name: value}))  # type: ignore[arg-type]
            self._ghost_dirty = True
            return True
        if symbol in (key._1, key._2, key._3):
            visible = [b for b in self.action_buttons if b.visible]
            index = symbol - key._1
            if index < len(visible):
                visible[index].click()
                return True
        if symbol == key.TAB:
            seat = self.bandu.placer if self.bandu.phase == "place" else self.bandu.auctioneer
            self.focus_tower(max(seat, 0))
            return True
        if symbol == key.HOME:
            self.camera.reset()
            return True
        return None

    def on_key_release(self, symbol: int, modifiers: int) -> bool | None:
        self._keys_down.discard(symbol)
        return None

    # --- text for the shared panel ----------------------------------------------------------------
    def seat_detail(self, seat: int) -> str:
        state = self.bandu
        if not state.alive[seat]:
            return "out"
        pieces = len(state.towers[seat]) - (0 if state.variant == "challenge" else 1)
        return f"{state.beans[seat]} beans · {pieces} on the tower"

    def prompt(self) -> str:
        state = self.bandu
        if state.phase == "offer":
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
            return f"The last tower standing, {_count(built, 'piece')} on its base."
        return ""

    def describe_move(self, notation: str) -> str:
        """A physics result without its poses: 'the tower stands', 'Player 2's tower fell'."""
        if not notation.startswith("result "):
            return notation
        verdict = notation.split(" poses ", 1)[0].removeprefix("result ")
        if verdict == "stood":
            return "the tower stands"
        seats = [int(s) for s in verdict.removeprefix("fell: ").split(",") if s.strip().isdigit()]
        names = " and ".join(f"{self.seat_name(s)}'s" for s in seats if 0 <= s < self.bandu.players)
        return f"{names or 'a'} tower fell"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_CTRL_KEYS = {key.LCTRL, key.RCTRL, key.LCOMMAND, key.RCOMMAND}
_TURNS = {key.Q: ("yaw_deg", 1.0), key.E: ("yaw_deg", -1.0), key.R: ("pitch_deg", 1.0),
          key.F: ("pitch_deg", -1.0), key.Z: ("roll_deg", -1.0), key.C: ("roll_deg", 1.0)}


def _ray_hits_box(origin: Vec3, direction: Vec3, pose: Pose3, mesh: MeshData) -> float | None:
    """How far along the ray it meets the piece's bounding box (its own axes), or None."""
    rotation = _rotation(pose[1])
    local_origin = rotation.T @ (np.array(tuple(origin)) - np.array(pose[0]))
    local_direction = rotation.T @ np.array(tuple(direction))
    low, high = mesh.bounds
    near, far = -math.inf, math.inf
    for axis in range(3):
        if abs(local_direction[axis]) < 1e-12:
            if not low[axis] <= local_origin[axis] <= high[axis]:
                return None
            continue
        t1 = (low[axis] - local_origin[axis]) / local_direction[axis]
        t2 = (high[axis] - local_origin[axis]) / local_direction[axis]
        near, far = max(near, min(t1, t2)), min(far, max(t1, t2))
    if near > far or far < 0:
        return None
    return float(max(near, 0.0))
