"""Composition: the window, the screens and the controller wired together (`bandu-sim play`).

The App starts, loads and saves games and owns the computer players' search process; screens
open one another on the window's navigation stack (render/window.py), so a new screen needs no
change here.
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from simulator.app import storage
from simulator.core import registry
from simulator.core.agents import parse_agent_spec
from simulator.core.command_kit import INTERRUPTED
from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController
from simulator.core.data_home import check_data_dir
from simulator.core.errors import SaveError, SettingsError, SimulatorError, UsageError
from simulator.core.text import printable
from simulator.core.workers import SearchPool
from simulator.net.protocol import LOOPBACK
from simulator.net.seats import is_remote, remote_seats

if TYPE_CHECKING:
    from simulator.net.remote_game import RemoteGame

T = TypeVar("T")

COMPUTER_DELAY = 0.35       # seconds a computer waits after the last move, so people can follow
WARM_UP_INTERVAL = 1 / 30   # a step of the work ahead (Game.warm_up) at most this often
MAX_CHECK_WORKERS = 4       # processes checking a loaded save's results (core/save_check.py)


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
        # where a game hosted in this window listens (bandu-sim play --bind, --port)
        self.hosting_address: tuple[str, int] = (LOOPBACK, 0)
        self._last_saves: dict[int, tuple[int, Path]] = {}   # controller -> (version, path)
        # each game's work ahead (Game.warm_up), a step a frame while the menu shows: a game
        # then opens at once
        from pyglet import clock

        self._warm_up: Iterator[None] | None = _work_ahead(window)
        clock.schedule_interval(self._warm_up_step, WARM_UP_INTERVAL)

    def _warm_up_step(self, dt: float = 0.0) -> None:
        from pyglet import clock

        if self._warm_up is not None and next(self._warm_up, StopIteration) is StopIteration:
            self._warm_up = None
            clock.unschedule(self._warm_up_step)

    def finish_warm_up(self) -> None:
        """Do the rest of the work ahead now (tests and tools: as after a while at the menu)."""
        while self._warm_up is not None:
            self._warm_up_step()

    @property
    def warmed_up(self) -> bool:
        return self._warm_up is None

    def search_pool(self) -> SearchPool:
        """One worker process for computer players, started on first use and replaced if it
        dies. A process, not a thread: a search holding the GIL stalls drawing (measured: 9
        frames in 4 s against 87 with this process; python -m benchmarks frame_rate)."""
        if self._search_pool is None:
            self._search_pool = SearchPool(workers=1)
        return self._search_pool

    def shutdown(self) -> None:
        from pyglet import clock

        clock.unschedule(self._warm_up_step)
        self._warm_up = None
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

    def _show_game(self, controller: TurnController, source: str = "") -> None:
        """Show a game; one loaded from `source` (a file's name) with results still to check
        opens at once, paused, while helper processes check them (core/save_check.py)."""
        from simulator.app.game_screen import GameScreen
        from simulator.app.menu import MenuScreen
        from simulator.core.cores import usable_cores
        from simulator.core.save_check import BackgroundCheck

        self._show_live(controller)
        self.window.reset(MenuScreen(self.window, self))
        screen = GameScreen(self.window, self, controller)
        if controller.results_to_check is not None:
            # one core is left to drawing: the window answers while the check runs
            screen.save_check = BackgroundCheck(controller.results_to_check,
                                                workers=max(1, min(MAX_CHECK_WORKERS, usable_cores() - 1)))
            screen.save_source = source
        self.window.push(screen)
        if controller.load_notice:           # a loaded save's settings or results, explained
            self.window.top.toast.show(controller.load_notice, seconds=8.0)

    @staticmethod
    def _show_live(controller: TurnController) -> None:
        """Physics results shown as they happen (the game's live resolver)."""
        live = registry.get_app(controller.game).live_resolver
        controller.show_outcomes_live(live() if live is not None else None)

    def _host_game(self, controller: TurnController, remote: list[int]) -> bool:
        """Show a game this window hosts for the people of its `remote` seats (app/hosting_screen.py):
        it listens at `hosting_address`; a port taken or an address not of this machine is said
        on the current screen. True when shown."""
        from simulator.app.hosting_screen import HostingGameScreen
        from simulator.app.menu import MenuScreen
        from simulator.net.host import Host

        self._show_live(controller)
        bind, port = self.hosting_address
        try:
            host = Host(controller, remote, bind=bind, port=port, live=False)
            host.start()
        except (OSError, SimulatorError) as error:
            controller.close()
            reason = getattr(error, "strerror", None) or str(error)
            self.toast(f"cannot host at {bind}:{port}: {reason}", error=True)
            return False
        self.window.reset(MenuScreen(self.window, self))
        self.window.push(HostingGameScreen(self.window, self, controller, host))
        return True

    def join_game(self, address: str, code: str) -> None:
        """Join a seat of a game hosted at another machine and show it; a wrong address or
        code raises JoinError (one line), changing nothing."""
        from simulator.net.remote_game import join_game

        self.show_remote_game(join_game(address, code))

    def show_remote_game(self, remote: RemoteGame) -> None:
        """Show a joined game (net/remote_game.py) above the menu."""
        from simulator.app.menu import MenuScreen
        from simulator.app.remote_screen import RemoteGameScreen

        self.window.reset(MenuScreen(self.window, self))
        self.window.push(RemoteGameScreen(self.window, self, remote))

    def open_join(self) -> None:
        """The screen that asks for a host's address and a seat's code (app/join_screen.py)."""
        from simulator.app.join_screen import JoinScreen

        if not isinstance(self.window.top, JoinScreen):
            self.window.push(JoinScreen(self.window, self))

    def refuse_loaded_game(self, reason: str) -> None:
        """A loaded game whose check refused it: closed, the reason said on the menu. Nothing
        was written: the file stays as it was."""
        self.show_menu()                     # closes the game's screen and its controller
        self.toast(reason, error=True)

    # --- games ------------------------------------------------------------------------------------
    def start_game(self, game: str, settings: dict, seats: list[Seat], seed: int | None = None,
                   remote: list[int] | None = None) -> bool:
        """Start a game and show it; settings the game refuses (a first player beyond the seats,
        a solo game of three) are said on the current screen, which stays. `remote`: the seats
        of people at other machines; the game is then hosted here. True when started."""
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        info = registry.get_game(game).info
        if remote and info.hidden_information and len(remote) + sum(s.is_computer for s in seats) == len(seats):
            self.toast(f"{info.title} hides hands: a game hosted in the window needs a person at "
                       "this machine (bandu-sim host serves one with nobody here)", error=True)
            return False
        try:
            controller = TurnController(game, settings, seats, seed=seed,
                                        autosave_path=storage.new_autosave_path(game),
                                        computer_delay=COMPUTER_DELAY, executor=self.search_pool())
        except SettingsError as error:
            self.toast(readable_error(error), error=True)
            return False
        storage.prune_autosaves()        # the new game's autosave is written at its first move
        storage.remove_stale_temporaries()
        if remote:
            return self._host_game(controller, remote)
        self._show_game(controller)
        return True

    def _read(self, name: str, read: Callable[[], T]) -> T | None:
        """Run `read` (the loading of a save); on a bad file say why on the current screen and
        return None, changing nothing."""
        try:
            return read()
        except SaveError as error:
            self.toast(readable_error(error), error=True)
        except Exception as error:  # a fault of ours must not end the program: say so, go on
            traceback.print_exc()
            self.toast(f"{name}: could not be opened ({type(error).__name__}); "
                       "the details went to the terminal", error=True)
        return None

    def load_game(self, path: Path) -> bool:
        """Open a save; on a bad file say why on the current screen and change nothing."""
        controller = self._read(path.name, lambda: TurnController.load(
            path, computer_delay=COMPUTER_DELAY, executor=self.search_pool(), check_later=True))
        if controller is None:
            return False
        controller.autosave_path = autosave_for(controller, path)
        self._show_game(controller, path.name)
        return True

    def open_replay(self, path: Path) -> bool:
        """Show a save move by move (app/replay.py); the file is only read."""
        from simulator.app.replay import ReplayController

        return self._show_replay(path.name, lambda: ReplayController.of_save(path))

    def replay_record(self, attempt: Any) -> bool:
        """Show a record attempt's game move by move (the same tower, from its recorded poses)."""
        from simulator.app.replay import ReplayController

        return self._show_replay(f"the attempt of {attempt.when[:10]}",
                                 lambda: ReplayController.of_save_dict(attempt.replay))

    def replay_game(self, controller: TurnController) -> bool:
        """Show the game of `controller` move by move; the game itself and its autosave are
        left as they are."""
        from simulator.app.replay import ReplayController

        return self._show_replay("this game", lambda: ReplayController.of_game(controller))

    def _show_replay(self, name: str, read: Callable[[], Any]) -> bool:
        from simulator.app.replay import ReplayScreen

        replay = self._read(name, read)
        if replay is None:
            return False
        if registry.get_app(replay.game).view is None:
            replay.close()
            self.toast(f"{name}: {replay.info.title} cannot be shown in the window yet", error=True)
            return False
        self.window.push(ReplayScreen(self.window, self, replay))
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


def autosave_for(controller: TurnController, loaded: Path) -> Path:
    """Where a loaded game goes on being autosaved: the autosave it was loaded from, or the
    autosave of the same game (a save of it was loaded: one game, one autosave), or a new one.
    A save itself stays as it was saved."""
    if storage.is_autosave(loaded):
        return loaded
    return storage.autosave_of(controller.game_id) or storage.new_autosave_path(controller.game_name)


def _work_ahead(window: Any) -> Iterator[None]:
    """What the window does a step a frame while the menu shows: the audio driver (so it never
    loads at the first knock), then each game's warm-up (GameApp.warm_up)."""
    window.sound.prepare()
    yield
    for game in registry.playable_games():
        app = registry.get_app(game)
        if app.warm_up is not None and app.view is not None:
            try:
                yield from app.warm_up()
            except Exception:           # only time is lost: the game does it when it opens
                traceback.print_exc()


def seats_for(game: str, players: list[str], settings: dict[str, Any]) -> list[Seat]:
    """The seats of `bandu-sim play GAME --players A,B,...`: 'person' (someone at this machine),
    'remote' (a person at another machine: the window hosts the game), 'random', or the game's
    computer players as selfplay spells them ('mcts:strong'). The game,
    the settings, the number of players and every name are checked first, as selfplay checks
    them; bad input raises SettingsError with one line."""
    from simulator.selfplay import check_selfplay, is_person

    # a remote seat is checked as a person's (it is one, at another machine)
    info = check_selfplay(game, ["person" if is_remote(p) else p for p in players], settings, people=True)
    seats = []
    for spec in players:
        if is_person(spec) or is_remote(spec):     # a remote person's seat is a person's
            seats.append(Seat(PERSON))
            continue
        kind, level = parse_agent_spec(spec)
        if kind == info.agent_prefix and level is None and info.strengths:
            level = info.default_strength or next(iter(info.strengths))
        seats.append(Seat(COMPUTER, kind if level is None else f"{kind}:{level}"))
    return seats


def build_app(game: str | None = None, load: str | None = None, width: int | None = None,
              visible: bool = True, players: list[str] | None = None,
              settings: dict[str, Any] | None = None, volume: float = 0.8,
              join: tuple[str, str] | None = None,
              hosting: tuple[str, int] = (LOOPBACK, 0)) -> tuple[Any, App]:
    """Create the window and show the first screen; returns (window, app). With `players`
    (and `settings`), GAME starts at once, skipping the new-game screen (hosted at `hosting`,
    (ADDRESS, PORT), when a player is remote); with `join` (ADDRESS, CODE), the seat of a game
    hosted elsewhere, joined before the window opens. Everything is checked before the window
    opens; bad input raises SimulatorError."""
    settings = dict(settings or {})
    check_data_dir()                          # saves and autosaves go there: said before the window
    if join is not None and (game is not None or load is not None or players is not None):
        raise UsageError("join opens the host's game: give no game, --load or --players")
    remote = None
    if join is not None:
        from simulator.net.remote_game import join_game

        remote = join_game(*join)            # a wrong address or code: one line, no window
    if players is not None and game is None:
        raise UsageError(f"--players needs a GAME, e.g. bandu-sim play {_a_window_game()} --players person,random")
    if players is not None and load is not None:
        raise UsageError("--players cannot go with --load: a save has its own players")
    if settings and players is None:
        raise UsageError("--setting goes with --players (the game then starts at once)")
    if game is not None:
        info = registry.get_game(game)
        if not info.available or registry.get_app(info).view is None:
            raise SettingsError(f"{info.title} is not playable in the window yet; try: bandu-sim play "
                                f"{_a_window_game()}")
    seats = seats_for(game, players, settings) if game is not None and players is not None else None
    if load is not None:
        try:
            found = Path(load).exists()
        except (OSError, ValueError) as error:     # a name too long, a NUL in it
            reason = getattr(error, "strerror", None) or str(error)
            raise SaveError(f"{printable(load, 200)}: cannot be opened ({printable(reason, 80)})") from None
        if not found:
            raise SaveError(f"{printable(load, 200)}: no such file")
    try:
        window = _open_window(width, visible, volume)
    except BaseException:
        if remote is not None:
            remote.close()                   # the seat waits for its next join
        raise
    app = App(window)
    app.hosting_address = hosting
    app.show_menu()
    if remote is not None:
        app.show_remote_game(remote)
    elif load is not None:
        try:
            controller = TurnController.load(load, computer_delay=COMPUTER_DELAY,
                                             executor=app.search_pool(), check_later=True)
        except SimulatorError:
            window.close()
            raise
        controller.autosave_path = autosave_for(controller, Path(load))
        app._show_game(controller, printable(Path(load).name, 80))
    elif game is not None and seats is not None and players is not None:
        app.start_game(registry.get_game(game).name, settings, seats, remote=remote_seats(players))
    elif game is not None:
        app.open_new_game(game)
    return window, app


def _open_window(width: int | None, visible: bool, volume: float) -> Any:
    try:
        from simulator.render.window import MIN_HEIGHT, MIN_WIDTH, AppWindow  # opens the display
    except Exception as error:
        if type(error).__name__ == "NoSuchDisplayException":
            raise SimulatorError("no screen found (is DISPLAY set?); on a headless machine use: "
                                 "xvfb-run -a bandu-sim play") from None
        raise
    w = max(MIN_WIDTH, width or 1280)
    return AppWindow(w, max(MIN_HEIGHT, int(w * 0.625)), visible=visible,
                     screenshot_dir=storage.screenshots_dir(), volume=volume)


def run_app(game: str | None = None, load: str | None = None, width: int | None = None,
            players: list[str] | None = None, settings: dict[str, Any] | None = None,
            volume: float = 0.8, join: tuple[str, str] | None = None,
            hosting: tuple[str, int] = (LOOPBACK, 0)) -> int:
    _, app = build_app(game, load, width, players=players, settings=settings, volume=volume,
                       join=join, hosting=hosting)
    import signal

    import pyglet

    stopped_by: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        """Ctrl+C or a SIGTERM: the window closes as by Ctrl+Q (the game was autosaved)."""
        stopped_by.append(signum)
        pyglet.app.exit()

    previous = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        pyglet.app.run(1 / 60)
    finally:
        app.shutdown()
        for number, handler in previous.items():
            signal.signal(number, handler)
    return INTERRUPTED if signal.SIGINT in stopped_by else 0


def _a_window_game() -> str:
    """A game the window plays, for an example in a message."""
    return next((g.name for g in registry.playable_games()
                 if registry.get_app(g).view is not None and g.info.on_menu), "GAME")
