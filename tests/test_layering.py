"""Rooms and doors: core/, every games/*/rules.py and every other games/*/ai.py import neither
pyglet nor pybullet; Bandu's computer players and referee may use the physics, never pyglet."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import simulator.core
import simulator.games

PURE_MODULES = [f"simulator.core.{m.name}" for m in pkgutil.iter_modules(simulator.core.__path__)]
PURE_MODULES += [f"simulator.games.{m.name}.rules" for m in pkgutil.iter_modules(simulator.games.__path__)
                 if m.ispkg]
PHYSICS_MODULES = ["simulator.games.bandu.ai", "simulator.games.bandu.referee"]
PURE_MODULES += [f"simulator.games.{m.name}.ai" for m in pkgutil.iter_modules(simulator.games.__path__)
                 if m.ispkg and f"simulator.games.{m.name}.ai" not in PHYSICS_MODULES]


def test_pure_modules_exist():
    assert "simulator.core.controller" in PURE_MODULES
    assert "simulator.games.tanbo.rules" in PURE_MODULES


def test_core_and_rules_import_neither_pyglet_nor_pybullet():
    code = (
        "import importlib, sys\n"
        f"for name in {PURE_MODULES!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ModuleNotFoundError as e:\n"
        "        if e.name != name: raise\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pyglet', 'pybullet', 'pybullet_utils'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"pure modules pulled in: {result.stdout}"


def test_bandus_players_and_referee_use_physics_but_no_window():
    code = (
        "import importlib, sys\n"
        f"for name in {PHYSICS_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] == 'pyglet')))\n"
        "print('pybullet' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    pyglet, pybullet = result.stdout.rstrip("\n").split("\n")
    assert pyglet == "" and pybullet == "True"


def test_a_registered_game_plays_with_controller_and_no_window():
    code = (
        "import sys\n"
        "from simulator.core.controller import TurnController, Seat\n"
        "c = TurnController('tanbo', {}, [Seat('computer', 'random'), Seat('computer', 'random')], seed=3)\n"
        "c.play_computer_moves()\n"
        "assert c.is_over()\n"
        "print(any(m.startswith('pyglet') for m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"



def _imports_any(modules: list[str], prefix: str) -> bool:
    """Does importing `modules` in a fresh interpreter load any module starting with prefix?"""
    code = (f"import sys, {', '.join(modules)}\n"
            f"print(any(m.startswith({prefix!r}) for m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return result.stdout.strip() == "True"


def test_physics_and_pieces_never_import_pyglet():
    assert not _imports_any(["simulator.towers.physics.stability", "simulator.towers.physics.speed",
                             "simulator.towers.pieces.build"], "pyglet")


def test_scene_files_and_the_catalogue_need_no_pybullet():
    assert not _imports_any(["simulator.towers.physics.scene_file", "simulator.towers.pieces.catalogue"], "pybullet")


def _house():
    import tool_module

    return tool_module.load("draw_imports")


def test_the_house_has_no_import_circle_and_its_drawing_is_current():
    """docs/imports.svg is drawn by tools/draw_imports.py from the code's imports (lazy ones
    too); a circle among modules or rooms fails here, as does a drawing left out of date."""
    tool = _house()
    house = tool.read_house()
    assert tool.circles(house.module_arrows) == [] and tool.circles(house.arrows) == []
    assert tool.circles({("a", "b"), ("b", "c"), ("c", "a")}) == [["a", "b", "c"]]   # it sees one
    assert tool.main(["--check"]) == 0, "run .venv/bin/python tools/draw_imports.py"


def test_no_room_imports_one_that_stands_above_it_by_design():
    """The floors the house is meant to have: the game-neutral ground (core, progress), the
    libraries (render, processes), Bandu's tower library (towers: pieces, physics, studies),
    the games, then the app and the command line. A game never imports the app, nothing but
    the command line imports it, the ground and the libraries import no game, and the tower
    library is Bandu's: only Bandu's package, the benchmark command, the library's front door
    (api.py) and its environments (envs) use it."""
    house = _house().read_house()
    ground = {"core", "progress.py"}
    libraries = {"render", "processes.py"}
    for importer, imported in house.arrows:
        if importer in ground:
            assert imported in ground, (importer, imported)
        if importer in libraries:
            assert imported in ground | libraries, (importer, imported)
        if importer == "towers":
            assert imported in ground | libraries, (importer, imported)
        if imported == "towers":
            assert importer in {"games/bandu", "bench.py", "api.py", "envs"}, (importer, imported)
        if importer.startswith("games/"):
            assert imported not in {"app", "cli.py", "__main__.py", "selfplay.py", "bench.py"}, (importer, imported)
        if importer in {"api.py", "envs", "testing.py"}:       # the library: never the window
            assert imported not in {"app", "render", "cli.py"}, (importer, imported)
        if imported in {"app", "cli.py"}:
            assert importer in {"cli.py", "__main__.py"}, (importer, imported)
