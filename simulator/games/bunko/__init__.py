"""Bunko: listed on the menu; its rules are not built yet (the menu says so)."""

from simulator.core.registry import Game, GameInfo, register

GAME = register(Game(GameInfo("bunko", "Bunko", "Roll three dice with your partner, table by table.",
                              min_players=4, max_players=20, menu_order=40,
                              outcomes=True)))
