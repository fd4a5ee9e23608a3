"""Solo records: the SQLite store (add, list, bests, migrations, WAL, damaged files, export and
import), `bandu-sim records`, and the computer's attempts (`bandu-sim solo`): the same games on
one worker and on two, stored, each replay opening as a save; the tower's height from the
recorded poses against the physics' own measure."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator.core import registry
from simulator.core.controller import SAVE_FORMAT, SAVE_VERSION
from simulator.core.errors import RecordsError
from simulator.games.bandu.records import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Attempt,
    RecordStore,
    read_export,
)

SOLO_PIECES = ("disc", "cube-large", "cube-small", "slab-square", "ashlar-large", "plank-long",
               "ashlar-medium", "ashlar-small", "plank-short", "cylinder-wide")


@functools.cache
def _played(variant: str, score: int, fell: bool) -> tuple[dict, dict, tuple]:
    """A real finished game's settings, final state and moves: `score` pieces placed and
    standing, then (when `fell`) one more that falls. A chain game of `score` pieces ends with
    its last piece standing."""
    pieces = [SOLO_PIECES[n % len(SOLO_PIECES)] for n in range(score + 1)]
    settings = {"variant": variant}
    if variant == "chain":
        settings["chain"] = "pieces:" + ",".join(p.split("#")[0] for p in pieces[:score + fell])
    state = registry.new_game("bandu", 1, settings)
    history = []

    def move(text: str) -> None:
        history.append({"player": state.current_player(), "action": text})
        state.apply(state.action_from_str(text))

    for n in range(score + (1 if fell else 0)):
        if state.phase == "offer":
            move(state.action_to_str(state.legal_actions()[0]))      # the first piece offered
        move(state.action_to_str(state.legal_actions()[0]))          # placed at the axis
        move("result fell: 0" if fell and n == score else "result stood")
    assert state.is_terminal() and state.score_pieces == [score], (state.phase, state.score_pieces)
    return settings, state.to_dict(), tuple(history)


def replay_of(kind: str = "person", who: str = "Ann", variant: str = "solo", score: int = 5,
              fell: bool = True) -> dict:
    """A finished game's save, as the records check it: its moves replay to its state."""
    seat = {"kind": kind, "agent": who if kind == "computer" else None,
            "name": "" if kind == "computer" else who}
    settings, state, history = _played(variant, score, fell)
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": "bandu",
            "settings": dict(settings), "seed": 1, "seats": [seat],
            "history": [dict(h) for h in history], "state": copy.deepcopy(state)}


def attempt(who: str = "Ann", kind: str = "person", variant: str = "solo", chain_key: str = "",
            score: int = 5, height_mm: float = 100.0, fell: bool = True, practice_aid: bool = False,
            when: str = "2026-01-02T03:04:05+00:00") -> Attempt:
    return Attempt(when=when, who=who, kind=kind, variant=variant, chain_key=chain_key,
                   score=score, height_mm=height_mm, fell=fell, practice_aid=practice_aid,
                   replay=replay_of(kind, who, variant, score, fell))


def records_file(private_home: Path) -> Path:
    return private_home / "records.sqlite3"


# --- the store ----------------------------------------------------------------------------------

def test_the_store_lives_in_the_data_directory_in_wal_mode(private_home):
    with RecordStore.open() as store:
        assert store.path == records_file(private_home)
        assert store.journal_mode() == "wal" and store.schema_version() == SCHEMA_VERSION == 2
    with sqlite3.connect(records_file(private_home)) as db:      # WAL is kept by the file
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_add_and_list_newest_first_with_filters():
    with RecordStore.open() as store:
        first = store.add(attempt(score=3, when="2026-01-01T10:00:00+00:00"))
        store.add(attempt(who="ai:strong", kind="computer", score=7,
                          when="2026-01-01T11:00:00Z"))
        store.add(attempt(variant="chain", chain_key="seed:7", score=2,
                          when="2026-01-01T12:00:00+02:00"))      # 10:00 UTC: before the second
        assert first.id is not None
        listed = store.attempts()
        assert [a.score for a in listed] == [7, 2, 3]
        assert listed[0].when == "2026-01-01T11:00:00+00:00"       # one form: UTC, seconds
        assert listed[0].replay == replay_of("computer", "ai:strong", score=7)
        assert [a.score for a in store.attempts(variant="chain")] == [2]
        assert [a.score for a in store.attempts(kind="person")] == [2, 3]
        assert [a.score for a in store.attempts(variant="chain", chain_key="seed:8")] == []
        assert store.attempts(replays=False)[0].replay == {}


