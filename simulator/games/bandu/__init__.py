"""Bandu: bid beans to take or refuse wooden pieces, stack them on your own tower; a tower that
falls knocks its builder out. The rules are pure (rules.py); whether a placement stands is an
outcome the physics referee decides (referee.py)."""

from __future__ import annotations

from functools import partial
from typing import Any

from simulator.core.agents import Agent, Strength
from simulator.core.outcomes import OutcomeResolver
from simulator.core.registry import Choice, Game, GameInfo, Setting, register
from simulator.games.bandu import rules


def _settings() -> tuple[Setting, ...]:
    return (
        Setting("beans", "Beans", tuple(Choice(str(n), {"beans": n}) for n in range(0, 11)), default=5),
        Setting("auctions", "Auctions", (Choice("Both", {"auctions": "both"}),
                                         Choice("To acquire only", {"auctions": "acquire"}),
                                         Choice("To refuse only", {"auctions": "refuse"}))),
        Setting("variant", "Variant", (Choice("Standard", {"variant": "standard"}),
                                       Choice("Challenge (no bases)", {"variant": "challenge"}),
                                       Choice("Solo (one player)", {"variant": "solo"}),
                                       Choice("Chain (a seeded list)", {"variant": "chain"}))),
        Setting("reserve", "Reserve", tuple(Choice(f"{n} pieces", {"reserve": n})
                                            for n in (48, 36, 24, 12))),
        Setting("first", "First player (seat)", tuple(Choice(str(n + 1), {"first": n})
                                                      for n in range(rules.MAX_PLAYERS))),
    )


def _create(players: int, **settings: Any) -> rules.BanduState:
    chain = settings.get("chain")
    if isinstance(chain, str):           # a scene file: its first tower's order is the chain
        settings["chain"] = _chain_from_scene(chain)
    return rules.new_game(players=players, **settings)


def _chain_from_scene(path: str) -> tuple[str, ...]:
    from simulator.core.errors import SceneError, SettingsError
    from simulator.physics.scene import load_scene  # pure reading: no physics engine

    try:
        scene = load_scene(path)
    except SceneError as error:
        raise SettingsError(f"chain: {error}") from None
    return tuple(p.piece for p in scene.towers[0].placements)


def _agent(level: str) -> Agent:
    from simulator.games.bandu.ai import LEVELS, BanduAgent  # physics: only when one plays

    return BanduAgent(LEVELS[level])


STRENGTHS = {level: Strength(level, level.title(), partial(_agent, level))
             for level in ("easy", "medium", "strong")}


def _verify_save(history: list[tuple[int, str]], settings: dict[str, Any], players: int) -> list[str]:
    from simulator.games.bandu.referee import check_replay  # the physics, on a load only

    settings = dict(settings)
    if isinstance(settings.get("chain"), str):
        settings["chain"] = _chain_from_scene(settings["chain"])
    return check_replay(history, settings, players)


def _resolver(live: bool = False) -> OutcomeResolver:
    from simulator.games.bandu.referee import physics_resolver  # PyBullet: only when a game runs

    return physics_resolver(live=live)


def _view() -> type:
    from simulator.games.bandu.view import BanduView  # pyglet: only in the window

    return BanduView


GAME = register(Game(
    info=GameInfo("bandu", "Bandu", "Bid beans, stack wooden pieces, keep your tower standing.",
                  min_players=1, max_players=rules.MAX_PLAYERS, settings=_settings(),
                  extra_setting_names=("chain",), chance=True, outcomes=True,
                  menu_order=10),
    state_class=rules.BanduState,
    create=_create,
    resolver=_resolver,
    live_resolver=partial(_resolver, live=True),
    view=_view,
    report=rules.game_report,
    strengths=STRENGTHS,
    default_strength="medium",
    agent_prefix="ai",
    verify_save=_verify_save,
))
