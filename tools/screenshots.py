"""Regenerate the screenshots in docs/ (run under a display, e.g.
`xvfb-run -a -s "-screen 0 1920x1200x24" .venv/bin/python tools/screenshots.py`;
`... tools/screenshots.py sizes` makes only the Bandu table at three window sizes, `... bandu`
only the Bandu pictures of a game: the table, the auction, the collapse and the practice aid).

Tanbo: a few seeded moves, so the picture shows a game in progress with a removal preview.
Bandu: a three-player game after a few seeded placements (the table), a person's answer to an
auction to refuse (the auction), and the bandu_fps benchmark's 20-piece tower collapsing,
two simulated seconds in (the collapse), and a solo game's practice aid (a red ghost).
`... tools/screenshots.py tall` makes only the tower ai:strong builds alone (solo, seed 1000:
the last position before its tower fell, played headless first, several minutes).
Bandu at three window sizes: a three-seat game's first auction at 800 x 560 (the smallest the
program allows), 1280 x 720 and 1920 x 1080 (screenshot-bandu-WxH.png).
Bunko: a seeded 12-player night in its second round. Bandida: mode 2, nine rounds in, a card
held over a spot where it fits.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def main() -> None:
    os.environ.setdefault("BANDU_SIM_HOME", tempfile.mkdtemp(prefix="bandu-sim-shots-"))
    from simulator.app.main import build_app
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = build_app(visible=True)
    window.pump(2)
    if sys.argv[1:] == ["sizes"]:
        bandu_sizes_screenshots(window, app)
        window.close()
        return
    if sys.argv[1:] == ["tall"]:
        tall_tower_screenshot(window, app)
        window.close()
        return
    if sys.argv[1:] == ["bandu"]:
        bandu_screenshots(window, app)
        window.close()
        return
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
    bandu_screenshots(window, app)
    bandu_sizes_screenshots(window, app)
    bunko_screenshot(window, app)
    bandida_screenshot(window, app)
    window.close()


def bandida_screenshot(window, app) -> None:
    """Mode 2 with a person and two random players, nine rounds in, a card of the person's hand
    held over a spot where it fits (the spots lit)."""
    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.games.bandida.spots import card_centre

    seats = [Seat(PERSON), Seat(COMPUTER, "random"), Seat(COMPUTER, "random")]
    app.start_game("bandida", {"mode": 2}, seats, seed=4)
    screen = window.active_screen
    controller, view = screen.controller, screen.view
    controller.autosave_path = None
    for _ in range(9):
        controller.play_computer_moves()
        if controller.is_over():
            break
        controller.submit(controller.state.legal_actions()[0])
    controller.play_computer_moves()
    window.pump(3)
    state = view.state
    for index, kind in enumerate(state.hands[view.hand.seat(state)]):
        moves = state.placements([kind])
        if moves:
            move = moves[len(moves) // 2]
            card, _ = view.hand.sprites[index]
            window.dispatch_event("on_mouse_motion", card.x, card.y, 0, 0)
            window.dispatch_event("on_mouse_press", card.x, card.y, 1, 0)
            window.dispatch_event("on_mouse_release", card.x, card.y, 1, 0)
            while view.pointer.rotation != move.rotation:
                view.on_key_press(key_r(), 0)
            spot = view.table.to_pixel(*card_centre(move.x, move.y, move.rotation))
            window.dispatch_event("on_mouse_motion", *spot, 0, 0)
            break
    window.pump(3)
    window.take_screenshot(DOCS / "screenshot-bandida.png")


def key_r() -> int:
    from pyglet.window import key

    return key.R


def bunko_screenshot(window, app) -> None:
    """A 12-player night, seeded, in its second round with Player 1 to roll at table 3."""
    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.games.bunko.rules import Roll

    seats = [Seat(PERSON) if s in (0, 6) else Seat(COMPUTER, "mcts:ghost") for s in range(12)]
    app.start_game("bunko", {"tables": 3}, seats, seed=3)
    screen = window.active_screen
    controller = screen.controller
    controller.autosave_path = None
    state = controller.state
    while not (state.round == 1 and state.round_rolls > 40 and controller.is_person_turn()):
        if controller.is_person_turn():
            controller.submit(Roll())
        controller.play_computer_moves(limit=1)
        state = controller.state
    window.pump(110)
    spot = screen.view.spots[state.table_of(state.current_player())[0]]
    window.dispatch_event("on_mouse_motion", spot.x, spot.y, 0, 0)
    window.pump(3)
    window.take_screenshot(DOCS / "screenshot-bunko.png")


def bandu_screenshots(window, app) -> None:
    from benchmarks.bandu_fps import build_tower, collapse_once, settle_view
    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.games.bandu.ai import LEVELS, BanduAgent
    from simulator.games.bandu.rules import Offer
    from simulator.render.screenshot import save_png

    seats = [Seat(PERSON), Seat(PERSON), Seat(COMPUTER, "ai:medium")]
    app.start_game("bandu", {}, seats, seed=11)          # the first auction: Player 2 to answer
    screen = window.active_screen
    screen.view.submit(Offer("pyramid-square", "refuse"))
    settle_view(window, screen.view)
    save_png(DOCS / "screenshot-bandu-auction.png")

    app.start_game("bandu", {}, seats, seed=11)          # three placements on
    screen = window.active_screen
    controller, view = screen.controller, screen.view
    stand_ins = [BanduAgent(LEVELS["medium"]) for _ in range(2)]   # play the people's turns, seeded
    rng = random.Random(11)
    while (controller.state.placements < 3 or controller.state.phase != "offer"
           or controller.current_player() != 0):
        if controller.is_over() or not all(controller.state.alive):
            raise SystemExit("a tower of the seeded game fell before the picture; pick another seed")
        if controller.is_person_turn():
            controller.submit(stand_ins[controller.current_player()].choose(controller.state, rng))
        controller.play_computer_moves()
    settle_view(window, view)                # the view learns of the last result: its toast shows
    screen.toast.show("", seconds=0.0)       # hidden, so the picture shows the moves list whole
    settle_view(window, view)
    save_png(DOCS / "screenshot-bandu-table.png")
    collapse_once(window, app, build_tower(), None, screenshot=DOCS / "screenshot-bandu-collapse.png")
    practice_aid_screenshot(window, app)


def bandu_sizes_screenshots(window, app) -> None:
    from benchmarks.bandu_fps import settle_view
    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.games.bandu.rules import Offer

    seats = [Seat(PERSON), Seat(PERSON), Seat(COMPUTER, "ai:medium")]
    for width, height in ((800, 560), (1280, 720), (1920, 1080)):
        window.set_size(width, height)
        window.dispatch_event("on_resize", width, height)
        app.start_game("bandu", {}, seats, seed=11)
        screen = window.active_screen
        screen.view.submit(Offer("pyramid-square", "refuse"))
        settle_view(window, screen.view)
        window.take_screenshot(DOCS / f"screenshot-bandu-{width}x{height}.png")
    window.set_size(1280, 800)
    window.dispatch_event("on_resize", 1280, 800)


def strong_solo_tower(seed: int = 1000) -> dict:
    """ai:strong's solo game of `seed`, headless, as a save of its last position before the
    tower fell (or of its end)."""
    from benchmarks.frame_rate import strong_solo_game

    standing: dict = {}
    for controller in strong_solo_game(seed):
        state = controller.state
        if not standing or (state.phase == "offer" and state.alive[0]):
            standing = controller.to_save_dict()
    return standing


def tall_tower_screenshot(window, app) -> None:
    from pyglet.math import Vec3

    from benchmarks.bandu_fps import settle_view
    from simulator.core.controller import TurnController
    from simulator.render.screenshot import save_png

    controller = TurnController.from_save_dict(strong_solo_tower(), verify=False)
    app._show_game(controller)
    view = window.top.view
    settle_view(window, view)
    axis = view.places[0].axis
    top = view.preview.tower_top(view.bandu, 0)
    view.camera.glide_to(Vec3(axis[0], axis[1], top * 0.5), distance=top * 2.1 + 0.3, pitch=12.0)
    settle_view(window, view)
    save_png(DOCS / "screenshot-bandu-tall-tower.png")


def practice_aid_screenshot(window, app) -> None:
    """A solo game with the practice aid: the large cube held past the base's end, its ghost
    red once the trials are in."""
    import time

    from pyglet.math import Vec3

    from benchmarks.bandu_fps import settle_view
    from simulator.core.controller import PERSON, Seat
    from simulator.games.bandu.rules import Offer
    from simulator.render.screenshot import save_png

    app.start_game("bandu", {"variant": "solo", "practice_aid": True}, [Seat(PERSON)], seed=1)
    screen = window.active_screen
    view = screen.view
    screen.controller.submit(Offer("cube-large", "take"))
    settle_view(window, view)
    axis = view.places[0].axis
    x, y = view.camera.to_screen(Vec3(axis[0] + 0.06, axis[1], view.aim.aim_height()), view.area)
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    deadline = time.monotonic() + 120
    while view.practice.probe.answer is None or not view.practice.probe.answer.complete:
        if time.monotonic() > deadline:
            raise SystemExit("the practice aid never answered")
        window.pump(1)
    settle_view(window, view)
    save_png(DOCS / "screenshot-bandu-practice.png")


if __name__ == "__main__":
    main()
