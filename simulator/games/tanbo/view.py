"""Tanbo's board in the window: a wooden go-style board, lit stones, hover previews.

Reads the state through the view contract (render/game_view.py); a click on a legal point submits
a Place action.
While a person is to move, their legal points carry faint dots, the hovered legal point shows
a ghost stone, and the roots that move would remove are ringed in red before they go. Stones
removed by the last move fade out, so a computer's removals can be followed too.
"""

from __future__ import annotations

from typing import ClassVar

from pyglet import shapes, sprite
from pyglet.graphics import Group
from pyglet.window import key, mouse

from simulator.games.tanbo.rules import (
    BLACK,
    COLOUR_NAMES,
    COLUMN_LETTERS,
    WHITE,
    Place,
    TanboState,
)
from simulator.render import theme
from simulator.render.board2d import GridLayout
from simulator.render.game_view import GameView, ViewContext
from simulator.render.textures import centred, shadow_pixels, stone_pixels, to_image, wood_pixels
from simulator.render.widgets import label

STONE_TEXTURE = 128
WOOD_TEXTURE = 512
STONE_SCALE = 0.88         # stone diameter in point spacings
FADE_SECONDS = 0.9
(G_BOARD_SHADOW, G_BOARD, G_LINES, G_MARKS, G_STONE_SHADOW, G_STONES, G_STONE_MARKS,
 G_GHOST) = (Group(order=n) for n in range(1, 9))


class _Images:
    """Textures made once per process and shared by every Tanbo view."""

    cache: ClassVar[dict[str, object]] = {}

    @classmethod
    def get(cls, name: str):
        if name not in cls.cache:
            if name == "wood":
                cls.cache[name] = to_image(wood_pixels(WOOD_TEXTURE, WOOD_TEXTURE, seed=7))
            elif name == "shadow":
                cls.cache[name] = centred(to_image(shadow_pixels(STONE_TEXTURE)))
            else:
                cls.cache[name] = centred(to_image(stone_pixels(STONE_TEXTURE, name)))
        return cls.cache[name]


