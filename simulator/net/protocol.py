"""The messages of play across machines: JSON objects over WebSocket, each with the protocol's
version `v` and a `type`, checked here before anything acts on them (docs/NETWORK.md is the
schema). Pure Python: no socket, no game.

A joiner sends: `hello` (its code, first), `move` (an action's notation and the ply it answers,
so a move sent twice or late is refused, never played twice), `ping`, `bye`. The host sends:
`welcome` (the seat the code opens, the game, its settings and seats), `table` (the position as
the seat may see it, after every change), `frames` (a Bandu placement's physics, played back in
every window), `refused` (why a message changed nothing), `pong`, and `closed` (why the host
ends the connection).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

VERSION = 1
LOOPBACK = "127.0.0.1"                 # where a host listens unless asked for another address
MAX_MESSAGE_BYTES = 1 << 20            # a table of 54 pieces and a long history fits many times
MAX_JOINER_MESSAGE_BYTES = 4096        # what a joiner sends is short: a code, a move
# a frame the WebSocket library takes at all: a bigger one closes the connection (code 1009);
# between the two, the host refuses the message in one line and the connection stays
MAX_JOINER_FRAME_BYTES = 16 * MAX_JOINER_MESSAGE_BYTES
MAX_NOTATION = 200                     # a move's notation, in characters
MAX_CODE = 64

Schema = dict[str, dict[str, Any]]

FROM_JOINER: Schema = {
    "hello": {"code": str},
    "move": {"action": str, "ply": int},
    "ping": {},
    "bye": {},
}
FROM_HOST: Schema = {
    "welcome": {"seat": (int, type(None)), "game": str, "settings": dict, "seats": list},
    "table": {"ply": int, "state": dict, "log_from": int, "log": list, "current": int,
              "over": bool, "waiting": list},
    "frames": {"ply": int, "frames": list, "last": bool},
    "refused": {"reason": str},
    "pong": {},
    "closed": {"reason": str},
}


class ProtocolError(ValueError):
    """A message that is not one of the protocol's: one printable line saying why."""


def encode(kind: str, **fields: Any) -> str:
    """A message as the wire carries it."""
    return json.dumps({"v": VERSION, "type": kind, **fields}, separators=(",", ":"),
                      allow_nan=False)


def decode(text: str | bytes, schema: Schema,
           limit: int = MAX_MESSAGE_BYTES) -> dict[str, Any]:
    """The message, checked: size, JSON, version, type and each field's kind; else ProtocolError."""
    if len(text) > limit:
        raise ProtocolError(f"a message of {len(text)} bytes; at most {limit}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message is UTF-8 text") from None
    try:
        message = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("a message is one JSON object") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message is one JSON object")
    if message.get("v") != VERSION or isinstance(message.get("v"), bool):
        raise ProtocolError(f"protocol version {_short(message.get('v'))}; this program speaks {VERSION}")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in schema:
        raise ProtocolError(f"unknown message type {_short(kind)}")
    for name, wanted in schema[kind].items():
        value = message.get(name)
        if not isinstance(value, wanted) or (wanted is int and isinstance(value, bool)):
            raise ProtocolError(f"{kind}: '{name}' is missing or of the wrong kind")
    if kind == "move" and len(message["action"]) > MAX_NOTATION:
        raise ProtocolError(f"move: a notation of at most {MAX_NOTATION} characters")
    if kind == "hello" and len(message["code"]) > MAX_CODE:
        raise ProtocolError("hello: that is no code of this table")
    return message


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


@dataclass
class RateLimit:
    """A token bucket: `rate` messages a second on average, `burst` at once; `allow()` says
    whether one more may be taken now."""

    rate: float = 20.0
    burst: float = 40.0
    _tokens: float = field(default=-1.0, repr=False)
    _at: float = field(default=0.0, repr=False)

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self._tokens < 0:
            self._tokens, self._at = self.burst, now
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True
