"""Speed through the library's door, in one run: `judge` against the internal call it wraps and
against the command line on the same towers, and environment steps a second (a random agent on
BanduStack-v0; Tanbo through PettingZoo against the same moves through the turn controller).

    .venv/bin/python -m benchmarks library            # 3 rounds of 4 towers; 2000 Tanbo steps
    .venv/bin/python -m benchmarks library --quick    # one round, fewer steps (the test's)
    .venv/bin/python -m benchmarks library --json

`judge` and the internal call are interleaved tower by tower, so a busy machine slows both
alike; the command line runs each tower in a process of its own, as a user would, so its
figure includes Python's start and the physics' import. Ratios are of the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from simulator import api
from simulator.towers.physics.scene_file import scene_of_order
from simulator.towers.physics.stability import run_scene

TOWERS = (["cube-large", "cylinder-wide", "cone-small"],
          ["ashlar-large", "slab-square", "cylinder-wide", "plank-long", "cube-large"],
          ["ball", "cube-large", "cube-small"],
          ["cone-small", "cube-large", "ashlar-large"])


def _per_minute(seconds: list[float]) -> float:
    return 60.0 / statistics.median(seconds)


def measure_judge(rounds: int, cli: bool) -> dict:
    """Seconds per tower: the internal call, judge(), and (with `cli`) the command line."""
    internal: list[float] = []
    library: list[float] = []
    command: list[float] = []
    for _ in range(rounds):
        for order in TOWERS:
            started = time.perf_counter()
            report = run_scene(scene_of_order(list(order)))
            internal.append(time.perf_counter() - started)
            started = time.perf_counter()
            verdict = api.judge(order)
            library.append(time.perf_counter() - started)
            assert verdict.to_dict() == report.towers[0].as_dict()
    if cli:
        with tempfile.TemporaryDirectory() as folder:
            for n, order in enumerate(TOWERS):
                path = Path(folder) / f"tower{n}.toml"
                path.write_text(f"[[towers]]\norder = {json.dumps(order)}\n", encoding="utf-8")
                started = time.perf_counter()
                subprocess.run([sys.executable, "-m", "simulator", "stability", str(path), "--json"],
                               check=True, capture_output=True)
                command.append(time.perf_counter() - started)
    figures = {"towers": len(TOWERS), "rounds": rounds,
               "internal_per_minute": round(_per_minute(internal), 1),
               "judge_per_minute": round(_per_minute(library), 1),
               "judge_over_internal": round(statistics.median(library) / statistics.median(internal), 3)}
    if command:
        figures["cli_per_minute"] = round(_per_minute(command), 1)
    return figures


def measure_stack(steps: int) -> dict:
    """A random agent on BanduStack-v0 (releases within 7.5 mm of the axis): steps a second,
    resets included, and how many episodes they made."""
    import gymnasium

    import simulator.envs  # noqa: F401  (registers the ids)

    env = gymnasium.make("BanduStack-v0")
    env.action_space.seed(0)
    env.reset(seed=0)
    episodes = 1
    started = time.perf_counter()
    for _ in range(steps):
        action = env.action_space.sample()
        action["pose"] = action["pose"] * 0.05
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
            episodes += 1
    seconds = time.perf_counter() - started
    env.close()
    return {"steps": steps, "episodes": episodes, "steps_per_second": round(steps / seconds, 1)}


def measure_tanbo(steps: int) -> dict:
    """Tanbo's random games through PettingZoo against the same games through the turn
    controller (the moves it makes): steps a second of each, and their ratio."""
    from simulator.core.controller import PERSON, Seat, TurnController
    from simulator.envs import aec_env

    env = aec_env("tanbo", size=7)
    rng = np.random.default_rng(0)
    played: list[list[int]] = []
    env.reset(seed=0)
    game: list[int] = []
    started = time.perf_counter()
    made = 0
    while made < steps:
        agent = env.agent_selection
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                played.append(game)
                game = []
                env.reset(seed=len(played))
            continue
        index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(index)
        game.append(index)
        made += 1
        del agent
    library = time.perf_counter() - started
    env.close()
    played.append(game)
    started = time.perf_counter()
    for number, moves in enumerate(played):
        controller = TurnController("tanbo", {"size": 7}, [Seat(PERSON), Seat(PERSON)], seed=number)
        controller.play_computer_moves()
        for index in moves:
            controller.submit(controller.state.legal_actions()[index])
            controller.play_computer_moves()
        controller.close()
    internal = time.perf_counter() - started
    return {"steps": made, "games": len(played),
            "aec_steps_per_second": round(made / library, 1),
            "controller_steps_per_second": round(made / internal, 1),
            "aec_over_controller": round(library / internal, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round, fewer steps")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    random.seed(0)
    figures = {"judge": measure_judge(1 if args.quick else 3, cli=True),
               "bandu_stack": measure_stack(20 if args.quick else 300),
               "tanbo_aec": measure_tanbo(200 if args.quick else 2000)}
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    j, s, t = figures["judge"], figures["bandu_stack"], figures["tanbo_aec"]
    print(f"judge: {j['judge_per_minute']:.0f} towers a minute; the internal call "
          f"{j['internal_per_minute']:.0f} (judge / internal, time: {j['judge_over_internal']:.3f}); "
          f"the command line {j.get('cli_per_minute', 0):.0f} ({j['towers']} towers x "
          f"{j['rounds']} rounds, medians)")
    print(f"BanduStack-v0, random agent: {s['steps_per_second']:.1f} steps a second "
          f"({s['steps']} steps, {s['episodes']} episodes)")
    print(f"Tanbo 7x7 through PettingZoo: {t['aec_steps_per_second']:.0f} steps a second; the "
          f"same moves through the turn controller {t['controller_steps_per_second']:.0f} "
          f"(PettingZoo / controller, time: {t['aec_over_controller']:.3f})")
    return 0
