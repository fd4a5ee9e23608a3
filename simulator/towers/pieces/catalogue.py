"""The 49 catalogue entries of the piece set (the base, six times, and 48 building pieces).

Each entry builds its shape as convex parts in millimetres, in the orientation its row of
the catalogue describes (flat bases face -z, round pieces have their axis along z, lengths run
along x). Where the origin ends up does not matter here: build.py moves every piece so that
its centre of mass is the origin. Parts never overlap, so volumes add up.

`Detail` sets how finely curves are cut: coarse for the collision parts (few vertices keep
contacts fast and stable), fine for the visual mesh.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from simulator.towers.pieces import geometry as g
from simulator.towers.pieces.materials import BEECH, GREEN_LACQUER, RED_LACQUER, Material


@dataclass(frozen=True)
class Detail:
    round_segments: int  # around an axis
    curve_steps: int  # along a curved profile
    dome_steps: int  # along a dome's quarter circle, from its rim to its crown
    cut_tolerance_mm: float  # how far a hole's or cut's straight edges may stray from its curve

    def cut_edges(self, radius: float, angle: float) -> int:
        """How many straight edges trace a cut of this radius turning through `angle` radians.

        Every edge is one convex part (a convex part can hold only one edge of a hole)."""
        step = 2 * math.acos(max(1 - self.cut_tolerance_mm / radius, -1.0))
        return max(1, math.ceil(angle / step - 1e-9))


# Two touching parts cost the solver up to four contact points, and the solver's time grows with
# the points, so holes and cuts are traced by as few edges (parts) as a 1.2 mm tolerance allows:
# 5 on the arch, 8 around the washer's hole. See docs/PHYSICS.md, "Contacts and speed".
COLLISION = Detail(round_segments=16, curve_steps=8, dome_steps=32, cut_tolerance_mm=1.2)
VISUAL = Detail(round_segments=64, curve_steps=40, dome_steps=40, cut_tolerance_mm=0.05)

Builder = Callable[[Detail], list[g.Part]]


@dataclass(frozen=True)
class Crown:
    """The top of a dome, or of the half cylinder's curve, in the builder's frame (mm): the
    collision shape makes it a small flat (geometry.sphere_profile), where a real dome has none;
    a load standing there is judged by the dome's curvature (physics/crowns.py)."""
    top_mm: tuple[float, float, float]    # the crown's highest point, the piece standing upright
    radius_mm: float                      # the dome's (or the cylinder's) radius of curvature
    cylinder_axis: tuple[float, float, float] | None = None   # the half cylinder's; None: a dome


@dataclass(frozen=True)
class PieceSpec:
    id: str
    name: str
    count: int
    material: Material
    nominal_size: str  # as the catalogue gives it (`bandu-sim pieces`)
    build: Builder
    convex: bool  # one hull is the exact shape
    sphere_radius_mm: float | None = None  # simulated as an exact sphere
    box_mm: tuple[float, float, float] | None = None  # a cuboid: simulated as an exact box
    # a plain cylinder (diameter, height), its axis along z: simulated as an exact cylinder
    cylinder_mm: tuple[float, float] | None = None
    crown: Crown | None = None  # a dome's top (or a curve's): judged by its curvature

    @property
    def rolls(self) -> bool:
        """Has a curved surface it can roll or spin on (gets rolling and spinning friction)."""
        return self.id in ROUND_IDS


# --- builders -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Cuboid:
    """A cuboid's builder; its size tells the catalogue to simulate it as an exact box."""
    box_mm: tuple[float, float, float]

    def __call__(self, d: Detail) -> list[g.Part]:
        return [g.centred_box(*self.box_mm)]


def _cuboid(sx: float, sy: float, sz: float) -> _Cuboid:
    return _Cuboid((sx, sy, sz))


