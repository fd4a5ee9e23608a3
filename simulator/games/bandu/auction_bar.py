"""The bar across the top of Bandu's table: what is happening (a headline and a line under it)
and the buttons of the person whose decision it is (To acquire / To refuse, Accept / Refuse,
Bid n / Pass). It draws in the view's batch and takes its own clicks; it knows no rules."""

from __future__ import annotations

from collections.abc import Callable

from pyglet import shapes
from pyglet.graphics import Batch, Group

from simulator.render import theme
from simulator.render.widgets import Button, fit_width, label, shrink_to_width

G_BAR, G_BAR_TEXT = Group(order=40), Group(order=41)
MAX_BUTTONS = 3
WIDTH = 620
BUTTON_WIDTH, BUTTON_GAP = 150, 12
HEADLINE_SIZE, SUBLINE_SIZE, SMALLEST_SIZE = 14.0, 11.5, 10.0


class AuctionBar:
    def __init__(self, batch: Batch) -> None:
        self.panel = shapes.RoundedRectangle(0, 0, 10, 10, radius=10, segments=6, color=(26, 20, 16, 215),
                                             batch=batch, group=G_BAR)
        self.headline = label("", size=HEADLINE_SIZE, batch=batch, group=G_BAR_TEXT, bold=True, anchor_x="center")
        self.subline = label("", size=SUBLINE_SIZE, batch=batch, group=G_BAR_TEXT, anchor_x="center",
                             color=theme.TEXT_DIM)
        self.buttons = [Button("", lambda: None, batch, size=13, width=150, height=36, group=G_BAR,
                               text_group=G_BAR_TEXT) for _ in range(MAX_BUTTONS)]
        self.area = (0.0, 0.0, 1.0, 1.0)
        self.texts = ("", "")            # as given; the labels may show them smaller or cut
        self.warning = False

    def set_text(self, headline: str, subline: str, warning: bool = False) -> None:
        """The headline and the line under it; `warning`: that line in the warning's red."""
        if warning != self.warning:
            self.warning = warning
            self.subline.color = theme.WARNING_TEXT if warning else theme.TEXT_DIM
        if (headline, subline) != self.texts:
            self.texts = (headline, subline)
            self._fit_texts()

    def _fit_texts(self) -> None:
        """Each line inside the panel: in a smaller font where needed, then cut with '…'."""
        room = self.panel.width - 24
        for text_label, text, size in zip((self.headline, self.subline), self.texts,
                                          (HEADLINE_SIZE, SUBLINE_SIZE), strict=True):
            text_label.text = text
            shrink_to_width(text_label, room, size, SMALLEST_SIZE, step=0.5)
            fit_width(text_label, text, room)

    def set_choices(self, choices: list[tuple[str, Callable[[], object]]]) -> None:
        """The buttons, left to right: (text, what a click does); none: no buttons."""
        for index, button in enumerate(self.buttons):
            if index < len(choices):
                button.set_text(choices[index][0])
                button.on_click = choices[index][1]
            button.set_visible(index < len(choices))
        self.layout(*self.area)

    def visible_buttons(self) -> list[Button]:
        return [button for button in self.buttons if button.visible]

    def layout(self, x: float, y: float, width: float, height: float) -> None:
        """Across the top of the view's area."""
        self.area = (x, y, width, height)
        centre = x + width / 2
        visible = self.visible_buttons()
        panel_height = 58 + (50 if visible else 0)
        panel_width = min(width - 20, WIDTH)
        self.panel.position = (centre - panel_width / 2, y + height - panel_height - 10)
        self.panel.width, self.panel.height = panel_width, panel_height
        self.headline.position = (centre, y + height - 36, 0)
        self.subline.position = (centre, y + height - 58, 0)
        gaps = BUTTON_GAP * max(len(visible) - 1, 0)
        each = min(BUTTON_WIDTH, (panel_width - 20 - gaps) / max(len(visible), 1))
        left = centre - (each * len(visible) + gaps) / 2
        for button in visible:                  # narrower in a small window, all inside the bar
            button.place(left, y + height - panel_height - 2, width=each)
            left += each + BUTTON_GAP
        self._fit_texts()

    def contains(self, x: float, y: float) -> bool:
        panel = self.panel
        return panel.x <= x <= panel.x + panel.width and panel.y <= y <= panel.y + panel.height

    def click(self, x: float, y: float) -> bool:
        """A left click at (x, y): True when it was on the bar (a button pressed, or just the bar)."""
        for button in self.visible_buttons():
            if button.contains(x, y):
                button.click()
                return True
        return self.contains(x, y)

    def press(self, index: int) -> bool:
        """Keys 1, 2, 3: the visible buttons in order."""
        visible = self.visible_buttons()
        if 0 <= index < len(visible):
            visible[index].click()
            return True
        return False
