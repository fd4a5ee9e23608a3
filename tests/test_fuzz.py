"""Property-based tests (Hypothesis): generated save files, scene files, command lines and action
sequences for every registered game must never produce a traceback, a crash, a hang or a
message of more than one line. Every input that ever failed is kept in tests/fuzz_corpus/ and
replayed on every run.

Profiles (environment variable BANDU_FUZZ): `ci` (the default: a short, repeatable run) and
`long` (thousands of examples, for a hunt by hand):

    BANDU_FUZZ=long ./test.sh tests/test_fuzz.py

When a run finds a failing input, Hypothesis prints it; save it as a file in the corpus folder
of its kind (saves/*.json, scenes/*.toml, argv/*.json as a JSON list of arguments, records/*.json
as a records export that must be refused, actions/*.json as a game, an action's class and the
fields forged in it; databases/*.sql, SQL that damages a records database, is replayed by
test_records.py) and fix the
cause: the corpus test fails until then.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
from pathlib import Path

import crowd_game  # noqa: F401  (registers the test games)
import dice_game  # noqa: F401
import peek_game  # noqa: F401
import pytest
import stack_game  # noqa: F401
import tool_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import cli
from simulator.app import storage
from simulator.core import registry
from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController
from simulator.core.errors import IllegalAction, SaveError, SceneError
from simulator.towers.physics.scene_file import MAX_PLACEMENTS, MAX_TOWERS, load_scene, parse_scene

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("BANDU_FUZZ", "ci"))

CORPUS = Path(__file__).parent / "fuzz_corpus"
GAMES = [g.name for g in registry.playable_games()]
MESSAGE_LIMIT = 600
json_paths = tool_module.load("fuzz_inputs").json_paths          # the fresh fuzzer's, one copy
json_replaced = tool_module.load("fuzz_inputs").json_replaced


def assert_one_line(message: str) -> None:
    assert message and "\n" not in message and len(message) <= MESSAGE_LIMIT, message
    assert all(c.isprintable() for c in message), repr(message)


# --- generators --------------------------------------------------------------------------------------

text = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=24)
big_ints = st.integers(min_value=-(10**60), max_value=10**60)
scalars = (st.none() | st.booleans() | st.integers(-5, 30) | big_ints
           | st.floats(allow_nan=True, allow_infinity=True) | text
           | st.sampled_from(["a1", "b²", "e٣", "+1", "stack 2", "peek", "", "-1", "1e999"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(text, inner, max_size=4), max_leaves=10)


def _valid_saves() -> list[dict]:
    saves = []
    for game, seats in (("tanbo", [Seat(PERSON), Seat(COMPUTER, "random")]),
                        ("peek", [Seat(COMPUTER, "random"), Seat(COMPUTER, "random")]),
                        ("stack", [Seat(COMPUTER, "random"), Seat(COMPUTER, "random")])):
        c = TurnController(game, {"width": 5, "height": 7} if game == "tanbo" else {}, seats, seed=3)
        if game == "tanbo":
            for _ in range(3):
                c.submit(c.state.legal_actions()[0])
                c.play_computer_moves()
        else:
            c.play_computer_moves(limit=9)
        saves.append(c.to_save_dict())
    return saves


VALID_SAVES = _valid_saves()


@st.composite
def save_texts(draw) -> str:
    kind = draw(st.sampled_from(["mutate", "mutate", "mutate", "delete", "raw"]))
    if kind == "raw":
        return draw(st.text(max_size=200) | json_values.map(json.dumps))
    save = draw(st.sampled_from(VALID_SAVES))
    paths = [p for p in json_paths(save) if p]
    path = draw(st.sampled_from(paths))
    if kind == "delete" and isinstance(_get(save, path[:-1]), dict):
        parent = dict(_get(save, path[:-1]))
        del parent[path[-1]]
        return json.dumps(json_replaced(save, path[:-1], parent))
    return json.dumps(json_replaced(save, path, draw(json_values)))


def _get(value, path):
    for key in path:
        value = value[key]
    return value


def toml_value(value) -> str:
    """A value as TOML (inline tables and arrays, so any nesting is one line)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(repr(value), repr(value))
    if isinstance(value, str):
        escaped = "".join(f"\\u{ord(c):04x}" if (ord(c) < 32 or ord(c) == 127) else c
                          for c in value.replace("\\", "\\\\").replace('"', '\\"'))
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_value(str(k))} = {toml_value(v)}" for k, v in value.items()
                               if v is not None) + "}"
    raise TypeError(value)


def toml_document(table: dict) -> str:
    return "\n".join(f"{toml_value(str(k))} = {toml_value(v)}" for k, v in table.items() if v is not None)


