"""A mutation fuzzer of every input the program reads, written apart from the Hypothesis suite
(tests/test_fuzz.py): it starts from real inputs (the example scenes, saves of games played at
random, the records corpus, a records database, a move sent to a hosted table), damages them
(bytes flipped, cut, inserted; JSON values swapped for wrong types, huge numbers, control
characters, deep nesting) and feeds them to the program the way a user would (a network
message by a joiner seated at a host on the loopback interface: one refusal and nothing
changed, or the move it still was). Each case ends one of three ways:

- accepted: the program took the input (a scene that parses, a save that loads);
- refused: it said no in one printable line (a SimulatorError, or exit status 1 or 2 with one
  line on stderr);
- escaped: anything else (another exception, a traceback, a multi-line message, a hang).

    .venv/bin/python tools/fuzz_inputs.py --cases 1000 --seed 1        # counts per family
    ./test.sh -m long tests/test_fuzz_run.py                          # the same, as a test

Every file it writes is inside a scratch folder it makes (and removes); command lines run in a
subprocess whose home and working folder are that scratch folder, and never name a system file
or a device.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FAMILIES = ("scene", "save", "records import", "records database", "game action", "command line",
            "network message", "forged result", "continued old save")
# what a forged pose of a recorded result may hold: no pose, a zero quaternion, far away, NaN
FORGED_NUMBERS = ["0.0", "-0.0", "1e19", "-1e19", "1e308", "NaN", "Infinity", "1e-300", "2", "\"x\"",
                  "null", "[]"]
OLD_REFEREE = "pybullet 3.0.0 0123456789ab"     # a stamp no version of today's physics has
WEIRD_VALUES = [None, True, False, 0, -1, 2**70, -(2**63), 1e308, -0.0, "", " ", "\x1b[31m\x07",
                "²", "٣", "a" * 5000, [], {}, [[[[[]]]]], {"": None}, "\u202e", "nan", "1e999"]


DEEP = "\u0000deep nesting here\u0000"     # replaced by 5000 nested lists in the text


class Escape(Exception):
    """The program's answer broke the contract: said by `classify`."""


def one_line(message: str) -> bool:
    return bool(message) and "\n" not in message and len(message) <= 600 and message.isprintable()


# --- mutators -----------------------------------------------------------------------------------

def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        kind = rng.random()
        at = rng.randrange(len(data) + 1)
        if kind < 0.35 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif kind < 0.6:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))
        elif kind < 0.85 and data:
            del data[at:at + rng.randint(1, 40)]
        else:
            del data[at:]
    return bytes(data)


def json_paths(value, prefix=()) -> Iterator[tuple]:
    """Every path into a JSON value (keys and indices), the value itself first."""
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from json_paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from json_paths(inner, (*prefix, index))


def json_replaced(value, path, new):
    """A copy of a JSON value with the value at `path` replaced by `new`."""
    if not path:
        return new
    head, *rest = path
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = json_replaced(value[head], rest, new)
    return copy


def mutate_json(value, rng: random.Random):
    for _ in range(rng.randint(1, 3)):
        paths = list(json_paths(value))
        path = rng.choice(paths)
        new = DEEP if rng.random() < 0.15 else rng.choice(WEIRD_VALUES)
        value = json_replaced(value, path, new)
    return value


def damaged_text(original: bytes, rng: random.Random) -> bytes:
    """JSON damaged as JSON (most cases) or as bytes."""
    try:
        value = json.loads(original)
    except ValueError:
        return mutate_bytes(original, rng)
    if rng.random() < 0.7:     # nesting too deep for Python's own parser, written as text
        text = json.dumps(mutate_json(value, rng))
        return text.replace(json.dumps(DEEP), "[" * 5000 + "]" * 5000).encode()
    return mutate_bytes(original, rng)


# --- the families ---------------------------------------------------------------------------------

