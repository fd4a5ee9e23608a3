"""Computer-against-computer games for any registered game (`bandu-sim selfplay`)."""

from __future__ import annotations

from typing import Any

from simulator.core import registry
from simulator.core.agents import parse_agent_spec
from simulator.core.controller import COMPUTER, PERSON, Seat, TurnController
from simulator.core.errors import SettingsError
from simulator.core.text import printable
from simulator.processes import run_jobs


def play_one(game: str, settings: dict[str, Any], players: list[str], seed: int,
             max_moves: int = 100_000) -> dict[str, Any]:
    seats = [Seat(COMPUTER, spec) for spec in players]
    controller = TurnController(game, settings, seats, seed=seed)
    while not controller.is_over() and controller.ply() < max_moves:
        controller.play_computer_moves()
    think = controller.think_seconds
    extra = controller.game.report(controller.state) if controller.game.report else {}
    controller.close()
    return {"seed": seed, "winners": controller.state.winners(), "length": controller.ply(),
            "max_think_seconds": [round(max(t), 3) if t else 0.0 for t in think],
            "mean_think_seconds": [round(sum(t) / len(t), 3) if t else 0.0 for t in think]} | extra


def _play_packed(job: tuple) -> dict[str, Any]:
    return play_one(*job)


def check_selfplay(game: str, players: list[str], settings: dict[str, Any],
                   people: bool = False) -> registry.GameRules:
    """Refuse bad input before any work: the game, its settings, the player count and names.
    `people`: 'person' (someone at this machine) is a player too, as in `bandu-sim play`."""
    info = registry.get_game(game)
    info.new_game(len(players), settings)
    for spec in players:
        if people and is_person(spec):
            continue
        try:
            info.make_agent(spec)
        except SettingsError:
            prefix = info.agent_prefix
            if people and parse_agent_spec(spec)[0] not in ("random", prefix):
                raise SettingsError(f"unknown player {printable(spec, 30)!r} for {info.title}; use "
                                    f"person, random, {prefix} or {prefix}:LEVEL") from None
            raise
    return info


def is_person(spec: str) -> bool:
    return spec.strip().lower() == PERSON


def selfplay(game: str, games: int, seed: int, players: list[str], settings: dict[str, Any] | None = None,
             workers: int = 1, progress: Any = None, quiet_import: str | None = None) -> dict[str, Any]:
    """`games` games from seeds S, S+1 ...; `quiet_import`: a module each worker process imports
    with C output silenced first (the physics, whose import prints PyBullet's build time)."""
    settings = dict(settings or {})
    info = check_selfplay(game, players, settings)
    jobs = ((info.name, settings, players, seed + n) for n in range(games))
    results: list[dict[str, Any]] = []

    def keep(result: dict[str, Any]) -> None:
        results.append(result)
        if progress:
            progress(len(results), games)

    # the program's one job runner: games on worker processes, handed back as each ends
    if run_jobs(_play_packed, jobs, workers if games > 1 else 1, keep, quiet_import):
        raise KeyboardInterrupt                    # Ctrl+C: the games in progress ended first
    results.sort(key=lambda r: r["seed"])
    wins = [0] * len(players)
    for result in results:
        for seat in result["winners"]:
            wins[seat] += 1
    max_think = [max(r["max_think_seconds"][seat] for r in results) for seat in range(len(players))]
    return {"game": info.name, "settings": settings, "players": players, "games": results,
            "wins": wins, "max_think_seconds": max_think}