pieces = st.sampled_from(["base", "cube-small", "ball", "egg", "ring", "ashlar-large", "nope", "base#2"])
numbers = st.integers(-3000, 3000) | st.floats(-3000, 3000) | big_ints | st.just(float("nan")) | text
vectors = st.lists(numbers, min_size=0, max_size=4)
placements = st.fixed_dictionaries({"piece": pieces | text, "position_mm": vectors},
                                   optional={"rotation_deg": vectors, "drop": st.booleans() | text,
                                             "extra": json_values})
towers = st.fixed_dictionaries({}, optional={
    "foundation": pieces, "position_mm": vectors,
    "order": st.lists(pieces, max_size=6) | json_values,
    "placements": st.lists(placements, max_size=3) | json_values,
    "height": json_values})
scene_tables = st.fixed_dictionaries({}, optional={
    "name": text | json_values, "settle_seconds": numbers, "hold_seconds": numbers,
    "slope_deg": numbers, "seed": numbers | st.integers(-1, 2**64),
    "allow_duplicates": st.booleans() | text,
    "tremor": st.fixed_dictionaries({}, optional={"position_mm": numbers, "angle_deg": numbers})
    | json_values,
    "towers": st.lists(towers, max_size=3) | json_values,
    "expect": st.fixed_dictionaries({}, optional={
        "stood": st.lists(st.booleans() | text, max_size=3), "fell_at": st.lists(numbers, max_size=3),
        "disturbed": json_values,
        "pieces": st.lists(st.fixed_dictionaries({"position_mm": vectors}, optional={
            "tower": numbers, "index": numbers, "within_mm": numbers, "beyond_mm": numbers}),
            max_size=2)}) | json_values,
    "bogus": json_values})


# --- the promises, checked for one input ----------------------------------------------------------------

def check_save_file(path: Path) -> None:
    try:
        TurnController.load(path).close()
    except SaveError as error:
        assert_one_line(str(error))
    summary = storage.read_summary(path)              # the saved-games list never fails either
    assert "\n" not in summary.title


def check_scene_text(text_: str, path: str = "generated.toml") -> None:
    try:
        scene = parse_scene(text_, path)
    except SceneError as error:
        assert_one_line(str(error))
        return
    assert 1 <= len(scene.towers) <= MAX_TOWERS
    for tower in scene.towers:
        assert len(tower.placements) <= MAX_PLACEMENTS
        assert all(p.position_mm is None or p.position_mm[2] >= 0 for p in tower.placements)


class ReachedTheWork(BaseException):
    """Raised by the stand-ins of the commands' real work: the input passed every check."""


def _stand_in(*args, **kwargs):
    raise ReachedTheWork


@pytest.fixture
def commands_stop_before_work(monkeypatch):
    import simulator.app.main as app_main
    import simulator.bench as bench
    import simulator.games.bandu.solo as solo
    import simulator.selfplay as selfplay_module
    import simulator.towers.physics.stability as stability
    import simulator.towers.pieces.build as meshes
    import simulator.towers.studies.study as study
    from simulator.games.bandu.records import RecordStore

    for module, name in ((app_main, "run_app"), (selfplay_module, "selfplay"), (stability, "run_scene"),
                         (bench, "run_benchmarks"), (meshes, "write_assets"), (study, "run_study"),
                         (solo, "run_attempts"), (RecordStore, "export")):   # export: no file written
        monkeypatch.setattr(module, name, _stand_in)


def check_command_line(argv: list[str]) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = cli.main(argv)
        except ReachedTheWork:
            return
        except SystemExit as exit_:        # --help
            assert exit_.code in (0, None), err.getvalue()   # noqa: PT017 (a fuzzed line may end in --help)
            return
    assert status in (0, 1, 2), status
    assert "Traceback" not in err.getvalue()
    if status == 2:
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("bandu-sim: error: "), err.getvalue()
        assert_one_line(lines[0])


SCENE_FILES = ["scenes/examples/six-towers.toml", "scenes/validation/does-not-exist.toml",
               "tests/fuzz_corpus/scenes", "README.md/not-a-folder.toml", "README.md"]  # never a system file
argv_values = (text | st.integers(-10**30, 10**30).map(str) | st.sampled_from(
    ["0", "1", "2", "-1", "800", "100000", "1e3", "nan", "inf", "²", "tanbo", "bandu", "peek", "random", "mcts", "mcts:strong", "mcts:godlike", "random,random", ",,,", "size=7", "width=5", "self=1", "players=3", "colour=red", "start=classic", "size=99999999999999999999999", "permutations", "random:3", "random:0", "given", "README.md/report", "ai:easy", "ai:godlike", "ai", *SCENE_FILES]))
options = st.sampled_from(["--games", "--seed", "--players", "--setting", "--workers", "--json",
                           "--size", "--load", "--tremor-mm", "--tremor-deg", "--quick", "--oversubscribe",
                           "--help", "--noise-mm", "--noise-deg", "--orderings", "--trials", "--report",
                           "--player", "--attempts", "--chain", "--chain-seed", "--reserve", "--export",
                           "--import"])
