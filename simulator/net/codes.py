"""The secrets of a hosted table: a join code per remote seat and a watch code, each drawn by
the `secrets` module from 32 letters and digits that cannot be mistaken for one another when
read aloud or typed (no 0/O, 1/I/L), in groups of four: 16 of them are 80 bits, which no one
guesses at the rate the host answers. A wrong code is answered later each time it comes from
the same address (`Doorkeeper`)."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"     # 31 signs; 16 of them: 79 bits
GROUPS, GROUP = 4, 4


def new_code() -> str:
    """A fresh code such as 'K7QM-2XHV-9TCE-WRNP'."""
    signs = "".join(secrets.choice(ALPHABET) for _ in range(GROUPS * GROUP))
    return "-".join(signs[k:k + GROUP] for k in range(0, len(signs), GROUP))


def normalized(code: str) -> str:
    """A code as typed: case, spaces and dashes do not matter."""
    return "".join(c for c in code.upper() if c.isalnum())


def same_code(given: str, kept: str) -> bool:
    """Compared in constant time, so the answer's timing tells nothing of the code."""
    return hmac.compare_digest(normalized(given).encode(), normalized(kept).encode())


@dataclass
class Doorkeeper:
    """Slows down the guessing of codes: after a wrong code from an address, the next answer to
    that address waits `first` seconds, doubling with every further wrong code up to `most`; a
    right code clears it."""

    first: float = 0.5
    most: float = 8.0
    _wrong: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def delay(self, address: str) -> float:
        with self._lock:
            wrong = self._wrong.get(address, 0)
        return 0.0 if wrong == 0 else min(self.most, self.first * 2 ** (wrong - 1))

    def wait(self, address: str) -> None:
        seconds = self.delay(address)
        if seconds:
            time.sleep(seconds)

    def wrong(self, address: str) -> None:
        with self._lock:
            self._wrong[address] = self._wrong.get(address, 0) + 1

    def right(self, address: str) -> None:
        with self._lock:
            self._wrong.pop(address, None)
