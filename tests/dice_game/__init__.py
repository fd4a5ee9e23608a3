"""A tiny game with chance, for testing the controller and the agents. It registers itself as
'dice' when a test imports it; the program's own registry never discovers it (not under
simulator/games/)."""

from dice_game import ai, rules
from simulator.core.registry import GameInfo, GameRules, register

INFO = register(GameRules(
    GameInfo("dice", "Dice race", "test game with chance", min_players=2, max_players=2, chance=True,
             on_menu=False),
    state_class=rules.DiceState, create=lambda players: rules.new_game(),
    strengths=ai.STRENGTHS, default_strength=ai.DEFAULT_STRENGTH))
