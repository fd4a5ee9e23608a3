"""The draw order of Bandida's table: the pyglet groups of its layers, bottom to top (the
network itself is drawn in a group clipped to the table: network_drawing.py)."""

from __future__ import annotations

from pyglet.graphics import Group

BOARD_ORDER = 2     # the network, its marks and shadows: per view, clipped to the table
(G_FELT, G_STRIP, G_STRIP_CARDS, G_HELD, G_FOCUS, G_BANNER, G_TEXT) = (
    Group(order=n) for n in (1, 5, 6, 7, 8, 9, 10))
