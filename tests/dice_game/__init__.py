"""A tiny game with chance, for testing the controller and the agents: not registered in the program."""

from simulator.core.registry import GameInfo

INFO = GameInfo("dice", "Dice race", 2, 2, "test game with chance", package="dice_game")
