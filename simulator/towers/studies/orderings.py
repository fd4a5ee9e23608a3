"""Which orders of a tower's pieces a study judges (`--orderings`).

- `given`: the tower's own order only (the default);
- `permutations`: every distinct order (pieces that repeat are not told apart), refused beyond
  MAX_ORDERINGS;
- `random:N`: N distinct orders drawn from a generator seeded by (study seed, tower), so the
  same seed gives the same orders.

Counting comes before generating, so a tower of too many pieces is refused at once.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from simulator.core.errors import InvalidArgument
from simulator.core.text import shown
from simulator.towers.studies.limits import MAX_ORDERINGS

ORDERINGS_STREAM = 0x0DE5   # keeps the orderings' random numbers apart from the tremor's

Ordering = tuple[str, ...]


@dataclass(frozen=True)
class OrderingSpec:
    kind: str           # "given", "permutations" or "random"
    count: int = 0      # for "random": how many

    def __str__(self) -> str:
        return f"random:{self.count}" if self.kind == "random" else self.kind


GIVEN = OrderingSpec("given")


def parse_orderings(text: str) -> OrderingSpec:
    """`given`, `permutations` or `random:N` (1 <= N <= MAX_ORDERINGS); else InvalidArgument."""
    word, _, count = text.strip().partition(":")
    if word in ("given", "permutations") and not count:
        return OrderingSpec(word)
    if word == "random":
        number = int(count) if count.isascii() and count.isdigit() and len(count) <= 9 else None
        if number is not None and 1 <= number <= MAX_ORDERINGS:
            return OrderingSpec("random", number)
        raise InvalidArgument("orderings", f"orderings random:N wants N from 1 to "
                                           f"{MAX_ORDERINGS}, not {shown(count, 20)}")
    raise InvalidArgument("orderings", f"orderings wants given, permutations or random:N, not "
                                       f"{shown(text, 30)}")


def count_orderings(pieces: Sequence[str]) -> int:
    """Distinct orders of the pieces: n! / (m1! m2! ...) for pieces that repeat m times."""
    count = math.factorial(len(pieces))
    for repeats in Counter(pieces).values():
        count //= math.factorial(repeats)
    return count


def distinct_permutations(pieces: Sequence[str]) -> Iterator[Ordering]:
    """Every distinct order, in lexicographic order of the pieces' first appearance (the given
    order first); each step is the classic next-permutation, so repeats cost nothing."""
    rank = {piece: index for index, piece in reversed(list(enumerate(pieces)))}
    keys = sorted(rank[p] for p in pieces)
    by_rank = {index: piece for piece, index in rank.items()}
    while True:
        yield tuple(by_rank[k] for k in keys)
        i = len(keys) - 2
        while i >= 0 and keys[i] >= keys[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(keys) - 1
        while keys[j] <= keys[i]:
            j -= 1
        keys[i], keys[j] = keys[j], keys[i]
        keys[i + 1:] = reversed(keys[i + 1:])


def random_orderings(pieces: Sequence[str], count: int, seed: int, tower: int) -> list[Ordering]:
    """`count` distinct orders drawn at random (count at most count_orderings(pieces))."""
    rng = np.random.default_rng([seed, tower, ORDERINGS_STREAM])
    chosen: dict[Ordering, None] = {}
    while len(chosen) < count:
        chosen.setdefault(tuple(pieces[i] for i in rng.permutation(len(pieces))), None)
    return list(chosen)


def orderings_for(spec: OrderingSpec, pieces: Sequence[str], seed: int, tower: int,
                  where: str) -> list[Ordering]:
    """The orders to judge for one tower; `where` names it in a refusal."""
    if spec.kind == "given":
        return [tuple(pieces)]
    available = count_orderings(pieces)
    if spec.kind == "permutations":
        if available > MAX_ORDERINGS:
            raise InvalidArgument("orderings", f"{where}: {len(pieces)} pieces have {available} "
                                               f"orderings; permutations allows at most "
                                               f"{MAX_ORDERINGS} (use random:N)")
        return list(distinct_permutations(pieces))
    if spec.count > available:
        raise InvalidArgument("orderings", f"{where}: random:{spec.count} asks for more "
                                           f"orderings than the {available} that {len(pieces)} "
                                           f"pieces have (use permutations)")
    return random_orderings(pieces, spec.count, seed, tower)
