"""A decision's trials on two streams of labs, run side by side: both cores, and the same game
on any machine.

A trial depends on the trials run before it on the same lab (docs/PHYSICS.md, "A trial
remembers the trials before it"), so trials cannot be handed to whichever worker is free: the
game would then depend on the number of workers and on their timing. Instead each decision has
STREAMS streams, each with its own labs of the towers it asks about (tower_lab.TowerLab), and
trials go to the streams in lockstep: the k-th trial of a round always runs on stream k. Which
trials a round holds depends only on what the decision has learnt so far (the search asks for
them, ai.BanduAgent.best_placement), so every stream's lab sees the same trials in the same
order whether its stream runs in this process or in a helper process: one worker or two play
the same game, move for move, only faster with two.

Stream 0 always runs in the deciding process, which also reads the towers' tops from its
labs. The other streams run in helper processes when the decision may use more than one worker
and a helper is free (else here, one after the other). A helper is started at the first
decision that wants it and serves every later decision of its process; it runs below the
window's priority (HELPER_NICENESS) so that the window keeps its frame rate while the computer
thinks. A helper that dies costs nothing but time: its stream is rebuilt here and its trials of
the decision replayed, in order.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from typing import TYPE_CHECKING, Any, NamedTuple

from simulator.core.piped_process import start_piped_process, stop_process
from simulator.games.bandu.rules import BanduState, Place
from simulator.towers.physics.tremor import Tremor

# the labs (PyBullet) are imported where a stream runs, so a helper starts quietly (_helper_main)
if TYPE_CHECKING:
    from simulator.games.bandu.tower_lab import TowerLab, Trial

STREAMS = 2                 # a fixed part of every decision: never the number of cores
HELPER_NICENESS = 5         # a helper yields the cores to the window's drawing


class Release(NamedTuple):
    """One trial a search asks for: `place` released over a seat's tower, shaken by `hand`
    with the draw `draw` (the same wherever it runs)."""
    whole: bool                 # over the whole tower moving (else its top moving: LAB_MOVING)
    place: Place
    hand: Tremor
    room: bool                  # also measure the room the tower leaves for the next piece
    draw: tuple[int, ...]


class StreamLabs:
    """One stream's labs for one decision: each seat's tower with its top moving and, when a
    trial asks for it, with every piece moving; each made at its first trial."""

    def __init__(self, state: BanduState) -> None:
        self.state = state
        self._labs: dict[tuple[int, bool], TowerLab] = {}

    def has_lab(self, seat: int, whole: bool = False) -> bool:
        return (seat, whole) in self._labs

    def lab(self, seat: int, whole: bool = False) -> TowerLab:
        from simulator.games.bandu.tower_lab import LAB_MOVING, TowerLab

        if (seat, whole) not in self._labs:
            self._labs[seat, whole] = TowerLab(self.state, seat, moving=None if whole else LAB_MOVING)
        return self._labs[seat, whole]

    def run(self, seat: int, release: Release) -> Trial:
        import numpy as np

        lab = self.lab(seat, release.whole)
        return lab.trial(release.place, release.hand, np.random.default_rng(release.draw), room=release.room)

    def close(self) -> None:
        for lab in self._labs.values():
            lab.close()
        self._labs.clear()


def _helper_main(connection: Any) -> None:
    """A helper process: ("begin", state) starts a decision's stream, ("build", seat, whole)
    builds a lab before its first trial, ("run", seat, release) runs one trial and sends back its
    Trial (or the exception it raised), ("end",) closes the labs; None stops the process."""
    from simulator.processes import quiet_worker_start

    quiet_worker_start("simulator.games.bandu.tower_lab")
    with contextlib.suppress(OSError):
        os.nice(HELPER_NICENESS)
    stream: StreamLabs | None = None
    try:
        message = connection.recv()
        while message is not None:
            if message[0] == "begin":
                if stream is not None:
                    stream.close()
                stream = StreamLabs(message[1])
            elif message[0] == "build":
                assert stream is not None
                with contextlib.suppress(Exception):   # the trial that needs the lab will say
                    stream.lab(message[1], message[2])
            elif message[0] == "run":
                assert stream is not None
                try:
                    connection.send(stream.run(message[1], message[2]))
                except Exception as error:      # handed to the deciding process, which raises it
                    connection.send(error)
            elif stream is not None:
                stream.close()
                stream = None
            message = connection.recv()
    except (EOFError, OSError):                 # the deciding process has gone
        pass
    finally:
        if stream is not None:
            stream.close()


class _Helper:
    """A helper process and the pipe to it."""

    def __init__(self) -> None:
        self.connection, self.process = start_piped_process(_helper_main, (), "trial-stream")

    def alive(self) -> bool:
        return self.process.is_alive()

    def close(self) -> None:
        stop_process(self.connection, self.process)


_helpers: list[_Helper] = []
_helpers_lock = threading.Lock()


def _claim_helpers(count: int) -> list[_Helper]:
    """Up to `count` live helpers for one decision, the lock held until `_free_helpers`; none
    where this process may not have children (a daemon process) or another decision of this
    process holds them (a second game on another thread)."""
    if count <= 0 or multiprocessing.current_process().daemon:
        return []
    if not _helpers_lock.acquire(blocking=False):
        return []
    try:
        _helpers[:] = [h for h in _helpers if h.alive()]
        while len(_helpers) < count:
            _helpers.append(_Helper())
        return _helpers[:count]
    except Exception:
        _helpers_lock.release()
        raise


def _free_helpers() -> None:
    _helpers_lock.release()


def stop_helpers() -> None:
    """Stop this process's helpers (they also leave with it)."""
    with _helpers_lock:
        for helper in _helpers:
            helper.close()
        _helpers.clear()


