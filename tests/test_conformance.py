"""One conformance test for every registered, playable game (and the house's test games, which
cover chance, hidden information and outcome nodes): random games from many seeds."""

from __future__ import annotations

import json
import random

import dice_game  # noqa: F401  (registers the test games)
import peek_game  # noqa: F401
import pytest
import stack_game  # noqa: F401

from simulator.core import registry
from simulator.core.errors import IllegalAction
from simulator.core.state import CHANCE, OUTCOME, TERMINAL

GAMES = [g.name for g in registry.playable_games()]
SEEDS = range(12)


def check_information(state, rng):
    """What a seat is given must not depend on what it may not see: two full states that one
    seat cannot tell apart (the state and a resample of it for that seat) redact alike."""
    for seat in range(state.num_players):
        redacted = state.redacted(seat)
        assert type(redacted) is type(state)
        other = state.resample(seat, rng)
        assert other.redacted(seat).to_dict() == redacted.to_dict()
        assert redacted.resample(seat, rng).redacted(seat).to_dict() == redacted.to_dict()
        assert other.current_player() == state.current_player()
        if state.is_decision_node():
            assert other.legal_actions() == state.legal_actions() or seat != state.current_player()


def random_game(name: str, seed: int, max_moves: int = 5000):
    """Play a random game, checking the protocol's promises at every step; returns the actions."""
    state = registry.new_game(name)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal() and len(actions) < max_moves:
        player = state.current_player()
        assert player in (CHANCE, OUTCOME) or 0 <= player < state.num_players
        if state.hidden_information:
            check_information(state, rng)
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        elif player == OUTCOME:
            assert state.outcome_request() == json.loads(json.dumps(state.outcome_request()))
            assert state.legal_actions() == []
            action = state.sample_outcome(rng)
            assert state.is_valid_outcome(action)
            assert state.action_from_str(state.action_to_str(action)) == action
        else:
            legal = state.legal_actions()
            assert legal, "a player to move must have a legal action"
            assert legal == sorted(legal), "legal actions must be sorted"
            assert len(set(legal)) == len(legal)
            assert all(state.is_legal(a) for a in legal)
            action = rng.choice(legal)
            assert state.action_from_str(state.action_to_str(action)) == action
        copy = state.clone()
        assert copy == state and copy is not state
        round_trip = type(state).from_dict(json.loads(json.dumps(state.to_dict())))
        assert round_trip.to_dict() == state.to_dict()
        state.apply(action)
        copy.apply(action)
        assert copy.to_dict() == state.to_dict()          # the clone is independent and equal
        actions.append(action)
    assert state.is_terminal(), "random games must end"
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    returns = state.returns()
    assert len(returns) == state.num_players and all(-1.0 <= r <= 1.0 for r in returns)
    winners = state.winners()
    assert all(0 <= w < state.num_players for w in winners)
    assert winners or registry.get_game(name).info.cooperative, "a competitive game has a winner"
    with pytest.raises(IllegalAction):
        state.apply(actions[-1])
    return actions, state


@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_the_protocol(name):
    for seed in SEEDS:
        random_game(name, seed)


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_game(name):
    first, end_a = random_game(name, 99)
    second, end_b = random_game(name, 99)
    assert first == second and end_a.to_dict() == end_b.to_dict()
    third, _ = random_game(name, 100)
    assert third != first


@pytest.mark.parametrize("name", GAMES)
def test_the_clone_does_not_share_state(name):
    state = registry.new_game(name)
    copy = state.clone()
    rng = random.Random(0)
    while not copy.is_decision_node():
        copy.apply(copy.random_action(rng))
    copy.apply(copy.legal_actions()[0])
    assert state.to_dict() == registry.new_game(name).to_dict()


def _each_kind_of_action(name: str, seed: int) -> list[tuple[object, object]]:
    """A seeded random game of `name` (at most 400 moves): for the first action of each
    dataclass kind met, a copy of the state it was met in, and the action."""
    import dataclasses

    rng = random.Random(seed)
    state = registry.new_game(name)
    met: list[tuple[object, object]] = []
    for _ in range(400):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == CHANCE:
            action = rng.choices(*zip(*state.chance_outcomes(), strict=True))[0]
        elif player == OUTCOME:
            action = state.sample_outcome(rng)
        else:
            action = rng.choice(state.legal_actions())
        if dataclasses.is_dataclass(action) and all(type(action) is not type(a) for _, a in met):
            met.append((state.clone(), action))
        state.apply(action)
    return met