commands = st.sampled_from(["play", "selfplay", "solo", "records", "stability", "pieces", "bench",
                            "build-meshes", "frob", ""])
command_lines = st.builds(lambda c, rest: [c, *rest] if c else rest, commands,
                          st.lists(options | argv_values, max_size=7))


# --- properties --------------------------------------------------------------------------------------

@given(save_texts())
def test_no_save_file_breaks_loading_or_the_list(tmp_path_factory, text_):
    path = tmp_path_factory.mktemp("saves") / "fuzzed.json"
    path.write_text(text_, encoding="utf-8")
    check_save_file(path)


@given(st.binary(max_size=300))
def test_no_bytes_break_loading(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("saves") / "bytes.json"
    path.write_bytes(data)
    check_save_file(path)


@given(scene_tables)
def test_no_scene_table_breaks_the_reader(table):
    check_scene_text(toml_document(table))


@given(st.text(max_size=300))
def test_no_scene_text_breaks_the_reader(text_):
    check_scene_text(text_)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(command_lines)
def test_no_command_line_gives_a_traceback(commands_stop_before_work, argv):
    check_command_line(argv)


@pytest.mark.parametrize("name", GAMES)
@given(steps=st.lists(st.tuples(st.sampled_from(["legal", "legal", "text", "round trip", "mutate"]),
                                st.integers(0, 10**6), text, json_values), max_size=40),
       seed=st.integers(0, 10**6))
def test_games_refuse_bad_actions_and_keep_their_state(name, steps, seed):
    game = registry.get_game(name)
    state = game.new_game()
    rng = random.Random(seed)
    for kind, index, words, value in steps:
        if state.is_terminal():
            break
        if not state.is_decision_node():
            state.apply(state.random_action(rng))
            continue
        if kind == "legal":
            legal = state.legal_actions()
            state.apply(legal[index % len(legal)])
        elif kind == "text":
            before = state.to_dict()
            try:
                action = state.action_from_str(words)
                legal_before = state.is_legal(action)
                state.apply(action)
                assert legal_before
            except IllegalAction as error:
                assert_one_line(str(error))
                assert state.to_dict() == before        # a refused action changes nothing
        elif kind == "round trip":
            data = json.loads(json.dumps(state.to_dict()))
            assert game.state_from_dict(data) == state and state.clone() == state
        else:
            data = state.to_dict()
            paths = [p for p in json_paths(data) if p]
            mutated = json_replaced(data, paths[index % len(paths)], value) if paths else value
            try:
                game.state_from_dict(mutated)
            except ValueError as error:   # refused or not, never a message of two lines
                assert "\n" not in str(error)   # noqa: PT017


# --- the corpus: every input that ever failed ---------------------------------------------------------

def _corpus(kind: str, pattern: str) -> list[Path]:
    return sorted((CORPUS / kind).glob(pattern))


@pytest.mark.parametrize("path", _corpus("saves", "*.json"), ids=lambda p: p.name)
def test_corpus_saves(path):
    check_save_file(path)


@pytest.mark.parametrize("path", _corpus("scenes", "*.toml"), ids=lambda p: p.name)
def test_corpus_scenes(path):
    try:
        load_scene(path)
    except SceneError as error:
        assert_one_line(str(error))


@pytest.mark.parametrize("path", _corpus("argv", "*.json"), ids=lambda p: p.name)
def test_corpus_command_lines(commands_stop_before_work, path):
    check_command_line(json.loads(path.read_text(encoding="utf-8")))


def _first_action_of_kind(game: str, kind: str) -> tuple[object, object]:
    """The first state of a seeded random game where an action of class `kind` is legal."""
    state = registry.new_game(game)
    rng = random.Random(0)
    for _ in range(2000):
        assert not state.is_terminal(), f"{game}: no {kind} met"
        actions = state.legal_actions() if state.is_decision_node() else [state.random_action(rng)]
        met = [a for a in actions if type(a).__name__ == kind]
        if met:
            return state, met[0]
        state.apply(rng.choice(actions))
    raise AssertionError(f"{game}: no {kind} met")


def _tuples(value: object) -> object:
    """JSON's lists as the tuples an action holds, at every depth."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


@pytest.mark.parametrize("path", _corpus("actions", "*.json"), ids=lambda p: p.name)
def test_corpus_actions(path):
    """An action of the game's own class with a field of the wrong type or a forged value (a
    JSON list stands for a tuple): IllegalAction in one printable line, the state unchanged."""
    import dataclasses

    entry = json.loads(path.read_text(encoding="utf-8"))
    state, action = _first_action_of_kind(entry["game"], entry["kind"])
    fields = {k: _tuples(v) for k, v in entry["fields"].items()}
    bad = dataclasses.replace(action, **fields)
    before = state.to_dict()
    with pytest.raises(IllegalAction) as refused:
        state.clone().apply(bad)
    assert_one_line(str(refused.value))
    assert state.to_dict() == before


@pytest.mark.parametrize("path", _corpus("records", "*.json"), ids=lambda p: p.name)
def test_corpus_records_imports(path, tmp_path, monkeypatch):
    """Every records file in the corpus is forged or damaged (a personal best edited in, a
    replay that leads elsewhere, values of the wrong type): the import refuses it in one line,
    naming the file, and the records stay as they were."""
    from simulator.core.errors import RecordsError
    from simulator.games.bandu.records import RecordStore

    monkeypatch.setenv("BANDU_SIM_HOME", str(tmp_path / "home"))
    with RecordStore.open() as store:
        with pytest.raises(RecordsError) as error:
            store.import_file(path)
        assert_one_line(str(error.value))
        assert path.name in str(error.value) and store.attempts() == []


@pytest.mark.parametrize("name", GAMES)
def test_an_action_with_a_huge_field_is_refused_in_one_short_line(name):
    """The fresh fuzzer (tools/fuzz_inputs.py) found Buddel Bande echoing a 5000-letter action
    kind whole into its refusal. Every field of the first legal actions, set to 5000 letters."""
    import dataclasses

    state = registry.get_game(name).new_game()
    rng = random.Random(1)
    for _ in range(30):
        if state.is_terminal():
            break
        if not state.is_decision_node():
            state.apply(state.random_action(rng))
            continue
        for action in state.legal_actions()[:3]:
            for field in dataclasses.fields(action) if dataclasses.is_dataclass(action) else ():
                try:
                    huge = dataclasses.replace(action, **{field.name: "a" * 5000})
                except (TypeError, ValueError):
                    continue
                probe = state.clone()
                try:
                    probe.apply(huge)
                except IllegalAction as error:
                    assert_one_line(str(error))
        state.apply(rng.choice(state.legal_actions()))


THE_FIVE_GAMES = ["bandu", "tanbo", "bandida", "bunko", "buddel_bande"]


def _beyond(annotation) -> list:
    """Values just outside an Annotated field's declared range (Between, OneOf)."""
    import typing

    from simulator.core.action_fields import Between, OneOf

    values: list = []
    for constraint in annotation.__metadata__:
        if isinstance(constraint, Between):
            step = 1 if annotation.__origin__ is int else 0.5
            values += [constraint.low - step, constraint.high + step]
        elif isinstance(constraint, OneOf):
            kinds = {type(v) for v in constraint.values}
            values += [max(constraint.values) + 1, min(constraint.values) - 1] if kinds == {int} \
                else ["not-" + "-".join(map(str, constraint.values))]
    assert values, f"{annotation}: no declared range"
    assert typing.get_origin(annotation) is typing.Annotated
    return values


