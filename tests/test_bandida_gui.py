"""Bandida in the window under Xvfb: a game played through the window's event handlers (drag a
card from the hand, turn it with R and the wheel, drop it on a lit spot; an illegal drop says
why), dynamite and discards asked for on the table, the hand-over between two people, pan and
zoom, and screenshots checked for the felt, the earth of the cards and the face-down backs."""

from __future__ import annotations

import itertools

import pytest
from test_bandida_rules import TIGHT, position
from window_driver import button_named, click, click_on, frame, press, share, wait_for_person

pytestmark = pytest.mark.gui


def is_felt(r, g, b):
    return (g > r + 30) & (g > b + 15) & (g > 60)


def is_earth(r, g, b):
    return (r > 90) & (r > g + 25) & (g > b + 10)


def is_card_back(r, g, b):
    return (b > r + 30) & (b > g + 20) & (b > 40)


def _start(app, window, seats, settings=None, seed=3):
    app.start_game("bandida", settings or {"mode": 1}, seats, seed=seed)
    screen = window.active_screen
    screen.controller.computer_delay = 0.0
    window.pump(2)
    return screen


def _drag(window, start, end, steps=4):
    from pyglet.window import mouse

    window.dispatch_event("on_mouse_motion", *start, 0, 0)
    window.dispatch_event("on_mouse_press", *start, mouse.LEFT, 0)
    window.pump(1)
    for n in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * n / steps
        y = start[1] + (end[1] - start[1]) * n / steps
        window.dispatch_event("on_mouse_drag", x, y, 1, 1, mouse.LEFT, 0)
        window.pump(1)
    window.dispatch_event("on_mouse_release", *end, mouse.LEFT, 0)
    window.pump(1)


def _a_card_that_fits(view):
    """(hand index, rotation, a spot) for a card in the hand that fits somewhere."""
    state = view.state
    for index, kind in enumerate(state.hands[view.hand.seat(state)]):
        for move in state.placements([kind]):
            return index, move
    raise AssertionError("no card of the hand fits")


def test_a_game_on_the_felt_with_drag_turn_and_drop(gui):
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.games.bandida.spots import card_centre

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "mcts:easy")])
    view = screen.view
    wait_for_person(window, screen, limit=400, timeout=60)
    pixels = frame(window)
    assert share(pixels, is_felt) > 0.3                      # a green table fills much of it
    assert share(pixels, is_earth) > 0.01                    # cards of earth: the start and the hand
    assert share(pixels, is_card_back) > 0.002               # the other hand and the pile, face down
    assert len(view.hand.sprites) == 3 and view.hand.pile_label.text.startswith("draw pile: ")
    # an illegal drop, far out on the felt, says why and changes nothing (a card that fits
    # somewhere: the refused drop is the spot's fault, not the card's)
    plies = screen.controller.ply()
    index, move = _a_card_that_fits(view)
    card, _ = view.hand.sprites[index]
    bx, by, _bw, bh = view.board_rect()
    far = (bx + 40, by + bh - 40)                                 # a corner of the felt, far from the network
    _drag(window, (card.x, card.y), far)
    assert "must join an open tunnel" in screen.toast.message
    assert screen.controller.ply() == plies
    # refusals read without the grid's coordinates (the card shows red where it was refused)
    import dataclasses

    from simulator.core.errors import Refusal
    from simulator.games.bandida.rules import BandidaRefusal

    assert view.refusal_words(Refusal("a tunnel would run into earth on the west side of -2,10",
                                      BandidaRefusal.TUNNEL_INTO_EARTH,
                                      {"cell": (-2, 10), "side": "west"})) == \
        "a tunnel would run into earth on the left side of the card"
    taken = view.state.refusal_of(dataclasses.replace(move, x=0, y=0))   # on the start card
    assert taken.code is BandidaRefusal.TAKEN and taken.fields["cell"] in ((0, 0), (1, 0), (0, 1), (-1, 0), (0, -1))
    assert view.refusal_words(taken) == "a card already lies there"
    assert view.pointer.held == index                            # still held, over the far corner
    while view.pointer.rotation != move.rotation:                # a turn of it that fits somewhere
        press(window, key.R)
    assert move in view.pointer.spots()
    window.dispatch_event("on_mouse_motion", *far, 0, 0)
    window.pump(1)
    assert view.pointer.ghost.color[:3] == (255, 120, 110)       # where it does not fit, it shows red
    press(window, key.ESCAPE)
    assert view.pointer.held is None
    # pick a card that fits, turn it with R and the wheel until the spot's rotation, drop it there
    index, move = _a_card_that_fits(view)
    card, _ = view.hand.sprites[index]
    click(window, card.x, card.y)                               # picked up, stays in hand
    assert view.pointer.held == index and view.pointer.ghost.visible
    turned = view.pointer.rotation
    press(window, key.R)
    assert view.pointer.rotation == (turned + 1) % 4
    window.dispatch_event("on_mouse_scroll", card.x, card.y, 0, -1)
    window.pump(1)
    assert view.pointer.rotation == turned
    while view.pointer.rotation != move.rotation:
        press(window, key.R)
    spot = view.table.to_pixel(*card_centre(move.x, move.y, move.rotation))
    window.dispatch_event("on_mouse_motion", *spot, 0, 0)
    window.pump(1)
    assert view.pointer.target is not None and view.hint.startswith("Drop to place it")
    assert view.pointer.ghost.color[:3] == (255, 255, 255)      # fits here: the card as it is
    assert move in view.pointer.spots()
    pixels = frame(window)
    assert share(pixels, lambda r, g, b: (r > 200) & (g > 150) & (b < 110)) > 0.0005   # lit spots
    assert "must join an open tunnel" in screen.toast.message        # the refusal still shows
    click(window, *spot)
    assert screen.controller.ply() > plies
    assert screen.toast.message == ""                            # and goes once a drop succeeds
    assert screen.controller.state.placed[-1][0] == move.card or screen.controller.is_over()
    assert view.pointer.held is None
    wait_for_person(window, screen, limit=400, timeout=60)
    assert screen.controller.state.hands[0]                     # drawn back up


