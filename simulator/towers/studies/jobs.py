"""One job of a study: one build of one ordering of a tower, with one seed, and its verdict.

A job carries everything its result depends on (the tower, the scene's physics settings, the
tremor and the seed) and nothing else, so it gives the same result in any process, on any
worker, in any order: every job builds a World of its own (a PyBullet world cannot cross a
process boundary). The tower is built alone on the table, at its scene position; its tremor
draws from (seed, tower index) as `bandu-sim stability` draws it, so trial 0 of a one-tower
scene's own order is exactly what `stability --seed S` reports.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from simulator.towers.physics.scene_file import Placement, TowerSpec
from simulator.towers.physics.stability import (
    PieceIds,
    TowerReport,
    build_tower,
    judge_tower,
    tremor_rng,
)
from simulator.towers.physics.tremor import Tremor
from simulator.towers.physics.world import World

Ordering = tuple[str, ...]


@dataclass(frozen=True)
class Job:
    scene: int              # index of the scene in the study
    tower: int              # index of the tower in its scene
    ordering: int           # index of the ordering in the tower's list
    trial: int
    spec: TowerSpec         # the tower with its placements in this ordering
    settle_seconds: float
    hold_seconds: float
    slope_deg: float
    tremor: Tremor
    seed: int               # the tremor's seed: the study's seed + trial

    @property
    def key(self) -> tuple[int, int, int, int]:
        return self.scene, self.tower, self.ordering, self.trial

    @property
    def order(self) -> Ordering:
        return tuple(p.piece for p in self.spec.placements)


@dataclass(frozen=True)
class JobResult:
    key: tuple[int, int, int, int]   # (scene, tower, ordering, trial)
    seed: int
    order: Ordering
    stood: bool
    fell_at: int | None
    disturbed: bool
    height_mm: float

    def as_dict(self) -> dict:
        scene, tower, ordering, trial = self.key
        return {"scene": scene, "tower": tower, "ordering": ordering, "trial": trial,
                "seed": self.seed, "order": list(self.order), "stood": self.stood,
                "fell_at": self.fell_at, "disturbed": self.disturbed,
                "height_mm": round(self.height_mm, 2)}


def reordered(spec: TowerSpec, order: Ordering) -> TowerSpec:
    """The tower with its pieces placed in `order` by the default placement policy."""
    return TowerSpec(spec.foundation, spec.position_mm, tuple(Placement(p) for p in order))


@contextmanager
def built(job: Job) -> Iterator[tuple[World, TowerReport]]:
    """The job's world with its tower built and judged (for a picture of it), closed after."""
    with World(slope_deg=job.slope_deg) as world:
        tower = build_tower(world, job.spec, job.settle_seconds, PieceIds(), job.tremor,
                            tremor_rng(job.seed, job.tower), job.tower)
        world.step(round(job.hold_seconds / world.settings.time_step))
        yield world, judge_tower(world, tower)


def run_job(job: Job) -> JobResult:
    with built(job) as (_, report):
        return JobResult(job.key, job.seed, job.order, report.stood, report.fell_at,
                         report.disturbed, report.height_mm)
