"""Print the moves of one Bandu game between computer players, for reading how they play:
every offer, answer, bid and placement (its offset from the axis and its turn), each result,
and the beans of every seat after each placement.

    .venv/bin/python tools/show_bandu_game.py ai:medium,ai:medium,ai:medium,ai:medium --seed 700 --placements 6

Game n of tools/measure_bandu_ai.py (seed S + n, the same players and settings) is the game
printed here with seed S + n: the same seed plays the same game. `--placements N` stops after
N placements (0: the whole game); the settled poses of each result are left out.
"""

from __future__ import annotations

import argparse

from simulator.core.command_kit import MAX_SEED, bounded_int, parse_settings
from simulator.core.controller import COMPUTER, Seat, TurnController
from simulator.core.errors import SettingsError, UsageError

MAX_PLACEMENTS = 10_000         # --placements; a game of 48 pieces ends long before


def show(players: list[str], seed: int, settings: dict, placements: int) -> list[str]:
    """The game's moves, a line each: the seat (or the referee, R), then what it did."""
    controller = TurnController("bandu", settings, [Seat(COMPUTER, p) for p in players], seed=seed)
    lines: list[str] = []
    try:
        while not controller.is_over() and (not placements or controller.state.placements < placements):
            controller.play_computer_moves(limit=1)
            for entry in controller.history[len(lines):]:
                if entry.action.startswith("result "):
                    outcome = entry.action.split(" poses ")[0]
                    beans = " ".join(str(b) for b in controller.state.beans)
                    lines.append(f"R  {outcome}; beans by seat: {beans}")
                else:
                    lines.append(f"{entry.player}  {entry.action}")
    finally:
        controller.close()
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("players")
    parser.add_argument("--seed", type=bounded_int(0, MAX_SEED), default=0)
    parser.add_argument("--placements", type=bounded_int(0, MAX_PLACEMENTS), default=0, metavar="N")
    parser.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    try:
        lines = show(args.players.split(","), args.seed, parse_settings(args.setting), args.placements)
    except (SettingsError, UsageError) as error:
        parser.error(str(error))            # one line after the usage, exit 2
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
