"""The one program window: a pyglet Window with a navigation stack of screens.

`push(screen)` opens a screen over the current one, `pop()` goes back, `replace(screen)` swaps
the top, `reset(screen)` leaves only that one. Only the top screen is drawn and ticked (60 Hz,
pyglet's clock), and only its input layers are on pyglet's handler stack (render/screen.py), so
input is never forwarded by hand. Below them, the window's own keys: F11 full screen, F12
screenshot, Ctrl+Q quit; Esc never closes the window by itself. Every tick checks the window's
size against the last resize event, so the layout follows the window even when an event was
lost or came out of order.
The window's own buffer is single-sampled: 3D views draw their pictures off screen, smoothed
by multisampling where the driver offers it (render/offscreen.py), and copy them in, which a
multisampled window would not allow. It has a minimum size every screen is laid out for.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pyglet
from pyglet.window import key

from simulator.render.screen import Screen, clear_colour
from simulator.render.screenshot import save_png
from simulator.render.sound import Sound

FRAME_RATE = 60.0
MIN_WIDTH, MIN_HEIGHT = 800, 560


def _configs():
    # pyglet.gl.Config is the platform's concrete class at run time; its declared type is abstract
    config = pyglet.gl.Config
    yield config(double_buffer=True, depth_size=24, major_version=3, minor_version=3)  # type: ignore[abstract]
    yield None


class AppWindow(pyglet.window.Window):
    def __init__(self, width: int = 1280, height: int = 800, caption: str = "bandu-sim",
                 visible: bool = True, screenshot_dir: Path | None = None,
                 volume: float = 0.8) -> None:
        width, height = max(width, MIN_WIDTH), max(height, MIN_HEIGHT)
        last_error: Exception | None = None
        for config in _configs():
            try:
                super().__init__(width, height, caption, resizable=True, visible=visible, config=config)
                break
            except pyglet.window.NoSuchConfigException as error:
                last_error = error
        else:  # pragma: no cover - no OpenGL at all
            raise RuntimeError(f"no usable OpenGL configuration: {last_error}")
        self.set_minimum_size(MIN_WIDTH, MIN_HEIGHT)
        self.screens: list[Screen] = []
        self.screenshot_dir = screenshot_dir or Path.cwd() / "screenshots"
        self.last_screenshot: Path | None = None
        self._laid_out_for: tuple[int, int] | None = None      # the size the last resize said
        self.sound = Sound(volume)      # its driver loads with the work ahead (App), not here
        pyglet.clock.schedule_interval(self._tick, 1.0 / FRAME_RATE)

    # --- navigation stack --------------------------------------------------------------------------
    @property
    def top(self) -> Screen | None:
        return self.screens[-1] if self.screens else None

    active_screen = top   # the name tests and tools use

    def push(self, screen: Screen) -> Screen:
        self._rearrange(0, screen)
        return screen

    def pop(self) -> None:
        """Back: close the top screen and show the one beneath; the last one closes the window."""
        if len(self.screens) <= 1:
            self.close()
            return
        self._rearrange(1, None)

    def replace(self, screen: Screen) -> Screen:
        self._rearrange(1, screen)
        return screen

    def reset(self, screen: Screen) -> Screen:
        """Leave `screen` alone on the stack (e.g. the menu)."""
        self._rearrange(len(self.screens), screen)
        return screen

    def _rearrange(self, close: int, add: Screen | None) -> None:
        """Take the top screen's input layers off pyglet's handler stack, close `close` screens
        from the top, put `add` on, and push the new top screen's layers (its modals included)."""
        if self.top is not None:
            for layer in reversed(self.top.layers()):
                self.remove_handlers(layer)
            self.top.leave()
        for _ in range(min(close, len(self.screens))):
            self.screens.pop().close()
        if add is not None:
            self.screens.append(add)
        if self.top is not None:
            self.top.enter()
            for layer in self.top.layers():
                self.push_handlers(layer)

    def _tick(self, dt: float) -> None:
        size = (self.width, self.height)
        if self._laid_out_for is not None and size != self._laid_out_for:
            # a resize the events told wrong or not at all (F11 and back without a window
            # manager: the full screen's size came last): lay out for the window as it is
            self.on_resize(*size)
        if self.top is not None:
            self.top.update(dt)

    # --- the window's own events (the bottom of the handler stack) -----------------------------------
    def on_draw(self) -> None:
        pyglet.gl.glClearColor(*clear_colour())
        self.clear()
        if self.top is not None:
            self.top.draw()

    def on_resize(self, width: int, height: int) -> None:
        self._laid_out_for = (width, height)
        super().on_resize(width, height)
        if self.top is not None:
            self.top.resize(width, height)

    def on_key_press(self, symbol, modifiers):
        if symbol == key.F11:
            self.set_fullscreen(not self.fullscreen)
        elif symbol == key.F12:
            self.take_screenshot()
        elif symbol == key.Q and modifiers & key.MOD_CTRL:
            self.close()
        elif symbol == key.M and modifiers & key.MOD_CTRL:
            self._say(self.sound.toggle_mute())
        elif symbol in (key.UP, key.DOWN) and modifiers & key.MOD_CTRL:
            self._say(self.sound.change_volume(1 if symbol == key.UP else -1))
        return True  # never let pyglet's default close the window on Esc

    def _say(self, message: str) -> None:
        if self.top is not None:
            self.top.toast.show(message)

    def take_screenshot(self, path: Path | None = None) -> Path:
        """Draw a fresh frame and save it as a PNG."""
        if path is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            path = self.screenshot_dir / f"bandu-sim-{stamp}.png"
        self.switch_to()
        self.on_draw()
        self.last_screenshot = save_png(path)
        if self.top is not None:
            self.top.toast.show(f"screenshot saved: {self.last_screenshot.name}")
        return self.last_screenshot

    def pump(self, frames: int = 1, dt: float = 1.0 / FRAME_RATE) -> None:
        """Process events, tick and draw `frames` times without the event loop (tests, tools).
        Its own GL context first: what the events and the clock make (a screen, its batch)
        belongs to this window, also in a process with two."""
        for _ in range(frames):
            self.switch_to()
            self.dispatch_events()
            self._tick(dt)
            self.switch_to()
            self.on_draw()
            self.flip()
