"""A game played at a host, as the joiner's window sees it: it answers the game screen and the
game's view as the turn controller does (its state, seats, history, whose turn, submit), but
every move is the host's to judge. The state is the seat's redacted table as the host last sent
it, the history the move log as the seat may see it; a move made in the window is sent with the
ply it answers, and the table that comes back shows it (or a refusal says why not).

Messages arrive on the joiner's reader thread and wait in an inbox; `poll()`, called by the
window every frame, applies them on the window's own thread, so a view never sees a table
change under it. No pyglet here: the command line connects before the window opens.
"""

from __future__ import annotations

import queue
import time
from typing import Any

from simulator.core import registry
from simulator.core.controller import COMPUTER, PERSON, HistoryEntry, Seat
from simulator.core.errors import IllegalAction
from simulator.core.outcomes import PendingOutcome, Timeline
from simulator.core.state import Action, GameState
from simulator.core.text import printable
from simulator.net.joiner import CONNECT_SECONDS, Joiner, JoinError
from simulator.net.protocol import encode


class RemoteOutcome:
    """An outcome judged at the host (a Bandu placement), played back here from the frames the
    host sends as its physics publishes them: the same fall in every window. A view reads it as
    it reads the live outcome at the host (`frame()`, `done()`, `progress()`)."""

    def __init__(self, ply: int, clock: Any = time.monotonic) -> None:
        self.ply = ply
        self.timeline = Timeline()
        self._clock = clock
        self._start: float | None = None
        self._created = clock()

    def add(self, frames: list[Any], last: bool) -> None:
        for seconds, frame in frames:
            pose = {str(piece): tuple(float(v) for v in values) for piece, values in frame.items()}
            self.timeline.add(float(seconds), pose)
        if frames and self._start is None:
            self._start = self._clock()
        self.timeline.finished = self.timeline.finished or last

    def playback_seconds(self) -> float:
        return 0.0 if self._start is None else self._clock() - self._start

    def frame(self) -> tuple[Any, Any, float] | None:
        return self.timeline.at(self.playback_seconds())

    def done(self) -> bool:
        return self.timeline.finished and self.playback_seconds() >= self.timeline.end

    def overdue(self, grace: float = 3.0) -> bool:
        """Longer than its frames could take (and `grace` more): a frame lost on the way holds
        the table no longer."""
        since = self._clock() - (self._start if self._start is not None else self._created)
        return since > self.timeline.end + grace

    def result(self) -> Any:
        raise RuntimeError("an outcome played at the host: its result comes with the table")

    def progress(self) -> float:
        end = self.timeline.end
        return 1.0 if self.done() or end <= 0 else min(1.0, self.playback_seconds() / end)

    def cancel(self) -> None:
        self.timeline.finished = True


HOST_KEEPS_IT = "the host keeps this game (its autosave); join again with your code to come back"


def join_game(address: str, code: str, timeout: float = CONNECT_SECONDS) -> RemoteGame:
    """Connect to the host at `address` with the seat's `code` and wait for the first table;
    a wrong address or code, or a host that sends no table, is a JoinError of one line."""
    inbox: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
    joiner = Joiner(address, code, timeout=timeout, on_message=inbox.put)
    if not joiner.wait_until(lambda j: j.table is not None, timeout=timeout):
        reason = joiner.closed_reason or "the host sent no table"
        joiner.close()
        raise JoinError(f"{address}: {reason}")
    try:
        return RemoteGame(joiner, inbox, address, code)
    except (ValueError, KeyError, TypeError) as error:
        joiner.close()
        raise JoinError(f"{address}: the host's game cannot be shown here ({error})") from None


