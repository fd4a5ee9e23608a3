"""The saved-games screen: every save and autosave, newest first, each described in words (game,
board, who played, how far, when); a click opens one, Replay beside it shows it move by move
(app/replay.py), Delete removes it after asking. The list scrolls with the wheel, Page Up /
Page Down, or the arrow keys (focus follows)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from pyglet.event import EVENT_HANDLED
from pyglet.window import key

from simulator.app import storage
from simulator.render import theme
from simulator.render.screen import Screen
from simulator.render.widgets import FRONT, Button, Overlay, fit_width, label

ROW = 56


class SavedGamesScreen(Screen):
    title = "saved games"

    def __init__(self, window: Any, app: Any) -> None:
        super().__init__(window)
        self.app = app
        self.heading = label("Saved games", size=28, batch=self.batch, group=FRONT, anchor_x="center",
                             bold=True, serif=True)
        self.where = label(f"in {storage.data_dir()}", size=11, batch=self.batch, group=FRONT,
                           anchor_x="center", color=theme.TEXT_DIM)
        self.empty = label("No saved games yet: press Ctrl+S during a game to save it.", size=14,
                           batch=self.batch, group=FRONT, anchor_x="center", color=theme.TEXT_DIM)
        self.position_note = label("", size=11, batch=self.batch, group=FRONT, anchor_x="center",
                                   color=theme.TEXT_DIM)
        self.back_button = Button("Back", self.back, self.batch, width=140)
        self.confirm = Overlay(self.batch, "Delete this save?", "", width=560, body_size=13)
        self.confirm.button("Keep", lambda: self.close_modal(self.confirm), width=120)
        self.confirm.button("Delete", self._delete_confirmed, primary=True, width=120)
        self.overlays.append(self.confirm)
        self.entries: list[Button] = []
        self.details: list = []
        self.replays: list[Button] = []
        self.deletes: list[Button] = []
        self.summaries: list[storage.SaveSummary] = []
        self.first = 0                   # index of the first row shown
        self.visible_rows = 1
        self._to_delete: Path | None = None
        self.refresh()

    def refresh(self) -> None:
        for button in self.entries + self.replays + self.deletes:
            button.delete()
        for detail in self.details:
            detail.delete()
        self.summaries = storage.list_saves()
        self.entries, self.details, self.replays, self.deletes = [], [], [], []
        for summary in self.summaries:
            self.entries.append(Button(summary.title, partial(self.app.load_game, summary.path),
                                       self.batch, size=13, width=560, height=46))
            self.details.append(label(summary.detail, size=10.5, batch=self.batch, group=FRONT,
                                      color=theme.TEXT_DIM, anchor_y="center"))
            self.replays.append(Button("Replay", partial(self.app.open_replay, summary.path), self.batch,
                                       size=11, width=80, height=46))
            self.deletes.append(Button("Delete", partial(self._ask_delete, summary), self.batch,
                                       size=11, width=80, height=46))
        self.empty.visible = not self.entries
        self.resize(self.window.width, self.window.height)

    def _ask_delete(self, summary: storage.SaveSummary) -> None:
        self._to_delete = summary.path
        self.confirm.set_text(body=f"{summary.title}\n{summary.detail}\n\nThe file {summary.path.name} "
                                   "is removed for good.")
        self.open_modal(self.confirm)

    def _delete_confirmed(self) -> None:
        self.close_modal(self.confirm)
        if self._to_delete is None:
            return
        try:
            storage.delete_save(self._to_delete)
            self.toast.show(f"deleted {self._to_delete.name}")
        except OSError as error:
            self.toast.show(f"could not delete {self._to_delete.name}: {error.strerror or error}", error=True)
        self._to_delete = None
        self.refresh()

    def scroll(self, rows: int) -> None:
        last = max(0, len(self.entries) - self.visible_rows)
        first = min(last, max(0, self.first + rows))
        if first != self.first:
            self.first = first
            self.layout(self.window.width, self.window.height)

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.heading.position = (cx, height - 70, 0)
        self.where.position = (cx, height - 98, 0)
        self.empty.position = (cx, height / 2, 0)
        top, bottom = height - 130, 100
        self.visible_rows = max(1, int((top - bottom) // ROW))
        self.first = min(self.first, max(0, len(self.entries) - self.visible_rows))
        list_width = min(900, width - 40)
        x = cx - list_width / 2
        rows = zip(self.entries, self.details, self.replays, self.deletes, strict=True)
        for n, (entry, detail, replay, delete) in enumerate(rows):
            shown = self.first <= n < self.first + self.visible_rows
            for item in (entry, replay, delete):
                item.set_visible(shown)
            detail.visible = shown
            if shown:
                y = top - (n - self.first + 1) * ROW
                title_width = list_width * 0.5
                entry.place(x, y, width=title_width)
                fit_width(entry.text, self.summaries[n].title, title_width - 20)
                detail.position = (x + title_width + 14, y + 23, 0)
                fit_width(detail, self.summaries[n].detail, list_width - title_width - 14 - 168 - 14)
                replay.place(x + list_width - 168, y)
                delete.place(x + list_width - 80, y)
        if len(self.entries) > self.visible_rows:
            end = min(len(self.entries), self.first + self.visible_rows)
            self.position_note.text = (f"{self.first + 1}-{end} of {len(self.entries)}: "
                                       "scroll or Page Up / Page Down for more")
        else:
            self.position_note.text = ""
        self.position_note.position = (cx, 82, 0)
        self.back_button.place(cx - 70, 24)
        self.buttons = [b for row in zip(self.entries, self.replays, self.deletes, strict=True) for b in row
                        if b.visible] + [self.back_button]

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        self.scroll(-round(scroll_y) or (-1 if scroll_y > 0 else 1))
        return EVENT_HANDLED

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == key.PAGEDOWN:
            self.scroll(self.visible_rows)
        elif symbol == key.PAGEUP:
            self.scroll(-self.visible_rows)
        elif symbol in (key.DOWN, key.UP) and self.focus.focused in self.entries + self.replays + self.deletes:
            # keep the focus in view: scroll when it would leave the shown rows
            rows = next(column for column in (self.entries, self.replays, self.deletes)
                        if self.focus.focused in column)
            index = rows.index(self.focus.focused) + (1 if symbol == key.DOWN else -1)
            if 0 <= index < len(rows):
                if not self.first <= index < self.first + self.visible_rows:
                    self.scroll(1 if symbol == key.DOWN else -1)
                self.focus.move_to(rows[index])
        else:
            return super().on_key_press(symbol, modifiers)
        return EVENT_HANDLED