class TanboView(GameView[TanboState]):
    state_class = TanboState
    rules_summary = (
        "Place one stone of your colour per turn on an empty point that touches exactly one of "
        "your own stones (orthogonally). Connected stones of one colour form a root; roots grow as "
        "trees and never merge.\n"
        "A root is bounded when it can no longer grow. After your stone: if the root you extended "
        "is bounded, it alone is removed; otherwise every bounded root on the board is removed, of "
        "either colour.\n"
        "You win when the other colour has no stones left. There is no passing and no draw.")
    controls = (("Left click", "place a stone on a highlighted point"),
                ("Hover", "preview the move; red rings: the roots it removes"),
                ("Arrows, Enter", "move a cursor over the board, place a stone there"))

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        batch = self.batch
        self.grid = GridLayout(1, 1)
        self.hover_point: tuple[int, int] | None = None
        self.preview_removed: list[int] = []
        self.board_shadow = shapes.Rectangle(0, 0, 1, 1, color=(0, 0, 0, 90), batch=batch, group=G_BOARD_SHADOW)
        self.board = sprite.Sprite(_Images.get("wood"), batch=batch, group=G_BOARD)
        self.frame = shapes.Box(0, 0, 1, 1, thickness=3, color=(92, 60, 28, 255), batch=batch, group=G_LINES)
        self.lines: list[shapes.Line] = []
        self.coords: list = []
        self.stones: dict[int, tuple[sprite.Sprite, sprite.Sprite]] = {}
        self.fading: list[tuple[sprite.Sprite, sprite.Sprite, float]] = []
        self.legal_dots: list[shapes.Circle] = []
        self.marks: list = []
        self.ghost = sprite.Sprite(_Images.get("black"), batch=batch, group=G_GHOST)
        self.ghost.opacity = 150
        self.ghost.visible = False
        self.last_marker = shapes.Arc(0, 0, 5, thickness=2.5, color=(214, 64, 48, 255), batch=batch,
                                      group=G_STONE_MARKS)
        self.last_marker.visible = False
        self.cursor = shapes.Box(0, 0, 10, 10, thickness=2, color=(40, 90, 200, 230), batch=batch,
                                 group=G_GHOST)
        self.cursor.visible = False
        self.keyboard_cursor = False      # the hovered point was chosen with the arrow keys
        self._drawn_board: list[int] = []
        self._seen_plies = 0
        self.sync()


    # --- layout ---------------------------------------------------------------------------------
    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        state = self.state
        self.grid = GridLayout(state.width, state.height, margin=1.25)
        self.grid.fit(x + 10, y + 10, width - 20, height - 20)
        bx, by, bw, bh = self.grid.board_rect()
        self.board_shadow.position = (bx + 6, by - 8)
        self.board_shadow.width, self.board_shadow.height = bw, bh
        self.board.position = (bx, by, 0)
        self.board.scale_x = bw / WOOD_TEXTURE
        self.board.scale_y = bh / WOOD_TEXTURE
        self.frame.position = (bx, by)
        self.frame.width, self.frame.height = bw, bh
        self._build_lines()
        self._rebuild_stones(animate=False)
        self._refresh_hover()

    def _build_lines(self) -> None:
        for item in self.lines + self.coords:
            item.delete()
        self.lines, self.coords = [], []
        g, state = self.grid, self.state
        thickness = max(1.0, g.spacing / 36)
        x0, y0 = g.to_pixel(0, 0)
        x1, y1 = g.to_pixel(state.width - 1, state.height - 1)
        for column in range(state.width):
            x, _ = g.to_pixel(column, 0)
            self.lines.append(shapes.Line(x, y0, x, y1, thickness=thickness, color=theme.GRID_LINE,
                                          batch=self.batch, group=G_LINES))
        for row in range(state.height):
            _, y = g.to_pixel(0, row)
            self.lines.append(shapes.Line(x0, y, x1, y, thickness=thickness, color=theme.GRID_LINE,
                                          batch=self.batch, group=G_LINES))
        # coordinates in the board's margin, clear of the outer stones (radius STONE_SCALE / 2)
        size = max(7.0, min(14.0, g.spacing * 0.26))
        colour = (70, 46, 22, 255)
        clear = g.spacing * (STONE_SCALE / 2 + 0.08)
        for column in range(state.width):
            x, _ = g.to_pixel(column, 0)
            self.coords.append(label(COLUMN_LETTERS[column], x, y0 - clear, size=size, batch=self.batch,
                                     group=G_LINES, color=colour, anchor_x="center", anchor_y="top"))
        for row in range(state.height):
            _, y = g.to_pixel(0, row)
            self.coords.append(label(str(row + 1), x0 - clear, y, size=size, batch=self.batch,
                                     group=G_LINES, color=colour, anchor_x="right", anchor_y="center"))

    # --- stones -----------------------------------------------------------------------------------
    def _stone(self, colour: int, x: float, y: float, opacity: int = 255) -> tuple[sprite.Sprite, sprite.Sprite]:
        scale = self.grid.spacing * STONE_SCALE / STONE_TEXTURE
        shadow = sprite.Sprite(_Images.get("shadow"), x + self.grid.spacing * 0.06,
                               y - self.grid.spacing * 0.08, batch=self.batch, group=G_STONE_SHADOW)
        shadow.scale = scale * 1.08
        stone = sprite.Sprite(_Images.get("black" if colour == BLACK else "white"), x, y,
                              batch=self.batch, group=G_STONES)
        stone.scale = scale
        stone.opacity = shadow.opacity = opacity
        return stone, shadow

    def _rebuild_stones(self, animate: bool) -> None:
        state = self.state
        previous = self._drawn_board
        for stone, shadow in self.stones.values():
            stone.delete()
            shadow.delete()
        self.stones = {}
        for i, colour in enumerate(state.board):
            if colour:
                column, row = state.geo.xy(i)
                self.stones[i] = self._stone(colour, *self.grid.to_pixel(column, row))
        if animate and len(previous) == len(state.board):
            for i in state.last_removed:
                if previous[i]:
                    column, row = state.geo.xy(i)
                    stone, shadow = self._stone(previous[i], *self.grid.to_pixel(column, row))
                    self.fading.append((stone, shadow, FADE_SECONDS))
        self._drawn_board = state.board[:]
        if state.last_move >= 0 and state.board[state.last_move]:
            column, row = state.geo.xy(state.last_move)
            self.last_marker.position = self.grid.to_pixel(column, row)
            self.last_marker.radius = self.grid.spacing * 0.16
            self.last_marker.visible = True
        else:
            self.last_marker.visible = False
        self._build_legal_dots()

    def _build_legal_dots(self) -> None:
        for dot in self.legal_dots:
            dot.delete()
        self.legal_dots = []
        if not self.controller.is_person_turn():
            return
        colour = (30, 30, 30, 110) if self.state.to_move == BLACK else (255, 255, 255, 140)
        for i in self.state.legal_points():
            column, row = self.state.geo.xy(i)
            x, y = self.grid.to_pixel(column, row)
            self.legal_dots.append(shapes.Circle(x, y, max(3.0, self.grid.spacing * 0.14), color=colour,
                                                 batch=self.batch, group=G_MARKS))

    def sync(self) -> None:
        plies = self.controller.ply()
        if plies < self._seen_plies:
            self.hover_point = None      # an undo: no ghost where the taken-back stone was
        self._seen_plies = plies
        self._rebuild_stones(animate=True)
        self._refresh_hover()

    def update(self, dt: float) -> None:
        still = []
        for stone, shadow, remaining in self.fading:
            remaining -= dt
            if remaining <= 0:
                stone.delete()
                shadow.delete()
                continue
            alpha = int(255 * remaining / FADE_SECONDS)
            stone.opacity = shadow.opacity = alpha
            stone.color = (255, 150, 140)
            still.append((stone, shadow, remaining))
        self.fading = still

    # --- hover and clicks (pyglet's handlers; None lets the event go on to the screen) ---------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        point = self.grid.to_point(x, y) if self.enabled and self.contains(x, y) else None
        if point != self.hover_point or self.keyboard_cursor:
            self.hover_point = point
            self.keyboard_cursor = False
            self._refresh_hover()
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Arrows move a cursor over the board; Enter or Space places a stone under it."""
        if not self.enabled or modifiers & (key.MOD_CTRL | key.MOD_ALT):
            return None
        steps = {key.LEFT: (-1, 0), key.RIGHT: (1, 0), key.UP: (0, 1), key.DOWN: (0, -1)}
        state = self.state
        if symbol in steps:
            if self.hover_point is None:
                last = state.last_move
                self.hover_point = state.geo.xy(last) if last >= 0 else (state.width // 2, state.height // 2)
            else:
                dx, dy = steps[symbol]
                self.hover_point = (min(state.width - 1, max(0, self.hover_point[0] + dx)),
                                    min(state.height - 1, max(0, self.hover_point[1] + dy)))
            self.keyboard_cursor = True
            self._refresh_hover()
            return True
        if symbol in (key.ENTER, key.RETURN, key.SPACE) and self.keyboard_cursor and self.hover_point:
            if self.controller.is_person_turn():
                self.submit(Place(*self.hover_point))
            return True
        return None

    def _refresh_hover(self) -> None:
        for mark in self.marks:
            mark.delete()
        self.marks = []
        self.ghost.visible = False
        self.hint = ""
        point, state = self.hover_point, self.state
        self.cursor.visible = self.keyboard_cursor and point is not None and self.enabled
        if self.cursor.visible and point is not None:
            half = self.grid.spacing * 0.5
            cx, cy = self.grid.to_pixel(*point)
            self.cursor.position = (cx - half, cy - half)
            self.cursor.width = self.cursor.height = 2 * half
        if point is None or not self.enabled or not self.controller.is_person_turn():
            return
        action = Place(*point)
        if not state.is_legal(action):
            self.hint = state.illegal_reason(action)
            return
        self.ghost.image = _Images.get("black" if state.to_move == BLACK else "white")
        self.ghost.position = (*self.grid.to_pixel(*point), 0)
        self.ghost.scale = self.grid.spacing * STONE_SCALE / STONE_TEXTURE
        self.ghost.visible = True
        removed = state.removals_if(action)
        name = state.action_to_str(action)
        if not removed:
            self.hint = f"{name}: no root is removed"
        else:
            own = sum(1 for i in removed if state.board[i] == state.to_move or i == state.geo.index(*point))
            other = len(removed) - own
            parts = []
            if own:
                parts.append(f"{own} of your stones")
            if other:
                parts.append(f"{other} of theirs")
            self.hint = f"{name}: removes {' and '.join(parts)}"
        for i in removed:
            column, row = state.geo.xy(i)
            x, y = self.grid.to_pixel(column, row)
            self.marks.append(shapes.Arc(x, y, self.grid.spacing * 0.5, thickness=max(2.0, self.grid.spacing * 0.07),
                                         color=(220, 40, 30, 230), batch=self.batch, group=G_STONE_MARKS))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button != mouse.LEFT or not self.enabled or not self.contains(x, y):
            return None
        point = self.grid.to_point(x, y)
        if point is None:
            return None
        if self.controller.is_over():
            return True
        if not self.controller.is_person_turn():
            self.toast.show("the computer is thinking; wait for its move")
            return True
        self.submit(Place(*point))
        return True

    def on_mouse_leave(self, x: int, y: int) -> bool | None:
        self.hover_point = None
        self._refresh_hover()
        return None

    # --- side panel and end screen ------------------------------------------------------------------
    def prompt(self) -> str:
        return "Click a point."

    def seat_icon(self, seat: int):
        return _Images.get("black" if seat == 0 else "white")

    def seat_detail(self, seat: int) -> str:
        count = self.state.stones_of(BLACK if seat == 0 else WHITE)
        return f"{count} stone{'s' if count != 1 else ''}"

    def result_text(self) -> str:
        loser = WHITE if self.state.winner_colour == BLACK else BLACK
        return f"{COLOUR_NAMES[loser]} has no stones left, after {self.state.move_number} moves."

