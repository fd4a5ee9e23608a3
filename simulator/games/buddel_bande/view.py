"""Buddel Bande in the window: a meadow with the haystack, the winding track of 24 exit holes
(each with its flower, leaf or clover), the den entrance, a den per clan in play, moles that all
look alike from above (only their sizes differ), Daniel the dog, the two dice in a tray, the
action panel (decline, look, done), a private peek and a log line per turn.

Reads the state the viewing seat may see (the redacted state: render/game_view.py) and sends a
person's clicks through the controller. While a person moves, the moles and dog spots they may
move are lit; the hovered one shows where it would go. A look is shown only to the person who
looks (the game screen hides the table between people at one machine); like players at a real
table, people remember what they saw: the board never marks clans, except the viewer's own
moles with "Own moles: known from the start" (they placed them; marked all game) and the moles in
the dens (turned over).

This module is the board's layout, clock and input; its parts fit the board and say where
things lie on it (board.py), draw the board itself (meadow.py), the moles and the dog
(animals.py), the dice (dice_tray.py, faces painted there), the action card (action_card.py),
the log (turn_log.py) and what the person points at (pointer.py), paint the pictures (art.py)
and say it in words (words.py).
"""

from __future__ import annotations

from typing import Any

from pyglet.window import key, mouse

from simulator.games.buddel_bande import art, words
from simulator.games.buddel_bande.action_card import ActionCard
from simulator.games.buddel_bande.animals import Animals
from simulator.games.buddel_bande.board import Board
from simulator.games.buddel_bande.dice_tray import DiceTray
from simulator.games.buddel_bande.meadow import Meadow
from simulator.games.buddel_bande.pointer import Pointer, thing_at
from simulator.games.buddel_bande.rules import (
    CLANS,
    DECLINE,
    DONE,
    LOOK,
    LOOK_UNDER,
    MOVE,
    NO_LOOK,
    PEEK,
    Act,
    BuddelState,
)
from simulator.games.buddel_bande.turn_log import TurnLog
from simulator.render.game_view import GameView, ViewContext
from simulator.render.key_targets import CONFIRM_KEYS
from simulator.render.sound import dice_sound

#: the letters and the keys that answer the look, decline, or end the turn after a peek
ANSWER_KEYS = {key.L: LOOK_UNDER, key.N: NO_LOOK, key.D: DECLINE, key.ENTER: DONE, key.RETURN: DONE,
               key.SPACE: DONE}


class BuddelView(GameView[BuddelState]):
    state_class = BuddelState
    rules_summary = words.RULES
    controls = words.CONTROLS

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        batch = self.batch
        self.players = self.state.num_players
        self.board = Board(self.players)
        # the parts, made in their drawing's order
        self.meadow = Meadow(batch, self.players)
        self.animals = Animals(batch, 3 * self.players)
        self.pointer = Pointer(batch)
        self.dice = DiceTray(batch)
        self.card = ActionCard(batch, self._act)
        self.turn_log = TurnLog(batch)
        self.sync()

    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        self.board.fit(x, y, width, height)
        self.meadow.place(self.board)
        # the dice tray, top left; the action card beside it; the log on the right
        self.dice.place(self.board)
        self.card.place(self.board)
        self.turn_log.place(self.board)
        self.animals.jump()
        self.sync()

    # --- following the game ---------------------------------------------------------------------
    def sync(self) -> None:
        self.hear_new_moves(_sound_of)
        state = self.state
        self.turn_log.follow(state, self.controller.ply(), self._who)
        self.dice.show(state, self.board.unit)
        self.animals.show(state, self.board, self.context.viewer())
        self.card.show(state, self.board, self.may_act(), self.controller.info.seat_name)
        self.pointer.light(state, self.board, self.may_act())
        self._show_pointed()

    def _who(self, seat: int) -> str:
        """A seat's name in the log, marked when the computer plays it."""
        who = self.context.controller.info.seat_name(seat)
        if self.controller.seats[seat].is_computer:
            who += " (computer)"
        return who

    def update(self, dt: float) -> None:
        self.dice.update(dt)
        self.animals.update(dt, self.state, self.board)

    def _show_pointed(self) -> None:
        self.hint = self.pointer.show(self.state, self.board, self.may_act())

    # --- input ----------------------------------------------------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        target = self.pointer.target_at(x, y) if self.contains(x, y) else None
        if target != self.pointer.hover:
            self.pointer.hover = target
            self._show_pointed()
        return None

    def on_mouse_leave(self, x: int, y: int) -> bool | None:
        self.pointer.hover = None
        self._show_pointed()
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button != mouse.LEFT or not self.enabled or not self.contains(x, y):
            return None
        item = self.card.button_at(x, y)
        if item is not None:
            item.click()
            return True
        action = self.pointer.target_at(x, y) or thing_at(self.state, self.board, x, y)
        if action is None:
            return None
        if self.controller.is_over():
            return True
        if not self.controller.is_person_turn():
            self.toast.show("wait: it is not your turn")
            return True
        self._act(action)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if not self.enabled or modifiers & (key.MOD_CTRL | key.MOD_ALT) or not self.controller.is_person_turn():
            return None
        pointer = self.pointer
        if self.state.phase == MOVE and pointer.targets:
            if symbol == key.TAB:         # the keyboard's pointer: the next lit move, shown as on hover
                pointer.step(modifiers)
                self._show_pointed()
                return True
            if symbol in CONFIRM_KEYS and pointer.hover is not None:
                self._act(pointer.hover)
                return True
        if symbol in ANSWER_KEYS and self.state.phase in (MOVE, LOOK, PEEK):
            action = ANSWER_KEYS[symbol]
            if action == DONE and self.state.phase != PEEK:
                return None
            self._act(action)
            return True
        return None

    def _act(self, action: Act) -> None:
        if self.submit(action):
            self.pointer.hover = None

    # --- side panel and end screen ------------------------------------------------------------------
    def prompt(self) -> str:
        return words.prompt(self.state)

    def seat_icon(self, seat: int) -> Any:
        return art.image(CLANS[seat])

    def seat_detail(self, seat: int) -> str:
        return words.seat_detail(self.state, seat)

    def result_text(self) -> str:
        return words.result_text(self.state, self.controller.info.seat_name)

    def describe_move(self, notation: str) -> str:
        return words.describe_move(notation)


def _sound_of(notation: str, ply: int) -> tuple | None:
    """The dice rattle when a roll is recorded (one of three throws, for variety)."""
    if not notation.startswith("roll "):
        return None
    return dice_sound(2, ply)
