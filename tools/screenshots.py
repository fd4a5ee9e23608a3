"""Regenerate the screenshots in docs/ (run under a display, e.g. `xvfb-run -a python tools/screenshots.py`).

Plays a few seeded moves of Tanbo so the picture shows a game in progress with a removal preview.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def main() -> None:
    os.environ.setdefault("BANDU_SIM_HOME", tempfile.mkdtemp(prefix="bandu-sim-shots-"))
    from simulator.app.main import build_app
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = build_app(visible=True)
    window.pump(2)
    window.take_screenshot(DOCS / "screenshot-menu.png")
    app.start_game("tanbo", {"size": 11}, [Seat(PERSON), Seat(COMPUTER, "mcts:medium")], seed=2)
    screen = window.active_screen
    controller = screen.controller
    rng = random.Random(5)
    while controller.ply() < 24:
        if controller.is_person_turn():
            controller.submit(rng.choice(controller.state.legal_actions()))
        controller.play_computer_moves()
    window.pump(2)
    state = controller.state
    removing = [a for a in state.legal_actions() if len(state.removals_if(a)) > 1]
    target = removing[0] if removing else state.legal_actions()[0]
    window.dispatch_event("on_mouse_motion", *screen.view.grid.to_pixel(target.x, target.y), 0, 0)
    window.pump(3)
    window.take_screenshot(DOCS / "screenshot-tanbo.png")
    window.close()


if __name__ == "__main__":
    main()
