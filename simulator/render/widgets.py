"""Small 2D widgets drawn with pyglet shapes and text: buttons, panels, labels, toasts, overlays.

Widgets live in a Batch owned by their screen and are positioned by the screen's layout();
mouse handling is hit-testing in window pixels.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Literal

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from simulator.render import theme

# Draw order: screens' own layers (a game's board uses orders 1-19) sit between BACK and MIDDLE;
# side panels above them; overlays, and the toast, above everything.
BACK, MIDDLE, FRONT = Group(order=0), Group(order=20), Group(order=21)
OVERLAY, OVERLAY_FRONT = Group(order=100), Group(order=101)
TOAST, TOP = Group(order=110), Group(order=111)


AnchorX = Literal["left", "center", "right"]
AnchorY = Literal["top", "bottom", "center", "baseline"]
Area = tuple[float, float, float, float]      # x, y, width, height in window pixels


def label(text: str, x: float = 0, y: float = 0, size: float = 14, batch: Batch | None = None,
          group: Group | None = None, color: tuple[int, int, int, int] = theme.TEXT,
          anchor_x: AnchorX = "left", anchor_y: AnchorY = "baseline",
          bold: bool = False, width: int | None = None, multiline: bool = False, serif: bool = False,
          align: AnchorX = "left") -> pyglet.text.Label:
    return pyglet.text.Label(
        text, x=x, y=y, font_name=list(theme.FONT_SERIF if serif else theme.FONT), font_size=size,
        color=color, anchor_x=anchor_x, anchor_y=anchor_y, batch=batch, group=group,
        weight="bold" if bold else "normal", width=width, multiline=multiline, align=align)


def without_asides(text: str) -> str:
    """The text without its parenthesized asides: a prompt's key help ('turn (Q/E, R/F), click'
    -> 'turn, click'), which the Help dialog keeps whole."""
    return re.sub(r" ?\([^()]*\)", "", text)


def fit_text(text_label: pyglet.text.Label, text: str, floor: float, *shorter: str) -> None:
    """Set a top-anchored multiline label's text so that it ends above `floor` (window pixels):
    where it is too long its asides (the key help) go first, then the `shorter` wordings in
    turn, then words from the end of the shortest, with an ellipsis; text never runs over what
    lies below it."""
    if text_label.text != text:
        text_label.text = text
    room = text_label.y - floor
    if text_label.content_height <= room:
        return
    for wording in (without_asides(text), *map(without_asides, shorter)):
        text_label.text = text = wording
        if text_label.content_height <= room:
            return
    words = text.split(" ")
    while len(words) > 1 and text_label.content_height > room:
        words = words[:-1]
        text_label.text = " ".join(words) + "…"
    if text_label.content_height > room:
        text_label.text = ""


def shrink_to_width(text_label: pyglet.text.Label, width: float, size: float, smallest: float,
                    step: float = 1.0) -> None:
    """Set a one-line label's font to `size`, smaller by `step` while it is wider than `width`
    pixels, down to `smallest` (what still does not fit is the caller's: cut it, wrap it, hide it)."""
    text_label.font_size = size
    while text_label.content_width > width and text_label.font_size > smallest:
        text_label.font_size -= step


def fit_width(text_label: pyglet.text.Label, text: str, width: float) -> None:
    """Set a one-line label's text, cut with an ellipsis to at most `width` pixels."""
    if text_label.text != text:
        text_label.text = text
    if text_label.content_width <= width:
        return
    low, high = 0, len(text)
    while low < high:                        # the longest prefix that fits, by bisection
        middle = (low + high + 1) // 2
        text_label.text = text[:middle].rstrip() + "…"
        if text_label.content_width <= width:
            low = middle
        else:
            high = middle - 1
    text_label.text = text[:low].rstrip() + "…" if low else ""


def fit_lines(text_label: pyglet.text.Label, parts: list[str], width: float, lines: int = 2,
              separator: str = " · ") -> None:
    """Set a multiline label that breaks only where told (a very wide one) to `parts` joined by
    `separator`, broken between parts onto at most `lines` lines of at most `width` pixels; what
    still does not fit is cut with an ellipsis on the last line."""
    rows: list[str] = []
    current = ""
    for part in parts:
        candidate = f"{current}{separator}{part}" if current else part
        text_label.text = "\n".join([*rows, candidate])
        if current and text_label.content_width > width and len(rows) + 1 < lines:
            rows.append(current)
            current = part
        else:
            current = candidate
    text = "\n".join([*rows, current])
    if text_label.text != text:
        text_label.text = text
    if text_label.content_width <= width:
        return
    low, high = 0, len(current)
    while low < high:                        # the longest prefix of the last line that fits
        middle = (low + high + 1) // 2
        text_label.text = "\n".join([*rows, current[:middle].rstrip() + "…"])
        if text_label.content_width <= width:
            low = middle
        else:
            high = middle - 1
    text_label.text = "\n".join([*rows, current[:low].rstrip() + "…" if low else ""])


class Button:
    """A rounded button with a label; `on_click` runs on a left click while enabled."""

    def __init__(self, text: str, on_click: Callable[[], object], batch: Batch, size: float = 14,
                 width: float = 160, height: float = 40, primary: bool = False,
                 group: Group = FRONT, text_group: Group | None = None, tooltip: str = "") -> None:
        self.on_click = on_click
        self.primary = primary
        self.enabled = True
        self.selected = False
        self.hover = False
        self.focused = False
        self.visible = True
        self.tooltip = tooltip
        self.x, self.y, self.width, self.height = 0.0, 0.0, width, height
        self.shape = shapes.RoundedRectangle(0, 0, width, height, radius=8, segments=6,
                                             color=theme.BUTTON, batch=batch, group=group)
        self.ring = shapes.Box(0, 0, width + 6, height + 6, thickness=2, color=theme.FOCUS,
                               batch=batch, group=group)
        self.ring.visible = False
        self.text = label(text, size=size, batch=batch, group=text_group or Group(order=group.order + 1),
                          anchor_x="center", anchor_y="center")
        self.width = max(width, self.text.content_width + 28)    # never narrower than its text
        self.shape.width = self.width
        self._restyle()

    def place(self, x: float, y: float, width: float | None = None, height: float | None = None) -> None:
        self.x, self.y = x, y
        if width is not None:
            self.width = width
        if height is not None:
            self.height = height
        self.shape.position = (x, y)
        self.shape.width, self.shape.height = self.width, self.height
        self.ring.position = (x - 3, y - 3)
        self.ring.width, self.ring.height = self.width + 6, self.height + 6
        # on whole pixels: text drawn from half a pixel loses rows of its letters
        self.text.position = (round(x + self.width / 2), round(y + self.height / 2), 0)

    def contains(self, x: float, y: float) -> bool:
        return self.visible and self.x <= x <= self.x + self.width and self.y <= y <= self.y + self.height

    def set_text(self, text: str) -> None:
        if self.text.text != text:
            self.text.text = text

    def set_enabled(self, enabled: bool) -> None:
        if enabled != self.enabled:
            self.enabled = enabled
            self._restyle()

    def set_selected(self, selected: bool) -> None:
        if selected != self.selected:
            self.selected = selected
            self._restyle()

    def set_hover(self, hover: bool) -> None:
        if hover != self.hover:
            self.hover = hover
            self._restyle()

    def set_focus(self, focused: bool) -> None:
        self.focused = focused
        self.ring.visible = focused and self.visible

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        self.shape.visible = visible
        self.text.visible = visible
        self.ring.visible = visible and self.focused

    def delete(self) -> None:
        self.shape.delete()
        self.ring.delete()
        self.text.delete()

    def _restyle(self) -> None:
        if not self.enabled:
            colour, text = theme.BUTTON_DISABLED, (130, 130, 122, 255)
        elif self.primary:
            colour = theme.ACCENT_HOVER if self.hover else theme.ACCENT
            text = theme.ACCENT_TEXT
        elif self.selected:
            colour = theme.SELECTED_HOVER if self.hover else theme.SELECTED
            text = theme.TEXT
        else:
            colour, text = (theme.BUTTON_HOVER if self.hover else theme.BUTTON), theme.TEXT
        self.shape.color = colour
        self.text.color = text

    def click(self) -> bool:
        if self.visible and self.enabled:
            self.on_click()
            return True
        return False


class Toast:
    """A message that fades after a few seconds, wrapped to the width it is given (never
    clipped): at the bottom of most screens, in the side panel of a game."""

    def __init__(self, batch: Batch) -> None:
        self.box = shapes.RoundedRectangle(0, 0, 10, 36, radius=8, segments=6, color=(20, 20, 20, 255),
                                           batch=batch, group=TOAST)
        self.text = label("", size=12.5, batch=batch, group=TOP, anchor_x="center", anchor_y="bottom",
                          multiline=True, width=400, align="center")
        self.remaining = 0.0
        self.error = False
        self.area = (0.0, 0.0, 800.0)
        self._set_alpha(0)

    def dismiss_error(self) -> None:
        """A refusal is answered (the next try went through): take its message away now."""
        if self.error and self.remaining > 0:
            self.hide()

    def hide(self) -> None:
        """Take the message away now (a dialog opens over what it was about)."""
        self.remaining = 0.0
        self._set_alpha(0)

    def show(self, message: str, seconds: float = 4.0, error: bool = False) -> None:
        self.error = error
        self.text.text = message
        self.text.color = (255, 170, 160, 255) if error else theme.TEXT
        self.remaining = seconds + len(message) / 40     # long messages stay longer
        self.layout(*self.area)
        self._set_alpha(1)

    def layout(self, x: float, y: float, width: float) -> None:
        """Centre the message over [x, x + width], its box's bottom at y + 18 (screens pass a
        height above their bottom row of buttons)."""
        self.area = (x, y, width)
        inner = max(60, width - 40)
        self.text.width = int(min(inner, 720))
        content = self.text.content_width if self.text.text else 0
        box_w = min(width - 20, max(content, 40) + 40)
        if content > self.text.width:
            box_w = self.text.width + 40
        box_h = self.text.content_height + 18
        self.box.width, self.box.height = box_w, box_h
        self.box.position = (x + width / 2 - box_w / 2, y + 18)
        self.text.position = (x + width / 2, y + 18 + 9, 0)

    @property
    def message(self) -> str:
        return self.text.text if self.remaining > 0 else ""

    def update(self, dt: float) -> None:
        if self.remaining > 0:
            self.remaining -= dt
            self._set_alpha(min(1.0, max(0.0, self.remaining / 0.6)))

    def _set_alpha(self, alpha: float) -> None:
        self.box.opacity = int(255 * alpha)      # opaque: no text shows through it
        r, g, b, _ = self.text.color
        self.text.color = (r, g, b, int(255 * alpha))


MIN_BODY_SIZE = 9.0     # an overlay's text is never smaller: a longer one is shown in pages


class Overlay:
    """A dimmed full-window layer with a centred panel, a title and a body text; a body too long
    for the window even at MIN_BODY_SIZE is split into pages (wheel, Page Up / Page Down). Given
    an area to keep in sight (a game's standings), the panel moves off it where the window has
    room."""

    def __init__(self, batch: Batch, title: str, body: str, width: float = 640, body_size: float = 12.5) -> None:
        self.visible = False
        self._laid_out: tuple[float, float, Area | None] = (800.0, 600.0, None)
        self._stale = True               # laid out for a size it no longer has (while hidden)
        self.visible = False
        self.panel_width = width
        self.dim = shapes.Rectangle(0, 0, 10, 10, color=(0, 0, 0, 150), batch=batch, group=OVERLAY)
        self.panel = shapes.RoundedRectangle(0, 0, width, 200, radius=14, segments=8,
                                             color=theme.PANEL_LIGHT, batch=batch, group=OVERLAY)
        self.title = label(title, size=22, batch=batch, group=OVERLAY_FRONT, color=theme.TEXT_DARK,
                           anchor_x="center", anchor_y="top", bold=True, serif=True)
        self.body_size = body_size
        self.body = label(body, size=body_size, batch=batch, group=OVERLAY_FRONT, color=theme.TEXT_DARK,
                          anchor_x="left", anchor_y="top", multiline=True, width=int(width - 60))
        self.page_note = label("", size=10, batch=batch, group=OVERLAY_FRONT, color=theme.TEXT_DARK,
                               anchor_x="right", anchor_y="bottom")
        self.text = body                 # the whole body; `body` shows one page of it
        self.pages = [body]
        self.page = 0
        self.batch = batch
        self.buttons: list[Button] = []
        self.set_visible(False)

    def button(self, text: str, on_click: Callable[[], object], primary: bool = False,
               width: float = 140) -> Button:
        """Add a button to the row at the panel's foot."""
        button = Button(text, on_click, self.batch, primary=primary, width=width, group=OVERLAY_FRONT)
        self.buttons.append(button)
        button.set_visible(self.visible)
        return button

    def set_text(self, title: str | None = None, body: str | None = None) -> None:
        if title is not None:
            self.title.text = title
        if body is not None:
            self.text = self.body.text = body
            self.pages, self.page = [body], 0

    def layout(self, width: float, height: float, keep_in_sight: Area | None = None) -> None:
        """Fit the dialog to the window; a hidden one only notes the size and is fitted when it
        shows (the help's pages cost a screen's opening a tenth of a second to work out)."""
        self._laid_out = (width, height, keep_in_sight)
        if not self.visible:
            self._stale = True
            return
        self._stale = False
        self.dim.width, self.dim.height = width, height
        panel_w = min(self.panel_width, width - 40)
        self.body.width = int(panel_w - 60)
        buttons_room = 64 if self.buttons else 0
        room = height - 40 - 90 - buttons_room - 20
        self.body.font_size = self.body_size
        self.body.text = self.text
        while self.body.font_size > MIN_BODY_SIZE and self.body.content_height > room:
            # a long text in a small window: smaller (in whole points), ...
            self.body.font_size = max(MIN_BODY_SIZE, math.ceil(self.body.font_size) - 1)
        self.pages = self._paginate(room - 18) if self.body.content_height > room else [self.text]
        self.page = min(self.page, len(self.pages) - 1)
        self.body.text = self.pages[self.page]  # ... and in pages when still too long, never cut
        body_h = max(self.body.content_height, room if len(self.pages) > 1 else 0)
        buttons_h = 64 if self.buttons else 0
        panel_h = min(height - 40, 90 + body_h + buttons_h + 20)
        # the panel and its texts on whole pixels: text drawn from half a pixel loses rows of its
        # letters (the help's first lines had their tops cut off)
        x0, y0 = (width - panel_w) // 2, (height - panel_h) // 2
        if keep_in_sight is not None:
            y0 = _clear_of(keep_in_sight, x0, y0, panel_w, panel_h, height)
        self.panel.position = (x0, y0)
        self.panel.width, self.panel.height = panel_w, panel_h
        self.title.position = (width // 2, y0 + panel_h - 24, 0)
        self.body.position = (x0 + 30, y0 + panel_h - 76, 0)
        total = sum(b.width for b in self.buttons) + 16 * (len(self.buttons) - 1)
        x = (width - total) // 2
        for button in self.buttons:
            button.place(x, y0 + 22)
            x += button.width + 16
        self.page_note.text = (f"page {self.page + 1} of {len(self.pages)}: wheel or Page Up / Page Down"
                               if len(self.pages) > 1 else "")
        self.page_note.position = (x0 + panel_w - 24, y0 + buttons_h + 6, 0)

    def _paginate(self, room: float) -> list[str]:
        """The body's lines in pages that each fit `room` pixels at the current size (a line that
        alone does not fit is a page of its own)."""
        pages: list[str] = []
        page: list[str] = []
        for line in self.text.split("\n"):
            self.body.text = "\n".join([*page, line])
            if page and self.body.content_height > room:
                pages.append("\n".join(page).strip("\n"))
                page = [line]
            else:
                page.append(line)
        pages.append("\n".join(page).strip("\n"))
        return pages

    def turn_page(self, step: int) -> bool:
        """Show the next (or previous) page; False when there is no such page."""
        page = self.page + step
        if not 0 <= page < len(self.pages):
            return False
        self.page = page
        self.layout(*self._laid_out)
        return True

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        if visible and self._stale:
            self.layout(*self._laid_out)
        for item in (self.dim, self.panel, self.title, self.body, self.page_note):
            item.visible = visible
        for button in self.buttons:
            button.set_visible(visible)


def _clear_of(area: Area, x0: float, y0: float, panel_w: float, panel_h: float, height: float) -> float:
    """The bottom of a dialog's panel (left x0, centred at y0) that leaves `area` in sight: y0
    where the two do not meet; else centred in the larger band of the window above or below the
    area that holds it; else at the window's foot, below the area's top (a sheet's title)."""
    x, y, w, h = area
    if x >= x0 + panel_w or x + w <= x0 or y >= y0 + panel_h or y + h <= y0:
        return y0
    bands = [(low, high) for low, high in ((20, y - 20), (y + h + 20, height - 20)) if high - low >= panel_h]
    if not bands:
        return 20
    low, high = max(bands, key=lambda band: band[1] - band[0])
    return (low + high - panel_h) // 2
