"""The screen of a game in progress, the same for every game.

Left: the game's own view (its board or table), which draws its own pass and sits on pyglet's
handler stack above this screen, so it hears every mouse and key event first. Right: the side
panel with the seats (icon, name, a detail such as stone counts, a marker on the seat to move),
the status line, the hint of what the hovered thing would do, messages, and the buttons Undo,
Save, Load, Help, Menu. Over it, modal overlays: help (keys and short rules), the end of the
game, the hand-over between people at one machine when the game hides something, and the
question before leaving. Computer moves and outcomes arrive through controller.poll() from the
clock; drawing never blocks.
"""

from __future__ import annotations

from typing import Any

from pyglet import shapes, sprite
from pyglet.event import EVENT_HANDLED
from pyglet.window import key

from simulator.app.move_log import MoveLog, runs_of
from simulator.core import registry
from simulator.core.controller import TurnController
from simulator.core.save_check import refusal_of
from simulator.core.state import CHANCE, OUTCOME
from simulator.render import theme
from simulator.render.game_view import GameView, ViewContext, game_ending, view_class_of
from simulator.render.screen import Screen
from simulator.render.widgets import (
    FRONT,
    MIDDLE,
    Button,
    Overlay,
    fit_lines,
    fit_text,
    fit_width,
    label,
    shrink_to_width,
)

BUTTONS_HEIGHT = 150            # the three rows of buttons at the bottom of the panel
TOAST_ROOM = 40                 # the toast's line over the buttons, which the texts above leave free
COMMON_KEYS = (
    ("Ctrl+Z or U", "undo your last move (and the computer's answer)"),
    ("Ctrl+S", "save the game"),
    ("Ctrl+O", "open a saved game"),
    ("Ctrl+L", "every move so far (the panel's log, whole)"),
    ("F1 or H", "show or hide this help"),
    ("Tab, Enter", "move between buttons, press one"),
    ("Esc", "close a window; in the game, back to the menu"),
    ("Enter", "after the game: the results again"),
    ("Ctrl+M", "sound off or on"),
    ("Ctrl+Up / Down", "the sound's volume"),
    ("F11", "full screen"),
    ("F12", "screenshot"),
    ("Ctrl+Q", "quit"),
)
# a game played across machines (joined or hosted): no move is taken back, and its keys say so
NO_UNDO_ACROSS_MACHINES = "moves are not taken back in a game across machines"
KEYS_ACROSS_MACHINES = tuple(k for k in COMMON_KEYS if not k[0].startswith("Ctrl+Z"))


