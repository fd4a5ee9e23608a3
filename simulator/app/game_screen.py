"""The screen of a game in progress, the same for every game.

Left: the game's own view (its board). Right: the side panel with the seats (icon, name, a
detail such as stone counts, a marker on the seat to move), the status line, the hint of what
the hovered point would do, and the buttons Undo, Save, Load, Help, Menu. Over it: the help
overlay (keys and short rules) and the end screen. Computer moves arrive through
controller.poll() from the clock; drawing never blocks.
"""

from __future__ import annotations

from pyglet import shapes, sprite
from pyglet.window import key

from simulator.core.controller import TurnController
from simulator.render import theme
from simulator.render.game_view import GameView
from simulator.render.screen import Screen
from simulator.render.widgets import FRONT, MIDDLE, Button, Overlay, label

PANEL_WIDTH = 320
COMMON_KEYS = (
    ("Ctrl+Z or U", "undo your last move (and the computer's answer)"),
    ("Ctrl+S", "save the game"),
    ("Ctrl+O", "open a saved game"),
    ("F1 or H", "show or hide this help"),
    ("Esc", "close a window; in the game, back to the menu"),
    ("F11", "full screen"),
    ("F12", "screenshot"),
    ("Ctrl+Q", "quit"),
)


class GameScreen(Screen):
    title = "game"

    def __init__(self, window, app, controller: TurnController) -> None:
        super().__init__(window)
        self.app = app
        self.controller = controller
        self.info = controller.info
        self.panel = shapes.RoundedRectangle(0, 0, PANEL_WIDTH, 10, radius=12, segments=8, color=theme.PANEL,
                                             batch=self.batch, group=MIDDLE)
        self.heading = label(self.info.title, size=26, batch=self.batch, group=FRONT, bold=True, serif=True,
                             color=(236, 206, 150, 255))
        self.view: GameView = controller.game.view_class()(controller, self.batch, self.toast)
        self.seat_names = []
        self.seat_details = []
        self.seat_icons = []
        self.turn_marker = shapes.RoundedRectangle(0, 0, PANEL_WIDTH - 24, 58, radius=8, segments=6,
                                                   color=(214, 160, 72, 70), batch=self.batch, group=MIDDLE)
        for seat in range(len(controller.seats)):
            self.seat_names.append(label("", size=14, batch=self.batch, group=FRONT, bold=True))
            self.seat_details.append(label("", size=11, batch=self.batch, group=FRONT, color=theme.TEXT_DIM))
            image = self.view.seat_icon(seat)
            icon = sprite.Sprite(image, batch=self.batch, group=FRONT) if image is not None else None
            self.seat_icons.append(icon)
        self.status = label("", size=13.5, batch=self.batch, group=FRONT, multiline=True, width=PANEL_WIDTH - 40)
        self.hint = label("", size=11.5, batch=self.batch, group=FRONT, multiline=True, width=PANEL_WIDTH - 40,
                          color=theme.TEXT_DIM)
        self.undo_button = Button("Undo", self.undo, self.batch, width=134, tooltip="Ctrl+Z")
        self.save_button = Button("Save", self.save, self.batch, width=134, tooltip="Ctrl+S")
        self.load_button = Button("Load", app.open_saved_games, self.batch, width=134, tooltip="Ctrl+O")
        self.help_button = Button("Help", self.toggle_help, self.batch, width=134, tooltip="F1")
        self.menu_button = Button("Menu", app.show_menu, self.batch, width=282)
        self.buttons += [self.undo_button, self.save_button, self.load_button, self.help_button, self.menu_button]

        keys = "\n".join(f"{k:<14} {v}" for k, v in (*self.view.controls, *COMMON_KEYS))
        self.help = Overlay(self.batch, f"{self.info.title}: keys and rules",
                            f"KEYS\n{keys}\n\nRULES IN SHORT\n{self.view.rules_summary}", width=720)
        self.help.body.font_name = ["DejaVu Sans Mono", "monospace"]
        self.help.add_button(Button("Close", self.toggle_help, self.batch, group=self.help.title.group,
                                    primary=True, width=140))
        self.end = Overlay(self.batch, "", "", width=520, body_size=14)
        self.end.add_button(Button("Look at the board", lambda: self.end.set_visible(False), self.batch,
                                   group=self.end.title.group, width=190))
        self.end.add_button(Button("New game", self.rematch, self.batch, group=self.end.title.group,
                                   primary=True, width=140))
        self.end.add_button(Button("Menu", app.show_menu, self.batch, group=self.end.title.group, width=120))
        self.overlays += [self.end, self.help]
        self._seen_version = -1
        self._end_shown = False
        self._clock = 0.0

    # --- layout -----------------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        panel_x = width - PANEL_WIDTH - 14
        self.view.layout(0, 0, panel_x - 6, height)
        self.panel.position = (panel_x, 14)
        self.panel.width, self.panel.height = PANEL_WIDTH, height - 28
        x = panel_x + 20
        y = height - 62
        self.heading.position = (x, y, 0)
        y -= 30
        for seat, (name, detail, icon) in enumerate(zip(self.seat_names, self.seat_details, self.seat_icons, strict=True)):
            top = y - seat * 66
            if icon is not None:
                icon.scale = 40 / icon.image.width
                icon.position = (x + 20, top - 28, 0)
            name.position = (x + 52, top - 22, 0)
            detail.position = (x + 52, top - 42, 0)
        y -= len(self.seat_names) * 66 + 12
        self.status.position = (x, y, 0)
        self.status.anchor_y = "top"
        self.hint.position = (x, y - 52, 0)
        self.hint.anchor_y = "top"
        base = 34
        self.menu_button.place(x, base)
        self.help_button.place(x + 148, base + 50)
        self.load_button.place(x, base + 50)
        self.save_button.place(x + 148, base + 100)
        self.undo_button.place(x, base + 100)
        self._refresh_panel()

    # --- clock ------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        self._clock += dt
        self.controller.poll()
        if self.controller.version != self._seen_version:
            self._seen_version = self.controller.version
            self.view.sync()
            if self.controller.autosave_error:
                self.toast.show(self.controller.autosave_error, error=True)
        self.view.update(dt)
        self._refresh_panel()
        if self.controller.is_over() and not self._end_shown:
            self._end_shown = True
            self._show_end()
        elif not self.controller.is_over():
            self._end_shown = False

    def _refresh_panel(self) -> None:
        controller = self.controller
        player = controller.current_player()
        for seat, (name, detail) in enumerate(zip(self.seat_names, self.seat_details, strict=True)):
            text = self.info.seat_name(seat)
            if name.text != text:
                name.text = text
            line = " · ".join(filter(None, [controller.seats[seat].describe(), self.view.seat_detail(seat)]))
            if detail.text != line:
                detail.text = line
        if 0 <= player < len(self.seat_names):
            self.turn_marker.visible = True
            icon_y = self.seat_names[player].y
            self.turn_marker.position = (self.panel.x + 12, icon_y - 34)
        else:
            self.turn_marker.visible = False
        if controller.is_over():
            winners = controller.state.winners()
            status = " and ".join(self.info.seat_name(w) for w in winners) + " won." if winners else "Game over."
        elif controller.is_person_turn():
            status = f"{self.info.seat_name(player)} to move. Click a point."
        else:
            dots = "." * (1 + int(self._clock * 3) % 3)
            status = f"{self.info.seat_name(player)} is thinking{dots}"
        history = controller.history
        if history:
            last = history[-1]
            status += f"\nMove {len(history)}: {self.info.seat_name(last.player)} {last.action}"
        if self.status.text != status:
            self.status.text = status
        if self.hint.text != self.view.hint:
            self.hint.text = self.view.hint
        self.undo_button.set_enabled(controller.can_undo())

    def _show_end(self) -> None:
        winners = self.controller.state.winners()
        names = " and ".join(self.info.seat_name(w) for w in winners)
        self.end.set_text(f"{names} wins!" if winners else "Game over", self.view.result_text())
        self.end.layout(self.window.width, self.window.height)
        self.end.set_visible(True)

    # --- actions ----------------------------------------------------------------------------------
    def undo(self) -> None:
        if self.controller.undo():
            self.end.set_visible(False)
            self.toast.show("move taken back")
        else:
            self.toast.show("nothing to undo: the last move was not yours to take back", error=True)

    def save(self) -> None:
        path = self.app.save_game(self.controller)
        if path is not None:
            self.toast.show(f"saved: {path.name}")

    def toggle_help(self) -> None:
        self.help.layout(self.window.width, self.window.height)
        self.help.set_visible(not self.help.visible)

    def rematch(self) -> None:
        self.app.start_game(self.controller.game.name, self.controller.settings, self.controller.seats)

    def leave(self) -> None:
        self.controller.close()

    # --- input ------------------------------------------------------------------------------------
    def on_mouse_motion(self, x, y, dx, dy) -> None:
        super().on_mouse_motion(x, y, dx, dy)
        if self.top_overlay() is None:
            self.view.on_mouse_motion(x, y)

    def on_mouse_press(self, x, y, button, modifiers) -> bool:
        if super().on_mouse_press(x, y, button, modifiers):
            return True
        return self.view.on_mouse_press(x, y, button)

    def on_key_press(self, symbol, modifiers) -> bool:
        ctrl = modifiers & key.MOD_CTRL
        if symbol in (key.F1, key.H) or (symbol == key.SLASH and modifiers & key.MOD_SHIFT):
            self.toggle_help()
        elif symbol == key.ESCAPE:
            if not self.close_top_overlay():
                self.app.show_menu()
        elif (symbol == key.Z and ctrl) or symbol == key.U:
            self.undo()
        elif symbol == key.S and ctrl:
            self.save()
        elif symbol == key.O and ctrl:
            self.app.open_saved_games()
        else:
            return False
        return True
