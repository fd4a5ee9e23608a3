"""Bandu's camera over the table: flying to the tower in play (at the view its player chose
with V: the default angle, from above, from the side, or their own angle, the one they last
orbited to), back over the table when a new auction begins, holding on a fall until it has been
seen, and far enough back for the whole table. Each seat keeps its own view and angle, so one
person's orbit never becomes the next person's view.
"""

from __future__ import annotations

import math
import time

from pyglet.math import Vec3

from simulator.games.bandu.preview import LandingPreview
from simulator.games.bandu.rules import BanduState
from simulator.games.bandu.table_layout import SeatPlace
from simulator.render.camera import OrbitCamera

FALL_HOLD_SECONDS = 1.6           # a fallen tower stays in view this long before play moves on
PLACING_PITCH_DEG = 28.0  # the camera over a tower being built, until the player orbits
# V goes round these views of the tower being built (pitch in degrees; None: the seat's own
# angle): from above, the held piece is not drawn, so it never hides its ghost
DEFAULT, TOP, SIDE, OWN = range(4)
VIEWS = (("the default angle", PLACING_PITCH_DEG), ("from above", 89.0), ("from the side", 4.0),
         ("your own angle", None))


class TableCamera:
    """The OrbitCamera over the table at `places`, and where it flies as play goes on."""

    def __init__(self, places: list[SeatPlace], preview: LandingPreview) -> None:
        self.camera = OrbitCamera(yaw=-90.0, pitch=50.0, distance=2.0, target=Vec3(0.0, 0.07, 0.0),
                                  min_distance=0.12, max_distance=4.5, fov=40.0)
        self.places = places
        self.preview = preview
        # the camera over a tower being built, per seat: the view V chose, and the seat's own
        # angle (yaw turned from the seat's side, pitch), kept from one placement to the next
        self._views: dict[int, int] = {}
        self._own_angles: dict[int, tuple[float, float]] = {}
        self._seat = 0                          # the seat whose tower the camera flew to
        self._focus_key: tuple = ()
        self._fall_shown_until = 0.0            # the camera stays on a fall until then

    @property
    def from_above(self) -> bool:
        """Is the tower in view seen from above (where the held piece would hide its ghost)?"""
        return self.view_of(self._seat) == TOP

    def view_of(self, seat: int) -> int:
        """The view `seat` chose with V (DEFAULT, TOP, SIDE or OWN)."""
        return self._views.get(seat, DEFAULT)

    def show_fall(self) -> None:
        """A tower fell: stay on it for FALL_HOLD_SECONDS before play moves the camera on."""
        self._fall_shown_until = time.monotonic() + FALL_HOLD_SECONDS

    def holding_on_a_fall(self) -> bool:
        """Is a fall being held in view?"""
        return bool(self._fall_shown_until) and time.monotonic() < self._fall_shown_until

    def fall_seen(self) -> bool:
        """Has a fall being shown just been seen long enough (once, then it is forgotten)?"""
        if self._fall_shown_until and time.monotonic() >= self._fall_shown_until:
            self._fall_shown_until = 0.0
            return True
        return False

    def focus_on_play(self, state: BanduState) -> None:
        """Fly to the tower a piece is going to; back over the table when a new auction begins."""
        key_now: tuple = (state.phase, state.placer if state.phase == "place" else state.auctioneer)
        if key_now == self._focus_key:
            return
        if state.phase in ("offer", "over") and time.monotonic() < self._fall_shown_until:
            return                               # still showing a fall: update() comes back
        self._focus_key = key_now
        if state.phase == "place":
            self.focus_tower(state, state.placer)
        elif state.phase in ("offer", "over"):
            self.camera.reset()

    def focus_tower(self, state: BanduState, seat: int) -> None:
        """Fly to `seat`'s tower, seen at the angle the player last chose over a tower."""
        place = self.places[seat]
        self._seat = seat
        top = self.preview.tower_top(state, seat)
        view = self.view_of(seat)
        turn, pitch = self._own_angles.get(seat, (0.0, PLACING_PITCH_DEG))
        if view != OWN:                          # from above and the side: from the own turn
            pitch = VIEWS[view][1]               # type: ignore[assignment]
            turn = 0.0 if view == DEFAULT else turn
        self.camera.glide_to(Vec3(place.axis[0], place.axis[1], top * 0.6 + 0.02),
                             distance=max(0.55, top * 2.5 + 0.45),
                             yaw=self._seat_yaw(seat) + turn, pitch=pitch)

    def _seat_yaw(self, seat: int) -> float:
        return -90.0 if self.places[seat].facing > 0 else 90.0

    def keep_placing_angles(self, placer: int) -> None:
        """The player orbited the camera over the tower they build: that is their own angle
        now, and their view, kept for their next placements (not from above or the side,
        whose pitch V set)."""
        if self.view_of(placer) in (DEFAULT, OWN):
            turn = (self.camera.yaw - self._seat_yaw(placer) + 180.0) % 360.0 - 180.0
            self._own_angles[placer] = (turn, self.camera.pitch)
            self._views[placer] = OWN

    def next_view(self, state: BanduState) -> str:
        """V: the next view of the tower in play for the seat at it (default, from above, from
        the side, their own angle where they have one); what the toast says of it."""
        seat = state.placer if state.phase == "place" else max(state.auctioneer, 0)
        view = (self.view_of(seat) + 1) % len(VIEWS)
        if view == OWN and seat not in self._own_angles:
            view = DEFAULT                       # no angle of their own yet
        self._views[seat] = view
        self.focus_tower(state, seat)
        return f"View: {VIEWS[view][0]} (V: the next)"

    def fit_table(self, width: float, height: float) -> None:
        """The home distance: far enough back for the whole table, reserve included, whatever
        the view's shape."""
        half_fov = math.radians(self.camera.fov / 2)
        across = math.atan(math.tan(half_fov) * width / max(height, 1.0))
        self.camera.set_home(max(0.93 / math.tan(across), 0.68 / math.tan(half_fov)) + 0.05)