def test_personal_bests_count_pieces_then_height_and_never_a_practice_aid():
    with RecordStore.open() as store:
        store.add(attempt(score=5, height_mm=150.0, when="2026-01-01T10:00:00+00:00"))
        store.add(attempt(score=5, height_mm=180.0, when="2026-01-02T10:00:00+00:00"))
        store.add(attempt(score=4, height_mm=400.0))
        store.add(attempt(score=9, practice_aid=True))               # listed, not a best
        store.add(attempt(who="Bo", score=1))
        store.add(attempt(variant="chain", chain_key="seed:1", score=2))
        bests = {(a.variant, a.chain_key, a.who): (a.score, a.height_mm)
                 for a in store.personal_bests()}
        assert bests == {("solo", "", "Ann"): (5, 180.0), ("solo", "", "Bo"): (1, 100.0),
                         ("chain", "seed:1", "Ann"): (2, 100.0)}
        best = store.best("solo", "", "Ann")
        assert best is not None and best.height_mm == 180.0
        assert store.best("solo", "", "Cy") is None
        assert len(store.attempts()) == 6


@pytest.mark.parametrize(("change", "field"), [
    ({"score": 49}, "score"), ({"score": True}, "score"), ({"height_mm": float("nan")}, "height_mm"),
    ({"kind": "robot"}, "kind"), ({"who": "ai:easy"}, "replay"), ({"variant": "standard"}, "variant"),
    ({"when": "yesterday"}, "when"), ({"when": "2026-01-01T10:00:00"}, "when"),
    ({"fell": 1}, "fell"), ({"who": "line\nbreak"}, "who"), ({"chain_key": ""}, "chain_key"),
    ({"who": "Bo"}, "replay: its seat"), ({"kind": "computer"}, "who: the computer is ai:LEVEL"),
])
def test_add_refuses_a_bad_attempt_naming_the_field(change, field):
    chain = "chain_key" in change
    data = attempt(variant="chain" if chain else "solo", chain_key="k" if chain else "").as_dict()
    data.update(change)
    bad = Attempt(**data)
    with RecordStore.open() as store, pytest.raises(ValueError, match=f"^{field}"):
        store.add(bad)
    with RecordStore.open() as store:
        assert store.attempts() == []


def test_a_version_1_database_is_migrated(private_home):
    path = records_file(private_home)
    path.parent.mkdir(parents=True)
    old = attempt(score=6, height_mm=210.5)
    db = sqlite3.connect(path)
    MIGRATIONS[0](db)                           # what the first version of the program made
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (1)")
    db.execute("INSERT INTO attempts (played_at, who, kind, variant, chain_key, score, height_mm, "
               "fell, replay) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (old.when, old.who, old.kind, old.variant, old.chain_key, old.score, old.height_mm,
                1, json.dumps(old.replay)))
    db.commit()
    db.close()
    with RecordStore.open() as store:
        assert store.schema_version() == 2
        (migrated,) = store.attempts()
        assert migrated.as_dict() == old.as_dict() and migrated.practice_aid is False
        exported = private_home / "out.json"
        store.export(exported)
        assert store.import_file(exported) == (0, 1)   # its content hash was filled in


def _foreign_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    sqlite3.connect(path).close()


def _newer_records(path: Path) -> None:
    RecordStore.open(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = 99")


def _damaged_pages(path: Path) -> None:
    with RecordStore.open(path) as store:
        for n in range(200):
            store.add(attempt(score=n % 40, when=f"2026-01-01T10:00:{n % 60:02d}+00:00",
                              height_mm=float(n)))
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096 * 2:4096 * 4] = b"\xa5" * 8192         # two pages of the table overwritten
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p.write_text("my shopping list\n"), "not an SQLite file"),
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"junk" * 100), "damaged"),
    (_damaged_pages, "damaged"),
    (_foreign_sqlite, "other tables"),
    (_newer_records, "newer bandu-sim"),
    (lambda p: p.mkdir(), "not a regular file"),
])
def test_a_damaged_or_foreign_file_is_refused_in_one_line_and_left_as_it_is(private_home, make,
                                                                            message):
    path = records_file(private_home)
    path.parent.mkdir(parents=True)
    make(path)
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(RecordsError) as error:
        RecordStore.open()
    text = str(error.value)
    assert message in text and str(path) in text and "\n" not in text
    assert (path.read_bytes() if path.is_file() else None) == before


