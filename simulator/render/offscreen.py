"""A 3D view's picture kept off screen: drawn again only when something in it changed, and
copied to the window every frame.

Software OpenGL (Mesa's llvmpipe, what a machine without a graphics card has) pays for every
pixel of every frame, and four times over with multisampling; a table at rest, the usual sight
in a board game, need not be drawn 60 times a second. `OffscreenPicture.render(draw, smooth)`
draws into a framebuffer of the view's size, multisampled when `smooth` (and the driver offers
it), and resolves it into a plain colour buffer; `present(area)` copies that buffer to the
window's (single-sampled) back buffer at the view's area, which costs about as much as clearing
it. A view draws moving frames plain and the still frame that follows smooth.
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
        self.size = (0, 0)
        self.plain: _Target | None = None       # drawn into when moving; holds the picture
        self.smooth: _Target | None = None      # multisampled, resolved into `plain`
        self.valid = False                      # `plain` holds the current picture
        self.smoothed = False                   # ... and it was drawn multisampled

    def _ensure(self, width: int, height: int) -> None:
        if (width, height) == self.size and self.plain is not None:
            return
        self.delete()
        self.size = (width, height)
        self.plain = _Target(width, height, 0)
        samples = min(self.samples_wanted, _max_samples())
        if samples > 1:
            smooth = _Target(width, height, samples)
            if smooth.complete:
                self.smooth = smooth
            else:
                smooth.delete()

    def render(self, width: int, height: int, draw: Callable[[], None], smooth: bool) -> None:
        """Draw the picture with `draw()` (viewport and framebuffer are set: (0, 0, width,
        height)); multisampled when `smooth` and the driver offers it."""
        self._ensure(max(1, width), max(1, height))
        assert self.plain is not None
        target = self.smooth if smooth and self.smooth is not None else self.plain
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, target.framebuffer)
        gl.glViewport(0, 0, target.width, target.height)
        draw()
        if target is not self.plain:
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, target.framebuffer)
            gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, self.plain.framebuffer)
            gl.glBlitFramebuffer(0, 0, target.width, target.height, 0, 0, target.width, target.height,
                                 gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        self.valid = True
        self.smoothed = target is not self.plain

    def present(self, x: int, y: int) -> None:
        """Copy the picture to the window's back buffer with its lower left corner at (x, y)."""
        if self.plain is None or not self.valid:
            return
        width, height = self.size
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self.plain.framebuffer)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, 0)
        gl.glBlitFramebuffer(0, 0, width, height, x, y, x + width, y + height,
                             gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def delete(self) -> None:
        for target in (self.plain, self.smooth):
            if target is not None:
                target.delete()
        self.plain = self.smooth = None
        self.valid = self.smoothed = False
        self.size = (0, 0)
