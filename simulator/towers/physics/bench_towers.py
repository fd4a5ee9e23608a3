"""The benchmark towers: five orders of pieces of different character and a short one, built by
the physics benchmarks (speed.py) and judged by the fidelity harness (fidelity.py)."""

from __future__ import annotations

TWENTY_MIXED = ("ashlar-large", "slab-square", "cylinder-wide", "plank-long", "cube-large", "disc",
                "arch", "ashlar-medium", "cross-flat", "plank-short", "cylinder-tall",
                "prism-hexagon", "ashlar-small", "washer", "stairs", "channel", "cube-small",
                "l-block", "hemisphere", "cone-small")
# 20 pieces, 567 mm: flat-topped pieces and five bases (the foundation is one), a dome on top
FLAT_FIVE_BASES = ("ashlar-large", "base", "cube-large", "slab-square", "cylinder-wide", "base",
                   "ashlar-medium", "prism-hexagon", "base", "cylinder-tall", "plank-long",
                   "ashlar-small", "base", "spool", "disc", "barrel", "cube-small", "plank-short",
                   "hemisphere")
# 11 pieces, 473 mm on a 40 mm cube: nothing wider than 46 mm, a 15 mm pole in the middle
TALL_NARROW = ("cylinder-tall", "cube-small", "barrel", "prism-hexagon", "spool", "pole-short",
               "ashlar-small", "egg-cup", "doorknob", "cone-small")
# 19 pieces, 403 mm: the many-part pieces (ring 12 parts, egg cup 11, washer 8, star and
# crescent 6, arch 5 ...) between bases
HOLES_AND_RINGS = ("arch", "slab-square", "ring", "base", "washer", "channel", "plank-long",
                   "cross-flat", "stairs", "base", "star", "egg-cup", "disc", "crescent",
                   "l-block", "t-block", "zigzag", "cove")
# 10 pieces, 315 mm on the wide cylinder; the ring slides down around the barrel onto the washer
ROUND = ("disc", "cylinder-tall", "washer", "barrel", "ring", "spool", "doorknob", "egg-cup",
         "hemisphere")
# name in the report: (foundation, placements in order, each by the default placement policy);
# column_20_bases has no round piece, so its physics has not changed since the figures of
# earlier machines (25.3x on the machine of docs/PHYSICS.md's first table): it says how fast
# this machine is
# --quick builds only this: the first eight pieces of the mixed tower (the converged reference
# takes minutes on the whole of it)
QUICK_TOWER = ("tower_8", ("base", TWENTY_MIXED[:8]))
BENCH_TOWERS = {"column_20_bases": ("base", ("base",) * 19),
                "tower_20": ("base", TWENTY_MIXED),
                "tower_flat_5_bases": ("base", FLAT_FIVE_BASES),
                "tower_tall_narrow": ("cube-large", TALL_NARROW),
                "tower_holes_rings": ("base", HOLES_AND_RINGS),
                "tower_round": ("cylinder-wide", ROUND)}