def test_export_then_import_round_trips_and_skips_what_is_there(tmp_path):
    first = tmp_path / "a.sqlite3"
    with RecordStore.open(first) as store:
        store.add(attempt(score=3))
        store.add(attempt(who="ai:medium", kind="computer", score=8, practice_aid=False))
        store.add(attempt(variant="chain", chain_key="scene.toml#0123456789ab", score=4,
                          practice_aid=True, fell=False))
        assert store.export(tmp_path / "out.json") == 3
        mine = [a.as_dict() for a in store.attempts()]
    document = json.loads((tmp_path / "out.json").read_text())
    assert document["format"] == "bandu-sim records" and document["version"] == 1
    with RecordStore.open(tmp_path / "b.sqlite3") as other:
        assert other.import_file(tmp_path / "out.json") == (3, 0)
        assert [a.as_dict() for a in other.attempts()] == mine
        assert other.import_file(tmp_path / "out.json") == (0, 3)
        assert len(other.attempts()) == 3


def test_export_replaces_only_a_plain_file_never_a_link_a_fifo_or_a_device(tmp_path):
    """`records --export /dev/null` turned /dev/null into a plain file (run as root), and a
    symbolic link or a FIFO became a plain 0600 file. What is there stays as it was."""
    target = tmp_path / "kept.txt"
    target.write_text("mine")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with RecordStore.open(tmp_path / "a.sqlite3") as store:
        store.add(attempt(score=3))
        for path, said in ((link, "a symbolic link"), (fifo, "a FIFO")):   # never a real device
            with pytest.raises(RecordsError, match=said):
                store.export(path)
        assert link.is_symlink() and target.read_text() == "mine" and fifo.is_fifo()
        plain = tmp_path / "old.json"
        plain.write_text("old")
        assert store.export(plain) == 1 and json.loads(plain.read_text())["attempts"]


def test_export_refuses_a_device_and_writes_nothing(tmp_path, monkeypatch):
    """`records --export /dev/null` as root turned the device into a plain file. No real device
    is touched here: the name is made to look like one to the check every writer makes."""
    import stat

    import simulator.core.files as files

    path = tmp_path / "looks-like-a-device"
    real_lstat = os.lstat

    class DeviceStat:
        st_mode = stat.S_IFCHR | 0o666

    monkeypatch.setattr(files.os, "lstat", lambda p, *a, **k: DeviceStat() if Path(p) == path else real_lstat(p, *a, **k))
    with RecordStore.open(tmp_path / "a.sqlite3") as store:
        store.add(attempt(score=3))
        with pytest.raises(RecordsError, match="a device"):
            store.export(path)
    assert not path.exists()


def _export_with(tmp_path: Path, change) -> Path:
    document = {"format": "bandu-sim records", "version": 1,
                "attempts": [attempt(score=2).as_dict(), attempt(score=3).as_dict()]}
    change(document)
    path = tmp_path / "in.json"
    path.write_text(json.dumps(document) if isinstance(document, dict) else document)
    return path


