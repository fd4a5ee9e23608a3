"""The records screen: solo Bandu record attempts, a person's and the computer's, from the
records store (simulator/records.py). At the top the personal best of each contest (the solo
game, each chain: a contest is a variant and a chain key), then every attempt, newest first,
each with the date, who, the contest, the score, the tower's height and whether it fell (and a
mark when the practice aid was on); Replay beside an attempt shows its game move by move. The
list scrolls with the wheel or Page Up / Page Down. A store that cannot be read is said in one
line; nothing is changed."""

from __future__ import annotations

from functools import partial
from typing import Any

from simulator.core.errors import SimulatorError
from simulator.render import theme
from simulator.render.list_screen import ScrollingListScreen
from simulator.render.widgets import FRONT, Button, fit_width, label, shrink_to_width

BEST_ROWS = 4


def contest(variant: str, chain_key: str) -> str:
    """An attempt's contest in words: 'solo, 48 pieces', 'chain seed:7'."""
    if variant == "solo":
        return "solo, all 48 pieces" if not chain_key else f"solo, {chain_key.replace(':', ' ')}"
    return f"chain {chain_key}"


ROW_SIZE, SMALLEST_ROW_SIZE = 12.5, 9.5     # an attempt's line, in points


def describe(attempt: Any) -> str:
    """One attempt in a line: score, height, fall, who, when."""
    pieces = f"{attempt.score} piece{'' if attempt.score == 1 else 's'}"
    end = "fell" if attempt.fell else "standing"
    # early in the line, where a narrow window never cuts it (the list's heading says by what)
    aid = " · aided" if attempt.practice_aid else ""
    return (f"{pieces}, {attempt.height_mm:.0f} mm, {end}{aid} · {attempt.who} · "
            f"{attempt.when[:16].replace('T', ' ')}")


class RecordsScreen(ScrollingListScreen):
    title = "records"

    def __init__(self, window: Any, app: Any) -> None:
        super().__init__(window)
        self.app = app
        self.heading = label("Records", size=28, batch=self.batch, group=FRONT, anchor_x="center",
                             bold=True, serif=True)
        self.where = label("", size=11, batch=self.batch, group=FRONT, anchor_x="center",
                           color=theme.TEXT_DIM)
        self.message = label("", size=14, batch=self.batch, group=FRONT, anchor_x="center",
                             color=theme.TEXT_DIM)
        self.best_heading = label("Personal bests", size=15, batch=self.batch, group=FRONT, bold=True)
        self.list_heading = label("Attempts, newest first (aided: with the practice aid or a hint)",
                                  size=15, batch=self.batch, group=FRONT,
                                  bold=True)
        self.back_button = Button("Back", self.back, self.batch, width=140)
        self.bests: list = []
        self.best_labels: list = []
        self.attempts: list = []
        self.rows: list = []
        self.replays: list[Button] = []
        self.refresh()

    def refresh(self) -> None:
        from simulator.games.bandu.records import RecordStore

        for item in self.best_labels + self.rows:
            item.delete()
        for button in self.replays:
            button.delete()
        self.best_labels, self.rows, self.replays = [], [], []
        try:
            with RecordStore.open() as store:
                self.where.text = f"in {store.path}"
                self.bests = store.personal_bests()
                self.attempts = store.attempts()
        except SimulatorError as error:
            self.bests, self.attempts = [], []
            self.message.text = str(error)
        else:
            self.message.text = ("" if self.attempts else
                                 "No attempts yet: play Bandu's solo or chain game, or run bandu-sim solo.")
        for best in self.bests[:BEST_ROWS]:
            self.best_labels.append(label(f"{contest(best.variant, best.chain_key)}:  {describe(best)}",
                                          size=12.5, batch=self.batch, group=FRONT))
        for attempt in self.attempts:
            self.rows.append(label(f"{contest(attempt.variant, attempt.chain_key)}:  {describe(attempt)}",
                                   size=12.5, batch=self.batch, group=FRONT))
            self.replays.append(Button("Replay", partial(self.app.replay_record, attempt), self.batch,
                                       width=100, height=34, size=12.5,
                                       tooltip="watch this attempt move by move"))
        self.layout(*self.window.get_size())

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        list_width = min(900, width - 40)
        x = cx - list_width / 2
        self.heading.position = (cx, height - 70, 0)
        self.where.position = (cx, height - 98, 0)
        self.message.position = (cx, height / 2, 0)
        y = height - 140
        self.best_heading.position = (x, y, 0)
        self.best_heading.visible = bool(self.bests)
        for best, text_label in zip(self.bests, self.best_labels, strict=False):
            y -= 24
            text_label.position = (x + 12, y, 0)
            _fit(text_label, f"{contest(best.variant, best.chain_key)}:  {describe(best)}", list_width - 12)
        y -= 44
        self.list_heading.position = (x, y, 0)
        self.list_heading.visible = bool(self.attempts)
        top = y - 8
        self.fit_rows(top, 100)
        for n, (attempt, row, replay) in enumerate(zip(self.attempts, self.rows, self.replays, strict=True)):
            shown = self.shows(n)
            row.visible = shown
            replay.set_visible(shown)
            if shown:
                row_y = self.row_y(top, n)
                row.position = (x + 12, row_y + 12, 0)
                _fit(row, f"{contest(attempt.variant, attempt.chain_key)}:  {describe(attempt)}",
                     list_width - 130)
                replay.place(x + list_width - 100, row_y)
        self.place_note(cx, 82)
        self.back_button.place(cx - 70, 24)
        self.buttons = [b for b in self.replays if b.visible] + [self.back_button]

    def row_count(self) -> int:
        return len(self.rows)

    def row_columns(self) -> list[list[Button]]:
        return [self.replays]


def _fit(text_label: Any, text: str, width: float) -> None:
    """An attempt's line whole, in smaller letters where the window is narrow, cut only after."""
    text_label.text = text
    shrink_to_width(text_label, width, ROW_SIZE, SMALLEST_ROW_SIZE, step=0.5)
    fit_width(text_label, text, width)
