"""Every measurement of the project, behind one runner (run from the checkout's root):

    .venv/bin/python -m benchmarks                  # the list: each name and what it measures
    .venv/bin/python -m benchmarks NAME [OPTIONS]   # run one; its options go to it
    .venv/bin/python -m benchmarks NAME --help      # its options

Each benchmark is a module of this package with `main(argv)`; BENCHMARKS names them all (a
module that is not listed there, nor in SHARED, fails tests/test_benchmarks.py). The package is
not shipped in the wheel: it is the checkout's lab, built on the installed `simulator` (which
never imports it). `speed` is `bandu-sim bench`, the user-facing speed check, run from here so
that this list has every measurement. docs/BENCHMARKS.md has each one's options and run time.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import NamedTuple

USAGE = "usage: python -m benchmarks [--list] | NAME [OPTIONS] (NAME --help: its options)"


class Benchmark(NamedTuple):
    what: str           # what it measures, one line
    takes: str          # about how long its default run takes on a 2-core machine


BENCHMARKS: dict[str, Benchmark] = {
    # the physics
    "speed": Benchmark("`bandu-sim bench`: Tanbo's playouts and the physics' verdicts a second "
                       "against their references", "minutes; --quick 15 s"),
    "fidelity": Benchmark("the chosen physics settings against a converged reference (the "
                          "fidelity harness)",
                          "about 50 min; --groups slope --random 0 --rungs 2: 9 s"),
    "crosscheck": Benchmark("random towers in PyBullet and in MuJoCo: do the engines agree?",
                            "20 towers about 15 s, 300 about 4 min"),
    "physics_settings": Benchmark("candidate physics settings on three 20-piece towers: "
                                  "verdict, drift, sway, real-time factors", "about 35 s"),
    "tower_speed": Benchmark("where a tower's build time goes (stats, profile, steps, counts) "
                             "and what candidate changes buy (sweep)",
                             "minutes per tower; counts of one tower: seconds"),
    "friction_angles": Benchmark("the slope at which a piece slides on a piece, per material "
                                 "pair, against atan(mu)", "about 10 s"),
    "landings": Benchmark("a piece released tilted on a slope just below the friction angle: "
                          "how far it slides, and the kinetic friction of a piece sliding on "
                          "another", "about 10 s"),
    "rolling": Benchmark("how the exact cylinders roll on their side: distance by slope, "
                         "acceleration against a solid cylinder's", "seconds"),
    "studies": Benchmark("orderings a stability study judges a minute on 1 worker, 2, and "
                         "2 through Ray", "under 1 min"),
    # the computer players' lab (Bandu)
    "lab": Benchmark("the lab's trials on a tall tower: the whole tower moving against only "
                     "its top pieces", "minutes: the tower is played first; --pieces 2: 3 s"),
    "lab_columns": Benchmark("one release from a saved game, in the lab four ways and under "
                             "the referee: which pieces to hold still", "1 to 2 min"),
    "lab_history": Benchmark("whether a lab trial depends on the trials run before it on the "
                             "same lab", "minutes: the tower is played first; --pieces 1: 3 s"),
    "lab_tremor": Benchmark("how often one release stands in the lab at two tremors, the "
                            "whole tower moving, and under the referee", "under 1 min"),
    # the computer players (win rates, think times)
    "bandu_ai": Benchmark("win rates and think times of Bandu's computer players, solo "
                          "record attempts", "minutes to hours, by --games and the levels"),
    "bandida": Benchmark("win rates of Bandida's computer team by player, mode and side",
                         "about 3 min"),
    "buddel_bande": Benchmark("win rates of Buddel Bande's computer players against random "
                              "players", "10 to 20 min with --workers 2"),
    "bunko": Benchmark("Bunko self-play nights a second, what a night holds, dice "
                       "frequencies, a night's length in the window", "seconds"),
    # the window and the library
    "bandu_fps": Benchmark("frames a second of the window: empty, the Bandu table, a "
                           "20-piece tower collapsing (needs a display)", "about 1 min"),
    "frame_rate": Benchmark("frames the window draws on a game screen while computer players "
                            "think, or while a hint is sought (needs a display)",
                            "seconds; --hint 30: minutes"),
    "opening": Benchmark("opening a saved Bandu game: time to its first frame, the "
                         "background check, the longest frame (needs a display)", "about 25 s"),
    "network": Benchmark("play across machines on the loopback: a move's latency to every "
                         "window, one host serving 8 joiners x 20 flat games, then Bandu tables "
                         "at once, with the host's CPU and memory", "about 2 min"),
    "library": Benchmark("judge() against its internal call and the command line; "
                         "environment steps a second", "under 1 min; --quick 8 s"),
}

#: modules of the package that are not benchmarks: code the benchmarks (and tests) share
SHARED = frozenset({"mujoco_models"})


def load(name: str) -> Callable[[list[str]], int | None]:
    """The `main` of benchmark `name` (KeyError when there is none)."""
    if name not in BENCHMARKS:
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name}").main


def listing() -> str:
    width = max(map(len, BENCHMARKS))
    return "\n".join(f"{name:<{width}}  {b.what} ({b.takes})" for name, b in BENCHMARKS.items())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("--list", "-l", "list"):
        print(listing())
        return 0
    if argv[0] in ("-h", "--help"):
        print(f"{USAGE}\n\n{listing()}")
        return 0
    name, rest = argv[0], argv[1:]
    try:
        run = load(name)
    except KeyError:
        print(f"benchmarks: no benchmark {name!r} (python -m benchmarks --list lists them)",
              file=sys.stderr)
        return 2
    saved, sys.argv = sys.argv, [f"benchmarks {name}", *rest]  # argparse's prog: "benchmarks NAME"
    try:
        return run(rest) or 0
    finally:
        sys.argv = saved
