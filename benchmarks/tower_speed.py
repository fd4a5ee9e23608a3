"""Where the time of building the benchmark towers goes, and what candidate changes buy.

    .venv/bin/python -m benchmarks tower_speed stats   [TOWER ...]   # contacts, awake, step cost
    .venv/bin/python -m benchmarks tower_speed profile [TOWER ...]   # cProfile + Bullet's timers
    .venv/bin/python -m benchmarks tower_speed steps   [TOWER ...]   # step cost vs iterations
    .venv/bin/python -m benchmarks tower_speed counts  [TOWER ...] [--only A,B] # load-free
    .venv/bin/python -m benchmarks tower_speed sweep   [TOWER ...] [--repeats N] [--only A,B]
    .venv/bin/python -m benchmarks tower_speed sweep tower_20 -- solver_iterations=20 check_every=8

TOWER is a key of simulator.towers.physics.bench_towers.BENCH_TOWERS (default: all of them). Each tower is
built as towers/physics/speed.py's _build_then_stand builds it: stability.build_tower, placement by placement,
each settled until at rest, fallen or 3 s; build rtf = simulated seconds / wall seconds.

stats    per tower at the chosen settings (one instrumented build; every step timed on its
         own, then, outside the timing, client.getContactPoints() counted and the awake bodies
         counted: Bullet zeroes a sleeping body's velocity, so awake = velocity not exactly 0):
         build rtf and simulated seconds of an uninstrumented build, the settle time of each
         placement (3.00: it never came to rest), contact points per step (mean, max), awake
         bodies per step, the wall time per step and its least-squares fit against the contact
         points (ms = a + b * points), the share of the build's wall time spent outside
         stepSimulation (the settle loop's Python checks), and the pieces that carry the most
         contact points (a point counts for both its bodies).
profile  per tower: cProfile of one build, by the Python function whose own time it is
         (pybullet's calls go through functools.partial and count as their caller's own time:
         World.step = stepSimulation, bodies_on_ground's <setcomp> = getContactPoints of the
         fall check, at_rest = getBaseVelocity of the rest check, _fit_friction_to_contacts =
         its getContactPoints), then the same with the old fall check by getClosestPoints
         (candidate "fall check by closest points"); each followed by Bullet's own timers
         (STATE_LOGGING_PROFILE_TIMINGS) of another build: the solver's iterations, its setup
         (constraint rows per contact point), collision detection and the rest of the step, as
         shares of Bullet's internalSingleStepSimulation.
steps    per tower, the finished tower's state saved, then the wall time of one stepSimulation
         from that state for 2 x 30 (chosen), 2 x 25, 2 x 20, 2 x 40, 1 x 30, 1 x 40, 1 x 60
         iterations (interleaved, fastest of 7: robust to a noisy machine; the contacts are the
         same for all), and the cost of each settle-loop check on that state against the 4
         steps between checks.
counts   per tower and candidate, the figures that do not depend on the machine's load:
         simulated seconds of the build, stood or fell, contact points per step (every 4th
         step sampled) and solver work per simulated second (points x iterations x substeps x
         steps per second), which is what the step's cost follows (see stats).
sweep    build rtf (and whether the tower stood) for each tower under each candidate, all
         candidates interleaved in the same run, repeated (default 2); every run is printed
         (wall-clock rtf and rtf by process CPU time), the table gives the best run's rtf and
         its ratio to the chosen settings' best. Run one measurement at a time: on a 2-core
         machine a second simulating process slows each by up to 2x, in CPU time as well.
         Candidates are PhysicsSettings overrides (dataclasses.replace) and monkeypatches
         (fall check, re-anchoring, coarser collision parts; no file is edited): see
         CANDIDATES. Arguments after `--` make one extra candidate of overrides, as in
         the physics_settings benchmark. tools/candidate_plugin.py runs the tests under a
         candidate (BANDU_CANDIDATE=label, pytest -p candidate_plugin, tools/ on PYTHONPATH).
"""

from __future__ import annotations

