"""Images kept across windows: each GL context draws an image with a texture of its own."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.gui

RED = (200, 30, 30, 255)


def _draw_centre_pixel(window, image) -> tuple[int, ...]:
    """Clear the window, draw the image over all of it, and read back its centre pixel."""
    import pyglet

    from simulator.render.screenshot import read_pixels

    window.switch_to()
    batch = pyglet.graphics.Batch()
    sprite = pyglet.sprite.Sprite(image, batch=batch)
    sprite.scale = window.width / image.width
    window.clear()
    batch.draw()
    pixels = read_pixels()
    sprite.delete()
    return tuple(int(v) for v in pixels[window.height // 2, window.width // 2])


def test_an_image_shown_in_two_unshared_contexts_draws_in_both(x_display):
    import pyglet

    from simulator.render.textures import to_image

    image = to_image(np.full((8, 8, 4), RED, np.uint8))
    first = pyglet.window.Window(64, 64, visible=True)
    # a context that shares no objects with the first (pyglet shares them unless told not to)
    second = pyglet.window.Window(64, 64, visible=True,
                                  context=first.context.config.create_context(None))
    try:
        assert second.context.object_space is not first.context.object_space
        assert _draw_centre_pixel(first, image)[:3] == RED[:3]
        first_texture = image.get_texture()
        assert image.get_texture() is first_texture  # made once per context
        assert _draw_centre_pixel(second, image)[:3] == RED[:3]
        assert image.get_texture() is not first_texture
        first.switch_to()
        assert image.get_texture() is first_texture
    finally:
        second.close()
        first.close()
        pyglet.clock.tick()
