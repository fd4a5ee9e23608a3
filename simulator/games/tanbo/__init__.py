"""Tanbo (Mark Steere): two players grow roots on a grid; a bounded root is removed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simulator.core.errors import SettingsError
from simulator.core.registry import Choice, GameApp, GameInfo, GameRules, Setting, register
from simulator.core.setting_values import Accepts
from simulator.games.tanbo import ai, rules


def _settings() -> tuple[Setting, ...]:
    # every choice names width and height, so a later setting (the classic start) overrides cleanly
    squares = [Choice(f"{s} x {s}", {"width": s, "height": s}) for s in rules.SQUARE_SIZES]
    rectangles = [Choice(f"{w} x {h}", {"width": w, "height": h}) for w, h in rules.RECTANGLES]
    return (
        Setting("board", "Board", tuple(squares + rectangles), default=0),
        Setting("start", "Start", (Choice("Dense (2026)", {"start": "dense"}),
                                   Choice("Classic 1993 (19 x 19)",
                                          {"start": "classic", "width": 19, "height": 19},
                                          fixes=(("board", "19 x 19"),))),
                default=0),
    )


def _create(players: int, **settings: Any) -> rules.TanboState:
    if players != 2:
        raise SettingsError(f"Tanbo is for 2 players, not {players}")
    return rules.new_game(**settings)


def _view() -> type:
    from simulator.games.tanbo.view import TanboView
    return TanboView


def _benchmark(quick: bool = False, progress: Callable[[int, int, str], None] | None = None
               ) -> tuple[dict[str, Any], str]:
    from simulator.games.tanbo import playout_speed
    report = playout_speed.run_benchmark(quick=quick, progress=progress)
    return report, playout_speed.format_report(report)


GAME = register(GameRules(
    info=GameInfo("tanbo", "Tanbo", "Grow your roots, bound your opponent's, clear the board.",
                  min_players=2, max_players=2, settings=_settings(),
                  accepts={"size": Accepts((int,), values=rules.SQUARE_SIZES)},   # --setting size=11
                  seat_names=(rules.COLOUR_NAMES[rules.BLACK], rules.COLOUR_NAMES[rules.WHITE]),
                  menu_order=20),
    state_class=rules.TanboState,
    create=_create,
    strengths=ai.STRENGTHS,
    default_strength=ai.DEFAULT_STRENGTH,
    benchmark=_benchmark,
), GameApp(view=_view))