def test_pan_zoom_and_home(gui):
    from pyglet.window import key

    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "random")], seed=5)
    view = screen.view
    wait_for_person(window, screen, limit=400, timeout=60)
    bx, by, bw, bh = view.board_rect()
    middle = (bx + bw / 2, by + bh / 2)
    cell = view.table.scale
    window.dispatch_event("on_mouse_scroll", *middle, 0, 1)
    window.pump(1)
    assert view.table.scale > cell and not view.table.follow
    cam = view.table.centre
    _drag(window, (bx + 40, by + 40), (bx + 140, by + 90))
    assert view.table.centre != cam
    press(window, key.HOME)
    assert view.table.follow


def _dynamite_position(window, app, hand):
    """One person, a short straight network with a leaf on it, and `hand` (dynamite in it)."""
    from simulator.core.controller import PERSON, Seat

    screen = _start(app, window, [Seat(PERSON)], seed=1)
    network = [("Ae+Be", 2, 0, 0), ("Ae+Be", 4, 0, 0), ("Ae", 0, 1, 90)]
    screen.controller.state = position(network, hands=[hand])
    screen.controller.version += 1
    window.pump(2)
    return screen, screen.controller, screen.view


def test_dynamite_and_discards_are_asked_on_the_table(gui):
    window, app = gui
    screen, controller, view = _dynamite_position(window, app, ["dynamite:Ab+Bb", "discard:Ab+Bt", "At"])
    from simulator.games.bandida.cards import kind_of
    from simulator.games.bandida.spots import card_centre

    kinds = controller.state.hands[0]
    index = kinds.index(kind_of("dynamite:Ab+Bb").index)
    from pyglet.window import key

    card, _ = view.hand.sprites[index]
    click(window, card.x, card.y)
    while view.pointer.rotation != 3:
        press(window, key.R)
    click(window, *view.table.to_pixel(*card_centre(6, 0, 3)))
    assert controller.state.phase == "blow", screen.toast.message
    assert "Dynamite" in view.banner.text and "blow" in view.prompt()
    assert view.network.marks                                    # the card allowed is ringed
    click(window, *view.table.to_pixel(0.5, 1.5))                # the leaf on 0,1
    assert (0, 1) not in controller.state.cell_mask
    assert "blown up" in view.banner.text


