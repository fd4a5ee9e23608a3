"""Bandida's computer team: each seat searches on what it may see only (never another hand or
the pile's order), plays legal moves, closes exits when it can, and a team of computers plays
whole games headless, through the controller and self-play, with the game's report."""

from __future__ import annotations

import itertools
import random

import pytest
from test_bandida_rules import TIGHT, position

from simulator.core.controller import COMPUTER, Seat, TurnController
from simulator.games.bandida import ai, rules
from simulator.games.bandida.cards import UNKNOWN, kind_of
from simulator.selfplay import play_one


def test_the_search_is_given_only_what_its_seat_may_see(monkeypatch):
    state = rules.new_game(3, mode=2)
    rng = random.Random(3)
    while state.phase != "play":
        state.apply(state.random_action(rng))
    seen = []
    original = rules.BandidaState.resample

    def spy(self, player, rng):
        seen.append((player, [list(h) for h in self.hands], list(self.pool)))
        return original(self, player, rng)

    monkeypatch.setattr(rules.BandidaState, "resample", spy)
    controller = TurnController("bandida", {"mode": 2}, [Seat(COMPUTER, "mcts:easy")] * 3, seed=3)
    controller.play_computer_moves(limit=40)
    assert seen
    for player, hands, pool in seen:
        assert set(pool) <= {UNKNOWN}
        for seat, hand in enumerate(hands):
            if seat != player:
                assert set(hand) <= {UNKNOWN}
            else:
                assert UNKNOWN not in hand


def test_the_team_closes_the_last_exit_when_it_can():
    u_both = [("Ab+Bb", 0, 1, 0), ("Ab+Bb", 1, -1, 180)]
    # the empty pile: the dead end wins now; the three-way card opens two exits one card can't close
    state = position(u_both, side=5, hands=[["Ae", "Ae+At+Ab"]], pool=[])
    assert len(state.legal_actions()) > 1
    agent = ai.STRENGTHS["easy"].make()
    move = agent.choose(state.redacted(0), random.Random(1))
    after = state.clone()
    after.apply(move)
    assert after.result == "won"


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_every_strength_plays_legal_moves(level):
    state = position(hands=[["Ae", "At+Bb", "dynamite:Ab+Bb"], ["Ab", "Ae+At"]], pool=None)
    agent = ai.STRENGTHS[level].make()
    agent.iterations = 20
    move = agent.choose(state.redacted(0), random.Random(2))
    assert state.is_legal(move)


def test_a_forced_swap_needs_no_search():
    state = position(TIGHT, hands=[["At", "At", "Ab"]], pool=["Ae+Ab", "Ae+At", "Ae+At+Ab"], early_loss=False)
    assert ai.STRENGTHS["strong"].make().choose(state.redacted(0), random.Random(0)).verb == "swap"


def test_the_evaluator_prefers_fewer_open_exits():
    few = position([("Ab+Bb", 0, 1, 0)], hands=[["Ae"]])
    many = position(hands=[["Ae"]])
    assert ai.team_evaluator(few)[0] > ai.team_evaluator(many)[0]
    assert len(set(ai.team_evaluator(many))) == 1


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_selfplay_runs_headless_with_the_games_report(players):
    result = play_one("bandida", {"mode": 1 + players % 3, "side": 5}, ["random"] * players, seed=players)
    assert result["result"] in ("won", "lost")
    assert isinstance(result["cards_left"], int) and isinstance(result["open_exits"], int)
    assert ("reason" in result) == (result["result"] == "lost")
    assert result["winners"] in ([], list(range(players)))


def test_a_computer_team_finishes_a_game():
    result = play_one("bandida", {"mode": 1, "side": 5}, ["mcts:easy", "mcts:easy"], seed=2)
    assert result["result"] in ("won", "lost") and result["length"] > 20


def test_greedy_playouts_win_more_than_random_play():
    """The playout policy the search relies on is better than chance (mode 1, five exits)."""
    def wins(step) -> int:
        won = 0
        for seed in range(60):
            state = rules.new_game(2, mode=1, side=5)
            rng = random.Random(seed)
            while not state.is_terminal():
                step(state, rng)
            won += state.result == "won"
        return won
    greedy = wins(lambda s, r: s.random_playout_step(r))
    uniform = wins(lambda s, r: s.apply_unchecked(s.random_action(r)))
    assert greedy > uniform + 5


