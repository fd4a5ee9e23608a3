"""The turn controller shared by all games.

It owns the state and the seats (a person, or a computer agent at a strength), resolves chance
moves with a seeded RNG, obtains the results of outcome nodes from the resolver it was given
(physics, dice on screen), runs computer moves off the UI thread (the UI calls `poll()` every
frame and never blocks), applies people's actions coming from views, keeps the history, undoes,
saves, loads and autosaves.

Information: a computer player is given `state.redacted(seat)` and a view `visible_state(viewer)`,
never the full state; a seat at another machine is sent those and `history_seen_by(seat)`, the
history with each notation as that seat may see it (no card drawn into another hand).

Determinism: chance outcomes, outcome resolvers and agent RNGs are seeded from (seed, ply), so a
seed and the action list replay a game exactly, whether it was played in one sitting or loaded
half way. Outcomes are recorded like moves, so a save replays them without resolving them again.

Undo follows Board Game Arena's policy, read for a table with computer players: a person may
take back their own last move, together with the computer moves that answered it, until another
person acts or something is revealed (a chance draw, an outcome, or a move the game says
reveals, such as a peek).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import tempfile
import time
import uuid
from collections.abc import Mapping
from concurrent.futures import BrokenExecutor, Executor, Future, ThreadPoolExecutor
from concurrent.futures import wait as futures_wait
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from simulator.core import referees, registry
from simulator.core.agents import Agent, Strength
from simulator.core.errors import IllegalAction, SaveError, SettingsError
from simulator.core.json_file import read_json_file
from simulator.core.outcomes import OutcomeResolver, PendingOutcome
from simulator.core.save_check import ResultsToCheck, refusal_of
from simulator.core.state import CHANCE, OUTCOME, TERMINAL, Action, GameState
from simulator.core.text import printable, shown
from simulator.core.workers import SearchPool

SAVE_FORMAT = "bandu-sim save"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 16_000_000       # a long game's save is tens of kilobytes
MAX_HISTORY = 1_000_000           # moves in one save
MAX_TRIES = 3                     # a failing search or resolution, at one position
# what replaying a damaged or hostile file can raise from a game's own parsing and checks
REPLAY_ERRORS = (IllegalAction, SettingsError, ValueError, TypeError, KeyError, IndexError,
                 AttributeError, RecursionError, OverflowError)
PERSON, COMPUTER = "person", "computer"
PLAYED_ELSEWHERE = "Person at another machine"     # who plays a seat in played_elsewhere


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a person, or the computer with an agent spec like 'mcts:strong'."""

    kind: str = PERSON
    agent: str | None = None
    name: str = ""

    @property
    def is_computer(self) -> bool:
        return self.kind == COMPUTER

    def describe(self, strengths: Mapping[str, Strength] | None = None) -> str:
        """'Computer, Strong', or 'Computer' where the game has one level (a computer player that
        only rolls dice), or the person's name; `strengths` are the game's levels, for their labels."""
        if self.is_computer:
            level = (self.agent or "mcts").partition(":")[2]
            known = strengths or {}
            if level in known:
                return "Computer" if len(known) == 1 else f"Computer, {known[level].label}"
            return f"Computer, {level}" if level else f"Computer ({self.agent})"
        return self.name or "Person"


@dataclass(frozen=True)
class HistoryEntry:
    player: int        # seat index, CHANCE or OUTCOME
    action: str        # the game's notation
    reveal: bool = False   # showed something hidden (chance, outcome, a peek): undo stops here
    referee: str | None = None  # an outcome's: the stamp of the referee that judged it (referees.py)


