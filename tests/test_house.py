"""The house for five games: outcome nodes, hidden information, self-registering games, a search
process that is replaced when it dies. Driven through the test games Stack (slow outcomes) and
Peek (hidden cards)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import peek_game
import pytest
import stack_game
from peek_game.rules import UNKNOWN, Move, PeekState
from stack_game.rules import Stack

from simulator.core import registry
from simulator.core.agents import MCTSAgent
from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController
from simulator.core.outcomes import AnimatedResolver, ThreadResolver
from simulator.core.state import OUTCOME
from simulator.core.workers import SearchPool
from simulator.selfplay import selfplay

PERSON_SEAT, RANDOM = Seat(PERSON), Seat(COMPUTER, "random")


class CountingResolver:
    """A slow referee that counts its calls and can be held back by the test."""

    def __init__(self, seconds: float = 0.2) -> None:
        self.calls = 0
        self.seconds = seconds

    def begin(self, state, rng):
        self.calls += 1
        return ThreadResolver(lambda s, r: (time.sleep(self.seconds), s.sample_outcome(r))[1]).begin(state, rng)


# --- outcome nodes ---------------------------------------------------------------------------------

def test_an_outcome_is_resolved_without_blocking_and_recorded():
    resolver = CountingResolver(seconds=0.3)
    c = TurnController(stack_game.GAME, {}, [PERSON_SEAT, PERSON_SEAT], seed=3, resolver=resolver)
    c.submit(Stack(2))
    assert c.current_player() == OUTCOME
    started = time.monotonic()
    assert not c.poll()                          # starts the referee, returns at once
    assert time.monotonic() - started < 0.1
    assert c.outcome_in_progress() is not None and resolver.calls == 1
    with pytest.raises(Exception, match="not a person's turn"):
        c.submit(Stack(1))
    deadline = time.monotonic() + 5
    while not c.poll():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert resolver.calls == 1 and c.outcome_in_progress() is None
    entry = c.history[-1]
    assert entry.player == OUTCOME and entry.action in ("stood", "fell") and entry.reveal
    assert c.current_player() == 1


def test_an_outcome_is_replayed_from_a_save_not_resolved_again(tmp_path):
    resolver = CountingResolver(seconds=0.01)
    seats = [Seat(COMPUTER, "mcts"), Seat(COMPUTER, "random")]
    c = TurnController(stack_game.GAME, {}, seats, seed=5, resolver=resolver)
    c.play_computer_moves()
    assert c.is_over() and resolver.calls == sum(h.player == OUTCOME for h in c.history) > 0
    path = c.save(tmp_path / "stack.json")
    assert any(h["player"] == OUTCOME for h in json.loads(path.read_text())["history"])
    again = CountingResolver()
    loaded = TurnController.load(path)
    loaded.resolver = again
    assert loaded.state == c.state and again.calls == 0


def test_the_same_seed_resolves_the_same_outcomes():
    runs = []
    for _ in range(2):
        c = TurnController(stack_game.GAME, {}, [RANDOM, RANDOM], seed=8)
        c.play_computer_moves()
        runs.append([h.action for h in c.history])
    assert runs[0] == runs[1]


def test_undo_stops_at_an_outcome():
    c = TurnController(stack_game.GAME, {}, [PERSON_SEAT, RANDOM], seed=1,
                       resolver=AnimatedResolver(0.0))
    c.submit(Stack(1))
    assert not c.can_undo()                      # being resolved: a view may be showing it
    c.poll()
    assert c.history[-1].player == OUTCOME
    assert not c.can_undo()


def test_an_animated_outcome_waits_for_its_animation_in_the_window_only():
    now = [0.0]
    c = TurnController(stack_game.GAME, {}, [PERSON_SEAT, PERSON_SEAT], seed=2,
                       resolver=AnimatedResolver(1.5, clock=lambda: now[0]))
    c.submit(Stack(3))
    assert not c.poll() and c.outcome_in_progress().progress() == 0.0
    now[0] = 0.75
    assert not c.poll() and c.outcome_in_progress().progress() == 0.5
    now[0] = 1.5
    assert c.poll() and c.history[-1].player == OUTCOME


# --- hidden information ----------------------------------------------------------------------------

class Spy:
    """An agent that keeps everything it is given."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list = []

    def choose(self, state, rng):
        self.seen.append(state)
        return state.legal_actions()[-1]