def test_the_ladder_is_played_by_the_playout_when_it_fits():
    state = position([("Ab+Bb", 0, 1, 0), ("Ab+Bb", 1, -1, 180)], mode=2, side=5,
                     hands=[["Ae", "ladder"], ["At"]], pool=["At", "Ab", "Ab"])
    move = state.playout_placement(random.Random(0), greed=1.0)
    assert move is not None and move.card == kind_of("ladder").index


# --- the moves worth searching ------------------------------------------------------------------
def test_a_stranded_tunnel_is_exactly_what_the_early_loss_then_finds():
    """strands_a_tunnel agrees with the rules: over every placement in random games with
    Bandido's deck (no dynamite), a placement strands a tunnel exactly when the early loss
    follows it."""
    stranding = safe = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = rules.new_game(2, mode=1, side=5 + seed % 2, deck="bandido")
        while not state.is_terminal():
            if state.phase == "play":
                for move in state.legal_actions():
                    if move.verb != "place":
                        continue
                    after = state.clone()
                    after.apply(move)
                    while not after.is_terminal() and not after.is_decision_node():
                        after.apply(after.random_action(rng))
                    strands = state.strands_a_tunnel((move.card, move.x, move.y, move.rotation, move.side))
                    if strands:
                        stranding += 1
                        assert after.result == "lost"
                    else:
                        safe += 1
                        assert "can never be closed" not in after.reason
            state.apply(state.random_action(rng))
    assert stranding > 20 and safe > 20


def test_the_moves_worth_searching_are_legal_best_first_and_strand_nothing():
    for seed in range(6):
        rng = random.Random(seed)
        state = rules.new_game(2, mode=1 + seed % 3)
        for _ in range(30):
            if state.is_terminal():
                break
            if state.phase == "play" and len(state.legal_actions()) > 4:
                chosen = ai.promising_moves(state, 4)
                assert 1 <= len(chosen) <= 4 and all(state.is_legal(m) for m in chosen)
                placements = [(m.card, m.x, m.y, m.rotation, m.side) for m in chosen]
                if any(not state.strands_a_tunnel((m.card, m.x, m.y, m.rotation, m.side))
                       for m in state.legal_actions() if m.verb == "place"):
                    assert not any(state.strands_a_tunnel(p) for p in placements)
                exits = [_exits_after(state, m) for m in chosen]
                assert exits == sorted(exits) or state.mode > 1
            state.apply(state.random_action(rng))
    # outside a placement every legal move is searched
    discard = position(hands=[["Ae", "At"]], pool=None)
    discard.phase, discard.actor, discard.queue = "discard", 0, [0]
    assert ai.promising_moves(discard, 1) == discard.legal_actions()


def _exits_after(state, move) -> int:
    after = state.clone()
    after.apply(move)
    return after.exits


def test_the_ladder_is_the_first_move_searched_when_it_fits():
    state = position([("Ab+Bb", 0, 1, 0), ("Ab+Bb", 1, -1, 180)], mode=2, side=5,
                     hands=[["Ae", "ladder"], ["At"]], pool=["At", "Ab", "Ab"])
    assert ai.promising_moves(state, 3)[0].card == kind_of("ladder").index


def test_the_search_budget_is_counted_in_iterations_so_a_busy_machine_plays_the_same(monkeypatch):
    """Strength must not depend on the machine's load: on a clock that runs 50 ms with every
    reading (a machine far busier than any real one) the players choose the same moves."""
    from simulator.core import agents

    state = rules.new_game(2, mode=2)
    rng = random.Random(4)
    while state.phase != "play":
        state.apply(state.random_action(rng))
    normal = [ai.STRENGTHS[level].make().choose(state.redacted(0), random.Random(9))
              for level in ("medium", "strong")]
    readings = itertools.count()
    # the search's clock alone: a window's audio thread in this process keeps the real one
    monkeypatch.setattr(agents, "perf_counter", lambda: 0.05 * next(readings))
    slow = [ai.STRENGTHS[level].make().choose(state.redacted(0), random.Random(9))
            for level in ("medium", "strong")]
    assert slow == normal


def test_the_levels_search_more_the_stronger_they_are():
    """Each level searches more placements with more iterations and deeper playouts than the one
    below, and no level's clock binds on a normal machine."""
    agents = [ai.STRENGTHS[level].make() for level in ("easy", "medium", "strong")]
    for lower, higher in itertools.pairwise(agents):
        assert higher.iterations > lower.iterations
        assert (higher.playout_depth or 10**9) > (lower.playout_depth or 10**9)
    breadths = [agent.candidates.keywords["limit"] for agent in agents]
    assert breadths == sorted(set(breadths))
    assert all(agent.time_limit >= 10 for agent in agents)