def _forge_best(data: dict) -> None:
    """A final state edited to 48 pieces and 9999 mm, the attempt to match."""
    data["replay"]["state"]["score_pieces"] = [48]
    data.update(score=48, height_mm=9999.0)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format="something else"), "not a records file"),
    (lambda d: d.update(version=2), "version 2 is not supported"),
    (lambda d: d.update(attempts={}), "'attempts' must be a list"),
    (lambda d: d["attempts"][1].update(score=-1), "attempt 2: score"),
    (lambda d: d["attempts"][1].update(colour="red"), "attempt 2: unknown field 'colour'"),
    (lambda d: d["attempts"][1].pop("replay"), "attempt 2: missing field 'replay'"),
    (lambda d: d["attempts"][1].update(when="0001-01-01T00:00:00+01:00"),
     "attempt 2: when: '0001-01-01T00:00:00+01:00' is outside the years 1 to 9999"),
    (lambda d: d["attempts"][1]["replay"]["state"].update(score_pieces=[40]),
     "attempt 2: replay: its final score_pieces"),
    (lambda d: d["attempts"].append("text"), "attempt 3: wants an object"),
    # forged replays (the fuzz of issue 30): each was imported, one as a personal best
    (lambda d: d["attempts"][1]["replay"].update(history=[]),
     "attempt 2: replay: the moves do not lead to the saved position"),
    (lambda d: _forge_best(d["attempts"][1]), "attempt 2: replay: the moves do not lead"),
    (lambda d: d["attempts"][1]["replay"].update(seed=-5), "attempt 2: replay: 'seed' must be a whole number"),
    (lambda d: d["attempts"][1]["replay"]["state"].update(beans=[2**70]),
     "attempt 2: replay: the moves do not lead"),
    (lambda d: d["attempts"][1]["replay"]["settings"].update(chain="/etc/passwd"),
     "attempt 2: replay: its chain must be written out"),
    (lambda d: d["attempts"][1]["replay"]["history"][0].update(action="takes the moon"),
     "attempt 2: replay: move 1 (takes the moon): 'takes the moon' is not a Bandu move"),
    (lambda d: d["attempts"][1]["replay"]["history"][0].update(player=5),
     "attempt 2: replay: move 1: made by seat 5, but seat 0 was to move"),
])
def test_a_bad_import_says_why_in_one_line_and_writes_nothing(tmp_path, change, message):
    path = _export_with(tmp_path, change)
    with RecordStore.open() as store:
        store.add(attempt(score=1))
        with pytest.raises(RecordsError) as error:
            store.import_file(path)
        assert message in str(error.value) and str(path) in str(error.value)
        assert [a.score for a in store.attempts()] == [1]


@pytest.mark.parametrize(("content", "message"), [
    (b"{not json", "bad JSON at line 1"), (b"\xff\xfe", "not UTF-8"), (None, "no such file"),
    (b"[" * 100_000 + b"]" * 100_000, "not a records file"),
])
def test_an_import_file_that_is_not_json_is_refused(tmp_path, content, message):
    path = tmp_path / "in.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(RecordsError, match=message):
        read_export(path)


def test_the_records_import_no_physics_and_no_window():
    code = ("import sys, simulator.games.bandu.records, simulator.games.bandu.records_text, simulator.games.bandu.attempts\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pybullet', 'pyglet'}))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# --- the command line ---------------------------------------------------------------------------

def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True,
                          text=True, timeout=timeout)


def test_records_lists_exports_and_imports(tmp_path):
    empty = run("records")
    assert empty.returncode == 0 and "no attempts yet" in empty.stdout
    with RecordStore.open() as store:
        store.add(attempt(score=4, height_mm=123.4))
        store.add(attempt(score=6, practice_aid=True))
    listing = json.loads(run("records", "--json").stdout)
    assert [a["score"] for a in listing["attempts"]] == [6, 4]
    assert "replay" not in listing["attempts"][0] and listing["attempts"][0]["practice_aid"]
    assert [(b["who"], b["score"], b["height_mm"]) for b in listing["bests"]] == [("Ann", 4, 123.4)]
    table = run("records").stdout
    assert "marked" in table and "123.4" in table and "personal bests" in table
    exported = run("records", "--export", str(tmp_path / "out.json"))
    assert exported.returncode == 0 and "exported 2 attempts" in exported.stdout
    again = json.loads(run("records", "--import", str(tmp_path / "out.json"), "--json").stdout)
    assert (again["imported"], again["skipped"]) == (0, 2)


