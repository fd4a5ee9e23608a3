"""Reading back what the window shows: as a numpy array (tests) or a PNG file (F12, docs)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyglet


def read_pixels() -> np.ndarray:
    """The current colour buffer as uint8 (height, width, 4), top row first."""
    image = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    data = image.get_data("RGBA", image.width * 4)
    array = np.frombuffer(data, np.uint8).reshape(image.height, image.width, 4)
    return array[::-1].copy()


def save_png(path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # the file opened and closed here: pyglet's save(filename) leaves its file to the collector
    with path.open("wb") as file:
        pyglet.image.get_buffer_manager().get_color_buffer().save(str(path), file=file)
    return path
