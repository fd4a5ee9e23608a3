"""Computer-against-computer games for any registered game (`bandu-sim selfplay`)."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

from simulator.core import registry
from simulator.core.controller import COMPUTER, Seat, TurnController


def play_one(game: str, settings: dict[str, Any], players: list[str], seed: int,
             max_moves: int = 100_000) -> dict[str, Any]:
    seats = [Seat(COMPUTER, spec) for spec in players]
    controller = TurnController(game, settings, seats, seed=seed)
    while not controller.is_over() and controller.ply() < max_moves:
        controller.play_computer_moves()
    think = controller.think_seconds
    return {"seed": seed, "winners": controller.state.winners(), "length": controller.ply(),
            "max_think_seconds": [round(max(t), 3) if t else 0.0 for t in think],
            "mean_think_seconds": [round(sum(t) / len(t), 3) if t else 0.0 for t in think]}


def _play_packed(job: tuple) -> dict[str, Any]:
    return play_one(*job)


def selfplay(game: str, games: int, seed: int, players: list[str], settings: dict[str, Any] | None = None,
             workers: int = 1, progress=None) -> dict[str, Any]:
    info = registry.get_game(game)
    settings = dict(settings or {})
    info.new_game(len(players), **settings)    # validates the settings and the count before any work
    for spec in players:
        info.make_agent(spec)                   # validates the player names
    jobs = [(info.name, settings, players, seed + n) for n in range(games)]
    results: list[dict[str, Any]] = []
    if workers > 1 and games > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for result in pool.map(_play_packed, jobs):
                results.append(result)
                if progress:
                    progress(len(results), games)
    else:
        for job in jobs:
            results.append(_play_packed(job))
            if progress:
                progress(len(results), games)
    wins = [0] * len(players)
    for result in results:
        for seat in result["winners"]:
            wins[seat] += 1
    max_think = [max(r["max_think_seconds"][seat] for r in results) for seat in range(len(players))]
    return {"game": info.name, "settings": settings, "players": players, "games": results,
            "wins": wins, "max_think_seconds": max_think}