class GameScreen(Screen):
    title = "game"
    screen_keys: tuple[tuple[str, str], ...] = COMMON_KEYS     # the help's keys after the game's own

    def __init__(self, window: Any, app: Any, controller: TurnController) -> None:
        super().__init__(window)
        self.app = app
        self.controller = controller
        self.info = controller.info
        self.viewer: int | None = self._first_viewer()
        # with secrets and two or more people at the machine, whoever sits there when the screen
        # opens (a loaded or continued game, a new one) says who they are before anything shows
        self._identified = (not (self.info.hidden_information and len(controller.person_seats()) >= 2)
                            or controller.is_over())     # a finished game hides nothing more
        self._handover_to: int | None = None
        self.panel_width = 320                          # set by layout (theme.side_panel_width)
        self.panel = shapes.RoundedRectangle(0, 0, self.panel_width, 10, radius=12, segments=8, color=theme.PANEL,
                                             batch=self.batch, group=MIDDLE)
        self.heading = label(self.info.title, size=26, batch=self.batch, group=FRONT, bold=True, serif=True,
                             color=theme.HEADING)
        context = ViewContext(controller, self.toast, lambda: self.viewer, window)
        self.view: GameView = view_class_of(controller.game)(context)
        self.seat_names: list = []
        self.seat_details: list = []
        self.seat_icons: list = []
        self._text_rooms = [float(self.panel_width - 50)] * len(controller.seats)   # set by layout
        self.turn_marker = shapes.RoundedRectangle(0, 0, self.panel_width - 24, 58, radius=8, segments=6,
                                                   color=(214, 160, 72, 70), batch=self.batch, group=MIDDLE)
        for seat in range(len(controller.seats)):
            self.seat_names.append(label("", size=14, batch=self.batch, group=FRONT, bold=True))
            # breaks only between its parts (fit_lines), onto a second line where the row has room
            self.seat_details.append(label("", size=11, batch=self.batch, group=FRONT, color=theme.TEXT_DIM,
                                           multiline=True, width=4000, anchor_y="top"))
            image = self.view.seat_icon(seat)
            icon = sprite.Sprite(image, batch=self.batch, group=FRONT) if image is not None else None
            self.seat_icons.append(icon)
        self.status = label("", size=13.5, batch=self.batch, group=FRONT, multiline=True,
                            width=self.panel_width - 40, anchor_y="top")
        self.hint = label("", size=11.5, batch=self.batch, group=FRONT, multiline=True,
                          width=self.panel_width - 40, color=theme.TEXT_DIM, anchor_y="top")
        self.move_log = MoveLog(self.batch, FRONT, self.panel_width - 40)
        self._logged: tuple[int, int] = (-1, -1)     # (moves, controller version) the log shows
        self.undo_button = Button("Undo", self.undo, self.batch, width=134, tooltip="Ctrl+Z")
        self.save_button = Button("Save", self.save, self.batch, width=134, tooltip="Ctrl+S")
        self.load_button = Button("Load", app.open_saved_games, self.batch, width=134, tooltip="Ctrl+O")
        self.help_button = Button("Help", self.toggle_help, self.batch, width=134, tooltip="F1")
        self.menu_button = Button("Menu", self.ask_to_leave, self.batch, width=134)
        self.moves_button = Button("Moves", self.toggle_moves, self.batch, width=134, tooltip="Ctrl+L")
        self.buttons += [self.undo_button, self.save_button, self.load_button, self.help_button,
                         self.menu_button, self.moves_button]

        own = {k for k, _ in self.view.controls}         # a game's own meaning of a key wins
        keys = "\n".join(f"{k:<14} {v}" for k, v in (*self.view.controls,
                                                        *(c for c in self.screen_keys if c[0] not in own)))
        self.help = self._overlay(f"{self.info.title}: keys and rules",
                                  f"KEYS\n{keys}\n\nRULES IN SHORT\n{self.view.rules_summary}", width=720)
        self.help.body.font_name = ["DejaVu Sans Mono", "monospace"]
        self.help.button("Close", self.toggle_help, primary=True, width=140)
        # the whole move log, newest page first shown: in a small window the panel has no room
        # for the log at all, and a long game's start is many wheel turns back
        self.moves = self._overlay("Moves so far", "", width=680, body_size=11.5)
        self.moves.button("Close", self.toggle_moves, primary=True, width=140)
        self.end = self._overlay("", "", width=660, body_size=14)
        self.end.button("Look at the board", lambda: self.close_modal(self.end), width=190)
        self.end.button("Replay", lambda: self.app.replay_game(self.controller), width=120)
        self.end.button("New game", self.rematch, primary=True, width=140)
        self.end.button("Menu", self.leave_game, width=120)
        self.handover = self._overlay("", "", width=520, body_size=14)
        self.handover_button = self.handover.button("I am ready", self.take_over, primary=True, width=200)
        self.leave_question = self._overlay(
            "Leave this game?", "It is kept: \"Continue last game\" and Saved games bring it back.",
            width=520, body_size=13)
        self.leave_question.button("Stay", lambda: self.close_modal(self.leave_question), width=120)
        self.leave_question.button("Leave", self.leave_game, primary=True, width=120)
        self.row_height = 66.0
        self.columns = 1
        self.column_width = float(self.panel_width - 24)
        self.compact = False
        self._shown_autosave_error: str | None = None
        self._seat_texts: list[tuple[str, str]] = [("", "")] * len(controller.seats)
        self.text_floor = 0.0
        self._shown_status = self._shown_hint = "\0"    # nothing shown yet
        self._seen_version = -1
        self._end_shown = False
        self._moves_when_opened = len(controller.history)
        self._finish_told = False
        self._clock = 0.0
        # a loaded save's results being checked in the background (App._show_game), and the
        # file's name for a refusal; the controller stays paused until the check is over
        self.save_check: Any = None
        self.save_source = ""

    def _overlay(self, title: str, body: str, width: float, body_size: float = 12.5) -> Overlay:
        overlay = Overlay(self.batch, title, body, width=width, body_size=body_size)
        self.overlays.append(overlay)
        return overlay

    # --- the navigation stack -----------------------------------------------------------------------
    def layers(self) -> list[Any]:
        return [self, self.view, *self._modals]

    def close(self) -> None:
        if self.save_check is not None:
            self.save_check.close()
        self.controller.close()
        self.view.close()

    def draw(self) -> None:
        if not self.table_hidden():
            self.view.draw()
        self.batch.draw()

    def table_hidden(self) -> bool:
        """The table is not shown while the machine passes between people."""
        return self.handover.visible or not self._identified

    # --- who looks at the table -------------------------------------------------------------------
    def _first_viewer(self) -> int | None:
        people = self.controller.person_seats()
        if not people:
            return None
        player = self.controller.current_player()
        return player if player in people else people[0]

    def _check_viewer(self) -> None:
        """Between people at one machine: when the next person's secrets would show, hide the
        table until they say they are there; with nothing hidden, the table simply follows."""
        people = self.controller.person_seats()
        player = self.controller.current_player()
        if len(people) < 2 or self.controller.is_over():
            return
        if not self._identified:                  # just opened: the person to move, or the first
            player = player if player in people else people[0]     # person if a computer moves
        elif player not in people or player == self.viewer:
            return
        if not self.info.hidden_information:
            self.viewer = player
            self.view.sync()
            return
        self._handover_to = player
        name = self.info.seat_name(player)
        self.handover.set_text(f"Pass to {name}",
                               f"{name}, click when only you can see the screen: your hidden "
                               f"pieces will show.")
        self.handover_button.set_text(f"I am {name}")
        self.view.enabled = False
        self.open_modal(self.handover, on_escape=self.ask_to_leave)

    def take_over(self) -> None:
        self.viewer = self._handover_to
        self._identified = True
        self.view.enabled = True
        self.close_modal(self.handover)
        self.view.sync()

    # --- layout -----------------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        self.panel_width = panel_width = theme.side_panel_width(width)
        panel_x = width - panel_width - 14
        self.view.layout(0, 0, panel_x - 6, height)
        self.panel.position = (panel_x, 14)
        self.panel.width, self.panel.height = panel_width, height - 28
        self.status.width = self.hint.width = panel_width - 40
        x = panel_x + 20
        y = height - 62.0
        self.heading.position = (x, y, 0)
        shrink_to_width(self.heading, panel_width - 40, 26, 14)    # a long title, a narrow panel
        y -= 30
        seats = len(self.seat_names)
        room = height - 92 - BUTTONS_HEIGHT - 110          # what the status and hint need
        # one column of roomy rows; when they do not fit, compact rows in up to 3 columns
        self.columns = 1
        self.row_height = min(66.0, room / max(seats, 1))
        while self.row_height < 22 and self.columns < 3:
            self.columns += 1
            self.row_height = min(66.0, room / -(-seats // self.columns))
        self.row_height = max(16.0, self.row_height)
        self.compact = self.row_height < 48 or self.columns > 1
        column_width = (panel_width - 24) / self.columns
        for seat, (name, detail, icon) in enumerate(zip(self.seat_names, self.seat_details, self.seat_icons,
                                                        strict=True)):
            column, row = seat % self.columns, seat // self.columns
            left, top = panel_x + 12 + column * column_width, y - row * self.row_height
            name.font_size = 14 if not self.compact else (11 if self.columns == 1 else 9.5)
            size = min(40, self.row_height - 6)
            # the icon (a stone, a token, a ladybird) beside the name, never over its first letters
            text_x = left + (6 + size + 8 if icon is not None and self.columns == 1 else 6)
            if icon is not None:
                icon.visible = self.columns == 1
                icon.scale = size / icon.image.width
                icon.position = (left + 6 + size / 2, top - self.row_height / 2 + 2, 0)
            name.position = (text_x, top - self.row_height / 2 - 4 if self.compact else top - 22, 0)
            self._text_rooms[seat] = column_width - (text_x - left) - 8   # beside an icon or not
            detail.visible = not self.compact
            detail.position = (text_x, top - 29, 0)
        self.column_width = column_width
        self.turn_marker.height = self.row_height - 2 if self.compact else self.row_height - 6
        self.turn_marker.width = column_width
        y -= -(-seats // self.columns) * self.row_height + 12
        self.status.position = (x, y, 0)
        self.hint.position = (x, y - 76, 0)
        base = 34
        self.text_floor = base + BUTTONS_HEIGHT + 6
        half = (panel_width - 52) / 2                   # two buttons a row, 12 px apart
        self.menu_button.place(x, base, width=half)
        self.moves_button.place(x + half + 12, base, width=half)
        self.help_button.place(x + half + 12, base + 50, width=half)
        self.load_button.place(x, base + 50, width=half)
        self.save_button.place(x + half + 12, base + 100, width=half)
        self.undo_button.place(x, base + 100, width=half)
        self.toast.layout(panel_x, base + BUTTONS_HEIGHT - 12, panel_width)
        self._shown_status = self._shown_hint = "\0"    # lay the texts out again
        self._seat_texts = [("", "")] * len(self.seat_names)
        self._refresh_panel()

    # --- clock ------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        self._clock += dt
        if self.save_check is not None and self._poll_save_check():
            return
        self.controller.poll()
        if self.controller.version != self._seen_version:
            self._seen_version = self.controller.version
            self._check_viewer()
            self.view.sync()
            if self.controller.autosave_error != self._shown_autosave_error:
                self._shown_autosave_error = self.controller.autosave_error
                if self._shown_autosave_error:      # said once, not after every move
                    self.toast.show(self._shown_autosave_error, error=True)
        if self.controller.search_error:     # said as soon as it happens, a move made or not
            self.toast.show(self.controller.search_error, error=True)
            self.controller.search_error = None
        self.view.update(dt)
        self._refresh_panel()
        if self.controller.is_over() and not self._end_shown and not self.view.still_showing():
            self._end_shown = True             # after the last fall has been seen, not over it
            self._show_end()
        elif not self.controller.is_over():
            self._end_shown = False

    def _poll_save_check(self) -> bool:
        """Follow the background check of a loaded save's results: play resumes when it finds
        them as saved; a refusal closes the game (True: this screen is gone)."""
        check = self.save_check
        if not check.poll():
            return False
        self.save_check = None
        if check.problems:
            where = f"{self.save_source}: " if self.save_source else ""
            self.app.refuse_loaded_game(where + refusal_of(check.problems))
            return True
        self.controller.results_to_check = None
        self.controller.resume()
        if check.failure is not None:
            self.toast.show(f"the saved results could not be checked ({check.failure}); they are "
                            "taken as saved", error=True)
        return False

    def _status(self) -> str:
        controller, seat_name = self.controller, self.info.seat_name
        player = controller.current_player()
        if self.save_check is not None:
            dots = "." * (1 + int(self._clock * 3) % 3)
            return f"Opening the game: {self.save_check.progress_text()}{dots}"
        if controller.is_over():
            again = "" if self.end.visible else " Enter: results."
            return game_ending(self.view, self.info, controller.state.winners(),
                               solo=len(controller.seats) == 1) + again
        dots = "." * (1 + int(self._clock * 3) % 3)
        if player == OUTCOME:
            return f"{self.view.outcome_text()}{dots}"
        if player == CHANCE:
            return "Dealing..."
        if controller.is_person_turn():
            return f"{seat_name(player)} to move. {self.view.prompt()}".strip()
        return f"{seat_name(player)} {self.info.seat_verb(player, 'is', 'are')} {self.view.computer_doing}{dots}"

    def who_plays(self, seat: int) -> str:
        """Who plays the seat, as its row in the panel says it."""
        return self.controller.who_plays(seat)

    def _refresh_panel(self) -> None:
        controller = self.controller
        player = controller.current_player()
        private = self.table_hidden()     # while the machine passes on, no seat's secrets show
        for seat, (name, detail) in enumerate(zip(self.seat_names, self.seat_details, strict=True)):
            text = self.info.seat_name(seat)
            if self.compact and controller.seats[seat].is_computer:
                text += f" · {self.who_plays(seat).removeprefix('Computer, ')}"
            line = " · ".join(filter(None, [self.who_plays(seat),
                                            "" if private else self.view.seat_detail(seat)]))
            if self._seat_texts[seat] != (text, line):   # cut to fit only when they change:
                self._seat_texts[seat] = (text, line)     # a cut text differs from what was asked
                fit_width(name, text, self._text_rooms[seat])
                fit_lines(detail, line.split(" · "), self._text_rooms[seat],
                          lines=2 if self.row_height >= 64 else 1)
        if 0 <= player < len(self.seat_names):
            self.turn_marker.visible = True
            column = player % self.columns
            self.turn_marker.position = (self.panel.x + 12 + column * self.column_width,
                                         self.seat_names[player].y - self.row_height / 2
                                         + (4 if self.compact else 8))
        else:
            self.turn_marker.visible = False
        status = self._status()
        hint = "" if private else self.view.hint
        if status != self._shown_status or hint != self._shown_hint:
            self._shown_status, self._shown_hint = status, hint
            # short of room, the turn is told by the marker on its seat and the bar's title
            fit_text(self.status, status, self.text_floor,
                     *([self.view.prompt()] if controller.is_person_turn() and self.view.prompt() else []))
            self.hint.y = self.status.y - self.status.content_height - 10
            fit_text(self.hint, hint, self.text_floor)
            top = self.hint.y - (self.hint.content_height + 12 if hint else 0)
            # the log stops above the toast's line: a verdict said there never covers its last move
            self.move_log.layout(self.status.x, top, self.log_floor(), self.panel_width - 40)
        self._refresh_log()
        self.undo_button.set_enabled(controller.can_undo(self._undoing_seat()))

    def log_floor(self) -> float:
        """The bottom of the move log: above the toast's line over the buttons."""
        return self.text_floor + TOAST_ROOM

    def _refresh_log(self) -> None:
        """The move log's lines, worked out again only when the game has moved."""
        controller = self.controller
        now = (len(controller.history), controller.version)
        if now == self._logged:
            return
        self._logged = now
        self.move_log.set_lines(runs_of([self._move_line(entry) for entry in controller.history]))

    def _move_line(self, entry: Any) -> str:
        who = (f"{self.info.seat_name(entry.player)} " if entry.player >= 0
               else "Result: " if entry.player == OUTCOME else "")      # chance speaks for itself
        return f"{who}{self.view.describe_move(entry.action)}"

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        if scroll_y and self.move_log.contains(x, y):
            self.move_log.scroll(1 if scroll_y > 0 else -1)     # up: back through the game
            return EVENT_HANDLED
        return None

    def _show_end(self) -> None:
        title = game_ending(self.view, self.info, self.controller.state.winners(),
                            solo=len(self.controller.seats) == 1, as_title=True)
        body = self.view.result_text()
        finished = registry.get_app(self.controller.game).finished
        if finished is not None and len(self.controller.history) > self._moves_when_opened \
                and not self._finish_told:       # ended here, not loaded finished: kept once
            self._finish_told = True
            said = finished(self.controller)
            body = f"{body}\n{said}" if said else body
        self.end.set_text(title, body)
        self._identified = True                 # over: the board is shown, whoever looks
        self.close_modal(self.handover)
        self.view.enabled = True
        self.open_modal(self.end)

    # --- actions ----------------------------------------------------------------------------------
    def _undoing_seat(self) -> int | None:
        """Whose moves Undo may take back: with hidden information and two or more people at
        the machine, only those of the person now looking (anything else would hand them
        another person's turn); otherwise the last person's move, as Board Game Arena does."""
        if self.info.hidden_information and len(self.controller.person_seats()) > 1:
            return self.viewer
        return None

    def undo(self) -> None:
        seat = self._undoing_seat()
        if self.controller.undo(seat):
            self.close_modal(self.end)
            self.toast.show(f"{self.info.seat_possessive(self.controller.current_player())} move taken back")
        elif not self.controller.history:
            self.toast.show("nothing to undo yet", error=True)
        else:
            self.toast.show("nothing to undo: the last move cannot be taken back (it revealed "
                            "something, or another person has moved since)", error=True)

    def save(self) -> None:
        path = self.app.save_game(self.controller)
        if path is not None:
            self.toast.show(f"saved: {path.name}")

    def toggle_help(self) -> None:
        if not self.close_modal(self.help):
            self.open_modal(self.help)

    def toggle_moves(self) -> None:
        """Show every move so far in a dialog, at its newest page (older pages: wheel, Page Up)."""
        if self.close_modal(self.moves):
            return
        self._refresh_log()
        self.moves.set_text(body="\n".join(self.move_log.lines) or "No moves yet.")
        self.open_modal(self.moves)
        self.moves.turn_page(len(self.moves.pages) - 1)

    def rematch(self) -> None:
        self.app.start_game(self.controller.game.name, self.controller.settings, self.controller.seats)

    def ask_to_leave(self) -> None:
        if self.controller.is_over() or not self.controller.history:
            self.leave_game()
        else:
            self.open_modal(self.leave_question)

    def leave_game(self) -> None:
        self.app.show_menu()

    def back(self) -> None:
        self.ask_to_leave()

    # --- input ------------------------------------------------------------------------------------
    def modal_key(self, overlay: Overlay, symbol: int, modifiers: int) -> bool | None:
        if overlay is self.help and symbol in (key.F1, key.H):
            self.toggle_help()
        elif overlay is self.moves and symbol == key.L and modifiers & key.MOD_CTRL:
            self.toggle_moves()
        elif overlay is self.end and symbol == key.S and modifiers & key.MOD_CTRL:
            self.save()                   # a finished game is saved from its results too
        return EVENT_HANDLED

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        ctrl = modifiers & key.MOD_CTRL
        if symbol in (key.F1, key.H) or (symbol == key.SLASH and modifiers & key.MOD_SHIFT):
            self.toggle_help()
        elif (symbol == key.Z and ctrl) or symbol == key.U:
            self.undo()
        elif symbol == key.S and ctrl:
            self.save()
        elif symbol == key.O and ctrl:
            self.app.open_saved_games()
        elif symbol == key.L and ctrl:
            self.toggle_moves()
        elif symbol in (key.ENTER, key.RETURN) and self.controller.is_over() and not self._modals \
                and self.focus.focused is None:
            self._show_end()            # after "Look at the board": the results again
        else:
            return super().on_key_press(symbol, modifiers)
        return EVENT_HANDLED
