"""A stability study: planned from scenes, run as independent jobs, aggregated.

Every tower of every scene is studied on its own: its orderings (orderings.py; a tower given
as explicit placements keeps its own order), each built `trials` times, trial t with the
tremor seeded by (seed + t, tower). The verdict of an ordering is the share of its trials that
stood, with a 95 % Wilson interval; per piece, the stand rate by its position in the order and
how often placing it brought the tower down. Results are sorted by job before aggregating, so
the figures do not depend on the backend, the number of workers or the order jobs finished in.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from simulator.core.errors import InvalidArgument
from simulator.core.text import shown
from simulator.progress import Progress
from simulator.towers.physics.scene_file import Scene
from simulator.towers.physics.tremor import Tremor
from simulator.towers.studies.jobs import Job, JobResult, Ordering, reordered
from simulator.towers.studies.limits import DEFAULT_TRIALS, MAX_JOBS, MAX_TRIALS
from simulator.towers.studies.local import run_jobs
from simulator.towers.studies.orderings import GIVEN, OrderingSpec, orderings_for
from simulator.towers.studies.wilson import wilson_interval

DEFAULT_TREMOR = Tremor(1.0, 1.0)  # a study's noise when neither the scene nor an option sets one


@dataclass(frozen=True)
class TowerStudy:
    """One tower of one scene and the orderings judged for it."""
    scene: int
    tower: int
    scene_name: str
    path: str
    foundation: str
    pieces: Ordering                 # as the scene gives them
    reorderable: bool                # built by the default policy (`order`), so orders can change
    orderings: tuple[Ordering, ...]
    tremor: Tremor
    seed: int
    trials: int


@dataclass(frozen=True)
class StudyPlan:
    spec: OrderingSpec
    trials: int
    towers: tuple[TowerStudy, ...]
    jobs: tuple[Job, ...]


def plan_study(scenes: Sequence[Scene], tremors: Sequence[Tremor], spec: OrderingSpec = GIVEN,
               trials: int = DEFAULT_TRIALS, seed: int | None = None) -> StudyPlan:
    """Every job of the study, checked against the limits before anything runs. `tremors`:
    one per scene; `seed` overrides the scenes' own."""
    if not 1 <= trials <= MAX_TRIALS:
        raise InvalidArgument("trials", f"trials must be 1 to {MAX_TRIALS}, not {shown(trials)}")
    towers: list[TowerStudy] = []
    total = 0
    for s, (scene, tremor) in enumerate(zip(scenes, tremors, strict=True)):
        scene_seed = scene.seed if seed is None else seed
        for t, tower in enumerate(scene.towers):
            pieces = tuple(p.piece for p in tower.placements)
            reorderable = all(p.position_mm is None for p in tower.placements)
            where = f"{scene.path}: towers[{t}]"
            orderings = tuple(orderings_for(spec if reorderable else GIVEN, pieces, scene_seed, t,
                                            where))
            total += len(orderings) * trials
            if total > MAX_JOBS:
                raise InvalidArgument("trials", f"the study would build more than {MAX_JOBS} "
                                                f"towers (orderings x trials); ask for fewer")
            towers.append(TowerStudy(s, t, scene.name, scene.path, tower.foundation, pieces,
                                     reorderable, orderings, tremor, scene_seed, trials))
    jobs = tuple(_jobs(scenes[study.scene], study) for study in towers)
    return StudyPlan(spec, trials, tuple(towers), tuple(job for group in jobs for job in group))


def _jobs(scene: Scene, study: TowerStudy) -> list[Job]:
    spec = scene.towers[study.tower]
    return [Job(study.scene, study.tower, o, trial,
                reordered(spec, order) if study.reorderable else spec,
                scene.settle_seconds, scene.hold_seconds, scene.slope_deg, study.tremor,
                study.seed + trial)
            for o, order in enumerate(study.orderings) for trial in range(study.trials)]


@dataclass
class OrderingStats:
    index: int
    order: Ordering
    trials: int = 0
    stood: int = 0
    height_sum_mm: float = 0.0
    fell_at: Counter[int] = field(default_factory=Counter)

    @property
    def p_stand(self) -> float | None:
        return self.stood / self.trials if self.trials else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.stood, self.trials) if self.trials else None

    @property
    def mean_height_mm(self) -> float | None:
        return self.height_sum_mm / self.trials if self.trials else None

    def as_dict(self) -> dict:
        interval = self.interval
        return {"ordering": self.index, "order": list(self.order), "trials": self.trials,
                "stood": self.stood, "p_stand": _rounded(self.p_stand),
                "interval_95": None if interval is None else [round(v, 4) for v in interval],
                "mean_height_mm": _rounded(self.mean_height_mm, 2),
                "fell_at": {str(k): v for k, v in sorted(self.fell_at.items())}}


@dataclass
class PieceStats:
    """One piece of a tower: builds and stands by its position in the order (0: first on the
    foundation), and how often the tower fell just after it was placed."""
    piece: str
    trials: list[int]
    stood: list[int]
    brought_down: int = 0

    def as_dict(self) -> dict:
        return {"id": self.piece, "brought_down": self.brought_down,
                "positions": [{"position": i, "trials": n, "stood": k,
                               "rate": _rounded(k / n if n else None)}
                              for i, (n, k) in enumerate(zip(self.trials, self.stood, strict=True))]}