@pytest.mark.parametrize("name", GAMES)
def test_an_action_with_a_field_of_the_wrong_type_is_illegal_not_a_type_error(name):
    """tanbo Place(None, 1), bunko Dice(-1)'s kin, bandu Settled(None, ()) raised TypeError
    inside the rules; every field of every kind of action met in random play, set to a value of
    another type, is refused as IllegalAction and changes nothing."""
    import dataclasses

    met = _each_kind_of_action(name, seed=3)
    for state, action in met:
        before = state.to_dict()
        for field in dataclasses.fields(action):
            for wrong in (None, "x", ("x",), 1.5e300, object()):
                if isinstance(getattr(action, field.name), type(wrong)) and wrong is not None:
                    continue
                bad = dataclasses.replace(action, **{field.name: wrong})
                try:
                    state.clone().apply(bad)
                except IllegalAction:
                    pass
                except Exception as error:     # the escape this test is about
                    pytest.fail(f"{name}: {bad!r}: {type(error).__name__}: {error}")
        assert state.to_dict() == before
    assert met


CONTROL_TEXT = "a\x00b\x1b[31mc\rd\ne\x7f\u202ef"    # NUL, an escape sequence, CR, LF, DEL, bidi


@pytest.mark.parametrize("name", GAMES)
def test_a_refusal_never_carries_a_control_character_it_was_given(name):
    """A refusal names what it refuses: given text with control characters in any field of any
    kind of action met in random play, the refusal is one line of printable text (a terminal or
    a log is never driven by a value someone typed or forged)."""
    import dataclasses

    met = _each_kind_of_action(name, seed=5)
    for state, action in met:
        for field in dataclasses.fields(action):
            for forged in (CONTROL_TEXT, (CONTROL_TEXT,)):
                bad = dataclasses.replace(action, **{field.name: forged})
                with pytest.raises(IllegalAction) as refused:
                    state.clone().apply(bad)
                message = str(refused.value)
                assert "\n" not in message and all(c.isprintable() for c in message), (name, message)
    assert met


@pytest.mark.parametrize("name", GAMES)
def test_a_bad_setting_is_refused_at_the_door_and_never_reaches_the_game(name):
    """Every setting a game declares, given a value of the wrong kind or outside what it
    declares, is refused in one line naming it, before the game's own code is called."""
    import dataclasses

    from simulator.core.errors import SettingsError

    game = registry.get_game(name)
    reached: list[dict] = []

    def spy(players, **settings):
        reached.append(settings)
        return game.create(players, **settings)

    guarded = dataclasses.replace(game, create=spy)
    names = sorted(game.info.setting_names()) or ["colour"]     # none: any name is unknown
    for setting in names:
        for bad in (object(), 10**30, -1, "bogus\x1b[2J", 2.5, [1], None):
            try:
                guarded.new_game(None, {setting: bad})
            except SettingsError as error:
                message = str(error)
                assert setting in message and "\n" not in message, message
                assert all(c.isprintable() for c in message), repr(message)
                continue
            pytest.fail(f"{name}: {setting}={bad!r} was taken")
        assert reached == [], f"{name}: a bad {setting} reached the game's code: {reached}"


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_game_says_why_it_ended_and_a_game_going_on_does_not(name):
    rng = random.Random(11)
    state = registry.new_game(name)
    for _ in range(5000):
        if state.is_terminal():
            break
        assert state.ending() is None
        state.apply(state.random_action(rng))
    assert state.is_terminal(), f"{name}: no end in 5000 random moves"
    ending = state.ending()
    assert ending is not None and ending.code and isinstance(ending.code, str)
    if ending.code == "won":
        assert list(ending.fields["winners"]) == state.winners()


@pytest.mark.parametrize("name", GAMES)
def test_a_state_as_a_dict_is_a_snapshot_that_later_moves_leave_alone(name):
    """Bandu's to_dict handed out its live lists: a save taken in memory changed as the game
    went on, and then no longer reopened ('the moves do not lead to the saved position')."""
    import json

    rng = random.Random(7)
    state = registry.new_game(name)
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply(state.random_action(rng))
    taken = state.to_dict()
    frozen = json.dumps(taken, sort_keys=True)
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply(state.random_action(rng))
    assert json.dumps(taken, sort_keys=True) == frozen
