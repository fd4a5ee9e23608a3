"""Where the piece meshes are: assets/meshes at the top of a checkout (an editable install reads
them there), simulator/assets/meshes inside a built wheel; the sdist carries them to the wheel."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

import simulator
from simulator.core.errors import AssetError
from simulator.towers.pieces import build
from simulator.towers.pieces.build import assets_dir, load_piece, mesh_locations
from simulator.towers.pieces.catalogue import CATALOGUE

ROOT = Path(__file__).resolve().parents[1]
MESHES = ROOT / "assets" / "meshes"


def _mesh_names() -> set[str]:
    """The files a distribution must carry: every piece's two meshes and the catalogue."""
    names = {"catalogue.json"}
    for spec in CATALOGUE:
        names |= {f"{spec.id}.obj", f"{spec.id}.collision.obj"}
    return names


def test_a_checkout_reads_the_meshes_from_the_top_level_assets():
    assert Path(simulator.__file__).resolve().parent == ROOT / "simulator"
    assert mesh_locations()[1].resolve() == assets_dir().resolve() == MESHES
    assert {path.name for path in MESHES.iterdir()} == _mesh_names()
    assert not (ROOT / "simulator" / "assets").exists(), "the meshes moved to assets/meshes"
    arch = load_piece("arch")
    assert arch.collision_path.resolve() == MESHES / "arch.collision.obj"
    assert arch.visual_path.is_file() and arch.mass_kg > 0


def test_no_meshes_anywhere_is_one_error_naming_both_places(tmp_path, monkeypatch):
    places = (tmp_path / "package" / "assets" / "meshes", tmp_path / "repo" / "assets" / "meshes")
    monkeypatch.setattr(build, "mesh_locations", lambda: places)
    with pytest.raises(AssetError) as error:
        assets_dir()
    assert str(places[0]) in str(error.value) and str(places[1]) in str(error.value)
    assert "build-meshes" in str(error.value)
    # the package's copy wins when both have the meshes (an installed wheel)
    for place in reversed(places):
        place.mkdir(parents=True)
        (place / "catalogue.json").write_text("{}")
        assert assets_dir() == place


@pytest.mark.parametrize("checkout", [True, False])
def test_build_meshes_writes_to_the_checkout_when_there_is_one(tmp_path, monkeypatch, checkout):
    package, repository = tmp_path / "package" / "assets" / "meshes", tmp_path / "repo" / "assets" / "meshes"
    repository.parent.parent.mkdir(parents=True)
    if checkout:
        (tmp_path / "repo" / "pyproject.toml").write_text("")
    monkeypatch.setattr(build, "mesh_locations", lambda: (package, repository))
    monkeypatch.setattr(build, "generate_files", lambda progress=None: {"catalogue.json": "{}\n"})
    written = build.write_assets()
    assert written == [(repository if checkout else package) / "catalogue.json"]
    assert assets_dir() == (repository if checkout else package)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The sdist and the wheel built from it, as `python -m build` makes them (offline: the
    backend comes from the test extras)."""
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (sdist,), (wheel,) = out.glob("*.tar.gz"), out.glob("*.whl")
    return sdist, wheel


def test_the_sdist_and_the_wheel_carry_every_mesh(built):
    sdist, wheel = built
    with tarfile.open(sdist) as archive:
        in_sdist = {Path(name).relative_to(Path(name).parts[0]).as_posix() for name in archive.getnames()}
    assert {f"assets/meshes/{name}" for name in _mesh_names()} <= in_sdist
    assert not any(name.startswith(".hypothesis") for name in in_sdist)
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    missing = {f"simulator/assets/meshes/{name}" for name in _mesh_names()} - in_wheel
    assert not missing, f"not in the wheel: {sorted(missing)[:5]}"
    assert not any(name.startswith("assets/") for name in in_wheel)
    # the checkout's lab and tools stay out of the wheel (the program never imports them)
    assert not any(name.startswith(("benchmarks/", "tools/", "tests/")) for name in in_wheel)


def test_the_unpacked_wheel_finds_its_own_meshes(built, tmp_path):
    _, wheel = built
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    code = textwrap.dedent("""
        import sys
        from pathlib import Path

        import simulator
        from simulator.towers.pieces.build import assets_dir, load_piece

        site = Path(sys.argv[1]).resolve()
        assert Path(simulator.__file__).resolve().is_relative_to(site), simulator.__file__
        assert assets_dir().resolve() == site / "simulator" / "assets" / "meshes", assets_dir()
        piece = load_piece("arch")
        assert piece.collision_path.resolve().is_relative_to(site) and piece.collision_path.is_file()
        print("ok", piece.mass_kg > 0)
    """)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run([sys.executable, "-c", code, str(site)], cwd=elsewhere, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split()[-2:] == ["ok", "True"]
