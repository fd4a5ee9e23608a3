"""From catalogue entries to meshes: visual mesh, collision parts, mass and inertia.

`build_piece(spec)` does the geometry (deterministic); `write_assets(dir)` writes what
`bandu-sim build-meshes` commits under assets/meshes (at the top of the repository; a wheel ships
them as simulator/assets/meshes, see `assets_dir`); `load_piece(id)` reads it back for the
physics and the renderer. Files are in metres (SI inside, docs/ARCHITECTURE.md):

- `<id>.obj`: the visual mesh, positions and normals, smooth where the surface is curved and
  split at sharp edges (30 degrees).
- `<id>.collision.obj`: one object per convex part, ready for PyBullet: each hull is inset by
  Bullet's collision margin, which Bullet adds back around the hull (docs/PHYSICS.md).
- `catalogue.json`: per piece its facts (mass, inertia, size, material, parts) and the
  generator's version, so the test for stale assets can say what changed.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import cast

import numpy as np
import trimesh
from scipy.optimize import linprog
from scipy.spatial import ConvexHull, HalfspaceIntersection

from simulator.core.errors import AssetError
from simulator.progress import Progress
from simulator.towers.pieces.catalogue import BY_ID, CATALOGUE, COLLISION, VISUAL, PieceSpec
from simulator.towers.pieces.geometry import vec3

GENERATOR_VERSION = 1
COLLISION_MARGIN_M = 0.001  # what PyBullet puts around every convex hull
SMOOTH_ANGLE_DEG = 30.0
_DECIMALS = 7  # 0.1 micrometre


@dataclass
class BuiltPiece:
    spec: PieceSpec
    visual: trimesh.Trimesh  # metres, centre of mass at the origin, smooth-shaded
    parts: list[np.ndarray]  # exact collision parts (metres, centre of mass frame)
    physics_parts: list[np.ndarray]  # the same, inset by the collision margin
    volume_m3: float
    mass_kg: float
    inertia_kg_m2: np.ndarray  # 3x3 about the centre of mass, piece axes
    size_mm: tuple[float, float, float]
    build_frame_com_mm: tuple[float, float, float]  # where the catalogue's builder put the COM

    def facts(self) -> dict:
        return {
            "name": self.spec.name,
            "count": self.spec.count,
            "material": self.spec.material.name,
            "nominal_size": self.spec.nominal_size,
            "size_mm": [round(v, 1) for v in self.size_mm],
            "volume_cm3": round(self.volume_m3 * 1e6, 3),
            "mass_g": round(self.mass_kg * 1e3, 2),
            "inertia_kg_m2": [[float(f"{v:.6e}") for v in row] for row in self.inertia_kg_m2],
            "convex_parts": len(self.parts),
            "convex": self.spec.convex,
            "sphere_radius_mm": self.spec.sphere_radius_mm,
            "grain_axis": "xyz"[int(np.argmax(self.size_mm))],
            "visual_vertices": len(self.visual.vertices),
            "build_frame_com_mm": [round(v, 4) for v in self.build_frame_com_mm],
        }


def _hull(points: np.ndarray) -> trimesh.Trimesh:
    hull = ConvexHull(points)
    faces = hull.simplices.copy()
    a, b, c = (points[faces[:, k]] for k in range(3))
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), hull.equations[:, :3]) < 0
    faces[inward] = faces[inward][:, ::-1]  # wind every triangle counter-clockwise from outside
    return trimesh.Trimesh(points, faces, process=True)


def _sphere_mass(radius_m: float, density: float) -> tuple[float, float, np.ndarray]:
    volume = 4 / 3 * math.pi * radius_m**3
    mass = volume * density
    return volume, mass, np.eye(3) * (0.4 * mass * radius_m**2)


def inset_hull(points: np.ndarray, margin: float) -> np.ndarray:
    """The hull moved inward by `margin` on every face (by less where the part is thin).

    Bullet rounds a hull by its collision margin on every side, so the inset hull collides like
    the exact part with edges rounded by the margin. A part whose largest inscribed ball is
    smaller than the margin is inset by 80 % of that ball's radius instead.
    """
    hull = ConvexHull(points)
    equations = np.unique(np.round(hull.equations, 12), axis=0)
    normals, offsets = equations[:, :3], equations[:, 3]
    # Chebyshev centre: maximise r such that n.x + d + r <= 0 for every face
    norms = np.linalg.norm(normals, axis=1)
    result = linprog([0, 0, 0, -1], A_ub=np.column_stack([normals, norms]), b_ub=-offsets,
                     bounds=[(None, None)] * 3 + [(0, None)], method="highs")
    centre, inscribed = result.x[:3], result.x[3]
    margin = min(margin, 0.8 * inscribed)
    shifted = np.column_stack([normals, offsets + margin])
    inset = HalfspaceIntersection(shifted, centre).intersections
    return np.unique(np.round(inset, 9), axis=0)


def build_piece(spec: PieceSpec) -> BuiltPiece:
    density = spec.material.density
    fine = [_hull(np.asarray(p, float) / 1000.0) for p in spec.build(VISUAL)]
    # trimesh types concatenate's result as any Geometry; meshes concatenate to a mesh
    solid = cast(trimesh.Trimesh, trimesh.util.concatenate(fine))
    if spec.sphere_radius_mm:
        volume, mass, inertia = _sphere_mass(spec.sphere_radius_mm / 1000.0, density)
        com = solid.bounds.mean(axis=0)
    else:
        solid.density = density
        volume, mass = float(solid.volume), float(solid.mass)
        com = np.asarray(solid.center_mass)
        inertia = np.asarray(solid.moment_inertia)
    solid.apply_translation(-com)
    visual = trimesh.graph.smooth_shade(solid, angle=math.radians(SMOOTH_ANGLE_DEG),
                                        facet_minarea=None)
    parts = [part[ConvexHull(part).vertices] / 1000.0 - com for part in
             (np.asarray(p, float) for p in spec.build(COLLISION))]
    physics_parts = [inset_hull(part, COLLISION_MARGIN_M) for part in parts]
    extents = solid.bounds[1] - solid.bounds[0]
    return BuiltPiece(spec, visual, parts, physics_parts, volume, mass, inertia,
                      vec3(round(float(v) * 1000, 3) for v in extents),
                      vec3(float(v) * 1000 for v in com))


# --- files ----------------------------------------------------------------------------------

def _fmt(values) -> str:
    # adding 0.0 turns the -0.0 of a rounded tiny negative into 0.0
    return " ".join(f"{round(float(v), _DECIMALS) + 0.0:.{_DECIMALS}f}" for v in values)


def visual_obj(piece: BuiltPiece) -> str:
    mesh = piece.visual
    lines = [f"# {piece.spec.id}: visual mesh (metres, origin at the centre of mass)",
             f"o {piece.spec.id}"]
    lines += [f"v {_fmt(v)}" for v in mesh.vertices]
    lines += [f"vn {_fmt(n)}" for n in mesh.vertex_normals.round(5)]
    lines += [f"f {a + 1}//{a + 1} {b + 1}//{b + 1} {c + 1}//{c + 1}" for a, b, c in _canonical_faces(mesh.faces)]
    return "\n".join(lines) + "\n"


def _canonical_faces(faces: np.ndarray) -> list[tuple[int, int, int]]:
    """The triangles in an order that depends only on the mesh, not on the library versions
    that built it: each turned (winding kept) to start at its lowest vertex, then sorted."""
    turned = []
    for face in faces.tolist():
        first = face.index(min(face))
        turned.append(tuple(face[first:] + face[:first]))
    return sorted(turned)


def collision_obj(piece: BuiltPiece) -> str:
    lines = [f"# {piece.spec.id}: {len(piece.physics_parts)} convex collision parts (metres),",
             f"# each inset by the {COLLISION_MARGIN_M * 1000:g} mm collision margin Bullet adds back"]
    base = 1
    for index, part in enumerate(piece.physics_parts):
        hull = _hull(part)
        lines.append(f"o part{index}")
        lines += [f"v {_fmt(v)}" for v in hull.vertices]
        lines += [f"f {a + base} {b + base} {c + base}" for a, b, c in hull.faces]
        base += len(hull.vertices)
    return "\n".join(lines) + "\n"


def generate_files(progress: Progress | None = None) -> dict[str, str]:
    """Every asset file's name and text, in catalogue order."""
    files: dict[str, str] = {}
    facts = {}
    for index, spec in enumerate(CATALOGUE):
        if progress:
            progress(index, len(CATALOGUE), spec.id)
        piece = build_piece(spec)
        files[f"{spec.id}.obj"] = visual_obj(piece)
        files[f"{spec.id}.collision.obj"] = collision_obj(piece)
        facts[spec.id] = piece.facts()
    if progress:
        progress(len(CATALOGUE), len(CATALOGUE), "done")
    files["catalogue.json"] = json.dumps(
        {"generator_version": GENERATOR_VERSION, "collision_margin_m": COLLISION_MARGIN_M,
         "pieces": facts}, indent=1) + "\n"
    return files


