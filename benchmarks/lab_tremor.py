"""How often one release stands: in the computer players' lab at two hand tremors, with the
whole tower moving, at the referee's settings, and under the referee itself.

    .venv/bin/python -m benchmarks lab_tremor        # an ashlar beside a doorknob, 32 times
    .venv/bin/python -m benchmarks lab_tremor --tower doorknob@-26,0 hemisphere@24,0 \\
        --release washer@0,0 --trials 16

The tower is built on seat 1's base of a 4-player game by the referee, each piece where
`--tower` says (PIECE@X,Y[,YAW,ROLL,PITCH], mm and degrees over the tower's axis, as the game's
placements are given); then `--release` is tried `--trials` times in each way:
- the lab as the computer players use it (top 4 pieces moving, trial settings), shaken 1 mm /
  1 degree and 1.5 mm / 1.5 degrees;
- the lab with the whole tower moving, at the trial settings and at the chosen ones;
- the referee, judging the release shaken as the medium player's hand shakes (1.5 / 1.5).
Prints how many releases stood in each. The same seed gives the same figures.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from simulator.games.bandu.referee import PhysicsReferee
from simulator.games.bandu.rules import BanduState, Offer, Place, Respond, new_game
from simulator.games.bandu.tower_lab import LAB_MOVING, TowerLab
from simulator.towers.physics.tremor import Tremor
from simulator.towers.physics.world import PhysicsSettings

SEAT = 1
MEDIUM_HAND = Tremor(1.5, 1.5)


def parse_place(text: str) -> Place:
    try:
        piece, where = text.split("@")
        numbers = [float(v) for v in where.split(",")]
        x, y = numbers[:2]
        yaw, roll, pitch = ([*numbers[2:], 0.0, 0.0, 0.0])[:3]
    except ValueError:
        raise SystemExit(f"lab_tremor: {text!r} is not PIECE@X,Y[,YAW,ROLL,PITCH]") from None
    return Place(piece, x, y, yaw, roll, pitch)


def resolved(state: BanduState, referee: PhysicsReferee) -> None:
    state.apply(referee.resolve(state, random.Random(0)))


def tower_state(places: list[Place], release: str) -> BanduState:
    """Seat 1 takes every piece of `places` (offered to it "to refuse" by seat 0, then "to
    acquire" by itself with everyone passing) and places it; then it is offered `release`."""
    state = new_game(players=4)
    referee = PhysicsReferee()
    try:
        for n, place in enumerate(places):
            if n == 0:
                state.apply(Offer(place.piece, "refuse"))
                state.apply(Respond("accept"))
            else:
                state.apply(Offer(place.piece, "acquire"))
                while state.phase != "place":
                    state.apply(Respond("pass"))
            state.apply(place)
            resolved(state, referee)
            if not state.alive[SEAT]:
                raise SystemExit(f"lab_tremor: the tower fell at {place.piece}")
            while state.auctioneer != SEAT:                 # the others build too, each its own piece
                mine = {release, *(p.piece for p in places)}
                state.apply(Offer(next(p for p in state.reserve if p not in mine), "acquire"))
                while state.phase != "place":
                    state.apply(Respond("pass"))
                assert state.auction is not None
                state.apply(Place(state.auction.piece))
                resolved(state, referee)
    finally:
        referee.close()
    return state


def lab_stood(state: BanduState, place: Place, tremor: Tremor, trials: int, moving: int | None,
              settings: PhysicsSettings | None) -> int:
    lab = TowerLab(state, SEAT, settings, moving=moving)
    noise = np.random.default_rng(2)
    try:
        return sum(lab.trial(place, tremor, noise).stood for _ in range(trials))
    finally:
        lab.close()


def referee_stood(state: BanduState, place: Place, trials: int) -> int:
    noise = np.random.default_rng(5)
    stood = 0
    for _ in range(trials):
        dx, dy = noise.normal(0.0, MEDIUM_HAND.position_mm, size=2)
        turn = float(noise.normal(0.0, MEDIUM_HAND.angle_deg))
        shaken = Place(place.piece, place.x_mm + dx, place.y_mm + dy, place.yaw_deg + turn,
                       place.roll_deg, place.pitch_deg).rounded()
        trial = state.clone()
        trial.apply(shaken)
        referee = PhysicsReferee()
        try:
            resolved(trial, referee)
        finally:
            referee.close()
        stood += trial.alive[SEAT]
    return stood


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tower", nargs="+", default=["doorknob@-26,0"])
    parser.add_argument("--release", default="ashlar-medium@22,0")
    parser.add_argument("--trials", type=int, default=32)
    args = parser.parse_args(argv)
    places = [parse_place(text) for text in args.tower]
    release = parse_place(args.release)
    before = tower_state(places, release.piece)
    # the release's piece offered to seat 1 by the auctioneer on its right, and taken
    before.apply(Offer(release.piece, "refuse"))
    while before.auction is not None and before.phase != "place":
        before.apply(Respond("accept" if before.auction.responder == SEAT else "refuse"))
    print(f"seat {SEAT}'s tower: {' '.join(before.towers[SEAT])}; {args.trials} releases of {args.release}")
    rows = [("lab, top 4 moving, trial settings, 1 mm / 1 degree", lab_stood(before, release, Tremor(1.0, 1.0), args.trials, LAB_MOVING, None)),
            ("lab, top 4 moving, trial settings, 1.5 mm / 1.5 degrees", lab_stood(before, release, MEDIUM_HAND, args.trials, LAB_MOVING, None)),
            ("lab, whole tower moving, trial settings, 1.5 / 1.5", lab_stood(before, release, MEDIUM_HAND, args.trials, None, None)),
            ("lab, whole tower moving, chosen settings, 1.5 / 1.5", lab_stood(before, release, MEDIUM_HAND, args.trials, None, PhysicsSettings.chosen())),
            ("referee, each release shaken 1.5 mm / 1.5 degrees", referee_stood(before, release, args.trials))]
    for name, stood in rows:
        print(f"{name:58} stood {stood:2} of {args.trials}")
