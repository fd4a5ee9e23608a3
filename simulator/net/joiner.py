"""A joiner of a hosted table: connects with its code, keeps the newest table the host sent
(the position as its seat may see it, the move log, whose turn) and sends its seat's moves. The
window's remote game and the scripted players of the tests and benchmarks are built on it.

Messages are read on a thread of the joiner's own; `table` and the other fields are replaced
whole, so a reader sees one table or the next, never half of one.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from simulator.core.errors import SimulatorError
from simulator.net.protocol import FROM_HOST, ProtocolError, decode, encode

CONNECT_SECONDS = 10.0


class JoinError(SimulatorError):
    """The table could not be joined: one line saying why (a wrong address or code, no host)."""


def address_uri(address: str) -> str:
    """'127.0.0.1:8765' (or a ws:// address as it is) as the WebSocket URI."""
    address = address.strip()
    if address.startswith(("ws://", "wss://")):
        return address
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise JoinError(f"{address!r} is no address: write HOST:PORT, e.g. 127.0.0.1:8765")
    return f"ws://{host}:{port}"


def join_line(text: str) -> tuple[str, str] | None:
    """The (address, code) of a join line as a host shows it ("Player 2: bandu-sim join
    127.0.0.1:8765 K7QM-2XHV-9TCE-WRNP", or only the address and the code), or None."""
    words = text.split()
    for at, word in enumerate(words[:-1]):
        try:
            address_uri(word)
        except JoinError:
            continue
        code = words[at + 1]
        if len(code) >= 8:
            return word, code
    return None


class Joiner:
    """One seat's (or a watcher's) connection to a host."""

    def __init__(self, address: str, code: str, timeout: float = CONNECT_SECONDS,
                 on_message: Callable[[dict[str, Any]], None] | None = None,
                 keep_raw: bool = False) -> None:
        uri = address_uri(address)
        self._stack = contextlib.ExitStack()       # the connection, closed by close()
        try:
            self.connection: ClientConnection = self._stack.enter_context(
                connect(uri, open_timeout=timeout, compression=None, max_size=None))
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as error:
            raise JoinError(f"no table answers at {address} ({type(error).__name__}: {error})") from None
        self.on_message = on_message
        self.welcome: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.log: list[list[Any]] = []        # the move log: [player, notation as seen] a move
        self.refusals: list[str] = []
        self.frames: list[dict[str, Any]] = []     # the frames messages of the latest outcome
        self.outcomes_seen: list[int] = []          # the ply of each outcome whose last frame came
        self.closed_reason: str | None = None
        self.received = 0                      # messages, and bytes: what the host sent
        self.received_bytes = 0
        self.raw: list[str] | None = [] if keep_raw else None   # every message as it came
        self.tables_at: list[tuple[int, float]] = []   # (ply, monotonic time) of each table
        self._changed = threading.Condition()
        self.connection.send(encode("hello", code=code))
        try:
            first = self._read(timeout)
        except (TimeoutError, ConnectionClosed):
            self._stack.close()
            raise JoinError(f"the host at {address} did not answer") from None
        if first.get("type") != "welcome":
            self._stack.close()
            raise JoinError(str(first.get("reason") or "the host refused to seat us"))
        self._take(first)
        self._reader = threading.Thread(target=self._read_on, name="joiner", daemon=True)
        self._reader.start()

    @property
    def seat(self) -> int | None:
        assert self.welcome is not None
        seat = self.welcome["seat"]
        return seat if isinstance(seat, int) else None

    # --- reading ----------------------------------------------------------------------------------
    def _read(self, timeout: float | None = None) -> dict[str, Any]:
        text = self.connection.recv(timeout=timeout)
        if self.raw is not None:
            self.raw.append(text if isinstance(text, str) else text.decode("utf-8", "replace"))
        self.received += 1
        self.received_bytes += len(text)
        try:
            return decode(text, FROM_HOST)
        except ProtocolError as error:
            return {"type": "closed", "reason": f"the host sent what this program cannot read ({error})"}

    def _read_on(self) -> None:
        while True:
            try:
                message = self._read()
            except (ConnectionClosed, OSError):
                with self._changed:
                    self.closed_reason = self.closed_reason or "the connection to the host was lost"
                    self._changed.notify_all()
                return
            self._take(message)

    def _take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        with self._changed:
            if kind == "welcome":
                self.welcome = message
            elif kind == "table":
                start = max(0, min(message["log_from"], len(self.log)))
                self.log = self.log[:start] + message["log"]
                self.table = message
                self.tables_at.append((message["ply"], time.monotonic()))
            elif kind == "refused":
                self.refusals.append(message["reason"])
            elif kind == "frames":
                if self.frames and self.frames[-1]["ply"] != message["ply"]:
                    self.frames = []
                self.frames.append(message)
                if message["last"]:
                    self.outcomes_seen.append(message["ply"])
            elif kind == "closed":
                self.closed_reason = message["reason"]
            self._changed.notify_all()
        if self.on_message is not None:
            self.on_message(message)

    def wait_until(self, condition: Callable[[Joiner], bool], timeout: float = 30.0) -> bool:
        """Wait until `condition(self)` holds (True), the connection closes or time runs out."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition(self):
                left = deadline - time.monotonic()
                if left <= 0 or self.closed_reason is not None:
                    return condition(self)
                self._changed.wait(left)
        return True

    # --- acting -------------------------------------------------------------------------------------
    def my_turn(self) -> bool:
        """This seat is to move and may (the game is not held)."""
        table = self.table
        return (table is not None and not table["over"] and table["current"] == self.seat
                and not table.get("paused"))

    def move(self, notation: str) -> None:
        """Send a move for the position of the newest table."""
        assert self.table is not None
        self.send(encode("move", action=notation, ply=self.table["ply"]))

    def send(self, text: str) -> None:
        try:
            self.connection.send(text)
        except ConnectionClosed:
            self.closed_reason = self.closed_reason or "the connection to the host was lost"

    def close(self) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            self.connection.send(encode("bye"))
        self._stack.close()
        self._reader.join(timeout=5)
