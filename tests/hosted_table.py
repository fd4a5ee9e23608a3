"""A hosted table for the network tests: a host on a free loopback port, stepped on a thread
of its own until closed (tests/test_net.py, tests/test_net_window.py; the `tables` fixture of
conftest.py makes and closes them)."""

from __future__ import annotations

import threading

from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController
from simulator.net.host import Host
from simulator.net.joiner import Joiner


class Table:
    """A host on a free loopback port, stepped on a thread of its own until closed."""

    def __init__(self, game: str, players: list[str], settings: dict | None = None, seed: int = 3,
                 **host_options) -> None:
        seats = [Seat(PERSON, name="remote") if p == "remote" else Seat(COMPUTER, p) for p in players]
        self.controller = TurnController(game, settings or {}, seats, seed=seed)
        self.host = Host(self.controller, [s for s, p in enumerate(players) if p == "remote"],
                         **host_options)
        self.address = self.host.start()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.host.run, args=(self.stop,), kwargs={"linger_seconds": 60})
        self.thread.start()
        self.joiners: list[Joiner] = []

    def join(self, seat: int | None) -> Joiner:
        joiner = Joiner(self.address, self.host.codes[seat] if seat is not None else self.host.watch_code)
        self.joiners.append(joiner)
        return joiner

    def close(self) -> None:
        for joiner in self.joiners:
            joiner.close()
        self.stop.set()
        self.thread.join(timeout=30)
        self.host.close()
        self.controller.close()
