"""Bandida: listed on the menu; its rules are not built yet (the menu says so)."""

from simulator.core.registry import Game, GameInfo, register

GAME = register(Game(GameInfo("bandida", "Bandida", "Close every tunnel before Bandida escapes.",
                              min_players=1, max_players=4, menu_order=30,
                              chance=True, hidden_information=True, cooperative=True)))
