"""Bunko: the party dice game for 4 to 20 players, four at each of 1 to 5 tables (the rule book's
section 4). Registers the game: settings (tables, sets, rolling on, the dice's pace), its
computer players, the window's dice resolver and view, and self-play's figures."""

from __future__ import annotations

from typing import Any

from simulator.core.registry import Choice, GameApp, GameInfo, GameRules, Setting, register
from simulator.games.bunko import ai, pace, rules


def _settings() -> tuple[Setting, ...]:
    tables = tuple(Choice(f"{n} ({rules.TABLE_SIZE * n} players)", {"tables": n},
                          players=rules.TABLE_SIZE * n)
                   for n in range(1, rules.MAX_TABLES + 1))
    sets = tuple(Choice(f"{n} ({rules.ROUNDS_PER_SET * n} rounds)", {"sets": n})
                 for n in range(1, rules.MAX_SETS + 1))
    roll_on = (Choice("On a target die", {"roll_on": "bunko-only"}),
               Choice("On any score", {"roll_on": "always"}),
               Choice("Not after bunko or triple", {"roll_on": "not-after-bunko-or-triple"}))
    paces = (Choice("Normal", {"pace": "normal"}), Choice("Fast", {"pace": "fast"}),
             Choice("Instant", {"pace": "instant"}))
    return (Setting("tables", "Tables", tables, default=2),
            Setting("sets", "Sets", sets, default=0),
            Setting("roll_on", "Roll again", roll_on, default=0),
            Setting("pace", "Dice pace", paces, default=0))


def _create(players: int, **settings: Any) -> rules.BunkoState:
    return rules.new_game(players, **settings)


def _view() -> type:
    from simulator.games.bunko.view import BunkoView
    return BunkoView


GAME = register(GameRules(
    info=GameInfo("bunko", "Bunko", "Roll three dice with your partner, table by table.",
                  min_players=rules.TABLE_SIZE, max_players=rules.TABLE_SIZE * rules.MAX_TABLES,
                  settings=_settings(), menu_order=40, outcomes=True,
                  player_counts=tuple(rules.TABLE_SIZE * n for n in range(1, rules.MAX_TABLES + 1)),
                  usual_players=rules.TABLE_SIZE * 3),
    state_class=rules.BunkoState,
    create=_create,
    strengths=ai.STRENGTHS,
    default_strength=ai.DEFAULT_STRENGTH,
    report=rules.game_report,
), GameApp(view=_view, live_resolver=pace.DiceResolver))
