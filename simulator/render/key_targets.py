"""Keyboard targets: Tab and Shift+Tab step through the things a person may choose on a board
(the spots a held card fits, the cards an effect may take, the moves lit), round and round, and
Enter, Return, Space or the keypad's Enter takes the one chosen, so a board plays without a mouse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pyglet.window import key

T = TypeVar("T")

#: the keys that take the target chosen
CONFIRM_KEYS = frozenset({key.ENTER, key.RETURN, key.SPACE, key.NUM_ENTER})


def tab_step(modifiers: int) -> int:
    """The step of a Tab press: 1 (the next target), or -1 with Shift (the one before)."""
    return -1 if modifiers & key.MOD_SHIFT else 1


def step_through(targets: Sequence[T], current: T | None, step: int) -> T | None:
    """The target `step` places after `current` (before it, for a negative step), coming round
    at either end; where `current` is none of them, the first (stepping on) or the last
    (stepping back). None when there are no targets."""
    if not targets:
        return None
    index = targets.index(current) if current in targets else (-1 if step > 0 else 0)
    return targets[(index + step) % len(targets)]
