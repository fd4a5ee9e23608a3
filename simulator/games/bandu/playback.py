"""The physics of a placement as the table shows it: the piece released, lowered until it
touches, while its outcome waits (or in a replay, which shows no physics), then the frames of
the live referee played back (games/bandu/referee.py publishes them on a Timeline), each
piece's pose blended between the two nearest frames.
"""

from __future__ import annotations

from typing import Any

from simulator.games.bandu.preview import LandingPreview
from simulator.games.bandu.rules import BanduState, Place
from simulator.games.bandu.table_drawing import Pose3, TableDrawing, blend_poses


class Playback:
    """The frame of the physics shown now, told to `drawing` as it changes."""

    def __init__(self, drawing: TableDrawing) -> None:
        self.drawing = drawing
        self.frame: Any = None
        """The frame shown now (the poses before and after, and the blend), None when no
        physics is being played back."""
        self.reached: list[dict[str, Any]] = []
        """The frames of the physics reached since the view last took them (their knocks are
        heard as they are reached: games/bandu/sounds.py)."""
        self.started = False          # the physics of an outcome began to play (since taken)

    def follow(self, pending: Any) -> None:
        """Take the current frame of the outcome in progress (`pending`, None when none): the
        settling tower moves, and stops when the outcome is over."""
        frame = getattr(pending, "frame", None)
        if frame is not None:
            now = frame()
            if now is not None and now != self.frame:
                if self.frame is None:
                    self.drawing.changed()                   # the settling tower starts to move
                    self.started = True
                if self.frame is None or now[0] is not self.frame[0]:
                    self.reached.append(now[0])
                self.frame = now
                self.drawing.moved()
        elif self.frame is not None:
            self.frame = None
            self.drawing.changed()

    def live_poses(self) -> dict[str, Pose3] | None:
        """Every piece's pose in the frame shown, None when none is."""
        if self.frame is None:
            return None
        before, after, blend = self.frame
        return {piece: blend_poses(pose, after.get(piece, pose), blend) for piece, pose in before.items()}


def released(state: BanduState, preview: LandingPreview) -> tuple[str, Pose3] | None:
    """While a placement waits for its physics (or in a replay, which shows no physics): the
    piece where it was released, lowered until it touches."""
    request = state.outcome_request()
    if request.get("kind") != "placement":
        return None
    place = Place(request["piece"], request["x_mm"], request["y_mm"], request["yaw_deg"],
                  request["roll_deg"], request["pitch_deg"])
    position, orientation = preview.landing(state, request["seat"], place)
    return place.piece, (tuple(position), tuple(orientation))               # type: ignore[return-value]
