"""The move log in a game's side panel: every move of the game so far, one line each ("12. Player 2
offers the wide cylinder to refuse"), the newest at the bottom, in the room the panel has left
under its status and hint. The wheel over it scrolls back through the game (and forward again);
a new move brings it back to the newest. Shared by every game: the lines are the history's
moves as the game's view says them (GameView.describe_move)."""

from __future__ import annotations

from pyglet.graphics import Batch, Group

from simulator.render import theme
from simulator.render.widgets import label


class MoveLog:
    def __init__(self, batch: Batch, group: Group, width: float) -> None:
        self.label = label("", size=10.5, batch=batch, group=group, multiline=True, width=int(width),
                           color=theme.TEXT_DIM, anchor_y="top")
        self.lines: list[str] = []
        self.back = 0                     # how many of the newest moves are scrolled out of view
        self.shown: tuple[int, int] = (0, 0)    # the moves on screen: lines[first:last]
        self._area = (0.0, 0.0, 0.0, 0.0)       # x, bottom, width, top

    def layout(self, x: float, top: float, bottom: float, width: float) -> None:
        self._area = (x, bottom, width, top)
        self.label.x, self.label.y = x, top
        self.label.width = int(width)
        self._fill()

    def set_lines(self, lines: list[str]) -> None:
        if lines == self.lines:
            return
        self.back = 0 if len(lines) > len(self.lines) else min(self.back, max(len(lines) - 1, 0))
        self.lines = list(lines)
        self._fill()

    def scroll(self, moves: int) -> None:
        """Back (positive) or forward (negative) by `moves` moves."""
        self.back = max(0, min(self.back + moves, max(len(self.lines) - 1, 0)))
        self._fill()

    def contains(self, x: float, y: float) -> bool:
        left, bottom, width, top = self._area
        return left <= x <= left + width and bottom <= y <= top

    def _fill(self) -> None:
        """As many moves as fit above the bottom, ending `back` moves before the newest; scrolled
        back, a last line says how many newer moves are below."""
        _, bottom, _, top = self._area
        room = top - bottom
        last = len(self.lines) - self.back
        tail = [f"\u25bc {self.back} newer (wheel down)"] if self.back else []
        first = last
        self.label.text = ""
        while first > 0:
            self.label.text = "\n".join([*self.lines[first - 1:last], *tail])
            if self.label.content_height > room:
                break
            first -= 1
        self.label.text = "\n".join([*self.lines[first:last], *tail]) if first < last else ""
        if self.label.content_height > room:         # not even the newest fits
            self.label.text = ""
            first = last
        self.label.visible = room > 12
        self.shown = (first, last)


def runs_of(moves: list[str]) -> list[str]:
    """The log's lines: each move numbered, a run of the same move in one line ("1-6. a card
    is drawn (6 times)": a deal of six cards, a haystack arranged six times)."""
    lines: list[str] = []
    start = 0
    for number in range(1, len(moves) + 1):
        if number < len(moves) and moves[number] == moves[start]:
            continue
        count = number - start
        lines.append(f"{start + 1}. {moves[start]}" if count == 1
                     else f"{start + 1}-{number}. {moves[start]} ({count} times)")
        start = number
    return lines
