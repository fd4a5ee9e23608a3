"""The players of a table played across machines: `remote` in a list of players (`bandu-sim
host`, `bandu-sim play --players`) is a person at another machine, who joins the host's table
with the seat's code. Such a seat is a person's seat (its save opens at one machine as one);
the host marks it played elsewhere (TurnController.played_elsewhere)."""

from __future__ import annotations

REMOTE = "remote"


def is_remote(player: str) -> bool:
    return player.strip().lower() == REMOTE


def remote_seats(players: list[str]) -> list[int]:
    """Which of `players` (as a --players list spells them) sit at other machines."""
    return [seat for seat, player in enumerate(players) if is_remote(player)]