import collections
import cProfile
import dataclasses
import json
import pstats
import re
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from simulator.towers.physics import stability
from simulator.towers.physics import world as world_module
from simulator.towers.physics.bench_towers import BENCH_TOWERS
from simulator.towers.physics.placement import resting_faces
from simulator.towers.physics.scene_file import DEFAULT_SETTLE_SECONDS, Placement, TowerSpec
from simulator.towers.physics.stability import PieceIds, build_tower
from simulator.towers.physics.world import PhysicsSettings, World, pybullet

CHOSEN = PhysicsSettings.chosen()


def spec_of(name: str) -> TowerSpec:
    foundation, pieces = BENCH_TOWERS[name]
    for piece in {foundation, *pieces}:
        resting_faces(piece)  # geometry, once per process: outside every timing
    return TowerSpec(foundation, (0.0, 0.0), tuple(Placement(p) for p in pieces))


# --- candidate patches of the settle loop's checks (monkeypatched, restored after) ----------

def _fallen_by_closest_points(self, world: World) -> bool:
    """The fall check as it was: a getClosestPoints query per piece and ground."""
    return any(world.touches_ground(b) for b in self.bodies[1:])


_add_piece = World.add_piece


def _add_piece_anchored(self, *args, **kwargs) -> int:
    """Bullet's friction anchor on every piece, round ones included."""
    body = _add_piece(self, *args, **kwargs)
    self.client.changeDynamics(body, -1, frictionAnchor=int(self.settings.friction_anchor))
    return body


def _no_refitting(self) -> None:
    """World._fit_friction_to_contacts (every check_every steps: the contact points of the
    world) made a no-op: anchors and lever arms stay as add_piece set them."""


# pieces given coarser collision parts (fewer parts: fewer contact manifolds), as the cut
# tolerance (mm) of simulator/towers/pieces/catalogue.py's COLLISION detail that makes them
COARSE = {"ring": 2.3, "washer": 1.7}  # ring 12 -> 8 tube pieces, washer 8 -> 6 sectors
_load_piece = world_module.load_piece


def _coarse_path(piece_id: str, tolerance: float) -> Path:
    from simulator.towers.pieces import build
    from simulator.towers.pieces.catalogue import BY_ID, COLLISION
    path = Path(tempfile.gettempdir()) / f"bandu-coarse-{piece_id}-{tolerance}.collision.obj"
    if not path.exists():
        saved = build.COLLISION
        build.COLLISION = dataclasses.replace(COLLISION, cut_tolerance_mm=tolerance)
        try:
            path.write_text(build.collision_obj(build.build_piece(BY_ID[piece_id])))
        finally:
            build.COLLISION = saved
    return path


def _load_piece_coarse(piece_id: str):
    asset = _load_piece(piece_id)
    if asset.id in COARSE:
        return dataclasses.replace(asset, collision_path=_coarse_path(asset.id, COARSE[asset.id]))
    return asset


PATCHES = {"coarse_ring_washer": (world_module, "load_piece", _load_piece_coarse),
           "fallen_by_closest_points": (stability.Tower, "fallen", _fallen_by_closest_points),
           "anchor_round_too": (World, "add_piece", _add_piece_anchored),
           "no_refitting": (World, "_fit_friction_to_contacts", _no_refitting)}


@contextmanager
def patched(names: tuple[str, ...]):
    saved = []
    for name in names:
        owner, attribute, replacement = PATCHES[name]
        saved.append((owner, attribute, getattr(owner, attribute)))
        setattr(owner, attribute, replacement)
    try:
        yield
    finally:
        for owner, attribute, original in reversed(saved):
            setattr(owner, attribute, original)


