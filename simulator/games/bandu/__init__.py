"""Bandu: bid beans to take or refuse wooden pieces, stack them on your own tower; a tower that
falls knocks its builder out. The rules are pure (rules.py); whether a placement stands is an
outcome the physics referee decides (referee.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from simulator.core.agents import Agent, Strength
from simulator.core.outcomes import OutcomeResolver
from simulator.core.registry import (
    Choice,
    GameApp,
    GameInfo,
    GameRules,
    MenuEntry,
    MenuHost,
    PlayedGame,
    Setting,
    Subcommands,
    register,
)
from simulator.core.setting_values import Accepts
from simulator.games.bandu import rules
from simulator.games.bandu.aids import practice_aid_of
from simulator.games.bandu.chains import chain_as_the_rules_take_it

# a tower built alone (solo, chain) takes its pieces without auctions, so without beans
BUILT_ALONE_HIDES = ("beans", "auctions")
# the practice aid is for a person building alone: an auction game has none
AUCTION_HIDES = ("practice_aid",)


def _settings() -> tuple[Setting, ...]:
    return (
        Setting("beans", "Beans", tuple(Choice(str(n), {"beans": n}) for n in range(0, 11)), default=5),
        Setting("auctions", "Auctions", (Choice("Both", {"auctions": "both"}),
                                         Choice("To acquire only", {"auctions": "acquire"}),
                                         Choice("To refuse only", {"auctions": "refuse"}))),
        Setting("variant", "Variant", (Choice("Standard", {"variant": "standard"}, seats=2,
                                              hides=AUCTION_HIDES),
                                       Choice("Challenge (no bases)", {"variant": "challenge"}, seats=2,
                                              hides=AUCTION_HIDES),
                                       Choice("Solo (one player)", {"variant": "solo"}, players=1,
                                              hides=BUILT_ALONE_HIDES),
                                       Choice("Chain (a seeded list)", {"variant": "chain"},
                                              hides=BUILT_ALONE_HIDES))),
        Setting("reserve", "Reserve", tuple(Choice(f"{n} pieces", {"reserve": n})
                                            for n in (48, 36, 24, 12))),
        Setting("first", "First player", tuple(Choice(str(n + 1), {"first": n}, seats=n + 1)
                                                      for n in range(rules.MAX_PLAYERS))),
        Setting("practice_aid", "Practice aid",
                (Choice("Off", {"practice_aid": False}),
                 Choice("On (solo)", {"practice_aid": True}, players=1))),
    )


def _create(players: int, **settings: Any) -> rules.BanduState:
    from simulator.core.errors import SettingsError

    # the window's aid (practice.py): the rules never see it
    if practice_aid_of(settings) and (players != 1 or settings.get("variant") not in ("solo", "chain")):
        raise SettingsError("the practice aid is for one-player solo and chain games only: "
                            "a game against others never shows a simulated outcome")
    settings.pop("practice_aid", None)
    hinted = settings.pop("hint_used", False)        # the window's hint (hint.py): a mark
    if not isinstance(hinted, bool):
        raise SettingsError("hint_used is true or false")
    if hinted and (players != 1 or settings.get("variant") not in ("solo", "chain")):
        raise SettingsError("hints are for one-player solo and chain games only")
    return rules.new_game(players=players, **chain_as_the_rules_take_it(settings))


def _agent(level: str) -> Agent:
    from simulator.games.bandu.ai import LEVELS, BanduAgent  # physics: only when one plays

    return BanduAgent(LEVELS[level])


STRENGTHS = {level: Strength(level, level.title(), partial(_agent, level))
             for level in ("easy", "medium", "strong")}


def _verify_save(history: list[tuple[int, str]], settings: dict[str, Any], players: int,
                 checked: frozenset[int],
                 progress: Callable[[int, int], object] | None = None) -> list[str]:
    from simulator.games.bandu.referee import check_replay  # the physics, on a load only

    # the starting state as the game makes it (settings the rules never see, e.g. the window's
    # practice aid, are taken off there)
    return check_replay(history, _create(players, **settings), checked=checked, progress=progress)


def _referee_stamp() -> str:
    from simulator.games.bandu.referee import referee_stamp  # the physics settings

    return referee_stamp()


def _warm_up() -> Iterator[None]:
    """Import the physics, then work out how each piece of the set lies in the reserve (its
    resting faces), a piece a step, for the window's first Bandu game."""
    from simulator.games.bandu import referee  # noqa: F401  (the physics)

    yield
    from simulator.games.bandu.table_drawing import lying

    for piece in (*rules.BUILDING_PIECES, rules.base_id(0), rules.base_id(1)):   # the reserve's
        lying(piece)
        yield


