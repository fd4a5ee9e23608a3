"""The replay viewer: a finished or saved game shown move by move, with the game's own view.

Left, the game's view (the same GameView the game screen uses, given a ReplayController in its
ViewContext) above a scrub bar with one stop per move; right, a panel with the seats, "move k of
n", the move's notation and the buttons: one move back or on, the start and the end, play or
pause (a move every STEP_SECONDS), help and Back. Reached from the saved-games list (Replay
beside a save) and from the end of a game.

A replay only looks: the game is read the way a save is loaded (every move replayed through the
rules, recorded outcomes applied and never resolved again, the result compared with the saved
position), and from then on nothing moves, no computer player is asked, nothing is resolved and
no file is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyglet import shapes, sprite
from pyglet.event import EVENT_HANDLED
from pyglet.window import key, mouse

from simulator.core.controller import HistoryEntry, TurnController
from simulator.core.errors import IllegalAction
from simulator.core.outcomes import ModelResolver
from simulator.core.state import CHANCE, GameState
from simulator.core.text import printable
from simulator.render import theme
from simulator.render.game_view import GameView, ViewContext, game_ending, view_class_of
from simulator.render.screen import Screen
from simulator.render.widgets import (
    FRONT,
    MIDDLE,
    Button,
    Overlay,
    fit_text,
    fit_width,
    label,
    shrink_to_width,
)

STEP_SECONDS = 0.8             # the pace of Play: one move this often
SETTLE_SECONDS = 10.0          # an animation tick long enough to end any move's animation
SCRUB_HEIGHT = 56              # the strip under the view that holds the scrub bar
SCRUB_REACH = 14               # pixels above and below the bar that still grab it
BUTTON_ROWS = 4
REPLAY_KEYS = (
    ("Left, Right", "one move back, one move on"),
    ("Space", f"play or pause (a move every {STEP_SECONDS:g} s)"),
    ("Home, End", "the start, the last move"),
    ("Click, drag", "the bar under the table: go to any move"),
    ("F1 or H", "show or hide this help"),
    ("Tab, Enter", "move between buttons, press one"),
    ("Esc", "back"),
    ("F11", "full screen"),
    ("F12", "screenshot"),
    ("Ctrl+Q", "quit"),
)


class ReplayController(TurnController):
    """A game's recorded moves, to look at: `state` is the position after `shown` of its
    `moves`, and `history` the moves up to there, so a view reads it as it reads a live game.
    It never moves, asks no computer player, resolves no outcome and writes no file."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["resolver"] = ModelResolver()     # asked for nothing: outcomes are only replayed
        super().__init__(*args, **kwargs)
        self.moves: list[HistoryEntry] = []
        self.positions: list[GameState] = []     # positions[k]: after k moves
        self.shown = 0

    @classmethod
    def of_save(cls, path: str | Path) -> ReplayController:
        """A save file's game, checked as a load checks it (SaveError, one line, when the file
        is bad); the game's referee is not asked again (verify=False): outcomes are applied."""
        replay = cls.load(path, verify=False)
        assert isinstance(replay, cls)
        return replay._ready()

    @classmethod
    def of_game(cls, controller: TurnController) -> ReplayController:
        """The game of a live controller, read from its save form: the game, its autosave and
        its computer players are left alone."""
        return cls.of_save_dict(controller.to_save_dict())

    @classmethod
    def of_save_dict(cls, data: Any) -> ReplayController:
        """A game in its save form (a record attempt's replay), checked as a load checks it."""
        replay = cls.from_save_dict(data, verify=False)
        assert isinstance(replay, cls)
        return replay._ready()

    def _ready(self) -> ReplayController:
        self.moves = list(self.history)
        self.positions = [*self._before, self.state]
        self._before = []
        self.show(0)
        return self

    @property
    def total(self) -> int:
        return len(self.moves)

    def show(self, ply: int) -> None:
        """Show the position after `ply` moves (clamped to the game)."""
        ply = max(0, min(self.total, ply))
        self.shown = ply
        self.state = self.positions[ply]
        self.history = self.moves[:ply]
        self.version += 1

    def viewer(self) -> int | None:
        """Whose eyes the view takes: everyone's once the game is over, when nothing is hidden or
        nobody sat at the machine; in an unfinished game that hides things, those of the person
        who was to move last, so that a replay shows no more than the game did."""
        final = self.positions[-1] if self.positions else self.state
        people = self.person_seats()
        if final.is_terminal() or not self.info.hidden_information or not people:
            return None
        player = final.current_player()
        return player if player in people else people[0]

    # --- a replay only shows ----------------------------------------------------------------------
    def is_person_turn(self) -> bool:
        return False                 # views mark no legal moves and preview nothing

    def poll(self, now: float | None = None) -> bool:
        return False

    def play_computer_moves(self, limit: int | None = None) -> int:
        return 0

    def submit(self, action: Any, seat: int | None = None) -> None:
        raise IllegalAction("this is a replay: no move can be made here")

    def _record(self, player: int, action: Any) -> None:
        if self.positions:           # loaded: from now on nothing is added
            raise IllegalAction("this is a replay: no move can be made here")
        super()._record(player, action)

    def undo_target(self, seat: int | None = None) -> int | None:
        return None

    def undo(self, seat: int | None = None) -> bool:
        return False

    def autosave(self) -> None:
        """Never writes: the save it came from and every autosave stay as they are."""


