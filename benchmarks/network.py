"""Play across machines on the loopback interface, in one run: the latency of a move (from a
joiner sending it to the table that shows it at every joiner and a watcher), a Bandu
placement's frames at the joiners against the host's own playback, then a load test
of one host serving scripted joiners in processes of their own (the flat games, then Bandu
tables at once), with the host process's CPU time and memory.

    .venv/bin/python -m benchmarks network                  # about 2 minutes
    .venv/bin/python -m benchmarks network --games 2 --bandu-tables 2 --moves 100   # quicker

Every loop is bounded: a game's players give up after --timeout seconds, and the host's loop
ends with its game.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import resource
import statistics
import threading
import time
from typing import Any

from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController
from simulator.net.host import Host
from simulator.net.joiner import Joiner
from simulator.net.scripted import play_to_the_end, random_move

FLAT_TABLES: tuple[tuple[str, int, dict[str, Any]], ...] = (("tanbo", 2, {}), ("bandida", 2, {"mode": 1}), ("buddel_bande", 2, {}),
               ("bunko", 2, {}))          # (game, remote seats, settings): 8 joiners in all


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def latency(moves: int) -> dict[str, Any]:
    """Two joiners play Tanbo, a watcher looks on: per move, seconds from the send to the last
    of the three tables that show it (a move every 0.1 s at most)."""
    controller = TurnController("tanbo", {"size": 11}, [Seat(PERSON), Seat(PERSON)], seed=1)
    host = Host(controller, [0, 1])
    address = host.start()
    stop = threading.Event()
    stepping = threading.Thread(target=host.run, args=(stop,), kwargs={"poll_seconds": 0.005})
    stepping.start()
    players = [Joiner(address, host.codes[seat]) for seat in (0, 1)]
    everyone = [*players, Joiner(address, host.watch_code)]
    rng, seconds = random.Random(2), []
    try:
        for _ in range(moves):
            mover = next((p for p in players if p.my_turn()), None)
            if mover is None or controller.is_over():
                break
            ply = mover.table["ply"] if mover.table else 0
            notation = random_move(mover, rng)
            assert notation is not None
            sent = time.monotonic()
            mover.move(notation)
            def shown(j: Joiner, p: int = ply) -> bool:
                return j.table is not None and j.table["ply"] > p

            for joiner in everyone:
                assert joiner.wait_until(shown, 10)
            seconds.append(max(at for joiner in everyone for shown_ply, at in joiner.tables_at
                               if shown_ply == ply + 1) - sent)
            time.sleep(0.1)      # a person's pace: under the host's limit of 20 messages a second
    finally:
        for joiner in everyone:
            joiner.close()
        stop.set()
        stepping.join()
        host.close()
        controller.close()
    return {"moves": len(seconds), "median_ms": round(statistics.median(seconds) * 1000, 2),
            "p99_ms": round(_percentile(seconds, 0.99) * 1000, 2),
            "max_ms": round(max(seconds) * 1000, 2)}


def placement_frames(games: int, timeout: float) -> dict[str, Any]:
    """Bandu placements judged at a host and played back at its two joiners from the frames it
    sends: per placement and joiner, how much later the joiner's playback starts than the
    host's own (which starts at the first frame its physics publishes, as its window shows it),
    and the share of frames that arrived after the joiner's playback needed them (a stall)."""
    offsets: list[float] = []
    frames = late = missing = placements = 0
    for number in range(games):
        controller = TurnController("bandu", {"reserve": 12}, [Seat(PERSON), Seat(PERSON)], seed=number)
        host = Host(controller, [0, 1])
        address = host.start()
        arrivals: list[dict[int, list[tuple[float, float]]]] = [{}, {}]   # ply: (frame's t, came)

        def keeper(kept: dict[int, list[tuple[float, float]]]) -> Any:
            def keep(message: dict[str, Any]) -> None:
                if message.get("type") == "frames":
                    came = time.monotonic()
                    kept.setdefault(message["ply"], []).extend(
                        (float(t), came) for t, _ in message["frames"])
            return keep

        joiners = [Joiner(address, host.codes[seat], on_message=keeper(arrivals[seat])) for seat in (0, 1)]
        players = [threading.Thread(target=play_to_the_end, args=(joiner, 10 * number + seat),
                                    kwargs={"timeout": timeout}) for seat, joiner in enumerate(joiners)]
        for player in players:
            player.start()
        host_first: dict[int, float] = {}       # ply: when the host's playback could start
        deadline = time.monotonic() + timeout
        try:
            while not controller.is_over() and time.monotonic() < deadline:
                host.step()
                timeline = getattr(controller.outcome_in_progress(), "timeline", None)
                if timeline is not None and len(timeline) and controller.ply() not in host_first:
                    host_first[controller.ply()] = time.monotonic()
                time.sleep(0.002)
            for _ in range(100):                # the last frames and tables out
                host.step()
                time.sleep(0.01)
        finally:
            for player in players:
                player.join(timeout=timeout)
            for joiner in joiners:
                joiner.close()
            host.close()
            controller.close()
        for ply, first in host_first.items():
            placements += 1
            for seat in (0, 1):
                got = arrivals[seat].get(ply)
                if not got:
                    missing += 1
                    continue
                start = got[0][1]                  # the joiner's playback starts at its first frames
                offsets.append(start - first)
                frames += len(got)
                late += sum(came > start + t + 0.001 for t, came in got)
    return {"placements": placements, "joiner_playbacks": len(offsets), "missing": missing,
            "start_after_host_median_ms": round(statistics.median(offsets) * 1000, 2),
            "start_after_host_p99_ms": round(_percentile(offsets, 0.99) * 1000, 2),
            "start_after_host_max_ms": round(max(offsets) * 1000, 2),
            "frames": frames, "frames_late_for_playback": late}


