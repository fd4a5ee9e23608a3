"""Which pieces the computer players' lab should hold still: one release from a saved game,
tried in the lab four ways and under the referee.

    .venv/bin/python -m benchmarks lab_columns benchmarks/lab_cases/cove-off-the-short-stack.json \\
        --release cove@76.1,-2.6
    .venv/bin/python -m benchmarks lab_columns benchmarks/lab_cases/t-block-off-the-axis.json \\
        --release t-block@52,24.7
    .venv/bin/python -m benchmarks lab_columns benchmarks/lab_cases/pole-on-a-tall-stack.json \\
        --release pole-long@-38.4,12.7

Each case is a game save (ai:strong against three ai:easy players) stopped where seat 0 must
place a piece; `--release` is where ai:strong meant to put it (PIECE@X,Y[,YAW,ROLL,PITCH], mm
and degrees over the tower's axis). The release is tried `--releases` times each way:
- the lab with the four highest pieces moving, the rest held still (the rule before columns);
- the lab as the players use it: the top four of every column moving (ai.column_tops);
- the lab with every piece moving;
each shaken with the lab's tremor (1 mm / 1 degree); and the referee, each release shaken as
the strong player's hand (0.5 mm / 0.5 degrees). Prints how many releases stood in each.
"""

from __future__ import annotations

import argparse
import copy
import random
from pathlib import Path

import numpy as np

from benchmarks.lab_tremor import parse_place
from simulator.core.controller import TurnController
from simulator.games.bandu.ai import LEVELS
from simulator.games.bandu.referee import PhysicsReferee
from simulator.games.bandu.rules import BanduState, Place
from simulator.games.bandu.tower_lab import LAB_MOVING, TowerLab

STRONG = LEVELS["strong"]


def highest_four_lab(state: BanduState, seat: int) -> TowerLab:
    """The lab as it was before columns: every piece but the LAB_MOVING highest held still."""
    lab = TowerLab(state, seat, moving=None)
    by_height = sorted(lab.tower, key=lambda b: lab.world.lowest_and_highest(b)[1])
    for body in by_height[:-LAB_MOVING]:
        lab.world.hold_still(body)
    lab.moving = by_height[-LAB_MOVING:]
    lab.snapshot = lab.world.save_state()
    return lab


def lab_stood(lab: TowerLab, release: Place, releases: int, seed: int) -> int:
    noise = np.random.default_rng(seed)
    try:
        return sum(lab.trial(release, STRONG.lab_hand, noise).stood for _ in range(releases))
    finally:
        lab.close()


def referee_stood(state: BanduState, seat: int, release: Place, releases: int, seed: int) -> int:
    hand, stood = STRONG.hand, 0
    for n in range(releases):
        noise = np.random.default_rng(seed + n)
        dx, dy = noise.normal(0.0, hand.position_mm, size=2)
        turn = float(noise.normal(0.0, hand.angle_deg))
        shaken = Place(release.piece, release.x_mm + float(dx), release.y_mm + float(dy),
                       release.yaw_deg + turn, release.roll_deg, release.pitch_deg).rounded()
        after = copy.deepcopy(state)
        after.apply(shaken)
        referee = PhysicsReferee()
        try:
            stood += seat not in referee.resolve(after, random.Random(0)).fallen
        finally:
            referee.close()
    return stood


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("save", type=Path)
    parser.add_argument("--release", required=True, type=parse_place)
    parser.add_argument("--releases", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    controller = TurnController.load(args.save)
    state = controller.state
    controller.close()
    if not isinstance(state, BanduState) or state.phase != "place" or state.auction is None:
        raise SystemExit(f"lab_columns: {args.save} is not a Bandu game waiting for a placement")
    seat, release = state.placer, args.release
    if release.piece != state.auction.piece:
        raise SystemExit(f"lab_columns: the piece to place is {state.auction.piece}, not {release.piece}")
    n = args.releases
    print(f"{release.piece} on seat {seat}'s tower of {len(state.towers[seat])} pieces, {n} releases each:")
    rows = [("the four highest moving", lambda: lab_stood(highest_four_lab(state, seat), release, n, args.seed)),
            ("the top four of each column moving", lambda: lab_stood(TowerLab(state, seat, moving=LAB_MOVING),
                                                                      release, n, args.seed)),
            ("every piece moving", lambda: lab_stood(TowerLab(state, seat, moving=None), release, n, args.seed)),
            ("the referee, the strong hand's tremor", lambda: referee_stood(state, seat, release, n, args.seed))]
    for label, stood in rows:
        print(f"  {label}: stood {stood()} of {n}", flush=True)
