"""Bunko's pictures and colours: round tables (a felt top in a wooden rim) and the players' tokens
painted with numpy (no image files; the pixels need no window), made into images once per
process (`table_image`, `token_image`, `shadow_image`), a colour of its own for each seat, the
teams' colours and the room's.
"""

from __future__ import annotations

import colorsys
from functools import cache
from typing import Any

import numpy as np

from simulator.render.textures import painted, shadow_pixels, wood_pixels

TEAM_COLOURS = ((236, 184, 72), (92, 176, 226))       # south-north, west-east
TABLE_TEXTURE = 384
TOKEN_TEXTURE = 96
SHADOW_TEXTURE = 128
FELT = (38, 104, 70)
HEAD_FELT = (118, 34, 42)
TABLE_TITLE = (236, 226, 204, 255)
TEAM_NAMES_TEXT = (40, 32, 24, 230)                   # the partners' numbers on a team's plaque
CAPTION = (246, 236, 210, 255)                        # a table's last roll
BELL = (226, 176, 70, 255)
BELL_RUNG = (255, 206, 96, 255)
BELL_GLOW = (255, 214, 120)
DING = (255, 226, 150, 255)
PERSON_RING = (255, 255, 255, 235)                    # around the token of a seat a person plays
ROLLER_GLOW = (255, 240, 190)
DICE_GLOW = (255, 244, 200)
BANNER = (22, 26, 22, 190)
ROUND_TEXT = (244, 226, 180, 255)
PHASE_TEXT = (246, 238, 220, 255)
BUNKO_WORD = (255, 214, 90, 255)
SHEET_PAPER = (250, 244, 230, 255)
SHEET_ROW = (236, 224, 200, 255)                      # every other row of the score sheet
SHEET_HEAD = (110, 90, 64, 255)


def seat_colour(seat: int) -> tuple[int, int, int]:
    """A colour of its own for each of up to 20 seats (hues spread by the golden ratio)."""
    hue = (seat * 0.618034 + 0.05) % 1.0
    light = 0.52 if seat % 2 == 0 else 0.40
    r, g, b = colorsys.hls_to_rgb(hue, light, 0.62)
    return int(r * 255), int(g * 255), int(b * 255)


def table_pixels(size: int, felt: tuple[int, int, int], seed: int = 3) -> np.ndarray:
    """RGBA uint8 (size, size, 4): a round table seen from above, a wooden rim around a felt top."""
    c = (size - 1) / 2.0
    yy, xx = np.mgrid[0:size, 0:size].astype(float)
    r = np.sqrt((xx - c) ** 2 + (yy - c) ** 2) / c
    wood = wood_pixels(size, size, seed=seed).astype(float)
    out = np.zeros((size, size, 4), np.uint8)
    rng = np.random.default_rng(seed)
    grain = rng.random((size, size)) * 14 - 7
    felt_rgb = np.array(felt, float)[None, None, :] + grain[..., None]
    felt_rgb *= (1.0 - 0.22 * np.clip(r / 0.86, 0, 1) ** 3)[..., None]      # darker toward the rim
    rim = np.clip((r - 0.84) / 0.16, 0, 1)
    bevel = 1.0 - 0.35 * np.abs(rim - 0.45) ** 1.2                           # a rounded wooden edge
    wood_rgb = wood[..., :3] * bevel[..., None]
    inner_shadow = np.clip((0.86 - r) / 0.04, 0, 1)                          # the felt sits lower
    felt_rgb *= (0.72 + 0.28 * inner_shadow)[..., None]
    blend = np.clip((r - 0.855) / 0.01, 0, 1)[..., None]
    rgb = felt_rgb * (1 - blend) + wood_rgb * blend
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = (np.clip((1.0 - r) * c / 1.2, 0, 1) * 255).astype(np.uint8)
    return out


def token_pixels(size: int, colour: tuple[int, int, int]) -> np.ndarray:
    """RGBA uint8: a player's round token, lit from the upper left."""
    c = (size - 1) / 2.0
    yy, xx = np.mgrid[0:size, 0:size].astype(float)
    dx, dy = (xx - c) / c, (yy - c) / c
    r = np.sqrt(dx * dx + dy * dy)
    light = np.clip(1.0 - 0.45 * np.sqrt((dx + 0.35) ** 2 + (dy - 0.4) ** 2), 0.45, 1.0)
    rgb = np.array(colour, float)[None, None, :] * (0.55 + 0.6 * light[..., None])
    rim = np.clip((r - 0.86) / 0.14, 0, 1)[..., None]
    rgb = rgb * (1 - 0.45 * rim)
    out = np.zeros((size, size, 4), np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255)
    out[..., 3] = (np.clip((1.0 - r) * c / 1.2, 0, 1) * 255).astype(np.uint8)
    return out


@cache
def table_image(head: bool) -> Any:
    """A table's top, centred: the head table's red felt, or green."""
    return painted(table_pixels(TABLE_TEXTURE, HEAD_FELT if head else FELT))


@cache
def shadow_image() -> Any:
    """A soft round shadow under a table or a token, centred."""
    return painted(shadow_pixels(SHADOW_TEXTURE, softness=0.5))


@cache
def token_image(seat: int) -> Any:
    """The seat's token in its own colour, centred."""
    return painted(token_pixels(TOKEN_TEXTURE, seat_colour(seat)))
