"""The draw order of Buddel Bande's board: the pyglet groups of its layers, bottom to top (the
meadow, the trail, the holes, ..., the moles, the ghost of a move pointed at, the dice tray, the
action card and the log, and the words over them)."""

from __future__ import annotations

from pyglet.graphics import Group

(G_MEADOW, G_TRAIL, G_HOLES, G_SYMBOLS, G_LIGHTS, G_DOG, G_MOLE_SHADOW, G_MOLES, G_MARKS, G_GHOST,
 G_TRAY, G_DICE, G_CARD, G_CARD_ART, G_TEXT) = (Group(order=n) for n in range(1, 16))
