"""Peek, a test game with hidden information; registers itself as 'peek' when imported."""

from peek_game import rules
from simulator.core.agents import MCTSAgent, Strength
from simulator.core.registry import GameApp, GameInfo, GameRules, register


def _view() -> type:
    from peek_game.view import PeekView
    return PeekView


GAME = register(GameRules(
    GameInfo("peek", "Peek", "test game with hidden cards", min_players=2, max_players=2,
             chance=True, hidden_information=True, seat_names=("North", "South"), on_menu=False),
    state_class=rules.PeekState, create=lambda players: rules.new_game(),
    strengths={"easy": Strength("easy", "Easy", lambda: MCTSAgent(iterations=200))},
    default_strength="easy"), GameApp(view=_view))
