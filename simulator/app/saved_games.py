"""The saved-games screen: the newest saves and autosaves; a click opens one."""

from __future__ import annotations

from simulator.app import storage
from simulator.render import theme
from simulator.render.screen import Screen
from simulator.render.widgets import FRONT, Button, label


class SavedGamesScreen(Screen):
    title = "saved games"

    def __init__(self, window, app) -> None:
        super().__init__(window)
        self.app = app
        self.heading = label("Saved games", size=28, batch=self.batch, group=FRONT, anchor_x="center",
                             bold=True, serif=True)
        self.where = label(f"in {storage.saves_dir()}", size=11, batch=self.batch, group=FRONT,
                           anchor_x="center", color=theme.TEXT_DIM)
        self.entries: list[Button] = []
        for summary in storage.list_saves():
            button = Button(summary.title, lambda p=summary.path: app.load_game(p), self.batch,
                            size=13, width=640, height=40)
            self.entries.append(button)
        self.empty = label("No saved games yet: press Ctrl+S during a game to save it.", size=14,
                           batch=self.batch, group=FRONT, anchor_x="center", color=theme.TEXT_DIM)
        self.empty.visible = not self.entries
        self.back = Button("Back", app.back_from_saved_games, self.batch, width=140)
        self.buttons = self.entries + [self.back]

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.heading.position = (cx, height - 90, 0)
        self.where.position = (cx, height - 120, 0)
        self.empty.position = (cx, height / 2, 0)
        for n, button in enumerate(self.entries):
            button.place(cx - 320, height - 190 - n * 50, width=min(640, width - 40))
        self.back.place(cx - 70, 40)

    def on_key_press(self, symbol, modifiers) -> bool:
        from pyglet.window import key

        if symbol == key.ESCAPE:
            self.app.back_from_saved_games()
            return True
        return False
