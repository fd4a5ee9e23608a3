"""A PettingZoo AEC environment for every registered game, built from the registry alone.

`aec_env("tanbo", size=7)` makes the environment of a game by its registry name, with the
game's settings by name; a new game package gets one without any code of its own, since
everything here goes through the game protocol (core/state.py) and the turn controller
(core/controller.py).

Agents: "player_0" ... "player_{n-1}"; seat i is player_i.

Actions: every agent's action space is `Discrete(max_actions)`. Action i is the i-th entry of
the rules' own sorted, deterministic `legal_actions()` at that agent's turn, and the observation's
"action_mask" marks the legal indices (the first len(legal_actions()) entries, at the agent's
turn only). An index outside the mask is refused with IllegalAction, a ValueError naming the
agent, the index and how many actions are legal. A position that lists more legal actions than
`max_actions` raises InvalidArgument (a ValueError) saying to pass a larger `max_actions`.
Planners read the rules' action objects with `GameAEC.legal_actions(agent)`, a seat's view with
`GameAEC.state_of(agent)`, and turn an action back into its index with `index_of`.

Observations: a dict of "observation", the UTF-8 bytes of the JSON of what the agent's seat may
know (`state.redacted(seat).to_dict()` in a game with hidden information, the whole state's
`to_dict()` otherwise; compact, keys sorted), zero-padded to `observation_bytes` bytes, and
"action_mask", as above. `decode_observation` turns the bytes back into the dict. A state whose
JSON is longer than `observation_bytes` raises InvalidArgument saying to pass a larger one.

Chance and outcomes: dice, shuffles, draws and the results the rules cannot compute themselves
(Bandu's physics: whether a tower stands) are resolved inside `reset()` and `step()`, by a
TurnController whose seats are all people: after an agent's action it plays every chance and
outcome node up to the next seat's decision or the end. Its RNG is seeded from `reset(seed=...)`
(the seed itself; without one, a seed drawn from the environment's `np_random`), and it draws
each chance move and outcome from (seed, ply), so the same seed and the same actions play the
same game. `to_save_dict()` gives the game as a save the program's window can open.

Rewards: 0 until the game ends; then every agent gets `state.returns()` at its seat (in [-1, 1];
usually +1 for a winner and -1 for a loser) and every agent is terminated. As PettingZoo's AEC
contract has it, each terminated agent is then selected once and must be stepped with None,
which removes it. Nothing is ever truncated. A seat that is knocked out before the end (a Bandu
player whose tower fell) stays an agent until the game ends: the rules never give it the turn,
and it gets its return with the others at the end.

Bandu: the placements offered here are the rules' own list in the place phase, the piece
released over the tower's axis, turned 0 or 90 degrees; the offers of a piece to an auction and
the answers (accept, refuse, bid, pass) are likewise the rules' lists. Each placement's outcome
is settled by the real PyBullet referee (0.1 to 1 s each), on the controller's own referee
thread, which `reset()` and `close()` shut down.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]

from simulator.core import registry
from simulator.core.controller import PERSON, Seat, TurnController
from simulator.core.errors import IllegalAction, InvalidArgument, SettingsError
from simulator.core.setting_values import whole_argument
from simulator.core.state import CHANCE, Action, GameState
from simulator.core.text import printable, shown

__all__ = ["GameAEC", "aec_env", "decode_observation"]

RENDER_MODES = ("ansi",)
MAX_SEED = 2**63 - 1          # what a save accepts as its seed
SHOWN_ACTIONS = 8             # legal actions named by render()


def aec_env(game_name: str, *, players: int | None = None, max_actions: int = 1024,
            observation_bytes: int = 16384, render_mode: str | None = None,
            **settings: Any) -> GameAEC:
    """The AEC environment of the registered game `game_name` ("tanbo", "bandu" ...) for
    `players` seats (default: the count the game and its settings are for), with the game's
    settings by name (e.g. `size=7` for Tanbo). Raises ValueError for an unknown game, bad
    settings or a player count the game is not for."""
    return GameAEC(game_name, players=players, max_actions=max_actions,
                   observation_bytes=observation_bytes, render_mode=render_mode, settings=settings)


def decode_observation(observation: Any) -> dict[str, Any]:
    """The dict an observation's bytes encode: what the agent's seat may know of the state, as
    the game's `to_dict()` gives it (a game with hidden information: of `redacted(seat)`). Takes
    the observation array, or the dict `observe()` returns."""
    if isinstance(observation, Mapping):
        if "observation" not in observation:
            raise ValueError("an observation dict holds its bytes under 'observation'")
        observation = observation["observation"]
    try:
        data = np.asarray(observation, dtype=np.uint8).tobytes().rstrip(b"\0")
        decoded = json.loads(data.decode("utf-8")) if data else None
    except (TypeError, ValueError) as error:     # not bytes, not UTF-8, not JSON
        raise ValueError(f"not an observation of this environment ({type(error).__name__})") from None
    if not isinstance(decoded, dict):
        raise ValueError("the observation does not encode a state's dict")
    return decoded


class GameAEC(AECEnv):
    """One game of a registered game as a PettingZoo AEC environment (the module's docstring
    says what its agents, actions, observations and rewards are)."""

    metadata: dict[str, Any]
    possible_agents: list[str]
    agents: list[str]
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    agent_selection: str

    def __init__(self, game_name: str, *, players: int | None = None, max_actions: int = 1024,
                 observation_bytes: int = 16384, render_mode: str | None = None,
                 settings: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        if not isinstance(game_name, str):
            raise SettingsError(f"the game is named by its registry name, not {shown(game_name)}")
        self.game = registry.get_game(game_name)
        self.settings = dict(settings or {})
        self.max_actions = whole_argument(max_actions, "max_actions", 1)
        self.observation_bytes = whole_argument(observation_bytes, "observation_bytes", 1)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidArgument("render_mode", f"render_mode must be None or one of "
                                  f"{', '.join(RENDER_MODES)}, not {shown(render_mode)}")
        self.render_mode = render_mode
        if players is None:
            players = self.game.info.players_for(self.settings)
        elif not isinstance(players, int) or isinstance(players, bool):
            raise SettingsError(f"players must be a whole number, not {shown(players)}")
        start = self.game.new_game(players, self.settings)    # checks the count and the settings
        self.metadata = {"render_modes": list(RENDER_MODES), "name": f"{self.game.name}_v0",
                         "is_parallelizable": False}
        self.possible_agents = [f"player_{seat}" for seat in range(start.num_players)]
        self.agents = []
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0, 255, (self.observation_bytes,), np.uint8),
            "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.max_actions) for agent in self.possible_agents}
        self.np_random, self.np_random_seed = seeding.np_random()
        self._controller: TurnController | None = None
        self._legal: list[Action] = []             # the legal actions of the seat to move
        self._encoded: dict[int, bytes] = {}       # seat -> its observation's JSON, this position

    # --- spaces -------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- playing ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` seeds the environment's `np_random` and is the controller's seed
        (0 to 2^63 - 1); without one, the controller's seed is drawn from `np_random`.
        `options` is accepted and ignored."""
        if seed is not None:
            if isinstance(seed, int) and not isinstance(seed, bool) and seed > MAX_SEED:
                raise InvalidArgument("seed", f"seed must be 0 to 2^63 - 1, not {shown(seed)}")
            self.np_random, self.np_random_seed = seeding.np_random(seed)
            game_seed = seed
        else:
            game_seed = int(self.np_random.integers(0, MAX_SEED))
        if self._controller is not None:
            self._controller.close()
            self._controller = None
        seats = [Seat(PERSON) for _ in self.possible_agents]
        self._controller = TurnController(self.game, self.settings, seats, seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._skip_agent_selection = None
        self._controller.play_computer_moves()
        self._settle()

    def step(self, action: Any) -> None:
        """The selected agent's action: an index into its legal actions (None once its game is
        over). Chance and outcomes that follow are resolved before it returns."""
        controller = self._require_controller()
        if not self.agents:
            raise RuntimeError("the game is over and every agent has been stepped: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = self._index(agent, action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        controller.submit(self._legal[index])
        controller.play_computer_moves()
        self._settle()

    def _settle(self) -> None:
        """After the controller has played up to a decision or the end: select the seat to move,
        or end the game for every agent with its return."""
        state = self._require_controller().state
        self._encoded.clear()
        self._legal = []
        if state.is_terminal():
            returns = state.returns()
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = float(returns[seat])
                self.terminations[agent] = True
            self._accumulate_rewards()
            return
        seat = state.current_player()
        if seat < 0:     # the controller plays chance and outcomes: only a bug leaves one here
            raise RuntimeError(f"{self.game.title}: no seat is to move, and the game is not over")
        legal = state.legal_actions()
        if not legal:
            raise RuntimeError(f"{self.game.title}: seat {seat + 1} is to move, but the rules "
                               f"list no legal action")
        if len(legal) > self.max_actions:
            raise InvalidArgument("max_actions", f"{self.game.title} lists {len(legal)} legal "
                                  f"actions here, more than max_actions = {self.max_actions}: "
                                  f"pass a larger max_actions to aec_env")
        self._legal = legal
        self.agent_selection = self.possible_agents[seat]

    def _index(self, agent: str, action: Any) -> int:
        """The legal-action index `action` stands for; IllegalAction when it is none."""
        if action is None:
            raise IllegalAction(f"{agent} is to move and must choose an action; None is only "
                                f"for an agent whose game is over")
        try:
            index = None if isinstance(action, bool) else operator.index(action)
        except TypeError:
            index = None
        if index is None:
            raise IllegalAction(f"{agent}'s action must be a whole number, an index into its "
                                f"legal actions, not {shown(action)}")
        count = len(self._legal)
        if not 0 <= index < count:
            raise IllegalAction(f"{agent} chose action {index}, but only {count} actions are legal "
                                f"now (indices 0 to {count - 1}, as its action_mask marks them)")
        return index

    # --- what an agent sees -------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent` may know of the game, as bytes of JSON, and its action mask."""
        seat = self._seat(agent)
        data = self._observation_data(seat)
        observation = np.zeros(self.observation_bytes, dtype=np.uint8)
        observation[:len(data)] = np.frombuffer(data, dtype=np.uint8)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        mask[:len(self.legal_actions(agent))] = 1
        return {"observation": observation, "action_mask": mask}

    def _observation_data(self, seat: int) -> bytes:
        data = self._encoded.get(seat)
        if data is None:
            view = self.state_of(self.possible_agents[seat])
            data = json.dumps(view.to_dict(), sort_keys=True, separators=(",", ":")).encode("utf-8")
            if len(data) > self.observation_bytes:
                raise InvalidArgument("observation_bytes", f"{self.game.title}'s state as seat "
                                      f"{seat + 1} sees it takes {len(data)} bytes of JSON here, "
                                      f"more than observation_bytes = {self.observation_bytes}: "
                                      f"pass a larger observation_bytes to aec_env")
            self._encoded[seat] = data
        return data

    def state_of(self, agent: str) -> GameState:
        """A copy of what `agent`'s seat may know: the redacted state in a game with hidden
        information, the whole state otherwise."""
        seat = self._seat(agent)
        state = self._require_controller().state
        return state.redacted(seat) if state.hidden_information else state.clone()

    def legal_actions(self, agent: str) -> list[Action]:
        """The rules' action objects `agent` may choose from now, in index order; none when it
        is not that agent's turn."""
        seat = self._seat(agent)
        state = self._require_controller().state
        return list(self._legal) if state.current_player() == seat else []

    def index_of(self, agent: str, action: Action) -> int:
        """The index of the rules' `action` among `agent`'s legal actions; IllegalAction when it
        is not one of them."""
        legal = self.legal_actions(agent)
        if action not in legal:
            raise IllegalAction(f"{printable(repr(action), 80)} is not among {agent}'s "
                                f"{len(legal)} legal actions")
        return legal.index(action)

    def action_to_str(self, agent: str, index: int) -> str:
        """The game's notation of `agent`'s legal action number `index`."""
        legal = self.legal_actions(agent)
        if not legal:
            raise IllegalAction(f"it is not {agent}'s turn")
        return self._require_controller().state.action_to_str(legal[self._index(agent, index)])

    def to_save_dict(self) -> dict[str, Any]:
        """The game so far as the program's save (TurnController.from_save_dict replays it)."""
        return self._require_controller().to_save_dict()

    def _seat(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(f"{self.game.title} here has no agent {shown(agent)}; its agents are "
                             f"{', '.join(self.possible_agents)}") from None

    def _require_controller(self) -> TurnController:
        if self._controller is None:
            raise RuntimeError("the environment has no game: call reset() first")
        return self._controller

    # --- showing and closing ------------------------------------------------------------------
    def render(self) -> str | None:
        """In "ansi" mode, a few lines of text: the game, whose move it is (with some of the
        legal moves in the game's notation) or the returns, and the last move."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass "
                                  "render_mode='ansi' to aec_env")
            return None
        controller = self._require_controller()
        state, info = controller.state, self.game.info
        summary = state.summary()
        lines = [f"{info.title}{f' ({summary})' if summary else ''}, seed {controller.seed}, "
                 f"{controller.ply()} moves played"]
        if state.is_terminal():
            returns = state.returns()
            lines.append("Game over: " + ", ".join(
                f"{agent} {returns[seat]:+g}" for seat, agent in enumerate(self.possible_agents)))
        else:
            seat = state.current_player()
            names = [state.action_to_str(action) for action in self._legal[:SHOWN_ACTIONS]]
            more = ", ..." if len(self._legal) > SHOWN_ACTIONS else ""
            lines.append(f"{info.seat_name(seat)} ({self.possible_agents[seat]}) to move, "
                         f"{len(self._legal)} legal actions: {', '.join(names)}{more}")
        if controller.history:
            last = controller.history[-1]
            who = info.seat_name(last.player) if last.player >= 0 else \
                "chance" if last.player == CHANCE else "result"
            lines.append(f"last move: {who}: {last.action}")
        return "\n".join(lines)

    def close(self) -> None:
        """Shut the game's controller down (Bandu's: its physics referee)."""
        if self._controller is not None:
            self._controller.close()
            self._controller = None