class RemoteGame:
    """One seat of a hosted game, shaped as the window's turn controller (TurnController) for
    GameScreen and the game views. `address` and `code` are kept to join again."""

    def __init__(self, joiner: Joiner, inbox: queue.SimpleQueue[dict[str, Any]], address: str,
                 code: str) -> None:
        welcome = joiner.welcome
        assert welcome is not None
        self.joiner, self.address, self.code = joiner, address, code
        self._inbox = inbox
        self.game = registry.get_game(welcome["game"])
        self.info = self.game.info
        self.settings: dict[str, Any] = dict(welcome["settings"])
        self.seat = joiner.seat                   # None: a watcher
        described = [seat if isinstance(seat, dict) else {} for seat in welcome["seats"]]
        self._plays = [printable(str(seat.get("plays", "")), 60) for seat in described]
        self.remote_seats = [n for n, seat in enumerate(described) if seat.get("remote")]
        # the own seat goes by the game's name for it (a view says "Player 1"); the others as
        # the host describes them ("Computer, Easy", "Person at another machine")
        self.seats = [Seat(PERSON) if n == self.seat
                      else Seat(PERSON, name=self._plays[n]) if n in self.remote_seats
                      else Seat(COMPUTER, name=self._plays[n]) for n in range(len(described))]
        self.state: GameState[Any] = self.game.new_game(len(self.seats), self.settings)
        self.history: list[HistoryEntry] = []
        self._log: list[list[Any]] = []
        self.table_ply = 0
        self.winners: list[int] = []
        self.waiting: list[int] = []              # remote seats away from the table
        self.handed_over: list[int] = []          # remote seats the host's computer plays now
        self.paused: str | None = None
        self.refusal: str | None = None           # the host's last refusal, not yet said
        self.closed_reason: str | None = None     # why the connection ended
        self.sent_for: int | None = None          # the ply of a move sent and not yet answered
        self.version = 0
        self.outcome: RemoteOutcome | None = None      # the host's physics, played back here
        self._held: dict[str, Any] | None = None       # a table that waits for the playback
        # what the game screen and the views ask of a turn controller, with nothing to say here
        self.search_error: str | None = None
        self.autosave_path = None
        self.autosave_error: str | None = None
        self.load_notice: str | None = None
        self.results_to_check = None
        self.computer_delay = 0.0
        self.think_seconds: list[list[float]] = [[] for _ in self.seats]
        self.game_id = ""
        self.poll()

    # --- the tables ---------------------------------------------------------------------------------
    def poll(self, now: float | None = None) -> bool:
        """Apply what the host sent since the last call (on the window's thread); True when the
        table changed."""
        changed = False
        while True:
            try:
                message = self._inbox.get_nowait()
            except queue.Empty:
                break
            kind = message.get("type")
            if kind == "table" and (self._held is not None or self._playing(message)):
                self._held = message                 # the newest, shown when the fall is seen
            elif kind == "table":
                changed = self._take_table(message) or changed
            elif kind == "frames":
                self._take_frames(message)
            elif kind == "refused":
                self.refusal = printable(str(message.get("reason")), 200)
                self.sent_for = None
                self.version += 1
            elif kind == "closed":
                self._closed(str(message.get("reason")))
        if self._held is not None and not self._playing(self._held):
            held, self._held = self._held, None
            changed = self._take_table(held) or changed
        if self.closed_reason is None and self.joiner.closed_reason is not None:
            self._closed(self.joiner.closed_reason)
        return changed

    def _take_frames(self, message: dict[str, Any]) -> None:
        ply = int(message["ply"])
        if self.outcome is None or self.outcome.ply != ply:
            self.outcome = RemoteOutcome(ply)
            self.version += 1
        try:
            self.outcome.add(list(message["frames"]), bool(message["last"]))
        except (ValueError, TypeError, AttributeError) as error:
            self._closed(f"the host sent frames this program cannot read ({error})")

    def _playing(self, table: dict[str, Any]) -> bool:
        """Is the host's outcome still being played back here, so that `table` (the position
        after it) must wait? At most a few seconds past the frames' end, whatever happens."""
        outcome = self.outcome
        if outcome is None or int(table.get("ply", 0)) <= outcome.ply:
            return False
        return not outcome.done() and not outcome.overdue()

    def _take_table(self, table: dict[str, Any]) -> bool:
        try:
            state = self.game.state_from_dict(table["state"])
            start = max(0, min(int(table["log_from"]), len(self._log)))
            log = self._log[:start] + list(table["log"])
            history = [HistoryEntry(int(player), str(notation)) for player, notation in log]
        except (ValueError, TypeError, KeyError) as error:
            self._closed(f"the host sent a table this program cannot read ({error})")
            return False
        self.state, self._log, self.history = state, log, history
        self.table_ply = int(table["ply"])
        self.winners = [int(w) for w in table.get("winners") or []]
        self.waiting = [int(s) for s in table.get("waiting") or []]
        paused = table.get("paused")
        self.paused = printable(str(paused), 120) if paused else None
        for seat in table.get("handed_over") or []:
            if isinstance(seat, int) and 0 <= seat < len(self.seats) and seat not in self.handed_over:
                self.handed_over.append(seat)
                self.seats[seat] = Seat(COMPUTER, name="Computer (took the seat over)")
                self._plays[seat] = self.seats[seat].name
        if self.sent_for is not None and self.table_ply != self.sent_for:
            self.sent_for = None                  # the move was played
        self.version += 1
        return True

    def _closed(self, reason: str) -> None:
        if self.closed_reason is None:
            self.closed_reason = printable(reason, 200)
            self.sent_for = None
            self.version += 1

    def take_refusal(self) -> str | None:
        """The host's refusal of a move, once (the screen says it)."""
        refusal, self.refusal = self.refusal, None
        return refusal

    # --- queries, as the turn controller answers them ---------------------------------------------------
    @property
    def game_name(self) -> str:
        return self.info.name

    def who_plays(self, seat: int) -> str:
        if seat == self.seat:
            return "You"
        away = " · disconnected" if seat in self.waiting else ""
        return f"{self._plays[seat] or 'Person'}{away}"

    def current_player(self) -> int:
        return self.state.current_player()

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def ply(self) -> int:
        return self.table_ply

    def is_person_turn(self) -> bool:
        """The seat of this window is to move and may: nothing of its is on the way."""
        return (self.seat is not None and self.current_player() == self.seat and not self.is_over()
                and self.closed_reason is None and self.paused is None and self.sent_for is None)

    def is_computer_thinking(self) -> bool:
        return False

    def person_seats(self) -> list[int]:
        """The people at this machine: the joined seat only."""
        return [] if self.seat is None else [self.seat]

    def visible_state(self, viewer: int | None) -> GameState[Any]:
        return self.state            # the host sent it as this seat may see it

    def outcome_in_progress(self) -> PendingOutcome | None:
        """The host's outcome being played back here, until the table after it is shown."""
        outcome = self.outcome
        return outcome if outcome is not None and outcome.ply == self.table_ply else None

    def waiting_for(self) -> int | None:
        """The seat to move when it is a remote seat away from the table, else None."""
        player = self.current_player()
        return player if player in self.waiting and not self.is_over() else None

    def paced(self) -> bool:
        return False

    def hold_computers(self, seconds: float) -> None:
        """The computers are the host's: nothing to hold here."""

    def can_undo(self, seat: int | None = None) -> bool:
        return False

    def undo(self, seat: int | None = None) -> bool:
        return False

    # --- acting --------------------------------------------------------------------------------------
    def submit(self, action: Action) -> None:
        """Send the seat's move to the host for the table shown; raises IllegalAction when it
        cannot be sent (not this seat's turn, a move already on its way) or the rules refuse it
        here already (the host's refusal of the rest arrives later: `take_refusal`)."""
        if self.closed_reason is not None:
            raise IllegalAction(f"the connection to the host is closed: {self.closed_reason}")
        if self.paused is not None:
            raise IllegalAction(f"wait: {self.paused}")
        if self.is_over():
            raise IllegalAction("the game is over")
        if self.sent_for is not None:
            raise IllegalAction("wait: the host is judging your move")
        if self.seat is None or self.current_player() != self.seat:
            raise IllegalAction("it is not your turn")
        try:
            legal = self.state.is_legal(action)
        except Exception:          # the seat's view may lack what the rules ask: the host judges
            legal = True
        if not legal:
            raise IllegalAction(self.state.refusal_of(action))
        notation = self.state.action_to_str(action)
        self.sent_for = self.table_ply
        self.version += 1
        self.joiner.send(encode("move", action=notation, ply=self.table_ply))

    def save(self, path: Any) -> Any:
        raise IllegalAction(HOST_KEEPS_IT)

    def to_save_dict(self) -> dict[str, Any]:
        raise IllegalAction(HOST_KEEPS_IT)

    def close(self) -> None:
        """Leave the table (the host keeps the seat for a return)."""
        self.joiner.close()