@pytest.mark.parametrize("threaded", [False, True])
def test_no_computer_player_is_given_what_its_seat_may_not_see(threaded):
    for seed in range(6):
        c = TurnController(peek_game.GAME, {}, [RANDOM, RANDOM], seed=seed)
        spies = [Spy(), Spy()]
        c.agents = list(spies)
        if threaded:
            while not c.is_over():
                c.poll()
                c.wait_for_computer()
        else:
            c.play_computer_moves()
        assert c.is_over()
        for seat, spy in enumerate(spies):
            assert spy.seen, "each seat acted"
            for state in spy.seen:
                other = f"hand{1 - seat}"
                assert state.cards[other] == UNKNOWN != c.state.cards.get(other, c.initial)
                assert state.known[1 - seat] == set()
                hidden = [loc for loc in state.cards if loc not in state.known[seat]]
                assert all(state.cards[loc] == UNKNOWN for loc in hidden)
                assert state.cards[f"hand{seat}"] != UNKNOWN


def test_views_get_the_viewers_state_only():
    c = TurnController(peek_game.GAME, {}, [PERSON_SEAT, PERSON_SEAT], seed=1)
    c.poll()                                     # the deal
    north, south = c.visible_state(0), c.visible_state(1)
    assert north.cards["hand1"] == UNKNOWN and north.cards["hand0"] == c.state.cards["hand0"]
    assert south.cards["hand0"] == UNKNOWN and south.cards["hand1"] == c.state.cards["hand1"]


def test_undo_stops_at_a_peek_and_a_draw():
    c = TurnController(peek_game.GAME, {}, [PERSON_SEAT, PERSON_SEAT], seed=1)
    c.poll()
    assert not c.can_undo()                      # nothing but the deal
    c.submit(Move("peek"))
    assert not c.can_undo()                      # the peek showed a card
    c.submit(Move("stay"))
    assert c.can_undo()
    c.submit(Move("swap"))
    assert not c.can_undo()                      # the swap drew a card


def _peek_position(own: int, other: int) -> PeekState:
    state = peek_game.GAME.new_game()
    rest = [c for c in range(1, 7) if c not in (own, other)]
    for card in (own, other, *rest):
        state.apply(Move("deal", card))
    return state


def test_mcts_searches_determinizations_and_plays_well():
    agent = MCTSAgent(iterations=300)
    for other in (1, 5):                         # whatever the hidden card, the same choices
        high = _peek_position(6, other).redacted(0)
        assert agent.choose(high, random.Random(0)) == Move("stay")
        low = _peek_position(1, other if other != 1 else 2).redacted(0)
        assert agent.choose(low, random.Random(0)) in (Move("swap"), Move("peek"))


# --- registration ------------------------------------------------------------------------------------

def test_the_programs_games_register_themselves_and_core_render_app_and_cli_name_none():
    """A game comes in through the registry alone: its menu buttons and its subcommands too
    (GameApp.menu_entries, GameApp.commands), so none of these names or imports one."""
    names = [g.name for g in registry.all_games()]
    assert names[:5] == ["bandu", "tanbo", "bandida", "bunko", "buddel_bande"]
    package = os.path.dirname(os.path.dirname(registry.__file__))
    files = [os.path.join(folder, module) for folder in ("core", "render", "app")
             for module in os.listdir(os.path.join(package, folder)) if module.endswith(".py")]
    for name in [*files, "cli.py"]:
        # the program's own name (bandu-sim: its saves' format, its messages) is no game
        text = Path(package, name).read_text(encoding="utf-8").lower()
        text = text.replace("bandu-sim", "").replace("bandu_sim", "")   # and its BANDU_SIM_HOME
        assert "from simulator.games" not in text and "import simulator.games" not in text, \
            f"{name} imports a game"
        for game in ("bandu", "tanbo", "bandida", "bunko", "buddel"):
            assert game not in text, f"{name} names {game}"


