"""Nim, the template game: copy this folder to simulator/games/<your game>/ and change it.

A game is a package that builds its `GameRules` (what headless play uses) and its `GameApp` (what
the window and the command line use) and passes both to `register()` (simulator/core/registry.py).
Nothing outside the package needs an edit: the menu, the new-game screen, saves, undo, the
computer players, `bandu-sim play` and `selfplay`, and the conformance and fuzz tests all find
it through the registry. The three files:

- `rules.py`: the state (a `GameState`), pure Python: no pyglet, no physics;
- `view.py`: the window's board (a `GameView`), imported only when the window opens it;
- this file: what the game says about itself, its settings, and its computer players.

Here it is found as a plug-in: tests/test_template_game.py adds examples/ to the games' path.
Check a game with the conformance checks every game passes: `simulator.testing.check_game(name)`.
"""

from __future__ import annotations

from typing import Any

from simulator.core.agents import MCTSAgent, Strength
from simulator.core.registry import Choice, GameApp, GameInfo, GameRules, Setting, register

from . import rules


def _create(players: int, **settings: Any) -> rules.NimState:
    # every setting arrives checked against its choices (core/setting_values.py)
    return rules.NimState(tuple(range(1, settings.get("heaps", 3) + 1)))


def _view() -> type:
    from .view import NimView  # pyglet: only when the window shows the game

    return NimView


GAME = register(GameRules(
    info=GameInfo("nim", "Nim", "Take stones from one heap; whoever takes the last stone wins.",
                  min_players=2, max_players=2, menu_order=900,
                  settings=(Setting("heaps", "Heaps", tuple(Choice(f"{n} heaps", {"heaps": n})
                                                          for n in (3, 4, 5))),)),
    state_class=rules.NimState,
    create=_create,
    strengths={"easy": Strength("easy", "Easy", lambda: MCTSAgent(iterations=50)),
               "strong": Strength("strong", "Strong", lambda: MCTSAgent(iterations=2000))},
    default_strength="easy",
), GameApp(view=_view))