def test_a_turn_and_dynamite_from_the_keyboard_alone(gui):
    """1-3 pick up a hand card and put it on its first spot, Tab and Shift+Tab go through the
    spots (every rotation, each spot once), Enter places; in the dynamite phase Tab goes through
    the cards allowed and Enter blows one up; a number key discards in a discard phase."""
    from pyglet.window import key

    from simulator.games.bandida.cards import kind_of

    window, app = gui
    screen, controller, view = _dynamite_position(window, app, ["At", "dynamite:Ab+Bb", "discard:Ab+Bt"])
    state = controller.state
    index = state.hands[0].index(kind_of("dynamite:Ab+Bb").index)
    press(window, key._1 + index)
    assert view.pointer.held == index and view.pointer.key_target is not None and view.pointer.ghost.visible
    spots = view.pointer.every_spot()
    every = state.placements([view.pointer.held_kind])
    assert len(spots) == len(set(spots)) and set(spots) <= set(every)
    assert {m.rotation for m in spots} == {m.rotation for m in every}    # all turns, not only one
    seen = [view.pointer.key_target]
    for _ in range(len(spots) - 1):
        press(window, key.TAB)
        seen.append(view.pointer.key_target)
    assert sorted(seen) == sorted(spots)                         # Tab visits every spot once
    press(window, key.TAB)
    assert view.pointer.key_target == seen[0]                    # and comes round again
    press(window, key.TAB, key.MOD_SHIFT)
    assert view.pointer.key_target == seen[-1]
    assert view.pointer.rotation == view.pointer.key_target.rotation
    assert view.hint.startswith("Enter places it")
    wanted = next(m for m in spots if (m.x, m.y, m.rotation) == (6, 0, 3))
    while view.pointer.key_target != wanted:
        press(window, key.TAB)
    press(window, key.ENTER)
    assert state is controller.state and controller.state.phase == "blow"
    press(window, key.TAB)
    assert view.pointer.key_blast is not None and view.hint.startswith("Enter blows up")
    target = view.pointer.key_blast
    _, x, y, _, _ = controller.state.placed[target]
    press(window, key.ENTER)
    assert (x, y) not in controller.state.cell_mask and "blown up" in view.banner.text
    # the discard object, placed from the keyboard, then a card discarded with its number key
    window.pump(2)
    index = controller.state.hands[0].index(kind_of("discard:Ab+Bt").index)
    press(window, key._1 + index)
    assert view.pointer.key_target is not None
    press(window, key.SPACE)
    assert controller.state.phase == "discard", screen.toast.message
    kind = controller.state.hands[0][0]
    press(window, key._1)
    assert kind in controller.state.removed
    press(window, key.K)
    window.pump(2)
    assert controller.state.phase == "play"


def test_discard_phase_clicks_hand_cards_and_keeps(gui):
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON)], seed=1)
    controller, view = screen.controller, screen.view
    controller.state = position(hands=[["discard:Ab+Bt", "Ae", "At"]])
    controller.version += 1
    window.pump(2)
    controller.submit(controller.state.action_from_str("place discard:Ab+Bt 2,0 r270"))
    window.pump(2)
    assert controller.state.phase == "discard" and view.button.box.visible
    card, kind = view.hand.sprites[0]
    click(window, card.x, card.y)
    assert kind in controller.state.removed
    click_on(window, view.button.box)
    window.pump(2)
    assert controller.state.phase == "play"


def test_swap_button_when_nothing_fits(gui):
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON)], seed=1)
    controller, view = screen.controller, screen.view
    controller.state = position(TIGHT, hands=[["At", "At", "Ab"]], pool=["Ae+Ab", "Ae+At", "Ae+At+Ab"],
                                early_loss=False)
    controller.version += 1
    window.pump(2)
    assert view.button.text.text == "Swap hand" and "swap" in view.prompt()
    click_on(window, view.button.box)
    window.pump(2)
    assert controller.state.bottom and controller.state.turn == 0