# (label, PhysicsSettings overrides, patches)
CANDIDATES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("chosen", {}, ()),
    ("iterations 20", {"solver_iterations": 20}, ()),
    ("iterations 40", {"solver_iterations": 40}, ()),
    ("1 substep", {"substeps": 1}, ()),
    ("1 substep x 40 it", {"substeps": 1, "solver_iterations": 40}, ()),
    ("iterations 25", {"solver_iterations": 25}, ()),
    ("breaking 2 mm", {"contact_breaking_threshold": 0.002}, ()),
    ("breaking 20 mm", {"contact_breaking_threshold": 0.02}, ()),
    ("no sleeping", {"sleeping": False}, ()),
    ("check_every 8", {"check_every": 8}, ()),
    ("rest 0.1 s, min 0.1 s", {"rest_seconds": 0.1, "min_settle_seconds": 0.1}, ()),
    ("rest_linear 8 mm/s", {"rest_linear": 0.008}, ()),
    ("fall check by closest points", {}, ("fallen_by_closest_points",)),
    ("coarse ring 8 + washer 6", {}, ("coarse_ring_washer",)),
    ("no refitting", {}, ("no_refitting",)),
    ("anchor all no refitting", {}, ("anchor_round_too", "no_refitting")),
    ("rolling+spinning 1 mm", {"rolling_friction": 0.001, "spinning_friction": 0.001}, ()),
    ("anchor all + rolling 1 mm", {"rolling_friction": 0.001, "spinning_friction": 0.001},
     ("anchor_round_too", "no_refitting")),
]


def build(name: str, settings: PhysicsSettings, patches: tuple[str, ...] = (),
          stand_seconds: float = 0.0) -> dict:
    spec = spec_of(name)
    with patched(patches), World(settings) as world:
        start, cpu_start = time.perf_counter(), time.process_time()
        tower = build_tower(world, spec, DEFAULT_SETTLE_SECONDS, PieceIds())
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        height = max(world.lowest_and_highest(b)[1] for b in tower.bodies) * 1000.0
        simulated = world.seconds
        if stand_seconds:
            world.step(round(stand_seconds / settings.time_step))
        still_standing = tower.fell_at is None and not tower.fallen(world)
    return {"rtf": simulated / wall, "cpu_rtf": simulated / cpu, "sim_s": simulated, "wall_s": wall,
            "stood": tower.fell_at is None, "fell_at": tower.fell_at, "height_mm": height,
            "pieces": len(tower.bodies), "standing_after": still_standing}


# --- stats ----------------------------------------------------------------------------------

def stats(name: str, settings: PhysicsSettings = CHOSEN) -> None:
    plain = build(name, settings, stand_seconds=5.0)
    spec = spec_of(name)
    steps_wall, contacts, awake, settles = [], [], [], []
    per_body: collections.Counter[int] = collections.Counter()
    original_settle = World.settle

    def settle(self, *args, **kwargs):
        result = original_settle(self, *args, **kwargs)
        settles.append(result.seconds)
        return result

    World.settle = settle  # type: ignore[method-assign]
    try:
        with World(settings) as world:
            client = world.client
            step_simulation = client.stepSimulation

            def timed_step():  # World.step's own work (if any) stays as it is
                start = time.perf_counter()
                step_simulation()
                steps_wall.append(time.perf_counter() - start)
                points = client.getContactPoints()
                contacts.append(len(points))
                for point in points:
                    per_body[point[1]] += 1
                    per_body[point[2]] += 1
                awake.append(sum(1 for b in world.bodies() if any(client.getBaseVelocity(b)[0])
                                 or any(client.getBaseVelocity(b)[1])))

            world._step_simulation = timed_step  # what World.step calls
            tower = build_tower(world, spec, DEFAULT_SETTLE_SECONDS, PieceIds())
            names = {b: i for b, i in zip(tower.bodies, tower.ids, strict=True)}
            names[world.table], names[world.floor] = "(table)", "(floor)"
    finally:
        World.settle = original_settle  # type: ignore[method-assign]
    ms = np.array(steps_wall[20:]) * 1000.0
    points = np.array(contacts[20:], dtype=float)
    slope, intercept = np.polyfit(points, ms, 1)
    step_ms = float(ms.mean())
    print(f"{name}: {plain['pieces']} pieces, {plain['height_mm']:.0f} mm, "
          f"{'stood' if plain['stood'] else 'fell at ' + str(plain['fell_at'])}, "
          f"{'still standing' if plain['standing_after'] else 'DOWN'} 5 s later")
    print(f"  build rtf {plain['rtf']:.2f}  simulated {plain['sim_s']:.2f} s  wall "
          f"{plain['wall_s']:.2f} s  steps {len(steps_wall)}")
    print("  settle s per placement: " + " ".join(f"{s:.2f}" for s in settles[1:]))
    print(f"  contact points per step: mean {points.mean():.0f}  max {points.max():.0f}  "
          f"at the end {contacts[-1]}")
    print(f"  awake bodies per step: mean {np.mean(awake):.1f} of {plain['pieces']}")
    print(f"  wall per stepSimulation: mean {step_ms:.3f} ms  fit {intercept:.3f} ms + "
          f"{slope * 1000:.2f} us x points  (r {np.corrcoef(points, ms)[0, 1]:.2f})")
    for low, high in ((0, 50), (50, 100), (100, 150), (150, 200), (200, 300), (300, 10**6)):
        mask = (points >= low) & (points < high)
        if mask.any():
            print(f"    {low:>3}-{high if high < 10**6 else '':<4} points: {mask.sum():5d} steps, "
                  f"{ms[mask].mean():.3f} ms/step")
    stepping = sum(steps_wall) * 1000.0 / len(steps_wall)  # per step, instrumented run
    physics_share = step_ms * (len(steps_wall)) / 1000.0 / plain["wall_s"]
    print(f"  stepSimulation share of the plain build's wall time: {physics_share:.0%} "
          f"({stepping:.3f} ms/step x {len(steps_wall)} steps vs {plain['wall_s']:.2f} s)")
    total = sum(v for b, v in per_body.items())
    top = sorted(((v, names.get(b, str(b))) for b, v in per_body.items()), reverse=True)[:8]
    print("  contact points by body (share of point ends): "
          + ", ".join(f"{n} {v / total:.0%}" for v, n in top))