def mesh_locations() -> tuple[Path, Path]:
    """Where the meshes may be, in the order they are looked for: inside the package (an
    installed wheel ships them as simulator/assets/meshes), then the repository's assets/meshes
    beside the package (a checkout or an editable install)."""
    package = Path(str(resources.files("simulator")))
    return package / "assets" / "meshes", package.parent / "assets" / "meshes"


def assets_dir() -> Path:
    """Where the meshes are: the first of `mesh_locations()` that holds catalogue.json."""
    places = mesh_locations()
    for place in places:
        if (place / "catalogue.json").is_file():
            return place
    raise AssetError(f"the piece meshes are missing: no catalogue.json in {places[0]} nor in "
                     f"{places[1]}; run `bandu-sim build-meshes`")


def _write_dir() -> Path:
    """Where `build-meshes` writes: over the meshes found, else the repository's assets/meshes
    in a checkout (pyproject.toml beside it), else inside the installed package."""
    try:
        return assets_dir()
    except AssetError:
        package, checkout = mesh_locations()
        return checkout if (checkout.parent.parent / "pyproject.toml").is_file() else package


def write_assets(directory: Path | None = None, progress: Progress | None = None) -> list[Path]:
    directory = directory or _write_dir()
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in generate_files(progress).items():
        path = directory / name
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(path)
        written.append(path)
    forget_catalogue()
    return written


