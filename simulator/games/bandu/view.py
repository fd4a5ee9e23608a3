"""Bandu's table in the window: lit wooden pieces in 3D, auctions on screen, placing with the mouse.

The view decides what is on the table and where (the towers at the settled poses the state
records, or at the frames of the physics being played back; the reserve at the table's ends,
games/bandu/table_layout.py; the piece up for auction, the held piece and its ghost, beans
and names) and turns input into actions; games/bandu/table_drawing.py draws it,
games/bandu/auction_bar.py is the bar at the top, and the rest is in parts of one job each:
the held piece and its ghost (aiming.py), the camera (table_camera.py), the physics played
back (playback.py) and the words (words.py).

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
from functools import partial
from typing import Any

from pyglet.graphics import Group
from pyglet.math import Vec3
from pyglet.window import key, mouse

from simulator.core.state import OUTCOME
from simulator.games.bandu import sounds, words
from simulator.games.bandu.aids import practice_aid_of
from simulator.games.bandu.aiming import GHOST_ON_TABLE, NUDGE_KEYS, TABLE_WARNING, TURNS, Aim, Held
from simulator.games.bandu.auction_bar import AuctionBar
from simulator.games.bandu.hint import HINT_SETTING, HintAdvisor
from simulator.games.bandu.playback import Playback, released
from simulator.games.bandu.practice import PracticeAid
from simulator.games.bandu.preview import LandingPreview
from simulator.games.bandu.referee import tower_axes
from simulator.games.bandu.rules import TAKE, BanduState, Offer
from simulator.games.bandu.table_camera import FALL_HOLD_SECONDS, TableCamera
from simulator.games.bandu.table_drawing import (
    Pose3,
    TableDrawing,
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
from simulator.render.game_view import GameView, ViewContext
from simulator.render.widgets import label
from simulator.render.wood import Drawn
from simulator.towers.pieces.catalogue import piece_name

LIFT_M = 0.035                    # a piece up for auction hovers this much above its place
HINT_GHOST = (0.3, 0.55, 1.0)     # the hint's ghost: where the strong player would release it
G_LABELS = Group(order=41)
_CTRL_KEYS = {key.LCTRL, key.RCTRL, key.LCOMMAND, key.RCOMMAND}


class BanduView(GameView[BanduState]):
    state_class = BanduState
    rules_summary = words.RULES
    controls: tuple[tuple[str, str], ...] = words.CONTROLS

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
        self.chosen: str | None = None          # the reserve piece a person picked to auction
        self.hovered: str | None = None
        self.tower_poses: dict[str, Pose3] = {}
        self.slots: dict[str, Pose3] = {}
        self.released: tuple[str, Pose3] | None = None   # a placement's piece awaiting its physics
        self._keys_down: set[int] = set()       # for Ctrl+wheel: the wheel event has no modifiers
        self._history_seen = len(self.controller.history)   # verdicts said so far
        self._out_said: set[int] = set()
        n = self.state.num_players
        self.places: list[SeatPlace] = seat_places(tower_axes(n))
        self.auction_spot = auction_spot(tower_axes(n))
        self.views = TableCamera(self.places, self.preview)
        self.camera = self.views.camera
        if self._alone():
            self.rules_summary = words.alone_rules(self.bandu)
            self.controls = words.alone_controls(self.hints is not None)
        self.drawing = TableDrawing(self.places)
        self.aim = Aim(self)
        self.playback = Playback(self.drawing)
        self.bar = AuctionBar(self.batch)
        self.seat_labels = [label("", size=10.5, batch=self.batch, group=G_LABELS, anchor_x="center",
                                  bold=True, multiline=True, width=130, align="center") for _ in range(n)]
        self.sync()

    @property
    def action_buttons(self) -> list[Any]:
        """The auction bar's buttons (visible or not), left to right."""
        return self.bar.buttons

    @property
    def held(self) -> Held | None:
        """The piece a person is placing (self.aim's), None when nothing is held."""
        return self.aim.held

    @property
    def ghost(self) -> Pose3 | None:
        """Where the held piece would first touch (self.aim's), None when nothing is held."""
        return self.aim.ghost

    def aim_height(self) -> float:
        """The height (metres) of the plane the pointer aims the held piece on (self.aim's)."""
        return self.aim.aim_height()

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
        self.released = released(state, self.preview)
        if state.phase != "place" or not self.may_act():
            self.aim.drop()
            self.hint = ""
            if self.hints is not None:
                self.hints.forget()
                self.hint_ghost = None
        else:
            self.aim.take(state.auction.piece)                                       # type: ignore[union-attr]
        if self.hovered not in self.slots:           # a piece taken from under the pointer
            self._forget_hover()
        if state.phase != "offer" or not self.may_act():
            self.chosen = None
        elif state.variant == "chain":
            self.chosen = state.legal_actions()[0].piece                           # type: ignore[union-attr]
        self._say_verdict()
        self.views.focus_on_play(self.bandu)
        self._refresh_hud()
        self.drawing.changed()

    def _say_verdict(self) -> None:
        """A physics result just applied: say it in the message line, once."""
        history = self.controller.history
        if len(history) > self._history_seen and history[-1].player == OUTCOME:
            sentence = self.describe_move(history[-1].action)
            fell = "fell" in sentence
            out = [self.seat_name(s) for s in range(self.bandu.players)
                   if not self.bandu.alive[s] and s not in self._out_said]
            self._out_said.update(s for s in range(self.bandu.players) if not self.bandu.alive[s])
            self.toast.show(words.verdict(sentence, out, self.bandu.players), error=fell)
            if fell and self.controller.paced():      # let people see it come down
                self.controller.hold_computers(FALL_HOLD_SECONDS)
                self.views.show_fall()
        self._history_seen = len(history)

    def focus_tower(self, seat: int) -> None:
        """Fly to `seat`'s tower, seen at the angle the player last chose over a tower."""
        self.views.focus_tower(self.bandu, seat)

    # --- the HUD ------------------------------------------------------------------------------------
    def _buttons_for_turn(self) -> list[tuple[str, Any]]:
        if not self.may_act() or self.controller.outcome_in_progress() is not None:
            return []
        return words.bar_choices(self.bandu, self.chosen)

    def _refresh_hud(self) -> None:
        state = self.bandu
        self._refresh_hud_text_only()
        self.bar.set_choices([(text, partial(self._choose, action)) for text, action in self._buttons_for_turn()])
        for seat, text_label in enumerate(self.seat_labels):
            text_label.text = f"{self.seat_name(seat)}\n{words.seat_status(state, seat)}"
            active = seat == self.controller.current_player() and not self.controller.is_over()
            text_label.color = (255, 214, 140, 255) if active else ((150, 140, 130, 255) if not state.alive[seat]
                                                                    else (240, 232, 220, 255))
        self._layout_hud()

    def _refresh_hud_text_only(self) -> None:
        controller = self.controller
        headline, subline = words.bar_text(self.bandu, self.chosen, self.seat_name, over=controller.is_over(),
                                           outcome_turn=controller.current_player() == OUTCOME,
                                           physics_shown=controller.outcome_in_progress() is not None)
        readout = self.aim.readout(self.facing()) if self.held is not None else ""
        # the aim's readout in the bar, seen at every window size; a release on the table in red
        self.bar.set_text(headline, readout or subline, warning=readout == TABLE_WARNING)

    def facing(self) -> tuple[float, float]:
        """The camera's forward direction on the table (for words like right and farther)."""
        eye, target = self.camera.eye(), self.camera.target
        return (target.x - eye.x, target.y - eye.y)

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
        self.views.fit_table(width, height)
        self._layout_hud()
        self._forget_hover()                     # the table moved under the pointer

    def _forget_hover(self) -> None:
        """No piece lit by the pointer until it moves again (a resize, a Cancel, a take)."""
        if self.hovered is not None:
            self.hovered = None
            self.hint = ""
            self.drawing.changed()

    # --- acting ----------------------------------------------------------------------------------
    def _choose(self, action: Any) -> None:
        if action is None:
            self.chosen = None
            self._forget_hover()
            self._refresh_hud()
            self.drawing.changed()
            return
        self.submit(action)

    def _release(self) -> None:
        """Release the held piece where its ghost is: the place the ghost was worked out for
        (never the pointer's position at the click, which Ctrl+wheel or a camera move since
        the last motion would put elsewhere)."""
        if self.aim.held is None:
            return
        self.aim.refresh_ghost()
        if self.submit(self.aim.held.place.rounded()):
            self.aim.drop()

    # --- clock and drawing ------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.views.fall_seen():
            self.views.focus_on_play(self.bandu)   # the fall has been seen: on with the game
        if self.camera.update(dt):
            self._place_seat_labels()
        self.playback.follow(self.controller.outcome_in_progress())
        self._hear_the_table()
        self.aim.refresh_ghost()
        if self.held is not None and self.practice is None:
            self.hint = "Click to release where the ghost shows (the bar above says where)."
        if self.practice is not None:
            held = self.held.place if self.held is not None else None
            if self.practice.update(self.bandu, self.bandu.placer, held):
                self.drawing.changed()
            if held is not None:
                self.hint = self.practice.sentence()
        self._follow_hint()
        self._refresh_hud_text_only()

    def _hear_the_table(self) -> None:
        """The knocks of the physics played back: a released piece landing, then every hard
        contact of the frames reached (a falling tower clatters)."""
        if self.playback.started:
            self.playback.started = False
            request = self.bandu.outcome_request()
            if request.get("kind") == "placement":
                self.play_sound(*sounds.placed(request["piece"]))
        for frame in self.playback.reached:
            for name, make, gain in sounds.knocks(frame):
                self.play_sound(name, make, gain)
        self.playback.reached.clear()

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

    def items(self) -> list[Drawn]:
        """What is on the table now, as the drawing draws it: the table, the towers (or their
        frames being played back), the reserve, the piece up for auction or released, the held
        piece with its ghosts, the beans."""
        state, scene = self.bandu, self.drawing
        items = [scene.table()]
        live = self.playback.live_poses()
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
            held_pose = self.aim.held_pose()
            if not self.views.from_above:           # from above it would hide its ghost
                items.append(scene.piece(self.held.place.piece, held_pose))
            if self.ghost is not None:
                tint = self.practice.colour() if self.practice is not None else None
                if self.aim.ghost_on_table():
                    tint = GHOST_ON_TABLE
                items.append(scene.piece(self.held.place.piece, self.ghost, ghost=True, tint=tint))
                items.append(scene.drop_line(held_pose[0], self.ghost[0][2]))
            if self.hint_ghost is not None and self.hints is not None and self.hints.answer is not None:
                items.append(scene.piece(self.hints.answer.piece, self.hint_ghost, ghost=True, tint=HINT_GHOST))
        items += [scene.beans(seat, state.beans[seat]) for seat in range(state.players) if state.beans[seat]]
        return items

    def draw(self) -> None:
        self.drawing.draw(self.context.window, self.area, self.camera, self.items,
                          self.bandu.placer if self.playback.frame is not None else -1)
        self.batch.draw()

    def close(self) -> None:
        self.drawing.close()
        self.preview.close()
        if self.practice is not None:
            self.practice.close()
        if self.hints is not None:
            self.hints.close()

    # --- input -------------------------------------------------------------------------------------
    def pick(self, x: float, y: float) -> str | None:
        """The clickable piece under the pointer (x, y): one the auctioneer may offer."""
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

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        if not self.contains(x, y):
            return None
        if self.held is not None:
            self.aim.follow_mouse(x, y)
            return True
        hovered = self.pick(x, y)
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
        picked = self.pick(x, y)
        if picked is not None:
            if picked == self.chosen and self._alone():  # building alone: a second click takes it
                self.submit(Offer(picked, TAKE))
                return True
            self.chosen = picked
            self._refresh_hud()
            self.drawing.changed()
            return True
        return None

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        if self.camera.on_mouse_drag(x, y, dx, dy, buttons, modifiers):
            self._place_seat_labels()
            if self.held is not None:
                self.views.keep_placing_angles(self.bandu.placer)
            return True
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        if not self.contains(x, y):
            return None
        if self.held is not None and self._keys_down & _CTRL_KEYS:
            self.aim.raise_by(scroll_y)
            return True
        self.camera.on_mouse_scroll(x, y, scroll_x, scroll_y, self.area)   # towards the pointer
        self._place_seat_labels()
        self.on_mouse_motion(x, y, 0, 0)         # what is under the pointer now (the hover)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        self._keys_down.add(symbol)
        if not self.enabled:
            return None
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        if self.held is not None and symbol in TURNS and not ctrl:
            self.aim.turn(symbol, modifiers)
            return True
        if self.held is not None and symbol in NUDGE_KEYS and not ctrl:
            self.aim.nudge(symbol, modifiers, self.facing())
            return True
        if symbol in (key._1, key._2, key._3) and self.bar.press(symbol - key._1):
            return True
        if symbol == key.T and not ctrl:
            seat = self.bandu.placer if self.bandu.phase == "place" else self.bandu.auctioneer
            self.focus_tower(max(seat, 0))
            return True
        if symbol == key.HOME:
            self.camera.reset()
            return True
        if symbol == key.M and not ctrl:
            self.toast.show(self.aim.toggle_magnet())
            return True
        if symbol == key.V and not ctrl:
            self.toast.show(self.views.next_view(self.bandu))
            return True
        if symbol == key.G and not ctrl:
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
                self.aim.drop()
                self.hint_ghost = None
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
        return words.seat_detail(self.bandu, seat)

    def prompt(self) -> str:
        return words.prompt(self.bandu, self.chosen)

    def result_text(self) -> str:
        return words.result_text(self.bandu)

    def still_showing(self) -> bool:
        """The physics played back, or a fall held in view: the end screen waits for it."""
        return self.playback.frame is not None or self.views.holding_on_a_fall()

    def describe_move(self, notation: str) -> str:
        """A move as a person says it: pieces by their names ('offers the wide cylinder to
        refuse'), a physics result without its poses ('the tower stands', 'Player 2's tower
        fell')."""
        return words.describe_move(self.bandu, notation, self.seat_name)
