"""Bandu's camera over the table: flying to the tower in play (at the angle its player last
chose, or the view V chose: from above, from the side), back over the table when a new auction
begins, holding on a fall until it has been seen, and far enough back for the whole table.
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
# V goes round these views of the tower being built (pitch in degrees; 'oblique' keeps the
# player's own): from above, the held piece is not drawn, so it never hides its ghost
VIEWS = (("oblique", None), ("top", 89.0), ("side", 4.0))


class TableCamera:
    """The OrbitCamera over the table at `places`, and where it flies as play goes on."""

    def __init__(self, places: list[SeatPlace], preview: LandingPreview) -> None:
        self.camera = OrbitCamera(yaw=-90.0, pitch=50.0, distance=2.0, target=Vec3(0.0, 0.07, 0.0),
                                  min_distance=0.12, max_distance=4.5, fov=40.0)
        self.places = places
        self.preview = preview
        # the camera over a tower being built: the player's own angle, kept from one placement
        # to the next (yaw from the seat's side, pitch), and the view V chose
        self._placing_angles = (0.0, PLACING_PITCH_DEG)
        self._view = 0
        self._focus_key: tuple = ()
        self._fall_shown_until = 0.0            # the camera stays on a fall until then

    @property
    def from_above(self) -> bool:
        """Is the view V chose the one from above (where the held piece would hide its ghost)?"""
        return VIEWS[self._view][0] == "top"

    def show_fall(self) -> None:
        """A tower fell: stay on it for FALL_HOLD_SECONDS before play moves the camera on."""
        self._fall_shown_until = time.monotonic() + FALL_HOLD_SECONDS

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
        top = self.preview.tower_top(state, seat)
        turn, pitch = self._placing_angles
        view_pitch = VIEWS[self._view][1]
        self.camera.glide_to(Vec3(place.axis[0], place.axis[1], top * 0.6 + 0.02),
                             distance=max(0.55, top * 2.5 + 0.45),
                             yaw=self._seat_yaw(seat) + turn,
                             pitch=pitch if view_pitch is None else view_pitch)

    def _seat_yaw(self, seat: int) -> float:
        return -90.0 if self.places[seat].facing > 0 else 90.0

    def keep_placing_angles(self, placer: int) -> None:
        """The player turned the camera over the tower they build: keep that angle."""
        if VIEWS[self._view][1] is None:
            turn = (self.camera.yaw - self._seat_yaw(placer) + 180.0) % 360.0 - 180.0
            self._placing_angles = (turn, self.camera.pitch)

    def next_view(self, state: BanduState) -> str:
        """V: the next view of the tower in play; what the toast says of it."""
        self._view = (self._view + 1) % len(VIEWS)
        seat = state.placer if state.phase == "place" else max(state.auctioneer, 0)
        self.focus_tower(state, seat)
        return f"View: {VIEWS[self._view][0]} (V: the next)"

    def fit_table(self, width: float, height: float) -> None:
        """The home distance: far enough back for the whole table, reserve included, whatever
        the view's shape."""
        half_fov = math.radians(self.camera.fov / 2)
        across = math.atan(math.tan(half_fov) * width / max(height, 1.0))
        self.camera.set_home(max(0.93 / math.tan(across), 0.68 / math.tan(half_fov)) + 0.05)