@dataclass
class TowerResult:
    study: TowerStudy
    results: list[JobResult]          # finished jobs, sorted
    orderings: list[OrderingStats]    # sorted: most likely to stand first; unjudged last
    pieces: list[PieceStats]

    @property
    def stood(self) -> int:
        return sum(r.stood for r in self.results)

    def as_dict(self) -> dict:
        s = self.study
        judged = [o for o in self.orderings if o.trials]
        overall = wilson_interval(self.stood, len(self.results)) if self.results else None
        return {"scene": s.scene_name, "path": s.path, "tower": s.tower,
                "foundation": s.foundation, "pieces": list(s.pieces),
                "reorderable": s.reorderable,
                "tremor": {"position_mm": s.tremor.position_mm, "angle_deg": s.tremor.angle_deg},
                "seed": s.seed, "trials": s.trials, "orderings_planned": len(s.orderings),
                "orderings_judged": len(judged), "builds": len(self.results),
                "stood": self.stood,
                "p_stand": _rounded(self.stood / len(self.results) if self.results else None),
                "interval_95": None if overall is None else [round(v, 4) for v in overall],
                "orderings": [o.as_dict() for o in self.orderings],
                "piece_positions": [p.as_dict() for p in self.pieces]}


@dataclass
class StudyResult:
    plan: StudyPlan
    towers: list[TowerResult]
    interrupted: bool
    wall_seconds: float
    workers: int                # jobs run at once
    backend: str = "local"      # or "ray"

    def where(self) -> str:
        """Where the jobs ran, in words: "2 workers", "8 workers on Ray"."""
        plural = "s" if self.workers != 1 else ""
        return f"{self.workers} worker{plural}" + (" on Ray" if self.backend == "ray" else "")

    @property
    def finished(self) -> int:
        return sum(len(t.results) for t in self.towers)

    @property
    def results(self) -> list[JobResult]:
        return [r for t in self.towers for r in t.results]

    def orderings_per_minute(self) -> float:
        """Orderings with every trial judged, per minute of wall time."""
        complete = sum(o.trials == t.study.trials for t in self.towers for o in t.orderings)
        return complete * 60.0 / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def as_dict(self) -> dict:
        return {"study": {"orderings": str(self.plan.spec), "trials": self.plan.trials,
                          "workers": self.workers, "backend": self.backend, "jobs": len(self.plan.jobs),
                          "finished": self.finished, "interrupted": self.interrupted,
                          "wall_seconds": round(self.wall_seconds, 3)},
                "towers": [t.as_dict() for t in self.towers]}


def _rounded(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def aggregate(plan: StudyPlan, results: Sequence[JobResult], interrupted: bool = False,
              wall_seconds: float = 0.0, workers: int = 1, backend: str = "local") -> StudyResult:
    by_tower: dict[tuple[int, int], list[JobResult]] = {}
    for result in sorted(results, key=lambda r: r.key):
        by_tower.setdefault(result.key[:2], []).append(result)
    towers = []
    for study in plan.towers:
        mine = by_tower.get((study.scene, study.tower), [])
        towers.append(TowerResult(study, mine, _ordering_stats(study, mine),
                                  _piece_stats(study, mine)))
    return StudyResult(plan, towers, interrupted, wall_seconds, workers, backend)


def _ordering_stats(study: TowerStudy, results: list[JobResult]) -> list[OrderingStats]:
    stats = [OrderingStats(i, order) for i, order in enumerate(study.orderings)]
    for result in results:
        entry = stats[result.key[2]]
        entry.trials += 1
        entry.stood += result.stood
        entry.height_sum_mm += result.height_mm
        if result.fell_at is not None:
            entry.fell_at[result.fell_at] += 1

    def rank(o: OrderingStats) -> tuple:
        interval = o.interval
        return (o.trials == 0, -(o.p_stand or 0.0), -(interval[0] if interval else 0.0), o.index)
    return sorted(stats, key=rank)


def _piece_stats(study: TowerStudy, results: list[JobResult]) -> list[PieceStats]:
    size = len(study.pieces)
    stats = {p: PieceStats(p, [0] * size, [0] * size) for p in dict.fromkeys(study.pieces)}
    for result in results:
        for position, piece in enumerate(result.order):
            stats[piece].trials[position] += 1
            stats[piece].stood[position] += result.stood
        if result.fell_at is not None and 0 <= result.fell_at < len(result.order):
            stats[result.order[result.fell_at]].brought_down += 1   # (-1: the foundation alone fell)
    return list(stats.values())


def run_study(plan: StudyPlan, workers: int | None = 1, progress: Progress | None = None,
              backend: str = "local", address: str | None = None) -> StudyResult:
    """Run every job of the plan on local processes or on Ray (cluster.py; `workers` None there:
    every CPU of the cluster); Ctrl+C keeps what was finished. The figures do not depend on the
    backend or the number of workers."""
    start = time.perf_counter()
    if backend == "ray":
        from simulator.towers.studies.cluster import run_jobs_on_ray

        finished = run_jobs_on_ray(plan.jobs, workers, progress, address)
    else:
        finished = run_jobs(plan.jobs, workers or 1, progress)
    return aggregate(plan, finished.results, finished.interrupted,
                     time.perf_counter() - start, finished.workers, backend)
