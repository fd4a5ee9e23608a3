"""Computer players: the generic MCTS works for any game of the protocol, with or without chance,
and is stronger than random play."""

from __future__ import annotations

import random

import dice_game

from simulator.core import registry
from simulator.core.agents import MCTSAgent, RandomAgent
from simulator.selfplay import selfplay

DICE = dice_game.INFO


def test_mcts_takes_an_immediate_win():
    from simulator.games.tanbo.rules import TanboState

    # White to move: a4 removes Black's last root (see test_tanbo_rules); any other move does not
    state = TanboState.from_dict({"width": 5, "height": 7, "to_move": "white", "board": [
        "W..WW", "W...W", "..WW.", "..W..", "...W.", ".WWWB", "..WBB"]})
    agent = MCTSAgent(iterations=300)
    assert state.action_to_str(agent.choose(state, random.Random(1))) == "e3"


def test_mcts_handles_chance_nodes_and_does_not_change_the_state():
    state = DICE.new_game()
    before = state.to_dict()
    action = MCTSAgent(iterations=200).choose(state, random.Random(0))
    assert state.to_dict() == before
    assert action in state.legal_actions()


def test_mcts_prefers_the_bigger_step_in_the_dice_race():
    state = DICE.new_game()
    picks = [MCTSAgent(iterations=400).choose(state, random.Random(seed)).n for seed in range(5)]
    assert picks.count(2) >= 4


def test_agent_specs():
    info = registry.get_game("tanbo")
    assert isinstance(info.make_agent("random"), RandomAgent)
    assert info.make_agent("mcts").playouts == 400                  # the default level: Medium
    assert info.make_agent("mcts:strong").playouts == 3000


def test_easy_mcts_beats_random_on_7x7():
    report = selfplay("tanbo", games=12, seed=40, players=["mcts:easy", "random"])
    assert report["wins"][0] >= 10, report["wins"]
    report = selfplay("tanbo", games=12, seed=60, players=["random", "mcts:easy"])
    assert report["wins"][1] >= 10, report["wins"]


def test_mcts_searches_only_the_candidates_a_game_offers():
    from dice_game.rules import Step

    state = DICE.new_game()
    # narrowed to the smaller step, the search plays it although the bigger one is better
    only_small = MCTSAgent(iterations=50, candidates=lambda s: [Step(1)])
    assert only_small.choose(state, random.Random(0)) == Step(1)
    # the candidates are asked for at every decision of the tree, not only at the root
    asked = []

    def both(s):
        asked.append(s.to_dict())
        return s.legal_actions()

    picks = [MCTSAgent(iterations=400, candidates=both).choose(state, random.Random(seed)).n
             for seed in range(5)]
    assert picks.count(2) >= 4
    assert len({str(a) for a in asked}) > 3


def test_tanbo_levels_count_their_playouts_so_a_slow_machine_plays_the_same_moves(monkeypatch):
    # a machine twenty times slower (CI under load) once cut Easy's search short and turned a
    # loaded game into another game: the budgets are counted, never timed
    from simulator.core import agents
    from simulator.games.tanbo.rules import TanboState

    info = registry.get_game("tanbo")
    state = TanboState(5, 7)
    chosen = {name: info.make_agent(name).choose(state, random.Random(3))
              for name in ("mcts:easy", "mcts:medium", "mcts:strong")}
    clock = iter(range(0, 10**9, 5))      # 5 ms pass at every look: Strong's search takes 15 s
    # the search's clock alone: a window's audio thread in this process keeps the real one
    monkeypatch.setattr(agents, "perf_counter", lambda: next(clock) / 1000)
    for name, action in chosen.items():
        assert info.make_agent(name).choose(state, random.Random(3)) == action, name


def test_tanbo_playouts_shrink_on_larger_boards_as_a_playout_grows_dearer():
    from simulator.games.tanbo.ai import playouts_for

    assert playouts_for(3000, 49, 35) == 3000 and playouts_for(3000, 49, 49) == 3000
    assert playouts_for(400, 121, 361) < 400 / 3
    assert [playouts_for(3000, 49, s * s) for s in (7, 11, 15, 19)] == sorted(
        (playouts_for(3000, 49, s * s) for s in (7, 11, 15, 19)), reverse=True)
