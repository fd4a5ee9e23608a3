"""What the person points at on Bandida's table, with the mouse or the keyboard: the card held
(picked up from the hand, turned, its side shown, its spots lit, drawn under the mouse or on
the spot it would go to, red where it does not fit), the spot, the card to blow up or the card
to discard chosen with Tab, and the hint about whatever the pointer is on.
"""

from __future__ import annotations

from typing import Any, Protocol

from pyglet import shapes, sprite
from pyglet.graphics import Batch

from simulator.core.errors import Refusal
from simulator.games.bandida import art, spots, words
from simulator.games.bandida.cards import KINDS, UNKNOWN
from simulator.games.bandida.hand_strip import HandStrip
from simulator.games.bandida.layers import G_FOCUS, G_HELD
from simulator.games.bandida.network_drawing import NetworkDrawing
from simulator.games.bandida.rules import BandidaState, Move
from simulator.render.key_targets import step_through
from simulator.render.pan_zoom import PanZoom
from simulator.render.widgets import Area, Toast

SNAP = 0.75                  # cells within which a held card snaps to a legal spot


class Table(Protocol):
    """What the pointer needs of the view whose table it points on."""

    batch: Batch
    enabled: bool
    hint: str
    area: Area
    toast: Toast
    table: PanZoom
    hand: HandStrip
    network: NetworkDrawing

    @property
    def state(self) -> BandidaState: ...

    def may_act(self) -> bool: ...

    def refusal_words(self, refused: Refusal) -> str: ...

    def draw_board(self) -> None: ...


