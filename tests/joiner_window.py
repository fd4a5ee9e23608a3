"""The joiner's window of the two-window test (tests/test_hosting_window.py), a program of its
own as a friend's would be: `python tests/joiner_window.py ADDRESS CODE SEED` joins the host's
seat in a window of its own (as `bandu-sim join` opens it), plays it with random legal moves
through the view, notes every placement whose fall its view drew, and prints one JSON line when
the game is over (or after 600 s)."""

from __future__ import annotations

import json
import random
import sys
import time


def main(address: str, code: str, seed: int) -> int:
    from simulator.app.main import build_app

    window, app = build_app(join=(address, code), width=1000)
    screen = window.top
    remote = screen.controller
    seen: set[int] = set()
    follow = screen.view.playback.follow

    def following(pending) -> None:
        follow(pending)
        if pending is not None and screen.view.playback.frame is not None:
            seen.add(pending.ply)

    screen.view.playback.follow = following
    rng = random.Random(seed)
    deadline = time.monotonic() + 600
    try:
        while (not remote.is_over() or screen.view.still_showing()) and time.monotonic() < deadline:
            window.pump(1)
            if remote.is_person_turn() and not screen.view.still_showing():
                screen.view.submit(remote.state.random_action(rng))
            time.sleep(0.005)
        window.pump(5)
        result = {"over": remote.is_over(), "seen": sorted(seen), "end_shown": screen.end.visible,
                  "history": [[entry.player, entry.action] for entry in remote.history],
                  "winners": remote.state.winners() if remote.is_over() else []}
    finally:
        app.shutdown()
        window.close()
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