def _joiner_process(tasks: Any, results: Any, timeout: float) -> None:
    """A scripted player in a process of its own: plays each (address, code, seed) it is given."""
    while True:
        task = tasks.get()
        if task is None:
            return
        address, code, seed = task
        joiner = Joiner(address, code)
        try:
            results.put(play_to_the_end(joiner, seed, timeout=timeout))
        finally:
            joiner.close()


def _serve_games(game: str, remote: int, settings: dict[str, Any], games: int, queues: list[Any],
                 seed: int, ended: list[bool]) -> None:
    """One table: `games` games in turn, each with its remote seats played by the processes
    behind `queues` and the other seats (Bunko's) by random computer players."""
    for number in range(games):
        seats = [Seat(PERSON)] * remote
        controller = TurnController(game, settings, seats, seed=seed + number) if game != "bunko" else \
            TurnController(game, settings, [*seats, Seat(COMPUTER, "random"), Seat(COMPUTER, "random")],
                           seed=seed + number)
        host = Host(controller, range(remote))
        address = host.start()
        for seat, queue in enumerate(queues):
            queue.put((address, host.codes[seat], seed + 100 * number + seat))
        host.run(linger_seconds=0.5)
        ended.append(controller.is_over())
        host.close()
        controller.close()


def load(tables: list[tuple[str, int, dict[str, Any]]], games: int, timeout: float) -> dict[str, Any]:
    """Every table served at once by this process; its CPU time and memory over the run, and
    those of the referee processes its tables started (Bandu's physics)."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    queues, workers = [], []
    for _, remote, _ in tables:
        table_queues = [context.Queue() for _ in range(remote)]
        queues.append(table_queues)
        for queue in table_queues:
            worker = context.Process(target=_joiner_process, args=(queue, results, timeout), daemon=True)
            worker.start()
            workers.append(worker)
    before, started = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    ended: list[bool] = []
    threads = [threading.Thread(target=_serve_games, args=(game, remote, settings, games, table_queues,
                                                           1000 * k, ended))
               for k, ((game, remote, settings), table_queues) in enumerate(zip(tables, queues, strict=True))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    # the host's child processes that ended with their tables (Bandu's physics referees); the
    # joiners' processes are still running, so not among them
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    for table_queues in queues:
        for queue in table_queues:
            queue.put(None)
    played = [results.get(timeout=timeout) for _ in range(sum(r for _, r, _ in tables) * games)]
    for worker in workers:
        worker.join(timeout=30)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"tables": len(tables), "joiners": len(workers), "games": len(ended),
            "games_over": sum(ended), "players_finished": sum(bool(r["over"]) for r in played),
            "moves_by_joiners": sum(int(r["moves"]) for r in played),
            "wall_s": round(wall, 1), "host_cpu_s": round(cpu, 1),
            "host_cpu_share": round(cpu / wall, 2), "host_max_rss_mb": round(after.ru_maxrss / 1024, 1),
            "referee_processes_cpu_s": round((children.ru_utime - children_before.ru_utime)
                                             + (children.ru_stime - children_before.ru_stime), 1),
            "largest_referee_rss_mb": round(children.ru_maxrss / 1024, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks network", description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="moves timed for the latency")
    parser.add_argument("--games", type=int, default=5,
                        help="games each flat table plays in turn (4 tables, 8 joiners: 20 games)")
    parser.add_argument("--bandu-tables", type=int, default=4, help="Bandu tables served at once")
    parser.add_argument("--placement-games", type=int, default=4,
                        help="Bandu games whose placements' frames are timed at two joiners")
    parser.add_argument("--timeout", type=float, default=600.0, help="a game's limit, seconds")
    args = parser.parse_args(argv)
    figures = {"latency": latency(args.moves),
               "placement_frames": placement_frames(args.placement_games, args.timeout),
               "flat_games": load(list(FLAT_TABLES), args.games, args.timeout),
               "bandu": load([("bandu", 2, {"reserve": 12})] * args.bandu_tables, 1, args.timeout)}
    print(json.dumps(figures, indent=1))
    return 0
