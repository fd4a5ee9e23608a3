"""Buddel Bande's computer players: they see only what their seat knows, remember their looks,
search over the clans they do not know, and beat random players."""

from __future__ import annotations

import random

import pytest
from test_buddel_bande_rules import table

from simulator.core.controller import COMPUTER, Seat, TurnController
from simulator.core.registry import get_game
from simulator.games.buddel_bande.ai import STRENGTHS, BuddelAgent, progress_evaluator
from simulator.games.buddel_bande.rules import (
    CLANS,
    DONE,
    LOOK_UNDER,
    SIZES,
    UNKNOWN,
    Act,
    BuddelState,
)


class SpyAgent:
    """Records what it is given, then plays like the easy player."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[BuddelState] = []
        self.inner = STRENGTHS["easy"].make()

    def choose(self, state, rng):
        self.seen.append(state.clone())
        return self.inner.choose(state, rng)


def test_a_computer_player_is_given_only_what_its_seat_knows():
    controller = TurnController("buddel_bande", {}, [Seat(COMPUTER, "random")] * 3, seed=11)
    spy = SpyAgent()
    controller.agents[1] = spy
    controller.play_computer_moves()
    assert controller.is_over() and spy.seen
    full = controller.state
    for given in spy.seen:
        known = given.known_mask(1)
        for mole, clan in enumerate(given.clan):
            if known >> mole & 1:
                assert clan == full.clan[mole]        # what it saw is true
            else:
                assert clan == UNKNOWN               # what it did not see is not there
    # it remembers its looks: whatever it looked at stays known on later turns
    looked_before = 0
    for given in spy.seen:
        assert given.looked[1] & looked_before == looked_before
        looked_before = given.looked[1]
    assert bin(looked_before).count("1") >= 2
    controller.close()


def test_it_always_looks_under_the_mole_it_moved_then_ends_its_turn():
    agent = STRENGTHS["strong"].make()
    state = table()
    state.apply(state.action_from_str("roll any flower"))
    state.apply(Act("mole", 4))
    assert agent.choose(state.redacted(0), random.Random(0)) == LOOK_UNDER
    state.apply(LOOK_UNDER)
    assert agent.choose(state.redacted(0), random.Random(0)) == DONE


def test_having_looked_it_declines_to_bring_the_opponents_last_mole_home():
    """Both clans have two moles home; the ladybirds' large one is paralysed on hole 22, the
    ants' on hole 23 would go home on this roll: declining keeps the race open."""
    state = table({1: "den", 2: "den", 3: 22, 4: "den", 5: "den", 6: 23}, dog=22, looked=[[6], []])
    state.apply(state.action_from_str("roll large flower"))
    assert state.legal_actions() == [Act("decline"), Act("mole", 5)]
    for seed in range(3):
        assert STRENGTHS["medium"].make().choose(state.redacted(0), random.Random(seed)) == Act("decline")


def test_it_moves_a_mole_it_knows_to_be_its_own_rather_than_an_opponents():
    """Without know_own, seat 0 looked under two medium moles on the haystack: spot 2 is its own,
    spot 5 the ants'. Rolling a medium mole, it runs its own."""
    moles = [(c, s) for c in CLANS[:2] for s in SIZES]
    state = table({1: 14, 4: 15}, looked=[[2, 5], []], moles=moles, know_own=False)
    state.apply(state.action_from_str("roll medium clover"))
    assert state.legal_actions() == [Act("mole", 1), Act("mole", 4)]
    choices = [STRENGTHS["strong"].make().choose(state.redacted(0), random.Random(seed)) for seed in range(3)]
    assert choices == [Act("mole", 1)] * 3


def test_the_progress_evaluator_favours_the_clan_ahead():
    state = table({1: 20, 2: "den", 4: 3})
    values = progress_evaluator(state)
    assert len(values) == 2 and values[0] > 0.5 and values[1] < -0.5
    assert all(-1 <= v <= 1 for v in values)


@pytest.mark.parametrize("level", list(STRENGTHS))
def test_every_level_plays_a_four_player_game_to_the_end(level):
    seats = [Seat(COMPUTER, "random")] * 3 + [Seat(COMPUTER, f"mcts:{level}")]
    controller = TurnController("buddel_bande", {"know_own": level != "easy"}, seats, seed=3)
    controller.play_computer_moves()
    assert controller.is_over() and len(controller.state.winners()) == 1
    assert isinstance(controller.agents[3], BuddelAgent)
    controller.close()


def test_the_strong_player_beats_random_players():
    from simulator.selfplay import play_one

    wins = 0
    for game in range(4):
        seats = ["random", "random"]
        seats[game % 2] = "mcts:strong"
        wins += (game % 2) in play_one("buddel_bande", {}, seats, seed=500 + game)["winners"]
    assert wins >= 3                                   # a random player wins half its games


def test_strengths_are_offered_as_mcts_levels():
    game = get_game("buddel_bande")
    assert list(game.strengths) == ["easy", "medium", "strong"] and game.default_strength == "medium"
    assert isinstance(game.make_agent("mcts:strong"), BuddelAgent)
