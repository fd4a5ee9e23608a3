"""The search for a piece's placement: which trials it asks for and what it finds, worked out
again from the answers so far, so that its trials can run side by side (trial_streams.py).

Candidates are tried in order. Each is released `trials` times; one that stood in all of them
is released again, up to `confirm` releases in all or its first fall, so that the rate it is
taken at was not one lucky release; on a lab that holds the tower's lower pieces still, then
up to `verify` times more over the whole tower moving, up to its first fall. The candidate that
stood most often wins (ties: the one that moved the tower least); a candidate may also score
for the room it leaves the next piece (ROOM_WEIGHT). The search stops at a candidate that
stood every time and barely moved the tower (and left full room, where room counts), or when
its budget of trials is spent; a candidate once started is always finished.

Because the search is a function of the answers so far, the trials it will ask for next can be
guessed by supposing that every trial still to come stands: a round runs that many trials at
once, and the answers after the first guess that proves wrong are not used.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from simulator.games.bandu.rules import Place
from simulator.games.bandu.tower_lab import ROOM_FULL_MM2, Trial
from simulator.games.bandu.trial_streams import STREAMS, Release, SeatLabs
from simulator.towers.physics.tremor import Tremor

ROOM_WEIGHT = 0.2               # what room for the next piece is worth against a stand rate of 1
# (less than one trial of two: room never buys a placement that falls more often)
STILL_MM = 0.5                  # a candidate that moved the tower less than this barely moved it
HOPEFUL = Trial(True, math.inf, ROOM_FULL_MM2)  # the guess for a trial not yet run: it stands
# (and moves the tower too far to end the search, so that a round goes on to the next candidate)


class Found(NamedTuple):
    place: Place
    rate: float                 # the share of its trials it stood in
    room_mm2: float             # the room it left on average when it stood (0 when not asked for)


class PlacementSearch:
    """`places` in order, each tried as the module says; the tremor draws of candidate c's n-th
    trial are (draw, c, n), wherever it runs."""

    def __init__(self, places: list[Place], trials: int, hand: Tremor, budget: int, draw: int,
                 confirm: int = 0, verify: int = 0, room: bool = False) -> None:
        self.places, self.trials, self.hand, self.budget, self.draw = places, trials, hand, budget, draw
        self.confirm, self.verify, self.room = confirm, verify, room

    def _wants_whole(self, answers: list[Trial]) -> bool | None:
        """What a candidate with these answers asks next: a release with its top moving
        (False), one over the whole tower (True), or none (None: it is done)."""
        n = len(answers)
        if n < self.trials:
            return False
        if not all(a.stood for a in answers):
            return None
        if n < self.confirm:
            return False
        if self.confirm and n < max(self.trials, self.confirm) + self.verify:
            return True
        return None

    def _walk(self, answers: list[Trial]) -> tuple[Release | None, Found | None, int]:
        """The search over `answers`: the next trial it asks for (None when it is done), the
        best candidate found, and the budget left."""
        used, budget = 0, self.budget
        best: tuple[float, float, Found] | None = None
        for c, place in enumerate(self.places):
            mine: list[Trial] = []
            while (whole := self._wants_whole(mine)) is not None:
                if used == len(answers):
                    return Release(whole, place, self.hand, self.room, (self.draw, c, len(mine))), None, budget
                mine.append(answers[used])
                used += 1
            budget -= len(mine)
            rate = sum(a.stood for a in mine) / len(mine)
            moved = sum(a.moved_mm for a in mine) / len(mine)
            stood = [a.room_mm2 for a in mine if a.stood]
            left = sum(stood) / len(stood) if self.room and stood else 0.0
            room = min(1.0, left / ROOM_FULL_MM2)
            score = rate + ROOM_WEIGHT * room
            if best is None or (score, -moved) > (best[0], -best[1]):
                best = (score, moved, Found(place, rate, left))
            if (rate == 1.0 and moved < STILL_MM and (room == 1.0 or not self.room)) or budget <= 0:
                break                       # as good as it gets, or the budget is spent
        return None, None if best is None else best[2], budget

    def next_trials(self, answers: list[Trial], count: int) -> list[Release]:
        """The next `count` trials (fewer when the search ends sooner), supposing that every
        trial not yet answered stands (HOPEFUL): the first is sure, the others a guess."""
        guessed, releases = list(answers), list[Release]()
        while len(releases) < count:
            release = self._walk(guessed)[0]
            if release is None:
                break
            releases.append(release)
            guessed.append(HOPEFUL)
        return releases

    def outcome(self, answers: list[Trial]) -> tuple[Found, int]:
        """What the search found over `answers` (all it asked for), and the budget left."""
        release, found, budget = self._walk(answers)
        assert release is None and found is not None
        return found, budget

    def run(self, labs: SeatLabs) -> tuple[Found, int]:
        """Run the search on `labs`, STREAMS trials a round: what it found, and the budget left."""
        answers: list[Trial] = []
        while round_ := self.next_trials(answers, STREAMS):
            for release, answer in zip(round_, labs.run(round_), strict=True):
                if self.next_trials(answers, 1) != [release]:
                    break           # a guess that proved wrong: the rest of the round is not used
                answers.append(answer)
        return self.outcome(answers)
