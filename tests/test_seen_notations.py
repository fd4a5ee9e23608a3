"""What a seat at another machine would be sent holds no secret of another seat: after every
move of whole seeded games of random computer seats, its redacted state (as JSON) and each
history entry as it sees it (TurnController.entry_seen_by, then history_seen_by), for every seat
and for a spectator. The secrets are worked out from the full states before and after each
move: Bandida's cards drawn into another hand, Buddel Bande's clans under the moles a seat does
not know. Each check is shown to fail where a game words its moves alike for everyone
(GameState.notation_seen_by's default)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from simulator.core.controller import COMPUTER, HistoryEntry, Seat, TurnController
from simulator.core.state import CHANCE, GameState
from simulator.games.bandida.cards import KINDS as CARD_KINDS
from simulator.games.bandida.rules import BandidaState
from simulator.games.buddel_bande.rules import CLANS, IN_DEN, BuddelState

RANDOM = Seat(COMPUTER, "random")
# (state before, the entry as made, state after, viewer, the entry as the viewer sees it) -> leaks
Check = Callable[[Any, HistoryEntry, Any, "int | None", str], list[str]]


def _sent(state: GameState[Any], seat: int) -> dict[str, Any]:
    """The redacted state as a host would send it: through JSON."""
    return json.loads(json.dumps(state.redacted(seat).to_dict()))


def play(game: str, settings: dict[str, Any], players: int, seed: int, check: Check,
         check_state: Callable[[Any, int, dict[str, Any]], list[str]]) -> tuple[list[str], TurnController]:
    """A whole game of random seats; every leak found, and the controller at the end."""
    controller = TurnController(game, settings, [RANDOM] * players, seed=seed)
    viewers: list[int | None] = [None, *range(players)]
    leaks: list[str] = []
    while not controller.is_over():
        before = controller.state.clone()
        assert controller.play_computer_moves(limit=1) == 1
        index = controller.ply() - 1
        entry, after = controller.history[index], controller.state
        for viewer in viewers:
            seen = controller.entry_seen_by(index, viewer)
            assert seen.player == entry.player and seen.reveal == entry.reveal
            assert seen.action and seen.action.isprintable()
            leaks += [f"move {index + 1} ({entry.action}), seat {viewer}: {leak}"
                      for leak in check(before, entry, after, viewer, seen.action)]
        for seat in range(players):
            leaks += [f"move {index + 1}, seat {seat}'s state: {leak}"
                      for leak in check_state(after, seat, _sent(after, seat))]
    for viewer in viewers:           # the whole history, as the host's first message holds it
        assert controller.history_seen_by(viewer) == [controller.entry_seen_by(n, viewer)
                                                      for n in range(controller.ply())]
    controller.close()
    return leaks, controller


# --- Bandida -------------------------------------------------------------------------------------

def _drawer(before: BandidaState, after: BandidaState) -> int | None:
    """The seat whose hand a move added a card to, or None."""
    grown = [seat for seat in range(before.players)
             if Counter(after.hands[seat]) - Counter(before.hands[seat])]
    assert len(grown) <= 1
    return grown[0] if grown else None


def bandida_leaks(before: BandidaState, entry: HistoryEntry, after: BandidaState,
                  viewer: int | None, seen: str) -> list[str]:
    """A card drawn into a hand is a secret of that hand's seat (and of the seat that put it
    under the pile, which knows its cards there): no other seat's notation may name it."""
    drawer = _drawer(before, after)
    if entry.player != CHANCE:
        return []
    if drawer is None:        # an alarm, or alarm 2's burn: face up for everyone
        return [] if seen == entry.action else [f"a card out of the game is hidden: {seen!r}"]
    (kind,) = (Counter(after.hands[drawer]) - Counter(before.hands[drawer])).elements()
    code = CARD_KINDS[kind].code
    from_under = len(after.bottom) == len(before.bottom) - 1 and not before.pool
    knowing = {drawer} | ({before.bottom[0][1]} if from_under else set())
    if viewer in knowing:
        return [] if seen == entry.action else [f"its own draw is hidden from it: {seen!r}"]
    return [f"sees {seen!r}: the card drawn by seat {drawer}"] if code in seen.split() else []


def bandida_state_leaks(full: BandidaState, seat: int, sent: dict[str, Any]) -> list[str]:
    """The others' hands and the pile are face down; of the cards under it only its own show."""
    leaks = []
    for other, hand in enumerate(sent["hands"]):
        if other != seat and set(hand) - {"?"}:
            leaks.append(f"seat {other}'s hand shows {hand}")
    if set(sent["pool"]) - {"?"}:
        leaks.append(f"the pile shows {sent['pool']}")
    leaks += [f"seat {owner}'s card under the pile shows {code}"
              for code, owner in sent["bottom"] if owner != seat and code != "?"]
    if sent["hands"][seat] != [CARD_KINDS[k].code for k in full.hands[seat]]:
        leaks.append("its own hand is not shown")
    return leaks


BANDIDA_GAMES = [(mode, players) for mode in (1, 2, 3) for players in (2, 3, 4)]


