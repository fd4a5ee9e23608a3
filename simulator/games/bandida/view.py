"""Bandida on a green-felt table: the tunnel network, the hands, the draw pile.

The network is drawn card by card as earth with tunnels (art.py), open exits glow. The viewing
seat's hand lies face up at the bottom; the other seats' hands face down at the top with their
counts; the draw pile with its count at the bottom right. The view reads only `self.state`, the
state as the viewing seat may see it, and sends every action through the controller.

Playing: drag a card from the hand (or click it to pick it up), turn it with the wheel or R
(S shows the other side of the super card), and the legal spots for it light up; a card near a
legal spot snaps to it, and a drop where it may not go says why. Dynamite: click the card to
blow up (the ones allowed are ringed red). Discards (the discard object, alarm 1): click the
hand cards to discard, then Keep. When no card fits, a button swaps the hand (or passes).
Pan by dragging the felt (or the arrows), zoom with the wheel (or + and -); Home fits the
network to the table again, and the table follows the network as it grows until you move it.
Without a mouse: 1-4 pick up (or discard) the hand's cards, Tab and Shift+Tab go through every
spot where the held card fits (or the cards dynamite may blow up, or the hand's cards to discard),
Enter or Space places it (or blows it up, or discards it).
"""

from __future__ import annotations

import math
from typing import Any

from pyglet import shapes, sprite
from pyglet.graphics import Group
from pyglet.window import key, mouse

from simulator.core.errors import Refusal
from simulator.games.bandida import art
from simulator.games.bandida.cards import BY_CODE, DIRS, KINDS, SIDES, UNKNOWN, is_symmetric
from simulator.games.bandida.rules import KEEP, PASS, SWAP, BandidaState, Move
from simulator.render.board2d import ClipGroup
from simulator.render.game_view import GameView, ViewContext
from simulator.render.textures import centred, to_image
from simulator.render.widgets import label, shrink_to_width

HAND_HEIGHT = 132.0          # the strip of the viewer's hand and the pile
TOP_HEIGHT = 58.0            # the strip of the other hands
HAND_CELL = 50.0             # pixels per cell of a hand card
MIN_CELL, MAX_CELL = 14.0, 90.0
FELT_PX = 512
SNAP = 0.75                  # cells within which a held card snaps to a legal spot
BOARD_ORDER = 2     # the network, its marks and shadows: per view, clipped to the table
(G_FELT, G_STRIP, G_STRIP_CARDS, G_HELD, G_FOCUS, G_BANNER, G_TEXT) = (
    Group(order=n) for n in (1, 5, 6, 7, 8, 9, 10))


class _Images:
    """Card faces, the back and the felt, made once per process and shared by every view."""

    cache: dict[Any, Any] = {}

    @classmethod
    def face(cls, kind: int, side: int) -> Any:
        key_ = ("face", kind, side)
        if key_ not in cls.cache:
            cls.cache[key_] = centred(to_image(art.card_pixels(KINDS[kind], side or 6)))
        return cls.cache[key_]

    @classmethod
    def back(cls) -> Any:
        if "back" not in cls.cache:
            cls.cache["back"] = centred(to_image(art.back_pixels()))
        return cls.cache["back"]

    @classmethod
    def felt(cls) -> Any:
        if "felt" not in cls.cache:
            cls.cache["felt"] = to_image(art.felt_pixels(FELT_PX))
        return cls.cache["felt"]


class _Button:
    """A small brass button drawn on the table (swap, pass, keep)."""

    def __init__(self, batch: Any) -> None:
        self.box = shapes.RoundedRectangle(0, 0, 150, 36, radius=8, segments=6, color=(214, 160, 72, 255),
                                           batch=batch, group=G_BANNER)
        self.text = label("", size=13, batch=batch, group=G_TEXT, anchor_x="center", anchor_y="center",
                          color=(30, 22, 12, 255), bold=True)
        self.action: Move | None = None
        self.set_visible(False)

    def show(self, text: str, action: Move, x: float, y: float) -> None:
        self.text.text = text
        self.box.width = max(120.0, self.text.content_width + 30)
        self.box.position = (x - self.box.width / 2, y)
        self.text.position = (x, y + 18, 0)
        self.action = action
        self.set_visible(True)

    def set_visible(self, visible: bool) -> None:
        self.box.visible = self.text.visible = visible
        if not visible:
            self.action = None

    def contains(self, x: float, y: float) -> bool:
        b = self.box
        return self.box.visible and b.x <= x <= b.x + b.width and b.y <= y <= b.y + b.height


