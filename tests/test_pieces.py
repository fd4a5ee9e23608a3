"""The catalogue and its meshes: ids, counts, masses, holes that stay open, fresh assets."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from simulator.towers.pieces.build import (
    assets_dir,
    build_piece,
    exact_parts,
    generate_files,
    load_piece,
)
from simulator.towers.pieces.catalogue import BY_ID, CATALOGUE, COLLISION

PIECES_MD_IDS = ["base", "ashlar-large", "ashlar-medium", "ashlar-small", "plank-long", "plank-short", "slab-square", "cube-large", "cube-small", "pole-long", "pole-short", "cylinder-wide", "cylinder-tall", "disc", "cone-tall", "cone-small", "pyramid-square", "pyramid-triangle", "wedge-ramp", "wedge-steep", "prism-triangle", "prism-hexagon", "arch", "cove", "l-block", "t-block", "cross-flat", "jack", "egg", "half-egg", "ball", "hemisphere", "ring", "washer", "egg-cup", "doorknob", "fir-tree", "spool", "star", "crescent", "column", "stairs", "roof-block", "channel", "barrel", "pin", "diamond", "half-cylinder", "zigzag"]


def test_catalogue_has_every_id_of_pieces_md_in_order_and_54_pieces():
    assert [spec.id for spec in CATALOGUE] == PIECES_MD_IDS
    assert sum(spec.count for spec in CATALOGUE) == 54
    assert BY_ID["base"].count == 6


def test_materials_follow_pieces_md():
    red = {"egg", "ball", "ring", "doorknob", "spool", "diamond"}
    green = {"fir-tree", "cone-small"}
    for spec in CATALOGUE:
        expected = "red lacquer" if spec.id in red else "green lacquer" if spec.id in green else "beech"
        assert spec.material.name == expected, spec.id
        assert spec.material.density == 700
    assert BY_ID["egg"].material.friction < BY_ID["base"].material.friction


@pytest.mark.parametrize(("piece", "grams"), [("cube-large", 44.8), ("base", 87.5),
                                          ("ball", 4 / 3 * math.pi * 20**3 * 700e-6)])
def test_mass_comes_from_volume_and_density(piece, grams):
    assert load_piece(piece).mass_kg * 1000 == pytest.approx(grams, rel=0.005)


def test_sizes_match_the_catalogue_rows():
    expected = {"base": (100, 50, 25), "plank-long": (120, 30, 10), "pole-long": (15, 15, 120),
                "arch": (90, 30, 45), "ring": (60, 60, 14), "fir-tree": (55, 55, 90),
                "egg": (40, 40, 55), "stairs": (60, 30, 45), "zigzag": (60, 20, 40)}
    for piece, size in expected.items():
        assert load_piece(piece).size_mm == pytest.approx(size, abs=0.3), piece


@pytest.mark.parametrize("spec", CATALOGUE, ids=lambda s: s.id)
def test_parts_fill_the_shape_without_overlap(spec):
    """The collision parts' volumes add up to the visual solid's (within what the coarser
    curves lose, up to 8 % for the ring of 12 straight tube pieces), so parts neither overlap
    nor leave pieces out; convex rows are one part."""
    built = build_piece(spec)
    parts_volume = sum(ConvexHull(p).volume for p in built.parts)
    assert parts_volume == pytest.approx(built.volume_m3, rel=0.085)
    assert (len(built.parts) == 1) == spec.convex


def _inside_any_part(piece: str, points: np.ndarray) -> np.ndarray:
    inside = np.zeros(len(points), bool)
    for part in exact_parts(piece):
        equations = ConvexHull(part).equations
        inside |= np.all(points @ equations[:, :3].T + equations[:, 3] < -1e-6, axis=1)
    return inside


def _cylinder_points(radius: float, z0: float, z1: float, com_mm) -> np.ndarray:
    angles = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    zs = np.linspace(z0, z1, 40)
    points = [(radius * math.cos(a), radius * math.sin(a), z) for a in angles for z in zs]
    points += [(0.0, 0.0, z) for z in zs]
    return (np.array(points) - np.array(com_mm)) / 1000.0


@pytest.mark.parametrize(("piece", "radius", "z0", "z1"), [
    ("ring", 7.6, -10, 20),      # a pole of d 15 threads through the ring
    ("washer", 7.6, -5, 20),
    ("egg-cup", 13.5, 26, 44),   # the d 30 hollow stays hollow (to the 1.2 mm cut tolerance)
])
def test_holes_stay_open(piece, radius, z0, z1):
    com = load_piece(piece).facts["build_frame_com_mm"]
    assert not _inside_any_part(piece, _cylinder_points(radius, z0, z1, com)).any()


def test_arch_opening_and_channel_groove_stay_open():
    arch_com = load_piece("arch").facts["build_frame_com_mm"]
    under_arch = np.array([(x, y, z) for x in np.linspace(-20, 20, 9) for y in (-14, 0, 14)
                           for z in np.linspace(0.5, 20, 8) if x * x + z * z < 20.5**2])
    assert not _inside_any_part("arch", (under_arch - arch_com) / 1000).any()
    channel_com = load_piece("channel").facts["build_frame_com_mm"]
    groove = np.array([(x, y, z) for x in np.linspace(-29, 29, 7) for y in np.linspace(-9.5, 9.5, 5)
                       for z in np.linspace(12.5, 29.5, 5)])
    assert not _inside_any_part("channel", (groove - channel_com) / 1000).any()
    # and a point in the solid part of each is inside, so the check can fail
    assert _inside_any_part("arch", (np.array([[-40.0, 0, 20]]) - arch_com) / 1000).all()


def test_committed_meshes_are_up_to_date_with_the_catalogue():
    stale = [name for name, text in generate_files().items()
             if not (assets_dir() / name).exists() or (assets_dir() / name).read_text() != text]
    assert not stale, f"run `bandu-sim build-meshes`: out of date: {stale[:5]}"


def test_installed_package_finds_the_meshes_from_anywhere(tmp_path):
    code = ("from simulator.towers.pieces.build import assets_dir, load_piece;"
            "print(load_piece('arch').collision_path.exists(), assets_dir().name)")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                            text=True, check=True)
    assert result.stdout.split() == ["True", "meshes"]


def test_collision_files_hold_one_object_per_part_with_normals_in_visuals():
    arch = load_piece("arch")
    objects = [line for line in arch.collision_path.read_text().splitlines() if line.startswith("o ")]
    assert len(objects) == len(BY_ID["arch"].build(COLLISION)) == arch.facts["convex_parts"]
    visual = arch.visual_path.read_text().splitlines()
    assert sum(line.startswith("vn ") for line in visual) == sum(line.startswith("v ") for line in visual)


def test_pieces_command_json():
    result = subprocess.run([sys.executable, "-m", "simulator", "pieces", "--json"],
                            capture_output=True, text=True, check=True)
    rows = json.loads(result.stdout)["pieces"]
    assert [r["id"] for r in rows] == PIECES_MD_IDS
    assert set(rows[0]) == {"id", "name", "count", "material", "size_mm", "mass_g", "convex_parts"}
    assert rows[PIECES_MD_IDS.index("ring")]["convex_parts"] > 8


def test_pieces_are_called_by_their_names_copies_by_number():
    from simulator.towers.pieces.catalogue import kind, piece_name

    assert piece_name("cylinder-wide") == "wide cylinder" and piece_name("base") == "base block"
    assert piece_name("base#2") == "base block 2" and kind("base#2") == "base"
    assert piece_name("no-such-piece") == "no-such-piece"
