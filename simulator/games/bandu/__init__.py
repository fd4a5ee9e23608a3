"""Bandu: listed on the menu; its rules are not built yet (the menu says so)."""

from simulator.core.registry import Game, GameInfo, register

GAME = register(Game(GameInfo("bandu", "Bandu", "Bid beans, stack wooden pieces, keep your tower standing.",
                              min_players=2, max_players=8, menu_order=10,
                              outcomes=True)))
