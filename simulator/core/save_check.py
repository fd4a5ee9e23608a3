"""The check of a loaded save's results by the game's referee (Game.verify_save), now or in the
background.

A save records every outcome it holds (a physics result: which towers fell, how each piece lies);
a load has the game's referee work those out again and refuses a save whose results differ
(TurnController.from_save_dict). Each result worked out again costs what the game's physics
cost (docs/MEASUREMENTS.md), so a long game's check takes seconds: the window opens the game at
once, paused, and checks its
results here, in helper processes, while it draws (`BackgroundCheck`): "checking move k of n",
then play starts, or the game closes with the reason and the file stays as it was.

Every result is worked out from a world built from the state before it (the referee's own
promise), so the results can be checked in any order and split between processes: each of
`workers` processes checks every `workers`-th one, and the verdicts are those of one process
checking them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simulator.core.piped_process import start_piped_process
from simulator.core.text import printable

MAX_SHOWN_PROBLEMS = 1


@dataclass(frozen=True)
class ResultsToCheck:
    """What a check needs: the game, its moves as (player, notation), settings, seats, and the
    history indices of the results this version's referee judged (those are checked)."""

    game: str
    history: list[tuple[int, str]]
    settings: dict[str, Any]
    players: int
    checked: frozenset[int]

    def run(self, progress: Callable[[int, int], object] | None = None) -> list[str]:
        """Check here and now: the problems, one line each (none: every result as saved)."""
        from simulator.core import registry

        verify = registry.get_game(self.game).verify_save
        if verify is None or not self.checked:
            return []
        return verify(self.history, dict(self.settings), self.players, self.checked,
                      progress=progress)

    def split(self, parts: int) -> list[ResultsToCheck]:
        """The same check as `parts` checks of every parts-th result each (none left empty)."""
        order = sorted(self.checked)
        shares = [frozenset(order[part::parts]) for part in range(parts)]
        return [ResultsToCheck(self.game, self.history, self.settings, self.players, share)
                for share in shares if share]


def refusal_of(problems: list[str]) -> str:
    """A refused save's reason, in one line: the first problem, and how many more."""
    more = len(problems) - MAX_SHOWN_PROBLEMS
    return (f"the saved results are not what the game's referee finds: {printable(problems[0], 200)}"
            + (f" (and {more} more)" if more > 0 else ""))


def check_worker(connection: Any, to_check: ResultsToCheck) -> None:
    """A helper process's life (core/piped_process.py): check, telling each result checked
    ("checked", n), then ("done", problems), or ("failed", reason) on a fault of ours."""
    try:
        problems = to_check.run(lambda done, total: connection.send(("checked", done)))
        connection.send(("done", problems))
    except (BrokenPipeError, EOFError):          # the window went away: nobody to tell
        return
    except Exception as error:                   # a fault of the check itself, said as such
        try:
            connection.send(("failed", f"{type(error).__name__}: {printable(str(error), 160)}"))
        except (BrokenPipeError, EOFError, OSError):
            return


@dataclass
class BackgroundCheck:
    """A save's results checked in `workers` helper processes; `poll()` from the window's clock
    reads what they said, without waiting. `done` once every part has answered; then
    `problems` (empty: the save stands) or `failure` (the check itself broke)."""

    to_check: ResultsToCheck
    workers: int = 1
    total: int = 0
    checked: int = 0
    problems: list[str] = field(default_factory=list)
    failure: str | None = None
    _parts: list[list[Any]] = field(default_factory=list)    # [connection, process, done, count]

    def __post_init__(self) -> None:
        self.total = len(self.to_check.checked)
        for part in self.to_check.split(max(1, self.workers)):
            connection, process = start_piped_process(check_worker, (part,), "save-check")
            self._parts.append([connection, process, False, 0])

    @property
    def done(self) -> bool:
        return self.failure is not None or all(part[2] for part in self._parts)

    def progress_text(self) -> str:
        return f"checking the saved results: {self.checked} of {self.total} worked out again"

    def poll(self) -> bool:
        """Read what the helpers said; True once the check is over."""
        for part in self._parts:
            connection, process, finished, _ = part
            if finished:
                continue
            try:
                while connection.poll():
                    kind, value = connection.recv()
                    if kind == "checked":
                        part[3] = value
                    elif kind == "done":
                        self.problems += value
                        part[2] = True
                    else:
                        self.failure = value
                        part[2] = True
            except (EOFError, OSError):
                if not part[2]:
                    self.failure = f"the check's process ended early (exit code {process.exitcode})"
                    part[2] = True
        self.checked = sum(part[3] for part in self._parts)
        if self.done:
            self.problems.sort(key=_move_number)     # the first in the game first, as one check
            self.close()
        return self.done

    def close(self) -> None:
        """Let every helper go, never waiting for one (the window draws on): one that answered
        ends by itself, one still at work (a check abandoned: the window closed) is terminated."""
        for part in self._parts:
            connection, process, finished, _ = part
            if connection is None:
                continue
            connection.close()
            if not finished:
                process.terminate()
            part[0] = None


def _move_number(problem: str) -> int:
    """A problem's move number ("move 12: ..."), for the order of the game."""
    head = problem.split(":", 1)[0].removeprefix("move ")
    return int(head) if head.isdigit() else 0