# --- counts: deterministic figures, whatever the machine's load ----------------------------

def counts(name: str, settings: PhysicsSettings, patches: tuple[str, ...] = ()) -> dict:
    """Simulated seconds, stepSimulation calls and contact points summed over the build's steps
    (sampled every 4th step, times 4): the same on every run, unlike wall times. The solver's
    work is about contact points x iterations x substeps, so the load-independent cost of a
    build per simulated second is points_per_step x iterations x substeps."""
    spec = spec_of(name)
    sampled = []
    with patched(patches), World(settings) as world:
        client = world.client
        step_simulation = client.stepSimulation

        calls = 0

        def counted_step():
            nonlocal calls
            step_simulation()
            calls += 1
            if calls % 4 == 0:
                sampled.append(len(client.getContactPoints()))

        world._step_simulation = counted_step  # what World.step calls
        tower = build_tower(world, spec, DEFAULT_SETTLE_SECONDS, PieceIds())
        simulated = world.seconds
    points = float(np.mean(sampled))
    return {"sim_s": simulated, "stood": tower.fell_at is None, "fell_at": tower.fell_at,
            "points_per_step": points,
            "solver_work_per_sim_s": points * settings.solver_iterations * settings.substeps
            / settings.time_step}


# --- steps: the cost of one step of the finished tower, robust to a noisy machine ----------

