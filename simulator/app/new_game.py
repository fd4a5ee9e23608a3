"""The new-game screen, built from the registry: who sits in each seat and the game's settings."""

from __future__ import annotations

from simulator.core import registry
from simulator.core.controller import COMPUTER, PERSON, Seat
from simulator.render import theme
from simulator.render.screen import Screen
from simulator.render.widgets import FRONT, Button, label


class _ChoiceRow:
    """A caption and a row of mutually exclusive buttons."""

    def __init__(self, screen: NewGameScreen, caption: str, options: list[str], selected: int) -> None:
        self.caption = label(caption, size=15, batch=screen.batch, group=FRONT, anchor_y="center", bold=True)
        self.selected = selected
        self.options: list[Button] = []
        for n, text in enumerate(options):
            button = Button(text, lambda n=n: self.select(n), screen.batch, size=12.5, width=118, height=36)
            self.options.append(button)
            screen.buttons.append(button)
        self.select(selected)

    def select(self, n: int) -> None:
        self.selected = n
        for i, button in enumerate(self.options):
            button.set_selected(i == n)

    def place(self, x: float, y: float, width: float) -> float:
        """Lay out from the top-left (x, y); returns the height used."""
        self.caption.position = (x, y - 18, 0)
        left, right = x + 170, x + width
        bx, by, rows = left, y - 36, 1
        for button in self.options:
            if bx > left and bx + button.width > right:
                bx, by, rows = left, by - 44, rows + 1
            button.place(bx, by)
            bx += button.width + 8
        return rows * 44 + 14


class NewGameScreen(Screen):
    title = "new game"

    def __init__(self, window, app, game: str) -> None:
        super().__init__(window)
        self.app = app
        self.game = registry.get_game(game)
        self.info = self.game.info
        self.heading = label(f"New game of {self.info.title}", size=28, batch=self.batch, group=FRONT,
                             anchor_x="center", bold=True, serif=True)
        self.blurb = label(self.info.blurb, size=13, batch=self.batch, group=FRONT, anchor_x="center",
                           color=theme.TEXT_DIM)
        self.strengths = list(self.game.strengths.values())
        seat_options = ["Person"] + [f"Computer: {s.label}" if len(self.strengths) < 3 else s.label
                                     for s in self.strengths]
        self.seat_rows = []
        for seat in range(self.info.min_players):
            default = 0 if seat == 0 else 1 + min(1, len(self.strengths) - 1)
            self.seat_rows.append(_ChoiceRow(self, self.info.seat_name(seat), seat_options, default))
        self.computer_note = label("Easy, Medium, Strong: computer players", size=11, batch=self.batch,
                                   group=FRONT, color=theme.TEXT_DIM)
        self.setting_rows = [(setting, _ChoiceRow(self, setting.label, [c.label for c in setting.choices],
                                                  setting.default)) for setting in self.info.settings]
        self.start = Button("Start", self.start_game, self.batch, size=16, width=180, height=46, primary=True)
        self.back = Button("Back", app.show_menu, self.batch, width=140, height=46)
        self.buttons += [self.start, self.back]

    def seats(self) -> list[Seat]:
        seats = []
        for row in self.seat_rows:
            if row.selected == 0:
                seats.append(Seat(PERSON))
            else:
                seats.append(Seat(COMPUTER, f"mcts:{self.strengths[row.selected - 1].name}"))
        return seats

    def settings(self) -> dict:
        chosen: dict = {}
        for setting, row in self.setting_rows:
            chosen.update(setting.choices[row.selected].kwargs)
        return chosen

    def start_game(self) -> None:
        self.app.start_game(self.info.name, self.settings(), self.seats())

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.heading.position = (cx, height - 80, 0)
        self.blurb.position = (cx, height - 112, 0)
        x = max(30, cx - 380)
        row_width = min(760, width - 60)
        y = height - 160
        for row in self.seat_rows:
            y -= row.place(x, y, row_width)
        self.computer_note.position = (x + 170, y + 2, 0)
        y -= 24
        for _, row in self.setting_rows:
            y -= row.place(x, y, row_width)
        self.start.place(cx + 20, 40)
        self.back.place(cx - 160, 40)

    def on_key_press(self, symbol, modifiers) -> bool:
        from pyglet.window import key

        if symbol == key.ESCAPE:
            self.app.show_menu()
            return True
        if symbol in (key.ENTER, key.RETURN):
            self.start_game()
            return True
        return False