def test_outside_the_game_packages_no_module_name_comes_twice():
    """One name, one part (docs/ARCHITECTURE.md): the names a game package's parts share mean
    the same in each package; elsewhere a name is used once."""
    package = os.path.dirname(os.path.dirname(registry.__file__))
    seen: dict[str, str] = {}
    for folder, _, files in os.walk(package):
        if os.path.join("simulator", "games") in folder:
            continue
        for module in files:
            if module.endswith(".py") and module != "__init__.py":
                where = os.path.relpath(os.path.join(folder, module), package)
                assert module not in seen, f"{where} and {seen[module]} share a name"
                seen[module] = where
    assert len(seen) > 40


def _modules_saying(*needles: str) -> list[str]:
    """The program's modules (paths under simulator/, sorted) whose text holds any of `needles`."""
    package = os.path.dirname(os.path.dirname(registry.__file__))
    found = []
    for folder, _, files in os.walk(package):
        for module in files:
            if module.endswith(".py"):
                path = os.path.join(folder, module)
                text = Path(path).read_text(encoding="utf-8")
                if any(needle in text for needle in needles):
                    found.append(os.path.relpath(path, package))
    return sorted(found)


def test_independent_jobs_run_on_the_one_job_runner():
    """processes.py runs the program's independent jobs; core/workers.py keeps the window's
    long-lived search process. No other module makes a process pool of its own."""
    makers = _modules_saying("ProcessPoolExecutor(", "multiprocessing.Pool(")
    assert makers == [os.path.join("core", "workers.py"), "processes.py"]


def test_helper_processes_on_a_pipe_are_started_and_stopped_in_one_place():
    """core/piped_process.py starts and stops every helper process that answers over a pipe
    (the live outcomes, the window's asked questions, a computer player's second trial stream):
    no other module makes a pipe or a process of its own."""
    assert _modules_saying(".Pipe(", ".Process(") == [os.path.join("core", "piped_process.py")]


