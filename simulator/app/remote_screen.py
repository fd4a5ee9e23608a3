"""The screen of a game joined at another machine's host: the game screen (app/game_screen.py)
over a remote game (net/remote_game.py) instead of a turn controller. The same view and panel;
what differs is said here: the host's refusals in the message line, a remote seat away said on
the status ("waiting for Player 2 (disconnected)"), no undo, Save disabled (the host keeps the
game), and when the connection closes, why, with Rejoin and Menu.
"""

from __future__ import annotations

from typing import Any, cast

from simulator.app.game_screen import KEYS_ACROSS_MACHINES, NO_UNDO_ACROSS_MACHINES, GameScreen
from simulator.core.controller import TurnController
from simulator.net.joiner import JoinError
from simulator.net.remote_game import HOST_KEEPS_IT, RemoteGame


class RemoteGameScreen(GameScreen):
    title = "remote game"
    screen_keys = KEYS_ACROSS_MACHINES

    def __init__(self, window: Any, app: Any, remote: RemoteGame) -> None:
        # the remote game answers the screen and the views as a turn controller does
        super().__init__(window, app, cast(TurnController, remote))
        self.remote = remote
        self._finish_told = True                # records and the like are the host's to keep
        self.save_button.set_enabled(False)
        self.save_button.tooltip = "the host keeps this game"
        self.undo_button.tooltip = NO_UNDO_ACROSS_MACHINES
        for button in [b for b in self.end.buttons if b.text.text in ("Replay", "New game")]:
            button.delete()                     # the game is the host's: no replay, no rematch here
            self.end.buttons.remove(button)
        self.leave_question.set_text(
            "Leave this game?", "The host keeps it: join again with the same address and code "
            "to come back to your seat.")
        self.closed = self._overlay("The connection to the host closed", "", width=560, body_size=13)
        self.closed.button("Menu", self.leave_game, width=120)
        self.closed.button("Rejoin", self.rejoin, primary=True, width=140)
        self._closed_said = False

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.window.top is not self:
            return
        refusal = self.remote.take_refusal()
        if refusal:
            self.toast.show(f"the host refused the move: {refusal}", error=True)
        if self.remote.closed_reason is not None and not self._closed_said:
            self._closed_said = True
            if self.remote.is_over():          # the game is done: the results stay in front
                self.toast.show(f"the host closed the table: {self.remote.closed_reason}")
            else:
                self._show_closed(self.remote.closed_reason)

    def _show_closed(self, reason: str) -> None:
        self.closed.set_text(body=f"{reason[:1].upper()}{reason[1:]}.\n\nRejoin: join the "
                                  f"table again with the same code. Menu: leave it to the host.")
        self.open_modal(self.closed, on_escape=self.leave_game)

    def rejoin(self) -> None:
        """Join the same seat again (a dropped line, a host resumed); a refusal is said here."""
        try:
            self.app.join_game(self.remote.address, self.remote.code)
        except JoinError as error:
            self.closed.set_text(body=f"{error}\n\nRejoin: try again. Menu: leave it to the host.")
            self.closed.layout(self.window.width, self.window.height, self.in_sight())

    def _status(self) -> str:
        remote, seat_name = self.remote, self.info.seat_name
        if remote.closed_reason is not None and not remote.is_over():
            return f"Disconnected: {remote.closed_reason}."
        if remote.paused is not None and not remote.is_over():
            return f"The host paused the game: {remote.paused}."
        away = remote.waiting_for()
        if away is not None:
            return f"Waiting for {seat_name(away)} (disconnected)..."
        player = remote.current_player()
        if remote.sent_for is not None:
            return "Sent; the host is judging your move..."
        if 0 <= player < len(remote.seats) and player != remote.seat and player in remote.remote_seats \
                and player not in remote.handed_over:
            dots = "." * (1 + int(self._clock * 3) % 3)
            return f"Waiting for {seat_name(player)} at another machine{dots}"
        return super()._status()

    def undo(self) -> None:
        self.toast.show(NO_UNDO_ACROSS_MACHINES, error=True)

    def save(self) -> None:
        self.toast.show(HOST_KEEPS_IT)

    def rematch(self) -> None:
        self.leave_game()
