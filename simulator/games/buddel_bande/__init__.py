"""Buddel Bande, the moles' race: 2-4 clans of moles run from the haystack to their dens, their
clans hidden under them, while a dog paralyses the mole beside it."""

from __future__ import annotations

from typing import Any

from simulator.core.registry import Choice, GameApp, GameInfo, GameRules, Setting, register
from simulator.games.buddel_bande import ai, rules


def _settings() -> tuple[Setting, ...]:
    return (
        Setting("know_own", "Own moles", (Choice("Known from the start", {"know_own": True}),
                                          Choice("Unknown (look to learn)", {"know_own": False}))),
        Setting("first", "First player (seat)", tuple(Choice(str(n + 1), {"first": n}, seats=n + 1)
                                                      for n in range(rules.MAX_PLAYERS))),
    )


def _create(players: int, **settings: Any) -> rules.BuddelState:
    return rules.new_game(players=players, **settings)


def _view() -> type:
    from simulator.games.buddel_bande.view import BuddelView
    return BuddelView


GAME = register(GameRules(
    info=GameInfo("buddel_bande", "Buddel Bande", "Move the moles home, mind the dog.",
                  min_players=rules.MIN_PLAYERS, max_players=rules.MAX_PLAYERS, settings=_settings(),
                  seat_names=tuple(clan.capitalize() for clan in rules.CLANS), seat_names_plural=True,
                  menu_order=50,
                  chance=True, hidden_information=True),
    state_class=rules.BuddelState,
    create=_create,
    strengths=ai.STRENGTHS,
    default_strength=ai.DEFAULT_STRENGTH,
    report=rules.game_report,
), GameApp(view=_view))