# --- reading back ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PieceAsset:
    """What the physics and the renderer need of a piece, read from the committed assets."""
    id: str
    spec: PieceSpec
    collision_path: Path
    visual_path: Path
    mass_kg: float
    inertia_kg_m2: tuple[tuple[float, float, float], ...]
    size_mm: tuple[float, float, float]
    facts: dict


@cache
def _catalogue_facts() -> dict:
    path = assets_dir() / "catalogue.json"
    rebuild = "run `bandu-sim build-meshes`"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AssetError(f"{path}: the piece catalogue is missing; {rebuild}") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise AssetError(f"{path}: the piece catalogue cannot be read "
                         f"({getattr(error, 'strerror', None) or type(error).__name__}); {rebuild}") from None
    if not isinstance(data, dict) or not isinstance(data.get("pieces"), dict):
        raise AssetError(f"{path}: the piece catalogue is damaged (no 'pieces' table); {rebuild}")
    return data


def forget_catalogue() -> None:
    """Read the catalogue again at its next use (it was rewritten, or its place changed)."""
    _catalogue_facts.cache_clear()


def load_piece(piece_id: str) -> PieceAsset:
    base_id = piece_id.split("#", 1)[0]
    spec = BY_ID[base_id]
    directory = assets_dir()
    try:
        facts = _catalogue_facts()["pieces"][base_id]
        return PieceAsset(base_id, spec, directory / f"{base_id}.collision.obj",
                          directory / f"{base_id}.obj", facts["mass_g"] / 1000.0,
                          tuple(vec3(row) for row in facts["inertia_kg_m2"]),
                          vec3(facts["size_mm"]), facts)
    except (KeyError, TypeError, ValueError) as error:
        raise AssetError(f"{directory / 'catalogue.json'}: the facts of {base_id!r} are missing or "
                         f"damaged ({type(error).__name__}: {error}); run `bandu-sim build-meshes`") from None


@cache
def exact_parts(piece_id: str) -> tuple[np.ndarray, ...]:
    """The exact (not inset) collision parts in metres, centre-of-mass frame, from the catalogue."""
    asset = load_piece(piece_id)
    com = np.array(asset.facts["build_frame_com_mm"]) / 1000.0
    return tuple(np.asarray(p, float) / 1000.0 - com for p in asset.spec.build(COLLISION))


def piece_table() -> list[dict]:
    """The catalogue as `bandu-sim pieces` shows it, from the committed assets."""
    rows = []
    for spec in CATALOGUE:
        facts = load_piece(spec.id).facts
        rows.append({"id": spec.id, "name": spec.name, "count": spec.count,
                     "material": spec.material.name, "size_mm": facts["size_mm"],
                     "mass_g": facts["mass_g"], "convex_parts": facts["convex_parts"]})
    return rows