def steps(name: str, repeats: int = 7, count: int = 96) -> None:
    """Build the tower (chosen settings), save the state, then time `count` steps from that
    state for each solver setting in turn (setPhysicsEngineParameter on the same world, state
    restored before each), `repeats` times interleaved, and keep the fastest of each: the
    contacts are the same for all, so this isolates what iterations and substeps cost. Then
    the settle loop's checks on the same state, per call: the fall check as it is
    (getClosestPoints per piece and ground), from contact points, the rest check, and
    re-anchoring where World has it."""
    spec = spec_of(name)
    variants = [(30, 2), (25, 2), (20, 2), (40, 2), (30, 1), (40, 1), (60, 1)]
    with World(CHOSEN) as world:
        tower = build_tower(world, spec, DEFAULT_SETTLE_SECONDS, PieceIds())
        snapshot = world.save_state()
        points = len(world.client.getContactPoints())
        best: dict = {}
        for _ in range(repeats):
            for iterations, substeps in variants:
                world.restore_state(snapshot)
                world.client.setPhysicsEngineParameter(numSolverIterations=iterations,
                                                       numSubSteps=substeps)
                start = time.perf_counter()
                for _ in range(count):
                    world.client.stepSimulation()
                elapsed = (time.perf_counter() - start) / count
                key = (iterations, substeps)
                best[key] = min(best.get(key, elapsed), elapsed)
        world.restore_state(snapshot)
        world.client.setPhysicsEngineParameter(numSolverIterations=CHOSEN.solver_iterations,
                                               numSubSteps=CHOSEN.substeps)
        checks = {"fall check (getClosestPoints)": lambda: _fallen_by_closest_points(tower, world),
                  "fall check from contact points": lambda: tower.fallen(world),
                  "rest check (getBaseVelocity)": lambda: world.at_rest(tower.bodies),
                  "friction fitting (getContactPoints)": world._fit_friction_to_contacts}
        check_cost = {}
        for label, check in checks.items():
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                for _ in range(20):
                    check()
                times.append((time.perf_counter() - start) / 20)
            check_cost[label] = min(times)
    base = best[30, 2]
    print(f"{name}: {len(tower.bodies)} pieces, {points} contact points at the end; one "
          f"stepSimulation (1/240 s) of the finished tower, fastest of {repeats}:")
    for (iterations, substeps), seconds in best.items():
        print(f"  {substeps} x {iterations:>2} iterations  {seconds * 1000:6.3f} ms  "
              f"{base / seconds:4.2f}x the chosen speed  (rtf if only stepping: "
              f"{1 / 240 / seconds:5.2f})")
    per_check = base * CHOSEN.check_every
    print(f"  per settle check (every {CHOSEN.check_every} steps = {per_check * 1000:.2f} ms of "
          f"stepping):")
    for label, seconds in check_cost.items():
        print(f"    {label:<34} {seconds * 1e6:7.1f} us  {seconds / per_check:5.1%} of the stepping")


# --- profile --------------------------------------------------------------------------------

BULLET_GROUPS = [("solver iterations", "solveGroupCacheFriendlyIterations"),
                 ("solver setup (per contact row)", "solveGroupCacheFriendlySetup"),
                 ("collision detection", "performDiscreteCollisionDetection"),
                 ("broadphase aabbs", "updateAabbs")]


def _bullet_timers(path: Path) -> collections.Counter:
    events = json.loads(path.read_text())["traceEvents"]
    begins = {e["name"]: e["ts"] for e in events if e["ph"] == "B"}
    totals: collections.Counter = collections.Counter()
    for event in events:
        if event["ph"] == "E" and event["name"] in begins:
            totals[re.sub(r"\d+$", "", event["name"])] += event["ts"] - begins[event["name"]]
    return totals


def profile(name: str, settings: PhysicsSettings = CHOSEN, patches: tuple[str, ...] = ()) -> None:
    spec = spec_of(name)
    profiler = cProfile.Profile()
    with patched(patches), World(settings) as world:
        start = time.perf_counter()
        profiler.enable()
        build_tower(world, spec, DEFAULT_SETTLE_SECONDS, PieceIds())
        profiler.disable()
        wall = time.perf_counter() - start
        simulated = world.seconds
    # pybullet's calls go through functools.partial and do not show on their own: each C call's
    # time is the own time of the Python function that makes it (step: stepSimulation;
    # bodies_on_ground's <setcomp>: getContactPoints; at_rest: getBaseVelocity; ...)
    own: collections.Counter[str] = collections.Counter()
    for (file, _line, function), (_cc, _count, tottime, _ct, _callers) in pstats.Stats(profiler).stats.items():  # type: ignore[attr-defined]
        place = Path(file).stem if file != "~" else ""
        own[f"{place}.{function}" if place else function] += tottime
    profiled = sum(own.values())
    print(f"{name}{' + ' + '+'.join(patches) if patches else ''}: build {simulated:.2f} s "
          f"simulated in {wall:.2f} s (profiled; rtf {simulated / wall:.2f})")
    for function, seconds in own.most_common(10):
        print(f"  {function:<44} {seconds:6.2f} s  {seconds / profiled:5.1%}")
    with tempfile.TemporaryDirectory() as folder, patched(patches), World(settings) as world:
        log = Path(folder) / "timings.json"
        handle = world.client.startStateLogging(pybullet.STATE_LOGGING_PROFILE_TIMINGS, str(log))
        build_tower(world, spec, DEFAULT_SETTLE_SECONDS, PieceIds())
        world.client.stopStateLogging(handle)
        files = sorted(Path(folder).glob("timings.json*"))
        totals: collections.Counter[str] = collections.Counter()
        for file in files:
            totals += _bullet_timers(file)
    stepping = totals["internalSingleStepSimulation"]
    if stepping:
        print(f"  Bullet's timers (a second build, timers on: {stepping / 1e6:.2f} s in "
              f"internalSingleStepSimulation; shares of it):")
        for label, key in BULLET_GROUPS:
            print(f"    {label:<32} {totals[key] / stepping:5.1%}")
        other = stepping - sum(totals[k] for _, k in BULLET_GROUPS)
        print(f"    {'the rest (integration, islands)':<32} {other / stepping:5.1%}")


