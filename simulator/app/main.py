"""Composition: the window, the screens and the controller wired together (`bandu-sim play`).

The App starts, loads and saves games and owns the computer players' search process; screens
open one another on the window's navigation stack (render/window.py), so a new screen needs no
change here.
"""

from __future__ import annotations

import random
import traceback
from pathlib import Path
from typing import Any

from simulator.app import storage
from simulator.core import registry
from simulator.core.controller import Seat, TurnController
from simulator.core.errors import SaveError, SettingsError, SimulatorError
from simulator.core.workers import SearchPool

COMPUTER_DELAY = 0.35       # seconds a computer waits after the last move, so people can follow


def readable_error(error: Exception) -> str:
    """A load error as a person reads it: the file's name rather than its whole path."""
    text = str(error)
    head, sep, rest = text.partition(": ")
    if sep and "/" in head:
        return f"{Path(head).name}: {rest}"
    return text


class App:
    def __init__(self, window: Any) -> None:
        self.window = window
        self._search_pool: SearchPool | None = None
        self._last_saves: dict[int, tuple[int, Path]] = {}   # controller -> (version, path)

    def search_pool(self) -> SearchPool:
        """One worker process for computer players, started on first use and replaced if it
        dies. A process, not a thread: a search holding the GIL stalls drawing (measured: 9
        frames in 4 s against 87 with this process; tools/measure_frame_rate.py)."""
        if self._search_pool is None:
            self._search_pool = SearchPool(workers=1)
        return self._search_pool

    def shutdown(self) -> None:
        while self.window.screens:
            self.window.screens.pop().close()
        if self._search_pool is not None:
            self._search_pool.shutdown(wait=False, cancel_futures=True)
            self._search_pool = None

    def toast(self, message: str, error: bool = False) -> None:
        if self.window.top is not None:
            self.window.top.toast.show(message, error=error)

    # --- navigation -------------------------------------------------------------------------------
    def show_menu(self) -> None:
        from simulator.app.menu import MenuScreen

        self.window.reset(MenuScreen(self.window, self))

    def open_new_game(self, game: str) -> None:
        from simulator.app.new_game import NewGameScreen

        self.window.push(NewGameScreen(self.window, self, game))

    def open_saved_games(self) -> None:
        from simulator.app.saved_games import SavedGamesScreen

        if not isinstance(self.window.top, SavedGamesScreen):
            self.window.push(SavedGamesScreen(self.window, self))

    def _show_game(self, controller: TurnController) -> None:
        from simulator.app.game_screen import GameScreen
        from simulator.app.menu import MenuScreen

        self.window.reset(MenuScreen(self.window, self))
        self.window.push(GameScreen(self.window, self, controller))

    # --- games ------------------------------------------------------------------------------------
    def start_game(self, game: str, settings: dict, seats: list[Seat], seed: int | None = None) -> None:
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        autosave = storage.new_autosave_path(game)
        controller = TurnController(game, settings, seats, seed=seed, autosave_path=autosave,
                                    computer_delay=COMPUTER_DELAY, executor=self.search_pool())
        storage.prune_autosaves()        # the new game's autosave is written at its first move
        self._show_game(controller)

    def load_game(self, path: Path) -> bool:
        """Open a save; on a bad file say why on the current screen and change nothing."""
        try:
            controller = TurnController.load(path, computer_delay=COMPUTER_DELAY,
                                             executor=self.search_pool())
        except SaveError as error:
            self.toast(readable_error(error), error=True)
            return False
        except Exception as error:  # a fault of ours must not end the program: say so, go on
            traceback.print_exc()
            self.toast(f"{path.name}: could not be opened ({type(error).__name__}); "
                       "the details went to the terminal", error=True)
            return False
        # an autosave goes on in its own file; a save stays as it was saved
        controller.autosave_path = path if storage.is_autosave(path) else storage.new_autosave_path(
            controller.game_name)
        self._show_game(controller)
        return True

    def save_game(self, controller: TurnController) -> Path | None:
        """Save to a new file in saves/; saving again with nothing changed keeps the one file."""
        last = self._last_saves.get(id(controller))
        if last is not None and last[0] == controller.version and last[1].exists():
            return last[1]
        path = storage.new_save_path(controller.game_name)
        try:
            controller.save(path)
        except OSError as error:
            self.toast(f"could not save to {path.parent}: {error.strerror or error}", error=True)
            return None
        self._last_saves[id(controller)] = (controller.version, path)
        return path

    def last_autosave(self) -> Path | None:
        return storage.newest_unfinished_autosave()

    def continue_last(self) -> None:
        path = self.last_autosave()
        if path is None:
            self.toast("no unfinished game to continue")
        else:
            self.load_game(path)


def build_app(game: str | None = None, load: str | None = None, width: int | None = None,
              visible: bool = True) -> tuple[Any, App]:
    """Create the window and show the first screen; returns (window, app). Raises SimulatorError."""
    if game is not None:
        info = registry.get_game(game)
        if not info.available or info.view is None:
            raise SettingsError(f"{info.title} is not playable in the window yet; try: bandu-sim play tanbo")
    if load is not None and not Path(load).exists():
        raise SaveError(f"{load}: no such file")
    try:
        from simulator.render.window import MIN_HEIGHT, MIN_WIDTH, AppWindow  # opens the display
    except Exception as error:
        if type(error).__name__ == "NoSuchDisplayException":
            raise SimulatorError("no screen found (is DISPLAY set?); on a headless machine use: "
                                 "xvfb-run -a bandu-sim play") from None
        raise
    w = max(MIN_WIDTH, width or 1280)
    window = AppWindow(w, max(MIN_HEIGHT, int(w * 0.625)), visible=visible,
                       screenshot_dir=storage.screenshots_dir())
    app = App(window)
    app.show_menu()
    if load is not None:
        try:
            controller = TurnController.load(load, computer_delay=COMPUTER_DELAY, executor=app.search_pool())
        except SimulatorError:
            window.close()
            raise
        controller.autosave_path = (Path(load) if storage.is_autosave(Path(load))
                                    else storage.new_autosave_path(controller.game_name))
        app._show_game(controller)
    elif game is not None:
        app.open_new_game(game)
    return window, app


def run_app(game: str | None = None, load: str | None = None, width: int | None = None) -> int:
    _, app = build_app(game, load, width)
    import pyglet

    try:
        pyglet.app.run(1 / 60)
    finally:
        app.shutdown()
    return 0
