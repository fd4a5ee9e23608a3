"""How far the chosen physics settings can be trusted: their verdicts against a reference.

A verdict that changes when the simulation is refined is not a verdict. This module builds a
corpus of towers, judges every one with the chosen settings and with a ladder of refined
settings (more substeps, more solver iterations), and says how often they agree. The
reference is the first rung of the ladder whose verdicts the next rung changes for fewer than
`CONVERGED_SHARE` of the towers: refining it further no longer changes what it says.

The corpus (`corpus()`):
- the validation scenes (scenes/validation, each tower with the verdict it derives);
- the benchmark towers (towers/physics/speed.py);
- straight columns of flat-topped pieces, 20 to 40 high, released exactly on the axis and with
  a 0.2 mm / 0.2 degree hand (three seeds);
- seeded random towers of 4-12 real pieces, each on its most stable face on the axis, with a
  0.5 mm / 0.5 degree hand;
- piece-on-piece slopes: a piece resting on another on a table tilted 1 degree either side of
  the pair's friction angle atan(mu).

A verdict is (stood, fell_at) per tower. A random tower is also built with its hand's draws
scaled by `HAND_VARIANTS` (0.98 and 1.02 move a release by about 0.01 mm, fifty times less
than the hand): where those give other verdicts, the tower's verdict is decided by chance at a
margin (a piece left on an edge, a chaotic collapse), and no refinement of the simulation can
make it converge, because the real tower is as undecided. Two settings then agree *within
chance* on a tower when one's verdict is among the other's outcomes (the verdict and its
variants'); elsewhere they must give the same verdict. `python -m benchmarks fidelity` runs it all
and prints both agreements and the wall time of each setting, in one run (docs/PHYSICS.md,
"Fidelity").
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.processes import run_jobs
from simulator.progress import Progress
from simulator.towers.physics.bench_towers import BENCH_TOWERS
from simulator.towers.physics.scene_file import Placement, Scene, TowerSpec, load_scene
from simulator.towers.physics.tremor import NO_TREMOR, Tremor
from simulator.towers.pieces.catalogue import CATALOGUE

if TYPE_CHECKING:
    from simulator.towers.physics.world import PhysicsSettings

CONVERGED_SHARE = 0.005       # a rung is converged when the next changes fewer verdicts
GOAL_AGREEMENT = 0.99
# the random towers' hand, its draws scaled: releases 1-2 % of the hand (0.005-0.02 mm) apart
HAND_VARIANTS = (0.96, 0.98, 1.02, 1.04)

# flat bottom and flat top, on their most stable face: every interface of a centred column is
# a flat face at least 15 mm wide under a centred load, so every such column stands (a pole on
# its side is not one: it is round, and an ashlar on it balances on a line)
FLAT_TOPPED = ("ashlar-large", "base", "cube-large", "slab-square", "cylinder-wide", "base",
               "ashlar-medium", "disc", "base", "plank-long", "cross-flat", "base", "cube-small",
               "plank-short", "washer", "ashlar-small", "prism-hexagon", "cylinder-tall",
               "cube-small")
COLUMN_HEIGHTS = (20, 25, 30, 35, 40)
COLUMN_HAND = Tremor(0.2, 0.2)
RANDOM_HAND = Tremor(0.5, 0.5)
RANDOM_TOWERS = 300
# (upper piece, lower piece): lacquer on beech, lacquer on lacquer, lacquer on beech (a tall
# piece); beech on beech cannot be told from the lower piece sliding on the (beech) table
SLOPE_PAIRS = (("cone-small", "base"), ("cone-small", "spool"), ("spool", "base"))
SLOPE_MARGIN_DEG = 1.0

Verdict = tuple[bool, int | None]          # stood, fell_at (None: stood)


@dataclass(frozen=True)
class Case:
    name: str
    group: str        # validation, benchmark, column, random, slope
    scene: Scene

    @property
    def towers(self) -> int:
        return len(self.scene.towers)

    def variants(self) -> tuple[Scene, ...]:
        """The scene again with its hand's draws scaled by HAND_VARIANTS (random towers only:
        the other groups' verdicts are known or exact)."""
        if self.group != "random":
            return ()
        hand = self.scene.tremor
        return tuple(replace(self.scene, tremor=Tremor(hand.position_mm * f, hand.angle_deg * f))
                     for f in HAND_VARIANTS)


def _order_scene(name: str, foundation: str, pieces: Sequence[str], tremor: Tremor = NO_TREMOR,
                 seed: int = 0, slope_deg: float = 0.0) -> Scene:
    placements = tuple(Placement(piece) for piece in pieces)
    return Scene(name, "", (TowerSpec(foundation, (0.0, 0.0), placements),), allow_duplicates=True,
                 tremor=tremor, seed=seed, slope_deg=slope_deg)


