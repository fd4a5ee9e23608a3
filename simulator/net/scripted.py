"""A scripted joiner: plays its seat with random legal moves, worked out from the table the host
sent (the position as the seat sees it), until the game ends. The tests and the load benchmark
seat these at a host to play whole games across the wire; every loop here is bounded."""

from __future__ import annotations

import random
import time

from simulator.core import registry
from simulator.net.host import RATE_REFUSAL, STALE_REFUSAL
from simulator.net.joiner import Joiner
from simulator.net.protocol import encode


def random_move(joiner: Joiner, rng: random.Random, table: dict[str, object] | None = None) -> str | None:
    """A legal move of the seat's, from `table` (default: its newest); None when it is not its
    turn there."""
    table = joiner.table if table is None else table
    if table is None or table["over"] or table["current"] != joiner.seat:
        return None
    assert joiner.welcome is not None
    state = registry.get_game(joiner.welcome["game"]).state_from_dict(table["state"])  # type: ignore[arg-type]
    action = state.random_action(rng)
    return str(state.action_to_str(action))


def play_to_the_end(joiner: Joiner, seed: int, timeout: float = 600.0,
                    move_times: list[float] | None = None) -> dict[str, object]:
    """Play the seat until the table says the game is over (or `timeout`, or the host closes).
    `move_times` gets, per move, the seconds from sending it to the table that shows it."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    moves = 0
    while time.monotonic() < deadline:
        if not joiner.wait_until(lambda j: j.table is not None and (j.table["over"] or j.my_turn()),
                                 timeout=max(0.1, deadline - time.monotonic())):
            break
        table = joiner.table
        assert table is not None
        if table["over"]:
            return {"over": True, "moves": moves, "winners": table["winners"]}
        notation = random_move(joiner, rng, table)      # one table: the move and the ply it answers
        if notation is None:
            continue
        ply = table["ply"]
        sent = time.monotonic()
        joiner.send(encode("move", action=notation, ply=ply))
        moves += 1
        def answered(j: Joiner, p: int = ply) -> bool:
            return (j.table is not None and j.table["ply"] > p) or bool(j.refusals)

        shown = joiner.wait_until(answered, timeout=60)
        if joiner.refusals and RATE_REFUSAL in joiner.refusals[-1]:
            joiner.refusals.clear()           # faster than a person: wait, then the same move
            time.sleep(1.0)
            continue
        if joiner.refusals and STALE_REFUSAL in joiner.refusals[-1]:
            joiner.refusals.clear()           # a newer table came meanwhile: play from it
            continue
        if joiner.refusals:
            raise AssertionError(f"the host refused {notation!r}: {joiner.refusals[-1]}")
        if shown and move_times is not None:
            move_times.append(time.monotonic() - sent)
    table = joiner.table
    return {"over": bool(table and table["over"]), "moves": moves,
            "winners": table["winners"] if table else [], "closed": joiner.closed_reason}