def _resolver(live: bool = False) -> OutcomeResolver:
    from simulator.games.bandu.referee import physics_resolver  # PyBullet: only when a game runs

    return physics_resolver(live=live)


def _finished(game: PlayedGame) -> str | None:
    """A person's solo or chain game at the machine is a record attempt: store it (with its
    replay) and say so, and whether it is their best."""
    from simulator.core.controller import TurnController
    from simulator.core.errors import SimulatorError
    from simulator.games.bandu.attempts import attempt_of
    from simulator.games.bandu.records import RecordStore

    if not isinstance(game, TurnController):    # the window hands its controller
        return None
    controller, state = game, game.state
    if not isinstance(state, rules.BanduState) or not state.built_alone or state.players != 1 or controller.seats[0].is_computer:
        return None
    try:
        attempt = attempt_of(controller)
        with RecordStore.open() as store:
            before = store.best(attempt.variant, attempt.chain_key, attempt.who)
            store.add(attempt)
    except (SimulatorError, ValueError) as error:
        return f"The attempt could not be stored in the records: {error}"
    # a best is something built: a first attempt of no piece standing is no record
    best = attempt.score >= 1 and (before is None or (attempt.score, attempt.height_mm)
                                   > (before.score, before.height_mm))
    if attempt.practice_aid:        # listed, marked, never a personal best
        used = "the practice aid" if practice_aid_of(controller.settings) else "a hint"
        return (f"Stored in your records ({attempt.height_mm:.0f} mm high), marked as made with "
                f"{used}.")
    return (f"Stored in your records ({attempt.height_mm:.0f} mm high)"
            + (": a personal best!" if best else f"; your best is {before.score} pieces." if before else "."))


def _view() -> type:
    from simulator.games.bandu.view import BanduView  # pyglet: only in the window

    return BanduView


def _commands(sub: Subcommands) -> None:
    from simulator.games.bandu.commands import add_commands  # solo, records
    from simulator.towers import commands as tower_commands  # stability, pieces, build-meshes

    add_commands(sub)
    tower_commands.add_commands(sub)


def _open_records(app: MenuHost) -> None:
    from simulator.games.bandu.records_screen import RecordsScreen  # pyglet: only in the window

    if not isinstance(app.window.top, RecordsScreen):
        app.window.push(RecordsScreen(app.window, app))


GAME = register(GameRules(
    info=GameInfo("bandu", "Bandu", "Bid beans, stack wooden pieces, keep your tower standing.",
                  min_players=1, max_players=rules.MAX_PLAYERS, settings=_settings(),
                  accepts={"reserve": Accepts((int,), 1, len(rules.BUILDING_PIECES)),   # solo --reserve N
                           "chain": Accepts((str, int), 0, 2**63 - 1),   # a scene file, its pieces, a seed
                           "hint_used": Accepts((bool,))},     # the window's mark (hint.py)
                  chance=True, outcomes=True,
                  menu_order=10),
    state_class=rules.BanduState,
    create=_create,
    resolver=_resolver,
    report=rules.game_report,
    strengths=STRENGTHS,
    default_strength="medium",
    agent_prefix="ai",
    verify_save=_verify_save,
    referee_stamp=_referee_stamp,
    worker_import="simulator.towers.physics.world",     # the referee: PyBullet prints on import
), GameApp(
    view=_view,
    live_resolver=partial(_resolver, live=True),
    warm_up=_warm_up,
    finished=_finished,
    commands=_commands,
    menu_entries=(MenuEntry("Records", _open_records, tooltip="solo Bandu record attempts"),),
))
