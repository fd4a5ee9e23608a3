"""The main menu: the five games (those not built yet shown as coming), continue, load, quit."""

from __future__ import annotations

from simulator.core import registry
from simulator.render import theme
from simulator.render.screen import Screen
from simulator.render.widgets import FRONT, Button, label


class MenuScreen(Screen):
    title = "menu"

    def __init__(self, window, app) -> None:
        super().__init__(window)
        self.app = app
        self.heading = label("bandu-sim", size=40, batch=self.batch, group=FRONT, anchor_x="center",
                             bold=True, serif=True, color=(236, 206, 150, 255))
        self.subtitle = label("wooden board games", size=15, batch=self.batch, group=FRONT,
                              anchor_x="center", color=theme.TEXT_DIM)
        self.game_buttons: list[tuple[Button, object]] = []
        self.blurbs = []
        for game in registry.all_games():
            info = game.info
            text = info.title if game.available else f"{info.title}  (coming)"
            button = Button(text, lambda name=game.name: app.open_new_game(name), self.batch,
                            size=16, width=300, height=46, primary=game.available)
            button.set_enabled(game.available)
            self.buttons.append(button)
            blurb = label(info.blurb, size=11.5, batch=self.batch, group=FRONT, anchor_y="center",
                          color=theme.TEXT if game.available else theme.TEXT_DIM)
            self.game_buttons.append((button, blurb))
        self.continue_button = Button("Continue last game", app.continue_last, self.batch, width=220)
        self.load_button = Button("Saved games", app.open_saved_games, self.batch, width=160)
        self.quit_button = Button("Quit", window.close, self.batch, width=110)
        self.buttons += [self.continue_button, self.load_button, self.quit_button]

    def enter(self) -> None:
        self.continue_button.set_enabled(self.app.last_autosave() is not None)
        super().enter()

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.heading.position = (cx, height - 110, 0)
        self.subtitle.position = (cx, height - 145, 0)
        top = height - 230
        column_x = cx - 300
        for n, (button, blurb) in enumerate(self.game_buttons):
            y = top - n * 62
            button.place(column_x, y)
            blurb.position = (column_x + 320, y + 23, 0)
        bottom = top - len(self.game_buttons) * 62 - 30
        self.continue_button.place(cx - 260, bottom)
        self.load_button.place(cx - 20, bottom)
        self.quit_button.place(cx + 160, bottom)

    def on_key_press(self, symbol, modifiers) -> bool:
        from pyglet.window import key

        if symbol == key.ESCAPE:
            self.window.close()
            return True
        return False
