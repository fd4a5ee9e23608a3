"""What a game's view gives the shared game screen.

A GameView draws one game's table inside the area the screen gives it and turns clicks into
actions sent through the controller; it never changes the state itself. The shared game screen
(app/game_screen.py) draws everything the games have in common around it: the side panel with
the seats, whose turn, undo/save/load/help/menu buttons, the help overlay and the end screen.
"""

from __future__ import annotations

from pyglet.graphics import Batch

from simulator.core.controller import TurnController
from simulator.core.errors import IllegalAction
from simulator.render.widgets import Toast


class GameView:
    #: short rules shown in the help overlay (written from the game's rule book)
    rules_summary: str = ""
    #: (key, what it does) pairs of the game's own mouse and keys, listed in the help overlay
    controls: tuple[tuple[str, str], ...] = ()

    def __init__(self, controller: TurnController, batch: Batch, toast: Toast) -> None:
        self.controller = controller
        self.batch = batch
        self.toast = toast
        self.hint = ""          # one line under the status: what the hovered thing would do

    def layout(self, x: float, y: float, width: float, height: float) -> None:
        """The board area in window pixels."""

    def sync(self) -> None:
        """The controller's state changed (a move, an undo, a load): redraw from it."""

    def update(self, dt: float) -> None:
        """Animation tick."""

    def on_mouse_motion(self, x: float, y: float) -> None:
        pass

    def on_mouse_press(self, x: float, y: float, button: int) -> bool:
        return False

    def seat_icon(self, seat: int):
        """A pyglet image standing for the seat in the side panel, or None."""
        return None

    def seat_detail(self, seat: int) -> str:
        """A short line about the seat, e.g. '12 stones'."""
        return ""

    def result_text(self) -> str:
        """A sentence under the winner's name on the end screen."""
        return ""

    def submit(self, action) -> bool:
        """Send a person's action; show the reason in the toast when it is refused."""
        try:
            self.controller.submit(action)
        except IllegalAction as error:
            self.toast.show(str(error), error=True)
            return False
        return True
