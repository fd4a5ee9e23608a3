"""Which referee judged each of a game's results, as a save records it.

A game whose outcomes a referee works out (a physics engine: Game.referee_stamp) can be played
across versions of that referee: a game saved by an earlier version and continued by this one
holds results of both. Each outcome in the history carries the stamp of the referee that judged
it (HistoryEntry.referee); a save keeps them as runs, `"judged_by": [[stamp, count], ...]` over
the outcomes in order, and a load checks each result against its own referee only: this
version's results are replayed and compared, the others are taken as saved. So a game stays
loadable however many versions it is continued under.

A save of an earlier version has no "judged_by": its single "referee" stamp (or none) judged
every result in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simulator.core.errors import SaveError
from simulator.core.text import shown

MAX_STAMP_CHARS = 200      # a stamp is a few dozen characters ("pybullet 3.2.6 0123456789ab")
# an outcome judged in this process: its stamp is this version's (Game.referee_stamp), asked
# for when the game is saved; a file never holds it
JUDGED_HERE = "<judged here>"

Runs = list[list[Any]]     # [[stamp or None, count], ...]


def as_runs(stamps: Sequence[str | None]) -> Runs:
    """The stamps of the outcomes in order, as [stamp, count] runs."""
    runs: Runs = []
    for stamp in stamps:
        if runs and runs[-1][0] == stamp:
            runs[-1][1] += 1
        else:
            runs.append([stamp, 1])
    return runs


def stamps_of(data: dict[str, Any], outcomes: int) -> list[str | None]:
    """The stamp of the referee that judged each of a save's `outcomes` results, in order
    (None: not recorded). Raises SaveError where "judged_by" is malformed or does not cover
    exactly the save's outcomes."""
    runs = data.get("judged_by")
    if runs is None:                        # an earlier version's save: one referee, or none
        stamp = data.get("referee")
        return [stamp if _is_stamp(stamp) else None] * outcomes
    if not isinstance(runs, list) or len(runs) > max(outcomes, 1):
        raise SaveError("'judged_by' must be a list of [referee, count] pairs, one per run of "
                        "results")
    stamps: list[str | None] = []
    for n, run in enumerate(runs, start=1):
        if not (isinstance(run, list) and len(run) == 2 and (run[0] is None or _is_stamp(run[0]))
                and isinstance(run[1], int) and not isinstance(run[1], bool)
                and 1 <= run[1] <= outcomes - len(stamps)):
            raise SaveError(f"'judged_by' pair {n} ({shown(run, 60)}) is not a referee and a count "
                            f"of the results it judged")
        stamps += [run[0]] * run[1]
    if len(stamps) != outcomes:
        raise SaveError(f"'judged_by' covers {len(stamps)} results; the moves hold {outcomes}")
    return stamps


def _is_stamp(value: Any) -> bool:
    return (isinstance(value, str) and 0 < len(value) <= MAX_STAMP_CHARS and value.isprintable()
            and value != JUDGED_HERE)
