"""The host of a table played across machines: the referee. The turn controller, the computer
players and the game's outcome resolver (Bandu's physics) run here only; each joiner's window
sends its moves, which are checked by the same rules as at one machine, and gets the table as
its seat may see it after every change (protocol.py is the wire, docs/NETWORK.md the schema).

A remote seat is a person's seat whose moves come over the wire, opened by its join code
(codes.py); a watcher's code opens no seat. One connection a seat: joining again (after a
dropped connection, or from another window) takes the seat over. A remote seat left empty for
`hand_over_after` seconds on its turn is handed to a computer player, if the host asked for it.

The game waits until every remote seat has been joined once (or handed over): nobody plays
before the table is full.

The WebSocket server is the `websockets` package's threaded one: each connection is read on a
thread of its own, which checks the code, the size and the rate, and queues what it heard (a
seat taken, a move, a goodbye). The controller is touched by one thread only, the one that calls
`step()` (the headless host's `run`, or the hosting window's clock), and under the host's lock:
`step()` plays the queued moves, advances what needs no person (chance, computers, outcomes)
and sends the tables that changed.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

from simulator.core import registry
from simulator.core.controller import TurnController
from simulator.core.errors import IllegalAction, SimulatorError
from simulator.core.state import TERMINAL
from simulator.core.text import printable
from simulator.net import codes as code_words
from simulator.net.protocol import (
    FROM_JOINER,
    LOOPBACK,
    MAX_JOINER_FRAME_BYTES,
    MAX_JOINER_MESSAGE_BYTES,
    ProtocolError,
    RateLimit,
    decode,
    encode,
)

HELLO_SECONDS = 10.0           # a connection that says nothing for this long is closed
RATE_REFUSAL = "too many messages: slow down"
STALE_REFUSAL = "that move answers an earlier position: it was not played"
FLOODED = 200                  # messages refused for the rate in a row: the connection is closed
WATCHER = None                 # the seat a watch code opens: none
WAITING_FOR_EVERYONE = "waiting for every player at another machine to join"


@dataclass
class _Joined:
    """One connection: its seat (None: a watcher), its rate limit, its own send lock."""

    connection: ServerConnection
    seat: int | None
    rate: RateLimit = field(default_factory=RateLimit)
    send_lock: threading.Lock = field(default_factory=threading.Lock)
    log: list[list[Any]] = field(default_factory=list)   # the move log as this joiner has it

    def send(self, text: str) -> bool:
        with self.send_lock:
            try:
                self.connection.send(text)
            except (ConnectionClosed, OSError):
                return False
        return True

    def dismiss(self, reason: str) -> None:
        """Tell the joiner why its connection ends (a `closed` message), and end it."""
        self.send(encode("closed", reason=reason))
        with contextlib.suppress(Exception):
            self.connection.close()


class Host:
    """Serves `controller`'s table to the joiners of its `remote` seats.

    `codes` maps a remote seat to its join code (new ones are drawn for the others; a resumed
    host passes the codes it had); `watch_code` lets watchers in (games without hidden
    information only). `bind` is the address to listen on (the loopback address unless asked),
    `port` 0 picks a free one. `live`: resolve the referee's outcomes live here, their frames
    sent (None: when the game has a referee; a window that shows them live already passes
    False, its resolver kept)."""

    def __init__(self, controller: TurnController, remote: Iterable[int],
                 codes: dict[int, str] | None = None, watch_code: str | None = None,
                 bind: str = LOOPBACK, port: int = 0, hand_over_after: float | None = None,
                 hand_over_to: str | None = None, live: bool | None = None) -> None:
        self.controller = controller
        # outcomes judged by a referee (Bandu's physics) are resolved live, their frames sent
        # to every window; other outcomes (dice) come at once, each window shows them its way
        if live is None:
            live = controller.game.referee_stamp is not None
        maker = registry.get_app(controller.game).live_resolver
        if live and maker is not None:
            controller.show_outcomes_live(maker())
        self.remote = sorted(set(remote))
        for seat in self.remote:
            if not 0 <= seat < len(controller.seats) or controller.seats[seat].is_computer:
                raise SimulatorError(f"seat {seat + 1} cannot be a remote person's seat here")
        controller.played_elsewhere = set(self.remote)
        given = codes or {}
        self.codes = {seat: given.get(seat) or code_words.new_code() for seat in self.remote}
        self.watch_code = watch_code or code_words.new_code()
        self.watching_allowed = controller.state.watched() is not None
        self.bind, self.port = bind, port
        self.hand_over_after = hand_over_after
        self.hand_over_to = hand_over_to or controller.game.agent_prefix   # its usual level
        self.lock = threading.RLock()
        self.doorkeeper = code_words.Doorkeeper()
        self.joined: list[_Joined] = []
        self.away_since: dict[int, float] = {seat: time.monotonic() for seat in self.remote}
        self.handed_over: list[int] = []
        self.seated: set[int] = set()        # remote seats joined at least once
        # what the connections' threads heard, for the stepping thread: (what, joined, ...)
        self._heard: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self._wake = threading.Event()
        if controller.paused is None and not controller.is_over():
            controller.pause(WAITING_FOR_EVERYONE)
        self.messages_refused = 0
        self._outcome: Any = None            # the outcome whose frames go out, how many did,
        self._frames_sent = 0                # and whether its last went
        self._last_said = False
        self._outcome_ply = 0
        self._sent_version = -1
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    # --- serving ----------------------------------------------------------------------------------
    def start(self) -> str:
        """Listen; returns the address joiners use ('127.0.0.1:PORT')."""
        self._server = serve(self._serve_one, self.bind, self.port,
                             max_size=MAX_JOINER_FRAME_BYTES, compression=None)
        self.port = self._server.socket.getsockname()[1]
        self._thread = threading.Thread(target=self._server.serve_forever, name="host", daemon=True)
        self._thread.start()
        return self.address

    @property
    def address(self) -> str:
        return f"{self.bind}:{self.port}"

    def step(self) -> bool:
        """Play what the joiners sent, advance what needs no person and send the tables that
        changed; True when it changed. On one thread only: the controller's."""
        with self.lock:
            self._wake.clear()
            while True:
                try:
                    heard = self._heard.get_nowait()
                except queue.Empty:
                    break
                self._act_on(*heard)
            before = self.controller.outcome_in_progress()
            changed = self.controller.poll()
            if before is not None:            # its last frames, though poll() just applied it
                self._send_frames(before)
            self._send_frames(self.controller.outcome_in_progress())
            self._hand_over_the_absent()
            self._start_when_everyone_came()
            if self.controller.version != self._sent_version:
                self._send_tables()
                changed = True
        return changed

    def run(self, stop: threading.Event | None = None, poll_seconds: float = 0.02,
            linger_seconds: float = 2.0) -> None:
        """Step until the game is over (and `linger_seconds` more, for the last tables to go
        out) or `stop` is set."""
        over_at: float | None = None
        while stop is None or not stop.is_set():
            self.step()
            if self.controller.is_over():
                over_at = over_at or time.monotonic()
                if time.monotonic() - over_at >= linger_seconds:
                    return
            self._wake.wait(poll_seconds)         # a joiner's message wakes it at once

    def close(self) -> None:
        with self.lock:
            for joined in list(self.joined):
                joined.dismiss("the host closed the table")
        if self._server is not None:
            self._server.shutdown()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # --- one connection -------------------------------------------------------------------------------
    def _serve_one(self, connection: ServerConnection) -> None:
        joined = self._welcome(connection)
        if joined is None:
            return
        try:
            refused_in_a_row = 0
            while True:
                try:
                    text = connection.recv()
                except ConnectionClosed:
                    return
                if not joined.rate.allow():
                    refused_in_a_row += 1
                    self._hear("refuse", joined, RATE_REFUSAL)
                    if refused_in_a_row >= FLOODED:
                        joined.send(encode("closed", reason="too many messages"))
                        return
                    continue
                refused_in_a_row = 0
                if not self._answer(joined, text):
                    return
        finally:
            self._hear("leave", joined)

    def _welcome(self, connection: ServerConnection) -> _Joined | None:
        """The hello: a code that opens a seat, or one line why not and the connection closed."""
        address = str(connection.remote_address[0]) if connection.remote_address else "?"
        try:
            hello = decode(connection.recv(timeout=HELLO_SECONDS), FROM_JOINER, MAX_JOINER_MESSAGE_BYTES)
            if hello["type"] != "hello":
                raise ProtocolError("say hello with your code first")
        except (ProtocolError, TimeoutError, ConnectionClosed) as error:
            self._close(connection, str(error) if isinstance(error, ProtocolError) else "no hello")
            return None
        self.doorkeeper.wait(address)
        seat = self._seat_of(hello["code"])
        if seat is False:
            self.doorkeeper.wrong(address)
            self._close(connection, "no seat of this table has that code")
            return None
        self.doorkeeper.right(address)
        joined = _Joined(connection, seat if isinstance(seat, int) else WATCHER)
        # the welcome at once (what it says does not change as the game goes, but who plays a
        # seat handed over, a list read whole); the table follows from the stepping thread
        joined.send(self._welcome_message(joined.seat))
        self._hear("join", joined)
        return joined

    def _hear(self, *heard: Any) -> None:
        """Queue what a connection heard for the stepping thread, and wake it."""
        self._heard.put(heard)
        self._wake.set()

    def _act_on(self, what: str, joined: _Joined, *rest: Any) -> None:
        """What a connection heard, acted on by the stepping thread (under the lock)."""
        if what == "join":
            self._seat(joined)
        elif what == "move":
            self._move(joined, *rest)
        elif what == "refuse":
            self._refuse(joined, *rest)
        else:
            self._leave(joined)

    def _seat(self, joined: _Joined) -> None:
        if joined.seat in self.handed_over:        # handed over while the hello was on its way
            joined.dismiss("the computer plays this seat now")
            return
        for other in [j for j in self.joined if joined.seat is not None and j.seat == joined.seat]:
            other.dismiss("this seat was joined again from elsewhere")
            self.joined.remove(other)
        self.joined.append(joined)
        if joined.seat is not None:
            self.away_since.pop(joined.seat, None)
            self.seated.add(joined.seat)
        self._send_tables()

    def _seat_of(self, code: str) -> int | bool | None:
        """The seat a code opens, None for the watch code, False for no code of this table."""
        found: int | bool | None = False
        for seat, kept in self.codes.items():     # every code compared: the time tells nothing
            if code_words.same_code(code, kept) and seat not in self.handed_over:
                found = seat
        if code_words.same_code(code, self.watch_code) and self.watching_allowed:
            found = WATCHER
        return found

    def _answer(self, joined: _Joined, text: str | bytes) -> bool:
        """Act on one message; False when the joiner said goodbye."""
        try:
            message = decode(text, FROM_JOINER, MAX_JOINER_MESSAGE_BYTES)
        except ProtocolError as error:           # answered in turn with its moves
            self._hear("refuse", joined, str(error))
            return True
        kind = message["type"]
        if kind == "ping":
            joined.send(encode("pong"))
        elif kind == "bye":
            return False
        elif kind == "hello":
            self._hear("refuse", joined, "you have joined already")
        elif joined.seat is None:
            self._hear("refuse", joined, "a watcher makes no moves")
        else:
            self._hear("move", joined, message["action"], message["ply"])
        return True

    def _move(self, joined: _Joined, notation: str, ply: int) -> None:
        controller = self.controller
        if joined not in self.joined:           # taken over by a later join of the seat
            return
        if ply != controller.ply():       # sent twice, or sent before the last table came
            self._refuse(joined, STALE_REFUSAL)
            return
        if controller.current_player() != joined.seat:
            self._refuse(joined, "it is not your turn")
            return
        try:
            controller.submit(controller.state.action_from_str(notation), seat=joined.seat)
        except (IllegalAction, ValueError) as error:
            self._refuse(joined, str(error))
            return
        self._send_tables()

    def _leave(self, joined: _Joined) -> None:
        if joined in self.joined:
            self.joined.remove(joined)
            if joined.seat is not None and not any(j.seat == joined.seat for j in self.joined):
                self.away_since[joined.seat] = time.monotonic()
            self._send_tables()

    def _refuse(self, joined: _Joined, reason: str) -> None:
        self.messages_refused += 1
        joined.send(encode("refused", reason=printable(reason, 200)))

    @staticmethod
    def _close(connection: ServerConnection, reason: str) -> None:
        with contextlib.suppress(Exception):
            connection.send(encode("closed", reason=printable(reason, 200)))
            connection.close()

    # --- what is sent --------------------------------------------------------------------------------
    def _welcome_message(self, seat: int | None) -> str:
        controller = self.controller
        seats = [{"name": controller.info.seat_name(s), "plays": controller.who_plays(s),
                  "remote": s in self.remote} for s in range(len(controller.seats))]
        return encode("welcome", seat=seat, game=controller.game.name,
                      settings=dict(controller.settings), seats=seats)

    def _send_tables(self) -> None:
        """Each connection's table, as its seat may see it (called under the lock)."""
        self._sent_version = self.controller.version
        logs: dict[int | None, list[list[Any]]] = {}
        for joined in list(self.joined):
            if joined.seat not in logs:
                logs[joined.seat] = self._log_for(joined.seat)
            log = logs[joined.seat]
            kept = 0                      # the joiner's log as it stands: only what changed goes
            while kept < min(len(log), len(joined.log)) and log[kept] == joined.log[kept]:
                kept += 1
            joined.send(self.table_for(joined.seat, log, kept))
            joined.log = log

    def table_for(self, seat: int | None, log: list[list[Any]] | None = None, log_from: int = 0) -> str:
        """The `table` message for a seat (None: a watcher): the state as it may see it and its
        move log from `log_from` on (the joiner keeps what came before)."""
        controller = self.controller
        state = controller.visible_state(seat) if seat is not None else controller.state.watched()
        assert state is not None           # a game that shows no watcher takes none
        current = controller.current_player()
        log = self._log_for(seat) if log is None else log
        return encode("table", ply=controller.ply(), state=state.to_dict(),
                      log_from=log_from, log=log[log_from:], current=current,
                      over=current == TERMINAL,
                      winners=controller.state.winners() if current == TERMINAL else [],
                      waiting=sorted(self.away_since), handed_over=list(self.handed_over),
                      paused=controller.paused)

    def _log_for(self, seat: int | None) -> list[list[Any]]:
        """The history as the seat may see it (the game's notation_seen_by): [player, notation]
        a move; a watcher sees what every seat sees."""
        seen = self.controller.entry_seen_by
        return [[entry.player, seen(index, seat).action] for index, entry in enumerate(self.controller.history)]

    def _send_frames(self, pending: Any) -> None:
        """The frames `pending` (the outcome in progress) published since the last step: Bandu's
        physics, played back live at the host; every window plays back the same fall."""
        timeline = getattr(pending, "timeline", None)
        if timeline is None:
            return
        if pending is not self._outcome:
            self._outcome, self._frames_sent, self._last_said = pending, 0, False
            self._outcome_ply = self.controller.ply()
        if self._last_said:
            return
        finished = timeline.finished          # read first: once it is set, every frame is in
        frames = timeline.since(self._frames_sent)
        if not frames and not finished:
            return
        self._frames_sent += len(frames)
        self._last_said = finished
        message = encode("frames", ply=self._outcome_ply, frames=[[t, f] for t, f in frames],
                         last=finished)
        for joined in list(self.joined):
            joined.send(message)

    # --- an empty seat ------------------------------------------------------------------------------
    def waiting_for_everyone(self) -> bool:
        """Is the game held until every remote seat has been joined once?"""
        return self.controller.paused == WAITING_FOR_EVERYONE

    def not_seated(self) -> list[int]:
        """The remote seats nobody has joined yet (and the computer does not play)."""
        return [seat for seat in self.remote if seat not in self.seated and seat not in self.handed_over]

    def _start_when_everyone_came(self) -> None:
        if self.waiting_for_everyone() and not self.not_seated():
            self.controller.resume()

    def _hand_over_the_absent(self) -> None:
        """A remote seat away this long on its turn (or never joined while the game waits for
        it) goes to a computer player, if the host asked for it."""
        if self.hand_over_after is None:
            return
        now = time.monotonic()
        waited_for = self.not_seated() if self.waiting_for_everyone() else [self.controller.current_player()]
        for seat in waited_for:
            since = self.away_since.get(seat)
            if since is not None and now - since >= self.hand_over_after:
                self.hand_over(seat)

    def hand_over(self, seat: int) -> None:
        """The remote `seat` played by a computer player from now on (its usual level); a
        joiner of it is told so and let go. Called on the stepping thread."""
        if seat not in self.remote or seat in self.handed_over:
            return
        self.controller.hand_to_computer(seat, self.hand_over_to)
        self.handed_over.append(seat)
        self.away_since.pop(seat, None)
        for joined in [j for j in self.joined if j.seat == seat]:
            joined.dismiss("the host handed your seat to a computer player")
            self.joined.remove(joined)