@dataclass(frozen=True)
class _Cylinder:
    """A plain cylinder's builder; its size tells the catalogue to simulate it as an exact one
    where Bullet's own cylinder fits it (`exact`)."""
    cylinder_mm: tuple[float, float]     # diameter, height

    def __call__(self, d: Detail) -> list[g.Part]:
        return [g.cylinder(self.cylinder_mm[0], 0, self.cylinder_mm[1], d.round_segments)]

    @property
    def exact(self) -> bool:
        """At least as long as it is wide (the poles, the tall cylinder). A squat one lying on
        its side drives itself along a level face at the chosen time step (the wide cylinder,
        yawed 67 degrees on the table: 68 mm in 5 s at 4 substeps, 29 at 8, 0.1 at 16), so the
        wide cylinder and the disc stay 16-sided prisms (docs/PHYSICS.md)."""
        return self.cylinder_mm[1] >= self.cylinder_mm[0]


def _cylinder(diameter: float, height: float) -> _Cylinder:
    return _Cylinder((diameter, height))


def _cone(diameter: float, height: float) -> Builder:
    return lambda d: [g.frustum(diameter / 2, 0, 0, height, d.round_segments)]


def _pyramid_square(d: Detail) -> list[g.Part]:
    return [np.array([[-25, -25, 0], [25, -25, 0], [25, 25, 0], [-25, 25, 0], [0, 0, 40]], float)]


def _pyramid_triangle(d: Detail) -> list[g.Part]:
    side = 45.0
    r = side / math.sqrt(3)
    base = [(r * math.cos(a), r * math.sin(a), 0.0) for a in (math.pi / 2, math.pi / 2 + 2 * math.pi / 3,
                                                             math.pi / 2 + 4 * math.pi / 3)]
    return [np.array([*base, (0.0, 0.0, 35.0)])]


def _wedge(length: float, width: float, height: float) -> Builder:
    return lambda d: [g.extrude_xz([(0, 0), (length, 0), (0, height)], -width / 2, width / 2)]


def _prism_triangle(d: Detail) -> list[g.Part]:
    side = 35.0
    return [g.extrude_yz([(-side / 2, 0), (side / 2, 0), (0, side * math.sqrt(3) / 2)], -35, 35)]


def _prism_hexagon(d: Detail) -> list[g.Part]:
    r = 20 / math.cos(math.pi / 6)  # 40 across flats; a flat face at the bottom
    hexagon = [(r * math.cos(a), r * math.sin(a))
               for a in (math.pi / 6 + k * math.pi / 3 for k in range(6))]
    return [g.extrude_yz(hexagon, -20, 20)]


def _arch(d: Detail) -> list[g.Part]:
    # 90 x 45 in x-z, a half circle of radius 22 cut from the middle of the bottom edge
    outline = [(-45.0, 0.0), (45.0, 0.0), (45.0, 45.0), (-45.0, 45.0)]
    cut = g.arc((0.0, 0.0), 22.0, 22.0, 0.0, math.pi, d.cut_edges(22.0, math.pi))
    return [g.extrude_xz(p, -15, 15) for p in g.cut_by_convex_hole(outline, (0.0, 0.0), cut)]


def _cove(d: Detail) -> list[g.Part]:
    # 50 long, 30 deep, 50 high; a quarter circle of radius 35 centred on the top far edge
    outline = [(0.0, 0.0), (50.0, 0.0), (50.0, 50.0), (0.0, 50.0)]
    cut = g.arc((50.0, 50.0), 35.0, 35.0, math.pi, 1.5 * math.pi, d.cut_edges(35.0, math.pi / 2))
    return [g.extrude_xz(p, -15, 15) for p in g.cut_by_convex_hole(outline, (50.0, 50.0), cut)]


def _l_block(d: Detail) -> list[g.Part]:
    return [g.box(0, 20, -10, 10, 0, 60), g.box(20, 60, -10, 10, 0, 20)]


def _t_block(d: Detail) -> list[g.Part]:
    return [g.box(-10, 10, -10, 10, 0, 30), g.box(-30, 30, -10, 10, 30, 50)]


def _cross_flat(d: Detail) -> list[g.Part]:
    return [g.box(-30, 30, -10, 10, 0, 15), g.box(-10, 10, 10, 30, 0, 15),
            g.box(-10, 10, -30, -10, 0, 15)]


