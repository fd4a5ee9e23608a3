"""Peek in the window (a test view): the viewer's card face up, the other hand and the pile face
down, and three action boxes (peek, stay, swap) to click. Draws only what the viewing seat may
see: it reads `self.state`, the redacted state."""

from __future__ import annotations

from pyglet import shapes
from pyglet.window import mouse

from peek_game.rules import UNKNOWN, Move
from simulator.render.game_view import GameView, ViewContext
from simulator.render.widgets import label

FACE, BACK = (250, 244, 232), (120, 40, 40)
ACTIONS = ("peek", "stay", "swap")


class PeekView(GameView):
    rules_summary = "Peek at the pile once, then stay or swap your card. The higher card wins."
    controls = (("Click", "peek, stay or swap"),)

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        self.cards: dict[str, tuple[shapes.Rectangle, object]] = {}
        for name in ("hand0", "hand1", "pile"):
            box = shapes.Rectangle(0, 0, 80, 120, color=BACK, batch=self.batch)
            text = label("", size=28, batch=self.batch, anchor_x="center", anchor_y="center",
                         color=(30, 20, 10, 255))
            self.cards[name] = (box, text)
        self.action_boxes = {a: shapes.Rectangle(0, 0, 100, 40, color=(70, 90, 70), batch=self.batch)
                             for a in ACTIONS}
        self.action_labels = {a: label(a, size=14, batch=self.batch, anchor_x="center", anchor_y="center")
                              for a in ACTIONS}

    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        cx, cy = x + width / 2, y + height / 2
        spots = {"hand0": (cx - 200, cy - 160), "hand1": (cx - 200, cy + 60), "pile": (cx + 60, cy - 50)}
        for name, (px, py) in spots.items():
            box, text = self.cards[name]
            box.position = (px, py)
            text.position = (px + 40, py + 60, 0)
        for n, action in enumerate(ACTIONS):
            self.action_boxes[action].position = (cx - 170 + n * 120, y + 40)
            self.action_labels[action].position = (cx - 120 + n * 120, y + 60, 0)
        self.sync()

    def sync(self) -> None:
        state = self.state
        shown = {"hand0": state.cards.get("hand0", UNKNOWN), "hand1": state.cards.get("hand1", UNKNOWN),
                 "pile": state.cards.get(f"pile{state.top}", UNKNOWN)}
        for name, card in shown.items():
            box, text = self.cards[name]
            box.color = FACE if card != UNKNOWN else BACK
            text.text = str(card) if card != UNKNOWN else ""

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button != mouse.LEFT or not self.enabled:
            return None
        for action, box in self.action_boxes.items():
            if box.x <= x <= box.x + box.width and box.y <= y <= box.y + box.height:
                self.submit(Move(action))
                return True
        return None

    def prompt(self) -> str:
        return "Peek, stay or swap."

    def seat_detail(self, seat: int) -> str:
        card = self.state.cards.get(f"hand{seat}", UNKNOWN)
        return f"holds {card}" if card != UNKNOWN else "card hidden"
