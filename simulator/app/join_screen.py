"""The screen that joins a game hosted at another machine: two text fields, the host's address
and the seat's code (both shown by the host's window or printed by `bandu-sim host`; pasting a
whole join line fills both), and Join and Back. Keys: Tab and
Shift+Tab go between the fields and the buttons, Enter joins, Esc goes back. The connection is
made off the window's thread; a wrong address or code is said in one line on this screen.
"""

from __future__ import annotations

import threading
from typing import Any

from pyglet.event import EVENT_HANDLED
from pyglet.window import key, mouse

from simulator.core.errors import SimulatorError
from simulator.core.text import printable
from simulator.net.joiner import join_line
from simulator.render import theme
from simulator.render.screen import Screen
from simulator.render.text_field import TextField
from simulator.render.widgets import FRONT, Button, label

ERROR_COLOUR = (255, 170, 160, 255)
FIELD_WIDTH = 420


class JoinScreen(Screen):
    title = "join"

    def __init__(self, window: Any, app: Any) -> None:
        super().__init__(window)
        self.app = app
        self.heading = label("Join a game", size=30, batch=self.batch, group=FRONT, anchor_x="center",
                             bold=True, serif=True, color=theme.HEADING)
        self.explained = label("The host shows its address and a code for each seat (a seat "
                               "chosen Remote in the new-game screen, or bandu-sim host). Paste "
                               "the host's whole join line, or type them.", size=12,
                               batch=self.batch, group=FRONT, color=theme.TEXT_DIM, multiline=True,
                               width=FIELD_WIDTH + 120, anchor_y="top")
        self.address_label = label("Address", size=13, batch=self.batch, group=FRONT, anchor_x="right",
                                   anchor_y="center")
        self.code_label = label("Code", size=13, batch=self.batch, group=FRONT, anchor_x="right",
                                anchor_y="center")
        self.address = TextField(self.batch, "e.g. 192.168.1.20:8765", width=FIELD_WIDTH)
        self.code = TextField(self.batch, "e.g. K7QM-2XHV-9TCE-WRNP", width=FIELD_WIDTH)
        self.fields = [self.address, self.code]
        self.message = label("", size=12.5, batch=self.batch, group=FRONT, multiline=True,
                             width=FIELD_WIDTH + 120, anchor_y="top", color=ERROR_COLOUR)
        self.join_button = Button("Join", self.join, self.batch, width=140, primary=True,
                                  tooltip="Enter")
        self.back_button = Button("Back", self.back, self.batch, width=120, tooltip="Esc")
        self.buttons += [self.join_button, self.back_button]
        self.focused_field: TextField | None = None
        self.focus_field(self.address)
        self._joining: threading.Thread | None = None
        self._joined: Any = None                 # the RemoteGame, or the JoinError, from the thread
        self._closed = False
        self._lock = threading.Lock()

    # --- focus ---------------------------------------------------------------------------------
    def focus_field(self, field: TextField | None) -> None:
        for each in self.fields:
            each.set_focus(each is field)
        self.focused_field = field
        if field is not None:
            self.focus.move_to(None)

    def _cycle(self, backwards: bool) -> None:
        """Tab: address, code, Join, Back, and round again."""
        stops: list[Any] = [*self.fields, *[b for b in self.buttons if b.enabled and b.visible]]
        current = self.focused_field or self.focus.focused
        index = stops.index(current) if current in stops else -1
        target = stops[(index + (-1 if backwards else 1)) % len(stops)]
        if isinstance(target, TextField):
            self.focus_field(target)
        else:
            self.focus_field(None)
            self.focus.move_to(target)

    # --- joining ---------------------------------------------------------------------------------
    def join(self) -> None:
        address, code = self.address.text.strip(), self.code.text.strip()
        if self._joining is not None:
            return
        if not address:
            self.say("Write the host's address, HOST:PORT (the host prints it).")
            self.focus_field(self.address)
            return
        if not code:
            self.say("Write your seat's code (the host prints it).")
            self.focus_field(self.code)
            return
        self.say(f"Joining {printable(address, 60)}...", error=False)
        self.join_button.set_enabled(False)
        self._joining = threading.Thread(target=self._connect, args=(address, code), name="join",
                                         daemon=True)
        self._joining.start()

    def _connect(self, address: str, code: str) -> None:
        from simulator.net.remote_game import join_game

        joined: Any
        try:
            joined = join_game(address, code)
        except SimulatorError as error:
            joined = error
        except Exception as error:        # a fault of ours: said, not a crash of the window
            joined = SimulatorError(f"could not join ({type(error).__name__}: {error})")
        with self._lock:
            if self._closed and not isinstance(joined, Exception):
                joined.close()            # the screen went (Back) while it joined: leave again
            else:
                self._joined = joined

    @property
    def joining(self) -> bool:
        return self._joining is not None

    def update(self, dt: float) -> None:
        super().update(dt)
        for field in self.fields:
            field.update(dt)
        if self._joining is None or self._joining.is_alive():
            return
        with self._lock:
            self._joining, joined, self._joined = None, self._joined, None
        self.join_button.set_enabled(True)
        if isinstance(joined, Exception):
            self.say(printable(str(joined), 300))
            self.focus_field(self.code)
        elif joined is not None:
            self.app.show_remote_game(joined)

    def say(self, text: str, error: bool = True) -> None:
        self.message.text = text
        self.message.color = ERROR_COLOUR if error else theme.TEXT

    def close(self) -> None:
        with self._lock:
            self._closed = True
            joined, self._joined = self._joined, None
        if joined is not None and not isinstance(joined, Exception):
            joined.close()

    # --- layout --------------------------------------------------------------------------------
    def layout(self, width: int, height: int) -> None:
        cx = width / 2
        field_width = min(FIELD_WIDTH, width - 200)
        left = cx - field_width / 2 + 40
        self.heading.position = (cx, height - 110, 0)
        self.explained.width = int(field_width + 120)
        self.explained.position = (left - 120, height - 150, 0)
        y = height - 150 - self.explained.content_height - 70
        for field, words in ((self.address, self.address_label), (self.code, self.code_label)):
            field.place(left, y, width=field_width)
            words.position = (left - 14, y + field.height / 2, 0)
            y -= 64
        self.message.width = int(field_width + 120)
        self.message.position = (left - 120, y + 30, 0)
        y -= 70
        self.join_button.place(left + field_width - self.join_button.width, y)
        self.back_button.place(left + field_width - self.join_button.width - 12 - self.back_button.width, y)

    # --- input ---------------------------------------------------------------------------------
    def on_text(self, text: str) -> bool | None:
        if self.focused_field is not None:
            self.focused_field.type(text)
            return EVENT_HANDLED
        return None

    def on_text_motion(self, motion: int) -> bool | None:
        if self.focused_field is None:
            return None
        paste = getattr(self.window, "get_clipboard_text", None)      # pyglet's window has it
        clipboard = paste() if motion == key.MOTION_PASTE and paste is not None else ""
        pasted = join_line(clipboard) if clipboard else None
        if pasted is not None:                 # a host's whole join line: both fields at once
            self.address.set_text(pasted[0])
            self.code.set_text(pasted[1])
            self.focus_field(None)
            self.focus.move_to(self.join_button)
            return EVENT_HANDLED
        self.focused_field.move(motion, clipboard)
        return EVENT_HANDLED

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button == mouse.LEFT:
            for field in self.fields:
                if field.contains(x, y):
                    self.focus_field(field)
                    return EVENT_HANDLED
        return super().on_mouse_press(x, y, button, modifiers)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol == key.ESCAPE:
            self.back()
        elif symbol == key.TAB or (symbol in (key.UP, key.DOWN) and self.focused_field is not None):
            self._cycle(backwards=symbol == key.UP or bool(modifiers & key.MOD_SHIFT))
        elif symbol in (key.ENTER, key.RETURN, key.NUM_ENTER):
            if self.focus.focused is not None and self.focused_field is None:
                self.focus.focused.click()        # Join, or Back
            else:
                self.join()
        elif self.focused_field is not None:
            if symbol in (key.F11, key.F12) or modifiers & key.MOD_CTRL:
                return None                       # the window's own keys (Ctrl+V: a text motion)
            return EVENT_HANDLED                  # typing: on_text and on_text_motion have it
        else:
            return super().on_key_press(symbol, modifiers)
        return EVENT_HANDLED
