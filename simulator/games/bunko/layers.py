"""The draw order of Bunko's room: the pyglet groups of its layers, bottom to top (the dice fly
over the players; the score sheets lie over everything on the tables)."""

from __future__ import annotations

from pyglet.graphics import Group

(G_TABLE_SHADOW, G_TABLE, G_GLOW, G_TOKEN_SHADOW, G_TOKEN, G_TOKEN_MARK, G_DICE, G_TEXT, G_BELL,
 G_BANNER, G_FLASH) = (Group(order=n) for n in range(1, 12))
G_SHEET, G_SHEET_TEXT = Group(order=17), Group(order=18)
