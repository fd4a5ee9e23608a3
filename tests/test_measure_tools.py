"""The scenes the bandu_fps benchmark (benchmarks/bandu_fps.py) measures are what it says: its 20-piece tower stands,
and the piece it releases on top makes the tower fall for real (most of its upper half comes
down in the physics), headless."""

from __future__ import annotations

import random

import pytest

from benchmarks import bandu_fps, lab_tremor


def test_measure_summary_counts_frames_per_second():
    measure = bandu_fps.Measure("x", frames=30, seconds=2.0, frame_ms=[10.0] * 29 + [100.0], renders=2, render_ms=50.0)
    summary = measure.summary()
    assert summary["fps"] == 15.0 and summary["median_frame_ms"] == 10.0
    assert summary["longest_frame_ms"] == 100.0 and summary["mean_render_ms"] == 25.0


@pytest.mark.slow
def test_the_twenty_piece_tower_stands_and_the_knocker_brings_it_down():
    from simulator.core.controller import TurnController
    from simulator.core.outcomes import Timeline
    from simulator.games.bandu.referee import PhysicsReferee
    from simulator.games.bandu.rules import TAKE, BanduState, Offer, Place

    save = bandu_fps.build_tower()                         # asserts that every placement stood
    state = TurnController.from_save_dict(save, verify=False).state
    assert isinstance(state, BanduState) and len(state.towers[0]) == 20
    piece, x_mm, y_mm, yaw = bandu_fps.KNOCKER
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
    came_down = [p for p in state.towers[0] if last[p][2] * 1000 < state.poses[p][2] - bandu_fps.DROP_MM]
    assert len(came_down) >= 5, came_down


def test_the_lab_tremor_tool_builds_its_tower_and_counts_each_way(capsys):
    """The lab_tremor benchmark: the tower its figures in docs/PHYSICS.md stand on is built
    (a doorknob on seat 1's base), and each of the five ways reports releases that stood."""
    lab_tremor.main(["--trials", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("seat 1's tower: base#2 doorknob;")
    assert len(lines) == 6 and all(line.rstrip().endswith("of 2") for line in lines[1:])
    with pytest.raises(SystemExit, match="not PIECE@X,Y"):
        lab_tremor.parse_place("doorknob-26")
