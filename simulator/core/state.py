"""The game protocol every game implements, and a base class with its shared defaults.

Modelled on OpenSpiel's State: whose turn (a seat index, CHANCE or TERMINAL), sorted legal
actions, apply with validation, chance outcomes, returns, clone, JSON round trip, per-player
observation and a readable move notation. Actions are small frozen dataclasses.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Any

from simulator.core.errors import IllegalAction

CHANCE = -1
TERMINAL = -2

Action = Hashable


class GameState(ABC):
    """Abstract game state. Subclasses implement the abstract methods; the rest has defaults."""

    #: registry name of the game, e.g. "tanbo"
    game_name: str = ""

    # --- whose turn -------------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def current_player(self) -> int:
        """Seat index 0..n-1, or CHANCE, or TERMINAL."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # --- actions ----------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Sorted, deterministic list of the actions the player to move may take."""

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def illegal_reason(self, action: Action) -> str:
        """Why `action` is illegal here; games override this with a more precise reason."""
        if self.is_terminal():
            return "the game is over"
        return f"{self.action_to_str(action)} is not a legal move now"

    def apply(self, action: Action) -> None:
        """Apply a validated action; raises IllegalAction with a readable reason."""
        if self.is_terminal() or not self.is_legal(action):
            raise IllegalAction(self.illegal_reason(action))
        self.apply_unchecked(action)

    @abstractmethod
    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (used by search)."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """(outcome, probability) pairs at a chance node; empty for games without chance."""
        return []

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action (chance nodes: drawn by probability).

        Games override this with something faster for playouts."""
        if self.is_chance_node():
            outcomes = self.chance_outcomes()
            return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        return rng.choice(self.legal_actions())

    # --- outcome ----------------------------------------------------------------------------
    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat, in [-1, 1]; meaningful at the end (all zeros before)."""

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        returns = self.returns()
        best = max(returns)
        return [seat for seat, value in enumerate(returns) if value == best and value > 0]

    # --- copies and serialisation -------------------------------------------------------------
    @abstractmethod
    def clone(self) -> GameState: ...

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description of the whole state."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Inverse of to_dict; validates and raises ValueError saying what is wrong."""

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may see; games with hidden information override this."""
        return self.to_dict()

    # --- notation ---------------------------------------------------------------------------
    @abstractmethod
    def action_to_str(self, action: Action) -> str: ...

    @abstractmethod
    def action_from_str(self, text: str) -> Action:
        """Parse the notation of action_to_str; raises IllegalAction on bad text."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]