def test_the_hand_is_hidden_between_two_people(gui):
    from simulator.core.controller import PERSON, Seat

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(PERSON)], seed=2)
    controller, view = screen.controller, screen.view
    assert screen.viewer == 0
    first_hand = list(controller.state.hands[0])
    assert [k for _, k in view.hand.sprites] == first_hand
    # what the view holds for seat 1's hand is face down (unknown)
    assert set(view.state.hands[1]) == {-1}
    move = _a_card_that_fits(view)[1]
    controller.submit(move)
    for _ in range(5):
        window.pump(1)
    assert screen.handover.visible and not view.enabled
    pixels = frame(window)
    assert share(pixels, is_earth) < 0.01                        # the table is hidden
    click_on(window, button_named(screen, "I am Player 2"))
    window.pump(2)
    assert screen.viewer == 1 and view.enabled
    assert [k for _, k in view.hand.sprites] == controller.state.hands[1]
    assert set(view.state.hands[0]) == {-1}
    # the move log in the panel names no drawn card
    assert view.describe_move("draw Ae+Be") == "a card is drawn"
    last = controller.history[-1].action
    assert last.startswith("draw ")                              # seat 0's refill
    window.pump(2)
    log = screen.move_log.label.text
    assert "a card is drawn" in log and last not in log


def test_screenshot_of_a_game_in_progress(gui, tmp_path):
    from simulator.core.controller import COMPUTER, PERSON, Seat
    from simulator.render.screenshot import save_png

    window, app = gui
    screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "random"), Seat(COMPUTER, "random")],
                    settings={"mode": 2}, seed=4)
    controller = screen.controller
    for _ in range(6):
        wait_for_person(window, screen, limit=400, timeout=60)
        if controller.is_over():
            break
        controller.submit(controller.state.legal_actions()[0])
    wait_for_person(window, screen, limit=400, timeout=60)
    path = save_png(tmp_path / "bandida.png")
    assert path.stat().st_size > 20_000
    pixels = frame(window)
    assert share(pixels, is_earth) > 0.02 and len(controller.state.placed) >= 6


def test_the_menu_and_the_new_game_screen_start_bandida(gui):
    window, app = gui
    app.show_menu()
    window.pump(1)
    click_on(window, button_named(window.active_screen, "Bandida"))
    assert window.active_screen.title == "new game"
    click_on(window, button_named(window.active_screen, "3: the lovers' escape"))
    click_on(window, button_named(window.active_screen, "5 exits (easier)"))
    click_on(window, button_named(window.active_screen, "Start"))
    screen = window.active_screen
    assert screen.title == "game"
    state = screen.controller.state
    assert (state.mode, state.side, state.deck, state.ladder) == (3, 5, "bandida", True)
    pixels = frame(window)
    assert share(pixels, is_felt) > 0.3


def test_in_the_smallest_window_the_hand_cards_stand_apart(gui):
    from simulator.core.controller import COMPUTER, PERSON, Seat

    window, app = gui
    window.set_size(800, 560)
    window.dispatch_event("on_resize", 800, 560)
    try:
        screen = _start(app, window, [Seat(PERSON), Seat(COMPUTER, "random")])
        view = screen.view
        wait_for_person(window, screen, limit=400, timeout=60)
        cards = [card for card, _ in view.hand.sprites]
        assert len(cards) == 3 and view.hand.cell <= 50      # 50: the most a card cell gets
        for left, right in itertools.pairwise(cards):
            assert right.x - left.x >= 2 * view.hand.cell + 8              # a gap between each two
        pile_left = min(p.x for p in view.hand.pile_sprites) - 50          # the pile's cards: 2 x 50 wide
        assert cards[-1].x + view.hand.cell <= pile_left
        index = len(cards) - 1                                             # the hand's hit test follows
        assert view.hand.index_at(cards[index].x + view.hand.cell - 2, cards[index].y) == index
        # the cards out of the game: no room beside the hand, so their count under the pile
        screen.controller.state.removed.extend(screen.controller.state.pool[:4])
        screen.controller.version += 1
        window.pump(2)
        assert view.hand.pile_label.text.endswith(f"out: {len(view.state.removed)}")
        assert view.hand.gone_rect[2] > 0
        # a long banner wraps inside the table instead of running off both sides
        screen.controller.state.event = "Mode 3, the lovers' escape: " + "get the cards in, then close them all. " * 3
        view.sync()
        x, _, w, _ = view.area
        box = view.banner_box
        assert x <= box.x and box.x + box.width <= x + w and view.banner.content_width <= box.width
        assert view.banner.multiline and view.banner.font_size >= 10
    finally:
        window.set_size(1280, 800)
        window.dispatch_event("on_resize", 1280, 800)
        window.pump(1)


