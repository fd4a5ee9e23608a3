"""Random towers of real pieces in PyBullet and in MuJoCo: do the two engines agree?

    .venv/bin/python -m benchmarks crosscheck --towers 20
    .venv/bin/python -m benchmarks crosscheck --towers 300 --seed0 0 --json > crosscheck.json

Tower k is fidelity's random tower `random_k` (simulator/towers/physics/fidelity.py): a base block
foundation and `fidelity.random_tower(k)` placed by the default policy with the 0.5 mm /
0.5 degree hand (RANDOM_HAND), scene seed k, so tower 0 of the scene draws its tremor from
`stability.tremor_rng(k, 0)`. PyBullet builds it as `stability.run_scene` does (build_tower,
judge_tower: the chosen settings); MuJoCo as benchmarks/mujoco_models/pieces.py does, with the same
tremor draws (the x, y and orientation of every release are compared with PyBullet's
`Tower.released`; `release_dev` in the output is the largest difference seen).

Prints the agreement of the verdicts (stood/fell, and stood/fell with fell_at), a table of
the towers where they differ (seed, pieces, each engine's verdict and the pieces each has on
the table), and both engines' wall times; with --json the same as one JSON object on stdout
(per tower: pieces, both verdicts, wall times, final centres). A progress line per tower
goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from benchmarks.mujoco_models import pieces as mujoco_pieces
from simulator.core.quiet_output import import_quietly
from simulator.towers.physics import fidelity

stability = import_quietly("simulator.towers.physics.stability")  # PyBullet's banner
world_module = import_quietly("simulator.towers.physics.world")


def random_scene(seed: int):
    """fidelity's corpus case random_<seed>: the same Scene the fidelity harness judges."""
    [case] = [c for c in fidelity.corpus(random_towers=seed + 1, columns=())
              if c.name == f"random_{seed}"]
    return case.scene


def _verdict_text(stood: bool, fell_at: int | None) -> str:
    return "stood" if stood else f"fell at {fell_at}"


def _angle(a, b) -> float:
    """The angle (degrees) between two orientations; 2 asin(|q_a - q_b| / 2) is exact and,
    unlike acos of their dot product, does not lose small angles to rounding."""
    chord = min(math.dist(a, b), math.dist(a, [-v for v in b]))
    return math.degrees(4 * math.asin(min(1.0, chord / 2)))


def run_pybullet(scene) -> dict:
    """As stability.run_scene, keeping the tower's released poses."""
    started = time.perf_counter()
    spec = scene.towers[0]
    with world_module.World(slope_deg=scene.slope_deg) as world:
        tower = stability.build_tower(world, spec, scene.settle_seconds, stability.PieceIds(),
                                      scene.tremor, stability.tremor_rng(scene.seed, 0), 0, "")
        world.step(round(scene.hold_seconds / world.settings.time_step))
        report = stability.judge_tower(world, tower)
        simulated = world.seconds
    return {"stood": report.stood, "fell_at": report.fell_at, "unstable": report.unstable,
            "on_table": [p.id for p in report.pieces[1:] if p.touches_table],
            "final_mm": [[round(v, 2) for v in p.position_mm] for p in report.pieces],
            "released": [(tuple(p), tuple(q)) for p, q in tower.released],
            "simulated_s": round(simulated, 3), "wall_s": time.perf_counter() - started}


def run_mujoco(scene) -> dict:
    spec = scene.towers[0]
    result = mujoco_pieces.build_tower(spec.foundation, [p.piece for p in spec.placements],
                                       scene.tremor, scene.seed, scene.settle_seconds)
    return {"stood": result.stood, "fell_at": result.fell_at,
            "on_table": [p for p, down in zip(result.pieces[1:], result.on_table[1:], strict=True)
                         if down],
            "final_mm": [[round(v * 1000, 2) for v in p] for p in result.final],
            "released": result.released,
            "simulated_s": round(result.simulated_seconds, 3), "wall_s": result.wall_seconds}


def release_deviation(bullet: dict, mujoco: dict) -> tuple[float, float]:
    """The largest x-y (mm) and orientation (degrees) difference of the placements released in
    both engines (the foundation's included)."""
    dxy = dangle = 0.0
    for (pb, qb), (pm, qm) in zip(bullet["released"], mujoco["released"], strict=False):
        dxy = max(dxy, 1000 * math.hypot(pb[0] - pm[0], pb[1] - pm[1]))
        dangle = max(dangle, _angle(qb, qm))
    return dxy, dangle


