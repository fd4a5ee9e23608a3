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

This module is the table and its input; its parts draw the network (network_drawing.py) and the
hands (hand_strip.py), follow what the person points at (pointer.py: the held card, the choices
made with Tab, the hint), know where a card may go (spots.py) and say it all in words (words.py).
"""

from __future__ import annotations

from pyglet import shapes, sprite
from pyglet.window import key, mouse

from simulator.core.errors import Refusal
from simulator.games.bandida import art, words
from simulator.games.bandida.hand_strip import HAND_CELL, HAND_HEIGHT, TOP_HEIGHT, HandStrip
from simulator.games.bandida.layers import G_BANNER, G_FELT, G_TEXT
from simulator.games.bandida.network_drawing import NetworkDrawing
from simulator.games.bandida.pointer import Pointer
from simulator.games.bandida.rules import KEEP, PASS, SWAP, BandidaState, Move
from simulator.render.game_view import GameView, ViewContext
from simulator.render.key_targets import CONFIRM_KEYS, tab_step
from simulator.render.pan_zoom import WHEEL_ZOOM, PanZoom
from simulator.render.sound import card_sound
from simulator.render.table_button import TableButton
from simulator.render.widgets import Area, label, shrink_to_width

MIN_CELL, MAX_CELL = 14.0, 90.0


class BandidaView(GameView[BandidaState]):
    state_class = BandidaState
    rules_summary = words.RULES
    controls = words.CONTROLS

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        batch = self.batch
        # the network is panned and zoomed on the felt between the strips, and clipped to it
        self.table = PanZoom(48.0, (1.0, 0.5), MIN_CELL, MAX_CELL)
        self.network = NetworkDrawing(batch, context.window, self.table)
        self.felt = sprite.Sprite(art.felt_image(), batch=batch, group=G_FELT)
        self.vignette = shapes.Box(0, 0, 1, 1, thickness=18, color=art.VIGNETTE, batch=batch, group=G_FELT)
        self.banner_box = shapes.RoundedRectangle(0, 0, 10, 30, radius=8, segments=6, color=art.BANNER,
                                                  batch=batch, group=G_BANNER)
        self.banner = label("", size=13, batch=batch, group=G_TEXT, anchor_x="center", anchor_y="center",
                            color=art.BANNER_TEXT)
        self.hand = HandStrip(batch, context.viewer, self.controller.info.seat_name)
        self.button: TableButton[Move] = TableButton(batch, G_BANNER, G_TEXT)
        self.pointer = Pointer(self)
        self.table.rect = self.board_rect()
        self.sync()

    # --- geometry ---------------------------------------------------------------------------------
    def board_rect(self) -> Area:
        """The felt between the strips, where the network lies (window pixels)."""
        x, y, w, h = self.area
        return x, y + HAND_HEIGHT, w, max(10.0, h - HAND_HEIGHT - TOP_HEIGHT)

    def fit(self) -> None:
        """Zoom and centre so the whole network and a margin around it show."""
        cells = list(self.state.cell_mask) or [(0, 0), (1, 0)]
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        self.table.fit(min(xs), min(ys), max(xs) + 1, max(ys) + 1, margin=2, most=MAX_CELL * 0.8)

    # --- layout and drawing -------------------------------------------------------------------------
    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        self.table.rect = self.network.clip.box = self.board_rect()
        self.felt.position = (x, y, 0)
        self.felt.scale_x = width / art.FELT_PX
        self.felt.scale_y = height / art.FELT_PX
        self.vignette.position = (x, y)
        self.vignette.width, self.vignette.height = width, height
        self.hand.layout(x, y, width, height)
        self.network.forget()
        if self.table.follow:
            self.fit()
        self.sync()

    def sync(self) -> None:
        self.hear_new_moves(_sound_of)
        held = self.pointer.held
        if held is not None and (not self._may_place() or held >= len(self._hand())
                                 or self._hand()[held] != self.pointer.held_kind):
            self.pointer.drop()
        if self.table.follow and self.area[2] > 1:
            self.fit()
        self.network.draw(self.state, self.area)
        self.hand.draw(self.state, self.area, self.pointer.held)
        self._draw_banner()
        self._draw_marks()
        self._refresh_button()
        self.pointer.refresh()

    def draw_board(self) -> None:
        """The network and its marks, where the table is panned and zoomed to now."""
        self.network.draw(self.state, self.area)
        self._draw_marks()

    def _moved(self) -> None:
        self.draw_board()
        self.pointer.refresh()

    def _hand(self) -> list[int]:
        return self.hand.kinds(self.state)

    def _draw_marks(self) -> None:
        state = self.state
        self.network.draw_marks(state, blasts=state.phase == "blow" and self.may_act(),
                                lost=words.cell_that_lost(state))

    def _draw_banner(self) -> None:
        """What just happened (or why the game ended) across the top of the felt, in lines
        where a small window has no room for it in one."""
        x, y, w, h = self.area
        text = words.ending_words(self.state) if self.state.is_terminal() else self.state.event
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

    # --- input ---------------------------------------------------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        pointer = self.pointer
        pointer.mouse = (float(x), float(y))
        if dx or dy:
            pointer.key_target = pointer.key_blast = pointer.key_discard = None   # the mouse takes over
        pointer.refresh()
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if not self.enabled or not self.contains(x, y):
            return None
        pointer, table = self.pointer, self.table
        pointer.mouse = (float(x), float(y))
        if button in (mouse.RIGHT, mouse.MIDDLE):
            if pointer.held is not None and button == mouse.RIGHT:
                pointer.turn(1)
                return True
            table.dragging = True
            return True
        if button != mouse.LEFT:
            return None
        if self.button.contains(x, y) and self.button.action is not None:
            self.submit(self.button.action)
            return True
        state = self.state
        index = self.hand.index_at(x, y)
        if index is not None:
            return self._press_hand(index)
        if pointer.held is not None:
            if table.contains(x, y):
                self._place_held()
            return True
        if state.phase == "blow" and self.may_act() and table.contains(x, y):
            card = state.cell_card.get(table.cell_at(x, y))
            if card is not None:
                _, cx, cy, _, _ = state.placed[card]
                self.submit(Move("blow", -1, cx, cy))
                return True
        if table.contains(x, y):
            table.dragging = True
            return True
        return None

    def _press_hand(self, index: int) -> bool:
        state, pointer = self.state, self.pointer
        if self.controller.is_over():
            return True
        if not self.controller.is_person_turn():
            self.toast.show("wait: the computer is playing")
            return True
        kind = self._hand()[index]
        if state.phase in ("discard", "alarm"):
            if self.submit(Move("discard", kind)):
                pointer.key_discard = None
            return True
        if state.phase == "blow":
            self.toast.show("first choose the card the dynamite blows up (ringed red)")
            return True
        if state.phase == "play":
            if pointer.held == index:
                pointer.drop()
                self.hand.draw(self.state, self.area, pointer.held)
            else:
                pointer.pick(index)
        return True

    def _key_hand(self, index: int) -> bool:
        """A number key: the hand's card at that place, as a click on it; picked up this way,
        it goes at once to the first spot where it fits."""
        self._press_hand(index)
        if self.pointer.held == index:
            self.pointer.dragging = False
            self.pointer.step_spot(1)
        return True

    def _place_held(self) -> None:
        pointer = self.pointer
        move = pointer.target if pointer.target is not None else pointer.move_under_mouse()
        if self.submit(move):
            pointer.drop()

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        pointer = self.pointer
        pointer.mouse = (float(x), float(y))
        if self.table.dragging:
            self.table.dragging = False
            return True
        if pointer.held is not None and pointer.dragging and button == mouse.LEFT:
            pointer.dragging = False
            if self.table.contains(x, y):
                self._place_held()
                return True
            pointer.refresh()          # released over the hand: the card stays picked up
            return True
        return None

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        self.pointer.mouse = (float(x), float(y))
        if self.table.dragging:
            self.table.drag(dx, dy)
            self._moved()
            return True
        if self.pointer.held is not None:
            self.pointer.refresh()
            return True
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        if not self.enabled or not self.contains(x, y) or not scroll_y:
            return None
        self.pointer.mouse = (float(x), float(y))
        if self.pointer.held is not None:
            self.pointer.turn(1 if scroll_y > 0 else -1)
            return True
        if self.table.contains(x, y):
            self.table.zoom(WHEEL_ZOOM if scroll_y > 0 else 1 / WHEEL_ZOOM, x, y)
            self._moved()
            return True
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if not self.enabled or modifiers & (key.MOD_CTRL | key.MOD_ALT):
            return None
        pointer = self.pointer
        if symbol == key.R and pointer.held is not None:
            pointer.turn(-1 if modifiers & key.MOD_SHIFT else 1)
            return True
        if symbol == key.S and pointer.can_flip():
            pointer.flip()
            return True
        if symbol == key.ESCAPE and pointer.held is not None:
            pointer.drop()
            self.hand.draw(self.state, self.area, pointer.held)
            return True
        if key._1 <= symbol <= key._9 and symbol - key._1 < len(self._hand()):
            return self._key_hand(symbol - key._1)
        if symbol == key.TAB and pointer.held is not None:
            pointer.step_spot(tab_step(modifiers))
            return True
        if symbol == key.TAB and self.state.phase == "play" and self._may_place():
            # nothing held yet: the first hand card that fits, at its first spot (as its number key)
            state = self.state
            first = next((n for n, kind in enumerate(self._hand()) if state.placements([kind])), None)
            if first is not None:
                return self._key_hand(first)
        if symbol == key.TAB and self.state.phase == "blow" and self.may_act():
            pointer.step_blast(tab_step(modifiers))
            return True
        if self.state.phase in ("discard", "alarm") and self.may_act():
            # the discard's own keys: Tab and Enter never go on to the panel's buttons (Save, Load)
            if symbol == key.TAB:
                pointer.step_discard(tab_step(modifiers))
                return True
            if symbol in CONFIRM_KEYS:
                if pointer.key_discard is not None:
                    self._press_hand(pointer.key_discard)
                elif self.state.phase == "discard":
                    self.submit(KEEP)
                else:
                    self.toast.show("Tab to the card to discard (or press 1-4), then Enter")
                return True
        if symbol in CONFIRM_KEYS:
            if pointer.held is not None and pointer.key_target is not None:
                self._place_held()
                return True
            if pointer.key_blast is not None and self.state.phase == "blow" and self.may_act():
                _, x, y, _, _ = self.state.placed[pointer.key_blast]
                if self.submit(Move("blow", -1, x, y)):
                    pointer.key_blast = None
                return True
        if symbol in (key.K, key.ENTER, key.RETURN) and self.button.action is not None:
            self.submit(self.button.action)
            return True
        if self.table.on_key(symbol):          # arrows pan, + and - zoom, Home fits again
            if self.table.follow:
                self.fit()
            self._moved()
            return True
        return None

    # --- the shared panel --------------------------------------------------------------------------------
    def prompt(self) -> str:
        return words.prompt(self.state)

    def describe_move(self, notation: str) -> str:
        """A move in words; a draw without its card (the history line is seen by everyone)."""
        return words.describe_move(notation)

    def seat_detail(self, seat: int) -> str:
        return words.seat_detail(self.state, seat)

    def refusal_words(self, refused: Refusal) -> str:
        """Without the grid's coordinates: the held card shows red where it was refused."""
        return words.refusal_words(refused)

    def result_title(self) -> str:
        return "The team lost" if self.state.result == "lost" else ""

    def result_text(self) -> str:
        return words.result_text(self.state)

    def close(self) -> None:
        self.pointer.drop()


def _sound_of(notation: str, ply: int) -> tuple | None:
    """A card slides when one is placed (one of three slides, for variety)."""
    if not notation.startswith("place "):
        return None
    return card_sound(ply)