# --- sweep ----------------------------------------------------------------------------------

# the table's figure: the wall-clock build rtf, as towers/physics/speed.py measures it ("cpu_rtf" is printed
# beside it per run; on this machine the two agree: a busy machine slows the CPU time too)
KEY = "rtf"


def sweep(names: list[str], candidates: list, repeats: int) -> None:
    results: dict = collections.defaultdict(list)
    for repeat in range(repeats):
        for name in names:
            for label, overrides, patches in candidates:
                settings = dataclasses.replace(CHOSEN, **overrides)
                result = build(name, settings, patches)
                results[name, label].append(result)
                print(f"  [{repeat}] {name:<20} {label:<26} rtf {result['rtf']:6.2f}  cpu rtf "
                      f"{result['cpu_rtf']:6.2f}  sim "
                      f"{result['sim_s']:6.2f} s  wall {result['wall_s']:6.2f} s  "
                      f"{'stood' if result['stood'] else 'FELL at ' + str(result['fell_at'])}",
                      flush=True)
    print()
    header = f"{'candidate':<26}" + "".join(f"{n[:18]:>20}" for n in names)
    print(header)
    for label, _, _ in candidates:
        row = f"{label:<26}"
        for name in names:
            runs = results[name, label]
            rtf = max(r[KEY] for r in runs)
            base = max(r[KEY] for r in results[name, candidates[0][0]])
            stood = "" if all(r["stood"] for r in runs) else "F"
            row += f"{rtf:9.2f} {rtf / base:4.2f}x{stood:<1}  "
        print(row)
    print(f"(best {KEY} of the runs: the runs differ only by the machine's load, the simulation\n"
          " being deterministic; its ratio to the first candidate; F: the tower fell)")


def main(argv: list[str]) -> None:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return
    extra = []
    if "--" in argv:
        extra, argv = argv[argv.index("--") + 1:], argv[:argv.index("--")]
    command, *rest = argv or ["stats"]
    repeats, only = 2, None
    if "--repeats" in rest:
        index = rest.index("--repeats")
        repeats = int(rest[index + 1])
        del rest[index:index + 2]
    if "--only" in rest:
        index = rest.index("--only")
        only = rest[index + 1].split(",")
        del rest[index:index + 2]
    names = rest or list(BENCH_TOWERS)
    if command == "stats":
        for name in names:
            stats(name)
    elif command == "profile":
        for name in names:
            profile(name)
            profile(name, patches=("fallen_by_closest_points",))
    elif command == "steps":
        for name in names:
            steps(name)
    elif command == "counts":
        candidates = [c for c in CANDIDATES if only is None or c[0] in only or c[0] == "chosen"]
        for name in names:
            for label, overrides, patches in candidates:
                c = counts(name, dataclasses.replace(CHOSEN, **overrides), patches)
                print(f"  {name:<20} {label:<28} sim {c['sim_s']:6.2f} s  "
                      f"{'stood' if c['stood'] else 'FELL at ' + str(c['fell_at']):<10} points/step "
                      f"{c['points_per_step']:6.1f}  solver work/sim s "
                      f"{c['solver_work_per_sim_s'] / 1e6:6.2f} M", flush=True)
    elif command == "sweep":
        candidates = [c for c in CANDIDATES if only is None or c[0] in only or c[0] == "chosen"]
        if extra:
            overrides = PhysicsSettings.changes_from(extra)
            candidates = [CANDIDATES[0], (" ".join(extra), overrides, ())]
        sweep(names, candidates, repeats)
    else:
        raise SystemExit(__doc__)