def classify(run: Callable[[], object], refusals: tuple[type[BaseException], ...]) -> str:
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            run()
    except refusals as error:
        if not one_line(str(error)):
            raise Escape(f"{type(error).__name__} not one printable line: {str(error)[:200]!r}") from None
        return "refused"
    except RecursionError as error:
        raise Escape(f"RecursionError: {error}") from None
    except Exception as error:              # everything else is an escape
        raise Escape(f"{type(error).__name__}: {str(error)[:200]}") from None
    return "accepted"


class Fuzzer:
    def __init__(self, scratch: Path, seed: int) -> None:
        self.scratch = scratch
        self.rng = random.Random(seed)
        self.counts: dict[str, Counter] = {family: Counter() for family in FAMILIES}
        self.escapes: list[str] = []
        os.environ["BANDU_SIM_HOME"] = str(scratch / "home")
        from simulator.core import registry
        from simulator.core.controller import COMPUTER, Seat, TurnController
        self.scenes = [p.read_bytes() for p in sorted((ROOT / "scenes" / "examples").glob("*.toml"))]
        self.records = [p.read_bytes() for p in sorted((ROOT / "tests" / "fuzz_corpus" / "records").glob("*.json"))]
        self.saves = []
        for game in registry.playable_games():
            if game.name == "bandu":
                continue                    # its moves need the physics referee: one real save below
            players = game.info.min_players if game.info.min_players > 1 else 2
            controller = TurnController(game.name, {}, [Seat(COMPUTER, "random")] * players, seed=seed)
            controller.play_computer_moves(limit=12)
            self.saves.append(json.dumps(controller.to_save_dict()).encode())
            controller.close()
        bandu = TurnController("bandu", {"variant": "solo"}, [Seat(COMPUTER, "random")], seed=seed)
        bandu.play_computer_moves(limit=6)
        self.saves.append(json.dumps(bandu.to_save_dict()).encode())
        bandu.close()
        self.database = self._database()

    def _database(self) -> Path:
        """A records database holding one real attempt (the corpus' first, which is sound)."""
        from simulator.games.bandu.records import RecordStore
        document = json.loads(self.records[0])
        document["attempts"] = document["attempts"][:1]
        sound = self.scratch / "sound.json"
        sound.write_text(json.dumps(document))
        with RecordStore.open() as store:
            store.import_file(sound)
            path = Path(store.path)
        kept = self.scratch / "records-sound.sqlite"
        shutil.copy(path, kept)
        path.unlink()
        self.database_path = path
        return kept

    def case(self, family: str) -> str:
        from simulator.core.errors import RecordsError, SaveError, SceneError
        rng = self.rng
        if family == "network message":
            return self.network_case()
        if family == "scene":
            from simulator.towers.physics.scene_file import parse_scene
            data = mutate_bytes(rng.choice(self.scenes), rng)
            text = data.decode("utf-8", errors="replace")
            return classify(lambda: parse_scene(text, "fuzzed.toml"), (SceneError,))
        if family == "save":
            from simulator.app import storage
            from simulator.core.controller import TurnController
            path = self.scratch / "fuzzed-save.json"
            path.write_bytes(damaged_text(rng.choice(self.saves), rng))

            def load() -> None:
                storage.read_summary(path)                  # the list never fails
                TurnController.load(path).close()
            return classify(load, (SaveError,))
        if family == "records import":
            from simulator.games.bandu.records import RecordStore
            path = self.scratch / "fuzzed-records.json"
            path.write_bytes(damaged_text(rng.choice(self.records), rng))

            def imported() -> None:
                with RecordStore.open() as store:
                    store.import_file(path)
            return classify(imported, (RecordsError,))
        if family == "records database":
            return self._database_case()
        if family == "forged result":
            return self._forged_result_case()
        if family == "continued old save":
            return self._continued_old_save_case()
        if family == "game action":
            return self._action_case()
        return self._command_case()

    def _database_case(self) -> str:
        from simulator.core.errors import RecordsError
        from simulator.games.bandu import records_text
        from simulator.games.bandu.records import RecordStore
        path = self.database_path
        shutil.copy(self.database, path)
        rng = self.rng
        if rng.random() < 0.5:
            connection = sqlite3.connect(path)
            columns = [row[1] for row in connection.execute("PRAGMA table_info(attempts)")]
            value = rng.choice(["text", b"\x00\x01", -1, 2**62, 1e308, None, "{", "[" * 3000])
            with contextlib.suppress(sqlite3.Error):      # the schema's own checks refuse some
                connection.execute(f"UPDATE attempts SET {rng.choice(columns)} = ?", (value,))
                connection.commit()
            connection.close()
        else:
            path.write_bytes(mutate_bytes(path.read_bytes(), rng))

        def listed() -> None:                   # what `bandu-sim records` does with it
            with RecordStore.open() as store:
                records_text.format_records(store.attempts(replays=False), store.personal_bests(),
                                            str(store.path))
                store.attempts()                # with their replays, as the Records screen
        try:
            return classify(listed, (RecordsError,))
        finally:
            for leftover in path.parent.glob(path.name + "*"):
                leftover.unlink()

    def _bandu_save(self) -> dict:
        """The Bandu game's save (a solo tower of a few placements, judged by today's physics)."""
        return json.loads(self.saves[-1])

    def _forged_result_case(self) -> str:
        """A recorded result of a Bandu save with one number of its poses forged (a zero
        quaternion, 1e19 mm, NaN, a wrong type): refused in one line, or loaded and played on
        (two computer placements) without a hang."""
        import re

        from simulator.core.controller import TurnController
        from simulator.core.errors import SaveError
        rng = self.rng
        data = self._bandu_save()
        results = [entry for entry in data["history"] if entry["action"].startswith("result ")]
        if not results:
            return "accepted"
        entry = rng.choice(results)
        numbers = list(re.finditer(r"-?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?", entry["action"]))
        if not numbers:
            return "accepted"
        hit = rng.choice(numbers)
        entry["action"] = entry["action"][:hit.start()] + rng.choice(FORGED_NUMBERS) + entry["action"][hit.end():]
        if rng.random() < 0.5:
            data.pop("state", None)             # no position to compare with: the moves alone
        path = self.scratch / "forged-result.json"
        path.write_text(json.dumps(data))

        def loaded_and_played() -> None:
            started = time.monotonic()
            controller = TurnController.load(path)
            try:
                controller.play_computer_moves(limit=2)
            finally:
                controller.close()
            if time.monotonic() - started > 60:
                raise Escape("a forged result took over a minute to load and play on")
        return classify(loaded_and_played, (SaveError,))

    def _continued_old_save_case(self) -> str:
        """A Bandu save of an earlier referee (its stamp another version's), opened, played on
        and saved, then opened again: every save the program wrote itself opens."""
        from simulator.core.controller import TurnController
        from simulator.core.errors import SaveError
        data = self._bandu_save()
        data.pop("judged_by", None)
        data["referee"] = OLD_REFEREE
        data.pop("state", None)
        earlier = self.scratch / "earlier.json"
        earlier.write_text(json.dumps(data))
        continued = self.scratch / "continued.json"

        def continued_and_reopened() -> None:
            controller = TurnController.load(earlier)
            try:
                controller.play_computer_moves(limit=self.rng.randint(1, 4))
                controller.save(continued)
            finally:
                controller.close()
            try:
                TurnController.load(continued).close()
            except SaveError as error:
                raise Escape(f"its own save was refused: {error}") from None
        return classify(continued_and_reopened, (SaveError,))

    def _action_case(self) -> str:
        from simulator.core import registry
        from simulator.core.errors import IllegalAction
        rng = self.rng
        games = [g for g in registry.playable_games() if g.name != "bandu"] + [registry.get_game("bandu")]
        game = rng.choice(games)
        state = game.new_game()
        for _ in range(rng.randint(0, 20)):
            if state.is_terminal():
                break
            if not state.is_decision_node():
                state.apply(state.random_action(rng))
                continue
            legal = state.legal_actions()
            if not legal:
                break
            state.apply(rng.choice(legal))
        if state.is_terminal() or not state.is_decision_node() or not state.legal_actions():
            return "accepted"
        action = rng.choice(state.legal_actions())
        if dataclasses.is_dataclass(action):
            fields = [f.name for f in dataclasses.fields(action)]
            if fields:
                name = rng.choice(fields)
                with contextlib.suppress(Exception):   # a field the class builds itself: kept
                    action = dataclasses.replace(action, **{name: rng.choice(WEIRD_VALUES)})
        before = state.to_dict()

        def applied() -> None:
            try:
                state.apply(action)
            except IllegalAction:
                if state.to_dict() != before:
                    raise Escape("a refused action changed the state") from None
                raise
        return classify(applied, (IllegalAction,))

    def _command_case(self) -> str:
        rng = self.rng
        scenes = self.scratch / "scenes"
        scenes.mkdir(exist_ok=True)
        scene = scenes / "fuzzed.toml"
        scene.write_bytes(mutate_bytes(rng.choice(self.scenes), rng))
        words = ["pieces", "records", "stability"]  # the others' options: tests/test_fuzz.py
        options = ["--json", "--seed", "--games", "--players", "--setting", "--workers", "--trials",
                   "--orderings", "--tremor-mm", "--attempts", "--chain", "--export", "--import", "--list"]
        values = ["0", "-1", "2", "1e999", "nan", "²", "٣", "a" * 300, "\x1b[2J", "random:²",
                  "random:3", "size=0", "players=99", str(scene.relative_to(self.scratch)),
                  "missing.toml", "scenes", "out.json"]
        argv = [rng.choice(words)]
        if argv[0] == "stability":
            argv.append(str(scene.relative_to(self.scratch)))
        for _ in range(rng.randint(0, 4)):
            argv.append(rng.choice(options))
            if rng.random() < 0.8:
                argv.append(rng.choice(values))
        if argv[0] == "stability":
            argv += ["--trials", "1"]       # a sound scene is simulated once: a few seconds
        env = {**os.environ, "BANDU_SIM_HOME": str(self.scratch / "home"), "HOME": str(self.scratch),
               "PYTHONUNBUFFERED": "1"}
        env.pop("DISPLAY", None)
        command = [sys.executable, "-m", "simulator", *argv]
        try:
            done = subprocess.run(command, cwd=self.scratch, env={**env, "PYTHONPATH": str(ROOT)},
                                  capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            return "accepted"              # it was working on a valid command (the limits bound it)
        err = [line for line in done.stderr.splitlines() if not line.startswith("pybullet build time")]
        if "Traceback" in done.stderr or done.returncode not in (0, 1, 2):
            raise Escape(f"{argv!r}: exit {done.returncode}: {done.stderr[-300:]}")
        if done.returncode == 0:
            return "accepted"
        if len(err) != 1 or not one_line(err[0]):
            raise Escape(f"{argv!r}: stderr of {len(err)} lines: {done.stderr[-300:]!r}")
        return "refused"

    def _table(self):
        """A hosted Tanbo table (a remote seat against a random player) and a raw connection
        that has said hello for the remote seat: made anew when its game ends."""
        import threading

        from websockets.sync.client import connect

        from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController
        from simulator.net.host import Host
        from simulator.net.protocol import encode

        table = getattr(self, "_hosted", None)
        if table is not None and not table[0].controller.is_over():
            return table
        if table is not None:
            self.close_table()
        controller = TurnController("tanbo", {"size": 7}, [Seat(PERSON), Seat(COMPUTER, "random")],
                                    seed=self.rng.randrange(1000))
        host = Host(controller, [0])
        address = host.start()
        stop = threading.Event()
        stepping = threading.Thread(target=host.run, args=(stop,), kwargs={"linger_seconds": 0.0})
        stepping.start()
        closing = contextlib.ExitStack()
        connection = closing.enter_context(connect(f"ws://{address}", compression=None, max_size=None))
        connection.send(encode("hello", code=host.codes[0]))
        connection.recv(timeout=10)                       # the welcome
        self._hosted = (host, connection, stop, stepping, closing)
        return self._hosted

    def close_table(self) -> None:
        table = getattr(self, "_hosted", None)
        if table is None:
            return
        host, _, stop, stepping, closing = table
        closing.close()
        stop.set()
        stepping.join(timeout=30)
        host.close()
        host.controller.close()
        self._hosted = None

    def network_case(self) -> str:
        """A move message damaged as JSON or as bytes, sent to a host by a seated joiner: one
        `refused` line and nothing changed, or (a damage that left a legal move) the move."""
        from websockets.exceptions import ConnectionClosed

        from simulator.net.protocol import encode

        host, connection, *_ = self._table()
        controller = host.controller
        deadline = time.monotonic() + 10
        while controller.current_player() != 0 and not controller.is_over() and time.monotonic() < deadline:
            time.sleep(0.01)                                # the random player answers first
        with host.lock:
            ply, state = controller.ply(), controller.state.clone()
            legal = state.legal_actions()
        message = encode("move", action=state.action_to_str(self.rng.choice(legal)) if legal else "a1", ply=ply)
        if self.rng.random() < 0.7:
            sent: str | bytes = json.dumps(mutate_json(json.loads(message), self.rng))
        else:
            sent = mutate_bytes(message.encode(), self.rng)
        while True:                                        # drop what came before the case
            try:
                connection.recv(timeout=0)
            except TimeoutError:
                break
            except ConnectionClosed:                       # an earlier case ended the seat's line:
                self.close_table()                         # a new table for this one
                return self.network_case()
        try:
            connection.send(sent)
            while True:
                answer = json.loads(connection.recv(timeout=10))
                if answer["type"] in ("refused", "table", "closed"):
                    break
        except Exception as error:                         # no answer, or the host went away
            raise Escape(f"{sent!r:.120}: {type(error).__name__}: {error}") from None
        if answer["type"] == "refused":
            with host.lock:
                changed = controller.ply() != ply
            if changed or not one_line(answer["reason"]):
                raise Escape(f"{sent!r:.120}: refused {answer['reason']!r} but the game moved")
            return "refused"
        if answer["type"] == "closed":
            raise Escape(f"{sent!r:.120}: the host closed the connection ({answer['reason']})")
        return "accepted"

    def run(self, cases: int, progress: bool = True) -> None:
        weights = {"scene": 3, "save": 3, "records import": 2, "records database": 1, "game action": 4,
                   "command line": 1, "network message": 2, "forged result": 1, "continued old save": 1}
        plan = [family for family, weight in weights.items() for _ in range(weight)]
        for number in range(cases):
            family = plan[number % len(plan)]
            try:
                outcome = self.case(family)
            except Escape as escape:
                outcome = "escaped"
                self.escapes.append(f"{family}: {escape}")
            self.counts[family][outcome] += 1
            if progress:
                print(f"\r{number + 1}/{cases} cases, {len(self.escapes)} escaped", end="", file=sys.stderr)
        self.close_table()
        if progress:
            print(file=sys.stderr)

    def table(self) -> str:
        rows = ["| input family | tried | refused cleanly | accepted | escaped |", "|---|---|---|---|---|"]
        total = Counter()
        for family in FAMILIES:
            counts = self.counts[family]
            tried = sum(counts.values())
            total.update(counts)
            rows.append(f"| {family} | {tried} | {counts['refused']} | {counts['accepted']} | {counts['escaped']} |")
        rows.append(f"| all | {sum(total.values())} | {total['refused']} | {total['accepted']} | {total['escaped']} |")
        return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the counts as JSON")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bandu-sim-fuzz-"))
    try:
        fuzzer = Fuzzer(scratch, args.seed)
        fuzzer.run(args.cases, progress=not args.json)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        print(json.dumps({"counts": {f: dict(c) for f, c in fuzzer.counts.items()}, "escapes": fuzzer.escapes}))
    else:
        print(fuzzer.table())
        for escape in fuzzer.escapes:
            print("escaped:", escape)
    sys.exit(1 if fuzzer.escapes else 0)


if __name__ == "__main__":
    main()
