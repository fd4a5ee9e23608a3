"""The computer's record attempts at the solo and chain games (`bandu-sim solo`), headless.

Attempt n plays seed S + n: a one-player game played to its end by the BanduAgent of one level
through TurnController.play_computer_moves, every placement judged by the game's own physics
referee, exactly as a game in the window is. An attempt is a job that carries everything its
result depends on, so it gives the same game in this process or in any worker process
(simulator/processes.py); the records are written here, in the calling process, as each
attempt finishes, so Ctrl+C keeps every finished attempt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simulator.core.controller import COMPUTER, Seat, TurnController
from simulator.games.bandu.attempts import attempt_of
from simulator.games.bandu.records import Attempt
from simulator.processes import run_jobs

PHYSICS_MODULE = "simulator.games.bandu.ai"   # a worker imports it quietly: PyBullet prints


@dataclass(frozen=True)
class AttemptJob:
    number: int                   # attempt n of the run (0 first)
    player: str                   # "ai:LEVEL"
    seed: int                     # S + n
    settings: dict[str, Any]      # variant, reserve, chain
    chain_name: str | None = None  # the chain's scene file, when its pieces are written out


@dataclass(frozen=True)
class AttemptResult:
    number: int
    seed: int
    attempt: Attempt
    placements: int
    think_seconds: float          # the computer's decisions, all together
    max_think_seconds: float      # its longest decision

    def as_dict(self) -> dict[str, Any]:
        a = self.attempt
        return {"attempt": self.number, "seed": self.seed, "id": a.id, "score": a.score,
                "height_mm": a.height_mm, "fell": a.fell, "placements": self.placements,
                "think_seconds": round(self.think_seconds, 2),
                "max_think_seconds": round(self.max_think_seconds, 2)}

    def same_game(self) -> tuple:
        """What must not depend on the process that played it: the whole game and its result
        (not the clock: when it was played, the think times)."""
        a = self.attempt
        return (self.number, self.seed, a.score, a.height_mm, a.fell, a.chain_key,
                a.replay["history"], a.replay["state"])


def play_attempt(job: AttemptJob) -> AttemptResult:
    """One attempt, to the end, in this process (module-level: a worker process runs it)."""
    controller = TurnController("bandu", job.settings, [Seat(COMPUTER, job.player)], seed=job.seed)
    try:
        controller.play_computer_moves()
        think = controller.think_seconds[0]
        state = controller.state
        return AttemptResult(job.number, job.seed, attempt_of(controller, chain_name=job.chain_name),
                             placements=getattr(state, "placements", 0),
                             think_seconds=sum(think), max_think_seconds=max(think, default=0.0))
    finally:
        controller.close()


def run_attempts(jobs: list[AttemptJob], workers: int,
                 on_result: Callable[[AttemptResult], None]) -> bool:
    """Play every attempt (`workers` processes); `on_result` here as each finishes. True when
    Ctrl+C stopped it: the attempts in progress on workers finish and are handed over."""
    return run_jobs(play_attempt, jobs, workers, on_result, quiet_import=PHYSICS_MODULE)
