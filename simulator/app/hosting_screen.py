"""The screen of a game this window hosts for people at other machines: the game screen
(app/game_screen.py) over a turn controller whose remote seats are played from joiners' windows
(net/host.py, the referee, stepped by this window's clock). What differs is said here: the join
codes (shown when the game starts, again with Ctrl+J or the Codes button, copied with Copy),
the remote seats on the status ("waiting for White to join", "... (disconnected)"), a
disconnected seat handed to a computer player with Ctrl+T, no undo, and a new game chosen anew
(new codes) rather than restarted.
"""

from __future__ import annotations

from typing import Any

from pyglet.event import EVENT_HANDLED
from pyglet.window import key

from simulator.app.game_screen import KEYS_ACROSS_MACHINES, NO_UNDO_ACROSS_MACHINES, GameScreen
from simulator.core.controller import TurnController
from simulator.net.host import Host
from simulator.net.protocol import LOOPBACK
from simulator.render.widgets import Button


class HostingGameScreen(GameScreen):
    title = "hosted game"
    screen_keys = (("Ctrl+J", "the join codes"),
                   ("Ctrl+T", "the computer plays a disconnected seat"),
                   *KEYS_ACROSS_MACHINES)

    def __init__(self, window: Any, app: Any, controller: TurnController, host: Host) -> None:
        self.host = host
        super().__init__(window, app, controller)
        # Undo means nothing across machines: the join codes take its place
        self.codes_button = Button("Codes", self.toggle_codes, self.batch, width=134, tooltip="Ctrl+J")
        self.buttons[self.buttons.index(self.undo_button)] = self.codes_button
        self.undo_button.set_visible(False)
        self.leave_question.set_text(
            "Leave this game?", "The players at other machines lose the table. The game is kept: "
            "\"Continue last game\" and Saved games bring it back, played at this machine.")
        self.codes = self._overlay("Friends join with these codes", self._codes_text(), width=700,
                                   body_size=12.5)
        self.codes.body.font_name = ["DejaVu Sans Mono", "monospace"]
        self.codes.button("Copy", self.copy_codes, width=120)
        self.codes.button("Close", self.toggle_codes, primary=True, width=140)
        if host.not_seated():            # the codes first: nobody can join without them
            self.open_modal(self.codes)

    def layout(self, width: int, height: int) -> None:
        super().layout(width, height)
        undo = self.undo_button
        self.codes_button.place(undo.x, undo.y, width=undo.width)
        undo.set_visible(False)

    # --- the codes --------------------------------------------------------------------------------
    def join_lines(self) -> list[tuple[str, str]]:
        """(seat name, `bandu-sim join ADDRESS CODE`) for each remote seat not handed over."""
        host = self.host
        return [(self.info.seat_name(seat), f"bandu-sim join {host.address} {code}")
                for seat, code in host.codes.items() if seat not in host.handed_over]

    def _codes_text(self) -> str:
        host = self.host
        lines = ["Each friend opens \"Join a game\" on the menu and pastes their line there, or "
                 "runs it in a terminal:", ""]
        for name, line in self.join_lines():
            lines += [f"{name}:", f"  {line}"]
        if host.watching_allowed:
            lines += ["Watchers:", f"  bandu-sim join {host.address} {host.watch_code}"]
        lines.append("")
        if host.bind == LOOPBACK:
            lines.append("This machine only (127.0.0.1): windows on this machine can join. For "
                         "friends on your network, start with bandu-sim play --bind 0.0.0.0 "
                         "(the documentation's Network page).")
        else:
            lines.append(f"Listening on {host.bind}: friends use this machine's address on their "
                         f"network, port {host.port}.")
        lines.append("The game starts when every seat is joined.")
        return "\n".join(lines)

    def toggle_codes(self) -> None:
        if not self.close_modal(self.codes):
            self.codes.set_text(body=self._codes_text())
            self.open_modal(self.codes)

    def copy_codes(self) -> None:
        """The join lines to the clipboard, for a message to the friends."""
        text = "\n".join(f"{name}: {line}" for name, line in self.join_lines())
        copy = getattr(self.window, "set_clipboard_text", None)      # pyglet's window has it
        if copy is not None:
            copy(text)
        self.toast.show("the join lines are copied: paste them in a message to your friends")

    # --- the clock --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.host.step()          # the joiners' moves played, the tables and frames sent
        super().update(dt)

    def close(self) -> None:
        self.host.close()         # the joiners are told the table closed
        super().close()

    # --- what the panel says ----------------------------------------------------------------------
    def who_plays(self, seat: int) -> str:
        host = self.host
        plays = super().who_plays(seat)
        if seat not in host.remote or seat in host.handed_over:
            return plays
        if seat not in host.seated:
            return f"{plays} · not joined yet"
        return f"{plays} · disconnected" if seat in host.away_since else plays

    def _status(self) -> str:
        host, seat_name = self.host, self.info.seat_name
        dots = "." * (1 + int(self._clock * 3) % 3)
        if host.waiting_for_everyone():
            names = ", ".join(seat_name(seat) for seat in host.not_seated())
            return f"Waiting for {names} to join (Ctrl+J: the codes){dots}"
        player = self.controller.current_player()
        if player in host.remote and player not in host.handed_over and not self.controller.is_over():
            if player in host.away_since:
                return (f"Waiting for {seat_name(player)} (disconnected){dots} "
                        f"Ctrl+T: the computer plays the seat.")
            return f"Waiting for {seat_name(player)} at another machine{dots}"
        return super()._status()

    # --- actions ----------------------------------------------------------------------------------
    def hand_over(self) -> None:
        """The disconnected remote seat to move (or one that never joined, while the game
        waits) played by the computer from now on."""
        host = self.host
        player = self.controller.current_player()
        if host.waiting_for_everyone() and host.not_seated():
            seat = host.not_seated()[0]
        elif player in host.away_since and player not in host.handed_over:
            seat = player
        else:
            self.toast.show("Ctrl+T hands a disconnected seat to the computer: none is waited for",
                            error=True)
            return
        host.hand_over(seat)
        self.toast.show(f"the computer plays {self.info.seat_name(seat)} from now on")

    def undo(self) -> None:
        self.toast.show(NO_UNDO_ACROSS_MACHINES, error=True)

    def rematch(self) -> None:
        """A new game is chosen anew: its seats get new codes."""
        game = self.controller.game.name
        self.app.show_menu()
        self.app.open_new_game(game)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        ctrl = modifiers & key.MOD_CTRL
        if symbol == key.J and ctrl:
            self.toggle_codes()
        elif symbol == key.T and ctrl:
            self.hand_over()
        else:
            return super().on_key_press(symbol, modifiers)
        return EVENT_HANDLED

    def modal_key(self, overlay: Any, symbol: int, modifiers: int) -> bool | None:
        if overlay is self.codes and symbol == key.J and modifiers & key.MOD_CTRL:
            self.toggle_codes()
            return EVENT_HANDLED
        return super().modal_key(overlay, symbol, modifiers)
