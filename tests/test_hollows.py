"""Hollows of a tower's top (holes, cups, grooves, notches) and the computer players aiming at
them: height maps made by hand, then towers built in PyBullet and looked at with rays."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.games.bandu.ai import LEVELS, BanduAgent
from simulator.games.bandu.referee import release_over, tower_axes
from simulator.games.bandu.rules import new_game
from simulator.games.bandu.tower_lab import TowerLab
from simulator.towers.physics.height_map import tower_height_map
from simulator.towers.physics.hollows import find_hollows
from simulator.towers.physics.placement import most_stable_orientation
from simulator.towers.physics.world import World

STEP = 2.0
XS = np.arange(-40.0, 40.1, STEP)
YS = np.arange(-20.0, 20.1, STEP)


def _flat(height: float = 25.0) -> np.ndarray:
    """A flat top 80 x 40 mm with the table (NaN) all round it."""
    heights = np.full((len(XS), len(YS)), height)
    heights[[0, -1], :] = np.nan
    heights[:, [0, -1]] = np.nan
    return heights


def _region(x0: float, x1: float, y0: float, y1: float) -> tuple[np.ndarray, np.ndarray]:
    return np.ix_((x0 <= XS) & (x1 >= XS), (y0 <= YS) & (y1 >= YS))


def test_a_flat_top_and_a_step_have_no_hollow():
    assert find_hollows(_flat(), XS, YS) == []
    heights = _flat()
    heights[_region(0, 40, -20, 20)] = 45.0              # a step: closed on one side only
    assert find_hollows(heights, XS, YS) == []


def test_a_hole_is_found_at_its_centre_with_its_depth():
    heights = _flat()
    heights[_region(10, 18, -4, 4)] = 13.0               # 12 mm deep, off the middle
    [hole] = find_hollows(heights, XS, YS)
    assert hole.kind == "hole" and hole.depth_mm == pytest.approx(12.0)
    assert hole.x_mm == pytest.approx(14.0) and hole.y_mm == pytest.approx(0.0)


def test_a_groove_across_the_top_is_a_groove_and_a_shallow_one_is_ignored():
    heights = _flat()
    heights[_region(-26, -20, -20, 20)] = 10.0           # runs across, open at both of its ends
    [groove] = find_hollows(heights, XS, YS)
    assert groove.kind == "groove" and groove.x_mm == pytest.approx(-23.0) and groove.depth_mm == 15.0
    heights = _flat()
    heights[_region(-26, -20, -20, 20)] = 23.0           # 2 mm: below the 3 mm asked for
    assert find_hollows(heights, XS, YS) == []


def test_a_diagonal_groove_is_one_hollow_and_the_deepest_comes_first():
    heights = _flat()
    for n, x in enumerate(np.arange(-30.0, 31.0, STEP)):          # a groove at 45 degrees
        heights[_region(x - 1, x + 1, -20 + n * 1.3, -18 + n * 1.3)] = 15.0
    heights[_region(30, 34, 10, 14)] = 0.0               # a deeper hole elsewhere
    hollows = find_hollows(heights, XS, YS)
    assert [h.kind for h in hollows][:1] == ["hole"] and hollows[0].depth_mm == 25.0
    assert len([h for h in hollows if h.depth_mm == 10.0]) == 1


def test_the_edge_of_a_tower_beside_the_table_is_no_notch():
    heights = _flat()
    heights[_region(-40, -30, -20, 20)] = np.nan         # the table beyond a lower ledge ...
    heights[_region(-28, -20, -20, 20)] = 15.0           # ... is open on that side
    assert find_hollows(heights, XS, YS) == []


def stacked(parts: list[tuple[str, float]]) -> tuple[World, list[int]]:
    """Each piece released over the ones before it at x (mm), settled: a tower on the table."""
    world = World()
    bodies: list[int] = []
    for piece, x in parts:
        bodies.append(release_over(world, piece, (x / 1000, 0.0), most_stable_orientation(piece), bodies))
        world.settle(0.5)
    return world, bodies


@pytest.mark.parametrize(("parts", "hollow_x", "kind"), [
    ([("base", 0), ("washer", 22), ("cube-large", -30)], 22.0, "hole"),      # under a taller piece
    ([("base", 0), ("cube-large", -32), ("cube-large", 22)], -5.0, "groove"),  # the gap between two
    ([("base", 0), ("ring", 0)], 0.0, "hole"),
])
def test_rays_find_the_hollows_of_real_towers(parts, hollow_x, kind):
    world, bodies = stacked(parts)
    try:
        found = find_hollows(*tower_height_map(world, bodies, 3.0, 6.0))
        assert any(abs(h.x_mm - hollow_x) < 3 and abs(h.y_mm) < 3 and h.kind == kind for h in found), found
        assert not find_hollows(*tower_height_map(world, bodies[:1], 3.0, 6.0))   # the bare base has none
    finally:
        world.close()


def _staged(parts: list[tuple[str, float]], seat: int = 0):
    """A 2-player game whose seat's tower stands as built by `stacked` on that seat's axis."""
    state = new_game(players=2)
    axis = tower_axes(2)[seat]
    world, bodies = stacked([(piece, x + axis[0] * 1000) for piece, x in parts])
    names = []
    for (piece, _), body in zip(parts, bodies, strict=True):
        name = piece if piece not in names else f"{piece}#2"
        (x, y, z), q = world.pose(body)
        state.poses[name] = [x * 1000, y * 1000, z * 1000, *q]
        names.append(name)
    world.close()
    state.towers[seat] = names
    return state


def test_the_players_aim_at_a_hole_under_a_taller_piece_early_in_their_search():
    state = _staged([("base", 0), ("washer", 22), ("cube-large", -30)])
    lab = TowerLab(state, 0)
    try:
        aims = lab.aim_points_mm()
    finally:
        lab.close()
    assert aims[0] == (0.0, 0.0) and aims[1] == pytest.approx((-30.0, 0.0), abs=0.5)   # axis, top piece
    hole = next(a for a in aims if abs(a[0] - 22.0) < 3 and abs(a[1]) < 3)
    for level in ("medium", "strong"):
        agent = BanduAgent(LEVELS[level])
        places = agent.candidates("ball", aims)
        budget = LEVELS[level].budget // LEVELS[level].trials     # candidates a decision can try
        tried = [(p.x_mm, p.y_mm) for p in places[:budget]]
        assert any(abs(x - hole[0]) < 0.5 and abs(y - hole[1]) < 0.5 for x, y in tried), (level, tried)
    # a flat-topped tower offers the axis only
    state = _staged([("base", 0), ("cube-large", 0)])
    lab = TowerLab(state, 0)
    try:
        assert lab.aim_points_mm() == [(0.0, 0.0)]
    finally:
        lab.close()
