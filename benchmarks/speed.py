"""`bandu-sim bench` from the runner: every speed figure beside its reference in one run
(simulator/bench.py: each game's benchmark, Tanbo's playouts, then the physics). The same
command and the same options (--quick, --json); it stays in the program for its users.

    .venv/bin/python -m benchmarks speed --quick
"""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    from simulator import cli

    return cli.main(["bench", *(argv or [])])
