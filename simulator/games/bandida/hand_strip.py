"""The strips along Bandida's table: at the bottom the viewing seat's hand face up (with the
number key that takes each card), the draw pile with its count and the cards out of the game
face up; at the top the other seats' hands face down with their counts. Where the hand's cards
are is also where the mouse finds them (`index_at`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyglet import shapes, sprite
from pyglet.graphics import Batch

from simulator.games.bandida import art
from simulator.games.bandida.cards import UNKNOWN
from simulator.games.bandida.layers import G_STRIP, G_STRIP_CARDS, G_TEXT
from simulator.games.bandida.rules import BandidaState
from simulator.render.widgets import Area, label

HAND_HEIGHT = 132.0          # the strip of the viewer's hand and the pile
TOP_HEIGHT = 58.0            # the strip of the other hands
HAND_CELL = 50.0             # pixels per cell of a hand card


class HandStrip:
    """The hands, the pile and the cards out of the game, redrawn when any of them changed."""

    def __init__(self, batch: Batch, viewer: Callable[[], int | None], seat_name: Callable[[int], str]) -> None:
        self.batch = batch
        self.viewer = viewer
        self.seat_name = seat_name
        self.strip = shapes.Rectangle(0, 0, 1, HAND_HEIGHT, color=art.STRIP, batch=batch, group=G_STRIP)
        self.edge = shapes.Rectangle(0, 0, 1, 4, color=art.STRIP_EDGE, batch=batch, group=G_STRIP)
        self.top_strip = shapes.Rectangle(0, 0, 1, TOP_HEIGHT, color=art.TOP_STRIP, batch=batch, group=G_STRIP)
        self.pile_label = label("", size=12, batch=batch, group=G_TEXT, anchor_x="center", anchor_y="top",
                                color=art.PILE_TEXT)
        self.title = label("", size=11, batch=batch, group=G_TEXT, color=art.HAND_TEXT)
        self.sprites: list[tuple[sprite.Sprite, int]] = []     # the hand's cards and their kinds
        self.others: list[Any] = []
        self.pile_sprites: list[sprite.Sprite] = []
        self.cell = HAND_CELL                # pixels per cell of a hand card, as drawn
        self.gone_rect = (0.0, 0.0, 0.0, 0.0)      # where the cards out of the game are shown
        self._drawn: Any = None

    def seat(self, state: BandidaState) -> int:
        """Whose hand lies face up: the viewer's, or with all eyes (a replay) the seat acting."""
        viewer = self.viewer()
        if viewer is not None:
            return viewer
        return state.actor if state.phase in ("discard", "alarm", "blow") else state.turn

    def kinds(self, state: BandidaState) -> list[int]:
        """The cards of the hand shown."""
        return state.hands[self.seat(state)]

    def layout(self, x: float, y: float, width: float, height: float) -> None:
        self.strip.position = (x, y)
        self.strip.width = width
        self.edge.position = (x, y + HAND_HEIGHT - 4)
        self.edge.width = width
        self.top_strip.position = (x, y + height - TOP_HEIGHT)
        self.top_strip.width = width
        self.forget()

    def forget(self) -> None:
        """Draw everything anew at the next draw()."""
        self._drawn = None

    def index_at(self, px: float, py: float) -> int | None:
        """The place in the hand of the card under the pixel, or None."""
        for n, (card, _) in enumerate(self.sprites):
            if abs(px - card.x) <= self.cell and abs(py - card.y) <= self.cell / 2:
                return n
        return None

    def over_gone(self, px: float, py: float) -> bool:
        """Is the pixel on the cards out of the game (or their count)?"""
        gx, gy, gw, gh = self.gone_rect
        return gx <= px < gx + gw and gy <= py < gy + gh

    def draw(self, state: BandidaState, area: Area, held: int | None) -> None:
        seat = self.seat(state)
        hand = state.hands[seat]
        key_ = (seat, tuple(hand), tuple(len(h) for h in state.hands), state.pile_count(), area,
                held, state.current_player(), state.phase, len(state.removed))
        if key_ == self._drawn:
            return
        self._drawn = key_
        for card, _ in self.sprites:
            card.delete()
        for item in self.others + self.pile_sprites:
            item.delete()
        self.sprites, self.others, self.pile_sprites = [], [], []
        x, y, w, _h = area
        name = self.seat_name(seat)
        self.title.text = f"{name}'s hand" if hand else f"{name}: no cards"
        self.title.position = (x + 18, y + HAND_HEIGHT - 22, 0)
        px = x + w - 40 - HAND_CELL                       # the draw pile's place, bottom right
        # a narrow window: the hand's cards smaller (to 70 %), so that they still stand apart
        count = max(1, len(hand))
        wanted = count * 2 * HAND_CELL + (count - 1) * 22
        free = px - HAND_CELL - 16 - (x + 30)
        self.cell = cell = max(HAND_CELL * 0.7, min(HAND_CELL, HAND_CELL * free / wanted))
        start = x + 30 + cell
        room = px - HAND_CELL - cell - 16 - start         # the last card ends before the pile
        gap = min(2 * cell + 22, room / max(1, len(hand) - 1))
        for n, kind in enumerate(hand):
            cx, cy = start + n * gap, y + HAND_HEIGHT / 2 - 10
            image = art.face_image(kind, 6) if kind != UNKNOWN else art.back_image()
            card = sprite.Sprite(image, cx, cy, batch=self.batch, group=G_STRIP_CARDS)
            card.scale = cell / art.CELL_PX
            if n == held:
                card.opacity = 70
            self.sprites.append((card, kind))
            if kind != UNKNOWN:                       # the number key that takes this card
                self.others.append(label(str(n + 1), cx - cell + 2, cy + cell / 2 + 4, size=10,
                                         batch=self.batch, group=G_TEXT, color=art.HAND_TEXT))
        # the draw pile: a stack of backs, bottom right
        count = state.pile_count()
        for n in range(min(6, (count + 9) // 10)):
            card = sprite.Sprite(art.back_image(), px + n * 1.5, y + HAND_HEIGHT / 2 - 6 + n * 2.5,
                                 batch=self.batch, group=G_STRIP_CARDS)
            card.scale = HAND_CELL / art.CELL_PX
            self.pile_sprites.append(card)
        self.pile_label.text = f"draw pile: {count}"
        self.pile_label.position = (px, y + 24, 0)
        self._draw_gone(state, y, px - HAND_CELL - 18, start + (len(hand) - 1) * gap + cell if hand else x + 30)
        self._draw_others(state, seat, area)

    def _draw_others(self, state: BandidaState, seat: int, area: Area) -> None:
        """The other hands, face down with their counts."""
        x, y, w, h = area
        others = [s for s in range(state.num_players) if s != seat]
        slot = w / max(1, len(others))
        small = 15.0
        for n, other in enumerate(others):
            left = x + n * slot + 16
            top = y + h - TOP_HEIGHT / 2
            acting = state.current_player() == other
            doing = "  (to discard)" if state.phase in ("discard", "alarm") else "  (to play)"
            name = label(f"{self.seat_name(other)}{doing if acting else ''}",
                         left, top + 10, size=11, batch=self.batch, group=G_TEXT,
                         color=art.PILE_TEXT, bold=acting)
            self.others.append(name)
            for c in range(len(state.hands[other])):
                back = sprite.Sprite(art.back_image(), left + small + c * (2 * small + 6), top - 12,
                                     batch=self.batch, group=G_STRIP_CARDS)
                back.scale = small / art.CELL_PX
                self.others.append(back)
            in_hand = len(state.hands[other])
            count_label = label(f"{in_hand} card{'s' if in_hand != 1 else ''}", left + 4 * (2 * small + 6) + 6, top - 16,
                                size=10, batch=self.batch, group=G_TEXT, color=art.NOTE_TEXT)
            self.others.append(count_label)

    def _draw_gone(self, state: BandidaState, y: float, right: float, hand_end: float) -> None:
        """The cards out of the game, face up for everyone (the latest few), between the hand
        and the pile; hovering them names them all. Where the hand leaves no room, only their
        count, under the pile."""
        gone = state.removed
        self.gone_rect = (0.0, 0.0, 0.0, 0.0)
        if not gone:
            return
        small = 10.0
        shown = gone[-6:]
        left = right - len(shown) * (2 * small + 5)
        if left < hand_end + 12:                  # a narrow window: their count under the pile
            self.pile_label.text += f" · out: {len(gone)}"
            width = self.pile_label.content_width
            self.gone_rect = (self.pile_label.x - width / 2, y + 6, width, 20.0)
            return
        for n, kind in enumerate(shown):
            card = sprite.Sprite(art.face_image(kind, 6), left + small + n * (2 * small + 5), y + HAND_HEIGHT / 2 - 6,
                                 batch=self.batch, group=G_STRIP_CARDS)
            card.scale = small / art.CELL_PX
            self.others.append(card)
        self.others.append(label(f"out of the game: {len(gone)}", left, y + 24, size=10, batch=self.batch,
                                 group=G_TEXT, color=art.NOTE_TEXT))
        self.gone_rect = (left, y + 14, right - left, HAND_HEIGHT / 2 + 2 * small - 6)
