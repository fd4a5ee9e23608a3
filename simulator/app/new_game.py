"""The new-game screen, built from the game's own description: how many players, who sits in
each seat (a person here, a person at another machine, or the computer at any strength the game
offers), and the game's settings. A seat played at another machine makes Start host the game:
the window shows each such seat's join code (app/hosting_screen.py).

A choice that pins another setting (a classic start played on one board size only) selects it and locks
the other options of that row, so what looks chosen is what starts. Up to four seats get a row of
option buttons each; more (up to 20) get one compact button per seat that steps through the
options on a click (right click: backwards). Tab and the arrows move, Enter starts.

When the rows do not fit above Start and Back (a small window, many settings), the rows scroll:
the wheel, Page Up/Down, and Tab to a row out of sight bring it in; a row is shown whole or not
at all, and a note says more rows lie above or below.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pyglet.event import EVENT_HANDLED
from pyglet.window import key, mouse

from simulator.app import last_choices
from simulator.core import registry
from simulator.core.controller import COMPUTER, PERSON, Seat
from simulator.render import theme
from simulator.render.screen import NAVIGATION_KEYS, Screen
from simulator.render.widgets import FRONT, Button, fit_lines, fit_width, label

ROW_SEATS = 4            # up to this many seats, each seat is a row of option buttons
BUTTONS_TOP = 92         # rows end above Start and Back
SCROLL_STEP = 44.0       # one row of option buttons
PERSON_HERE, REMOTE_PERSON = 0, 1     # the first two options of a seat; the computers follow
FIRST_COMPUTER = 2
REMOTE_NOTE = "Remote: a person at another machine"


def _option_width(setting: registry.Setting) -> float:
    """Numbers (beans 0-10, a seat 1-8) get narrow buttons, so their row fits on one line."""
    return 54 if all(len(c.label) <= 3 for c in setting.choices) else 118


class _ChoiceRow:
    """A caption and a row of mutually exclusive buttons."""

    def __init__(self, screen: NewGameScreen, caption: str, options: list[str], selected: int,
                 option_width: float = 118) -> None:
        self.screen = screen
        self.caption = label(caption, size=15, batch=screen.batch, group=FRONT, anchor_y="center", bold=True)
        self.selected = selected
        self.locked: int | None = None
        self.offered = [True] * len(options)     # the options that make sense now (shown)
        self.hidden = False                      # the whole row means nothing now (Choice.hides)
        self.options: list[Button] = []
        for n, text in enumerate(options):
            button = Button(text, partial(self.choose, n), screen.batch, size=12.5, width=option_width,
                            height=36)
            self.options.append(button)
            screen.buttons.append(button)
        self.select(selected)

    def choose(self, n: int) -> None:
        self.select(n)
        self.screen.changed()

    def select(self, n: int) -> None:
        self.selected = n
        for i, button in enumerate(self.options):
            button.set_selected(i == n)

    def lock(self, n: int | None, offered: list[bool] | None = None) -> None:
        """Pin the row to option n (others disabled), or free it (None); `offered`: which
        options make sense now (the others not shown, e.g. the first player at seat 3 of 2; one
        selected that does not goes back to the first that does)."""
        self.locked = n
        self.offered = offered = offered or [True] * len(self.options)
        if n is None and not offered[self.selected] and any(offered):
            self.select(offered.index(True))
        if n is not None:
            self.select(n)
        for i, button in enumerate(self.options):
            button.set_enabled((n is None or i == n) and offered[i])

    def set_visible(self, visible: bool) -> None:
        self.caption.visible = visible
        for button, offered in zip(self.options, self.offered, strict=True):
            button.set_visible(visible and offered)

    def place(self, x: float, y: float, width: float, caption_width: float = 170) -> float:
        """Lay out from the top-left (x, y), the buttons `caption_width` to the right; returns
        the height used (`place` may stand rows of buttons under each other when they do not
        fit one line)."""
        self.caption.position = (x, y - 18, 0)
        left, right = x + caption_width, x + width
        bx, by, rows = left, y - 36, 1
        for button in (b for b, offered in zip(self.options, self.offered, strict=True) if offered):
            if bx > left and bx + button.width > right:
                bx, by, rows = left, by - 44, rows + 1
            button.place(bx, by)
            bx += button.width + 8
        return rows * 44 + 14


class _SeatButton(Button):
    """One seat in the compact grid: 'Player 8: Easy'; a click steps to the next option."""

    WIDTH = 176

    def __init__(self, screen: NewGameScreen, seat: int, options: list[str], selected: int) -> None:
        super().__init__("", self.step, screen.batch, size=11, width=self.WIDTH, height=30)
        self.screen, self.seat, self.choices = screen, seat, options
        self.choice = selected
        self.step(0)

    def step(self, delta: int = 1) -> None:
        self.choice = (self.choice + delta) % len(self.choices)
        short = self.choices[self.choice].removeprefix("Computer: ")
        text = f"{self.screen.info.seat_name(self.seat)}: {short}"
        fit_width(self.text, text, self.width - 12)


class NewGameScreen(Screen):
    title = "new game"

    def __init__(self, window: Any, app: Any, game: str) -> None:
        super().__init__(window)
        self.app = app
        self.game = registry.get_game(game)
        self.info = self.game.info
        self.heading = label(f"New game of {self.info.title}", size=28, batch=self.batch, group=FRONT,
                             anchor_x="center", bold=True, serif=True)
        self.blurb = label(self.info.blurb, size=13, batch=self.batch, group=FRONT, anchor_x="center",
                           color=theme.TEXT_DIM)
        self.strengths = list(self.game.strengths.values())
        many = len(self.strengths) >= 3
        self.seat_options = ["Person", "Remote"] + [s.label if many else f"Computer: {s.label}"
                                                    for s in self.strengths]
        if len(self.strengths) == 1:             # one level (a computer that only rolls dice): no name
            self.seat_options[FIRST_COMPUTER] = "Computer"
        if not self.strengths:
            self.seat_options.append("Computer")
        counts = self.info.counts()
        self.counts = counts
        self.count_row = _ChoiceRow(self, "Players", [str(n) for n in counts],
                                    counts.index(self.info.default_players),
                                    option_width=44 if len(counts) > 6 else 118)
        self.count_row.set_visible(len(counts) > 1)
        self.seat_rows: list[_ChoiceRow] = []
        self.seat_buttons: list[_SeatButton] = []
        computers = ", ".join(s.label for s in self.strengths) + ": computer players" if many else ""
        self._note_parts = [part for part in (computers, REMOTE_NOTE) if part]
        self.computer_note = label("", size=11, batch=self.batch, group=FRONT, color=theme.TEXT_DIM,
                                   multiline=True, width=4000, anchor_y="top")
        self.setting_rows = [(setting, _ChoiceRow(self, setting.label, [c.label for c in setting.choices],
                                                  setting.default, _option_width(setting)))
                             for setting in self.info.settings]
        self.more = label("", size=11, batch=self.batch, group=FRONT, anchor_x="center", color=theme.TEXT_DIM)
        self.scroll = 0.0                       # how far the rows are scrolled up (pixels)
        self.max_scroll = 0.0
        self._kept_seats = self._recall()
        self.start = Button("Start", self.start_game, self.batch, size=16, width=180, height=46, primary=True)
        self.back_button = Button("Back", self.back, self.batch, width=140, height=46)
        self._seen = self._selections()
        self._follow_player_count()
        self._build_seats()

    def _recall(self) -> list[int]:
        """Select what was chosen when this game was last started; the seats' options, for the
        first _build_seats."""
        players, seats, settings = last_choices.load(self.info.name)
        if players in self.counts:
            self.count_row.select(self.counts.index(players))
        for setting, row in self.setting_rows:
            labels = [c.label for c in setting.choices]
            if settings.get(setting.name) in labels:
                row.select(labels.index(settings[setting.name]))
        # an option that no longer exists: that seat's usual one (the others keep their places)
        return [self.seat_options.index(label) if label in self.seat_options else self._default_option(seat)
                for seat, label in enumerate(seats)]

    def _remember(self) -> None:
        chosen = self._seat_choices()
        last_choices.store(self.info.name, self.players(), [self.seat_options[n] for n in chosen],
                           {setting.name: setting.choices[row.selected].label
                            for setting, row in self.setting_rows})

    def _seat_choices(self) -> list[int]:
        """Each seat's option (an index into seat_options), from its row or its compact button."""
        return [row.selected for row in self.seat_rows] + [b.choice for b in self.seat_buttons]

    def _selections(self) -> tuple[int, ...]:
        return (self.count_row.selected, *(row.selected for _, row in self.setting_rows))

    def _follow_player_count(self) -> None:
        """Keep the player count and the choices that go with one (3 tables: 12 players)
        together: the one a person just changed leads."""
        now = self._selections()
        count_changed = now[0] != self._seen[0]
        for n, (setting, row) in enumerate(self.setting_rows):
            tied = [c.players for c in setting.choices]
            if not any(tied):
                continue
            choice = setting.choices[row.selected]
            if now[n + 1] != self._seen[n + 1] and not count_changed and choice.players in self.counts:
                self.count_row.select(self.counts.index(choice.players))
            elif self.players() in tied and (choice.players is not None or all(tied)):
                # the count leads to the choice that goes with it from one tied to another count;
                # a choice that takes any count stays (a practice aid stays off for one player,
                # a chain game alone stays a chain game); one that makes no sense at the count
                # (`seats`) gives way to the first that does (a solo game)
                row.select(tied.index(self.players()))
            elif choice.players is not None:   # a count it does not go with (a solo game of 2):
                untied = [i for i, c in enumerate(setting.choices) if c.players is None]
                if untied:                     # back to the usual choice, or the first free one
                    row.select(setting.default if setting.default in untied else untied[0])
        self._seen = self._selections()

    def players(self) -> int:
        return self.counts[self.count_row.selected]

    def _default_option(self, seat: int) -> int:
        """A person in the first seat, the computer (its second level) in the others."""
        if seat == 0:
            return PERSON_HERE
        return FIRST_COMPUTER + min(1, len(self.seat_options) - FIRST_COMPUTER - 1)

    def _build_seats(self) -> None:
        kept = self._seat_choices()
        kept = kept or self._kept_seats                     # the first build: as last time
        for row in self.seat_rows:
            row.caption.delete()
            for button in row.options:
                button.delete()
        for button in self.seat_buttons:
            button.delete()
        self.seat_rows, self.seat_buttons = [], []
        n = self.players()
        choice = [kept[s] if s < len(kept) else self._default_option(s) for s in range(n)]
        self.buttons = list(self.count_row.options)
        if n <= ROW_SEATS:
            # short options (Person, Remote, Easy ...) get narrower buttons: a row fits 800 px
            width = 96 if all(len(option) <= 8 for option in self.seat_options) else 118
            self.seat_rows = [_ChoiceRow(self, self.info.seat_name(s), self.seat_options, choice[s],
                                         option_width=width)
                              for s in range(n)]        # each row adds its buttons
        else:
            self.seat_buttons = [_SeatButton(self, s, self.seat_options, choice[s]) for s in range(n)]
            self.buttons += self.seat_buttons
        for _, row in self.setting_rows:
            self.buttons += row.options
        self.buttons += [self.back_button, self.start]
        self.changed()

    def changed(self) -> None:
        """A choice was made: follow the player count, apply settings that pin others."""
        self._follow_player_count()
        if len(self.seat_rows) + len(self.seat_buttons) != self.players():
            self._build_seats()
            return
        players = self.players()
        for setting, row in self.setting_rows:        # first what makes sense at the count
            row.lock(None, [c.seats is None or c.seats <= players for c in setting.choices])
        pinned: dict[str, str] = {}
        for setting, row in self.setting_rows:
            pinned.update(dict(setting.choices[row.selected].fixes))
        hidden = self._hidden()
        for setting, row in self.setting_rows:
            label_pinned = pinned.get(setting.name)
            labels = [c.label for c in setting.choices]
            offered = [setting.name not in hidden and (c.seats is None or c.seats <= players)
                       for c in setting.choices]
            row.lock(labels.index(label_pinned) if label_pinned in labels else None, offered)
            row.hidden = setting.name in hidden
        self.resize(self.window.width, self.window.height)

    def _hidden(self) -> set[str]:
        """The settings the chosen ones say mean nothing now (`Choice.hides`)."""
        return {name for setting, row in self.setting_rows for name in setting.choices[row.selected].hides}

    def seats(self) -> list[Seat]:
        chosen = self._seat_choices()
        seats = []
        for option in chosen:
            if option in (PERSON_HERE, REMOTE_PERSON):    # a remote person's seat is a person's
                seats.append(Seat(PERSON))
            elif self.strengths:
                seats.append(Seat(COMPUTER, f"{self.game.agent_prefix}:"
                                            f"{self.strengths[option - FIRST_COMPUTER].name}"))
            else:
                seats.append(Seat(COMPUTER, "random"))
        return seats

    def settings(self) -> dict:
        chosen: dict = {}
        hidden = self._hidden()
        for setting, row in self.setting_rows:
            if setting.name not in hidden:
                chosen.update(setting.choices[row.selected].kwargs)
        return chosen

    def remote_seats(self) -> list[int]:
        """The seats of people at other machines."""
        return [seat for seat, option in enumerate(self._seat_choices()) if option == REMOTE_PERSON]

    def start_game(self) -> None:
        if self.app.start_game(self.info.name, self.settings(), self.seats(), remote=self.remote_seats()):
            self._remember()                      # what the game took, not what it refused

    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        top = min(70, height * 0.1)                   # less room above in a small window
        self.heading.position = (cx, height - top, 0)
        self.blurb.position = (cx, height - top - 30, 0)
        x = max(30, cx - 480)
        row_width = min(960, width - 60)
        # the buttons start right of the widest caption ("First player (seat)" ran under them)
        rows = [self.count_row, *self.seat_rows, *(row for _, row in self.setting_rows)]
        captions = max(170.0, max(row.caption.content_width for row in rows) + 18)
        ceiling = height - top - 50.0                 # rows show between the blurb and the buttons
        start_y = ceiling - 6.0
        y = start_y + self.scroll
        hidden_above = hidden_below = False

        def shown(row_top: float, row_bottom: float) -> bool:
            nonlocal hidden_above, hidden_below
            hidden_above |= row_top > ceiling + 0.5
            hidden_below |= row_bottom < BUTTONS_TOP - 0.5
            return row_top <= ceiling + 0.5 and row_bottom >= BUTTONS_TOP - 0.5

        if len(self.counts) > 1:
            used = self.count_row.place(x, y, row_width, captions)
            self.count_row.set_visible(shown(y, y - used + 14))
            y -= used
        for row in self.seat_rows:
            used = row.place(x, y, row_width, captions)
            row.set_visible(shown(y, y - used + 14))
            y -= used
        if self.seat_buttons:
            step = _SeatButton.WIDTH + 8
            columns = max(1, min(5, int(row_width // step)))
            for n, button in enumerate(self.seat_buttons):
                by = y - 34 - (n // columns) * 36
                button.place(x + (n % columns) * step, by)
                button.set_visible(shown(by + button.height, by))
            y -= 36 * ((len(self.seat_buttons) + columns - 1) // columns) + 10
        # the note on one line where it fits, its parts on lines of their own where not
        note_x = x + (0 if self.seat_buttons else captions)
        fit_lines(self.computer_note, self._note_parts, x + row_width - note_x, lines=len(self._note_parts))
        note_height = self.computer_note.content_height
        self.computer_note.position = (note_x, y + 14, 0)
        self.computer_note.visible = shown(y + 14, y + 14 - note_height)
        y -= note_height + 8
        for _, row in self.setting_rows:
            if row.hidden:
                row.set_visible(False)
                continue
            used = row.place(x, y, row_width, captions)
            row.set_visible(shown(y, y - used + 14))
            y -= used
        content = start_y + self.scroll - y           # the rows' whole height
        self.max_scroll = max(0.0, content - (start_y - BUTTONS_TOP) - 14)
        if self.scroll > self.max_scroll:             # a larger window: less to scroll
            self.scroll = self.max_scroll
            self.layout(width, height)
            return
        notes = [text for text, hidden in (("more above: wheel or Page Up", hidden_above),
                                           ("more below: wheel or Page Down", hidden_below)) if hidden]
        self.more.text = "   ·   ".join(notes)
        self.more.position = (cx, BUTTONS_TOP - 10, 0)
        self.start.place(cx + 20, 30)
        self.back_button.place(cx - 160, 30)

    def scroll_by(self, pixels: float) -> None:
        self.scroll = max(0.0, min(self.max_scroll, self.scroll + pixels))
        self.layout(self.window.width, self.window.height)

    def _bring_into_view(self, button: Button | None) -> None:
        """Scroll so that the focused button's row shows (Start and Back always do)."""
        if button is None or button in (self.start, self.back_button):
            return
        top = min(70, self.window.height * 0.1)
        ceiling = self.window.height - top - 50.0
        if button.y < BUTTONS_TOP:
            self.scroll_by(BUTTONS_TOP - button.y + 10)
        elif button.y + button.height > ceiling - 30:   # the row's caption sits above its buttons
            self.scroll_by(-(button.y + button.height - ceiling + 40))

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        if self.max_scroll <= 0 or not scroll_y:
            return None
        self.scroll_by(-scroll_y * SCROLL_STEP)
        return EVENT_HANDLED

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button == mouse.RIGHT:
            for seat_button in self.seat_buttons:
                if seat_button.contains(x, y):
                    seat_button.step(-1)
                    return EVENT_HANDLED
        return super().on_mouse_press(x, y, button, modifiers)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol in (key.ENTER, key.RETURN) and self.focus.focused is None:
            self.start_game()
            return EVENT_HANDLED
        if symbol in (key.PAGEUP, key.PAGEDOWN):
            self.scroll_by((1 if symbol == key.PAGEDOWN else -1) * 4 * SCROLL_STEP)
            return EVENT_HANDLED
        if symbol in NAVIGATION_KEYS and self.max_scroll > 0:
            handled = super().on_key_press(symbol, modifiers)
            self._bring_into_view(self.focus.focused)
            return handled
        return super().on_key_press(symbol, modifiers)

    def focus_order(self) -> list[Button]:
        """Every row's buttons, also those scrolled out of sight (the focus scrolls them in);
        the player-count row only when there is a count to choose."""
        left_out = set(self.count_row.options) if len(self.counts) <= 1 else set()
        return [b for b in self.buttons if b not in left_out]