def game_id_of(data: dict[str, Any]) -> str:
    """The identity of the game a save holds: its "game_id", or, in a save of an earlier
    version (none written), one made from what does not change as the game goes on (the game,
    its seed, settings and seats), so all of one game's saves share it."""
    given = data.get("game_id")
    if isinstance(given, str) and 8 <= len(given) <= 32 and all(c in "0123456789abcdef" for c in given):
        return given
    try:
        fixed = json.dumps([data.get("game"), data.get("seed"), data.get("settings"), data.get("seats")],
                           sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        fixed = repr(data.get("game"))
    return "legacy-" + hashlib.sha256(fixed.encode()).hexdigest()[:16]


def _search(agent: Agent, state: GameState[Any], rng: random.Random) -> Action:
    """Run one agent search; module-level so a process pool can pickle it."""
    return agent.choose(state, rng)


class TurnController:
    def __init__(self, game: str | registry.GameRules, settings: dict[str, Any] | None = None,
                 seats: list[Seat] | None = None, seed: int = 0,
                 autosave_path: str | Path | None = None, computer_delay: float = 0.0,
                 executor: Executor | None = None, resolver: OutcomeResolver | None = None) -> None:
        """`executor` runs computer searches; the window passes a SearchPool so a search never
        competes with drawing for the GIL. Without one, a private worker thread is used.
        `resolver` supplies the results of outcome nodes (default: the game's own)."""
        self.game = registry.get_game(game)
        self.info = self.game.info
        self.settings = dict(settings or {})
        players = len(seats) if seats is not None else None
        self.initial = self.game.new_game(players, self.settings)
        self.state = self.initial.clone()
        n = self.state.num_players
        self.seats = list(seats) if seats is not None else [Seat() for _ in range(n)]
        if len(self.seats) != n:
            raise SettingsError(f"{self.info.title} here has {n} seats, not {len(self.seats)}")
        self.seed = seed
        # which game this is, kept by its saves and autosaves (one row of the saved games)
        self.game_id = uuid.uuid4().hex[:16]
        self.resolver = resolver if resolver is not None else self.game.make_resolver()
        # the game's own referee judges the outcomes (a save names it), or the given resolver
        self._referee_judges = resolver is None
        self.agents: list[Agent | None] = [
            self.game.make_agent(s.agent or self.game.agent_prefix) if s.is_computer else None
            for s in self.seats]
        self.history: list[HistoryEntry] = []
        self.think_seconds: list[list[float]] = [[] for _ in self.seats]   # blocking play only
        self._before: list[GameState[Any]] = []        # state before each history entry
        # per seat (None: a spectator), the history entries as it sees them: (entry, seen)
        self._seen: dict[int | None, list[tuple[HistoryEntry, HistoryEntry]]] = {}
        self.autosave_path = Path(autosave_path) if autosave_path else None
        self.autosave_error: str | None = None
        self.load_notice: str | None = None        # what a person should know of a loaded save
        self.results_to_check: ResultsToCheck | None = None   # a save's, checked later (load)
        self.paused: str | None = None             # why nothing may move now (pause), or None
        # the person's seats played at another machine (a host's remote seats): not this
        # machine's people, their moves come through submit(action, seat); not saved
        self.played_elsewhere: set[int] = set()
        self.computer_delay = computer_delay
        self._held_until = 0.0                     # no computer moves before (hold_computers)
        self.version = 0                           # bumps on every change, for views
        self._last_change = time.monotonic()
        self._executor: Executor | None = executor
        self._owns_executor = executor is None
        self.search_error: str | None = None
        self._pending: Future[Any] | None = None
        self._pending_version = -1
        self._search_retries = 0
        self.stuck: str | None = None              # why nothing more is tried here (_failed)
        self._failures = 0
        self._failures_version = -1
        self._outcome: PendingOutcome | None = None
        self._outcome_version = -1

    # --- queries ---------------------------------------------------------------------------------
    @property
    def game_name(self) -> str:
        return self.info.name

    def who_plays(self, seat: int) -> str:
        """Who plays the seat, in the game's words: 'Computer, Strong', 'Person', a name, or
        a person at another machine."""
        if seat in self.played_elsewhere:
            return PLAYED_ELSEWHERE
        return self.seats[seat].describe(self.game.strengths)

    def hand_to_computer(self, seat: int, spec: str) -> None:
        """A person's seat played by a computer player from now on (`spec` such as 'mcts:easy'):
        a remote person who left the table and did not come back."""
        agent = self.game.make_agent(spec)
        self.seats[seat] = Seat(COMPUTER, spec)
        self.agents[seat] = agent
        self.played_elsewhere.discard(seat)
        self.version += 1

    def current_player(self) -> int:
        return self.state.current_player()

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def is_person_turn(self) -> bool:
        """A person at this machine is to move (not a computer, not a seat played elsewhere)."""
        p = self.state.current_player()
        return p >= 0 and not self.seats[p].is_computer and p not in self.played_elsewhere

    def is_computer_thinking(self) -> bool:
        return self._pending is not None

    @property
    def executor(self) -> Executor | None:
        """Where computer players think: the executor the controller was given (the window's
        SearchPool, a process of its own), or the thread it started itself at its first search;
        None before that."""
        return self._executor

    def show_outcomes_live(self, resolver: OutcomeResolver | None = None) -> None:
        """For the window: resolve outcomes with the game's live resolver (GameApp.live_resolver,
        which the window passes), whose pending outcomes a view can play back as they happen;
        None: the rules' own resolver. The game's referee still judges them."""
        self._close_resolver()
        self.resolver = resolver if resolver is not None else self.game.make_resolver()
        self._referee_judges = True

    def _close_resolver(self) -> None:
        """Cancel the outcome being resolved and free what the resolver holds (its process)."""
        if self._outcome is not None:
            self._outcome.cancel()
            self._outcome = None
        close_resolver = getattr(self.resolver, "close", None)
        if close_resolver is not None:
            close_resolver()

    def outcome_in_progress(self) -> PendingOutcome | None:
        """The outcome being resolved now (a view animates it by its progress()), or None."""
        return self._outcome

    def person_seats(self) -> list[int]:
        """The seats of the people at this machine."""
        return [seat for seat, s in enumerate(self.seats)
                if not s.is_computer and seat not in self.played_elsewhere]

    def visible_state(self, viewer: int | None) -> GameState[Any]:
        """What a view may draw for `viewer` (a seat): the state without what that seat may not
        see. None (nobody at the table, e.g. computers only) shows everything."""
        if viewer is None or not self.state.hidden_information:
            return self.state
        return self.state.redacted(viewer)

    def ply(self) -> int:
        return len(self.history)

    def entry_seen_by(self, index: int, seat: int | None) -> HistoryEntry:
        """History entry `index` as `seat` may see it (None: a spectator, who sees what every
        seat sees): its notation as the game words it for that seat (the state before the
        move's `notation_seen_by`), e.g. "draw ?" for a card drawn into another hand. What a
        host sends a seat at another machine, with `visible_state(seat)`. Worked out once per
        entry and seat: an entry taken back by undo is worked out anew."""
        entry = self.history[index]
        cached = self._seen.setdefault(seat, [])
        if index < len(cached):
            if cached[index][0] is entry:
                return cached[index][1]
            del cached[index:]              # taken back (undo) or replaced since
        notation = self._before[index].notation_seen_by(entry.action, entry.player, seat)
        seen = entry if notation == entry.action else replace(entry, action=notation)
        if index == len(cached):
            cached.append((entry, seen))
        return seen

    def history_seen_by(self, seat: int | None) -> list[HistoryEntry]:
        """The whole history as `seat` may see it (`entry_seen_by`, each entry once)."""
        return [self.entry_seen_by(index, seat) for index in range(len(self.history))]

    # --- acting ----------------------------------------------------------------------------------
    def pause(self, reason: str) -> None:
        """Hold the game: no move is taken and none is played until `resume` (a loaded save's
        results are being checked). `reason` says why, in words for a person."""
        self.paused = reason
        self.version += 1

    def resume(self) -> None:
        self.paused = None
        self.version += 1
        self._last_change = time.monotonic()       # computers wait their delay from now

    def submit(self, action: Action, seat: int | None = None) -> None:
        """A person's action from a view, or with `seat` from the person of a seat played
        elsewhere (a host's joiner); raises IllegalAction with the reason."""
        if self.paused is not None:
            raise IllegalAction(f"wait: {self.paused}")
        p = self.state.current_player()
        if p == TERMINAL:
            raise IllegalAction("the game is over")
        if p < 0 or self.seats[p].is_computer:
            raise IllegalAction("it is not a person's turn")
        if seat != p and (seat is not None or p in self.played_elsewhere):
            raise IllegalAction("it is not your turn" if seat is not None
                                else f"{self.info.seat_name(p)} plays at another machine")
        self._record(p, action)

    def _record(self, player: int, action: Action) -> None:
        before = self.state.clone()
        self.state.apply(action)  # validates; raises IllegalAction and leaves the state unchanged
        self._before.append(before)
        reveal = player in (CHANCE, OUTCOME) or before.reveals(action)
        referee = (referees.JUDGED_HERE if player == OUTCOME and self.game.referee_stamp
                   and self._referee_judges else None)
        self.history.append(HistoryEntry(player, before.action_to_str(action), reveal, referee))
        self._changed()

    def _referee_stamp(self) -> str | None:
        """The stamp of the game's referee in this version (Game.referee_stamp), or None."""
        return self.game.referee_stamp() if self.game.referee_stamp is not None else None

    def _outcome_stamps(self) -> list[str | None]:
        """Who judged each outcome, in order: JUDGED_HERE as this version's stamp (asked for
        only now: it names the physics, whose import a game that never saves need not pay)."""
        here = self._referee_stamp()
        return [here if entry.referee == referees.JUDGED_HERE else entry.referee
                for entry in self.history if entry.player == OUTCOME]

    def _rng(self, purpose: str) -> random.Random:
        """The RNG for this ply: seeded from (seed, ply, purpose), so a replay draws the same."""
        return random.Random(f"{self.seed}:{self.ply()}:{purpose}")

    def _resolve_chance(self) -> None:
        self._record(CHANCE, self.state.random_action(self._rng("chance")))

    def _failed(self, what: str, error: BaseException) -> bool:
        """Count a failed search or resolution at this position and say so: True to try again,
        False once it failed MAX_TRIES times here (then `stuck` says why, and nothing more is
        tried until the position changes: undo, load, a person's move)."""
        if self._failures_version != self.version:
            self._failures, self._failures_version = 0, self.version
        self._failures += 1
        reason = printable(f"{what} ({type(error).__name__}: {error})", 160)
        if self._failures < MAX_TRIES:
            self.search_error = f"{reason}; trying again"
            return True
        self.stuck = f"{reason}, {self._failures} times; undo, save or load a game to go on"
        self.search_error = self.stuck
        return False

    def _changed(self) -> None:
        self.stuck = None
        self.version += 1
        self._last_change = time.monotonic()
        self.autosave()

    def hold_computers(self, seconds: float) -> None:
        """No computer moves for `seconds` from now: a view shows something worth a look (a
        tower falling). Only where play is paced for people (computer_delay above 0; tests and
        tools play at full speed)."""
        if self.paced():
            self._held_until = max(self._held_until, time.monotonic() + seconds)

    def paced(self) -> bool:
        """Is play paced for people to follow (computer_delay above 0)?"""
        return self.computer_delay > 0

    def poll(self, now: float | None = None) -> bool:
        """Advance whatever does not need a person: chance moves and computer moves.

        Non-blocking: starts a computer search on the worker thread, or applies a finished one.
        Returns True when the state changed."""
        changed = False
        while self.paused is None:
            p = self.state.current_player()
            if p == CHANCE:
                self._resolve_chance()
                changed = True
                continue
            if p == OUTCOME:
                if not self._poll_outcome():
                    return changed
                changed = True
                continue
            if p < 0 or not self.seats[p].is_computer:
                return changed
            if self.stuck is not None:
                return changed
            if self._pending is None:
                now = time.monotonic() if now is None else now
                if now - self._last_change < self.computer_delay or now < self._held_until:
                    return changed
                self._start_search(p)
                return changed
            if not self._pending.done():
                return changed
            future, self._pending = self._pending, None
            if self._pending_version != self.version:
                continue   # the position changed (undo, load) while it thought: think again
            try:
                action = future.result()
            except BrokenExecutor as error:
                # the search process died (killed, out of memory): a SearchPool replaces it; a
                # pool that cannot be replaced, or fails again, gives way to a private thread
                self.search_error = f"computer player restarted after: {error}"
                self._search_retries += 1
                if isinstance(self._executor, SearchPool) and self._search_retries <= 2:
                    self._executor.replace_if_broken()
                else:
                    self._executor, self._owns_executor = None, True
                continue
            except Exception as error:      # a fault in the computer player itself
                if self._failed(f"the computer player of seat {p + 1} failed", error):
                    continue
                return changed
            self._search_retries = 0
            self._record(p, action)
            changed = True
        return changed

    def _start_search(self, player: int) -> None:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer-player")
        agent = self.agents[player]
        assert agent is not None
        self._pending_version = self.version
        self._pending = self._executor.submit(_search, agent, self.state.redacted(player),
                                              self._rng("agent"))

    def _begin_outcome(self) -> PendingOutcome:
        """Hand the outcome node to the resolver, with a copy and this ply's seeded RNG."""
        return self.resolver.begin(self.state.clone(), self._rng("outcome"))

    def _poll_outcome(self) -> bool:
        """Start or finish resolving the outcome node; True when its result was applied."""
        if self._outcome is not None and self._outcome_version != self.version:
            self._outcome.cancel()      # the position changed (load) while it resolved
            self._outcome = None
        if self.stuck is not None:
            return False
        if self._outcome is None:
            self._outcome_version = self.version
            self._outcome = self._begin_outcome()
        if not self._outcome.done():
            return False
        pending, self._outcome = self._outcome, None
        try:
            result = pending.result()
        except Exception as error:  # the resolver failed (its process died): say so, try again
            self._failed("the result of the move could not be worked out", error)
            return False
        self._record(OUTCOME, result)
        return True

    def play_computer_moves(self, limit: int | None = None) -> int:
        """Blocking: play chance and computer moves until a person must act, the game ends, or
        `limit` moves are made. For self-play, tests and the command line. Returns the count."""
        made = 0
        while limit is None or made < limit:
            p = self.state.current_player()
            if p == CHANCE:
                self._resolve_chance()
            elif p == OUTCOME:
                pending = self._outcome or self._begin_outcome()
                self._outcome = None
                self._record(OUTCOME, pending.result())   # waits for the work, not the animation
            elif p >= 0 and self.seats[p].is_computer:
                agent = self.agents[p]
                assert agent is not None
                started = time.perf_counter()
                action = agent.choose(self.state.redacted(p), self._rng("agent"))
                self.think_seconds[p].append(time.perf_counter() - started)
                self._record(p, action)
            else:
                return made
            made += 1
        return made

    def wait_for_computer(self, timeout: float = 30.0) -> None:
        """Block until a pending computer search finishes (tests); then poll() applies it."""
        if self._pending is not None:      # a search that failed says so at the next poll()
            futures_wait([self._pending], timeout=timeout)

    # --- undo ------------------------------------------------------------------------------------
    def undo_target(self, seat: int | None = None) -> int | None:
        """Index in history of the move an undo would take back, or None if none may be.
        `seat`: only a move of that seat may be taken back (a person at a shared machine).
        Nothing while an outcome is being resolved: a view may already be showing it (a tower
        falling), and a move whose result has been seen cannot be taken back; but a move whose
        result could not be worked out (`stuck`) can. Nothing while the game is paused, nor in
        a game played across machines (`played_elsewhere`)."""
        if self.paused is not None or (self.state.current_player() == OUTCOME and self.stuck is None):
            return None
        if self.played_elsewhere:        # across machines no move is taken back
            return None
        for index in range(len(self.history) - 1, -1, -1):
            entry = self.history[index]
            if entry.reveal or entry.player < 0:
                return None
            if not self.seats[entry.player].is_computer:
                return index if seat is None or entry.player == seat else None
        return None

    def can_undo(self, seat: int | None = None) -> bool:
        return self.undo_target(seat) is not None

    def undo(self, seat: int | None = None) -> bool:
        """Take back the last person's move and the computer moves after it. False if refused."""
        index = self.undo_target(seat)
        if index is None:
            return False
        self.state = self._before[index]
        del self._before[index:]
        del self.history[index:]
        self._pending = None          # a search under way is for a position that is gone
        if self._outcome is not None:
            self._outcome.cancel()
            self._outcome = None
        self._changed()
        return True

    # --- saving ----------------------------------------------------------------------------------
    def to_save_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game_name,
            "game_id": self.game_id,
            "settings": self.settings,
            "seed": self.seed,
            "seats": [asdict(s) for s in self.seats],
            "history": [{"player": h.player, "action": h.action} for h in self.history],
            "state": self.state.to_dict(),
            "over": self.state.is_terminal(),
            "summary": self.state.summary(),
            "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
            **self._referee_fields(),
        }

    def _referee_fields(self) -> dict[str, Any]:
        """Who judged the results (referees.py): "judged_by", each outcome's referee as runs,
        and "referee", this version's stamp, where it judged every result (an earlier version
        reads only that, and takes a game judged partly by another as saved)."""
        stamp = self._referee_stamp()
        if stamp is None:
            return {}
        stamps = self._outcome_stamps()
        return {**({"referee": stamp} if all(s == stamp for s in stamps) else {}),
                "judged_by": referees.as_runs(stamps)}

    def save(self, path: str | Path) -> Path:
        """Write the game to `path` atomically (a crash never leaves half a file)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_save_dict(), indent=1)
        fd, tmp = tempfile.mkstemp(prefix=".save-", suffix=".json", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())     # on disk before it takes the old file's place
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    def autosave(self) -> None:
        """Write the autosave now; a failure is kept in autosave_error, never raised."""
        if self.autosave_path is None:
            return
        try:
            self.save(self.autosave_path)
            self.autosave_error = None
        except OSError as error:
            self.autosave_error = (f"the game is not being saved: cannot write to "
                                   f"{printable(str(self.autosave_path.parent), 120)} "
                                   f"({error.strerror or error})")

    @classmethod
    def load(cls, path: str | Path, autosave_path: str | Path | None = None,
             computer_delay: float = 0.0, executor: Executor | None = None,
             verify: bool = True, check_later: bool = False) -> TurnController:
        """Read a save file; raises SaveError with one line naming the file and the problem.
        `verify`: also have the game's referee check the recorded outcomes (Game.verify_save);
        `check_later`: not now, but leave them in `results_to_check` with the game paused until
        someone checks them (the window, in the background: core/save_check.py)."""
        where = printable(str(path), 200)
        data = read_json_file(path, MAX_SAVE_BYTES, "save file", SaveError)
        try:
            return cls.from_save_dict(data, autosave_path=autosave_path, computer_delay=computer_delay,
                                      executor=executor, verify=verify, check_later=check_later)
        except SaveError as error:
            raise SaveError(f"{where}: {error}") from None

    @classmethod
    def from_save_dict(cls, data: Any, autosave_path: str | Path | None = None,
                       computer_delay: float = 0.0, executor: Executor | None = None,
                       verify: bool = True, resolver: OutcomeResolver | None = None,
                       check_later: bool = False) -> TurnController:
        """A save read back (see load); `resolver`: the outcomes of the game played on after it
        (the moves replayed take theirs as recorded), by default the game's own."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("not a bandu-sim save file")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"save version {shown(data.get('version'), 30)} is not supported "
                            f"(this program reads {SAVE_VERSION})")
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise SaveError("'seed' must be a whole number from 0 to 2^63 - 1")
        settings = data.get("settings", {})
        if not isinstance(settings, dict):
            raise SaveError("'settings' must be an object")
        for name, value in settings.items():
            if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
                raise SaveError(f"setting {shown(name)}: {shown(value)} is out of range")
            if not isinstance(value, str | int | float | bool):
                raise SaveError(f"setting {shown(name)}: {shown(value)} is not a value")
        seats_data = data.get("seats")
        if not isinstance(seats_data, list):
            raise SaveError("'seats' must be a list")
        seats = []
        for n, seat in enumerate(seats_data):
            if not isinstance(seat, dict) or seat.get("kind") not in (PERSON, COMPUTER):
                raise SaveError(f"seat {n + 1}: kind must be 'person' or 'computer'")
            agent = seat.get("agent")
            if agent is not None and not isinstance(agent, str):
                raise SaveError(f"seat {n + 1}: agent must be text")
            name = seat.get("name", "")
            seats.append(Seat(seat["kind"], agent, printable(name if isinstance(name, str) else "")))
        game = data.get("game")
        if not isinstance(game, str):
            raise SaveError("'game' must be a game's name")
        notices: list[str] = []
        try:
            known = registry.get_game(game).info.setting_names()
            gone = sorted(name for name in settings if name not in known)
            if gone:     # an earlier version's setting, since renamed or removed: the moves decide
                settings = {name: value for name, value in settings.items() if name in known}
                notices.append(f"settings this version no longer has were left out: "
                               f"{', '.join(shown(name) for name in gone)}")
            controller = cls(game, settings, seats, seed, computer_delay=computer_delay,
                             executor=executor, resolver=resolver)
        except SettingsError as error:
            raise SaveError(str(error)) from None
        history = data.get("history")
        if not isinstance(history, list):
            raise SaveError("'history' must be a list")
        if len(history) > MAX_HISTORY:
            raise SaveError(f"{len(history)} moves; a save holds at most {MAX_HISTORY}")
        for n, entry in enumerate(history):
            if not isinstance(entry, dict) or not isinstance(entry.get("action"), str) \
                    or not isinstance(entry.get("player"), int) or isinstance(entry.get("player"), bool):
                raise SaveError(f"move {n + 1}: needs 'player' and 'action'")
            expected = controller.state.current_player()
            if entry["player"] != expected:
                raise SaveError(f"move {n + 1}: made by seat {shown(entry['player'])}, but seat "
                                f"{expected} was to move")
            try:
                action = controller.state.action_from_str(entry["action"])
                controller._record(expected, action)
            except REPLAY_ERRORS as error:
                raise SaveError(f"move {n + 1} ({printable(entry['action'], 40)}): "
                                f"{printable(str(error), 120) or type(error).__name__}") from None
        saved_state = data.get("state")
        try:
            differs = saved_state is not None and \
                _unworded(saved_state, controller.state) != _unworded(controller.state.to_dict(), controller.state)
        except RecursionError:
            differs = True
        if differs:
            raise SaveError("the moves do not lead to the saved position (file edited or damaged)")
        over = data.get("over")      # what the saved-games list says of it, with or without a state
        if isinstance(over, bool) and over != controller.state.is_terminal():
            raise SaveError(f"it says the game is {'over' if over else 'not over'}, but its moves "
                            f"lead to a game {'not over' if over else 'over'} (file edited or damaged)")
        checked = controller._take_judges(data, notices, verify)
        if verify and checked and controller.game.verify_save is not None:
            to_check = ResultsToCheck(controller.game_name, [(h.player, h.action) for h in controller.history],
                                      dict(settings), len(seats), checked)
            if check_later:
                controller.results_to_check = to_check
                controller.pause("checking the saved results with the game's referee")
            elif problems := to_check.run():
                raise SaveError(refusal_of(problems))
        controller.game_id = game_id_of(data)
        controller.autosave_path = Path(autosave_path) if autosave_path else None
        if notices:
            text = "; ".join(notices)
            controller.load_notice = f"{text[0].upper()}{text[1:]}."
        return controller

    def _take_judges(self, data: dict[str, Any], notices: list[str], verify: bool) -> frozenset[int]:
        """Give the loaded history's outcomes the referees the save says judged them; returns
        the moves (history indices) this version's referee judged, which a load that is to
        `verify` checks. The others' results stand as saved (another referee finds other
        results for the same moves), and `notices` says how many."""
        if self.game.referee_stamp is None:
            return frozenset()
        outcomes = [n for n, entry in enumerate(self.history) if entry.player == OUTCOME]
        stamps = referees.stamps_of(data, len(outcomes))
        for index, stamp in zip(outcomes, stamps, strict=True):
            self.history[index] = replace(self.history[index], referee=stamp)
        if not verify:                 # the results are applied as saved (a replay, the records)
            return frozenset()
        current = self.game.referee_stamp()
        others = sum(stamp != current for stamp in stamps)
        if others:
            whose = "its results were" if others == len(stamps) else \
                f"{others} of its {len(stamps)} results were"
            notices.append(f"{whose} judged by another version of the game's referee and are "
                           f"taken as saved")
        return frozenset(n for n, stamp in zip(outcomes, stamps, strict=True) if stamp == current)

    def close(self) -> None:
        """Forget any search under way; shut down the worker thread if it is the controller's own."""
        if self._pending is not None:
            self._pending.cancel()
        self._close_resolver()
        if self._executor is not None and self._owns_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self._pending = None


def _unworded(position: Any, state: GameState[Any]) -> Any:
    """A saved position as this version compares it: without the keys the game words anew in
    each version (an older version's "Player 1 places tunnel (A-top)." is the same position as
    today's words), and with the keys a later version added filled in where an older save has
    none (a first-player setting added later: the seat an older save began with)."""
    if not isinstance(position, dict) or not (state.worded_keys or state.added_keys):
        return position
    compared = {**state.added_keys, **position}
    return {key: value for key, value in compared.items() if key not in state.worded_keys}
