"""Driving the program's window from tests, the way a person does: events sent to its handlers."""

from __future__ import annotations

import time
from contextlib import contextmanager


def press(window, symbol: int, modifiers: int = 0) -> None:
    window.dispatch_event("on_key_press", symbol, modifiers)
    window.pump(1)


def move_to(window, x: float, y: float) -> None:
    """Move the mouse to (x, y) and draw a frame."""
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
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


def frame(window, frames: int = 2):
    """Draw `frames` frames, then read the window's pixels (rows x columns x RGBA)."""
    from simulator.render.screenshot import read_pixels

    window.pump(frames)
    return read_pixels()


def share(pixels, predicate) -> float:
    """The share of pixels for which predicate(r, g, b) holds."""
    rgb = pixels[..., :3].astype(int)
    return float(predicate(rgb[..., 0], rgb[..., 1], rgb[..., 2]).mean())


def pump_until(window, condition, timeout: float = 60.0) -> None:
    """Draw frames until `condition()` holds (a table from a host, a move played there)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the window never saw it"
        window.pump(1)
        time.sleep(0.005)


def wait_for_person(window, screen, limit: int = 600, timeout: float = 30.0) -> None:
    """Let the computer seats move (drawing a frame after each) until a person is to move or the
    game is over."""
    for _ in range(limit):
        if screen.controller.is_person_turn() or screen.controller.is_over():
            window.pump(1)
            return
        screen.controller.wait_for_computer(timeout=timeout)
        window.pump(1)
    raise AssertionError("the computer never moved")


@contextmanager
def small_window(window, width: int = 800, height: int = 560):
    """The window at the smallest size the program supports, and back to 1280 x 800 after."""
    window.set_size(width, height)
    window.dispatch_event("on_resize", width, height)
    try:
        yield window
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)
        window.pump(1)


def wait_until_checked(window, timeout: float = 120.0):
    """A loaded save opens at once, paused while the physics checks its results in the
    background (core/save_check.py): draw frames until play may start; returns the top screen."""
    import time

    deadline = time.monotonic() + timeout
    screen = window.top
    while getattr(screen, "save_check", None) is not None:
        assert time.monotonic() < deadline, "the save's check never ended"
        window.pump(1)
        time.sleep(0.01)
    assert window.top is screen, f"the loaded game was closed: {window.top.toast.message}"
    return screen
