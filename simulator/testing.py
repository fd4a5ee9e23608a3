"""The conformance checks every game package must pass, shipped with the library (as PettingZoo
ships `api_test`): a new game is checked with one call,

    from simulator.testing import check_game
    check_game("nim")

Each check plays seeded random games and raises AssertionError, naming the game and what broke:

- `check_random_games`: the state's promises at every step of random games (whose turn it is,
  sorted and distinct legal actions, chance probabilities summing to one, notation and
  `to_dict` round trips, clones equal and independent, the redaction of hidden information);
  every game ends, with returns in [-1, 1] and a winner unless the game is cooperative;
- `check_same_seed_same_game`: the same seed plays the same game, another seed another;
- `check_save_round_trip`: a game saved part way (TurnController) reopens as the same game;
- `check_wrong_field_types`: an action with a field of the wrong type is IllegalAction, never
  another exception, and changes nothing;
- `check_refusals_are_one_line`: a refusal of forged text is one printable line;
- `check_bad_settings`: a setting of the wrong kind or range is refused at the door, naming it;
- `check_endings`: a finished game says why it ended; `check_dict_snapshots`: a state's
  `to_dict()` is a snapshot later moves leave alone;
- `check_codes`: every refusal and ending code the game makes is a member of an enum
  (`RefusalCode`, `EndingCode`), never a bare string;
- `check_seen_notations`: a move's notation as each seat and a spectator see it
  (`notation_seen_by`) is one printable line, the notation itself where nothing is hidden and
  for the mover's own move, and tells a seat no more than its redacted states do.

Outcome nodes are resolved by the game's own model (`sample_outcome`), never its physics, so the
checks need no engine and take seconds.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable
from typing import Any

from simulator.core import registry
from simulator.core.errors import IllegalAction, RefusalCode, SettingsError
from simulator.core.state import CHANCE, OUTCOME, TERMINAL, CoreEnding, EndingCode, GameState

__all__ = ["check_bad_settings", "check_codes", "check_dict_snapshots", "check_endings",
           "check_game", "check_random_games", "check_refusals_are_one_line",
           "check_same_seed_same_game", "check_save_round_trip", "check_seen_notations",
           "check_wrong_field_types"]

SEEDS = range(12)
MAX_MOVES = 5000
CONTROL_TEXT = "a\x00b\x1b[31mc\rd\ne\x7f\u202ef"    # NUL, an escape sequence, CR, LF, DEL, bidi


def check_game(game: str | registry.GameRules, seeds: Iterable[int] = SEEDS) -> None:
    """Every conformance check of this module, for one registered game."""
    name = registry.get_game(game).name
    check_random_games(name, seeds)
    check_same_seed_same_game(name)
    check_save_round_trip(name)
    check_wrong_field_types(name)
    check_refusals_are_one_line(name)
    check_bad_settings(name)
    check_endings(name)
    check_dict_snapshots(name)
    check_codes(name)
    check_seen_notations(name)


def _fail(name: str, what: str) -> AssertionError:
    return AssertionError(f"{name}: {what}")


def check_information(state: GameState, rng: random.Random, name: str = "game") -> None:
    """What a seat is given must not depend on what it may not see: two full states that one
    seat cannot tell apart (the state and a resample of it for that seat) redact alike."""
    for seat in range(state.num_players):
        redacted = state.redacted(seat)
        if type(redacted) is not type(state):
            raise _fail(name, f"redacted({seat}) is a {type(redacted).__name__}")
        other = state.resample(seat, rng)
        if other.redacted(seat).to_dict() != redacted.to_dict():
            raise _fail(name, f"seat {seat} is told something it may not see (a resample of what "
                              "it cannot see redacts differently)")
        if redacted.resample(seat, rng).redacted(seat).to_dict() != redacted.to_dict():
            raise _fail(name, f"resampling seat {seat}'s redacted state changes what it sees")
        if other.current_player() != state.current_player():
            raise _fail(name, "a resample changes whose turn it is")
        if state.is_decision_node() and seat == state.current_player() \
                and other.legal_actions() != state.legal_actions():
            raise _fail(name, "a resample changes the mover's legal actions")


def random_game(name: str, seed: int, max_moves: int = MAX_MOVES) -> tuple[list[Any], GameState]:
    """Play a random game, checking the protocol's promises at every step; returns the actions
    and the final state."""
    state = registry.new_game(name)
    rng = random.Random(seed)
    actions: list[Any] = []
    while not state.is_terminal() and len(actions) < max_moves:
        player = state.current_player()
        if not (player in (CHANCE, OUTCOME) or 0 <= player < state.num_players):
            raise _fail(name, f"current_player() is {player}")
        if state.hidden_information:
            check_information(state, rng, name)
        action = _checked_action(name, state, player, rng)
        copy = state.clone()
        if copy != state or copy is state:
            raise _fail(name, "clone() is not an equal, separate state")
        round_trip = type(state).from_dict(json.loads(json.dumps(state.to_dict())))
        if round_trip.to_dict() != state.to_dict():
            raise _fail(name, "from_dict(to_dict()) is not the same state")
        state.apply(action)
        copy.apply(action)
        if copy.to_dict() != state.to_dict():
            raise _fail(name, "a clone and its original differ after the same move")
        actions.append(action)
    _check_end(name, state, actions)
    return actions, state


def _checked_action(name: str, state: GameState, player: int, rng: random.Random) -> Any:
    """The next random action, with the promises of the node it is drawn at checked."""
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        if not outcomes or abs(sum(p for _, p in outcomes) - 1.0) >= 1e-9:
            raise _fail(name, "a chance node's probabilities do not sum to one")
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    if player == OUTCOME:
        request = state.outcome_request()
        if request != json.loads(json.dumps(request)):
            raise _fail(name, "an outcome request is not plain JSON")
        if state.legal_actions():
            raise _fail(name, "an outcome node lists legal actions")
        action = state.sample_outcome(rng)
        if not state.is_valid_outcome(action):
            raise _fail(name, f"its own sample_outcome {action!r} is not a valid outcome")
    else:
        legal = state.legal_actions()
        if not legal:
            raise _fail(name, "a player to move has no legal action")
        if legal != sorted(legal) or len(set(legal)) != len(legal):
            raise _fail(name, "legal actions must be sorted and distinct")
        if not all(state.is_legal(a) for a in legal):
            raise _fail(name, "a listed legal action is not is_legal()")
        action = rng.choice(legal)
    if state.action_from_str(state.action_to_str(action)) != action:
        raise _fail(name, f"{action!r} does not survive its notation")
    return action


def _check_end(name: str, state: GameState, actions: list[Any]) -> None:
    if not state.is_terminal():
        raise _fail(name, f"a random game did not end in {MAX_MOVES} moves")
    if state.current_player() != TERMINAL or state.legal_actions():
        raise _fail(name, "a finished game still has a player to move or legal actions")
    returns = state.returns()
    if len(returns) != state.num_players or not all(-1.0 <= r <= 1.0 for r in returns):
        raise _fail(name, f"returns() {returns} is not one value in [-1, 1] per seat")
    winners = state.winners()
    if not all(0 <= w < state.num_players for w in winners):
        raise _fail(name, f"winners() {winners} names no seat")
    if not winners and not registry.get_game(name).info.cooperative:
        raise _fail(name, "a competitive game ended with no winner")
    try:
        state.apply(actions[-1])
    except IllegalAction:
        return
    raise _fail(name, "a move was taken after the end")


def check_random_games(name: str, seeds: Iterable[int] = SEEDS) -> None:
    for seed in seeds:
        random_game(name, seed)


def check_same_seed_same_game(name: str) -> None:
    first, end_a = random_game(name, 99)
    second, end_b = random_game(name, 99)
    if first != second or end_a.to_dict() != end_b.to_dict():
        raise _fail(name, "the same seed played two different games")
    third, _ = random_game(name, 100)
    if third == first:
        raise _fail(name, "seeds 99 and 100 played the same game")
    state = registry.new_game(name)
    copy = state.clone()
    rng = random.Random(0)
    while not copy.is_decision_node():
        copy.apply(copy.random_action(rng))
    copy.apply(copy.legal_actions()[0])
    if state.to_dict() != registry.new_game(name).to_dict():
        raise _fail(name, "a move on a clone changed the original")


def check_save_round_trip(name: str, moves: int = 30) -> None:
    """A game of random seats, saved after `moves` moves and reopened: the same state, history
    and seats (outcomes by the game's model; the save is not replayed in a physics engine)."""
    from simulator.core.controller import COMPUTER, Seat, TurnController
    from simulator.core.outcomes import ModelResolver

    game = registry.get_game(name)
    seats = [Seat(COMPUTER, "random")] * game.info.default_players
    controller = TurnController(name, {}, seats, seed=5, resolver=ModelResolver())
    try:
        controller.play_computer_moves(limit=moves)
        data = json.loads(json.dumps(controller.to_save_dict()))
        loaded = TurnController.from_save_dict(data, verify=False, resolver=ModelResolver())
        try:
            if loaded.state != controller.state or loaded.state.to_dict() != data["state"]:
                raise _fail(name, "a save reopened as another state")
            if [(h.player, h.action) for h in loaded.history] != \
                    [(h.player, h.action) for h in controller.history]:
                raise _fail(name, "a save reopened with another history")
            loaded.play_computer_moves(limit=5)       # and it plays on
        finally:
            loaded.close()
    finally:
        controller.close()


def _each_kind_of_action(name: str, seed: int) -> list[tuple[GameState, Any]]:
    """A seeded random game of `name` (at most 400 moves): for the first action of each
    dataclass kind met, a copy of the state it was met in, and the action."""
    rng = random.Random(seed)
    state = registry.new_game(name)
    met: list[tuple[GameState, Any]] = []
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
    if not met:
        raise _fail(name, "no action of a dataclass kind met in 400 random moves")
    return met


def check_wrong_field_types(name: str) -> None:
    """Every field of every kind of action met in random play, set to a value of another type,
    is refused as IllegalAction and changes nothing."""
    for state, action in _each_kind_of_action(name, seed=3):
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
                except Exception as error:     # the escape this check is about
                    raise _fail(name, f"{bad!r}: {type(error).__name__}: {error}") from error
        if state.to_dict() != before:
            raise _fail(name, "a refused action changed the state")


def check_refusals_are_one_line(name: str) -> None:
    """Given text with control characters in any field of any kind of action met in random
    play, the refusal is one line of printable text."""
    for state, action in _each_kind_of_action(name, seed=5):
        for field in dataclasses.fields(action):
            for forged in (CONTROL_TEXT, (CONTROL_TEXT,)):
                bad = dataclasses.replace(action, **{field.name: forged})
                try:
                    state.clone().apply(bad)
                except IllegalAction as refused:
                    message = str(refused)
                    if "\n" in message or not all(c.isprintable() for c in message):
                        raise _fail(name, f"a refusal is not one printable line: {message!r}") from None
                    continue
                raise _fail(name, f"{bad!r} was taken")


def check_bad_settings(name: str) -> None:
    """Every setting a game declares, given a value of the wrong kind or outside what it
    declares, is refused in one line naming it, before the game's own code is called."""
    game = registry.get_game(name)
    reached: list[dict[str, Any]] = []
    create = game.create
    assert create is not None

    def spy(players: int, **settings: Any) -> GameState:
        reached.append(settings)
        return create(players, **settings)

    guarded = dataclasses.replace(game, create=spy)
    names = sorted(game.info.setting_names()) or ["colour"]     # none: any name is unknown
    for setting in names:
        for bad in (object(), 10**30, -1, "bogus\x1b[2J", 2.5, [1], None):
            try:
                guarded.new_game(None, {setting: bad})
            except SettingsError as error:
                message = str(error)
                if setting not in message or "\n" in message or not message.isprintable():
                    raise _fail(name, f"the refusal of {setting}={bad!r} is {message!r}") from None
                continue
            raise _fail(name, f"{setting}={bad!r} was taken")
        if reached:
            raise _fail(name, f"a bad {setting} reached the game's code: {reached}")


def check_endings(name: str) -> None:
    rng = random.Random(11)
    state = registry.new_game(name)
    for _ in range(MAX_MOVES):
        if state.is_terminal():
            break
        if state.ending() is not None:
            raise _fail(name, "a game going on says it ended")
        state.apply(state.random_action(rng))
    if not state.is_terminal():
        raise _fail(name, f"no end in {MAX_MOVES} random moves")
    ending = state.ending()
    if ending is None or not ending.code:
        raise _fail(name, "a finished game does not say why it ended")
    if ending.code == CoreEnding.WON and list(ending.fields["winners"]) != state.winners():
        raise _fail(name, "the ending's winners are not winners()")


def check_dict_snapshots(name: str) -> None:
    """A state's to_dict() is a snapshot: later moves leave it alone (Bandu's once handed out
    its live lists, and a save taken in memory changed as the game went on)."""
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
    if json.dumps(taken, sort_keys=True) != frozen:
        raise _fail(name, "a state's to_dict() changed when the game went on")


def check_codes(name: str, seeds: Iterable[int] = range(3), tries: int = 6) -> None:
    """Every refusal and ending code the game makes is a member of an enum derived from
    RefusalCode or EndingCode (core's own or the game's), never a bare string, which a typo
    would be. Seeded random games: at each seat's turn up to `tries` actions that are not legal
    there (actions legal earlier, legal ones with a whole-number field moved by one) are
    refused, and each refusal's code is looked at; then the ending's, and a move's after it."""
    for seed in seeds:
        rng = random.Random(seed)
        state = registry.new_game(name)
        earlier: list[Any] = []
        for _ in range(MAX_MOVES):
            if state.is_terminal():
                break
            if state.is_decision_node():
                legal = state.legal_actions()
                for action in _near_misses(legal, earlier, rng)[:tries]:
                    if not state.is_legal(action):
                        _check_refusal_code(name, state, action)
                earlier.extend(rng.sample(legal, min(2, len(legal))))
            state.apply(state.random_action(rng))
        ending = state.ending()
        if ending is not None and not isinstance(ending.code, EndingCode):
            raise _fail(name, f"the ending's code {ending.code!r} is no EndingCode member")
        if earlier:
            _check_refusal_code(name, state, earlier[-1])


def _near_misses(legal: list[Any], earlier: list[Any], rng: random.Random) -> list[Any]:
    """Actions like the legal ones that are mostly not legal: some legal before, and legal
    ones with one whole-number field one more or one less (a card a cell further on)."""
    misses = rng.sample(earlier, min(3, len(earlier)))
    for action in rng.sample(legal, min(3, len(legal))):
        if not dataclasses.is_dataclass(action) or isinstance(action, type):
            continue
        for field in dataclasses.fields(action):
            value = getattr(action, field.name)
            if isinstance(value, int) and not isinstance(value, bool):
                misses.append(dataclasses.replace(action, **{field.name: value + rng.choice((-1, 1))}))
    rng.shuffle(misses)
    return misses


def _check_refusal_code(name: str, state: GameState, action: Any) -> None:
    try:
        state.apply(action)       # refused, so the state is left alone
    except IllegalAction as refused:
        code = refused.refusal.code
        if not isinstance(code, RefusalCode):
            raise _fail(name, f"the refusal code {code!r} of {action!r} is no RefusalCode "
                              "member") from None
        return
    raise _fail(name, f"{action!r}, not legal, was taken")


def check_seen_notations(name: str, seeds: Iterable[int] = range(3), tries: int = 6) -> None:
    """Random games: at every node, up to `tries` of its moves (a chance node's outcomes, a
    seat's legal actions), each as every seat and a spectator see it (`notation_seen_by`, asked
    of the state before the move, which it leaves alone). Each is one printable line; it is the
    notation itself in a game without hidden information, and for the mover's own move; and it
    tells no more than the redacted state: two moves after which a seat's `redacted` states are
    the same read alike to that seat, and to a spectator, who knows no more than any seat.
    The seeds play the usual count of players, and one more game the most (a seat of two may
    work out all the other holds)."""
    info = registry.get_game(name).info
    for seed in seeds:
        _check_seen_notations(name, registry.new_game(name), random.Random(seed), tries)
    if info.max_players != info.default_players:
        _check_seen_notations(name, registry.new_game(name, info.max_players), random.Random(0), tries)


def _check_seen_notations(name: str, state: GameState, rng: random.Random, tries: int) -> None:
    viewers: list[int | None] = [None, *range(state.num_players)]
    for _ in range(MAX_MOVES):
        if state.is_terminal():
            return
        player = state.current_player()
        options = [a for a, _ in state.chance_outcomes()] if player == CHANCE else \
            [state.sample_outcome(rng)] if player == OUTCOME else state.legal_actions()
        if len(options) > tries:
            options = rng.sample(options, tries)
        before = state.to_dict()
        told: list[tuple[str, dict[int | None, str], list[str]]] = []
        for action in options:
            notation = state.action_to_str(action)
            seen = {viewer: state.notation_seen_by(notation, player, viewer) for viewer in viewers}
            for viewer, text in seen.items():
                if not isinstance(text, str) or not text or not text.isprintable():
                    raise _fail(name, f"{notation!r} as seen by seat {viewer} is {text!r}, not one "
                                      "printable line")
            if not state.hidden_information and any(text != notation for text in seen.values()):
                raise _fail(name, f"{notation!r} is seen otherwise in a game that hides nothing")
            if player >= 0 and seen[player] != notation:
                raise _fail(name, f"seat {player} sees its own move {notation!r} as {seen[player]!r}")
            redactions: list[str] = []
            if state.hidden_information:
                after = state.clone()
                after.apply(action)
                redactions = [json.dumps(after.redacted(seat).to_dict(), sort_keys=True, default=str)
                              for seat in range(state.num_players)]
            told.append((notation, seen, redactions))
        if state.to_dict() != before:
            raise _fail(name, "notation_seen_by changed the state")
        for n, (notation, seen, redactions) in enumerate(told):
            for other, other_seen, other_redactions in told[n + 1:]:
                alike = [seat for seat, text in enumerate(redactions) if text == other_redactions[seat]]
                for seat in [*alike, *([None] if alike else [])]:
                    if seen[seat] != other_seen[seat]:
                        who = "a spectator" if seat is None else f"seat {seat}"
                        raise _fail(name, f"{who} may not tell {notation!r} from {other!r}, but is "
                                          f"told {seen[seat]!r} and {other_seen[seat]!r}")
        state.apply(rng.choice(options))
    raise _fail(name, f"no end in {MAX_MOVES} random moves")