def crosscheck(towers: int, seed0: int, progress=None) -> dict:
    rows = []
    for n, seed in enumerate(range(seed0, seed0 + towers), start=1):
        scene = random_scene(seed)
        bullet = run_pybullet(scene)
        mujoco = run_mujoco(scene)
        dxy, dangle = release_deviation(bullet, mujoco)
        row = {"seed": seed, "pieces": [p.piece for p in scene.towers[0].placements],
               "pybullet": {k: v for k, v in bullet.items() if k != "released"},
               "mujoco": {k: v for k, v in mujoco.items() if k != "released"},
               "same_verdict": (bullet["stood"], bullet["fell_at"]) == (mujoco["stood"], mujoco["fell_at"]),
               "same_stood": bullet["stood"] == mujoco["stood"],
               "release_dev": {"xy_mm": dxy, "deg": dangle}}
        rows.append(row)
        if progress:
            progress(f"[{n}/{towers}] seed {seed}: pybullet "
                     f"{_verdict_text(bullet['stood'], bullet['fell_at'])} ({bullet['wall_s']:.1f} s), "
                     f"mujoco {_verdict_text(mujoco['stood'], mujoco['fell_at'])} "
                     f"({mujoco['wall_s']:.1f} s){'' if row['same_verdict'] else '  DIFFER'}")
    count = len(rows)
    return {
        "towers": count, "seed0": seed0,
        "same_verdict": sum(r["same_verdict"] for r in rows),
        "same_stood": sum(r["same_stood"] for r in rows),
        "stood_pybullet": sum(r["pybullet"]["stood"] for r in rows),
        "stood_mujoco": sum(r["mujoco"]["stood"] for r in rows),
        "wall_s": {"pybullet": sum(r["pybullet"]["wall_s"] for r in rows),
                   "mujoco": sum(r["mujoco"]["wall_s"] for r in rows)},
        "simulated_s": {"pybullet": sum(r["pybullet"]["simulated_s"] for r in rows),
                        "mujoco": sum(r["mujoco"]["simulated_s"] for r in rows)},
        "release_dev": {"xy_mm": max((r["release_dev"]["xy_mm"] for r in rows), default=0.0),
                        "deg": max((r["release_dev"]["deg"] for r in rows), default=0.0)},
        "rows": rows,
    }


def format_summary(summary: dict) -> str:
    n = summary["towers"]
    share = (lambda k: 100.0 * summary[k] / n) if n else (lambda k: 100.0)
    lines = [f"{n} random towers (seeds {summary['seed0']} .. {summary['seed0'] + n - 1})",
             f"same verdict (stood/fell and fell_at): {summary['same_verdict']} / {n} "
             f"= {share('same_verdict'):.1f} %",
             f"same stood/fell:                       {summary['same_stood']} / {n} "
             f"= {share('same_stood'):.1f} %",
             f"stood: pybullet {summary['stood_pybullet']}, mujoco {summary['stood_mujoco']}",
             f"wall: pybullet {summary['wall_s']['pybullet']:.1f} s, "
             f"mujoco {summary['wall_s']['mujoco']:.1f} s "
             f"(simulated {summary['simulated_s']['pybullet']:.1f} s / "
             f"{summary['simulated_s']['mujoco']:.1f} s)",
             f"release poses: largest x-y difference {summary['release_dev']['xy_mm']:.2g} mm, "
             f"orientation {summary['release_dev']['deg']:.2g} deg"]
    differ = [r for r in summary["rows"] if not r["same_verdict"]]
    if differ:
        lines += ["", f"{'seed':>5}  {'pybullet':<22} {'mujoco':<22} pieces (placed order)"]
        for r in differ:
            b, m = r["pybullet"], r["mujoco"]
            bt = _verdict_text(b["stood"], b["fell_at"]) + (" (unstable)" if b.get("unstable") else "")
            lines.append(f"{r['seed']:>5}  {bt:<22} {_verdict_text(m['stood'], m['fell_at']):<22} "
                         f"{' '.join(r['pieces'])}")
            down = f"on the table: pybullet {', '.join(b['on_table']) or '-'}; " \
                   f"mujoco {', '.join(m['on_table']) or '-'}"
            lines.append(f"{'':>5}  {down}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--towers", type=int, default=20, help="how many towers (default 20)")
    parser.add_argument("--seed0", type=int, default=0, help="the first tower's seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    summary = crosscheck(args.towers, args.seed0,
                         progress=lambda line: print(line, file=sys.stderr, flush=True))
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(format_summary(summary))
    return 0