class Pointer:
    """The held card and the things chosen from the keyboard, with their marks and the hint."""

    def __init__(self, view: Table) -> None:
        self.view = view
        self.held: int | None = None                # index into the hand of the card held
        self.held_kind = UNKNOWN
        self.rotation = 0
        self.side = 6
        self.dragging = False
        self.mouse = (0.0, 0.0)
        self.ghost = sprite.Sprite(art.back_image(), batch=view.batch, group=G_HELD)
        self.ghost.visible = False
        self.marks: list[Any] = []                  # lit spots, the chosen spot or card
        self.target: Move | None = None             # where the held card would go now
        self.key_target: Move | None = None         # the spot chosen with Tab (keyboard play)
        self.key_blast: int | None = None           # the card chosen with Tab to blow up
        self.key_discard: int | None = None         # the hand's card chosen with Tab to discard

    # --- the held card ---------------------------------------------------------------------------
    def pick(self, index: int, dragging: bool = True) -> None:
        """Pick up the hand's card at `index` (shown dimmed in the hand while held)."""
        view = self.view
        self.held = index
        self.held_kind = view.hand.kinds(view.state)[index]
        self.side = 6
        self.dragging = dragging
        self.key_target = None
        view.hand.forget()
        view.hand.draw(view.state, view.area, self.held)
        self.refresh()

    def drop(self) -> None:
        """Put the held card back into the hand (the hand is redrawn at its next draw)."""
        self.held = None
        self.held_kind = UNKNOWN
        self.dragging = False
        self.target = None
        self.key_target = None
        self.ghost.visible = False
        self._clear_marks()
        self.view.hand.forget()

    def side_placed(self) -> int:
        """The side a placement of the held card names: the one shown, or 0 (one-sided)."""
        return spots.side_placed(self.held_kind, self.side)

    def spots(self) -> list[Move]:
        """The spots where the held card fits as it is turned and shows its side (lit)."""
        if self.held is None:
            return []
        return spots.spots_as_turned(self.view.state, self.held_kind, self.side, self.rotation)

    def every_spot(self) -> list[Move]:
        """Every spot where the held card fits, in any turn, once each, in the order Tab
        visits them (top row first, left to right)."""
        return spots.every_spot(self.view.state, self.held_kind, self.side)

    def _other_side_fits(self) -> bool:
        return self.held is not None and spots.other_side_fits(self.view.state, self.held_kind, self.side)

    def turn(self, step: int) -> None:
        """Turn the held card a quarter `step` times; chosen from the keyboard, it goes to the
        first spot for the new turn."""
        self.rotation = (self.rotation + step) % 4
        if self.key_target is not None:
            self.key_target = next((m for m in self.every_spot() if spots.same_rotation(m, self.rotation)), None)
        self.refresh()

    def flip(self) -> None:
        """The other side of a two-sided card (S); chosen from the keyboard, the same spot if
        this side fits it, else its first spot."""
        self.side = spots.other_side(self.side)
        if self.key_target is not None:
            before = self.key_target
            every = self.every_spot()
            self.key_target = next((m for m in every if (m.x, m.y, m.rotation) ==
                                    (before.x, before.y, before.rotation)), every[0] if every else None)
            if self.key_target is not None:
                self.rotation = self.key_target.rotation
        self.refresh()

    def can_flip(self) -> bool:
        """A card is held and it has another side (the super card)."""
        return self.held is not None and KINDS[self.held_kind].two_sided

    def move_under_mouse(self) -> Move:
        """The placement under the mouse: the held card's middle on the mouse."""
        wx, wy = self.view.table.to_world(*self.mouse)
        return spots.move_under(self.held_kind, wx, wy, self.rotation, self.side)

    # --- chosen from the keyboard --------------------------------------------------------------------
    def step_spot(self, step: int) -> None:
        """Tab with a card held: the next spot where it fits (the super card: its side that fits)."""
        every = self.every_spot()
        if not every and self._other_side_fits():
            self.side = spots.other_side(self.side)
            every = self.every_spot()
        if not every:
            self.view.toast.show("this card fits nowhere in the network now")
            return
        self.key_target = step_through(every, self.key_target, step)
        assert self.key_target is not None
        self.rotation = self.key_target.rotation
        self._show(*spots.card_centre(self.key_target.x, self.key_target.y, self.key_target.rotation))
        self.refresh()

    def step_blast(self, step: int) -> None:
        """Tab in the dynamite phase: the next card it may blow up."""
        state = self.view.state
        chosen = step_through(spots.blast_targets(state), self.key_blast, step)
        if chosen is None:
            return
        self.key_blast = chosen
        _, x, y, rotation, _ = state.placed[chosen]
        self._show(*spots.card_centre(x, y, rotation))
        self.refresh()

    def step_discard(self, step: int) -> None:
        """Tab in a discard: the hand's next card."""
        count = len(self.view.hand.kinds(self.view.state))
        if not count:
            return
        self.key_discard = step_through(range(count), self.key_discard, step)
        self.refresh()

    def _show(self, wx: float, wy: float) -> None:
        """Pan so that a world point chosen from the keyboard is on the table."""
        if self.view.table.bring_into_view(wx, wy, 1.5 * self.view.table.scale):
            self.view.draw_board()

    # --- marks, the ghost and the hint ------------------------------------------------------------------
    def _clear_marks(self) -> None:
        for mark in self.marks:
            mark.delete()
        self.marks = []

    def refresh(self) -> None:
        """Light the held card's spots and draw it under the mouse or on its spot, or without
        one, ring what is chosen or hovered; say what it would do."""
        view, table = self.view, self.view.table
        self._clear_marks()
        self.target = None
        if self.held is None:
            self.ghost.visible = False
            self._hover_hint()
            return
        lit = self.spots()
        for move in lit:
            self.marks.extend(view.network.spot_mark(move, art.SPOT_LIT))
        every_turn = self.every_spot()
        every = len(every_turn)
        hint = words.held_hint(len(lit), every, self._other_side_fits())
        if hint is not None:
            view.hint = hint
        raw = self.move_under_mouse()
        over_board = table.contains(*self.mouse)
        refused = False                 # over the table where it does not fit: the card shows red
        if self.key_target is not None:
            self.target = self.key_target
            self.marks.extend(view.network.spot_mark(self.target, art.SPOT_CHOSEN, chosen=True))
            where = (f" (spot {every_turn.index(self.target) + 1} of {every})"
                     if self.target in every_turn else "")
            view.hint = f"Enter places it{where}; Tab: the next spot, Esc: put it back."
        elif over_board:
            best = spots.nearest_spot(lit, *table.to_world(*self.mouse), SNAP)
            if best is not None:
                self.target = best
                self.marks.extend(view.network.spot_mark(best, art.SPOT_CHOSEN, chosen=True))
                view.hint = "Drop to place it here."
            elif lit:
                view.hint = view.refusal_words(view.state.refusal_of(raw))
                refused = True
        self._draw_ghost(refused, over_board)

    def _draw_ghost(self, refused: bool, over_board: bool) -> None:
        table, ghost = self.view.table, self.ghost
        ghost.image = art.face_image(self.held_kind, self.side_placed())
        ghost.color = art.REFUSED_TINT if refused else (255, 255, 255)
        ghost.visible = True
        ghost.rotation = -90 * self.rotation
        if self.target is not None:
            ghost.position = (*table.to_pixel(*spots.card_centre(self.target.x, self.target.y,
                                                                 self.target.rotation)), 0)
            ghost.scale = table.scale / art.CELL_PX
            if self.target.rotation != self.rotation:
                ghost.rotation = -90 * self.target.rotation
            ghost.opacity = 235
        else:
            ghost.position = (*self.mouse, 0)
            ghost.scale = (table.scale if over_board else self.view.hand.cell) / art.CELL_PX
            ghost.opacity = 190

    def _hover_hint(self) -> None:
        """Without a held card: what the thing chosen or under the mouse does."""
        view = self.view
        state, hand, network = view.state, view.hand, view.network
        view.hint = ""
        if not view.enabled:
            return
        if self.key_blast is not None and state.phase == "blow" and self.key_blast < len(state.placed):
            self.marks.append(network.outline(state, self.key_blast, art.CHOSEN_RING))
            view.hint = f"Enter blows up {KINDS[state.placed[self.key_blast][0]].title()}; Tab: the next one."
            return
        if self.key_discard is not None and state.phase in ("discard", "alarm") \
                and self.key_discard < len(hand.sprites):
            chosen, kind = hand.sprites[self.key_discard]
            w, h = 2 * hand.cell, hand.cell
            self.marks.append(shapes.Box(chosen.x - w / 2 - 3, chosen.y - h / 2 - 3, w + 6, h + 6, thickness=3,
                                         color=art.CHOSEN_RING, batch=view.batch, group=G_FOCUS))
            view.hint = f"Enter discards {KINDS[kind].title()}; Tab: the next card."
            return
        if hand.over_gone(*self.mouse):
            view.hint = "Out of the game, latest first: " + words.tally(state.removed[::-1]) + "."
            return
        index = hand.index_at(*self.mouse)
        if index is not None:
            kind = hand.kinds(state)[index]
            if kind != UNKNOWN:
                view.hint = words.card_hint(kind)
                if state.phase in ("discard", "alarm") and view.may_act():
                    view.hint = f"Click to discard {KINDS[kind].title()}."
            return
        if state.phase == "blow" and view.may_act() and view.table.contains(*self.mouse):
            card = state.cell_card.get(view.table.cell_at(*self.mouse))
            if card is not None:
                _, x, y, _, _ = state.placed[card]
                move = Move("blow", -1, x, y)
                view.hint = ("Click to blow it up." if state.is_legal(move) else state.illegal_reason(move))
                self.marks.append(network.outline(state, card, art.CHOSEN_RING if state.is_legal(move)
                                                  else art.UNAVAILABLE_RING))
