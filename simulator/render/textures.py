"""Procedural images made with numpy: wood with grain, shaded stones, soft shadows.

Everything is generated from a seed at start-up (no image files to ship) and turned into
pyglet images; functions named *_pixels return the RGBA arrays so tests can check them.
An image made here may be kept and shown in several windows: it makes its texture once per GL
context (once per group of contexts that share objects), so no window draws with a texture
that belongs to another window's context. pyglet is imported on first use only: importing its
image module opens the display, and the *_pixels functions need none.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from pyglet.image import ImageData

RGB = tuple[int, int, int]


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Bilinearly interpolated value noise in [0, 1], `cells` lattice cells over `shape`."""
    h, w = shape
    grid = rng.random((cells[0] + 2, cells[1] + 2))
    ys = np.linspace(0, cells[0], h)
    xs = np.linspace(0, cells[1], w)
    y0, x0 = ys.astype(int), xs.astype(int)
    fy, fx = (ys - y0)[:, None], (xs - x0)[None, :]
    fy, fx = fy * fy * (3 - 2 * fy), fx * fx * (3 - 2 * fx)
    a = grid[y0][:, x0]
    b = grid[y0][:, x0 + 1]
    c = grid[y0 + 1][:, x0]
    d = grid[y0 + 1][:, x0 + 1]
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy


def wood_pixels(width: int, height: int, seed: int = 1, light: RGB = (222, 178, 112),
                dark: RGB = (168, 118, 62), ring_count: float = 14.0) -> np.ndarray:
    """RGBA uint8 (height, width, 4): plain-sawn board, grain running along x."""
    rng = np.random.default_rng(seed)
    yy = np.linspace(0.0, 1.0, height)[:, None]
    # growth rings: nearly parallel stripes along x, gently bent by low-frequency noise
    warp = _smooth_noise(rng, (height, width), (2, 3)) * 0.9 + _smooth_noise(rng, (height, width), (6, 4)) * 0.12
    rings = np.sin(2 * np.pi * (yy * ring_count + warp))
    late_wood = np.clip((rings + 1) / 2, 0, 1) ** 6.0
    # fibres: thin streaks along the grain (noise stretched along x)
    streaks = _smooth_noise(rng, (height, width), (height // 3, 6))
    pores = rng.random((height, width)) * 0.08
    shade = np.clip(0.42 * late_wood + 0.22 * streaks + pores + 0.12 * _smooth_noise(rng, (height, width), (2, 2)), 0, 1)
    light_c, dark_c = np.array(light, float), np.array(dark, float)
    rgb = light_c * (1 - shade[..., None]) + dark_c * shade[..., None]
    out = np.empty((height, width, 4), np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = 255
    return out


def stone_pixels(size: int, colour: str) -> np.ndarray:
    """RGBA uint8 (size, size, 4): a lit, slightly convex stone ("black" or "white")."""
    c = (size - 1) / 2.0
    yy, xx = np.mgrid[0:size, 0:size].astype(float)
    dx, dy = (xx - c) / c, (yy - c) / c                # y grows upwards in pyglet images
    r = np.sqrt(dx * dx + dy * dy)
    edge = np.clip((1.0 - r) * c / 1.2, 0.0, 1.0)      # anti-aliased rim, ~1 px
    nz = np.sqrt(np.clip(1 - np.minimum(r, 1) ** 2, 0, 1)) * 0.6 + 0.4
    light_dir = np.array([-0.45, 0.55, 0.70])
    light_dir /= np.linalg.norm(light_dir)
    nx, ny = dx * 0.9, dy * 0.9
    norm = np.sqrt(nx * nx + ny * ny + nz * nz)
    lambert = np.clip((nx * light_dir[0] + ny * light_dir[1] + nz * light_dir[2]) / norm, 0, 1)
    hx, hy = dx + 0.38, dy - 0.42
    spec = np.exp(-(hx * hx + hy * hy) / 0.035)
    if colour == "black":
        base = 22 + 60 * lambert
        rgb = np.stack([base, base, base + 4], -1) + 150 * spec[..., None]
    else:
        base = 170 + 78 * lambert
        rgb = np.stack([base, base - 2, base - 10], -1) + 30 * spec[..., None]
    out = np.empty((size, size, 4), np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = (edge * 255).astype(np.uint8)
    return out


def shadow_pixels(size: int, softness: float = 0.35) -> np.ndarray:
    """RGBA uint8: a soft round shadow filling the square."""
    c = (size - 1) / 2.0
    yy, xx = np.mgrid[0:size, 0:size].astype(float)
    r = np.sqrt((xx - c) ** 2 + (yy - c) ** 2) / c
    alpha = np.clip((1.0 - r) / softness, 0, 1) ** 1.5 * 150
    out = np.zeros((size, size, 4), np.uint8)
    out[..., 3] = alpha.astype(np.uint8)
    return out


def to_image(pixels: np.ndarray) -> ImageData:
    """numpy RGBA (rows bottom to top) -> a pyglet image with a texture per GL context."""
    h, w = pixels.shape[:2]
    return _image_class()(w, h, "RGBA", np.ascontiguousarray(pixels).tobytes(), pitch=w * 4)


@cache
def _image_class() -> type[ImageData]:
    """pyglet's ImageData keeps the first texture it makes and hands it to every context; this
    subclass keeps one per GL object space (what contexts that share objects have in common)."""
    from pyglet import gl
    from pyglet.gl.base import ObjectSpace
    from pyglet.image import ImageData, Texture

    class ImagePerContext(ImageData):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._textures: dict[ObjectSpace, Texture] = {}

        def get_texture(self, rectangle: bool = False) -> Texture:
            if gl.current_context is None:
                raise RuntimeError("a texture needs a GL context: open a window first")
            space = gl.current_context.object_space
            if space not in self._textures:
                self._textures[space] = self.create_texture(Texture)
            return self._textures[space]

    return ImagePerContext


def centred(image: ImageData) -> ImageData:
    image.anchor_x = image.width // 2
    image.anchor_y = image.height // 2
    return image


def painted(pixels: np.ndarray, centre: bool = True) -> ImageData:
    """A painter's last step: numpy RGBA pixels (rows bottom to top) as an image, anchored at its
    middle (a sprite placed at a point is centred on it) unless `centre` is False (a background)."""
    image = to_image(pixels)
    return centred(image) if centre else image
