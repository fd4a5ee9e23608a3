"""The ghost is the truth: wherever the held piece's ghost shows it landing, the referee releases
it there, whatever the input before the click (the pointer, Ctrl+wheel, turns and tilts, the
camera moved, a click before any motion or away from the last one). Random input sequences,
each placement's release pose read from the referee's first published frame."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

pytestmark = pytest.mark.gui

SOLO_PIECES = ("ashlar-large", "cylinder-wide", "slab-square", "cube-large", "disc", "plank-long")


def _pump_until(window, condition, seconds: float = 60.0) -> None:
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the window never got there"
        window.pump(1)


def _angle_deg(a, b) -> float:
    dot = abs(float(np.dot(np.array(a) / np.linalg.norm(a), np.array(b) / np.linalg.norm(b))))
    return math.degrees(2 * math.acos(min(1.0, dot)))


def _random_input(window, view, rng: random.Random, pointer: list) -> None:
    """A few things a player does while holding the piece, drawn at random."""
    from pyglet.window import key, mouse

    x0, y0 = view.area[0], view.area[1]
    width, height = view.area[2], view.area[3]

    def somewhere():
        return x0 + width * rng.uniform(0.3, 0.7), y0 + height * rng.uniform(0.3, 0.7)

    for _ in range(rng.randint(0, 6)):
        kind = rng.choice(["move", "move", "wheel", "turn", "orbit", "zoom"])
        if kind == "move":
            x, y = pointer[0] = somewhere()
            window.dispatch_event("on_mouse_motion", x, y, 0, 0)
        elif kind == "wheel":                        # Ctrl+wheel: higher or lower, not moved
            x, y = somewhere()
            window.dispatch_event("on_key_press", key.LCTRL, key.MOD_CTRL)
            window.dispatch_event("on_mouse_scroll", x, y, 0, rng.choice([-2, -1, 1, 2]))
            window.dispatch_event("on_key_release", key.LCTRL, 0)
        elif kind == "turn":
            symbol = rng.choice([key.Q, key.E, key.R, key.F, key.Z, key.C])
            window.dispatch_event("on_key_press", symbol, rng.choice([0, key.MOD_SHIFT]))
            window.dispatch_event("on_key_release", symbol, 0)
        elif kind == "orbit":
            x, y = somewhere()
            window.dispatch_event("on_mouse_drag", x, y, rng.uniform(-40, 40), rng.uniform(-20, 20),
                                  mouse.RIGHT, 0)
        else:
            x, y = somewhere()
            window.dispatch_event("on_mouse_scroll", x, y, 0, rng.choice([-1, 1]))
        window.pump(1)


def test_the_release_is_where_the_ghost_shows(gui):
    checked = sum(_check_releases(gui, seed) for seed in range(1, 5))
    assert checked >= 10


def _check_releases(gui, seed: int) -> int:
    """One solo attempt under random input; how many releases were checked."""
    from simulator.core.controller import PERSON, Seat
    from simulator.games.bandu.rules import TAKE, Offer

    window, app = gui
    app.start_game("bandu", {"variant": "solo"}, [Seat(PERSON)], seed=seed)
    screen = window.top
    view, controller = screen.view, screen.controller
    window.pump(2)
    rng = random.Random(seed)
    x0, y0, width, height = view.area
    pointer = [(x0 + width * 0.2, y0 + height * 0.25)]   # where the pointer rests before any move
    checked = 0
    for piece in SOLO_PIECES:
        if controller.is_over():
            break
        assert view.submit(Offer(piece, TAKE))
        window.pump(2)
        assert view.held is not None
        _random_input(window, view, rng, pointer)
        # the click where the pointer last was (not necessarily where the piece is shown: the
        # wheel or the camera may have moved since), or before it ever moved
        clicked_at = pointer[0]
        view.aim.refresh_ghost()                    # the ghost as the next frame draws it
        ghost = view.ghost
        assert ghost is not None
        # the click, anywhere (no motion first): the piece goes where the ghost is
        window.dispatch_event("on_mouse_press", *clicked_at, 1, 0)
        window.dispatch_event("on_mouse_release", *clicked_at, 1, 0)
        window.pump(1)                    # the events, then the controller hands it to the referee
        assert controller.state.phase == "settle", "the click did not release the piece"
        pending = controller.outcome_in_progress()
        assert pending is not None, "the click did not release the piece"
        timeline = pending.timeline
        _pump_until(window, lambda: len(timeline) > 0)    # noqa: B023 (called at once)
        first = timeline.at(0.0)[0][piece]
        released, orientation = np.array(first[:3]), first[3:7]
        assert np.abs(released - np.array(ghost[0])).max() * 1000 < 0.1, (released, ghost[0])
        assert _angle_deg(orientation, ghost[1]) < 0.1
        checked += 1
        _pump_until(window, lambda: controller.state.phase != "settle")
    screen.controller.close()
    app.show_menu()
    return checked


def test_a_click_before_the_pointer_moves_releases_the_piece_where_it_is_shown(gui):
    """The bug: after answering an auction with the keyboard the piece was drawn centred, its
    ghost on the base, but the click released it where the pointer happened to be (108, -150 mm:
    on the table)."""
    from simulator.core.controller import PERSON, Seat
    from simulator.games.bandu.rules import TAKE, Offer

    window, app = gui
    app.start_game("bandu", {"variant": "solo"}, [Seat(PERSON)], seed=4)
    screen = window.top
    view, controller = screen.view, screen.controller
    window.pump(2)
    assert view.submit(Offer("cube-large", TAKE))
    window.pump(2)
    x0, y0, _, _ = view.area
    window.dispatch_event("on_mouse_press", x0 + 10, y0 + 10, 1, 0)   # far off, no motion first
    window.dispatch_event("on_mouse_release", x0 + 10, y0 + 10, 1, 0)
    window.pump(1)
    assert controller.state.phase == "settle"
    pending = controller.outcome_in_progress()
    _pump_until(window, lambda: controller.state.phase != "settle")
    assert controller.state.alive == [True] and controller.state.towers[0][-1] == "cube-large"
    assert pending is not None
    app.show_menu()


def test_a_tall_held_piece_hovers_clear_of_its_own_ghost(gui):
    """A long pole stood on end was held 60 mm over the tower, its lower half inside its own
    ghost; now it hovers at least HELD_GAP_M over the ghost's top, however tall it stands."""
    from pyglet.window import key

    from simulator.core.controller import PERSON, Seat
    from simulator.games.bandu.aiming import HELD_GAP_M, TURN_STEP, vertical_extent
    from simulator.games.bandu.referee import orientation_of
    from simulator.games.bandu.rules import TAKE, Offer

    window, app = gui
    app.start_game("bandu", {"variant": "solo"}, [Seat(PERSON)], seed=4)
    view = window.top.view
    window.pump(2)
    assert view.submit(Offer("pole-long", TAKE))
    window.pump(2)
    for _ in range(round(90 / TURN_STEP)):                # tilt it upright, about y
        window.dispatch_event("on_key_press", key.Z, 0)
        window.dispatch_event("on_key_release", key.Z, 0)
        window.pump(1)
    held, ghost = view.aim.held_pose(), view.ghost
    assert ghost is not None
    turned = orientation_of(view.held.place)
    low, high = vertical_extent("pole-long", turned)
    assert high - low > 0.1                               # standing: taller than the 60 mm hover
    ghost_top = ghost[0][2] + vertical_extent("pole-long", ghost[1])[1]
    assert held[0][2] + low >= ghost_top + HELD_GAP_M - 0.001   # the ghost lies 0.3 mm above the top
    app.show_menu()
