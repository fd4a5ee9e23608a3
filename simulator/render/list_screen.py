"""A screen whose main part is a list longer than the window: which rows show in the band
between a top and a bottom, the note that says which ("3-9 of 40: scroll or Page Up / Page Down
for more"), and the wheel, Page Up / Page Down and the arrow keys (the focus stays in view) that
scroll it. The saved-games and the records screens are such lists."""

from __future__ import annotations

from typing import Any

from pyglet.event import EVENT_HANDLED
from pyglet.window import key

from simulator.render import theme
from simulator.render.screen import Screen
from simulator.render.widgets import FRONT, Button, label


class ScrollingListScreen(Screen):
    row_height = 44.0

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.first = 0                   # index of the first row shown
        self.visible_rows = 1
        self.position_note = label("", size=11, batch=self.batch, group=FRONT, anchor_x="center",
                                   color=theme.TEXT_DIM)

    # --- what a list screen says about its rows -------------------------------------------------------
    def row_count(self) -> int:
        raise NotImplementedError

    def row_columns(self) -> list[list[Button]]:
        """The rows' buttons, column by column (one button per row), for the arrow keys."""
        return []

    # --- layout helpers ---------------------------------------------------------------------------------
    def fit_rows(self, top: float, bottom: float) -> None:
        """How many rows fit between `top` and `bottom`; keeps the first one in range."""
        self.visible_rows = max(1, int((top - bottom) // self.row_height))
        self.first = min(self.first, max(0, self.row_count() - self.visible_rows))

    def shows(self, row: int) -> bool:
        return self.first <= row < self.first + self.visible_rows

    def row_y(self, top: float, row: int) -> float:
        """The bottom of a shown row."""
        return top - (row - self.first + 1) * self.row_height

    def place_note(self, x: float, y: float) -> None:
        count = self.row_count()
        if count > self.visible_rows:
            end = min(count, self.first + self.visible_rows)
            self.position_note.text = f"{self.first + 1}-{end} of {count}: scroll or Page Up / Page Down for more"
        else:
            self.position_note.text = ""
        self.position_note.position = (x, y, 0)

    # --- scrolling -----------------------------------------------------------------------------------------
    def scroll(self, rows: int) -> None:
        first = min(max(0, self.row_count() - self.visible_rows), max(0, self.first + rows))
        if first != self.first:
            self.first = first
            self.layout(self.window.width, self.window.height)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        self.scroll(-round(scroll_y) or (-1 if scroll_y > 0 else 1))
        return EVENT_HANDLED

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol in (key.PAGEUP, key.PAGEDOWN):
            self.scroll(self.visible_rows * (1 if symbol == key.PAGEDOWN else -1))
            return EVENT_HANDLED
        focused = self.focus.focused
        column = next((c for c in self.row_columns() if focused in c), None)
        if symbol in (key.DOWN, key.UP) and column is not None and focused is not None:
            # the focus moves along its column and the list scrolls to keep it in view
            row = column.index(focused) + (1 if symbol == key.DOWN else -1)
            if 0 <= row < len(column):
                if not self.shows(row):
                    self.scroll(1 if symbol == key.DOWN else -1)
                self.focus.move_to(column[row])
            return EVENT_HANDLED
        return super().on_key_press(symbol, modifiers)
