"""Buddel Bande's pictures as sprites: one made from a named picture (art.image), and one set
down centred on a point at a width in pixels, whatever the size its image was painted at."""

from __future__ import annotations

from pyglet import sprite
from pyglet.graphics import Batch, Group

from simulator.games.buddel_bande import art


def picture_sprite(name: str, batch: Batch, group: Group) -> sprite.Sprite:
    """A sprite of the picture called `name` (art.image), drawn in `group`."""
    return sprite.Sprite(art.image(name), batch=batch, group=group)


def natural(item: sprite.Sprite) -> tuple[float, float]:
    """The sprite's image size in pixels, whatever its scale."""
    scale = item.scale or 1.0
    return item.width / (scale * item.scale_x), item.height / (scale * item.scale_y)


def fit(item: sprite.Sprite, x: float, y: float, width: float) -> None:
    """The sprite at (x, y), scaled to `width` pixels wide."""
    item.update(x=x, y=y, scale=width / natural(item)[0])
