"""The scenes tools/measure_bandu_fps.py measures are what it says: its 20-piece tower stands,
and the piece it releases on top makes the tower fall for real (most of its upper half comes
down in the physics), headless."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "measure_bandu_fps.py"


def _tool():
    spec = importlib.util.spec_from_file_location("measure_bandu_fps", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)        # its dataclasses look their module up
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


def test_measure_summary_counts_frames_per_second():
    tool = _tool()
    measure = tool.Measure("x", frames=30, seconds=2.0, frame_ms=[10.0] * 29 + [100.0], renders=2, render_ms=50.0)
    summary = measure.summary()
    assert summary["fps"] == 15.0 and summary["median_frame_ms"] == 10.0
    assert summary["longest_frame_ms"] == 100.0 and summary["mean_render_ms"] == 25.0


@pytest.mark.slow
def test_the_twenty_piece_tower_stands_and_the_knocker_brings_it_down():
    from simulator.core.controller import TurnController
    from simulator.core.outcomes import Timeline
    from simulator.games.bandu.referee import PhysicsReferee
    from simulator.games.bandu.rules import TAKE, BanduState, Offer, Place

    tool = _tool()
    save = tool.build_tower()                         # asserts that every placement stood
    state = TurnController.from_save_dict(save, verify=False).state
    assert isinstance(state, BanduState) and len(state.towers[0]) == 20
    piece, x_mm, y_mm, yaw = tool.KNOCKER
    state.apply(Offer(piece, TAKE))
    state.apply(Place(piece, x_mm, y_mm, yaw))
    referee, timeline = PhysicsReferee(), Timeline()
    try:
        outcome = referee.resolve(state, random.Random(0), timeline)
    finally:
        referee.close()
    assert outcome.fallen == (0,)
    frames = timeline.at(timeline.end)
    assert frames is not None
    last = frames[0]
    came_down = [p for p in state.towers[0] if last[p][2] * 1000 < state.poses[p][2] - tool.DROP_MM]
    assert len(came_down) >= 5, came_down


def test_the_lab_tremor_tool_builds_its_tower_and_counts_each_way(capsys, monkeypatch):
    """tools/measure_lab_tremor.py: the tower its figures in docs/PHYSICS.md stand on is built
    (a doorknob on seat 1's base), and each of the five ways reports releases that stood."""
    path = TOOL.parent / "measure_lab_tremor.py"
    spec = importlib.util.spec_from_file_location("measure_lab_tremor", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    monkeypatch.setattr(sys, "argv", ["measure_lab_tremor.py", "--trials", "2"])
    tool.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("seat 1's tower: base#2 doorknob;")
    assert len(lines) == 6 and all(line.rstrip().endswith("of 2") for line in lines[1:])
    with pytest.raises(SystemExit, match="not PIECE@X,Y"):
        tool.parse_place("doorknob-26")