def _one_person(window, app, state):
    from simulator.core.controller import PERSON, Seat

    screen = _start(app, window, [Seat(PERSON)], settings={"mode": state.mode}, seed=1)
    screen.controller.state = state
    screen.controller.version += 1
    window.pump(2)
    return screen, screen.controller, screen.view


def test_the_super_cards_side_chosen_with_s_is_the_one_placed_from_the_keyboard(gui):
    from pyglet.window import key

    from simulator.games.bandida.cards import kind_of

    window, app = gui
    state = position(mode=3, hands=[["super", "At"]], early_loss=False)
    screen, controller, view = _one_person(window, app, state)
    press(window, key._1 + controller.state.hands[0].index(kind_of("super").index))
    assert view.pointer.key_target is not None and view.pointer.key_target.side == 6
    press(window, key.S)
    assert view.pointer.key_target is not None and view.pointer.key_target.side == 5
    assert view.pointer.side_placed() == 5
    press(window, key.ENTER)
    kind, *_, side = controller.state.placed[-1]
    assert kind == kind_of("super").index and side == 5, screen.toast.message


def test_tab_alone_picks_up_the_first_card_that_fits_and_the_table_keeps_following(gui):
    from pyglet.window import key

    window, app = gui
    screen, controller, view = _dynamite_position(window, app, ["At", "Ab", "Ae"])
    assert view.pointer.held is None and view.table.follow
    view.table.scale = 160.0                                     # so close that most spots lie off the table
    press(window, key.TAB)
    assert view.pointer.held is not None and view.pointer.key_target is not None
    assert screen.focus.focused is None                          # not the panel's buttons
    cams = set()
    for _ in range(8):                                           # spots all round the network
        press(window, key.TAB)
        cams.add(view.table.centre)
    assert len(cams) > 1                                         # the table went to them
    press(window, key.ENTER)
    window.pump(2)
    assert view.table.follow                                     # and then fits the network again
    _bx, _by, _bw, _bh = view.board_rect()
    for x, y in controller.state.cell_mask:
        assert view.table.contains(*view.table.to_pixel(x + 0.5, y + 0.5))


def test_cards_out_of_the_game_lie_face_up_by_the_pile(gui):
    from simulator.games.bandida.cards import KINDS

    window, app = gui
    state = position(hands=[["At", "Ab", "Ae"]], pool=["At", "Ab", "Ae+Be"])   # the rest is gone
    gone = state.removed[-6:]
    assert gone
    _screen, _controller, view = _one_person(window, app, state)
    gx, gy, gw, gh = view.hand.gone_rect
    assert gw > 0 and gh > 0
    window.dispatch_event("on_mouse_motion", gx + 5, gy + gh / 2, 0, 0)
    window.pump(1)
    assert view.hint.startswith("Out of the game") and KINDS[gone[-1]].title() in view.hint


def test_a_lost_game_says_the_team_lost_and_rings_the_hopeless_cell(gui):
    window, app = gui
    # two openings face the cell 0,1, and no card left in the game could fill it
    state = position([("Ae+At", 1, 1, 90)], hands=[["At", "Ab"]], pool=["At", "Ab", "Ab"])
    assert state.result == "lost" and state.reason.startswith("The tunnel into cell 0,1")
    screen, _controller, view = _one_person(window, app, state)
    window.pump(3)
    assert screen.end.title.text == "The team lost"
    body = screen.end.body.text
    assert body.startswith("The tunnel into the cell ringed red on the table can never be closed")
    assert "0,1" not in body and "0,1" not in view.banner.text   # no grid coordinates
    assert screen.status.text.startswith("The team lost.")     # the panel says the same
    red = [m for m in view.network.marks if getattr(m, "color", (0, 0, 0))[:3] == (235, 40, 30)]
    assert red


def test_hovering_a_hand_card_says_what_its_icon_does_and_a_held_card_its_other_turns(gui):
    from simulator.games.bandida.cards import kind_of

    window, app = gui
    _screen, controller, view = _dynamite_position(window, app, ["At", "dynamite:Ab+Bb", "Ab"])
    index = controller.state.hands[0].index(kind_of("dynamite:Ab+Bb").index)
    card, _ = view.hand.sprites[index]
    window.dispatch_event("on_mouse_motion", card.x, card.y, 0, 0)
    window.pump(1)
    assert "when you place it, you blow up" in view.hint
    from pyglet.window import key

    click(window, card.x, card.y)                                # held (over the hand): lit spots
    window.pump(1)
    # on this network the dynamite fits nowhere unturned, and somewhere turned once
    assert view.pointer.rotation == 0 and not view.pointer.spots()
    assert "fits nowhere as it is turned: press R" in view.hint
    press(window, key.R)
    assert view.pointer.rotation == 1 and view.pointer.spots()
    shown, every = len(view.pointer.spots()), len(view.pointer.every_spot())
    assert every > shown > 0 and f"shows {every - shown} more" in view.hint


