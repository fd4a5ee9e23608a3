"""The one program window: a pyglet Window showing one Screen at a time.

It forwards input to the current screen, ticks it at 60 Hz from pyglet's clock, asks for
anti-aliasing (falling back when the driver has none) and handles the window-wide keys:
F11 full screen, F12 screenshot, Ctrl+Q quit.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pyglet
from pyglet.window import key

from simulator.render.screen import Screen
from simulator.render.screenshot import save_png

FRAME_RATE = 60.0


def _configs():
    yield pyglet.gl.Config(double_buffer=True, sample_buffers=1, samples=4, depth_size=24,
                           major_version=3, minor_version=3)
    yield pyglet.gl.Config(double_buffer=True, depth_size=24, major_version=3, minor_version=3)
    yield None


class AppWindow(pyglet.window.Window):
    def __init__(self, width: int = 1280, height: int = 800, caption: str = "bandu-sim",
                 visible: bool = True, screenshot_dir: Path | None = None) -> None:
        last_error: Exception | None = None
        for config in _configs():
            try:
                super().__init__(width, height, caption, resizable=True, visible=visible, config=config)
                break
            except pyglet.window.NoSuchConfigException as error:
                last_error = error
        else:  # pragma: no cover - no OpenGL at all
            raise RuntimeError(f"no usable OpenGL configuration: {last_error}")
        self.set_minimum_size(800, 560)
        self.active_screen: Screen | None = None
        self.screenshot_dir = screenshot_dir or Path.cwd() / "screenshots"
        self.last_screenshot: Path | None = None
        pyglet.clock.schedule_interval(self._tick, 1.0 / FRAME_RATE)

    def show(self, screen: Screen) -> None:
        if self.active_screen is not None:
            self.active_screen.leave()
        self.active_screen = screen
        screen.enter()

    def _tick(self, dt: float) -> None:
        if self.active_screen is not None:
            self.active_screen.update(dt)

    # --- pyglet events ---------------------------------------------------------------------------
    def on_draw(self) -> None:
        self.clear()
        if self.active_screen is not None:
            self.active_screen.draw()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        if self.active_screen is not None:
            self.active_screen.resize(width, height)

    def on_mouse_motion(self, x, y, dx, dy):
        if self.active_screen is not None:
            self.active_screen.on_mouse_motion(x, y, dx, dy)

    def on_mouse_press(self, x, y, button, modifiers):
        if self.active_screen is not None:
            self.active_screen.on_mouse_press(x, y, button, modifiers)

    def on_mouse_release(self, x, y, button, modifiers):
        if self.active_screen is not None:
            self.active_screen.on_mouse_release(x, y, button, modifiers)

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        if self.active_screen is not None:
            self.active_screen.on_mouse_drag(x, y, dx, dy, buttons, modifiers)

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        if self.active_screen is not None:
            self.active_screen.on_mouse_scroll(x, y, scroll_x, scroll_y)

    def on_key_press(self, symbol, modifiers):
        if symbol == key.F11:
            self.set_fullscreen(not self.fullscreen)
            return True
        if symbol == key.F12:
            self.take_screenshot()
            return True
        if symbol == key.Q and modifiers & key.MOD_CTRL:
            self.close()
            return True
        if self.active_screen is not None and self.active_screen.on_key_press(symbol, modifiers):
            return True
        if symbol == key.ESCAPE:
            return True  # never let pyglet's default close the window on Esc
        return None

    def take_screenshot(self, path: Path | None = None) -> Path:
        """Draw a fresh frame and save it as a PNG."""
        if path is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            path = self.screenshot_dir / f"bandu-sim-{stamp}.png"
        self.switch_to()
        self.on_draw()
        self.last_screenshot = save_png(path)
        if self.active_screen is not None:
            self.active_screen.toast.show(f"screenshot saved: {self.last_screenshot}")
        return self.last_screenshot

    def pump(self, frames: int = 1, dt: float = 1.0 / FRAME_RATE) -> None:
        """Process events, tick and draw `frames` times without the event loop (tests, tools)."""
        for _ in range(frames):
            self.dispatch_events()
            self._tick(dt)
            self.switch_to()
            self.on_draw()
            self.flip()