def column_pieces(height: int) -> tuple[str, ...]:
    """The pieces placed on a base foundation for a column `height` pieces high."""
    repeated = FLAT_TOPPED * (height // len(FLAT_TOPPED) + 1)
    return repeated[:height - 1]


def random_tower(seed: int, pieces: Sequence[str] | None = None) -> tuple[str, ...]:
    """4-12 real pieces (distinct, from the 49 kinds but the base) in a seeded order."""
    rng = random.Random(f"fidelity tower {seed}")
    kinds = list(pieces or [spec.id for spec in CATALOGUE if spec.id != "base"])
    return tuple(rng.sample(kinds, rng.randint(4, 12)))


def friction_angle_deg(upper: str, lower: str) -> float:
    """atan(mu) for the pair: each material's coefficient is against beech, and a pair's is
    the geometric mean (docs/PHYSICS.md: Bullet multiplies the square roots)."""
    materials = {spec.id: spec.material for spec in CATALOGUE}
    mu = math.sqrt(materials[upper].friction * materials[lower].friction)
    return math.degrees(math.atan(mu))


def corpus(random_towers: int = RANDOM_TOWERS, validation_dir: Path | None = None,
           columns: Sequence[int] = COLUMN_HEIGHTS, column_seeds: int = 3) -> list[Case]:
    cases: list[Case] = []
    folder = validation_dir or Path(__file__).resolve().parents[3] / "scenes" / "validation"
    for path in sorted(folder.glob("*.toml")):
        cases.append(Case(path.stem, "validation", load_scene(path)))
    for name, (foundation, pieces) in BENCH_TOWERS.items():
        cases.append(Case(name, "benchmark", _order_scene(name, foundation, pieces)))
    for height in columns:
        pieces = column_pieces(height)
        cases.append(Case(f"column_{height}_exact", "column", _order_scene("", "base", pieces)))
        for seed in range(column_seeds):
            cases.append(Case(f"column_{height}_hand_{seed}", "column",
                              _order_scene("", "base", pieces, COLUMN_HAND, seed)))
    for seed in range(random_towers):
        cases.append(Case(f"random_{seed}", "random",
                          _order_scene("", "base", random_tower(seed), RANDOM_HAND, seed)))
    for upper, lower in SLOPE_PAIRS:
        angle = friction_angle_deg(upper, lower)
        for side, slope in (("holds", angle - SLOPE_MARGIN_DEG), ("slides", angle + SLOPE_MARGIN_DEG)):
            cases.append(Case(f"slope_{upper}_on_{lower}_{side}", "slope",
                              _order_scene("", lower, (upper,), slope_deg=round(slope, 2))))
    return cases


@dataclass(frozen=True)
class Rung:
    """One physics setting of the comparison, by its changes to the chosen settings."""
    name: str
    changes: tuple[tuple[str, Any], ...] = ()

    def settings(self) -> PhysicsSettings:
        from simulator.towers.physics.world import PhysicsSettings

        changes: dict[str, Any] = dict(self.changes)
        return replace(PhysicsSettings.chosen(), **changes)


CHOSEN = Rung("chosen")


def refined(factor: int) -> Rung:
    """The chosen settings with every substep count (everywhere, and where a tower is tall)
    multiplied by `factor`: the same engine with its time step divided by `factor`."""
    from simulator.towers.physics.world import PhysicsSettings

    chosen = PhysicsSettings.chosen()
    tall = tuple((height, n * factor) for height, n in chosen.tall_substeps)
    name = f"substeps x{factor} ({chosen.substeps * factor}" + "".join(
        f"; {n} from {height:g} m" for height, n in tall) + ")"
    return Rung(name, (("substeps", chosen.substeps * factor), ("tall_substeps", tall)))


# the time step halved at each rung, where the tower is short and where it is tall: what
# converges a tall stack (docs/PHYSICS.md, "Fidelity"); more solver iterations alone did not.
# The harness judges the first DEFAULT_RUNGS; the last is there for a longer check.
LADDER = tuple(refined(factor) for factor in (2, 4, 8))
DEFAULT_RUNGS = 2
# the rung measured converged (docs/PHYSICS.md, "Fidelity"): `bandu-sim bench` times it too
REFERENCE = LADDER[0]


def _judge_scene(scene: Scene, rung: Rung) -> tuple[list[Verdict], float]:
    from simulator.core.quiet_output import import_quietly

    run_scene = import_quietly("simulator.towers.physics.stability").run_scene   # PyBullet's banner

    started = time.perf_counter()
    report = run_scene(scene, rung.settings())
    verdicts = [(tower.stood, tower.fell_at) for tower in report.towers]
    return verdicts, time.perf_counter() - started


@dataclass
class Judgement:
    rung: Rung
    verdicts: dict[str, list[Verdict]] = field(default_factory=dict)
    wall_seconds: float = 0.0        # summed over the cases (the work, whatever the workers)
    # per case and tower: the verdict and those of the hand's variants (Case.variants)
    outcomes: dict[str, list[frozenset[Verdict]]] = field(default_factory=dict)
    variant_seconds: float = 0.0     # the variants' wall time, apart from the comparison's

    def outcomes_of(self, name: str) -> list[frozenset[Verdict]]:
        return self.outcomes.get(name) or [frozenset([v]) for v in self.verdicts[name]]


def _judge_job(job: tuple[int, Scene, Rung]) -> tuple[int, tuple[list[Verdict], float]]:
    index, scene, rung = job
    return index, _judge_scene(scene, rung)


def judge(cases: Sequence[Case], rung: Rung, workers: int = 1,
          progress: Progress | None = None) -> Judgement:
    """Every case (and its hand's variants) judged with `rung`'s settings, in `workers`
    processes (the program's job runner, processes.run_jobs: a first Ctrl+C lets the scenes in
    progress finish, then stops the judgement)."""
    judgement = Judgement(rung)
    jobs = [(case, scene) for case in cases for scene in (case.scene, *case.variants())]
    results: dict[int, tuple[list[Verdict], float]] = {}

    def finished(result: tuple[int, tuple[list[Verdict], float]]) -> None:
        results[result[0]] = result[1]
        if progress:
            progress(len(results), len(jobs), f"{rung.name}: {jobs[result[0]][0].name}")

    stopped = run_jobs(_judge_job, ((n, scene, rung) for n, (_, scene) in enumerate(jobs)), workers,
                       finished, quiet_import=__name__)
    if stopped:
        raise KeyboardInterrupt
    _collect(judgement, jobs, [results[n] for n in range(len(jobs))])
    return judgement


def _collect(judgement: Judgement, jobs: Sequence[tuple[Case, Scene]],
             results: Sequence[tuple[list[Verdict], float]]) -> None:
    for (case, scene), (verdicts, wall) in zip(jobs, results, strict=True):
        if scene is case.scene:
            judgement.verdicts[case.name] = verdicts
            judgement.wall_seconds += wall
            judgement.outcomes[case.name] = [frozenset([v]) for v in verdicts]
        else:
            judgement.variant_seconds += wall
            judgement.outcomes[case.name] = [seen | {v} for seen, v
                                             in zip(judgement.outcomes[case.name], verdicts, strict=True)]


@dataclass(frozen=True)
class Agreement:
    towers: int
    same_verdict: int          # stood/fell and fell_at both equal
    same_stood: int            # stood/fell equal
    differing: tuple[str, ...]
    within_chance: int = 0     # the same verdict, or one among the other's outcomes
    by_chance: int = 0         # towers whose outcomes (either setting's) are more than one verdict
    beyond_chance: tuple[str, ...] = ()

    @property
    def share(self) -> float:
        return self.same_verdict / self.towers if self.towers else 1.0

    @property
    def stood_share(self) -> float:
        return self.same_stood / self.towers if self.towers else 1.0

    @property
    def chance_share(self) -> float:
        return self.within_chance / self.towers if self.towers else 1.0


def agreement(a: Judgement, b: Judgement, cases: Sequence[Case] | None = None) -> Agreement:
    names = [c.name for c in cases] if cases is not None else list(a.verdicts)
    towers = same = same_stood = within = by_chance = 0
    differing, beyond = [], []
    for name in names:
        mine, theirs = a.verdicts[name], b.verdicts[name]
        for tower, (x, y, seen_a, seen_b) in enumerate(zip(mine, theirs, a.outcomes_of(name),
                                                           b.outcomes_of(name), strict=True)):
            label = name if len(mine) == 1 else f"{name}[{tower}]"
            towers += 1
            same += x == y
            same_stood += x[0] == y[0]
            by_chance += len(seen_a) > 1 or len(seen_b) > 1
            if x != y:
                differing.append(label)
            if x == y or x in seen_b or y in seen_a:
                within += 1
            else:
                beyond.append(label)
    return Agreement(towers, same, same_stood, tuple(differing), within, by_chance, tuple(beyond))


def converged_reference(judgements: Sequence[Judgement]) -> int | None:
    """The index of the first rung whose verdicts the next rung changes, beyond chance, for
    fewer than CONVERGED_SHARE of the towers (None: the ladder never got there)."""
    for index in range(len(judgements) - 1):
        if 1.0 - agreement(judgements[index], judgements[index + 1]).chance_share < CONVERGED_SHARE:
            return index
    return None


def expected_verdicts(case: Case) -> list[Verdict] | None:
    """What physics says of a case, where it is known without simulating: a validation
    scene's [expect], an exact or slightly shaken centred column (stands), a slope case."""
    if case.group == "validation":
        expect = case.scene.expect
        if expect.stood is None:
            return None
        fell_at = expect.fell_at or tuple(None if s else -1 for s in expect.stood)
        return [(bool(s), None if s else f) for s, f in zip(expect.stood, fell_at, strict=True)]
    if case.group == "column":
        return [(True, None)]
    if case.group == "slope":
        return [(True, None)] if case.name.endswith("_holds") else [(False, 0)]
    return None


def format_report(cases: Sequence[Case], chosen: Judgement, ladder: Sequence[Judgement],
                  reference: int | None) -> str:
    lines = [f"corpus: {len(cases)} scenes, {sum(c.towers for c in cases)} towers "
             f"({', '.join(f'{g} {sum(1 for c in cases if c.group == g)}' for g in _groups(cases))}); "
             f"random towers also with the hand's draws x {', '.join(f'{f:g}' for f in HAND_VARIANTS)}",
             "", f"{'setting':<22} {'wall s':>8} {'variants s':>10}  vs next rung: same verdict, "
             "within chance (decided by chance)"]
    everything = [chosen, *ladder]
    for index, judgement in enumerate(everything):
        following = ""
        if 1 <= index < len(everything) - 1:
            step = agreement(judgement, everything[index + 1])
            following = (f"{100 * step.share:5.1f} %, {100 * step.chance_share:5.1f} % "
                         f"({step.by_chance})")
        lines.append(f"{judgement.rung.name:<22} {judgement.wall_seconds:>8.1f} "
                     f"{judgement.variant_seconds:>10.1f}  {following}")
    lines.append("")
    if reference is None:
        lines.append("reference: not converged on this ladder (each rung changed "
                     f"{CONVERGED_SHARE:.1%} or more of the next one's verdicts beyond chance)")
        return "\n".join(lines)
    ref = ladder[reference]
    step = agreement(ref, ladder[reference + 1])
    lines.append(f"reference: {ref.rung.name} (the next rung changes {100 * (1 - step.chance_share):.2f} % "
                 f"of its verdicts beyond chance, {100 * (1 - step.share):.2f} % in all)")
    total = agreement(chosen, ref)
    lines.append(f"chosen vs reference: {100 * total.chance_share:.1f} % of verdicts within chance "
                 f"(goal {100 * GOAL_AGREEMENT:.0f} %), {100 * total.share:.1f} % the same verdict "
                 f"(stood and fell_at), {100 * total.stood_share:.1f} % stood/fell; "
                 f"wall {chosen.wall_seconds:.1f} s vs {ref.wall_seconds:.1f} s")
    for group in _groups(cases):
        part = [c for c in cases if c.group == group]
        share = agreement(chosen, ref, part)
        lines.append(f"  {group:<11} {100 * share.chance_share:5.1f} % within chance, "
                     f"{100 * share.share:5.1f} % the same  ({share.towers} towers, "
                     f"{share.by_chance} decided by chance)"
                     + (f"  beyond chance: {', '.join(share.beyond_chance[:6])}"
                        if share.beyond_chance else ""))
    for judgement in (chosen, ref):
        wrong = [c.name for c in cases if (e := expected_verdicts(c)) is not None
                 and [v[0] for v in judgement.verdicts[c.name]] != [v[0] for v in e]]
        lines.append(f"against physics ({judgement.rung.name}): {len(wrong)} of "
                     f"{sum(1 for c in cases if expected_verdicts(c) is not None)} known cases wrong"
                     + (f": {', '.join(wrong[:8])}" if wrong else ""))
    return "\n".join(lines)


def _groups(cases: Sequence[Case]) -> list[str]:
    return list(dict.fromkeys(c.group for c in cases))


def run(cases: Sequence[Case], chosen: Rung = CHOSEN, ladder: Sequence[Rung] = LADDER,
        workers: int = 1, progress: Progress | None = None
        ) -> tuple[Judgement, list[Judgement], int | None]:
    judged = judge(cases, chosen, workers, progress)
    rungs = [judge(cases, rung, workers, progress) for rung in ladder]
    return judged, rungs, converged_reference(rungs)
