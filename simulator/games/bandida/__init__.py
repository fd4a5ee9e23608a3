"""Bandida: the cooperative tunnel-card game (1 to 4 players), with hidden hands and a computer
team; Bandido's deck as a setting."""

from __future__ import annotations

from typing import Any

from simulator.core.registry import Choice, GameApp, GameInfo, GameRules, Setting, register
from simulator.core.state import GameState
from simulator.games.bandida import ai, rules

MODE_3 = "3: the lovers' escape"


def _settings() -> tuple[Setting, ...]:
    return (
        Setting("mode", "Mode", (Choice("1: catch Bandida", {"mode": 1}),
                                 Choice("2: help Bandida escape", {"mode": 2}),
                                 Choice(MODE_3, {"mode": 3})), default=0),
        Setting("side", "Start card", (Choice("5 exits (easier)", {"side": 5}),
                                       Choice("6 exits (harder)", {"side": 6})), default=1),
        # the deck comes after the mode: Bandido's own deck plays mode 1 and pins it
        Setting("deck", "Deck", (Choice("Bandida (objects, alarms)", {"deck": "bandida"}),
                                 Choice("Bandido (69 plain cards)", {"deck": "bandido", "mode": 1},
                                        fixes=(("mode", "1: catch Bandida"),))), default=0),
        Setting("ladder", "Ladder", (Choice("In mode 3 too", {"ladder": True}),
                                     Choice("Mode 3 without it", {"ladder": False, "mode": 3},
                                            fixes=(("mode", MODE_3),))), default=0),
        Setting("early_loss", "Lost game", (Choice("Said as soon as it is sure", {"early_loss": True}),
                                            Choice("Played to the end", {"early_loss": False})),
                default=0),
        # RULES: the youngest player starts; which seat that is, the players say
        Setting("first", "First player", tuple(Choice(str(n + 1), {"first": n}, seats=n + 1)
                                              for n in range(4))),
    )


def _create(players: int, **settings: Any) -> rules.BandidaState:
    return rules.new_game(players, **settings)


def _view() -> type:
    from simulator.games.bandida.view import BandidaView
    return BandidaView


def _report(state: GameState) -> dict[str, Any]:
    """Per self-play game: the cards not played, the exits still open, why a game was lost."""
    assert isinstance(state, rules.BandidaState)
    report: dict[str, Any] = {"result": state.result, "cards_left": state.pile_count()
                              + sum(len(h) for h in state.hands), "open_exits": state.exits,
                              "turns": state.turns}
    if state.result == "lost":
        report["reason"] = state.reason
    return report


GAME = register(GameRules(
    info=GameInfo("bandida", "Bandida", "Lay tunnel cards together until no tunnel leads out.",
                  min_players=1, max_players=4, settings=_settings(), menu_order=30,
                  chance=True, hidden_information=True, cooperative=True),
    state_class=rules.BandidaState,
    create=_create,
    strengths=ai.STRENGTHS,
    default_strength=ai.DEFAULT_STRENGTH,
    report=_report,
), GameApp(view=_view))
