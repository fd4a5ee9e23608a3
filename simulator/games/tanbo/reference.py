"""A deliberately naive Tanbo: every query recomputed from scratch by scanning the board.

Two uses: the oracle that the tests compare the incremental rules against, move by move, and
the reference that `bandu-sim bench` measures the incremental rules against. It reads the rule
text of Tanbo's rules literally and shares no bookkeeping with rules.py.
"""

from __future__ import annotations

import random

from simulator.games.tanbo.rules import BLACK, EMPTY, WHITE, starting_stones


class NaiveTanbo:
    def __init__(self, width: int, height: int, start: str = "dense") -> None:
        self.width, self.height = width, height
        self.grid = [[EMPTY] * height for _ in range(width)]
        for (x, y), colour in starting_stones(width, height, start).items():
            self.grid[x][y] = colour
        self.to_move = BLACK
        self.winner = EMPTY

    def _around(self, x: int, y: int):
        for dx, dy in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < self.width and 0 <= ny < self.height:
                yield nx, ny

    def _own_neighbours(self, x: int, y: int, colour: int) -> list[tuple[int, int]]:
        return [(nx, ny) for nx, ny in self._around(x, y) if self.grid[nx][ny] == colour]

    def legal_points(self) -> list[tuple[int, int]]:
        if self.winner:
            return []
        return [(x, y) for x in range(self.width) for y in range(self.height)
                if self.grid[x][y] == EMPTY and len(self._own_neighbours(x, y, self.to_move)) == 1]

    def root_at(self, x: int, y: int) -> set[tuple[int, int]]:
        colour = self.grid[x][y]
        seen, todo = {(x, y)}, [(x, y)]
        while todo:
            p = todo.pop()
            for q in self._own_neighbours(*p, colour):
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        return seen

    def is_bounded(self, root: set[tuple[int, int]]) -> bool:
        colour = self.grid[next(iter(root))[0]][next(iter(root))[1]]
        for x in range(self.width):
            for y in range(self.height):
                if self.grid[x][y] != EMPTY:
                    continue
                own = self._own_neighbours(x, y, colour)
                if len(own) == 1 and own[0] in root:
                    return False
        return True

    def all_roots(self) -> list[set[tuple[int, int]]]:
        seen: set[tuple[int, int]] = set()
        roots = []
        for x in range(self.width):
            for y in range(self.height):
                if self.grid[x][y] != EMPTY and (x, y) not in seen:
                    root = self.root_at(x, y)
                    seen |= root
                    roots.append(root)
        return roots

    def play(self, x: int, y: int) -> list[tuple[int, int]]:
        """Place at (x, y) (must be legal); return the removed points, sorted."""
        colour = self.to_move
        self.grid[x][y] = colour
        current = self.root_at(x, y)
        if self.is_bounded(current):
            removed = sorted(current)
        else:
            removed = sorted(p for root in self.all_roots() if self.is_bounded(root) for p in root)
        for px, py in removed:
            self.grid[px][py] = EMPTY
        other = WHITE if colour == BLACK else BLACK
        counts = {c: sum(col.count(c) for col in self.grid) for c in (BLACK, WHITE)}
        if counts[other] == 0:
            self.winner = colour
        elif counts[colour] == 0:
            self.winner = other
        self.to_move = other
        return removed

    def random_playout(self, rng: random.Random, max_moves: int = 100_000) -> int:
        moves = 0
        while not self.winner and moves < max_moves:
            self.play(*rng.choice(self.legal_points()))
            moves += 1
        return moves
