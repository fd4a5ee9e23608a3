"""Computer players for any game of the GameState protocol.

An Agent chooses an action for the player to move. It is given `state.redacted(player)`, a state
holding only what its seat may know, never the full state, and must not change it (it works on
clones). RandomAgent picks uniformly. MCTSAgent is UCT with random playouts, open-loop chance
handling (chance nodes are sampled by their probabilities, outcome nodes by the game's model),
any number of players, an iteration budget with an optional wall-clock cap, an optional
evaluator that scores positions where a playout is cut short, and an optional `candidates`
function by which a game narrows the moves searched at each decision to those its own heuristic
finds worth trying (progressive pruning: the budget then goes to telling good moves apart). In a game with hidden information
every iteration plays on a fresh determinization (`resample`) and shares one tree, in which an
action is tried and chosen only where it is legal in that determinization (information-set
UCT, Cowling, Powley and Whitehouse 2012). Strength levels are named presets of those budgets,
set per game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter  # the search's clock; a test slows it for the search alone
from typing import Any, Protocol

from simulator.core.state import Action, GameState

Evaluator = Callable[[GameState[Any]], list[float]]
Candidates = Callable[[GameState[Any]], list[Action]]


class Agent(Protocol):
    def choose(self, state: GameState[Any], rng: random.Random) -> Action:
        """An action for state.current_player(), given what that seat may know (a redacted
        state); must not modify `state`."""
        ...


class RandomAgent:

    def choose(self, state: GameState[Any], rng: random.Random) -> Action:
        action: Action = state.random_action(rng)
        return action


@dataclass
class _Node:
    player: int                     # who acted to reach this node (-1 at the root)
    untried: list[Action] | None = None
    children: dict[Action, _Node] = field(default_factory=dict)
    visits: int = 0
    value: float = 0.0              # sum of rewards in [0, 1] for `player`


def _expand(node: _Node, state: GameState[Any], action: Action, mover: int, path: list[_Node]) -> None:
    """Play `action` and hang a new child for it under `node`, at the end of `path`."""
    state.apply_unchecked(action)
    child = _Node(player=mover)
    node.children[action] = child
    path.append(child)


@dataclass
class MCTSAgent:
    """UCT search. `iterations` bounds the work; `time_limit` (seconds) caps it as well."""

    iterations: int = 1000
    time_limit: float | None = None
    exploration: float = 1.0
    playout_depth: int | None = None
    evaluator: Evaluator | None = None
    candidates: Candidates | None = None

    def choose(self, state: GameState[Any], rng: random.Random) -> Action:
        legal: list[Action] = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        root_moves: list[Action] | None = None
        if self.candidates is not None:
            # the seat's own moves are the same in every determinization: narrowed once
            seen = state.resample(me, rng) if state.hidden_information else state.clone()
            allowed_here = set(legal)
            root_moves = [a for a in self.candidates(seen) if a in allowed_here] or legal
            if len(root_moves) == 1:
                return root_moves[0]
        root = _Node(player=-1)
        deadline = None if self.time_limit is None else perf_counter() + self.time_limit
        for _ in range(self.iterations):
            if state.hidden_information:
                self._iterate_determinized(root, state.resample(me, rng), rng, root_moves)
            else:
                self._iterate(root, state.clone(), rng, root_moves)
            if deadline is not None and perf_counter() > deadline:
                break
        allowed = set(legal if root_moves is None else root_moves)
        best = max((item for item in root.children.items() if item[0] in allowed),
                   key=lambda item: (item[1].visits, item[1].value))
        return best[0]

    def _moves(self, state: GameState[Any]) -> list[Action]:
        """The moves searched at a decision node: the candidates, else every legal one."""
        return state.legal_actions() if self.candidates is None else self.candidates(state)

    def _iterate(self, root: _Node, state: GameState[Any], rng: random.Random,
                 root_moves: list[Action] | None = None) -> None:
        path = [root]
        node = root
        # selection and expansion
        while not state.is_terminal():
            if not state.is_decision_node():   # chance or outcome: sampled (open loop)
                state.apply_unchecked(state.random_action(rng))
                continue
            mover = state.current_player()
            if node.untried is None:
                node.untried = list(root_moves) if node is root and root_moves else self._moves(state)
                rng.shuffle(node.untried)
            # an action may be new to this node when chance led elsewhere before (open loop)
            untried = [a for a in node.untried if a not in node.children]
            node.untried = untried
            if untried:
                _expand(node, state, untried.pop(), mover, path)
                break
            action, node = self._select(node, state)
            state.apply_unchecked(action)
            path.append(node)
        self._back_up(path, state, rng)

    def _iterate_determinized(self, root: _Node, state: GameState[Any], rng: random.Random,
                              root_moves: list[Action] | None = None) -> None:
        """One iteration on one determinization: the legal actions are this one's own."""
        path = [root]
        node = root
        while not state.is_terminal():
            if not state.is_decision_node():
                state.apply_unchecked(state.random_action(rng))
                continue
            mover = state.current_player()
            legal = root_moves if node is root and root_moves else self._moves(state)
            untried = [a for a in legal if a not in node.children]
            if untried:
                _expand(node, state, rng.choice(untried), mover, path)
                break
            action, node = self._select(node, state, set(legal))
            state.apply_unchecked(action)
            path.append(node)
        self._back_up(path, state, rng)

    def _back_up(self, path: list[_Node], state: GameState[Any], rng: random.Random) -> None:
        """Play the iteration out and credit every node on its path with the result."""
        rewards = self._playout(state, rng)
        for visited in path:
            visited.visits += 1
            if visited.player >= 0:
                visited.value += rewards[visited.player]

    def _select(self, node: _Node, state: GameState[Any],
                legal: set[Action] | None = None) -> tuple[Action, _Node]:
        if legal is None:
            legal = set(state.legal_actions()) if len(node.children) else set()
        log_n = math.log(node.visits + 1)
        best, best_score = None, -math.inf
        for action, child in node.children.items():
            if action not in legal:
                continue
            score = child.value / child.visits + self.exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = (action, child), score
        assert best is not None
        return best

    def _playout(self, state: GameState[Any], rng: random.Random) -> list[float]:
        depth = 0
        limit = self.playout_depth
        while not state.is_terminal():
            if limit is not None and depth >= limit:
                if self.evaluator is not None:
                    return [(v + 1.0) / 2.0 for v in self.evaluator(state)]
                return [0.5] * state.num_players
            state.random_playout_step(rng)
            depth += 1
        return [(v + 1.0) / 2.0 for v in state.returns()]


@dataclass(frozen=True)
class Strength:
    """A named computer level for one game."""

    name: str
    label: str
    make: Callable[[], Agent]


def parse_agent_spec(spec: str) -> tuple[str, str | None]:
    """'mcts:strong' -> ('mcts', 'strong'); 'random' -> ('random', None)."""
    kind, _, level = spec.strip().partition(":")
    return kind.lower(), (level.lower() or None)