class DecisionLabs:
    """The labs of one decision on one state: STREAMS streams, stream 0 here, the others on
    helper processes when `workers` > 1 (else here too). `lab(seat)` is stream 0's lab of a
    seat's tower, which the search reads the tower's top from; `run(seat, releases)` runs
    release k on stream k, side by side."""

    def __init__(self, state: BanduState, workers: int = 1) -> None:
        self.state = state
        self._local: dict[int, StreamLabs] = {0: StreamLabs(state)}
        self._remote: dict[int, _Helper] = {}
        self._begun: set[int] = set()
        self._done: dict[int, list[tuple[int, Release]]] = {k: [] for k in range(STREAMS)}
        self._workers = max(1, min(workers, STREAMS))
        self._asked_for_helpers = False
        self._holds_helpers = False         # this decision holds the helpers' lock
        self.helper_trials = 0              # trials a helper answered
        self._awaited: set[int] = set()     # streams whose helper owes an answer

    def lab(self, seat: int, whole: bool = False) -> TowerLab:
        """Stream 0's lab of `seat`'s tower. Made here for the first time, it is made on the
        helpers at the same time (a lab is the same whenever it is built), so that their first
        trial on it does not wait for it."""
        if not self._local[0].has_lab(seat, whole):
            for stream in range(1, STREAMS):
                self._build(stream, seat, whole)
        return self._local[0].lab(seat, whole)

    def seat(self, seat: int) -> SeatLabs:
        return SeatLabs(self, seat)

    def _helper(self, stream: int) -> _Helper | None:
        if not self._asked_for_helpers and self._workers > 1:
            self._asked_for_helpers = True
            helpers = _claim_helpers(self._workers - 1)
            self._holds_helpers = bool(helpers)
            self._remote = {k + 1: h for k, h in enumerate(helpers)}
        return self._remote.get(stream)

    def helper_process_ids(self) -> list[int]:
        """The helper processes this decision's streams run on (tests kill one)."""
        return [helper.process.pid for helper in self._remote.values() if helper.process.pid is not None]

    def _stream_here(self, stream: int) -> StreamLabs:
        """Stream `stream` in this process: made (and its trials so far replayed, when a
        helper ran them and died) at first use."""
        if stream not in self._local:
            self._local[stream] = StreamLabs(self.state)
            for seat, release in self._done[stream]:
                self._local[stream].run(seat, release)
        return self._local[stream]

    def _tell(self, stream: int, message: tuple) -> bool:
        """Send `message` to the helper of `stream` (the decision's state first); False when it
        runs here."""
        helper = self._helper(stream)
        if helper is None:
            return False
        try:
            if stream not in self._begun:
                helper.connection.send(("begin", self.state))
                self._begun.add(stream)
            helper.connection.send(message)
            return True
        except (OSError, ValueError):
            self._lose(stream)
            return False

    def _build(self, stream: int, seat: int, whole: bool) -> None:
        self._tell(stream, ("build", seat, whole))

    def _send(self, stream: int, seat: int, release: Release) -> bool:
        if not self._tell(stream, ("run", seat, release)):
            return False
        self._awaited.add(stream)
        return True

    def _receive(self, stream: int) -> Trial | None:
        self._awaited.discard(stream)
        try:
            answer = self._remote[stream].connection.recv()
        except (EOFError, OSError):
            self._lose(stream)
            return None
        if isinstance(answer, Exception):
            raise answer
        self.helper_trials += 1
        return answer

    def _lose(self, stream: int) -> None:
        self._remote.pop(stream, None)

    def run(self, seat: int, releases: list[Release]) -> list[Trial]:
        """Release k on stream k (at most STREAMS releases), side by side where helpers run."""
        assert 0 < len(releases) <= STREAMS
        sent = {k for k in range(1, len(releases)) if self._send(k, seat, releases[k])}
        results = [self._local[0].run(seat, releases[0])]
        for k in range(1, len(releases)):
            answer = self._receive(k) if k in sent else None
            results.append(answer if answer is not None else self._stream_here(k).run(seat, releases[k]))
        for k, release in enumerate(releases):
            self._done[k].append((seat, release))
        return results

    def close(self) -> None:
        for here in self._local.values():
            here.close()
        for stream, helper in self._remote.items():
            try:
                if stream in self._awaited:     # a trial here failed before its answer came:
                    helper.connection.recv()    # the next decision must not read it
                if stream in self._begun:
                    helper.connection.send(("end",))
            except (EOFError, OSError, ValueError):
                pass
        self._awaited.clear()
        if self._holds_helpers:
            _free_helpers()
        self._holds_helpers = False
        self._remote = {}

    def __enter__(self) -> DecisionLabs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SeatLabs:
    """One seat's tower in a decision's labs: what a search asks of it."""

    def __init__(self, labs: DecisionLabs, seat: int) -> None:
        self._labs, self.seat = labs, seat

    @property
    def holds_still(self) -> bool:
        return self._labs.lab(self.seat).holds_still

    def aim_points_mm(self) -> list[tuple[float, float]]:
        return self._labs.lab(self.seat).aim_points_mm()

    def shelf_aims_mm(self, piece: str, orientation: Any) -> list[tuple[float, float]]:
        return self._labs.lab(self.seat).shelf_aims_mm(piece, orientation)

    def run(self, releases: list[Release]) -> list[Trial]:
        return self._labs.run(self.seat, releases)