class BandidaView(GameView[BandidaState]):
    state_class = BandidaState
    rules_summary = (
        "A cooperative game: the whole team wins or loses together.\n"
        "On your turn place one card from your hand next to the network: it must join an open "
        "tunnel, and on every side it touches, tunnel must meet tunnel and earth meet earth. Then "
        "draw back up to 3. If no card fits, put your hand under the pile and draw 3 from the "
        "top (pass only when the pile is empty).\n"
        "Mode 1: close every open exit. Mode 2: get the ladder into the network and close every "
        "other exit. Mode 3: the same with Bandido's super card (and the ladder).\n"
        "Objects act when placed: backpack, draw 1 extra card; dynamite, blow up a card whose "
        "loss cuts nothing off; discard, everyone may discard up to 2 and draw back up; skip, "
        "you miss your next turn. Alarms act when drawn: 1, everyone discards a card; 2, the top "
        "5 cards of the pile leave the game. Cards out of the game lie face up by the pile.\n"
        "The game is lost when the pile runs out and no one can place, or (setting) as soon as "
        "an exit can provably never be closed. Only your own hand is shown; talk strategy, but "
        "do not name your cards.")
    controls = (("Drag a card", "from your hand onto a lit spot (or click it, then click)"),
                ("1-4, Tab", "pick up a hand card (Tab alone: the first that fits), go through its "
                             "spots (Enter places it)"),
                ("Wheel or R", "turn the card you hold (Shift+R the other way)"),
                ("S", "the other side of the super card you hold"),
                ("Esc", "put the held card back"),
                ("Click a card", "dynamite: blow it up; discards: discard it (or Tab to it, Enter)"),
                ("K or Enter", "keep the rest (discards); swap or pass when nothing fits"),
                ("Drag the felt", "pan; wheel zooms, arrows pan, + and - zoom"),
                ("Home", "fit the network to the table"))

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        batch = self.batch
        # the network, its marks and their shadows stay on the table, wherever the table is panned
        self.clip = ClipGroup(context.window, order=BOARD_ORDER)
        self.g_shadow = Group(order=0, parent=self.clip)
        self.g_cards = Group(order=1, parent=self.clip)
        self.g_marks = Group(order=2, parent=self.clip)
        self.felt = sprite.Sprite(_Images.felt(), batch=batch, group=G_FELT)
        self.vignette = shapes.Box(0, 0, 1, 1, thickness=18, color=(10, 30, 16, 110), batch=batch, group=G_FELT)
        self.hand_strip = shapes.Rectangle(0, 0, 1, HAND_HEIGHT, color=(52, 34, 20, 255), batch=batch, group=G_STRIP)
        self.hand_edge = shapes.Rectangle(0, 0, 1, 4, color=(150, 104, 56, 255), batch=batch, group=G_STRIP)
        self.top_strip = shapes.Rectangle(0, 0, 1, TOP_HEIGHT, color=(52, 34, 20, 235), batch=batch, group=G_STRIP)
        self.banner_box = shapes.RoundedRectangle(0, 0, 10, 30, radius=8, segments=6, color=(20, 16, 12, 190),
                                                  batch=batch, group=G_BANNER)
        self.banner = label("", size=13, batch=batch, group=G_TEXT, anchor_x="center", anchor_y="center",
                            color=(250, 236, 200, 255))
        self.pile_label = label("", size=12, batch=batch, group=G_TEXT, anchor_x="center", anchor_y="top",
                                color=(240, 226, 190, 255))
        self.hand_title = label("", size=11, batch=batch, group=G_TEXT, color=(230, 210, 170, 255))
        self.button = _Button(batch)
        self.cell = 48.0
        self.cam = (1.0, 0.5)                       # world point at the board's centre
        self.follow = True                          # fit the network until the person pans or zooms
        self.network_sprites: list[sprite.Sprite] = []
        self.shadows: list[shapes.Rectangle] = []
        self.marks: list[Any] = []                  # exits, legal spots, blast targets
        self.hover_marks: list[Any] = []
        self.hand_sprites: list[tuple[sprite.Sprite, int]] = []
        self.others: list[Any] = []
        self.pile_sprites: list[sprite.Sprite] = []
        self.hand_cell = HAND_CELL                  # pixels per cell of a hand card, as drawn
        self.held: int | None = None                # index into the hand of the card held
        self.held_kind = UNKNOWN
        self.rotation = 0
        self.side = 6
        self.dragging = False
        self.panning = False
        self.mouse = (0.0, 0.0)
        self.ghost = sprite.Sprite(_Images.back(), batch=batch, group=G_HELD)
        self.ghost.visible = False
        self.target: Move | None = None             # where the held card would go now
        self.key_target: Move | None = None         # the spot chosen with Tab (keyboard play)
        self.key_blast: int | None = None           # the card chosen with Tab to blow up
        self.key_discard: int | None = None         # the hand's card chosen with Tab to discard
        self._drawn_key: Any = None
        self._hand_key: Any = None
        self.gone_rect = (0.0, 0.0, 0.0, 0.0)      # where the cards out of the game are shown
        self.sync()


    # --- geometry ---------------------------------------------------------------------------------
    def board_rect(self) -> tuple[float, float, float, float]:
        x, y, w, h = self.area
        return x, y + HAND_HEIGHT, w, max(10.0, h - HAND_HEIGHT - TOP_HEIGHT)

    def to_pixel(self, wx: float, wy: float) -> tuple[float, float]:
        bx, by, bw, bh = self.board_rect()
        return bx + bw / 2 + (wx - self.cam[0]) * self.cell, by + bh / 2 + (wy - self.cam[1]) * self.cell

    def to_world(self, px: float, py: float) -> tuple[float, float]:
        bx, by, bw, bh = self.board_rect()
        return (px - bx - bw / 2) / self.cell + self.cam[0], (py - by - bh / 2) / self.cell + self.cam[1]

    def cell_at(self, px: float, py: float) -> tuple[int, int]:
        wx, wy = self.to_world(px, py)
        return math.floor(wx), math.floor(wy)

    def on_board(self, px: float, py: float) -> bool:
        bx, by, bw, bh = self.board_rect()
        return bx <= px < bx + bw and by <= py < by + bh

    @staticmethod
    def card_centre(x: int, y: int, rotation: int) -> tuple[float, float]:
        dx, dy = DIRS[rotation]
        return x + 0.5 + dx * 0.5, y + 0.5 + dy * 0.5

    def fit(self) -> None:
        """Zoom and centre so the whole network and a margin around it show."""
        cells = list(self.state.cell_mask) or [(0, 0), (1, 0)]
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        _, _, bw, bh = self.board_rect()
        span_x, span_y = max(xs) - min(xs) + 1 + 4, max(ys) - min(ys) + 1 + 4
        self.cell = max(MIN_CELL, min(MAX_CELL * 0.8, bw / span_x, bh / span_y))
        self.cam = ((min(xs) + max(xs) + 1) / 2, (min(ys) + max(ys) + 1) / 2)

    # --- layout and drawing -------------------------------------------------------------------------
    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        self.felt.position = (x, y, 0)
        self.felt.scale_x = width / FELT_PX
        self.felt.scale_y = height / FELT_PX
        self.vignette.position = (x, y)
        self.vignette.width, self.vignette.height = width, height
        self.hand_strip.position = (x, y)
        self.hand_strip.width = width
        self.hand_edge.position = (x, y + HAND_HEIGHT - 4)
        self.hand_edge.width = width
        self.top_strip.position = (x, y + height - TOP_HEIGHT)
        self.top_strip.width = width
        self._drawn_key = self._hand_key = None
        self.clip.box = self.board_rect()
        if self.follow:
            self.fit()
        self.sync()

    def sync(self) -> None:
        if self.held is not None and (not self._may_place() or self.held >= len(self._hand())
                                      or self._hand()[self.held] != self.held_kind):
            self._drop_held()
        if self.follow and self.area[2] > 1:
            self.fit()
        self._draw_network()
        self._draw_hands()
        self._draw_banner()
        self._draw_marks()
        self._refresh_button()
        self._refresh_held()

    def _hand(self) -> list[int]:
        return self.state.hands[self._hand_seat()]

    def _hand_seat(self) -> int:
        viewer = self.context.viewer()
        state = self.state
        if viewer is not None:
            return viewer
        return state.actor if state.phase in ("discard", "alarm", "blow") else state.turn

    def _draw_network(self) -> None:
        state = self.state
        key_ = (tuple(state.placed), self.cell, self.cam, self.area)
        if key_ == self._drawn_key:
            return
        self._drawn_key = key_
        for item in self.network_sprites + self.shadows:
            item.delete()
        self.network_sprites, self.shadows = [], []
        scale = self.cell / art.CELL_PX
        for kind, x, y, rotation, side in state.placed:
            cx, cy = self.to_pixel(*self.card_centre(x, y, rotation))
            if not self.on_board(cx, cy) and not self._near_board(cx, cy):
                continue
            w, h = (2 * self.cell, self.cell) if rotation % 2 == 0 else (self.cell, 2 * self.cell)
            shadow = shapes.Rectangle(cx - w / 2 + 3, cy - h / 2 - 4, w, h, color=(0, 0, 0, 70),
                                      batch=self.batch, group=self.g_shadow)
            card = sprite.Sprite(_Images.face(kind, side), cx, cy, batch=self.batch, group=self.g_cards)
            card.scale = scale
            card.rotation = -90 * rotation
            self.network_sprites.append(card)
            self.shadows.append(shadow)

    def _near_board(self, px: float, py: float) -> bool:
        bx, by, bw, bh = self.board_rect()
        m = 2 * self.cell
        return bx - m <= px < bx + bw + m and by - m <= py < by + bh + m

    def _draw_hands(self) -> None:
        state = self.state
        seat = self._hand_seat()
        hand = state.hands[seat]
        key_ = (seat, tuple(hand), tuple(len(h) for h in state.hands), state.pile_count(), self.area,
                self.held, state.current_player(), state.phase, len(state.removed))
        if key_ == self._hand_key:
            return
        self._hand_key = key_
        for card, _ in self.hand_sprites:
            card.delete()
        for item in self.others + self.pile_sprites:
            item.delete()
        self.hand_sprites, self.others, self.pile_sprites = [], [], []
        x, y, w, h = self.area
        info = self.controller.info
        self.hand_title.text = f"{info.seat_name(seat)}'s hand" if hand else f"{info.seat_name(seat)}: no cards"
        self.hand_title.position = (x + 18, y + HAND_HEIGHT - 22, 0)
        px = x + w - 40 - HAND_CELL                       # the draw pile's place, bottom right
        # a narrow window: the hand's cards smaller (to 70 %), so that they still stand apart
        count = max(1, len(hand))
        wanted = count * 2 * HAND_CELL + (count - 1) * 22
        free = px - HAND_CELL - 16 - (x + 30)
        self.hand_cell = cell = max(HAND_CELL * 0.7, min(HAND_CELL, HAND_CELL * free / wanted))
        start = x + 30 + cell
        room = px - HAND_CELL - cell - 16 - start         # the last card ends before the pile
        gap = min(2 * cell + 22, room / max(1, len(hand) - 1))
        for n, kind in enumerate(hand):
            cx, cy = start + n * gap, y + HAND_HEIGHT / 2 - 10
            image = _Images.face(kind, 6) if kind != UNKNOWN else _Images.back()
            card = sprite.Sprite(image, cx, cy, batch=self.batch, group=G_STRIP_CARDS)
            card.scale = cell / art.CELL_PX
            if n == self.held:
                card.opacity = 70
            self.hand_sprites.append((card, kind))
            if kind != UNKNOWN:                       # the number key that takes this card
                self.others.append(label(str(n + 1), cx - cell + 2, cy + cell / 2 + 4, size=10,
                                         batch=self.batch, group=G_TEXT, color=(230, 210, 170, 255)))
        # the draw pile: a stack of backs, bottom right
        count = state.pile_count()
        for n in range(min(6, (count + 9) // 10)):
            card = sprite.Sprite(_Images.back(), px + n * 1.5, y + HAND_HEIGHT / 2 - 6 + n * 2.5,
                                 batch=self.batch, group=G_STRIP_CARDS)
            card.scale = HAND_CELL / art.CELL_PX
            self.pile_sprites.append(card)
        self.pile_label.text = f"draw pile: {count}"
        self.pile_label.position = (px, y + 24, 0)
        self._draw_gone(px - HAND_CELL - 18, start + (len(hand) - 1) * gap + cell if hand else x + 30)
        # the other hands, face down with their counts
        others = [s for s in range(state.num_players) if s != seat]
        slot = w / max(1, len(others))
        small = 15.0
        for n, other in enumerate(others):
            left = x + n * slot + 16
            top = y + h - TOP_HEIGHT / 2
            acting = state.current_player() == other
            doing = "  (to discard)" if state.phase in ("discard", "alarm") else "  (to play)"
            name = label(f"{info.seat_name(other)}{doing if acting else ''}",
                         left, top + 10, size=11, batch=self.batch, group=G_TEXT,
                         color=(240, 226, 190, 255), bold=acting)
            self.others.append(name)
            for c in range(len(state.hands[other])):
                back = sprite.Sprite(_Images.back(), left + small + c * (2 * small + 6), top - 12,
                                     batch=self.batch, group=G_STRIP_CARDS)
                back.scale = small / art.CELL_PX
                self.others.append(back)
            in_hand = len(state.hands[other])
            count_label = label(f"{in_hand} card{'s' if in_hand != 1 else ''}", left + 4 * (2 * small + 6) + 6, top - 16,
                                size=10, batch=self.batch, group=G_TEXT, color=(200, 186, 150, 255))
            self.others.append(count_label)

    def _draw_gone(self, right: float, hand_end: float) -> None:
        """The cards out of the game, face up for everyone (the latest few), between the hand
        and the pile; hovering them names them all. Where the hand leaves no room, only their
        count, under the pile."""
        gone = self.state.removed
        self.gone_rect = (0.0, 0.0, 0.0, 0.0)
        if not gone:
            return
        small = 10.0
        shown = gone[-6:]
        left = right - len(shown) * (2 * small + 5)
        y = self.area[1]
        if left < hand_end + 12:                  # a narrow window: their count under the pile
            self.pile_label.text += f" · out: {len(gone)}"
            width = self.pile_label.content_width
            self.gone_rect = (self.pile_label.x - width / 2, y + 6, width, 20.0)
            return
        for n, kind in enumerate(shown):
            card = sprite.Sprite(_Images.face(kind, 6), left + small + n * (2 * small + 5), y + HAND_HEIGHT / 2 - 6,
                                 batch=self.batch, group=G_STRIP_CARDS)
            card.scale = small / art.CELL_PX
            self.others.append(card)
        self.others.append(label(f"out of the game: {len(gone)}", left, y + 24, size=10, batch=self.batch,
                                 group=G_TEXT, color=(200, 186, 150, 255)))
        self.gone_rect = (left, y + 14, right - left, HAND_HEIGHT / 2 + 2 * small - 6)

    def _draw_banner(self) -> None:
        x, y, w, h = self.area
        text = self._in_words() if self.state.is_terminal() else self.state.event
        banner = self.banner
        banner.multiline, banner.width = False, None
        banner.text = text
        shrink_to_width(banner, w - 60, 13, 10)
        if banner.content_width > w - 60:         # a small window: the sentence in lines
            banner.width, banner.multiline = int(w - 60), True
        bw = min(w - 30, banner.content_width + 30)
        bh = max(30.0, banner.content_height + 12)
        top = y + h - TOP_HEIGHT - 10
        self.banner_box.width, self.banner_box.height = bw, bh
        self.banner_box.position = (x + w / 2 - bw / 2, top - bh)
        banner.position = (x + w / 2, top - bh / 2, 0)
        self.banner_box.visible = banner.visible = bool(text)

    def _draw_marks(self) -> None:
        """Open exits (small lights), and in the dynamite phase the cards that may be blown up."""
        for mark in self.marks:
            mark.delete()
        self.marks = []
        state = self.state
        r = max(2.5, self.cell * 0.1)
        for (x, y), mask in state.cell_mask.items():
            for d in range(4):
                if not mask >> d & 1:
                    continue
                n = (x + DIRS[d][0], y + DIRS[d][1])
                if n in state.cell_mask:
                    continue
                px, py = self.to_pixel(x + 0.5 + DIRS[d][0] * 0.5, y + 0.5 + DIRS[d][1] * 0.5)
                if self.on_board(px, py):
                    self.marks.append(shapes.Circle(px, py, r, color=(255, 214, 90, 220), batch=self.batch,
                                                    group=self.g_marks))
        if state.phase == "blow" and self.may_act():
            for move in state.legal_actions():
                index = state.cell_card[(move.x, move.y)]
                self.marks.append(self._outline(index, (230, 50, 40, 255)))
        dead = self._cell_that_lost()
        if dead is not None:                  # the cell no card left could fill, ringed red
            px, py = self.to_pixel(dead[0], dead[1])
            self.marks.append(shapes.Box(px + 2, py + 2, self.cell - 4, self.cell - 4,
                                         thickness=max(3.0, self.cell * 0.09), color=(235, 40, 30, 255),
                                         batch=self.batch, group=self.g_marks))

    def _outline(self, index: int, colour: tuple) -> Any:
        _, x, y, rotation, _ = self.state.placed[index]
        cx, cy = self.to_pixel(*self.card_centre(x, y, rotation))
        w, h = (2 * self.cell, self.cell) if rotation % 2 == 0 else (self.cell, 2 * self.cell)
        return shapes.Box(cx - w / 2, cy - h / 2, w, h, thickness=max(2.0, self.cell * 0.07), color=colour,
                          batch=self.batch, group=self.g_marks)


    def _may_place(self) -> bool:
        return self.may_act() and self.state.phase == "play"

    def _refresh_button(self) -> None:
        state = self.state
        x, y, w, _ = self.area
        bx, by = x + w - 2 * HAND_CELL - 150, y + HAND_HEIGHT - 44
        if not self.may_act():
            self.button.set_visible(False)
        elif state.phase == "play" and state.legal_actions() in ([SWAP], [PASS]):
            legal = state.legal_actions()[0]
            self.button.show("Swap hand" if legal == SWAP else "Pass", legal, bx, by)
        elif state.phase == "discard":
            self.button.show("Keep the rest", KEEP, bx, by)
        else:
            self.button.set_visible(False)

    # --- the held card ---------------------------------------------------------------------------
    def _pick(self, index: int, dragging: bool = True) -> None:
        self.held = index
        self.held_kind = self._hand()[index]
        self.side = 6
        self.dragging = dragging
        self.key_target = None
        self._hand_key = None
        self._draw_hands()
        self._refresh_held()

    def _drop_held(self) -> None:
        self.held = None
        self.held_kind = UNKNOWN
        self.dragging = False
        self.target = None
        self.key_target = None
        self.ghost.visible = False
        for mark in self.hover_marks:
            mark.delete()
        self.hover_marks = []
        self._hand_key = None

    def _held_side(self) -> int:
        return self.side if KINDS[self.held_kind].two_sided else 0

    def _spots(self) -> list[Move]:
        if self.held is None:
            return []
        state = self.state
        return [m for m in state.placements([self.held_kind])
                if m.side == self._held_side() and self._same_rotation(m)]

    def _other_side(self) -> int:
        return SIDES[0] if self.side == SIDES[1] else SIDES[1]

    def _other_side_fits(self) -> bool:
        """The held card is two-sided and its other side fits somewhere."""
        if self.held is None or not KINDS[self.held_kind].two_sided:
            return False
        other = self._other_side()
        return any(m.side == other for m in self.state.placements([self.held_kind]))

    def _same_rotation(self, move: Move) -> bool:
        """The move puts the card as the held one is turned (a symmetric card's half turn counts)."""
        if move.rotation == self.rotation:
            return True
        return (move.rotation + 2) % 4 == self.rotation and move.rotation < 2 and \
            KINDS[move.card].openings(move.side) in _SYMMETRIC

    def _key_spots(self) -> list[Move]:
        """Every spot where the held card fits, in any rotation, once each (a symmetric card turned
        half round is the same spot), in reading order: top row first, left to right."""
        seen: dict[tuple, Move] = {}
        for move in self.state.placements([self.held_kind]):
            if move.side != self._held_side():
                continue
            a = (move.x, move.y)
            b = (move.x + DIRS[move.rotation][0], move.y + DIRS[move.rotation][1])
            symmetric = KINDS[move.card].openings(move.side) in _SYMMETRIC
            seen.setdefault((frozenset((a, b)), move.rotation % 2 if symmetric else move.rotation), move)
        return sorted(seen.values(), key=lambda m: (-self.card_centre(m.x, m.y, m.rotation)[1],
                                                    self.card_centre(m.x, m.y, m.rotation)[0], m.rotation))

    def _step_key_target(self, step: int) -> None:
        spots = self._key_spots()
        if not spots and self._other_side_fits():         # the super card: its side that fits
            self.side = self._other_side()
            spots = self._key_spots()
        if not spots:
            self.toast.show("this card fits nowhere in the network now")
            return
        index = spots.index(self.key_target) if self.key_target in spots else (-1 if step > 0 else 0)
        self.key_target = spots[(index + step) % len(spots)]
        self.rotation = self.key_target.rotation
        self._show_cell(*self.card_centre(self.key_target.x, self.key_target.y, self.key_target.rotation))
        self._refresh_held()

    def _step_key_blast(self, step: int) -> None:
        state = self.state
        targets = sorted({state.cell_card[(m.x, m.y)] for m in state.legal_actions()},
                         key=lambda i: (-self.card_centre(*state.placed[i][1:4])[1],
                                        self.card_centre(*state.placed[i][1:4])[0]))
        if not targets:
            return
        index = targets.index(self.key_blast) if self.key_blast in targets else (-1 if step > 0 else 0)
        self.key_blast = targets[(index + step) % len(targets)]
        _, x, y, rotation, _ = state.placed[self.key_blast]
        self._show_cell(*self.card_centre(x, y, rotation))
        self._refresh_held()

    def _step_key_discard(self, step: int) -> None:
        count = len(self._hand())
        if not count:
            return
        index = self.key_discard if self.key_discard is not None and self.key_discard < count \
            else (-1 if step > 0 else 0)
        self.key_discard = (index + step) % count
        self._refresh_held()

    def _show_cell(self, wx: float, wy: float) -> None:
        """Pan so that a world point chosen from the keyboard is on the table."""
        px, py = self.to_pixel(wx, wy)
        bx, by, bw, bh = self.board_rect()
        margin = 1.5 * self.cell
        if bx + margin <= px <= bx + bw - margin and by + margin <= py <= by + bh - margin:
            return
        self.cam = (wx, wy)      # for this choice only: the next move fits the network again if it followed
        self._draw_network()
        self._draw_marks()

    def _raw_move(self) -> Move:
        """The placement under the mouse: the held card's middle on the mouse."""
        wx, wy = self.to_world(*self.mouse)
        dx, dy = DIRS[self.rotation]
        ax, ay = math.floor(wx - dx * 0.5), math.floor(wy - dy * 0.5)
        return Move("place", self.held_kind, ax, ay, self.rotation, self._held_side())

    def _refresh_held(self) -> None:
        for mark in self.hover_marks:
            mark.delete()
        self.hover_marks = []
        self.target = None
        if self.held is None:
            self.ghost.visible = False
            self._hover_hint()
            return
        spots = self._spots()
        for move in spots:
            self.hover_marks.append(self._spot_mark(move, (255, 210, 60, 90)))
        every_turn = self._key_spots()
        every = len(every_turn)
        if not spots:
            self.hint = ("This card fits nowhere as it is turned: press R or turn the wheel." if every
                         else "This side fits nowhere: press S for the other side." if self._other_side_fits()
                         else "This card fits nowhere in the network now.")
        elif every > len(spots):
            self.hint = (f"Lit: the {len(spots)} spot{'s' if len(spots) != 1 else ''} where it fits as it is "
                         f"turned; R or the wheel shows {every - len(spots)} more.")
        raw = self._raw_move()
        over_board = self.on_board(*self.mouse)
        refused = False                 # over the table where it does not fit: the card shows red
        if self.key_target is not None:
            self.target = self.key_target
            self.hover_marks.append(self._spot_mark(self.target, (120, 240, 120, 120), chosen=True))
            where = (f" (spot {every_turn.index(self.target) + 1} of {every})"
                     if self.target in every_turn else "")
            self.hint = f"Enter places it{where}; Tab: the next spot, Esc: put it back."
        elif over_board:
            best = None
            cx, cy = self.to_world(*self.mouse)
            for move in spots:
                mx, my = self.card_centre(move.x, move.y, move.rotation)
                distance = math.hypot(mx - cx, my - cy)
                if distance <= SNAP and (best is None or distance < best[0]):
                    best = (distance, move)
            if best is not None:
                self.target = best[1]
                self.hover_marks.append(self._spot_mark(best[1], (120, 240, 120, 120), chosen=True))
                self.hint = "Drop to place it here."
            elif spots:
                self.hint = self.refusal_words(self.state.refusal_of(raw))
                refused = True
        self.ghost.image = _Images.face(self.held_kind, self._held_side())
        self.ghost.color = (255, 120, 110) if refused else (255, 255, 255)
        self.ghost.visible = True
        self.ghost.rotation = -90 * self.rotation
        if self.target is not None:
            self.ghost.position = (*self.to_pixel(*self.card_centre(self.target.x, self.target.y,
                                                                    self.target.rotation)), 0)
            self.ghost.scale = self.cell / art.CELL_PX
            if self.target.rotation != self.rotation:
                self.ghost.rotation = -90 * self.target.rotation
            self.ghost.opacity = 235
        else:
            self.ghost.position = (*self.mouse, 0)
            self.ghost.scale = (self.cell if over_board else self.hand_cell) / art.CELL_PX
            self.ghost.opacity = 190

    def _spot_mark(self, move: Move, colour: tuple, chosen: bool = False) -> Any:
        """A lit spot; the chosen one is ringed above the held card, so it shows where it goes."""
        cx, cy = self.to_pixel(*self.card_centre(move.x, move.y, move.rotation))
        w, h = (2 * self.cell, self.cell) if move.rotation % 2 == 0 else (self.cell, 2 * self.cell)
        fill = shapes.Rectangle(cx - w / 2 + 2, cy - h / 2 + 2, w - 4, h - 4, color=colour,
                                batch=self.batch, group=self.g_marks)
        edge = shapes.Box(cx - w / 2 + 1, cy - h / 2 + 1, w - 2, h - 2, thickness=3 if chosen else 2,
                          color=(colour[0], colour[1], colour[2], 255 if chosen else 230), batch=self.batch,
                          group=G_FOCUS if chosen else self.g_marks)
        self.hover_marks.append(edge)
        return fill

    def _hover_hint(self) -> None:
        """Without a held card: what the thing under the mouse does."""
        state = self.state
        self.hint = ""
        if not self.enabled:
            return
        if self.key_blast is not None and state.phase == "blow" and self.key_blast < len(state.placed):
            self.hover_marks.append(self._outline(self.key_blast, (255, 240, 120, 255)))
            self.hint = f"Enter blows up {KINDS[state.placed[self.key_blast][0]].title()}; Tab: the next one."
            return
        if self.key_discard is not None and state.phase in ("discard", "alarm") \
                and self.key_discard < len(self.hand_sprites):
            chosen, kind = self.hand_sprites[self.key_discard]
            w, h = 2 * self.hand_cell, self.hand_cell
            self.hover_marks.append(shapes.Box(chosen.x - w / 2 - 3, chosen.y - h / 2 - 3, w + 6, h + 6, thickness=3,
                                               color=(255, 240, 120, 255), batch=self.batch, group=G_FOCUS))
            self.hint = f"Enter discards {KINDS[kind].title()}; Tab: the next card."
            return
        gx, gy, gw, gh = self.gone_rect
        if gx <= self.mouse[0] < gx + gw and gy <= self.mouse[1] < gy + gh:
            self.hint = "Out of the game, latest first: " + _tally(state.removed[::-1]) + "."
            return
        index = self._hand_index_at(*self.mouse)
        if index is not None:
            kind = self._hand()[index]
            if kind != UNKNOWN:
                effect = _EFFECTS.get(KINDS[kind].icon, "")
                self.hint = KINDS[kind].title() + (f": {effect}." if effect else ".")
                if state.phase in ("discard", "alarm") and self.may_act():
                    self.hint = f"Click to discard {KINDS[kind].title()}."
            return
        if state.phase == "blow" and self.may_act() and self.on_board(*self.mouse):
            cell = self.cell_at(*self.mouse)
            card = state.cell_card.get(cell)
            if card is not None:
                _, x, y, _, _ = state.placed[card]
                move = Move("blow", -1, x, y)
                self.hint = ("Click to blow it up." if state.is_legal(move) else state.illegal_reason(move))
                self.hover_marks.append(self._outline(card, (255, 240, 120, 255) if state.is_legal(move)
                                                      else (120, 120, 120, 200)))

    def _hand_index_at(self, px: float, py: float) -> int | None:
        for n, (card, _) in enumerate(self.hand_sprites):
            if abs(px - card.x) <= self.hand_cell and abs(py - card.y) <= self.hand_cell / 2:
                return n
        return None

    # --- input ---------------------------------------------------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        self.mouse = (float(x), float(y))
        if dx or dy:
            self.key_target = self.key_blast = self.key_discard = None   # the mouse takes over
        self._refresh_held()
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if not self.enabled or not self.contains(x, y):
            return None
        self.mouse = (float(x), float(y))
        if button in (mouse.RIGHT, mouse.MIDDLE):
            if self.held is not None and button == mouse.RIGHT:
                self._turn(1)
                return True
            self.panning = True
            return True
        if button != mouse.LEFT:
            return None
        if self.button.contains(x, y) and self.button.action is not None:
            self.submit(self.button.action)
            return True
        state = self.state
        index = self._hand_index_at(x, y)
        if index is not None:
            return self._press_hand(index)
        if self.held is not None:
            if self.on_board(x, y):
                self._place_held()
            return True
        if state.phase == "blow" and self.may_act() and self.on_board(x, y):
            card = state.cell_card.get(self.cell_at(x, y))
            if card is not None:
                _, cx, cy, _, _ = state.placed[card]
                self.submit(Move("blow", -1, cx, cy))
                return True
        if self.on_board(x, y):
            self.panning = True
            return True
        return None

    def _press_hand(self, index: int) -> bool:
        state = self.state
        if self.controller.is_over():
            return True
        if not self.controller.is_person_turn():
            self.toast.show("wait: the computer is playing")
            return True
        kind = self._hand()[index]
        if state.phase in ("discard", "alarm"):
            if self.submit(Move("discard", kind)):
                self.key_discard = None
            return True
        if state.phase == "blow":
            self.toast.show("first choose the card the dynamite blows up (ringed red)")
            return True
        if state.phase == "play":
            if self.held == index:
                self._drop_held()
                self._draw_hands()
            else:
                self._pick(index)
        return True

    def _key_hand(self, index: int) -> bool:
        """A number key: the hand's card at that place, as a click on it; picked up this way,
        it goes at once to the first spot where it fits."""
        self._press_hand(index)
        if self.held == index:
            self.dragging = False
            self._step_key_target(1)
        return True

    def _place_held(self) -> None:
        move = self.target if self.target is not None else self._raw_move()
        if self.submit(move):
            self._drop_held()

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        self.mouse = (float(x), float(y))
        if self.panning:
            self.panning = False
            return True
        if self.held is not None and self.dragging and button == mouse.LEFT:
            self.dragging = False
            if self.on_board(x, y):
                self._place_held()
                return True
            self._refresh_held()       # released over the hand: the card stays picked up
            return True
        return None

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        self.mouse = (float(x), float(y))
        if self.panning:
            self.follow = False
            self.cam = (self.cam[0] - dx / self.cell, self.cam[1] - dy / self.cell)
            self._moved()
            return True
        if self.held is not None:
            self._refresh_held()
            return True
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        if not self.enabled or not self.contains(x, y) or not scroll_y:
            return None
        self.mouse = (float(x), float(y))
        if self.held is not None:
            self._turn(1 if scroll_y > 0 else -1)
            return True
        if self.on_board(x, y):
            self._zoom(1.15 if scroll_y > 0 else 1 / 1.15, x, y)
            return True
        return None

    def _turn(self, step: int) -> None:
        self.rotation = (self.rotation + step) % 4
        if self.key_target is not None:      # keyboard play: the first spot for the new turn
            self.key_target = next((m for m in self._key_spots() if self._same_rotation(m)), None)
        self._refresh_held()

    def _zoom(self, factor: float, px: float | None = None, py: float | None = None) -> None:
        bx, by, bw, bh = self.board_rect()
        px = bx + bw / 2 if px is None else px
        py = by + bh / 2 if py is None else py
        before = self.to_world(px, py)
        self.cell = max(MIN_CELL, min(MAX_CELL, self.cell * factor))
        after = self.to_world(px, py)
        self.cam = (self.cam[0] + before[0] - after[0], self.cam[1] + before[1] - after[1])
        self.follow = False
        self._moved()

    def _moved(self) -> None:
        self._draw_network()
        self._draw_marks()
        self._refresh_held()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if not self.enabled or modifiers & (key.MOD_CTRL | key.MOD_ALT):
            return None
        if symbol == key.R and self.held is not None:
            self._turn(-1 if modifiers & key.MOD_SHIFT else 1)
            return True
        if symbol == key.S and self.held is not None and KINDS[self.held_kind].two_sided:
            self.side = self._other_side()
            if self.key_target is not None:     # keyboard play: the same spot if this side fits it
                before = self.key_target
                spots = self._key_spots()
                self.key_target = next((m for m in spots if (m.x, m.y, m.rotation) ==
                                        (before.x, before.y, before.rotation)), spots[0] if spots else None)
                if self.key_target is not None:
                    self.rotation = self.key_target.rotation
            self._refresh_held()
            return True
        if symbol == key.ESCAPE and self.held is not None:
            self._drop_held()
            self._draw_hands()
            return True
        if key._1 <= symbol <= key._9 and symbol - key._1 < len(self._hand()):
            return self._key_hand(symbol - key._1)
        if symbol == key.TAB and self.held is not None:
            self._step_key_target(-1 if modifiers & key.MOD_SHIFT else 1)
            return True
        if symbol == key.TAB and self.state.phase == "play" and self._may_place():
            # nothing held yet: the first hand card that fits, at its first spot (as its number key)
            state = self.state
            first = next((n for n, kind in enumerate(self._hand()) if state.placements([kind])), None)
            if first is not None:
                return self._key_hand(first)
        if symbol == key.TAB and self.state.phase == "blow" and self.may_act():
            self._step_key_blast(-1 if modifiers & key.MOD_SHIFT else 1)
            return True
        if self.state.phase in ("discard", "alarm") and self.may_act():
            # the discard's own keys: Tab and Enter never go on to the panel's buttons (Save, Load)
            if symbol == key.TAB:
                self._step_key_discard(-1 if modifiers & key.MOD_SHIFT else 1)
                return True
            if symbol in (key.ENTER, key.RETURN, key.SPACE, key.NUM_ENTER):
                if self.key_discard is not None:
                    self._press_hand(self.key_discard)
                elif self.state.phase == "discard":
                    self.submit(KEEP)
                else:
                    self.toast.show("Tab to the card to discard (or press 1-4), then Enter")
                return True
        if symbol in (key.ENTER, key.RETURN, key.SPACE, key.NUM_ENTER):
            if self.held is not None and self.key_target is not None:
                self._place_held()
                return True
            if self.key_blast is not None and self.state.phase == "blow" and self.may_act():
                _, x, y, _, _ = self.state.placed[self.key_blast]
                if self.submit(Move("blow", -1, x, y)):
                    self.key_blast = None
                return True
        if symbol in (key.K, key.ENTER, key.RETURN) and self.button.action is not None:
            self.submit(self.button.action)
            return True
        pans = {key.LEFT: (-2, 0), key.RIGHT: (2, 0), key.UP: (0, 2), key.DOWN: (0, -2)}
        if symbol in pans:
            self.follow = False
            self.cam = (self.cam[0] + pans[symbol][0], self.cam[1] + pans[symbol][1])
            self._moved()
            return True
        if symbol in (key.PLUS, key.EQUAL, key.NUM_ADD):
            self._zoom(1.2)
            return True
        if symbol in (key.MINUS, key.NUM_SUBTRACT):
            self._zoom(1 / 1.2)
            return True
        if symbol == key.HOME:
            self.follow = True
            self.fit()
            self._moved()
            return True
        return None

    # --- the shared panel --------------------------------------------------------------------------------
    def prompt(self) -> str:
        state = self.state
        if state.phase == "blow":
            return "Dynamite: click the card to blow up (or Tab to it, Enter)."
        if state.phase == "discard":
            return "Click cards (or press 1-4, or Tab, Enter) to discard up to 2, then Keep the rest (K)."
        if state.phase == "alarm":
            return "Alarm: click a card (or press 1-4, or Tab, Enter) to discard."
        legal = state.legal_actions()
        if legal == [SWAP]:
            return "No card fits: swap your hand."
        if legal == [PASS]:
            return "No card fits and the pile is short: pass."
        return "Drag a card onto a lit spot; R or the wheel turns it (keys: 1-4, Tab, Enter)."

    def describe_move(self, notation: str) -> str:
        """A move in words; a draw without its card (the history line is seen by everyone)."""
        words = notation.split()
        if not words or words[0] == "draw":
            return "a card is drawn"
        kind = BY_CODE.get(words[1]) if len(words) > 1 else None
        if words[0] == "place" and kind is not None:
            return f"placed {kind.title()}"
        if words[0] == "discard" and kind is not None:
            return f"discarded {kind.title()}"
        return {"blow": "blew up a card", "swap": "swapped their hand", "pass": "passed",
                "keep": "kept the rest of their hand"}.get(words[0], notation)

    def seat_detail(self, seat: int) -> str:
        state = self.state
        count = len(state.hands[seat])
        cards = f"{count} card{'s' if count != 1 else ''}"
        # the skip first: a narrow panel cuts the end of the line
        return f"skips next turn, {cards}" if state.skip[seat] else cards

    def refusal_words(self, refused: Refusal) -> str:
        """Without the grid's coordinates: the held card shows red where it was refused."""
        if refused.code == "taken":
            return "a card already lies there"
        side = _ON_SCREEN.get(str(refused.fields.get("side")), "")
        if refused.code == "tunnel_into_earth" and side:
            return f"a tunnel would run into earth on the {side} side of the card"
        if refused.code == "earth_meets_tunnel" and side:
            return f"an open tunnel would meet earth on the {side} side of the card"
        return refused.text

    def result_title(self) -> str:
        return "The team lost" if self.state.result == "lost" else ""

    def _cell_that_lost(self) -> tuple[int, int] | None:
        """The cell the game was lost to (the early loss names it), or None."""
        ending = self.state.ending()
        if ending is None or ending.code != "cell_never_closed":
            return None
        x, y = ending.fields["cell"]
        return (x, y)

    def _in_words(self) -> str:
        """Why the game ended, with the cell it was lost to pointed at on the table (it is
        ringed red) instead of named by its grid coordinates."""
        ending = self.state.ending()
        if ending is None:
            return ""
        if ending.code == "cell_never_closed":
            return ("The tunnel into the cell ringed red on the table can never be closed: no card "
                    "left in the game fits there, and no dynamite is left.")
        return ending.text

    def result_text(self) -> str:
        state = self.state
        pile = state.pile_count()
        return (f"{self._in_words()} ({state.turns} turns, {state.exits} exits open, "
                f"{pile} card{'s' if pile != 1 else ''} in the pile.)")

    def close(self) -> None:
        self._drop_held()


_ON_SCREEN = {"east": "right", "north": "top", "west": "left", "south": "bottom"}
_EFFECTS = {                 # what an icon does, said when the mouse is on a hand card
    "backpack": "when you place it, you draw 1 extra card (a hand of 4 until you play it)",
    "dynamite": "when you place it, you blow up one card whose loss cuts nothing off",
    "discard": "when you place it, everyone may discard up to 2 cards and draw back up",
    "skip": "when you place it, you miss your next turn",
    "ladder": "Bandida's way out: it must be in the network before the last tunnel closes",
    "super": "it must be in the network before the last tunnel closes; S turns it over",
}


def _tally(kinds: list[int], most: int = 8) -> str:
    """'tunnel (A-end) x2; alarm 1; ...': each kind once, in the order first met, with its count."""
    counts: dict[int, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    parts = [KINDS[k].title() + (f" x{n}" if n > 1 else "") for k, n in counts.items()]
    return "; ".join(parts[:most]) + (f"; and {len(parts) - most} more kinds" if len(parts) > most else "")


_SYMMETRIC = frozenset(o for o in {k.openings(side) for k in KINDS for side in (5, 6)} if o and is_symmetric(o))
