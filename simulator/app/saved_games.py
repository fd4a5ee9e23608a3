"""The saved-games screen: one row per game, newest first, its newest file (a save, or the
autosave that went on after it) described in words (game, board, who played, whether it is the
autosave, how far, when); a click opens it, Replay beside it shows it move by move
(app/replay.py), Delete removes it after asking, and "+N" unfolds the game's older files as rows
of their own. The list scrolls with the wheel, Page Up / Page Down, or the arrow keys (focus
follows)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from simulator.app import storage
from simulator.render import theme
from simulator.render.list_screen import ScrollingListScreen
from simulator.render.widgets import FRONT, Button, Overlay, fit_width, label, shrink_to_width

TITLE_SIZE = 13.0               # a saved game's title, in points
SMALLEST_TITLE_SIZE = 10.0     # a long one is set this small before it is cut
DETAIL_SIZE, SMALLEST_DETAIL_SIZE = 10.5, 8.5   # its details: which file, how far, when


class SavedGamesScreen(ScrollingListScreen):
    title = "saved games"
    row_height = 56.0

    def __init__(self, window: Any, app: Any) -> None:
        super().__init__(window)
        self.app = app
        self.heading = label("Saved games", size=28, batch=self.batch, group=FRONT, anchor_x="center",
                             bold=True, serif=True)
        self.where = label(f"in {storage.data_dir()}", size=11, batch=self.batch, group=FRONT,
                           anchor_x="center", color=theme.TEXT_DIM)
        self.empty = label("No saved games yet: press Ctrl+S during a game to save it.", size=14,
                           batch=self.batch, group=FRONT, anchor_x="center", color=theme.TEXT_DIM)
        self.back_button = Button("Back", self.back, self.batch, width=140)
        self.confirm = Overlay(self.batch, "Delete this save?", "", width=560, body_size=13)
        self.confirm.button("Keep", lambda: self.close_modal(self.confirm), width=120)
        self.confirm.button("Delete", self._delete_confirmed, primary=True, width=120)
        self.overlays.append(self.confirm)
        self.entries: list[Button] = []
        self.details: list = []
        self.replays: list[Button] = []
        self.deletes: list[Button] = []
        self.olders: list[Button] = []              # "+N": a game's older files, unfolded
        self.older_counts: list[int] = []           # each row's "+N" (0: none shown)
        self.summaries: list[storage.SaveSummary] = []
        self.older_rows: list[bool] = []            # a row of a game's older file (indented)
        self.unfolded: set[str] = set()             # the games whose older files are shown
        self._to_delete: Path | None = None
        self.refresh()

    def _toggle_older(self, game_id: str) -> None:
        self.unfolded ^= {game_id}
        self.refresh()

    def refresh(self) -> None:
        for button in self.entries + self.replays + self.deletes + self.olders:
            button.delete()
        for detail in self.details:
            detail.delete()
        self.summaries, self.older_rows, self.older_counts = [], [], []
        for game in storage.list_games():
            rows = [game.newest, *(game.others if game.newest.game_id in self.unfolded else ())]
            self.summaries += rows
            self.older_rows += [False] + [True] * (len(rows) - 1)
            self.older_counts += [len(game.others)] + [0] * (len(rows) - 1)
        # one "+N" a row, so that every column has a button a row (the arrow keys' columns)
        self.olders = [Button(f"+{count}", partial(self._toggle_older, summary.game_id), self.batch,
                              size=11, width=52, height=46)
                       for summary, count in zip(self.summaries, self.older_counts, strict=True)]
        self.entries, self.details, self.replays, self.deletes = [], [], [], []
        for summary in self.summaries:
            self.entries.append(Button(summary.title, partial(self.app.load_game, summary.path),
                                       self.batch, size=TITLE_SIZE, width=560, height=46))
            self.details.append(label(summary.detail, size=DETAIL_SIZE, batch=self.batch, group=FRONT,
                                      color=theme.TEXT_DIM, anchor_y="center"))
            self.replays.append(Button("Replay", partial(self.app.open_replay, summary.path), self.batch,
                                       size=11, width=80, height=46))
            self.deletes.append(Button("Delete", partial(self._ask_delete, summary), self.batch,
                                       size=11, width=80, height=46))
        # the widest title, whole (measured once: layout runs at every scroll, titles are cut there)
        self.widest_title = max((e.text.content_width for e in self.entries), default=0.0)
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

    def row_count(self) -> int:
        return len(self.entries)

    def row_columns(self) -> list[list[Button]]:
        return [self.entries, self.olders, self.replays, self.deletes]

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.heading.position = (cx, height - 70, 0)
        self.where.position = (cx, height - 98, 0)
        self.empty.position = (cx, height / 2, 0)
        top = height - 130
        self.fit_rows(top, 100)
        list_width = min(1000, width - 40)
        x = cx - list_width / 2
        # the titles take what the longest needs (at most 60 %), the details the rest
        # ('move 30 · today 23:49:40 · autosave' lost its last word)
        title_width = min(list_width * 0.6, max(list_width * 0.35, self.widest_title + 40))
        rows = zip(self.entries, self.details, self.replays, self.deletes, self.olders, strict=True)
        for n, (entry, detail, replay, delete, older) in enumerate(rows):
            shown = self.shows(n)
            for item in (entry, replay, delete):
                item.set_visible(shown)
            older.set_visible(shown and self.older_counts[n] > 0)
            detail.visible = shown
            if shown:
                y = self.row_y(top, n)
                indent = 30 if self.older_rows[n] else 0    # a game's older file, under it
                entry.place(x + indent, y, width=title_width - indent)
                # a long title in smaller letters before it is cut: rows that differ only at
                # their end ('... against the computer (medium)') must not look alike
                entry.text.text = self.summaries[n].title
                shrink_to_width(entry.text, title_width - indent - 20, TITLE_SIZE, SMALLEST_TITLE_SIZE, step=0.5)
                fit_width(entry.text, self.summaries[n].title, title_width - indent - 20)
                detail.position = (x + title_width + 14, y + 23, 0)
                room = list_width - title_width - 14 - 228 - 14
                detail.text = self.summaries[n].detail       # whole, in smaller letters if need be
                shrink_to_width(detail, room, DETAIL_SIZE, SMALLEST_DETAIL_SIZE, step=0.5)
                fit_width(detail, self.summaries[n].detail, room)
                older.place(x + list_width - 228, y)
                replay.place(x + list_width - 168, y)
                delete.place(x + list_width - 80, y)
        self.place_note(cx, 82)
        self.back_button.place(cx - 70, 24)
        self.buttons = [b for row in zip(self.entries, self.olders, self.replays, self.deletes, strict=True)
                        for b in row if b.visible] + [self.back_button]
