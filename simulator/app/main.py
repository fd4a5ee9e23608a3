"""Composition: the window, the screens and the controller wired together (`bandu-sim play`)."""

from __future__ import annotations

import random
from pathlib import Path

from simulator.app import storage
from simulator.core import registry
from simulator.core.controller import Seat, TurnController
from simulator.core.errors import SaveError, SettingsError, SimulatorError
from simulator.core.workers import SearchPool

COMPUTER_DELAY = 0.35       # seconds a computer waits after the last move, so people can follow


class App:
    def __init__(self, window) -> None:
        self.window = window
        self.game_screen = None
        self._search_pool: SearchPool | None = None

    def search_pool(self) -> SearchPool:
        """One worker process for computer players, started on first use. A process, not a
        thread: a search holding the GIL stalls drawing (measured: 9 frames in 4 s against 87
        with this process; tools/measure_frame_rate.py)."""
        if self._search_pool is None:
            self._search_pool = SearchPool(workers=1)
        return self._search_pool

    def shutdown(self) -> None:
        self._drop_game()
        if self._search_pool is not None:
            self._search_pool.shutdown(wait=False, cancel_futures=True)
            self._search_pool = None

    # --- navigation -------------------------------------------------------------------------------
    def show_menu(self) -> None:
        from simulator.app.menu import MenuScreen

        self._drop_game()
        self.window.show(MenuScreen(self.window, self))

    def open_new_game(self, game: str) -> None:
        from simulator.app.new_game import NewGameScreen

        self.window.show(NewGameScreen(self.window, self, game))

    def open_saved_games(self) -> None:
        from simulator.app.saved_games import SavedGamesScreen

        self.window.show(SavedGamesScreen(self.window, self))

    def back_from_saved_games(self) -> None:
        if self.game_screen is not None:
            self.window.show(self.game_screen)
        else:
            self.show_menu()

    def _drop_game(self) -> None:
        if self.game_screen is not None:
            self.game_screen.controller.close()
            self.game_screen = None

    def _show_game(self, controller: TurnController) -> None:
        from simulator.app.game_screen import GameScreen

        self._drop_game()
        self.game_screen = GameScreen(self.window, self, controller)
        self.window.show(self.game_screen)

    # --- games ------------------------------------------------------------------------------------
    def start_game(self, game: str, settings: dict, seats: list[Seat], seed: int | None = None) -> None:
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        controller = TurnController(game, settings, seats, seed=seed, autosave_path=storage.autosave_path(game),
                                    computer_delay=COMPUTER_DELAY, executor=self.search_pool())
        controller.save(storage.autosave_path(game))
        self._show_game(controller)

    def load_game(self, path: Path) -> bool:
        """Open a save; on a bad file say why on the current screen and change nothing."""
        try:
            controller = TurnController.load(path, computer_delay=COMPUTER_DELAY, executor=self.search_pool())
        except SaveError as error:
            if self.window.active_screen is not None:
                self.window.active_screen.toast.show(str(error), seconds=6, error=True)
            return False
        controller.autosave_path = storage.autosave_path(controller.game_name)
        self._show_game(controller)
        return True

    def save_game(self, controller: TurnController) -> Path | None:
        path = storage.new_save_path(controller.game_name)
        try:
            return controller.save(path)
        except OSError as error:
            if self.window.active_screen is not None:
                self.window.active_screen.toast.show(f"could not save to {path}: {error.strerror}", error=True)
            return None

    def last_autosave(self) -> Path | None:
        paths = sorted(storage.data_dir().glob("autosave-*.json"), key=lambda p: p.stat().st_mtime)
        return paths[-1] if paths else None

    def continue_last(self) -> None:
        path = self.last_autosave()
        if path is not None:
            self.load_game(path)


def build_app(game: str | None = None, load: str | None = None, width: int | None = None,
              visible: bool = True):
    """Create the window and show the first screen; returns (window, app). Raises SimulatorError."""
    if game is not None:
        info = registry.get_game(game)
        if not info.available:
            raise SettingsError(f"{info.title} is not playable yet; try: bandu-sim play tanbo")
    if load is not None and not Path(load).exists():
        raise SaveError(f"{load}: no such file")
    try:
        from simulator.render.window import AppWindow  # pyglet opens the display on import
    except Exception as error:
        if type(error).__name__ == "NoSuchDisplayException":
            raise SimulatorError("no screen found (is DISPLAY set?); on a headless machine use: "
                                 "xvfb-run -a bandu-sim play") from None
        raise
    w = width or 1280
    window = AppWindow(w, int(w * 0.625), visible=visible, screenshot_dir=storage.screenshots_dir())
    app = App(window)
    if load is not None:
        try:
            controller = TurnController.load(load, computer_delay=COMPUTER_DELAY, executor=app.search_pool())
        except SimulatorError:
            window.close()
            raise
        controller.autosave_path = storage.autosave_path(controller.game_name)
        app._show_game(controller)
    elif game is not None:
        app.open_new_game(game)
    else:
        app.show_menu()
    return window, app


def run_app(game: str | None = None, load: str | None = None, width: int | None = None) -> int:
    _, app = build_app(game, load, width)
    import pyglet

    try:
        pyglet.app.run(1 / 60)
    finally:
        app.shutdown()
    return 0
