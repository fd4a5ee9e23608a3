"""A pytest plugin that runs the tests under one candidate of the tower_speed benchmark
(benchmarks/tower_speed.py).

    BANDU_CANDIDATE="iterations 25" .venv/bin/python -m pytest -p candidate_plugin \
        tests/test_physics.py -q -m "not slow"        # with tools/ on PYTHONPATH, from the checkout

The candidate's PhysicsSettings overrides become PhysicsSettings.chosen() (World() with no
settings uses it) and its monkeypatches are applied for the whole session; nothing is edited.
"""

from __future__ import annotations

import dataclasses
import os

from benchmarks import tower_speed as m
from simulator.towers.physics.world import PhysicsSettings

LABEL = os.environ.get("BANDU_CANDIDATE", "chosen")
_, OVERRIDES, PATCHES = next(c for c in m.CANDIDATES if c[0] == LABEL)
_CHOSEN = dataclasses.replace(PhysicsSettings(), **OVERRIDES)
PhysicsSettings.chosen = classmethod(lambda cls: _CHOSEN)
_context = m.patched(PATCHES)
_context.__enter__()


def pytest_report_header(config):
    return f"candidate: {LABEL} {OVERRIDES} {PATCHES}"