def test_a_game_package_is_found_without_any_edit_elsewhere(tmp_path):
    """A new package beside the games (here in a folder added to simulator.games' path, as an
    installed plug-in would be) is listed, playable and loadable with no edit elsewhere."""
    package = tmp_path / "coin_flip"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from simulator.core.registry import GameInfo, GameRules, register\n"
        "register(GameRules(GameInfo('coin_flip', 'Coin flip', 'found by discovery', 1, 1)))\n")
    code = ("import sys, simulator.games\n"
            "simulator.games.__path__.append(sys.argv[1])\n"
            "from simulator.core import registry\n"
            "print([g.name for g in registry.all_games()])\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                         check=True).stdout
    assert "'coin_flip'" in out and "'tanbo'" in out


def test_a_broken_game_package_is_named_in_one_line_and_the_others_still_load(tmp_path):
    """A package beside the games that fails to import (a plug-in with a bug, a missing
    dependency): one line on standard error names it; every other game is listed, every time."""
    package = tmp_path / "aaa_broken"         # found first: the games after it must still load
    package.mkdir()
    (package / "__init__.py").write_text("import a_module_nobody_installed\n")
    code = ("import sys, simulator.games\n"
            "simulator.games.__path__.insert(0, sys.argv[1])\n"
            "from simulator.core import registry\n"
            "print([g.name for g in registry.all_games()])\n"
            "print([g.name for g in registry.all_games()])\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first == second and "'tanbo'" in first and "'bandu'" in first and "'buddel_bande'" in first
    lines = [line for line in done.stderr.splitlines() if "aaa_broken" in line]
    assert len(lines) == 1 and "could not be loaded" in lines[0] and "ModuleNotFoundError" in lines[0]


def test_metadata_is_checked():
    from simulator.core.registry import GameInfo, GameRules
    with pytest.raises(ValueError, match="players"):
        GameInfo("x", "X", "", min_players=3, max_players=2)
    with pytest.raises(ValueError, match="hidden_information"):
        GameRules(GameInfo("x", "X", "", 2, 2), state_class=PeekState)


def test_seat_counts_come_from_the_seats():
    with pytest.raises(Exception, match="is for 2 players, not 3"):
        TurnController(peek_game.GAME, {}, [PERSON_SEAT] * 3)


# --- self-play through the same controller --------------------------------------------------------

def test_selfplay_plays_the_test_games():
    for game in ("peek", "stack"):
        report = selfplay(game, games=4, seed=1, players=["mcts", "random"])
        assert sum(report["wins"]) == 4 and all(r["length"] > 0 for r in report["games"])


# --- the search process ------------------------------------------------------------------------------

def test_a_killed_search_process_is_replaced_for_this_game_and_the_next():
    pool = SearchPool(workers=1)
    try:
        seats = [PERSON_SEAT, Seat(COMPUTER, "mcts:easy")]
        c = TurnController("tanbo", {}, seats, seed=4, executor=pool)
        c.submit(c.state.legal_actions()[0])
        c.poll()
        c.wait_for_computer(timeout=60)
        c.poll()
        assert c.ply() == 2
        first = pool.process_ids()
        for pid in first:
            os.kill(pid, signal.SIGKILL)
        c.submit(c.state.legal_actions()[0])
        deadline = time.monotonic() + 60
        while c.ply() < 4:
            c.poll()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert "restarted" in (c.search_error or "") or pool.restarts >= 1
        assert pool.process_ids() and pool.process_ids() != first
        assert c.executor is pool                  # still the process pool, not a thread
        c2 = TurnController("tanbo", {}, seats, seed=5, executor=pool)
        c2.submit(c2.state.legal_actions()[0])
        c2.poll()
        c2.wait_for_computer(timeout=60)
        assert c2.poll() and c2.ply() == 2
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


@pytest.mark.gui
def test_a_finished_game_is_said_the_same_way_on_the_status_the_end_screen_and_the_replay(x_display):
    from simulator.render.game_view import GameView, game_ending

    class TeamLoss(GameView):
        def __init__(self) -> None:  # only result_title is asked
            pass

        def result_title(self) -> str:
            return "The team lost"

    class Plain(TeamLoss):
        def result_title(self) -> str:
            return ""

    from simulator.core.registry import GameInfo

    names = GameInfo("named", "Named", "", 1, 3, seat_names=("Anna", "Ben", "Cleo"))
    plain = Plain()
    assert game_ending(plain, names, [1], solo=False) == "Ben won."
    assert game_ending(plain, names, [1], solo=False, as_title=True) == "Ben wins!"
    assert game_ending(plain, names, [0, 2], solo=False) == "Anna and Cleo won."
    assert game_ending(plain, names, [0, 2], solo=False, as_title=True) == "Anna and Cleo win!"
    assert game_ending(plain, names, [], solo=False) == "Game over."
    assert game_ending(plain, names, [0], solo=True, as_title=True) == "Game over"  # a score
    assert game_ending(TeamLoss(), names, [], solo=False) == "The team lost."
    assert game_ending(TeamLoss(), names, [], solo=False, as_title=True) == "The team lost"


def test_the_player_count_follows_a_setting_that_goes_with_one():
    from simulator.core import registry

    bandu, bunko = registry.get_game("bandu").info, registry.get_game("bunko").info
    assert bandu.players_for({}) == bandu.default_players == 2
    assert bandu.players_for({"variant": "solo"}) == 1
    assert bandu.players_for({"variant": "chain", "beans": 3}) == 2
    tables = next(s for s in bunko.settings if s.name == "tables")
    three = next(c for c in tables.choices if c.kwargs == {"tables": 3})
    assert bunko.players_for({"tables": 3}) == three.players


def test_team_names_take_plural_words():
    from simulator.core import registry

    buddel, tanbo = registry.get_game("buddel_bande").info, registry.get_game("tanbo").info
    assert buddel.seat_possessive(0) == "Ladybirds'" and buddel.seat_verb(0, "is", "are") == "are"
    assert tanbo.seat_possessive(0) == "Black's" and tanbo.seat_verb(0, "is", "are") == "is"
    assert registry.get_game("bandu").info.seat_possessive(2) == "Player 3's"


@pytest.mark.gui
def test_a_team_wins_in_the_plural(x_display):
    from simulator.render.game_view import GameView, game_ending

    class Plain(GameView):
        def __init__(self) -> None:
            pass

    from simulator.core.registry import GameInfo

    teams = GameInfo("teams", "Teams", "", 2, 2, seat_names=("Ants", "Worms"), seat_names_plural=True)
    people = GameInfo("people", "People", "", 2, 2, seat_names=("Anna", "Ben"))
    assert game_ending(Plain(), teams, [0], solo=False, as_title=True) == "Ants win!"
    assert game_ending(Plain(), people, [0], solo=False, as_title=True) == "Anna wins!"


@pytest.mark.gui
@pytest.mark.parametrize("game", ["bandu", "tanbo", "bandida", "bunko", "buddel_bande"])
def test_the_help_names_each_key_once(gui, game):
    from simulator.core import registry
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    app.start_game(game, {}, [Seat(PERSON)] * registry.get_game(game).info.default_players, seed=1)
    body = window.top.help.text
    keys = [line[:14].strip() for line in body.split("RULES IN SHORT")[0].splitlines()[1:] if line.strip()]
    assert len(keys) == len(set(keys)), keys          # Buddel Bande had 'Tab, Enter' twice
    app.show_menu()


def test_the_remembered_new_game_choices_survive_any_file(private_home):
    from simulator.app import last_choices

    path = private_home / last_choices.FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    for broken in ("[" * 20_000 + "]" * 20_000, "null", '{"tanbo": 5}',    # 40 KB: read, too deep
                   '{"tanbo": {"players": true, "seats": "x", "settings": [1]}}'):
        path.write_text(broken)
        assert last_choices.load("tanbo") == (None, [], {})
    path.write_bytes(b"\xff\xfe")
    assert last_choices.load("tanbo") == (None, [], {})
    last_choices.store("tanbo", 2, ["Person", "Easy"], {"size": "11 x 11"})   # replaces the junk
    assert last_choices.load("tanbo") == (2, ["Person", "Easy"], {"size": "11 x 11"})
    path.unlink()
    path.mkdir()                                          # not a file: nothing, and no error
    last_choices.store("tanbo", 2, ["Person"], {})
    assert last_choices.load("tanbo") == (None, [], {})


def test_the_first_lookups_on_many_threads_at_once_all_find_every_game():
    """The bug: the registry marked itself discovered before its imports ended, so a lookup on
    another thread meanwhile found half the games ("unknown game 'buddel_bande'; choose one of
    bandida": a host starting four tables at once)."""
    code = """
import threading
from simulator.core import registry
names = ["bandu", "tanbo", "bandida", "bunko", "buddel_bande"] * 4
found, barrier = [], threading.Barrier(len(names))
def look(name):
    barrier.wait()
    found.append(registry.get_game(name).name)
threads = [threading.Thread(target=look, args=(n,)) for n in names]
[t.start() for t in threads]; [t.join() for t in threads]
print(len(found))
"""
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                              cwd=Path(__file__).resolve().parent.parent)
        assert done.stdout.strip() == "20", done.stderr[-800:]
