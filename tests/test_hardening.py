"""Bad input of every class gets one clear line and loses nothing: files that are not regular,
too big or too deep, a closed pipe or a full disk under the output, read-only and damaged
assets, a foundation pushed off the table, job lists that stay small. (Generated inputs:
tests/test_fuzz.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from simulator import cli
from simulator.app import storage
from simulator.core.controller import PERSON, Seat, TurnController
from simulator.core.errors import SaveError, SceneError
from simulator.towers.physics.scene_file import MAX_SCENE_BYTES, load_scene

BANDU = [sys.executable, "-m", "simulator"]


def test_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "scene.toml"
    os.mkfifo(fifo)
    result: list = []
    worker = threading.Thread(target=lambda: result.append(_error_of(load_scene, fifo)), daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive(), "reading a FIFO blocked"
    assert "not a regular file" in result[0]
    save_fifo = tmp_path / "save.json"
    os.mkfifo(save_fifo)
    assert "not a regular file" in _error_of(TurnController.load, save_fifo)


def _error_of(function, *args) -> str:
    try:
        function(*args)
    except (SceneError, SaveError) as error:
        return str(error)
    raise AssertionError("no error")


def test_files_too_big_are_refused_by_size(tmp_path):
    scene = tmp_path / "big.toml"
    scene.write_text("# " + "x" * MAX_SCENE_BYTES)
    assert "at most" in _error_of(load_scene, scene)
    save = tmp_path / "big.json"
    with save.open("wb") as handle:
        handle.truncate(17_000_000)                    # sparse: no disk used
    assert "too big" in _error_of(TurnController.load, save)
    assert not storage.read_summary(save).readable


def test_saves_reach_the_disk_before_they_replace_the_old_file(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    TurnController("tanbo", {}, [Seat(PERSON), Seat(PERSON)]).save(tmp_path / "game.json")
    assert events == ["fsync", "replace"]


def test_continue_survives_any_file_among_the_autosaves(tmp_path):
    folder = storage.autosaves_dir()
    folder.mkdir(parents=True)
    (folder / "broken.json").write_text("{")
    (folder / "dangling.json").symlink_to(folder / "nowhere.json")
    (folder / "dir.json").mkdir()
    (folder / ".save-tmp.json").write_text("{}")
    assert storage.newest_unfinished_autosave() is None
    c = TurnController("tanbo", {}, [Seat(PERSON), Seat(PERSON)])
    c.save(folder / "tanbo-1.json")
    assert storage.newest_unfinished_autosave() == folder / "tanbo-1.json"
    assert [s.path.name for s in storage.list_saves()].count("broken.json") == 1
    assert "dangling.json" not in [s.path.name for s in storage.list_saves()]


def test_half_written_saves_left_by_a_crash_are_removed_when_a_game_starts(private_home):
    """A kill -9 during a save left `.save-*.json` in the folder for good; an hour later it is
    removed (a save under way in another window is seconds old and stays)."""
    from simulator.core.controller import PERSON, Seat, TurnController

    for folder in (storage.saves_dir(), storage.autosaves_dir()):
        folder.mkdir(parents=True, exist_ok=True)
        old, fresh, kept = folder / ".save-abc.json", folder / ".save-new.json", folder / "game.json"
        for path in (old, fresh, kept):
            path.write_text("{")
        os.utime(old, (time.time() - 7200, time.time() - 7200))
    assert storage.remove_stale_temporaries() == 2
    for folder in (storage.saves_dir(), storage.autosaves_dir()):
        assert sorted(p.name for p in folder.iterdir()) == [".save-new.json", "game.json"]
    TurnController("tanbo", {}, [Seat(PERSON), Seat(PERSON)], seed=1).save(storage.saves_dir() / "t.json")
    assert not [p for p in storage.saves_dir().iterdir() if p.name.startswith(".save-") and p.name != ".save-new.json"]


def test_a_closed_pipe_ends_quietly():
    process = subprocess.Popen([*BANDU, "pieces"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()                  # the reader is gone before anything is written
    status = process.wait(timeout=60)
    with process.stderr:
        stderr = process.stderr.read().decode()
    assert status == 141, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr and "Error" not in stderr


def test_a_full_disk_under_the_output_gets_one_line():
    with open("/dev/full", "w") as full:
        result = subprocess.run([*BANDU, "pieces", "--json"], stdout=full, stderr=subprocess.PIPE,
                                text=True, timeout=60)
    lines = [line for line in result.stderr.splitlines() if not line.startswith("pybullet build time")]
    assert result.returncode == 1 and len(lines) == 1 and "No space left" in lines[0]


def _run(argv, capsys) -> tuple[int, str]:
    status = cli.main(argv)
    return status, capsys.readouterr().err


def test_meshes_into_a_folder_that_cannot_be_written(tmp_path, monkeypatch, capsys):
    import simulator.towers.pieces.build as meshes

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setattr(meshes, "assets_dir", lambda: blocker / "meshes")
    status, err = _run(["build-meshes"], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1 and "cannot write the meshes" in err


@pytest.mark.parametrize("catalogue", [None, "{ broken", '{"pieces": 3}', '{"pieces": {"base": {}}}'])
def test_a_missing_or_damaged_catalogue_gets_one_line(tmp_path, monkeypatch, capsys, catalogue):
    import simulator.towers.pieces.build as meshes

    if catalogue is not None:
        (tmp_path / "catalogue.json").write_text(catalogue)
    monkeypatch.setattr(meshes, "assets_dir", lambda: tmp_path)
    meshes.forget_catalogue()
    try:
        status, err = _run(["pieces"], capsys)
    finally:
        meshes.forget_catalogue()
    assert status == 2 and len(err.strip().splitlines()) == 1 and "build-meshes" in err


def test_a_setting_that_is_not_one_is_refused_by_name(capsys):
    status, err = _run(["selfplay", "tanbo", "--setting", "colour=red"], capsys)
    assert status == 2 and "unknown setting 'colour' for Tanbo" in err and "width" in err


def test_workers_are_capped_at_the_cores_unless_asked(monkeypatch, capsys):
    import simulator.selfplay as selfplay_module

    seen = {}
    monkeypatch.setattr(selfplay_module, "selfplay", lambda *a, **k: seen.update(k) or
                        {"players": ["random", "random"], "wins": [1, 0], "games": [{"length": 3}]})
    import simulator.core.command_kit as command_kit

    monkeypatch.setattr(command_kit, "usable_cores", lambda: 2)
    status, err = _run(["selfplay", "tanbo", "--players", "random,random", "--workers", "64",
                        "--games", "1"], capsys)
    assert status == 0 and seen["workers"] == 2 and "capped at the 2 cores" in err
    status, err = _run(["selfplay", "tanbo", "--players", "random,random", "--workers", "64",
                        "--games", "1", "--oversubscribe"], capsys)
    assert status == 0 and seen["workers"] == 64


def test_the_job_runner_draws_jobs_only_as_workers_come_free(monkeypatch):
    """selfplay --games 100000 (and every study) goes through processes.run_jobs: a job is
    drawn from the iterator only when a worker is free, so the list is never built in memory."""
    from concurrent.futures import Future

    import simulator.processes as processes

    drawn: list[int] = []

    def jobs():
        for n in range(10**9):                      # a billion: never listed
            drawn.append(n)
            yield n

    class InstantPool:
        def __init__(self, *args, **kwargs):
            pass

        def submit(self, fn, job):
            future: Future = Future()
            future.set_result(fn(job))
            return future

        def shutdown(self, wait=True, cancel_futures=False):
            pass

    class Enough(Exception):
        pass

    seen: list[int] = []

    def keep(result):
        seen.append(result)
        if len(seen) == 100:
            raise Enough

    monkeypatch.setattr(processes, "ProcessPoolExecutor", InstantPool)
    with pytest.raises(Enough):
        processes.run_jobs(abs, jobs(), 4, keep)
    assert len(drawn) <= 100 + 4
    drawn.clear()
    seen.clear()
    with pytest.raises(Enough):                     # one worker: here, one job at a time
        processes.run_jobs(abs, jobs(), 1, keep)
    assert len(drawn) == 100


def test_a_tower_whose_foundation_left_the_table_has_fallen():
    from simulator.towers.physics.scene_file import Placement, TowerSpec
    from simulator.towers.physics.stability import PieceIds, build_tower
    from simulator.towers.physics.world import World

    with World() as world:
        tower = build_tower(world, TowerSpec("base", (0.0, 0.0), (Placement("cube-small"),)), 1.0, PieceIds())
        assert not tower.fallen(world)
        for body in tower.bodies:                       # the whole tower pushed over the edge
            position, orientation = world.pose(body)
            world.set_pose(body, (position[0], position[1], position[2] - 0.3), orientation)
        assert tower.fallen(world)


def test_scene_report_text_has_no_escape_codes(tmp_path):
    from simulator.towers.physics.stability import format_reports, run_scene

    scene = tmp_path / "evil.toml"
    scene.write_text('name = "\\u001b[2Jgone"\nsettle_seconds = 0.1\n[[towers]]\norder = []\n')
    text = format_reports([run_scene(load_scene(scene))])
    assert "\x1b" not in text and "?[2Jgone" in text


def test_every_scene_limit_is_in_the_command_line_page():
    page = (Path(__file__).parent.parent / "docs" / "command-line.md").read_text(encoding="utf-8")
    for needle in ("1 000 000 bytes", "64 towers", "200 placements", "-45", "16 000 000 bytes",
                   "100 000 games", "800 to 7680", "8 dotted parts"):
        assert needle in page, needle


def test_a_dotted_key_of_thousands_of_parts_is_refused_at_once(tmp_path):
    """100 kB of `a.a.a...` (under the size limit) went into Python's TOML parser and ended in
    a MemoryError after 24 s under a 4 GB cap."""
    from simulator.core.errors import SceneError
    from simulator.towers.physics.scene_file import load_scene

    scene = tmp_path / "dotted.toml"
    scene.write_text("a" + ".a" * 50_000 + " = 1\n")
    started = time.monotonic()
    with pytest.raises(SceneError, match="50001 dotted parts; a scene's keys have at most 8"):
        load_scene(scene)
    assert time.monotonic() - started < 2
    header = tmp_path / "header.toml"
    header.write_text("[" + ".".join(["t"] * 20) + "]\nx = 1\n")
    with pytest.raises(SceneError, match="line 1: a key of 20 dotted parts"):
        load_scene(header)


def test_long_loads_do_not_hang(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 500_000 + "]" * 500_000)
    started = time.monotonic()
    assert "not a save file" in _error_of(TurnController.load, deep)
    assert time.monotonic() - started < 10
    assert json.loads("[]") == []


@pytest.mark.parametrize("command", [
    ["stability", "scenes/examples/mixed-tower.toml", "--json"],
    ["selfplay", "bandu", "--players", "random,random", "--games", "1", "--seed", "1", "--json"],
    ["solo", "--player", "ai:easy", "--attempts", "1", "--seed", "3", "--reserve", "2", "--json"],
    ["stability", "scenes/examples/mixed-tower.toml", "--trials", "1", "--workers", "1", "--json"]])
def test_json_output_is_json_with_standard_output_buffered(command, tmp_path):
    """With PYTHONUNBUFFERED unset (a normal shell), C buffers PyBullet's 'argv[0]=' line;
    it must not reach standard output after the document (each command that prints JSON and
    loads PyBullet in its own process: a build, a game, a solo attempt, a one-worker study; the
    benchmark's is checked by test_cli's test of it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["BANDU_SIM_HOME"] = str(tmp_path)          # the solo attempt's record goes there
    done = subprocess.run(BANDU + command, capture_output=True, text=True, env=env, timeout=240)
    assert done.returncode == 0, done.stderr
    json.loads(done.stdout)


CORPUS_SAVES = Path(__file__).parent / "fuzz_corpus" / "saves"


@pytest.mark.parametrize(("name", "words"), [
    ("bandu-result-zero-quaternion.json", "quaternion is not a unit one"),
    ("bandu-result-pose-at-1e19-mm.json", "off the table"),
])
def test_a_save_with_a_forged_pose_is_refused_before_the_physics_sees_it(name, words):
    """The bug (fuzz, issue 60): such a save loaded without a word, and the next placement's
    physics never ended (World.drop_height lowered a piece forever on NaN), in the window's
    referee process too."""
    with pytest.raises(SaveError, match=words) as refused:
        TurnController.load(CORPUS_SAVES / name)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(("values", "words"), [
    ([0.0, 0.0, 10.0, 0.0, 0.0, 0.0, 0.0], "quaternion"),
    ([0.0, 0.0, 10.0, 0.0, 0.0, 0.7, 0.7], "quaternion"),
    ([float("nan"), 0.0, 10.0, 0.0, 0.0, 0.0, 1.0], "finite"),
    ([0.0, 0.0, 1e19, 0.0, 0.0, 0.0, 1.0], "off the table"),
    ([20_000.0, 0.0, 10.0, 0.0, 0.0, 0.0, 1.0], "off the table"),
    ([0.0, 0.0, -2_000.0, 0.0, 0.0, 0.0, 1.0], "off the table"),
    ([0.0, 0.0, 10.0, 0.0, 0.0, 0.0], "seven"),
])
def test_a_bandu_state_from_a_file_holds_only_poses_the_physics_could_settle(values, words):
    from simulator.games.bandu.rules import BanduState, pose_problem

    assert words in pose_problem(values)
    assert pose_problem([-150.0, 0.0, 12.49, 1e-6, -2e-6, 0.0, 1.0]) is None
    data = BanduState(players=2).to_dict()
    data["poses"] = {"base": values}
    with pytest.raises(ValueError, match=words):
        BanduState.from_dict(data)


def test_the_physics_lowers_a_piece_a_bounded_way_whatever_its_pose():
    """World.drop_height's loop is bounded: a piece 1e16 m up is lowered at most MAX_DROP_M,
    and one at a pose that is not finite is refused at once (it looped for ever on NaN)."""
    from simulator.towers.physics.world import MAX_DROP_M, World

    world = World()
    try:
        body = world.add_piece("cube-small", (0.0, 0.0, 0.2))
        world.set_pose(body, (0.0, 0.0, 1e16), (0.0, 0.0, 0.0, 1.0))
        started = time.monotonic()
        assert world.drop_height(body) <= MAX_DROP_M + 0.1
        assert time.monotonic() - started < 10
        for position, orientation in [((0.0, 0.0, float("nan")), (0.0, 0.0, 0.0, 1.0)),
                                      ((0.0, 0.0, 0.2), (0.0, 0.0, 0.0, 0.0))]:
            world.set_pose(body, position, orientation)
            with pytest.raises(ValueError, match="cannot be lowered"):
                world.drop_height(body)
    finally:
        world.close()


def test_worlds_built_at_once_on_many_threads_leave_standard_output_as_it_was():
    """The bug: each World's connect silenced the process's descriptors 1 and 2 and put back
    what it had found; two at once on two threads (a host's Bandu tables) left standard output
    on the null device for good: the network benchmark printed nothing."""
    code = """
import threading
from simulator.towers.physics.world import World
barrier = threading.Barrier(6)
def build():
    barrier.wait()
    for _ in range(4):
        World().close() if hasattr(World, "close") else World()
threads = [threading.Thread(target=build) for _ in range(6)]
[t.start() for t in threads]; [t.join() for t in threads]
print("still heard")
"""
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                              cwd=Path(__file__).resolve().parent.parent)
        assert done.stdout.strip() == "still heard", (done.stdout, done.stderr[-500:])
        assert "argv[0]" not in done.stderr


