"""Driving the program's window from tests, the way a person does: events sent to its handlers."""

from __future__ import annotations


def press(window, symbol: int, modifiers: int = 0) -> None:
    window.dispatch_event("on_key_press", symbol, modifiers)
    window.pump(1)


def click(window, x: float, y: float, button: int | None = None) -> None:
    """Move to (x, y), press and release a mouse button there (the left one by default)."""
    from pyglet.window import mouse

    button = mouse.LEFT if button is None else button
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    window.dispatch_event("on_mouse_press", x, y, button, 0)
    window.dispatch_event("on_mouse_release", x, y, button, 0)
    window.pump(1)


def click_on(window, button, mouse_button: int | None = None) -> None:
    click(window, button.x + button.width / 2, button.y + button.height / 2, mouse_button)


def button_named(screen, text: str):
    """The visible button labelled `text` among those the screen answers now (an open
    overlay's, else the screen's own)."""
    found = [b for b in screen.active_buttons() if b.text.text == text and b.visible]
    assert found, f"no button {text!r} on {screen.title}: {[b.text.text for b in screen.active_buttons()]}"
    return found[0]
