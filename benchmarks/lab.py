"""The computer players' trials on a tall tower: the whole tower moving against only its top
pieces moving (the rest held still), same placements, same tremor draws.

    .venv/bin/python -m benchmarks lab                  # a 19-piece tower, the top 4 moving
    .venv/bin/python -m benchmarks lab --pieces 25 --moving 4 6

The tower is the one ai:strong builds in the solo game of seed 1000, played until it has
`--pieces` pieces besides the base. Six pieces are each released at 0, 12, 20 and 28 mm off the
tower's axis, twice, with the lab's tremor (1 mm, 1 degree). Prints, per lab, the wall time of
the 48 trials, their verdicts (S stood, f fell) and how many agree with the whole tower's.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simulator.core.controller import COMPUTER, Seat, TurnController
from simulator.games.bandu.rules import BanduState, Place
from simulator.games.bandu.tower_lab import TowerLab
from simulator.towers.physics.tremor import Tremor

PIECES = ("prism-hexagon", "cube-small", "ashlar-small", "half-cylinder", "ball", "cone-small")
OFFSETS_MM = (0.0, 12.0, 20.0, 28.0)


def solo_tower(pieces: int, seed: int) -> BanduState:
    controller = TurnController("bandu", {"variant": "solo"}, [Seat(COMPUTER, "ai:strong")], seed=seed)
    def now() -> BanduState:
        state = controller.state
        assert isinstance(state, BanduState)
        return state

    try:
        while len(now().towers[0]) < pieces + 1 and now().phase != "over":
            controller.play_computer_moves(limit=1)
        while now().phase not in ("offer", "over"):
            controller.play_computer_moves(limit=1)
        state = now().redacted(0)
    finally:
        controller.close()
    assert isinstance(state, BanduState)
    return state


def verdicts(state: BanduState, moving: int | None) -> tuple[float, str]:
    lab = TowerLab(state, 0, moving=moving)
    noise = np.random.default_rng(0)
    started = time.perf_counter()
    try:
        out = "".join("S" if lab.trial(Place(piece, dx, 0.0), Tremor(1.0, 1.0), noise).stood else "f"
                      for piece in PIECES for dx in OFFSETS_MM for _ in range(2))
    finally:
        lab.close()
    return time.perf_counter() - started, out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=18)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--moving", type=int, nargs="+", default=[4])
    args = parser.parse_args(argv)
    state = solo_tower(args.pieces, args.seed)
    print(f"tower of {len(state.towers[0])} pieces: {' '.join(state.towers[0])}")
    whole_seconds, whole = verdicts(state, None)
    print(f"whole tower moving   {whole_seconds:6.1f} s  {whole}")
    for moving in args.moving:
        seconds, out = verdicts(state, moving)
        agree = sum(a == b for a, b in zip(out, whole, strict=True))
        print(f"top {moving:<2} moving        {seconds:6.1f} s  {out}  agree {agree}/{len(out)}")
