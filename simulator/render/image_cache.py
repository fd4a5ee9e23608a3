"""ImageCache: pictures painted once per process and shared by every view that shows them.

A flat view paints its pictures with numpy (card faces, tokens, a felt) and shows each one many
times, in every window it opens. The cache makes a picture the first time its key is asked for,
with the one function it was given, and hands the same image back after (textures.to_image
keeps a texture per GL context, so one image serves every window). `painted()` is a painter's
usual last step: its pixels as an image anchored at its middle.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

import numpy as np

from simulator.render.textures import centred, to_image

K = TypeVar("K", bound=Hashable)


class ImageCache(Generic[K]):
    """The pictures `make(key)` paints, each made once and kept."""

    def __init__(self, make: Callable[[K], Any]) -> None:
        self._make = make
        self._images: dict[K, Any] = {}

    def get(self, key: K) -> Any:
        """The picture of `key`, painted now if it never was."""
        if key not in self._images:
            self._images[key] = self._make(key)
        return self._images[key]


def painted(pixels: np.ndarray, centre: bool = True) -> Any:
    """numpy RGBA pixels (rows bottom to top) as a pyglet image, anchored at its middle (a
    sprite placed at a point is centred on it) unless `centre` is False (a background)."""
    image = to_image(pixels)
    return centred(image) if centre else image
