"""The main menu: the games (those not built yet shown as coming), continue, saved games,
records, help, quit. Keys: Tab or the arrows move between buttons, Enter presses, Ctrl+O opens the saved
games, F1 shows the keys, Esc or Ctrl+Q quits."""

from __future__ import annotations

from functools import partial
from typing import Any

from pyglet.event import EVENT_HANDLED
from pyglet.window import key

from simulator.core import registry
from simulator.render import theme
from simulator.render.screen import Screen
from simulator.render.widgets import FRONT, Button, Overlay, label

BLURB_SIZE, SMALL_BLURB_SIZE = 11.5, 10.0
MENU_KEYS = (
    ("Tab, arrows", "move between buttons"),
    ("Enter, Space", "press the highlighted button"),
    ("Ctrl+O", "saved games"),
    ("F1", "this help"),
    ("F11", "full screen"),
    ("F12", "screenshot"),
    ("Esc", "quit (asks first)"),
    ("Ctrl+Q", "quit at once"),
)


class MenuScreen(Screen):
    title = "menu"

    def __init__(self, window: Any, app: Any) -> None:
        super().__init__(window)
        self.app = app
        self.heading = label("bandu-sim", size=40, batch=self.batch, group=FRONT, anchor_x="center",
                             bold=True, serif=True, color=theme.HEADING)
        self.subtitle = label("wooden board games", size=15, batch=self.batch, group=FRONT,
                              anchor_x="center", color=theme.TEXT_DIM)
        # button, blurb label, the blurb's text, the player counts said after it
        self.game_buttons: list[tuple[Button, Any, str, str]] = []
        for game in registry.all_games():
            if not game.info.on_menu:
                continue
            info = game.info
            ready = game.available and registry.get_app(game).view is not None  # rules and a table
            text = info.title if ready else f"{info.title}  (coming)"
            button = Button(text, partial(app.open_new_game, game.name), self.batch,
                            size=16, width=300, height=46, primary=ready)
            button.set_enabled(ready)
            self.buttons.append(button)
            players = (f"{info.min_players} players" if info.min_players == info.max_players
                       else f"{info.min_players}-{info.max_players} players")
            blurb = label("", size=BLURB_SIZE, batch=self.batch, group=FRONT, anchor_y="center",
                          color=theme.TEXT if ready else theme.TEXT_DIM)
            # no break inside the counts: '(2-4 players)' stays on one line when the text wraps
            self.game_buttons.append((button, blurb, info.blurb, f"({players})".replace(" ", "\u00a0")))
        self.continue_button = Button("Continue last game", app.continue_last, self.batch, width=220)
        self.load_button = Button("Saved games", app.open_saved_games, self.batch, width=160,
                                  tooltip="Ctrl+O")
        self.join_button = Button("Join a game", app.open_join, self.batch, width=150,
                                  tooltip="a game hosted at another machine")
        # the games' own buttons (GameApp.menu_entries), between Saved games and Help
        self.entry_buttons = [Button(entry.label, partial(entry.open, app), self.batch, width=entry.width,
                                     tooltip=entry.tooltip)
                              for game in registry.all_games() if game.info.on_menu
                              for entry in registry.get_app(game).menu_entries]
        self.help_button = Button("Help", self.toggle_help, self.batch, width=100, tooltip="F1")
        self.quit_button = Button("Quit", window.close, self.batch, width=110)
        self.bottom_row = [self.continue_button, self.load_button, self.join_button, *self.entry_buttons,
                           self.help_button, self.quit_button]
        self.buttons += self.bottom_row
        keys = "\n".join(f"{k:<14} {v}" for k, v in MENU_KEYS)
        self.help = Overlay(self.batch, "Keys", f"{keys}\n\nEach game's own keys and rules: F1 "
                            "during the game.", width=600)
        self.help.body.font_name = ["DejaVu Sans Mono", "monospace"]
        self.help.button("Close", self.toggle_help, primary=True, width=140)
        self.overlays.append(self.help)
        self.quit_question = Overlay(self.batch, "Quit bandu-sim?",
                                     "Unfinished games are kept: Continue last game brings them back.",
                                     width=520, body_size=13)
        self.quit_question.button("Stay", lambda: self.close_modal(self.quit_question), width=120)
        self.quit_question.button("Quit", window.close, primary=True, width=120)
        self.overlays.append(self.quit_question)

    def enter(self) -> None:
        self.continue_button.set_enabled(self.app.last_autosave() is not None)
        super().enter()

    def toggle_help(self) -> None:
        if not self.close_modal(self.help):
            self.open_modal(self.help)

    def back(self) -> None:
        """Esc on the menu asks before quitting (Ctrl+Q quits at once)."""
        self.open_modal(self.quit_question)

    def modal_key(self, overlay: Overlay, symbol: int, modifiers: int) -> bool | None:
        if symbol == key.F1:
            self.toggle_help()
        return EVENT_HANDLED

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        self.heading.position = (cx, height - 100, 0)
        self.subtitle.position = (cx, height - 135, 0)
        rows = len(self.game_buttons)
        step = min(62, max(50, (height - 330) / max(rows, 1)))
        top = height - 210
        column_x = max(20, cx - 330)
        for n, (button, blurb, text, players) in enumerate(self.game_buttons):
            y = top - n * step
            button.place(column_x, y)
            blurb.position = (column_x + 320, y + 23, 0)
            _fit_blurb(blurb, text, players, width - column_x - 320 - 16)
        gap = 10
        lines: list[list[Button]] = [[]]          # one row, centred; two where it does not fit
        for button in self.bottom_row:
            if lines[-1] and sum(b.width + gap for b in lines[-1]) + button.width > width - 40:
                lines.append([])
            lines[-1].append(button)
        bottom = max(30 + 50 * (len(lines) - 1), top - rows * step - 30)
        for n, line in enumerate(lines):
            x = cx - (sum(b.width for b in line) + gap * (len(line) - 1)) / 2
            for button in line:
                button.place(x, bottom - 50 * n)
                x += button.width + gap

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == key.O and modifiers & key.MOD_CTRL:
            self.app.open_saved_games()
            return EVENT_HANDLED
        if symbol == key.F1:
            self.toggle_help()
            return EVENT_HANDLED
        return super().on_key_press(symbol, modifiers)


def _fit_blurb(blurb: Any, text: str, players: str, room: float) -> None:
    """A game's line beside its button: on one line where it fits, else on two in a smaller
    font, its words cut with '…' before the player counts, which always show."""
    blurb.multiline, blurb.width, blurb.font_size = False, None, BLURB_SIZE
    whole = f"{text}  {players}"
    blurb.text = whole
    if blurb.content_width <= room:
        return
    blurb.font_size, blurb.width, blurb.multiline = SMALL_BLURB_SIZE, max(40, int(room)), True
    blurb.text = players
    two_lines = 2.5 * blurb.content_height            # more than this: three lines or more
    blurb.text = whole
    words = text.split(" ")
    while len(words) > 1 and blurb.content_height > two_lines:
        words = words[:-1]
        blurb.text = " ".join(words).rstrip(",.;:") + f"…  {players}"
