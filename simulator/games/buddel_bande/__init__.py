"""Buddel Bande: listed on the menu; its rules are not built yet (the menu says so)."""

from simulator.core.registry import Game, GameInfo, register

GAME = register(Game(GameInfo("buddel_bande", "Buddel Bande", "Move the moles home, mind the dog.",
                              min_players=2, max_players=4, menu_order=50,
                              chance=True, hidden_information=True)))
