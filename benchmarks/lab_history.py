"""Is a computer player's trial a function of its inputs alone, or also of the trials run before
it on the same lab? Splitting a decision's trials over processes gives the same game only if it
is the former.

    .venv/bin/python -m benchmarks lab_history                 # a 13-piece tower
    .venv/bin/python -m benchmarks lab_history --pieces 18

The tower is the one ai:strong builds in the solo game of seed 1000, `--pieces` pieces besides
the base (benchmarks/lab.py's tower). Eight releases (pieces of the reserve on the tower's axis, each with its own seeded
tremor of 1 mm and 1 degree) are tried three ways on each lab (the top four pieces moving, and
the whole tower moving): one after another on one lab, the same in the reverse order, and each
on a lab of its own, newly built. Prints, per release, the verdict and how far the tower moved
each way, and how many releases gave the same result all three ways.
"""

from __future__ import annotations

import argparse

import numpy as np

from benchmarks.lab import solo_tower
from simulator.core.command_kit import bounded_int
from simulator.games.bandu.rules import BanduState, Place
from simulator.games.bandu.tower_lab import LAB_MOVING, TowerLab
from simulator.towers.physics.tremor import Tremor

RELEASES = 8
HAND = Tremor(1.0, 1.0)


def releases(state: BanduState, moving: int | None, pieces: list[str], order: list[int]) -> dict[int, tuple[bool, float]]:
    """Release n (piece n of `pieces`, tremor seed n) for each n of `order`, on one new lab."""
    lab = TowerLab(state, 0, moving=moving)
    try:
        found = {}
        for n in order:
            trial = lab.trial(Place(pieces[n % len(pieces)]), HAND, np.random.default_rng(n))
            found[n] = (trial.stood, trial.moved_mm)
        return found
    finally:
        lab.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pieces", type=bounded_int(1, 33), default=12,
                        help="pieces of the tower besides the base (default 12)")
    args = parser.parse_args(argv)
    state = solo_tower(args.pieces, 1000)
    if not state.alive[0]:
        raise SystemExit("the tower fell before it had that many pieces; ask for fewer")
    pieces = sorted(state.reserve)
    print(f"a tower of {len(state.towers[0])} pieces; releases of {', '.join(pieces[:RELEASES])}")
    for name, moving in (("top four moving", LAB_MOVING), ("whole tower moving", None)):
        order = list(range(RELEASES))
        forward = releases(state, moving, pieces, order)
        backward = releases(state, moving, pieces, order[::-1])
        alone = {n: releases(state, moving, pieces, [n])[n] for n in order}
        print(f"\n{name}: release, then (stood, moved mm) in order / in reverse order / on a new lab")
        for n in order:
            row = " / ".join(f"({'S' if r[n][0] else 'f'}, {r[n][1]:.4f})" for r in (forward, backward, alone))
            print(f"  {n}  {row}")
        same = sum(forward[n] == backward[n] == alone[n] for n in order)
        verdicts = sum(forward[n][0] == backward[n][0] == alone[n][0] for n in order)
        print(f"  the same all three ways: {same} of {RELEASES} results, {verdicts} of {RELEASES} verdicts")
