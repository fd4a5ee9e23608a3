"""Screens: one at a time fills the window (menu, new game, a game, saved games).

A Screen owns a Batch, its buttons and overlays. The base class routes the mouse to buttons
(the topmost visible overlay's buttons first), tracks hover, and draws the background.
Subclasses implement layout() and add their own drawing and input on top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyglet import shapes
from pyglet.graphics import Batch
from pyglet.window import mouse

from simulator.render import theme
from simulator.render.widgets import BACK, Button, Overlay, Toast

if TYPE_CHECKING:
    from simulator.render.window import AppWindow


class Screen:
    title = ""

    def __init__(self, window: AppWindow) -> None:
        self.window = window
        self.batch = Batch()
        self.buttons: list[Button] = []
        self.overlays: list[Overlay] = []
        self.background = shapes.Rectangle(0, 0, 10, 10, color=theme.BACKGROUND, batch=self.batch, group=BACK)
        self.toast = Toast(self.batch)

    # --- life cycle -------------------------------------------------------------------------------
    def enter(self) -> None:
        self.resize(self.window.width, self.window.height)

    def leave(self) -> None:
        """Called when another screen replaces this one."""

    def resize(self, width: int, height: int) -> None:
        self.background.width, self.background.height = width, height
        self.toast.layout(width)
        self.layout(width, height)
        for overlay in self.overlays:
            overlay.layout(width, height)

    def layout(self, width: int, height: int) -> None:
        """Position everything for a window of this size."""

    def update(self, dt: float) -> None:
        self.toast.update(dt)

    def draw(self) -> None:
        self.batch.draw()

    # --- input ------------------------------------------------------------------------------------
    def top_overlay(self) -> Overlay | None:
        visible = [o for o in self.overlays if o.visible]
        return visible[-1] if visible else None

    def active_buttons(self) -> list[Button]:
        overlay = self.top_overlay()
        return overlay.buttons if overlay is not None else self.buttons

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        for button in self.buttons + [b for o in self.overlays for b in o.buttons]:
            button.set_hover(False)
        for button in self.active_buttons():
            if button.contains(x, y):
                button.set_hover(True)
                break

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        if button != mouse.LEFT:
            return False
        for widget in self.active_buttons():
            if widget.contains(x, y):
                widget.click()
                return True
        return self.top_overlay() is not None      # an overlay swallows clicks beside its buttons

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        pass

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        pass

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        pass

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Return True when the key was used."""
        return False

    def close_top_overlay(self) -> bool:
        overlay = self.top_overlay()
        if overlay is None:
            return False
        overlay.set_visible(False)
        return True
