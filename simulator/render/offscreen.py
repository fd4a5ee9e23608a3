"""A 3D view's picture kept off screen: drawn again only when something in it changed, and
copied to the window every frame.

Software OpenGL (Mesa's llvmpipe, what a machine without a graphics card has) pays for every
pixel of every frame, and four times over with multisampling; a table at rest, the usual sight
in a board game, need not be drawn 60 times a second. `OffscreenPicture.render(draw, smooth)`
draws into a framebuffer of the view's size, multisampled when `smooth` (and the driver offers
it), and resolves it into a plain colour buffer; `present(x, y)` copies that buffer to the
window's (single-sampled) back buffer at the view's area, which costs about as much as clearing
it. A view draws moving frames plain and the still frame that follows smooth.

When only a few things move (a collapsing tower), the rest is drawn once into a layer
(`render_layer`) whose colour and depth each moving frame starts from (`restore_layer`), so a
frame pays only for the moving things and what is around them.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

from pyglet import gl


def _max_samples() -> int:
    value = gl.GLint(0)
    gl.glGetIntegerv(gl.GL_MAX_SAMPLES, ctypes.byref(value))
    return int(value.value)


class _Target:
    """A framebuffer with a colour and a depth renderbuffer, `samples` per pixel (0: plain)."""

    def __init__(self, width: int, height: int, samples: int) -> None:
        self.width, self.height, self.samples = width, height, samples
        self.framebuffer = gl.GLuint()
        self.colour, self.depth = gl.GLuint(), gl.GLuint()
        gl.glGenFramebuffers(1, ctypes.byref(self.framebuffer))
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.framebuffer)
        for buffer, kind, attachment in ((self.colour, gl.GL_RGBA8, gl.GL_COLOR_ATTACHMENT0),
                                         (self.depth, gl.GL_DEPTH_COMPONENT24, gl.GL_DEPTH_ATTACHMENT)):
            gl.glGenRenderbuffers(1, ctypes.byref(buffer))
            gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, buffer)
            if samples:
                gl.glRenderbufferStorageMultisample(gl.GL_RENDERBUFFER, samples, kind, width, height)
            else:
                gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, kind, width, height)
            gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, attachment, gl.GL_RENDERBUFFER, buffer)
        status = gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, 0)
        self.complete = status == gl.GL_FRAMEBUFFER_COMPLETE

    def delete(self) -> None:
        gl.glDeleteFramebuffers(1, ctypes.byref(self.framebuffer))
        gl.glDeleteRenderbuffers(1, ctypes.byref(self.colour))
        gl.glDeleteRenderbuffers(1, ctypes.byref(self.depth))


class OffscreenPicture:
    def __init__(self, samples: int = 4) -> None:
        self.samples_wanted = samples
        self.size = (0, 0)                      # the picture's size on the window, in pixels
        self._targets: dict[tuple[str, int], _Target] = {}   # (purpose, samples)
        self.shown: _Target | None = None       # what present() copies
        self.smoothed = False                   # ... drawn multisampled

    @property
    def valid(self) -> bool:
        return self.shown is not None

    def _target(self, purpose: str, samples: int) -> _Target | None:
        key = (purpose, samples)
        if key not in self._targets:
            target = _Target(*self.size, samples)
            if not target.complete:
                target.delete()
                return None
            self._targets[key] = target
        return self._targets[key]

    def _resize(self, width: int, height: int) -> None:
        if (max(1, width), max(1, height)) != self.size:
            self.delete()
            self.size = (max(1, width), max(1, height))

    def render(self, width: int, height: int, draw: Callable[[], None], smooth: bool) -> None:
        """Draw the picture with `draw()` (framebuffer bound, viewport all of it); multisampled
        when `smooth` and the driver offers it."""
        self._resize(width, height)
        samples = min(self.samples_wanted, _max_samples()) if smooth else 0
        drawn = self._target("picture", samples) if samples > 1 else None
        if drawn is None:
            samples = 0
            drawn = self._target("picture", 0)
        assert drawn is not None
        self._draw_into(drawn, draw)
        shown: _Target | None = drawn
        if samples:                             # resolve into a plain buffer of the same size
            shown = self._target("picture", 0)
            assert shown is not None
            _copy(drawn, shown.framebuffer, gl.GL_COLOR_BUFFER_BIT)
        self.shown, self.smoothed = shown, bool(samples)

    def render_layer(self, width: int, height: int, draw: Callable[[], None]) -> None:
        """Draw what stands still into the layer that moving frames start from."""
        self._resize(width, height)
        layer = self._target("layer", 0)
        assert layer is not None
        self._draw_into(layer, draw)

    def restore_layer(self) -> None:
        """Inside render()'s `draw`: start from the layer's colour and depth."""
        layer, picture = self._target("layer", 0), self._target("picture", 0)
        assert layer is not None and picture is not None
        _copy(layer, picture.framebuffer, gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, picture.framebuffer)

    @staticmethod
    def _draw_into(target: _Target, draw: Callable[[], None]) -> None:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, target.framebuffer)
        gl.glViewport(0, 0, target.width, target.height)
        draw()
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def present(self, x: int, y: int) -> None:
        """Copy the picture to the window's back buffer with its lower left corner at (x, y)."""
        shown = self.shown
        if shown is None:
            return
        width, height = self.size
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, shown.framebuffer)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, 0)
        gl.glBlitFramebuffer(0, 0, width, height, x, y, x + width, y + height,
                             gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def delete(self) -> None:
        for target in self._targets.values():
            target.delete()
        self._targets.clear()
        self.shown = None
        self.smoothed = False
        self.size = (0, 0)


def _copy(source: _Target, framebuffer: gl.GLuint, buffers: int) -> None:
    """All of `source` into a framebuffer of the same size (a multisampled one is resolved)."""
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, source.framebuffer)
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, framebuffer)
    gl.glBlitFramebuffer(0, 0, source.width, source.height, 0, 0, source.width, source.height,
                         buffers, gl.GL_NEAREST)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