def _jack(d: Detail) -> list[g.Part]:
    h, a = 7.0, 25.0  # bars 14 square, 50 from tip to tip
    parts = [g.box(-h, h, -h, h, -h, h)]
    for axis in range(3):
        for sign in (-1, 1):
            lo, hi = sorted((sign * h, sign * a))
            bounds = [[-h, h], [-h, h], [-h, h]]
            bounds[axis] = [lo, hi]
            parts.append(g.box(*bounds[0], *bounds[1], *bounds[2]))
    return parts


def _egg_radius(length: float, diameter: float) -> Callable[[float], float]:
    """Two half-ellipsoids meeting at the widest circle: blunt end at z = 0, pointed end up."""
    blunt = 0.42 * length
    pointed = length - blunt
    r = diameter / 2

    def radius(z: float) -> float:
        u = (z - blunt) / (blunt if z < blunt else pointed)
        return r * math.sqrt(max(1.0 - u * u, 0.0))

    return radius


def _egg(d: Detail) -> list[g.Part]:
    return [g.revolve(g.sampled_profile(_egg_radius(55, 40), 0, 55, d.curve_steps * 2),
                      d.round_segments)]


def _half_egg(d: Detail) -> list[g.Part]:
    radius = _egg_radius(55, 40)
    points = []
    for y in np.linspace(0, 55, d.curve_steps * 2 + 1):
        r = radius(y)
        for k in range(d.round_segments // 2 + 1):
            a = math.pi * k / (d.round_segments // 2)
            points.append((r * math.cos(a), y, r * math.sin(a)))
    return [np.array(points)]


def _ball(d: Detail) -> list[g.Part]:
    return [g.revolve(g.sphere_profile(20, 0, 0, math.pi, d.curve_steps * 2), d.round_segments)]


def _hemisphere(d: Detail) -> list[g.Part]:
    return [g.revolve(g.sphere_profile(25, 0, math.pi / 2, math.pi, d.dome_steps),
                      d.round_segments)]


def _ring(d: Detail) -> list[g.Part]:
    # straight tube pieces: their outer rim strays from the circle by the cut tolerance
    return g.torus_segments(23, 7, d.cut_edges(30.0, 2 * math.pi), max(d.round_segments // 2, 12))


def _washer(d: Detail) -> list[g.Part]:
    sectors = d.cut_edges(12.5, 2 * math.pi)
    return g.annular_sectors(12.5, [(0.0, 25.0), (12.0, 25.0)], sectors,
                             math.ceil(d.round_segments / sectors))


def _egg_cup(d: Detail) -> list[g.Part]:
    n = d.round_segments
    foot = g.cylinder(35, 0, 6, n)
    stem = g.frustum(9, 7, 6, 16, n)
    bowl_radius = lambda z: 20.0 if z >= 30 else 12 + 8 * math.sin((z - 16) / 14 * math.pi / 2)  # noqa: E731
    bottom = g.revolve(g.sampled_profile(bowl_radius, 16, 25, max(d.curve_steps // 3, 3)), n)
    sectors = d.cut_edges(15.0, 2 * math.pi)
    walls = g.annular_sectors(15.0, [(z, bowl_radius(z)) for z in (25.0, 27.5, 30.0, 45.0)],
                              sectors, math.ceil(n / sectors))
    return [foot, stem, bottom, *walls]


def _doorknob(d: Detail) -> list[g.Part]:
    stem = g.cylinder(15, 0, 25, d.round_segments)
    cap = g.revolve(g.sphere_profile(22.5, 25, math.pi / 2, math.pi, d.dome_steps),
                    d.round_segments)
    return [stem, cap]


def _fir_tree(d: Detail) -> list[g.Part]:
    n = d.round_segments
    return [g.cylinder(15, 0, 12, n), g.frustum(27.5, 12, 12, 40, n), g.frustum(21, 9, 40, 64, n),
            g.frustum(15, 2, 64, 90, n)]  # a blunt top, as turned wood has


def _spool(d: Detail) -> list[g.Part]:
    n = d.round_segments
    return [g.cylinder(40, 0, 8, n), g.cylinder(20, 8, 38, n), g.cylinder(40, 38, 46, n)]


def _star(d: Detail) -> list[g.Part]:
    # the five tips are blunted to 3 mm flats, as on a turned wooden star (and so that a star
    # lying on two tips rests on faces rather than on the rounded points)
    outer, inner, flat = 30.0, 13.0, 1.5
    valleys = [(inner * math.cos(math.pi / 2 + math.pi / 5 + 2 * math.pi * k / 5),
                inner * math.sin(math.pi / 2 + math.pi / 5 + 2 * math.pi * k / 5)) for k in range(5)]
    parts = [g.extrude_xy(valleys, 0, 15)]
    for k in range(5):
        a = math.pi / 2 + 2 * math.pi * k / 5
        tip, side = (outer * math.cos(a), outer * math.sin(a)), (-math.sin(a), math.cos(a))
        tips = [(tip[0] - flat * side[0], tip[1] - flat * side[1]),
                (tip[0] + flat * side[0], tip[1] + flat * side[1])]
        parts.append(g.extrude_xy([valleys[k - 1], tips[0], tips[1], valleys[k]], 0, 15))
    return parts


def _crescent(d: Detail) -> list[g.Part]:
    # lying flat: 70 across (x), 35 high (y), 15 thick (z); a half disc less a half ellipse
    # that stops 4 mm short of each end, so that the horns are blunt
    outline = g.arc((0.0, 0.0), 35.0, 35.0, 0.0, math.pi, d.round_segments // 2)
    cut = g.arc((0.0, 0.0), 31.0, 20.0, 0.0, math.pi, d.cut_edges(31.0, math.pi))
    parts = [g.extrude_xz(p, 0, 15) for p in g.cut_by_convex_hole(outline, (0.0, 0.0), cut)]
    # drawn in x-z and extruded along y; turn them to lie flat (z <-> y)
    return [part[:, [0, 2, 1]] for part in parts]


def _column(d: Detail) -> list[g.Part]:
    return [g.box(-17.5, 17.5, -17.5, 17.5, 0, 10), g.cylinder(20, 10, 80, d.round_segments),
            g.box(-17.5, 17.5, -17.5, 17.5, 80, 90)]


def _stairs(d: Detail) -> list[g.Part]:
    return [g.box(0, 20, -15, 15, 0, 45), g.box(20, 40, -15, 15, 0, 30), g.box(40, 60, -15, 15, 0, 15)]


def _roof_block(d: Detail) -> list[g.Part]:
    return [g.extrude_yz([(-25, 0), (25, 0), (25, 30), (0, 50), (-25, 30)], -30, 30)]


def _channel(d: Detail) -> list[g.Part]:
    return [g.box(-30, 30, -20, 20, 0, 12), g.box(-30, 30, -20, -10, 12, 30),
            g.box(-30, 30, 10, 20, 12, 30)]


def _barrel(d: Detail) -> list[g.Part]:
    radius = lambda z: 12.5 + 5 * (1 - ((2 * z / 45) - 1) ** 2)  # noqa: E731
    return [g.revolve(g.sampled_profile(radius, 0, 45, d.curve_steps), d.round_segments)]


def _pin(d: Detail) -> list[g.Part]:
    n, steps = d.round_segments, d.curve_steps

    def body(z: float) -> float:  # widest (d 32) at z = 22
        return 16 * math.sqrt(max(1 - ((z - 22) / 30) ** 2, 0.0)) if z >= 0 else 0.0

    def head(z: float) -> float:  # d 20 at z = 66, closing at 80
        return 10 * math.sqrt(max(1 - ((z - 66) / 14) ** 2, 0.0))

    return [g.revolve(g.sampled_profile(body, 0, 44, steps), n),
            g.frustum(body(44), 6.5, 44, 55, n),
            g.revolve([(6.5, 55), *g.sampled_profile(head, 57.5, 80, steps)], n)]


def _diamond(d: Detail) -> list[g.Part]:
    return [np.array([[0, 0, 0], [-20, -20, 25], [20, -20, 25], [20, 20, 25], [-20, 20, 25],
                      [0, 0, 50]], float)]


def _half_cylinder(d: Detail) -> list[g.Part]:
    # the half circle in steps as fine as a dome's; its top is a narrow flat (half a step either
    # side) rather than a ridge, as a dome's crown is a disc rather than a vertex
    steps = 2 * d.dome_steps
    half_step = math.pi / steps / 2
    angles = [math.pi * k / steps for k in range(steps + 1) if 2 * k != steps]
    angles[steps // 2:steps // 2] = [math.pi / 2 - half_step, math.pi / 2 + half_step]
    half = [(25 * math.cos(a), 25 * math.sin(a)) for a in angles]
    return [g.extrude_yz(half, -30, 30)]


def _zigzag(d: Detail) -> list[g.Part]:
    third = 40 / 3
    return [g.box(20, 60, -10, 10, 0, third), g.box(10, 50, -10, 10, third, 2 * third),
            g.box(0, 40, -10, 10, 2 * third, 40)]


ROUND_IDS = frozenset({
    "pole-long", "pole-short", "cylinder-wide", "cylinder-tall", "disc", "cone-tall", "cone-small",
    "egg", "half-egg", "ball", "hemisphere", "ring", "washer", "egg-cup", "doorknob", "fir-tree",
    "spool", "column", "barrel", "pin", "diamond", "half-cylinder"})


# --- the catalogue --------------------------------------------------------------------------

def _entries() -> list[PieceSpec]:
    B, R, G = BEECH, RED_LACQUER, GREEN_LACQUER

    def p(id_: str, name: str, material: Material, size: str, build: Builder, convex: bool,
          count: int = 1, sphere: float | None = None, crown: Crown | None = None) -> PieceSpec:
        return PieceSpec(id_, name, count, material, size, build, convex, sphere,
                         build.box_mm if isinstance(build, _Cuboid) else None,
                         build.cylinder_mm if isinstance(build, _Cylinder) and build.exact else None,
                         crown)

    return [
        p("base", "base block", B, "100 x 50 x 25", _cuboid(100, 50, 25), True, count=6),
        p("ashlar-large", "large ashlar", B, "80 x 40 x 40", _cuboid(80, 40, 40), True),
        p("ashlar-medium", "medium ashlar", B, "60 x 30 x 30", _cuboid(60, 30, 30), True),
        p("ashlar-small", "small ashlar", B, "40 x 20 x 20", _cuboid(40, 20, 20), True),
        p("plank-long", "long plank", B, "120 x 30 x 10", _cuboid(120, 30, 10), True),
        p("plank-short", "short plank", B, "80 x 25 x 10", _cuboid(80, 25, 10), True),
        p("slab-square", "square slab", B, "60 x 60 x 12", _cuboid(60, 60, 12), True),
        p("cube-large", "large cube", B, "40", _cuboid(40, 40, 40), True),
        p("cube-small", "small cube", B, "25", _cuboid(25, 25, 25), True),
        p("pole-long", "long pole", B, "d 15, length 120", _cylinder(15, 120), True),
        p("pole-short", "short pole", B, "d 15, length 70", _cylinder(15, 70), True),
        p("cylinder-wide", "wide cylinder", B, "d 50, height 30", _cylinder(50, 30), True),
        p("cylinder-tall", "tall cylinder", B, "d 30, height 60", _cylinder(30, 60), True),
        p("disc", "disc", B, "d 60, height 10", _cylinder(60, 10), True),
        p("cone-tall", "tall cone", B, "base d 40, height 60", _cone(40, 60), True),
        p("cone-small", "small cone", G, "base d 30, height 35", _cone(30, 35), True),
        p("pyramid-square", "square pyramid", B, "base 50 x 50, height 40", _pyramid_square, True),
        p("pyramid-triangle", "triangular pyramid", B, "base side 45, height 35",
          _pyramid_triangle, True),
        p("wedge-ramp", "ramp wedge", B, "60 long, 40 wide, 30 high", _wedge(60, 40, 30), True),
        p("wedge-steep", "steep wedge", B, "40 long, 40 wide, 50 high", _wedge(40, 40, 50), True),
        p("prism-triangle", "triangular prism", B, "side 35, length 70", _prism_triangle, True),
        p("prism-hexagon", "hexagonal prism", B, "40 across flats, 40 long", _prism_hexagon, True),
        p("arch", "arch", B, "90 x 30 x 45, cut radius 22", _arch, False),
        p("cove", "cove", B, "50 x 30 x 50, cut radius 35", _cove, False),
        p("l-block", "L-block", B, "60 x 20 x 60, legs 20 thick", _l_block, False),
        p("t-block", "T-block", B, "60 wide, 20 deep, 50 high, stem 20", _t_block, False),
        p("cross-flat", "flat cross", B, "60 x 60 x 15, arms 20 wide", _cross_flat, False),
        p("jack", "jack", B, "50 per axis, bars 14 square", _jack, False),
        p("egg", "egg", R, "d 40, length 55", _egg, True),
        p("half-egg", "half egg", B, "40 x 55 x 20", _half_egg, True),
        p("ball", "ball", R, "d 40", _ball, True, sphere=20.0),
        p("hemisphere", "hemisphere", B, "d 50, height 25", _hemisphere, True,
          crown=Crown((0.0, 0.0, 25.0), 25.0)),
        p("ring", "ring", R, "outer d 60, tube d 14", _ring, False),
        p("washer", "washer", B, "outer d 50, hole d 25, 12 thick", _washer, False),
        p("egg-cup", "egg cup", B, "cup d 40 with d 30 x 20 hollow, foot d 35, height 45",
          _egg_cup, False),
        p("doorknob", "doorknob", R, "cap d 45, stem d 15 x 25", _doorknob, False,
          crown=Crown((0.0, 0.0, 47.5), 22.5)),
        p("fir-tree", "fir tree", G, "height 90, widest d 55, trunk d 15 x 12", _fir_tree, False),
        p("spool", "spool", R, "discs d 40 x 8, axle d 20 x 30", _spool, False),
        p("star", "star", B, "outer radius 30, inner 13, 15 thick", _star, False),
        p("crescent", "crescent", B, "70 wide, 35 high, 15 thick", _crescent, False),
        p("column", "column", B, "shaft d 20 x 70, caps 35 x 35 x 10", _column, False),
        p("stairs", "stairs", B, "60 long, 30 wide, 45 high", _stairs, False),
        p("roof-block", "roof block", B, "50 wide, 60 long, 50 high, walls 30", _roof_block, True),
        p("channel", "channel", B, "60 x 40 x 30, groove 20 wide 18 deep", _channel, False),
        p("barrel", "barrel", B, "d 35 middle, d 25 ends, length 45", _barrel, True),
        p("pin", "pin", B, "height 80, belly d 32, head d 20", _pin, False),
        p("diamond", "diamond", R, "40 wide, 50 high", _diamond, True),
        p("half-cylinder", "half cylinder", B, "radius 25, length 60", _half_cylinder, True,
          crown=Crown((0.0, 0.0, 25.0), 25.0, cylinder_axis=(1.0, 0.0, 0.0))),
        p("zigzag", "zigzag", B, "60 x 20 x 40", _zigzag, False),
    ]


CATALOGUE: tuple[PieceSpec, ...] = tuple(_entries())
BY_ID: dict[str, PieceSpec] = {spec.id: spec for spec in CATALOGUE}


def kind(piece: str) -> str:
    """The catalogue id of a piece in a game: the copies of a kind are `base`, `base#2` ..."""
    return piece.split("#", 1)[0]


def piece_name(piece: str) -> str:
    """What a person calls a piece of a game: 'wide cylinder' for `cylinder-wide`, 'base block 2'
    for `base#2`; an id the catalogue does not know is said as it is."""
    spec = BY_ID.get(kind(piece))
    if spec is None:
        return piece
    copy = piece.partition("#")[2]
    return f"{spec.name} {copy}" if copy else spec.name
