"""Screens and input layers: what sits on the window's navigation and handler stacks.

A Screen fills the window (menu, new game, a game, saved games). Screens live on the window's
navigation stack (render/window.py): opening one pushes it, Back pops it. Input reaches the top
screen through pyglet's own handler stack: the window pushes the screen's input layers
(`Screen.layers()`, bottom to top: the screen itself, then e.g. a game's view, then any open
modal overlay) and removes them when the screen is covered or closed. A layer handles an event
by returning True (pyglet.event.EVENT_HANDLED); otherwise the event goes on down the stack and
finally to the window's own keys (F11, F12, Ctrl+Q).

Every screen can be driven by keyboard: Tab / Shift+Tab and the arrow keys move a focus ring
over its buttons (FocusRing), Enter or Space presses the focused one, Esc goes back.
"""

from __future__ import annotations

from typing import Any, Protocol

from pyglet import shapes
from pyglet.event import EVENT_HANDLED
from pyglet.graphics import Batch
from pyglet.window import key, mouse

from simulator.render import theme
from simulator.render.widgets import TOAST, TOP, Area, Button, Overlay, Toast, label


class ScreenHost(Protocol):
    """What a screen asks of the window that holds it (render/window.py's AppWindow): its
    size, its navigation stack and pyglet's handler stack."""

    width: int
    height: int

    @property
    def top(self) -> Any: ...

    def pop(self) -> Any: ...

    def get_size(self) -> tuple[int, int]: ...

    def push_handlers(self, *args: Any, **kwargs: Any) -> None: ...

    def remove_handlers(self, *args: Any, **kwargs: Any) -> None: ...

TOAST_Y = 72          # messages sit above a screen's bottom row of buttons
NAVIGATION_KEYS = {key.TAB, key.UP, key.DOWN, key.LEFT, key.RIGHT, key.ENTER, key.RETURN,
                   key.SPACE, key.NUM_ENTER}


class FocusRing:
    """Keyboard focus over a list of buttons: Tab/arrows move it, Enter/Space press."""

    def __init__(self) -> None:
        self.focused: Button | None = None

    def handle_key(self, symbol: int, modifiers: int, buttons: list[Button]) -> bool:
        """`buttons`: those that may take the focus, in order (a screen's `focus_order()`)."""
        usable = [b for b in buttons if b.enabled]
        if symbol not in NAVIGATION_KEYS or not usable:
            return False
        if symbol in (key.ENTER, key.RETURN, key.SPACE, key.NUM_ENTER):
            if self.focused in usable:
                assert self.focused is not None
                self.focused.click()
                return True
            return False
        backwards = symbol in (key.UP, key.LEFT) or (symbol == key.TAB and modifiers & key.MOD_SHIFT)
        index = usable.index(self.focused) if self.focused in usable else (0 if backwards else -1)
        self.move_to(usable[(index + (-1 if backwards else 1)) % len(usable)])
        return True

    def move_to(self, button: Button | None) -> None:
        if self.focused is not None:
            self.focused.set_focus(False)
        self.focused = button
        if button is not None:
            button.set_focus(True)


def hover_buttons(buttons: list[Button], x: float, y: float) -> None:
    hovered = next((b for b in buttons if b.contains(x, y)), None)
    for button in buttons:
        button.set_hover(button is hovered)


def press_buttons(buttons: list[Button], x: float, y: float) -> bool:
    for button in buttons:
        if button.contains(x, y):
            button.click()
            return True
    return False


class ModalLayer:
    """An open overlay on the handler stack: its buttons take the mouse and keys, and nothing
    beneath it hears them. Esc closes it (or presses its cancel button)."""

    def __init__(self, screen: Screen, overlay: Overlay, on_escape: Any = None) -> None:
        self.screen = screen
        self.overlay = overlay
        self.on_escape = on_escape
        self.focus = FocusRing()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool:
        hover_buttons(self.overlay.buttons, x, y)
        return EVENT_HANDLED

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        if button == mouse.LEFT:
            press_buttons(self.overlay.buttons, x, y)
        return EVENT_HANDLED

    def on_mouse_release(self, *args: Any) -> bool:
        return EVENT_HANDLED

    def on_mouse_drag(self, *args: Any) -> bool:
        return EVENT_HANDLED

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        if scroll_y:
            self.overlay.turn_page(-1 if scroll_y > 0 else 1)
        return EVENT_HANDLED

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == key.ESCAPE:
            (self.on_escape or (lambda: self.screen.close_modal(self.overlay)))()
            return EVENT_HANDLED
        if symbol in (key.PAGEUP, key.PAGEDOWN):
            self.overlay.turn_page(1 if symbol == key.PAGEDOWN else -1)
            return EVENT_HANDLED
        if self.focus.handle_key(symbol, modifiers, [b for b in self.overlay.buttons if b.visible]):
            return EVENT_HANDLED
        if symbol in (key.ENTER, key.RETURN) and self.overlay.buttons:
            primary = [b for b in self.overlay.buttons if b.primary] or self.overlay.buttons
            primary[0].click()
            return EVENT_HANDLED
        if symbol in (key.F11, key.F12) or (symbol == key.Q and modifiers & key.MOD_CTRL):
            return None                  # the window's own keys still work
        return self.screen.modal_key(self.overlay, symbol, modifiers)

    def on_key_release(self, *args: Any) -> bool:
        return EVENT_HANDLED