@pytest.mark.parametrize(("mode", "players"), BANDIDA_GAMES)
def test_bandida_sends_no_seat_a_card_of_another_hand(mode, players):
    leaks, controller = play("bandida", {"mode": mode}, players, 10 * mode + players,
                             bandida_leaks, bandida_state_leaks)
    assert leaks == []
    draws = [entry for entry in controller.history if entry.action.startswith("draw")]
    spectator = {entry.action for entry in controller.history_seen_by(None) if entry.action.startswith("draw")}
    assert len(draws) >= 3 * players and "draw ?" in spectator     # the deal was played, hidden


def test_a_card_drawn_from_under_the_pile_is_seen_by_the_seat_that_put_it_there():
    """Random seats never swap (a card always fits): a pile of one card that seat 0 put under
    it, drawn by seat 1 of 3."""
    state = TurnController("bandida", {}, [RANDOM] * 3, seed=3).state
    assert isinstance(state, BandidaState)
    card = state.pool[0]
    state.pool, state.bottom, state.draw_seat = [], [(card, 0)], 1
    notation = state.action_to_str(state.chance_outcomes()[0][0])
    assert notation == f"draw {CARD_KINDS[card].code}"
    seen = {seat: state.notation_seen_by(notation, CHANCE, seat) for seat in (None, 0, 1, 2)}
    assert seen == {None: "draw ?", 0: notation, 1: notation, 2: "draw ?"}


# --- Buddel Bande --------------------------------------------------------------------------------

def buddel_leaks(before: BuddelState, entry: HistoryEntry, after: BuddelState,
                 viewer: int | None, seen: str) -> list[str]:
    """A clan is named only to a seat that knows the mole after the move (its own, with
    know_own): the haystack's arrangement names a clan per spot, nothing else names one."""
    named = [word for word in seen.split() if word in CLANS]
    words = entry.action.split()
    if words[0] != "arrange":
        return [f"sees {seen!r}, naming a clan"] if named else []
    mole = len(before.pos)
    knows = viewer is not None and after.knows(viewer, mole)
    if knows:
        return [] if seen == entry.action else [f"the arrangement of its own mole is hidden: {seen!r}"]
    return [f"sees {seen!r}: the clan of mole {mole + 1}, which it does not know"] if named else []


def buddel_state_leaks(full: BuddelState, seat: int, sent: dict[str, Any]) -> list[str]:
    """The clan of each mole the seat does not know is hidden, wherever the state says it."""
    leaks = []
    for mole, told in enumerate(sent["moles"]):
        known = full.knows(seat, mole)
        if told["clan"] != (CLANS[full.clan[mole]] if known else None):
            leaks.append(f"mole {mole + 1} shows clan {told['clan']} (known: {known})")
    moves = [sent["move"], (sent["last_turn"] or {}).get("move")]
    for move in moves:
        if move and move.get("den") is not None and full.pos[move["spot"] - 1] != IN_DEN:
            leaks.append(f"the move names the clan of mole {move['spot']}, which is not in a den")
    return leaks


BUDDEL_GAMES = [(players, know_own) for players in (2, 3, 4) for know_own in (True, False)]


@pytest.mark.parametrize(("players", "know_own"), BUDDEL_GAMES)
def test_buddel_bande_sends_no_seat_a_clan_it_does_not_know(players, know_own):
    leaks, controller = play("buddel_bande", {"know_own": know_own}, players, 7 * players + know_own,
                             buddel_leaks, buddel_state_leaks)
    assert leaks == []
    arranged = [entry.action for entry in controller.history_seen_by(0)[:3 * players]]
    assert all(a.startswith("arrange") for a in arranged)
    named = [a for a in arranged if a.split()[1] != "?"]
    assert named == ([a for a in arranged if a.split()[1] == CLANS[0]] if know_own else [])
    assert len(named) == (3 if know_own else 0)


# --- the checks can fail -------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "settings", "players", "check", "check_state", "secret"), [
    ("bandida", {"mode": 2}, 3, bandida_leaks, bandida_state_leaks, "the card drawn by seat"),
    ("buddel_bande", {"know_own": True}, 3, buddel_leaks, buddel_state_leaks, "which it does not know"),
    ("buddel_bande", {"know_own": False}, 2, buddel_leaks, buddel_state_leaks, "which it does not know"),
])
def test_the_checks_find_the_secrets_of_notations_worded_alike_for_everyone(
        monkeypatch, game, settings, players, check, check_state, secret):
    state_class = type(TurnController(game, settings, [RANDOM] * players).state)
    monkeypatch.setattr(state_class, "notation_seen_by", GameState.notation_seen_by)
    leaks, _ = play(game, settings, players, 1, check, check_state)
    assert any(secret in leak for leak in leaks)
    assert any("seat None" in leak for leak in leaks)             # a spectator's too
    assert not any("state" in leak for leak in leaks)             # the states keep them


@pytest.mark.parametrize(("game", "players"), [("bandida", 2), ("buddel_bande", 2)])
def test_the_state_check_finds_a_state_that_shows_everything(monkeypatch, game, players):
    state_class = type(TurnController(game, {}, [RANDOM] * players).state)
    monkeypatch.setattr(state_class, "redacted", lambda self, player: self.clone())
    check, check_state = (bandida_leaks, bandida_state_leaks) if game == "bandida" else \
        (buddel_leaks, buddel_state_leaks)
    leaks, _ = play(game, {}, players, 2, check, check_state)
    assert any("state" in leak for leak in leaks)
