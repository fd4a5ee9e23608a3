"""The games the program knows: name -> rules module, settings shown on the new-game screen,
and computer strengths. Game modules are imported only when a game is asked for."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from simulator.core.agents import Agent, RandomAgent, Strength, parse_agent_spec
from simulator.core.errors import SettingsError
from simulator.core.state import GameState


@dataclass(frozen=True)
class Choice:
    """One option of a setting: its label and the keyword arguments it means for new_game."""

    label: str
    kwargs: dict[str, Any]


@dataclass(frozen=True)
class Setting:
    name: str
    label: str
    choices: tuple[Choice, ...]
    default: int = 0          # index into choices


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    min_players: int
    max_players: int
    blurb: str
    package: str | None = None          # e.g. "simulator.games.tanbo"; None: not built yet
    settings: tuple[Setting, ...] = field(default_factory=tuple)
    seat_names: tuple[str, ...] = ()    # how the rules call the seats, e.g. ("Black", "White")

    def seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if seat < len(self.seat_names) else f"Player {seat + 1}"

    @property
    def available(self) -> bool:
        return self.package is not None

    def _module(self, part: str):
        if self.package is None:
            raise SettingsError(f"{self.title} is not playable yet")
        return importlib.import_module(f"{self.package}.{part}")

    def new_game(self, **settings: Any) -> GameState:
        try:
            return self._module("rules").new_game(**settings)
        except TypeError as error:
            raise SettingsError(f"bad settings for {self.name}: {error}") from None

    def state_from_dict(self, data: dict[str, Any]) -> GameState:
        return self._module("rules").STATE_CLASS.from_dict(data)

    def strengths(self) -> dict[str, Strength]:
        return self._module("ai").STRENGTHS

    def view_class(self):
        """The game's screen content class (imports pyglet; the app calls this, never rules)."""
        return self._module("view").VIEW_CLASS

    def make_agent(self, spec: str) -> Agent:
        """'random', 'mcts' (the default strength) or 'mcts:LEVEL'."""
        kind, level = parse_agent_spec(spec)
        if kind == "random" and level is None:
            return RandomAgent()
        if kind == "mcts":
            ai = self._module("ai")
            level = level or ai.DEFAULT_STRENGTH
            if level not in ai.STRENGTHS:
                raise SettingsError(
                    f"unknown strength {level!r} for {self.name}; choose {', '.join(ai.STRENGTHS)}")
            return ai.STRENGTHS[level].make()
        raise SettingsError(f"unknown player {spec!r}; use random, mcts or mcts:LEVEL")


def _tanbo_settings() -> tuple[Setting, ...]:
    # every choice names width and height, so a later setting (the classic start) overrides cleanly
    squares = [Choice(f"{s} x {s}", {"width": s, "height": s}) for s in (7, 11, 15, 19)]
    rectangles = [Choice(f"{w} x {h}", {"width": w, "height": h})
                  for w, h in ((5, 7), (7, 9), (9, 11), (11, 13))]
    return (
        Setting("board", "Board", tuple(squares + rectangles), default=0),
        Setting("start", "Start", (Choice("Dense (2026)", {"start": "dense"}),
                                   Choice("Classic 1993 (19 x 19)", {"start": "classic", "width": 19, "height": 19})),
                default=0),
    )


def all_games() -> tuple[GameInfo, ...]:
    return (
        GameInfo("bandu", "Bandu", 2, 8, "Bid beans, stack wooden pieces, keep your tower standing."),
        GameInfo("tanbo", "Tanbo", 2, 2, "Grow your roots, bound your opponent's, clear the board.",
                 package="simulator.games.tanbo", settings=_tanbo_settings(),
                 seat_names=("Black", "White")),
        GameInfo("bandida", "Bandida", 1, 4, "Close every tunnel before Bandida escapes."),
        GameInfo("bunko", "Bunko", 4, 12, "Roll three dice with your partner, table by table."),
        GameInfo("buddel_bande", "Buddel Bande", 2, 4, "Move the moles home, mind the dog."),
    )


def get_game(name: str) -> GameInfo:
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    for info in all_games():
        if info.name == key:
            return info
    raise SettingsError(f"unknown game {name!r}; choose one of {', '.join(g.name for g in all_games())}")


def playable_games() -> list[GameInfo]:
    return [g for g in all_games() if g.available]


def new_game(name: str, **settings: Any) -> GameState:
    """The initial state of game `name` with the given settings."""
    return get_game(name).new_game(**settings)