class Screen:
    """A full-window screen: a batch, buttons, overlays, keyboard focus, input handlers."""

    title = ""

    def __init__(self, window: ScreenHost) -> None:
        self.window = window
        self.batch = Batch()
        self.buttons: list[Button] = []
        self.overlays: list[Overlay] = []
        self.toast = Toast(self.batch)
        self.focus = FocusRing()
        self._modals: list[ModalLayer] = []
        self.tooltip_box = shapes.RoundedRectangle(0, 0, 10, 24, radius=5, segments=4,
                                                   color=(12, 12, 12, 230), batch=self.batch, group=TOAST)
        self.tooltip = label("", size=10.5, batch=self.batch, group=TOP, anchor_x="center",
                             anchor_y="center")
        self._show_tooltip(None)

    # --- life cycle (called by the window's navigation stack) -----------------------------------
    def layers(self) -> list[Any]:
        """Input handlers, bottom to top, the window pushes while this screen is on top."""
        return [self, *self._modals]

    def enter(self) -> None:
        """This screen is now on top (opened, or uncovered by a Back)."""
        self.resize(self.window.width, self.window.height)

    def leave(self) -> None:
        """Another screen covers this one (it may come back)."""

    def close(self) -> None:
        """This screen is taken off the stack for good."""

    def resize(self, width: int, height: int) -> None:
        self.toast.layout(0, TOAST_Y, width)
        self.layout(width, height)
        for button in self.buttons:            # the buttons moved from under the mouse: no hover,
            button.set_hover(False)            # and no tooltip left where one of them was
        self._show_tooltip(None)
        in_sight = self.in_sight()
        for overlay in self.overlays:
            overlay.layout(width, height, in_sight)

    def layout(self, width: int, height: int) -> None:
        """Position everything for a window of this size."""

    def update(self, dt: float) -> None:
        self.toast.update(dt)

    def draw(self) -> None:
        self.batch.draw()

    # --- modal overlays ------------------------------------------------------------------------
    def open_modal(self, overlay: Overlay, on_escape: Any = None) -> None:
        if any(layer.overlay is overlay for layer in self._modals):
            return
        overlay.page = 0
        overlay.layout(self.window.width, self.window.height, self.in_sight())
        overlay.set_visible(True)
        # the toast draws above dialogs (a message about the dialog shows over it): one said
        # before the dialog opened goes, rather than glare over the dimmed screen; so does the
        # tooltip of the button that opened it (the dialog takes the mouse until it closes)
        self.toast.hide()
        self._show_tooltip(None)
        layer = ModalLayer(self, overlay, on_escape)
        self._modals.append(layer)
        if self.window.top is self:
            self.window.push_handlers(layer)

    def close_modal(self, overlay: Overlay) -> bool:
        for layer in self._modals:
            if layer.overlay is overlay:
                overlay.set_visible(False)
                self._modals.remove(layer)
                if self.window.top is self:
                    self.window.remove_handlers(layer)
                return True
        return False

    def in_sight(self) -> Area | None:
        """The area dialogs leave in sight where the window has room: the first one an input
        layer names with its keep_in_sight() (a game view's standings at the end of a night)."""
        for layer in self.layers():
            keep = getattr(layer, "keep_in_sight", None)
            area = keep() if keep is not None else None
            if area is not None:
                return area
        return None

    def top_overlay(self) -> Overlay | None:
        return self._modals[-1].overlay if self._modals else None

    def modal_key(self, overlay: Overlay, symbol: int, modifiers: int) -> bool | None:
        """A key the open overlay did not use; screens let some through (F1 closes help)."""
        return EVENT_HANDLED

    def active_buttons(self) -> list[Button]:
        overlay = self.top_overlay()
        return overlay.buttons if overlay is not None else self.buttons

    # --- input (pyglet event handlers; True stops the event here) ----------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        hover_buttons(self.buttons, x, y)
        self._show_tooltip(next((b for b in self.buttons if b.hover and b.tooltip), None))
        return None

    def _show_tooltip(self, button: Button | None) -> None:
        """A button's shortcut in a small label just above it while the mouse is on it."""
        visible = button is not None
        self.tooltip.visible = self.tooltip_box.visible = visible
        if button is None:
            return
        self.tooltip.text = button.tooltip
        width = self.tooltip.content_width + 14
        x = min(max(button.x + button.width / 2, width / 2 + 4), self.window.width - width / 2 - 4)
        self.tooltip.position = (x, button.y + button.height + 16, 0)
        self.tooltip_box.position = (x - width / 2, button.y + button.height + 4)
        self.tooltip_box.width = width

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button == mouse.LEFT and press_buttons(self.buttons, x, y):
            return EVENT_HANDLED
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == key.ESCAPE:
            self.back()
            return EVENT_HANDLED
        if self.focus.handle_key(symbol, modifiers, self.focus_order()):
            return EVENT_HANDLED
        return None

    def focus_order(self) -> list[Button]:
        """The buttons Tab and the arrows go through, in order: those on show. A screen whose
        rows scroll adds the ones scrolled out of sight (and scrolls to the focused one)."""
        return [b for b in self.buttons if b.visible]

    def back(self) -> None:
        """Esc: leave this screen (the menu, at the bottom of the stack, quits on Esc)."""
        self.window.pop()


def clear_colour() -> tuple[float, float, float, float]:
    r, g, b = theme.BACKGROUND
    return (r / 255, g / 255, b / 255, 1.0)
