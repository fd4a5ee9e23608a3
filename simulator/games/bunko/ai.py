"""Bunko's computer players: a player's only decision is to roll, so every strength rolls at once;
what a computer seat adds is that it rolls by itself (the World Bunco Association's "ghost"),
at the pace the window sets. The search agent is the house's, which sees that one move is legal
and takes it without searching."""

from __future__ import annotations

from simulator.core.agents import MCTSAgent, Strength

STRENGTHS = {"ghost": Strength("ghost", "Computer", lambda: MCTSAgent(iterations=1))}
DEFAULT_STRENGTH = "ghost"