def test_a_comment_with_many_dots_is_a_comment(tmp_path):
    """Issue 58: a comment line of eight or more dots ("x 11..111, y -91..-41") was refused as
    "a key of 10 dotted parts"."""
    from simulator.core.errors import SceneError
    from simulator.towers.physics.scene_file import load_scene

    scene = tmp_path / "commented.toml"
    scene.write_text('# x 11..111, y -91..-41, z 0..5\nname = "commented"  # a.b.c.d.e.f.g.h.i\n'
                     '[[towers]]\n# 1.2.3.4.5.6.7.8.9\norder = ["ashlar-large",\n # a.b.c.d.e.f.g.h.i\n "disc"]\n')
    assert load_scene(scene).name == "commented"
    cut = tmp_path / "cut.toml"
    cut.write_text("a" + ".a" * 50_000 + "\n")            # a key cut short, no '=': still refused
    with pytest.raises(SceneError, match="50001 dotted parts"):
        load_scene(cut)


def test_a_save_naming_an_unknown_game_of_70_kb_is_refused_in_a_short_line(tmp_path):
    """Issue 60, item 13: the SaveError carried all 70 KB of the name (the command line cut it to
    400 characters; the library did not)."""
    save = tmp_path / "unknown.json"
    save.write_text(json.dumps({"format": "bandu-sim save", "version": 1, "game": "x" * 70_000,
                                "settings": {}, "seed": 0, "seats": [], "history": []}))
    message = _error_of(TurnController.load, save)
    assert "unknown game" in message and len(message) < 600