class ReplayScreen(Screen):
    title = "replay"

    def __init__(self, window: Any, app: Any, replay: ReplayController) -> None:
        super().__init__(window)
        self.app = app
        self.replay = replay
        self.info = replay.info
        self.viewer = replay.viewer()
        context = ViewContext(replay, self.toast, lambda: self.viewer, window)
        self.view: GameView = view_class_of(replay.game)(context)
        self.view.enabled = False                 # the table only shows: no hover, no clicks
        self.playing = False
        self.elapsed = 0.0
        self.dragging = False
        self.panel_width = 320                          # set by layout (theme.side_panel_width)
        self.panel = shapes.RoundedRectangle(0, 0, self.panel_width, 10, radius=12, segments=8, color=theme.PANEL,
                                             batch=self.batch, group=MIDDLE)
        self.heading = label(self.info.title, size=26, batch=self.batch, group=FRONT, bold=True, serif=True,
                             color=theme.HEADING)
        self.subtitle = label("Replay", size=12, batch=self.batch, group=FRONT, color=theme.TEXT_DIM)
        self.turn_marker = shapes.RoundedRectangle(0, 0, self.panel_width - 24, 52, radius=8, segments=6,
                                                   color=(214, 160, 72, 70), batch=self.batch, group=MIDDLE)
        self.seat_names: list = []
        self.seat_details: list = []
        self.seat_icons: list = []
        for seat in range(len(replay.seats)):
            self.seat_names.append(label("", size=13, batch=self.batch, group=FRONT, bold=True))
            self.seat_details.append(label("", size=10.5, batch=self.batch, group=FRONT, color=theme.TEXT_DIM))
            image = self.view.seat_icon(seat)
            self.seat_icons.append(sprite.Sprite(image, batch=self.batch, group=FRONT)
                                   if image is not None else None)
        self.counter = label("", size=17, batch=self.batch, group=FRONT, bold=True)
        self.move_text = label("", size=12.5, batch=self.batch, group=FRONT, multiline=True,
                               width=self.panel_width - 40, anchor_y="top")
        self.previous_button = Button("‹ Previous", lambda: self.step(-1), self.batch, width=134, tooltip="Left")
        self.next_button = Button("Next ›", lambda: self.step(1), self.batch, width=134, tooltip="Right")
        self.start_button = Button("« Start", lambda: self.seek(0), self.batch, width=134, tooltip="Home")
        self.end_button = Button("End »", lambda: self.seek(replay.total), self.batch, width=134,
                                 tooltip="End")
        self.play_button = Button("Play", self.toggle_play, self.batch, width=282, primary=True,
                                  tooltip="Space")
        self.help_button = Button("Help", self.toggle_help, self.batch, width=134, tooltip="F1")
        self.back_button = Button("Back", self.back, self.batch, width=134, tooltip="Esc")
        self.buttons += [self.previous_button, self.next_button, self.start_button, self.end_button,
                         self.play_button, self.help_button, self.back_button]
        # the scrub bar: a track, the part played, a knob at the move shown
        self.track = shapes.RoundedRectangle(0, 0, 10, 8, radius=4, segments=4, color=theme.BUTTON_HOVER,
                                             batch=self.batch, group=MIDDLE)
        self.played = shapes.RoundedRectangle(0, 0, 10, 8, radius=4, segments=4, color=theme.ACCENT,
                                              batch=self.batch, group=FRONT)
        self.knob = shapes.Circle(0, 0, 9, color=theme.ACCENT_HOVER, batch=self.batch, group=FRONT)
        self.bar = (0.0, 0.0, 1.0)               # x, y (centre line), width of the track
        keys = "\n".join(f"{k:<14} {v}" for k, v in REPLAY_KEYS)
        self.help = Overlay(self.batch, f"Replay of {self.info.title}: keys",
                            f"{keys}\n\nA replay only shows the game: nothing in it changes the "
                            "game or its save.", width=640)
        self.help.body.font_name = ["DejaVu Sans Mono", "monospace"]
        self.help.button("Close", self.toggle_help, primary=True, width=140)
        self.overlays.append(self.help)
        # an unfinished game with secrets, played by two or more people here: it shows as the
        # last of them to move saw it, so that person says they are the one looking first
        self._identified = self.viewer is None or len(replay.person_seats()) < 2
        self.handover = Overlay(self.batch, "", "", width=520, body_size=14)
        if not self._identified:
            name = self.info.seat_name(self.viewer)      # type: ignore[arg-type]
            self.handover.set_text(f"Pass to {name}",
                                   f"This unfinished game is shown as {name} saw it: {name}'s hidden "
                                   "pieces will show. Click when only they can see the screen.")
            self.handover.button(f"I am {name}", self.take_over, primary=True, width=200)
            self.handover.button("Back", self.back, width=120)
        self.overlays.append(self.handover)
        self.text_floor = 0.0
        self.column_width = float(self.panel_width - 24)
        self.row_height = 58.0
        self.seat_tops: list[float] = []

    # --- the navigation stack ---------------------------------------------------------------------
    def layers(self) -> list[Any]:
        # the screen above the view: the replay's keys come first; what it leaves (a 3D view's
        # orbit drag and zoom) goes on to the view
        return [self.view, self, *self._modals]

    def close(self) -> None:
        self.view.close()
        self.replay.close()

    def enter(self) -> None:
        super().enter()
        if not self._identified:
            self.open_modal(self.handover, on_escape=self.back)

    def take_over(self) -> None:
        self._identified = True
        self.close_modal(self.handover)
        self._refresh()

    def draw(self) -> None:
        if self._identified:                      # nothing of the table before the person says
            self.view.draw()
        self.batch.draw()

    # --- moving through the game ------------------------------------------------------------------
    def seek(self, ply: int, keep_playing: bool = False) -> None:
        if not keep_playing:
            self.set_playing(False)
        if ply != self.replay.shown:
            one_on = ply == self.replay.shown + 1
            self.view.update(SETTLE_SECONDS)      # what the last move set going ends at once
            self.replay.show(ply)
            self.view.sync()
            if not one_on:                         # a jump or a step back shows the position still;
                self.view.update(SETTLE_SECONDS)   # one move on shows the move as it happens
        self._refresh()

    def step(self, delta: int) -> None:
        self.seek(self.replay.shown + delta)

    def set_playing(self, playing: bool) -> None:
        self.playing = playing
        self.elapsed = 0.0
        self.play_button.set_text("Pause" if playing else "Play")

    def toggle_play(self) -> None:
        if self.playing:
            self.set_playing(False)
            return
        if self.replay.shown >= self.replay.total:
            self.seek(0)                          # at the end, Play starts again
        self.set_playing(self.replay.total > 0)

    def toggle_help(self) -> None:
        if not self.close_modal(self.help):
            self.set_playing(False)
            self.open_modal(self.help)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.playing:
            self.elapsed += dt
            while self.playing and self.elapsed >= STEP_SECONDS:
                self.elapsed -= STEP_SECONDS
                self.seek(self.replay.shown + 1, keep_playing=True)
                if self.replay.shown >= self.replay.total:
                    self.set_playing(False)
        self.view.update(dt)

    # --- the scrub bar ------------------------------------------------------------------------------
    def ply_at(self, x: float) -> int:
        """The move under x on the scrub bar."""
        left, _, width = self.bar
        return round(max(0.0, min(1.0, (x - left) / width)) * self.replay.total)

    def bar_x(self, ply: int) -> float:
        left, _, width = self.bar
        return left + width * (ply / self.replay.total if self.replay.total else 0.0)

    def on_bar(self, x: float, y: float) -> bool:
        left, middle, width = self.bar
        return left - SCRUB_REACH <= x <= left + width + SCRUB_REACH and abs(y - middle) <= SCRUB_REACH

    # --- layout and the panel -----------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        self.panel_width = panel_width = theme.side_panel_width(width)
        panel_x = width - panel_width - 14
        self.view.layout(0, SCRUB_HEIGHT, panel_x - 6, height - SCRUB_HEIGHT)
        left, right = 36.0, panel_x - 36.0
        self.bar = (left, SCRUB_HEIGHT / 2, max(1.0, right - left))
        self.track.position = (left, SCRUB_HEIGHT / 2 - 4)
        self.track.width = self.bar[2]
        self.panel.position = (panel_x, 14)
        self.panel.width, self.panel.height = panel_width, height - 28
        self.move_text.width = panel_width - 40
        x = panel_x + 20
        y = height - 62.0
        self.heading.position = (x, y, 0)
        shrink_to_width(self.heading, panel_width - 40, 26, 14)    # a long title, a narrow panel
        self.subtitle.position = (x, y - 24, 0)
        y -= 40
        seats = len(self.seat_names)
        base = 34
        buttons_top = base + 50 * BUTTON_ROWS
        room = y - buttons_top - 120                    # what the counter and the move need
        self.row_height = max(18.0, min(58.0, room / max(seats, 1)))
        compact = self.row_height < 44
        self.seat_tops = []
        for seat, (name, detail, icon) in enumerate(zip(self.seat_names, self.seat_details, self.seat_icons,
                                                        strict=True)):
            top = y - seat * self.row_height
            self.seat_tops.append(top)
            text_x = x + (32 if icon is not None else 0)
            if icon is not None:
                size = min(36, self.row_height - 8)
                icon.scale = size / icon.image.width
                icon.position = (x + 10, top - self.row_height / 2, 0)
            name.font_size = 13 if not compact else 10.5
            name.position = (text_x, top - self.row_height / 2 - 4 if compact else top - 20, 0)
            detail.visible = not compact
            detail.position = (text_x, top - 38, 0)
        self.column_width = panel_width - 40 - 32
        self.turn_marker.width = panel_width - 24
        self.turn_marker.height = self.row_height - 4
        y -= seats * self.row_height + 30
        self.counter.position = (x, y, 0)
        self.move_text.position = (x, y - 14, 0)
        self.text_floor = buttons_top + 6
        half = (panel_width - 52) / 2                   # two buttons a row, 12 px apart
        self.back_button.place(x + half + 12, base, width=half)
        self.help_button.place(x, base, width=half)
        self.play_button.place(x, base + 50, width=panel_width - 40)
        self.start_button.place(x, base + 100, width=half)
        self.end_button.place(x + half + 12, base + 100, width=half)
        self.previous_button.place(x, base + 150, width=half)
        self.next_button.place(x + half + 12, base + 150, width=half)
        self.toast.layout(panel_x, buttons_top - 12, panel_width)
        self._refresh()

    def _refresh(self) -> None:
        """The panel and the scrub bar for the move shown."""
        replay, seat_name = self.replay, self.info.seat_name
        for seat, (name, detail) in enumerate(zip(self.seat_names, self.seat_details, strict=True)):
            fit_width(name, seat_name(seat), self.column_width)
            detail_words = self.view.seat_detail(seat) if self._identified else ""
            line = " · ".join(filter(None, [replay.who_plays(seat), detail_words]))
            fit_width(detail, line, self.column_width)
        player = replay.current_player()
        self.turn_marker.visible = 0 <= player < len(self.seat_names) and not replay.is_over()
        if self.turn_marker.visible:
            self.turn_marker.position = (self.panel.x + 12, self.seat_tops[player] - self.row_height + 2)
        self.counter.text = f"Move {replay.shown} of {replay.total}"
        fit_text(self.move_text, self._move_words(), self.text_floor)
        shown_x = self.bar_x(replay.shown)
        left, middle, _ = self.bar
        self.played.position = (left, middle - 4)
        self.played.width = max(8.0, shown_x - left + 4)
        self.knob.position = (shown_x, middle)
        self.previous_button.set_enabled(replay.shown > 0)
        self.start_button.set_enabled(replay.shown > 0)
        self.next_button.set_enabled(replay.shown < replay.total)
        self.end_button.set_enabled(replay.shown < replay.total)
        self.play_button.set_enabled(replay.total > 0)

    def _move_words(self) -> str:
        """The move shown, as the history wrote it, and at the end how the game ended."""
        replay = self.replay
        if replay.shown == 0:
            text = "The start: no move yet." if replay.total else "No move was made in this game."
        else:
            entry = replay.moves[replay.shown - 1]
            who = (self.info.seat_name(entry.player) if entry.player >= 0
                   else "Chance" if entry.player == CHANCE else "Result")
            words = printable(f"{who}: {self.view.describe_move(entry.action)}", 160).split(" ")
            text = " ".join(w if len(w) <= 26 else w[:25] + "…" for w in words)   # long numbers wrap
        if replay.shown == replay.total and replay.total:
            if replay.is_over():
                end = game_ending(self.view, self.info, replay.state.winners(),
                                  solo=len(replay.seats) == 1)
                text += f"\n\n{end} {self.view.result_text()}".rstrip()
            else:
                text += "\n\nThe game was not finished here."
        return text

    # --- input --------------------------------------------------------------------------------------
    def modal_key(self, overlay: Overlay, symbol: int, modifiers: int) -> bool | None:
        if overlay is self.help and symbol in (key.F1, key.H):
            self.toggle_help()
        return EVENT_HANDLED

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if modifiers & (key.MOD_CTRL | key.MOD_ALT):
            return None                           # Ctrl+Q and the like: the window's
        if symbol == key.LEFT:
            self.step(-1)
        elif symbol == key.RIGHT:
            self.step(1)
        elif symbol == key.HOME:
            self.seek(0)
        elif symbol == key.END:
            self.seek(self.replay.total)
        elif symbol == key.SPACE:
            self.toggle_play()
        elif symbol in (key.F1, key.H):
            self.toggle_help()
        else:
            return super().on_key_press(symbol, modifiers)
        return EVENT_HANDLED

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if super().on_mouse_press(x, y, button, modifiers):
            return EVENT_HANDLED
        if button == mouse.LEFT and self.on_bar(x, y):
            self.dragging = True
            self.seek(self.ply_at(x))
            return EVENT_HANDLED
        return None

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        if self.dragging:
            self.seek(self.ply_at(x))
            return EVENT_HANDLED
        return None

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if self.dragging and button == mouse.LEFT:
            self.dragging = False
            return EVENT_HANDLED
        return None