@pytest.mark.parametrize("name", THE_FIVE_GAMES)
def test_every_number_of_an_action_has_a_declared_range_and_one_beyond_it_is_refused(name):
    """The class of issue 60's Bandida side 1000: each number an action holds (and each word
    drawn from a fixed set) declares its range (core/action_fields.py: Annotated with Between
    or OneOf), and apply refuses a value beyond it before the rules see it. Bandu's poses are
    seven numbers checked by rules.pose_problem instead (test_hardening)."""
    import dataclasses
    import typing

    state = registry.get_game(name).new_game()
    rng = random.Random(3)
    checked: set[tuple[str, str]] = set()
    for _ in range(400):
        if state.is_terminal():
            break
        actions = state.legal_actions() if state.is_decision_node() else [state.random_action(rng)]
        for action in actions[:6]:
            hints = typing.get_type_hints(type(action), include_extras=True)
            for field in dataclasses.fields(action):
                hint, value = hints[field.name], getattr(action, field.name)
                if (type(action).__name__, field.name) == ("Settled", "poses"):
                    continue
                inner = typing.get_args(hint)[0] if typing.get_origin(hint) is tuple else hint
                if typing.get_origin(inner) is not typing.Annotated:
                    assert inner is str and field.name == "piece", \
                        f"{type(action).__name__}.{field.name}: {hint} declares no range"
                    continue
                for bad in _beyond(inner):
                    forged = (bad, *value[1:]) if typing.get_origin(hint) is tuple else bad
                    probe = state.clone()
                    with pytest.raises(IllegalAction, match="not a move of this game") as refused:
                        probe.apply(dataclasses.replace(action, **{field.name: forged}))
                    assert_one_line(str(refused.value))
                checked.add((type(action).__name__, field.name))
        state.apply(rng.choice(actions))
    assert checked, "no action with a declared range met"