def test_a_super_card_that_fits_only_on_one_side_is_picked_up_on_that_side(gui, monkeypatch):
    """Picked up from the keyboard, the super card turns to the side that fits (here, as if only
    its five-exit side fitted anywhere); held with the mouse, the hint says to press S."""
    from pyglet.window import key

    from simulator.games.bandida.cards import kind_of
    from simulator.games.bandida.rules import BandidaState

    window, app = gui
    state = position(mode=3, hands=[["super", "At"]], early_loss=False)
    _screen, controller, view = _one_person(window, app, state)
    real = BandidaState.placements
    monkeypatch.setattr(BandidaState, "placements",
                        lambda self, kinds: [m for m in real(self, kinds) if m.card != kind_of("super").index
                                             or m.side == 5])
    index = controller.state.hands[0].index(kind_of("super").index)
    card, _ = view.hand.sprites[index]
    click(window, card.x, card.y)                                # the mouse: side 6 is held
    assert view.pointer.side_placed() == 6 and "press S" in view.hint
    press(window, key.ESCAPE)
    press(window, key._1 + index)                                # the keyboard: side 5 at once
    assert view.pointer.key_target is not None and view.pointer.key_target.side == 5
    press(window, key.ENTER)
    assert controller.state.placed[-1][4] == 5


def test_a_seat_that_skips_its_next_turn_says_so_before_its_cards(gui):
    window, app = gui
    state = position(hands=[["At", "Ab"]], pool=["At", "Ab", "Ab"])
    state.skip[0] = True
    _screen, _controller, view = _one_person(window, app, state)
    assert view.seat_detail(0) == "skips next turn, 2 cards"   # a narrow panel cuts the end
    state.skip[0] = False
    assert view.seat_detail(0) == "2 cards"


def _alarm(window, app):
    """One person, and the alarm 1 they have just drawn: they must discard one of 2 cards."""
    from test_bandida_rules import play

    state = play(position(hands=[["Ae", "At", "Ab"]], pool=["alarm1", "Ae+At+Ab"]), "place Ae 2,0 r0",
                 "draw alarm1")
    screen, controller, view = _one_person(window, app, state)
    assert controller.state.phase == "alarm"
    return screen, controller, view


def test_in_an_alarm_tab_and_enter_stay_on_the_cards_to_discard(gui):
    """During the alarm's discard Tab went on to the panel's Save and Load and Enter pressed
    them: Tab goes through the hand's cards (ringed, the hint names it), Enter discards it."""
    from pyglet.window import key

    from simulator.games.bandida.cards import KINDS

    window, app = gui
    screen, controller, view = _alarm(window, app)
    hand = list(controller.state.hands[0])
    chosen = []
    for _ in range(2 * len(hand)):
        press(window, key.TAB)
        assert screen.focus.focused is None                      # no panel button takes it
        chosen.append(view.pointer.key_discard)
    assert chosen == [0, 1, 0, 1] and view.pointer.marks         # round the hand, ringed
    press(window, key.TAB, key.MOD_SHIFT)
    assert view.pointer.key_discard == 0
    assert view.hint == f"Enter discards {KINDS[hand[0]].title()}; Tab: the next card."
    press(window, key.ENTER)
    assert hand[0] in controller.state.removed and window.top is screen
    assert view.pointer.key_discard is None


def test_in_an_alarm_enter_does_not_press_a_panel_button_focused_before(gui):
    from pyglet.window import key

    window, app = gui
    screen, controller, _view = _alarm(window, app)
    screen.focus.move_to(screen.load_button)                     # Tab took it there before
    for symbol in (key.ENTER, key.SPACE):
        press(window, symbol)
        assert window.top is screen and controller.state.phase == "alarm"   # no saved-games list
    assert "Tab to the card" in screen.toast.message