@pytest.mark.parametrize(("args", "message"), [
    (["records", "--import", "{tmp}/missing.json"], "missing.json: no such file"),
    (["records", "--import", "{tmp}/bad.json"], "bad.json: not a records file (bad JSON"),
    (["records", "--export", "{tmp}"], "is a folder"),
    (["records", "--export", "{tmp}/no/such/folder/out.json"], "cannot be written"),
    (["solo", "--player", "random"], "--player wants ai:easy, ai:medium, ai:strong, not 'random'"),
    (["solo", "--player", "ai:godlike"], "--player wants"),
    (["solo", "--player", "ai:easy", "--attempts", "0"], "--attempts: must be 1 to 10000"),
    (["solo", "--player", "ai:easy", "--reserve", "49"], "--reserve: must be 1 to 48"),
    (["solo", "--player", "ai:easy", "--chain", "{tmp}/nope.toml"], "nope.toml"),
    (["solo", "--player", "ai:easy", "--chain", "x.toml", "--chain-seed", "1"], "not allowed with"),
    (["solo", "--player", "ai:easy", "--chain", "scenes/examples/mixed-tower.toml", "--reserve", "5"],
     "--reserve does not go with --chain"),
    (["solo", "--player", "ai:easy", "--seed", str(2**63 - 1), "--attempts", "2"], "goes past"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, args, message):
    (tmp_path / "bad.json").write_text("{")
    result = run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert result.stdout == ""


def test_a_damaged_database_stops_records_and_solo_before_any_work(private_home):
    path = records_file(private_home)
    path.parent.mkdir(parents=True)
    path.write_text("not a database")
    for args in (["records"], ["solo", "--player", "ai:easy", "--reserve", "2"]):
        result = run(*args)
        assert result.returncode == 2 and result.stderr.count("\n") == 1
        assert "not an SQLite file" in result.stderr and str(path) in result.stderr
    assert path.read_text() == "not a database"


# --- the computer's attempts --------------------------------------------------------------------

def _solo(*extra: str) -> dict:
    result = run("solo", "--player", "ai:easy", "--attempts", "2", "--seed", "3", "--reserve", "6",
                 "--json", *extra)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.slow
def test_two_attempts_on_one_worker_and_on_two_give_the_same_games_and_are_stored():
    from simulator.core.controller import TurnController

    one, two = _solo(), _solo("--workers", "2")
    def games(report):
        return [(a["seed"], a["score"], a["height_mm"], a["fell"], a["placements"])
                for a in report["attempts"]]
    assert games(one) == games(two) and [a["seed"] for a in one["attempts"]] == [3, 4]
    assert one["chain_key"] == "reserve:6" and one["interrupted"] is False
    with RecordStore.open() as store:
        stored = {a.id: a for a in store.attempts(kind="computer")}
    assert len(stored) == 4 and {a.who for a in stored.values()} == {"ai:easy"}
    for first, second in zip(one["attempts"], two["attempts"], strict=True):
        a, b = stored[first["id"]], stored[second["id"]]
        assert a.replay["history"] == b.replay["history"] and a.replay["state"] == b.replay["state"]
        assert (a.score, a.height_mm, a.fell) == (first["score"], first["height_mm"], first["fell"])
    # the replay is a save: loading it replays every placement in the physics again
    first_stored = stored[one["attempts"][0]["id"]]
    replayed = TurnController.from_save_dict(first_stored.replay)
    assert replayed.is_over() and replayed.state.to_dict() == first_stored.replay["state"]
    replayed.close()


def test_a_chain_from_a_scene_is_keyed_by_its_name_and_pieces_and_replays_without_the_file(tmp_path):
    from simulator.core.controller import TurnController

    scene = tmp_path / "three.toml"
    scene.write_text('name = "three"\n[[towers]]\norder = ["ashlar-large", "cube-large", "disc"]\n')
    report = json.loads(run("solo", "--player", "ai:strong", "--attempts", "1", "--chain",
                            str(scene), "--json").stdout)
    assert report["variant"] == "chain" and report["chain_key"].startswith("three.toml#")
    scene.unlink()
    with RecordStore.open() as store:
        (stored,) = store.attempts()
    assert stored.chain_key == report["chain_key"] and stored.score == report["attempts"][0]["score"]
    replayed = TurnController.from_save_dict(stored.replay)    # the chain is in the save itself
    assert replayed.state.to_dict() == stored.replay["state"]
    replayed.close()


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_attempts_and_exits_130(private_home):
    process = subprocess.Popen([sys.executable, "-m", "simulator", "solo", "--player", "ai:easy",
                                "--attempts", "200", "--reserve", "6", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    stored = 0
    while stored < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
        if records_file(private_home).exists():
            with RecordStore.open() as store:
                stored = len(store.attempts(replays=False))
    assert stored >= 2, "no attempt was stored in 120 s"
    os.kill(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "bandu-sim: interrupted:" in stderr
    report = json.loads(stdout)
    with RecordStore.open() as store:
        kept = store.attempts(replays=False)
    assert report["interrupted"] and 2 <= len(report["attempts"]) == len(kept) < 200


# --- the tower's height ---------------------------------------------------------------------------

def test_a_pieces_top_from_its_pose_is_the_physics_own():
    import numpy as np

    from simulator.games.bandu.attempts import piece_top_mm
    from simulator.towers.physics.world import World

    rng = np.random.default_rng(5)
    world = World()
    try:
        for piece in ("ball", "cone-tall", "arch", "l-block", "ring", "egg"):
            quaternion = rng.normal(size=4)
            quaternion /= np.linalg.norm(quaternion)
            body = world.add_piece(piece, (0.1, -0.05, 0.3), tuple(quaternion), clear_overlap=False)
            (x, y, z), q = world.pose(body)
            top = world.lowest_and_highest(body)[1] * 1000
            assert piece_top_mm(piece, (x * 1000, y * 1000, z * 1000, *q)) == pytest.approx(top, abs=1e-3)
    finally:
        world.close()


def test_an_attempts_height_is_the_top_of_its_standing_tower():
    from simulator.games.bandu.referee import rebuild_tower, tower_axes
    from simulator.games.bandu.solo import AttemptJob, play_attempt
    from simulator.towers.physics.world import World

    result = play_attempt(AttemptJob(0, "ai:medium", 11, {"variant": "solo", "reserve": 8}))
    state = result.attempt.replay["state"]
    standing = state["towers"][0][:state["score_pieces"][0] + 1]
    world = World()
    try:
        bodies = rebuild_tower(world, standing, state["poses"], tower_axes(1)[0])
        top = max(world.lowest_and_highest(b)[1] for b in bodies) * 1000
    finally:
        world.close()
    assert result.attempt.height_mm == pytest.approx(top, abs=0.1)
    assert result.attempt.score == len(standing) - 1 >= 1


def test_a_file_name_with_a_nul_character_is_refused_in_one_line():
    with RecordStore.open() as store:
        for act in (read_export, store.import_file, store.export):
            with pytest.raises(RecordsError, match="holds a NUL character"):
                act("records\x00.json")


def test_a_persons_attempt_is_recorded_and_its_replay_needs_no_scene_file(tmp_path):
    from simulator.core.controller import PERSON, Seat, TurnController
    from simulator.core.outcomes import ModelResolver
    from simulator.games.bandu.attempts import attempt_of

    scene = tmp_path / "three.toml"
    scene.write_text('name = "three"\n[[towers]]\norder = ["ashlar-large", "cube-large", "disc"]\n')
    game = TurnController("bandu", {"variant": "chain", "chain": str(scene)},
                          [Seat(PERSON, name="Ann")], seed=2, resolver=ModelResolver())
    with pytest.raises(ValueError, match="finished"):
        attempt_of(game)
    while not game.is_over():
        game.poll()
        if game.is_person_turn():
            game.submit(game.state.legal_actions()[0])
    scene.unlink()
    record = attempt_of(game, practice_aid=True)
    assert (record.who, record.kind, record.variant, record.practice_aid) == ("Ann", "person", "chain", True)
    assert record.chain_key.startswith("three.toml#") and record.score == game.state.score_pieces[0]
    with RecordStore.open() as store:
        stored = store.add(record)
    replayed = TurnController.from_save_dict(stored.replay, verify=False)
    assert replayed.state.to_dict() == game.state.to_dict()
    assert replayed.settings["chain"] == "pieces:ashlar-large,cube-large,disc"


# --- values another program wrote (issue: hardening II) ------------------------------------------

DAMAGED_DATABASES = sorted((Path(__file__).parent / "fuzz_corpus" / "databases").glob("*.sql"))


@pytest.mark.parametrize("script", DAMAGED_DATABASES, ids=lambda p: p.stem)
def test_every_value_read_from_the_database_is_checked(tmp_path, script):
    """16 tracebacks came from databases with wrong-typed values; each is one line now, naming
    the value, and the database is left as it is. Each file of tests/fuzz_corpus/databases is
    SQL that damages a healthy database, its second line the refusal it expects."""
    expected = script.read_text(encoding="utf-8").splitlines()[1].removeprefix("-- expect: ")
    path = tmp_path / "records.sqlite3"
    with RecordStore.open(path) as store:
        store.add(attempt(score=4))
    with sqlite3.connect(path) as db:
        db.executescript(script.read_text(encoding="utf-8"))

    def content() -> list:
        with sqlite3.connect(path) as db:
            return [db.execute(f"SELECT * FROM {t}").fetchall() for t in ("attempts", "schema_version")]

    def read_everything() -> None:
        with RecordStore.open(path) as store:
            store.attempts()
            store.personal_bests()

    before = content()
    with pytest.raises(RecordsError) as error:
        read_everything()
    assert expected in str(error.value) and "\n" not in str(error.value)
    assert all(c.isprintable() for c in str(error.value))
    assert content() == before


def test_the_damaged_databases_of_the_corpus_are_those_once_found():
    assert len(DAMAGED_DATABASES) >= 10
    assert all(s.read_text(encoding="utf-8").splitlines()[1].startswith("-- expect: ") for s in DAMAGED_DATABASES)


def test_a_healthy_database_the_machine_cannot_read_is_not_called_damaged(tmp_path, monkeypatch):
    """A full disk or a read-only home is the machine's trouble, not the database's."""
    path = tmp_path / "records.sqlite3"
    with RecordStore.open(path) as store:
        store.add(attempt(score=4))

    class Refusing:
        def __init__(self, db):
            self.db = db

        def execute(self, sql, *args):
            if sql.startswith("PRAGMA quick_check"):
                error = sqlite3.OperationalError("unable to open database file")
                error.sqlite_errorname = "SQLITE_CANTOPEN"
                raise error
            return self.db.execute(sql, *args)

        def close(self):
            self.db.close()

    real_connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: Refusing(real_connect(*a, **k)))
    with pytest.raises(RecordsError) as error:
        RecordStore.open(path)
    assert "cannot be read or written" in str(error.value) and "damaged" not in str(error.value)


def test_an_import_replays_the_moves_without_loading_the_physics(tmp_path):
    """The records never load PyBullet: an import checks each replay's moves through the save
    loader with the game's model resolver, not its physics referee."""
    exported = tmp_path / "records.json"
    with RecordStore.open(tmp_path / "a.sqlite3") as store:
        store.add(attempt(score=2))
        store.export(exported)
    code = ("import sys\n"
            "from simulator.games.bandu.records import RecordStore\n"
            "with RecordStore.open(sys.argv[1]) as store:\n"
            "    assert store.import_file(sys.argv[2]) == (1, 0)\n"
            "print('pybullet' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "b.sqlite3"), str(exported)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


# --- hardening III (issue 60, items 4, 5, 6, 9, 10) ------------------------------------------------

def test_a_records_database_that_is_a_symbolic_link_is_refused_and_nothing_is_created(tmp_path):
    """A plain `bandu-sim records` followed a records.sqlite3 link and made a database outside
    the data folder."""
    elsewhere = tmp_path / "elsewhere.sqlite3"
    link = tmp_path / "records.sqlite3"
    link.symlink_to(elsewhere)                                       # dangling
    with pytest.raises(RecordsError, match="is a symbolic link"):
        RecordStore.open(link)
    assert not elsewhere.exists()


def test_text_the_database_holds_that_is_not_utf8_is_read_not_raised(tmp_path):
    """A damaged index page made `PRAGMA quick_check` say bytes that are not UTF-8, and
    `records` ended in a UnicodeDecodeError traceback: every text is read with replacements."""
    with RecordStore.open(tmp_path / "r.sqlite3") as store:
        assert store.db.execute("SELECT CAST(x'ff41' AS TEXT)").fetchone()[0] == "\ufffdA"


def test_an_export_name_too_long_for_the_file_system_is_one_line(tmp_path):
    with RecordStore.open(tmp_path / "r.sqlite3") as store, \
            pytest.raises(RecordsError, match="cannot be written"):
        store.export(tmp_path / ("a" * 300 + ".json"))


class _DiskFullAtTheFirstInsert:
    """A connection on a disk that fills at the first insert: SQLite then rolls the whole
    transaction back itself (as on a real full disk) and says why."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __getattr__(self, name: str):
        return getattr(self.db, name)

    def execute(self, sql: str, *args):
        if sql.lstrip().upper().startswith("INSERT INTO ATTEMPTS"):
            self.db.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)


def test_an_import_onto_a_full_disk_says_the_disk_is_full_and_keeps_the_records(tmp_path):
    """SQLite rolls a transaction back itself on a full disk; the store's own ROLLBACK then
    failed ("cannot rollback - no transaction is active") and hid the real reason."""
    with RecordStore.open(tmp_path / "a.sqlite3") as store:
        store.add(attempt(score=3))
        store.export(tmp_path / "one.json")
    with RecordStore.open(tmp_path / "b.sqlite3") as store:
        store.add(attempt(score=1, who="Bo"))
        real, store.db = store.db, _DiskFullAtTheFirstInsert(store.db)
        with pytest.raises(RecordsError, match="database or disk is full"):
            store.import_file(tmp_path / "one.json")
        store.db = real
        assert [a.who for a in store.attempts()] == ["Bo"]


def test_an_export_killed_mid_write_leaves_nothing_for_long(tmp_path):
    """kill -9 during `records --export TARGET` left a hidden half-written file beside it
    forever: the next export there sweeps those an hour old (and leaves a fresh one, which may
    be another export's, and any other file)."""
    old = tmp_path / ".records-dead1234.json"
    fresh = tmp_path / ".records-live5678.json"
    mine = tmp_path / "notes.json"
    for leftover in (old, fresh, mine):
        leftover.write_text("{")
    hour_ago = time.time() - 3700
    os.utime(old, (hour_ago, hour_ago))
    os.utime(mine, (hour_ago, hour_ago))
    with RecordStore.open(tmp_path / "r.sqlite3") as store:
        store.export(tmp_path / "out.json")
    assert not old.exists() and fresh.exists() and mine.exists()


def test_records_export_to_a_dash_writes_the_records_on_standard_output(tmp_path):
    """Issue 60: `records --export -` wrote a file named '-'."""
    with RecordStore.open() as store:
        store.add(attempt(score=4))
    result = run("records", "--export", "-")
    assert result.returncode == 0, result.stderr
    assert [a["score"] for a in json.loads(result.stdout)["attempts"]] == [4]
    assert "exported 1 attempts to standard output" in result.stderr
    assert not (Path.cwd() / "-").exists()
    refused = run("records", "--export", "-", "--json")
    assert refused.returncode == 2 and "not with --json" in refused.stderr


def test_an_import_of_bare_objects_is_refused_before_it_fills_the_memory(tmp_path):
    """Issue 60, item 7: 40 MB of empty objects within the 256 MB limit took 1.0 GB of memory
    (Python's objects cost tens of bytes each): past one object or list a 8 bytes of file, a
    file is refused before it is parsed."""
    import resource

    bare = tmp_path / "bare.json"
    bare.write_text('{"format": "bandu-sim records", "version": 1, "attempts": ['
                    + ",".join(["{}"] * 4_000_000) + "]}")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with RecordStore.open(tmp_path / "r.sqlite3") as store, \
            pytest.raises(RecordsError, match="objects and lists in"):
        store.import_file(bare)
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 5 * bare.stat().st_size / 1024          # a few times the file at most


def test_a_damaged_page_whose_check_says_bytes_not_text_is_refused_in_one_line(tmp_path):
    """Issue 60, item 4 (the fuzzer's records-database family found it again): one damaged byte
    made SQLite's `PRAGMA quick_check` raise a UnicodeDecodeError (its message about the page
    is not UTF-8), and `bandu-sim records` ended in that traceback. The byte is found as the
    fuzzer found it: the first whose damage makes the plain check fail so."""
    sound = tmp_path / "sound.sqlite3"
    with RecordStore.open(sound) as store:
        store.add(attempt(score=3))
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = sound.read_bytes()
    damaged = tmp_path / "damaged.sqlite3"

    def check_fails_on_bytes(offset: int) -> bool:
        changed = bytearray(data)
        changed[offset] = 0x9E
        damaged.write_bytes(bytes(changed))
        try:
            with contextlib.closing(sqlite3.connect(damaged)) as db:
                db.execute("PRAGMA quick_check").fetchall()
        except UnicodeDecodeError:
            return True
        except sqlite3.Error:
            return False
        return False

    assert any(check_fails_on_bytes(offset) for offset in range(100, len(data)))
    with pytest.raises(RecordsError, match="the records database is damaged"):
        RecordStore.open(damaged)