def test_a_data_folder_whose_name_is_too_long_is_refused_before_the_window_opens(tmp_path):
    """Issue 60, item 11: with BANDU_SIM_HOME of 300 letters the window died with a traceback
    when a game started (the autosave's name, too long for the file system)."""
    result = subprocess.run([sys.executable, "-m", "simulator", "play", "tanbo", "--players",
                             "person,random"], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "BANDU_SIM_HOME": str(tmp_path / ("d" * 300))})
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot be used (File name too long)" in lines[0]


@pytest.mark.parametrize("number", ["\u0663", "\uff13", "1_000", "+1", " 3x"])
def test_a_number_on_the_command_line_is_ascii_digits(number):
    """Issue 60: `--games` took an Arabic-Indic or a full-width three, `1_000` and `+1` as
    numbers (Python's int())."""
    from simulator.core.command_kit import bounded_int

    with pytest.raises(Exception, match="wants a whole number"):
        bounded_int(0, 10_000)(number)
    assert bounded_int(-5, 10_000)(" 12 ") == 12 and bounded_int(-5, 5)("-3") == -3


def test_a_studys_charts_keep_matplotlibs_cache_in_the_data_folder(tmp_path):
    """Issue 60: `stability --report` wrote matplotlib's cache in ~/.config or ~/.cache."""
    code = ("import os; import simulator.towers.studies.plots; "
            "print(os.environ['MPLCONFIGDIR'])")
    env = {k: v for k, v in os.environ.items() if k != "MPLCONFIGDIR"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env={**env, "BANDU_SIM_HOME": str(tmp_path)})
    assert result.stdout.strip() == str(tmp_path / "matplotlib"), result.stderr


