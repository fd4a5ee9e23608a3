"""Shared fixtures: an X display for the window tests (Xvfb started when none is set), a
private data directory so tests never touch the user's saves, and a game not built yet."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest


def pytest_collection_modifyitems(config, items):
    """Checks marked `long` (full property runs, the converged reference) run only when asked
    for by name: `./test.sh -m long`. Every other run, CI's included, leaves them out."""
    if "long" in (config.option.markexpr or ""):
        return
    kept = [item for item in items if item.get_closest_marker("long") is None]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    monkeypatch.setenv("BANDU_SIM_HOME", str(tmp_path / "bandu-sim-home"))
    return tmp_path / "bandu-sim-home"


@pytest.fixture
def tables():
    """Hosted tables on the loopback interface (tests/hosted_table.py), closed after the test:
    `tables(game, players, settings, ...)` makes one."""
    from hosted_table import Table

    made: list[Table] = []
    yield lambda *args, **kwargs: made.append(Table(*args, **kwargs)) or made[-1]
    for table in made:
        table.close()


@pytest.fixture
def coming_game():
    """A game package that so far only describes itself (as each game did before its rules
    were built): listed on the menu as coming, refused by play and selfplay."""
    from simulator.core import registry

    game = registry.GameRules(registry.GameInfo("coming", "Coming", "a game not built yet",
                                                min_players=2, max_players=4, menu_order=99))
    registry.register(game)
    yield game
    registry.unregister("coming")


@pytest.fixture(scope="module")
def gui(x_display):
    """The program's window and app (menu first), one per test module."""
    import pyglet

    from simulator.app.main import build_app

    window, app = build_app(visible=True)
    yield window, app
    app.shutdown()
    window.close()
    pyglet.clock.tick()


@pytest.fixture
def window(gui):
    """The module's window, for one test of play across machines: back at the menu after it,
    which closes a joined or hosted game's screen (its connections say goodbye)."""
    window, app = gui
    yield window
    app.show_menu()
    window.pump(1)


@pytest.fixture(scope="session")
def x_display():
    """A display for pyglet: the one in $DISPLAY, or a private Xvfb with Mesa's llvmpipe."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.fail("window tests need Xvfb (apt-get install xvfb); ./test.sh installs it")
    # each pytest-xdist worker looks in its own range of display numbers, so two never race
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    first = 91 + 20 * (int(worker[2:]) if worker[2:].isdigit() else 0)
    for number in range(first, first + 20):
        if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(f"/tmp/.X{number}-lock"):
            break
    display = f":{number}"
    process = subprocess.Popen([xvfb, display, "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not os.path.exists(f"/tmp/.X11-unix/X{number}"):
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"Xvfb did not start on {display}")
        time.sleep(0.05)
    os.environ["DISPLAY"] = display
    try:
        yield display
    finally:
        process.terminate()
        process.wait(timeout=10)
