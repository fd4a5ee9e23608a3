"""Where games register themselves, and the typed contract each game fulfils, in two parts.

A game is a package under `simulator/games/` whose `__init__.py` builds its `GameRules`
(metadata, rules, computer strengths, its outcome resolver, its save's referee, its benchmark:
what core and headless play use) and its `GameApp` (a loader for its view, the window's
resolver, menu buttons, its own subcommands, what it keeps of a finished game: what the window
and the command line use) and passes both to `register()`, the way OpenSpiel's game modules
call `register_game`. `get_game` gives the rules, `get_app` the app part. Core names no game:
the first lookup imports every package under `simulator/games/` (pkgutil), and each registers
itself. Adding a game is its own package and its tests, with no edit elsewhere. Tests register
their own games (or pass a `GameRules` straight to the controller).

A game's package may import its pure rules and ai modules; its view (pyglet) is loaded only when
the window asks for it (`GameApp.view`), so self-play and the command line never import pyglet.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from simulator.core.agents import Agent, RandomAgent, Strength, parse_agent_spec
from simulator.core.errors import SettingsError
from simulator.core.outcomes import ModelResolver, OutcomeResolver
from simulator.core.setting_values import Accepts, checked, choice_values
from simulator.core.state import GameState
from simulator.core.text import printable, shown

if TYPE_CHECKING:
    import argparse

GAMES_PACKAGE = "simulator.games"
MAX_SEATS = 20


@dataclass(frozen=True)
class Choice:
    """One option of a setting: its label and the keyword arguments it means for new_game.
    `fixes` pins other settings while this one is chosen: (setting name, choice label) pairs,
    e.g. a classic start that only exists on a 19 x 19 board."""

    label: str
    kwargs: dict[str, Any]
    fixes: tuple[tuple[str, str], ...] = ()
    #: the player count this choice goes with (e.g. 3 tables of 4: 12); the new-game screen
    #: keeps the two together, whichever of them a person changes
    players: int | None = None
    #: the fewest players this choice makes sense for (the first player at seat 5: 5); the
    #: new-game screen offers it only at such a count
    seats: int | None = None
    #: settings that mean nothing while this choice is chosen (a solo game has no auctions):
    #: the new-game screen hides their rows and leaves them out of the game's settings
    hides: tuple[str, ...] = ()


class ScreenStack(Protocol):
    """What a menu button sees of the window: the screen on top, and a push of another."""

    @property
    def top(self) -> object: ...

    def push(self, screen: Any) -> None: ...


class MenuHost(Protocol):
    """What a menu button is handed: the application, of which core knows only its window (the
    app's `App`, which core may not name)."""

    @property
    def window(self) -> ScreenStack: ...


@dataclass(frozen=True)
class MenuEntry:
    """A button a game adds to the menu's bottom row (a game's records, say): `open(app)` opens it."""

    label: str
    open: Callable[[MenuHost], None]
    tooltip: str = ""
    width: int = 120


@dataclass(frozen=True)
class Setting:
    name: str
    label: str
    choices: tuple[Choice, ...]
    default: int = 0          # index into choices


@dataclass(frozen=True)
class GameInfo:
    """What a game says about itself: shown on the menu and the new-game screen."""

    name: str                 # registry key: lower case, words joined by _
    title: str
    blurb: str
    min_players: int
    max_players: int
    settings: tuple[Setting, ...] = ()
    #: what a setting takes beyond its choices' values, and the settings no choice names (a
    #: board size given as one number): core/setting_values.py. Every setting is checked
    #: against these or its choices before the game's code sees it
    accepts: Mapping[str, Accepts] = field(default_factory=dict, hash=False)
    seat_names: tuple[str, ...] = ()    # how the rules call the seats, e.g. ("Black", "White")
    seat_names_plural: bool = False     # the seats are teams ("Ants"): "Ants win", "Ants' move"
    chance: bool = False                # chance nodes (shuffles, draws, dice resolved at once)
    outcomes: bool = False              # outcome nodes (physics, dice that roll on screen)
    hidden_information: bool = False    # some seat may not see everything
    cooperative: bool = False           # all seats win or lose together
    menu_order: int = 100               # place on the menu, lowest first
    on_menu: bool = True                # False: reachable by name only (test games)
    #: the player counts offered (empty: every count from min to max) and the usual one (0:
    #: the smallest count of at least 2)
    player_counts: tuple[int, ...] = ()
    usual_players: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players <= MAX_SEATS:
            raise ValueError(f"{self.name}: players must be 1 <= min <= max <= {MAX_SEATS}")
        if any(not self.min_players <= n <= self.max_players for n in self.player_counts) or \
                self.default_players not in self.counts():
            raise ValueError(f"{self.name}: player counts and the usual count must lie in "
                             f"{self.min_players}..{self.max_players}")

    def seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if 0 <= seat < len(self.seat_names) else f"Player {seat + 1}"

    def seat_possessive(self, seat: int) -> str:
        """'Player 1's', 'Ants'' (a team's name ends in its plural s)."""
        name = self.seat_name(seat)
        return f"{name}'" if self.seat_names_plural and name.endswith("s") else f"{name}'s"

    def seat_verb(self, seat: int, singular: str, plural: str) -> str:
        """The verb as the seat's name takes it: 'Player 2 is thinking', 'Ants are thinking'."""
        return plural if self.seat_names_plural and 0 <= seat < len(self.seat_names) else singular

    def setting_names(self) -> set[str]:
        """Every keyword new_game accepts."""
        return set(self.offered_values()) | set(self.accepts)

    def offered_values(self) -> dict[str, tuple[Any, ...]]:
        """Each setting the choices name, with the values they give it."""
        return choice_values(choice.kwargs for setting in self.settings for choice in setting.choices)

    @property
    def default_players(self) -> int:
        return self.usual_players or max(self.min_players, min(2, self.max_players))

    def players_for(self, settings: dict[str, Any]) -> int:
        """The player count a game with these settings is for when no count is given: the one
        a chosen setting goes with (a solo variant: 1), else the usual count."""
        for setting in self.settings:
            for choice in setting.choices:
                if choice.players is not None and choice.kwargs and all(
                        key in settings and settings[key] == value for key, value in choice.kwargs.items()):
                    return choice.players
        return self.default_players

    def counts(self) -> list[int]:
        """The player counts a new game offers."""
        return list(self.player_counts) or list(range(self.min_players, self.max_players + 1))

    def kinds(self) -> list[str]:
        """Words for the menu: 'chance', 'hidden information', 'cooperative' ..."""
        words = ["cooperative" if self.cooperative else "competitive"]
        if self.chance or self.outcomes:
            words.append("chance")
        words.append("hidden information" if self.hidden_information else "perfect information")
        return words


class VerifySave(Protocol):
    """`GameRules.verify_save`: a loaded save's outcomes at the history indices `checked`,
    worked out again by the game's own referee (e.g. a physics engine) and compared; the
    others are applied as saved. The problems, one line each; `progress(done, total)` hears of
    each outcome checked."""

    def __call__(self, history: list[tuple[int, str]], settings: dict[str, Any], players: int,
                 checked: frozenset[int],
                 progress: Callable[[int, int], object] | None = None) -> list[str]: ...


class Benchmark(Protocol):
    """`GameRules.benchmark`: the game's part of `bandu-sim bench`, its figures and a text;
    `quick`: one short run (a smoke test); `progress(done, total, what)` hears of each step
    (simulator/progress.py)."""

    def __call__(self, quick: bool = False,
                 progress: Callable[[int, int, str], None] | None = None
                 ) -> tuple[dict[str, Any], str]: ...


class Subcommands(Protocol):
    """The command line's subparsers (argparse's `add_subparsers()`), as `GameApp.commands`
    adds a game's own to them."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


class PlayedGame(Protocol):
    """What `GameApp.finished` is handed: the game's TurnController (core/controller.py, which
    imports this module, so it is named here by what every hook may read)."""

    @property
    def state(self) -> GameState[Any]: ...

    @property
    def settings(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class GameRules:
    """The rules' part of a game's contract: what core and headless play use (the controller,
    self-play, the library in api.py and envs/, the command line's headless commands)."""

    info: GameInfo
    #: the state class (from_dict for loading); None while the game is not playable yet
    state_class: type[GameState[Any]] | None = None
    #: (players, **settings) -> the starting state; raises SettingsError on bad settings
    create: Callable[..., GameState[Any]] | None = None
    strengths: Mapping[str, Strength] = field(default_factory=dict)
    default_strength: str | None = None
    #: how a computer player of this game is named: "mcts:strong" for the board games, "ai:strong"
    agent_prefix: str = "mcts"
    #: makes the resolver of the game's outcome nodes (default: the game's own model)
    resolver: Callable[[], OutcomeResolver] | None = None
    #: the game's benchmark for `bandu-sim bench`
    benchmark: Benchmark | None = None
    #: final state -> the game's own figures for each self-play game's JSON (e.g. towers' heights)
    report: Callable[[GameState[Any]], dict[str, Any]] | None = None
    #: a loaded save's outcomes checked by the game's own referee (VerifySave)
    verify_save: VerifySave | None = None
    #: () -> a short text naming the referee that verify_save replays with (e.g. the physics
    #: engine and its settings). A save records which referee judged each outcome
    #: (core/referees.py); verify_save checks only those this one judged, since another (an
    #: earlier version's physics) finds other results for the same moves: those stand as
    #: recorded, and the load says so
    referee_stamp: Callable[[], str] | None = None
    #: a module that self-play's worker processes import first, quietly (e.g. a physics
    #: world, whose import prints PyBullet's build time); None: nothing heavy to import
    worker_import: str | None = None

    def __post_init__(self) -> None:
        state_class = self.state_class
        if state_class is not None and state_class.hidden_information != self.info.hidden_information:
            raise ValueError(f"{self.name}: GameInfo.hidden_information disagrees with "
                             f"{state_class.__name__}.hidden_information")

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def available(self) -> bool:
        return self.create is not None and self.state_class is not None

    def _require_playable(self) -> None:
        if not self.available:
            raise SettingsError(f"{self.title} is not playable yet")

    def new_game(self, players: int | None = None, settings: Mapping[str, Any] | None = None
                 ) -> GameState[Any]:
        """The starting state for `players` seats (default: the game's usual count) and the
        settings by name (a mapping, so that no setting's name can clash with a parameter)."""
        settings = dict(settings or {})
        self._require_playable()
        assert self.create is not None
        players = self.info.default_players if players is None else players
        low, high = self.info.min_players, self.info.max_players
        if not low <= players <= high:
            count = f"{low}" if low == high else f"{low} to {high}"
            raise SettingsError(f"{self.title} is for {count} players, not {players}")
        known = self.info.setting_names()
        for name in settings:
            if name not in known:
                choices = f"settings: {', '.join(sorted(known))}" if known else "it has no settings"
                raise SettingsError(f"unknown setting {printable(str(name), 40)!r} for {self.title}; "
                                    f"{choices}")
        try:
            settings = checked(settings, self.info.offered_values(), self.info.accepts)
        except SettingsError as error:
            raise SettingsError(f"{self.title}: {error}") from None
        try:
            return self.create(players, **settings)
        except (TypeError, ValueError, OverflowError) as error:
            if isinstance(error, SettingsError):
                raise
            raise SettingsError(f"bad settings for {self.name}: {printable(str(error), 120)}") from None

    def state_from_dict(self, data: dict[str, Any]) -> GameState[Any]:
        """A state from its JSON form; anything malformed is a ValueError with one line."""
        self._require_playable()
        assert self.state_class is not None
        try:
            return self.state_class.from_dict(data)
        except (TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as error:
            raise ValueError(f"not a {self.title} state ({type(error).__name__})") from None

    def make_resolver(self) -> OutcomeResolver:
        """The resolver of the game's outcome nodes (the game's own model by default)."""
        return self.resolver() if self.resolver is not None else ModelResolver()

    def make_agent(self, spec: str) -> Agent:
        """'random', or the game's prefix alone (its default strength) or with a level:
        'mcts:strong' by default, 'ai:strong' where a game names its own (agent_prefix)."""
        kind, level = parse_agent_spec(spec)
        prefix = self.agent_prefix
        if kind == "random" and level is None:
            return RandomAgent()
        if kind == prefix and self.strengths:
            level = level or self.default_strength or next(iter(self.strengths))
            if level not in self.strengths:
                raise SettingsError(f"unknown strength {printable(level, 20)!r} for {self.name}; "
                                    f"choose {', '.join(self.strengths)}")
            return self.strengths[level].make()
        if kind == prefix:
            raise SettingsError(f"{self.title} has no computer strengths; use random")
        raise SettingsError(f"unknown player {printable(spec, 30)!r} for {self.title}; use random, "
                            f"{prefix} or {prefix}:LEVEL")


@dataclass(frozen=True)
class GameApp:
    """The app's part of a game's contract: what the window and the command line use. Each is
    loaded only when asked for, so that core and headless play never import pyglet."""

    #: imports and returns the game's view class (pyglet; a GameView): the window's only
    view: Callable[[], type] | None = None
    #: the resolver the window uses, whose outcomes a view can show as they happen (default: the
    #: rules' resolver, as in headless play)
    live_resolver: Callable[[], OutcomeResolver] | None = None
    #: a game finished at the machine -> a sentence for the end screen, or None: what the game
    #: keeps of it, e.g. a solo attempt stored in the game's records
    finished: Callable[[PlayedGame], str | None] | None = None
    #: buttons the game adds to the menu (MenuEntry); the app names no game
    menu_entries: tuple[MenuEntry, ...] = ()
    #: (the command line's subparsers) -> None: adds the game's own subcommands, each with
    #: `set_defaults(handler=...)` (a function of the parsed arguments returning the exit
    #: status); cli.py names no game
    commands: Callable[[Subcommands], None] | None = None
    #: () -> an iterator of small steps: what the window does ahead, a step a frame while the
    #: menu shows, so that a game opens at once (e.g. import a physics engine, work out what
    #: the first frame draws). On the window's own thread: an import on another thread can
    #: deadlock with one the window's clean-up makes
    warm_up: Callable[[], Iterator[None]] | None = None


class Registry:
    """Games by name, each its rules and its app part. The program's own registry fills itself
    from simulator/games/."""

    def __init__(self, discover_package: str | None = None) -> None:
        self._games: dict[str, GameRules] = {}
        self._apps: dict[str, GameApp] = {}
        self._discover_package = discover_package
        self._discovered = discover_package is None
        # the first lookup imports every game; a lookup on another thread meanwhile waits for
        # it (one that went on saw half the games: a host's tables started at once did)
        self._discovery = threading.RLock()
        self._discovering = False
        self.broken: dict[str, str] = {}          # package -> why it could not be loaded

    def register(self, rules: GameRules, app: GameApp | None = None) -> GameRules:
        known = self._games.get(rules.name)
        if known is not None and known is not rules:
            raise ValueError(f"two games are registered as {rules.name!r}")
        self._games[rules.name] = rules
        self._apps[rules.name] = app if app is not None else GameApp()
        return rules

    def unregister(self, name: str) -> None:
        """Take a game off the list (one registered for a while, as a test's)."""
        self._games.pop(name, None)
        self._apps.pop(name, None)

    def _discover(self) -> None:
        if self._discovered:
            return
        with self._discovery:
            if self._discovered or self._discovering:   # done, or this thread's own imports
                return
            self._discovering = True
            try:
                self._import_the_games()
            finally:
                self._discovering = False
                self._discovered = True

    def _import_the_games(self) -> None:
        assert self._discover_package is not None
        package = importlib.import_module(self._discover_package)
        for module in pkgutil.iter_modules(package.__path__, f"{self._discover_package}."):
            if not module.ispkg:
                continue
            try:
                importlib.import_module(module.name)   # its __init__ registers the game
            except Exception as error:             # one broken game: named, the others load
                reason = printable(f"{type(error).__name__}: {error}", 160)
                self.broken[module.name] = reason
                sys.stderr.write(f"bandu-sim: the game package {module.name} could not be loaded "
                                 f"({reason}); the other games are there\n")

    def all(self) -> tuple[GameRules, ...]:
        self._discover()
        return tuple(sorted(self._games.values(), key=lambda g: (g.info.menu_order, g.name)))

    def get(self, name: str) -> GameRules:
        self._discover()
        key = name.strip().lower().replace("-", "_").replace(" ", "_")
        if key in self._games:
            return self._games[key]
        raise SettingsError(f"unknown game {shown(name, 40)}; choose one of "
                            f"{', '.join(g.name for g in self.all())}")

    def app(self, name: str) -> GameApp:
        """The app part `name` was registered with (an empty one for a game with none)."""
        return self._apps.get(self.get(name).name, GameApp())


_GAMES = Registry(discover_package=GAMES_PACKAGE)


def register(rules: GameRules, app: GameApp | None = None) -> GameRules:
    """Called by each game package's __init__ with its rules and, for the window and the
    command line, its app part."""
    return _GAMES.register(rules, app)


def unregister(name: str) -> None:
    _GAMES.unregister(name)


def get_game(name: str | GameRules) -> GameRules:
    """A game's rules (what core and headless play use), by name."""
    return name if isinstance(name, GameRules) else _GAMES.get(name)


def get_app(name: str | GameRules) -> GameApp:
    """A game's app part (what the window and the command line use), by name."""
    return _GAMES.app(name if isinstance(name, str) else name.name)


def all_games() -> tuple[GameRules, ...]:
    return _GAMES.all()


def playable_games() -> list[GameRules]:
    return [g for g in all_games() if g.available]


def new_game(name: str, players: int | None = None, settings: Mapping[str, Any] | None = None
             ) -> GameState[Any]:
    """The initial state of game `name` with the given settings."""
    return get_game(name).new_game(players, settings)