def test_loading_a_bandu_save_with_a_computer_seat_prints_nothing(tmp_path):
    """Issue 60, item 8: the loader of any Bandu save with a computer seat printed PyBullet's
    "pybullet build time: ..." line on standard error (the computer player imports the physics)."""
    from simulator.core.controller import COMPUTER

    save = tmp_path / "with-a-computer.json"
    controller = TurnController("bandu", {}, [Seat(PERSON), Seat(COMPUTER, "ai:easy")], seed=1)
    controller.save(save)
    controller.close()
    code = ("from simulator.core.controller import TurnController; "
            f"TurnController.load({str(save)!r}).close()")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stderr == "" and result.stdout == ""


def _window_process(signal_number: int) -> tuple[subprocess.Popen, list[int]]:
    """`bandu-sim play tanbo --players mcts:easy,person` (the computer thinks first, in its
    worker process), running a few seconds; then the signal. The window's children, as /proc
    listed them before it."""
    process = subprocess.Popen([sys.executable, "-m", "simulator", "play", "tanbo", "--players",
                                "mcts:easy,person", "--setting", "size=7"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(5)
    children_file = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    children = [int(pid) for pid in children_file.read_text().split()] if children_file.exists() else []
    process.send_signal(signal_number)
    return process, children


def _alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "State:\tZ" not in status.read_text()


@pytest.mark.gui
def test_ctrl_c_or_sigterm_close_the_window_and_sigkill_leaves_no_worker_behind(x_display):
    """Issue 60, item 12: SIGINT did not stop the window at all, and the window killed with
    SIGTERM or SIGKILL left its computer player's worker (and multiprocessing's resource
    tracker) running for minutes, so a `| cat` pipeline stayed open."""
    import signal

    interrupted, _ = _window_process(signal.SIGINT)
    assert interrupted.wait(timeout=20) == 130
    terminated, _ = _window_process(signal.SIGTERM)
    assert terminated.wait(timeout=20) == 0
    killed, children = _window_process(signal.SIGKILL)
    killed.wait(timeout=20)
    assert children, "the computer player's worker had not started"
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in children)


@pytest.mark.parametrize("with_state", [True, False])
def test_a_save_whose_over_disagrees_with_its_moves_is_refused(tmp_path, with_state):
    """Issue 60: a save without "state" skipped the position's check, and its "over" (what the
    saved-games list shows) was never checked at all."""
    controller = TurnController("tanbo", {"size": 7}, [Seat(PERSON), Seat(PERSON)], seed=1)
    controller.submit(controller.state.legal_actions()[0])
    data = controller.to_save_dict()
    controller.close()
    data["over"] = True
    if not with_state:
        del data["state"]
    save = tmp_path / "over.json"
    save.write_text(json.dumps(data))
    assert "it says the game is over, but its moves lead to a game not over" in _error_of(TurnController.load, save)
