"""Bandida rules, pure Python: the cooperative tunnel-card game for 1 to 4 players.

The network lives on an unbounded square grid: each placed card covers two cells, and every
occupied cell keeps a 4-bit mask of its openings (east, north, west, south). Open exits are kept
incrementally as a count per empty cell of the openings that face it ("targets"), so a placement
or a blast costs a few cell look-ups; a card can only ever be placed over a target cell (it must
meet an open tunnel), which makes move generation a scan of the targets.

Hidden information. Hands are private and the draw pile is face down. A draw is a chance move
choosing a card kind from the unordered part of the pile, with probability by its count, which
is exactly a shuffled pile read from the top. The pile is kept as:
- `pool`: the shuffled part, as a sorted multiset of kinds;
- `late`: the ladder (and Bandido's super card in mode 3), public, shuffled in below the top
  `early` cards: they join the pool once `early` cards have been drawn from it;
- `bottom`: cards a player put under the deck when swapping, in order; only that player knows
  them. They are drawn after the shuffled part.
Cards out of the game (discards, blasts, alarms, alarm 2's burn) are face up for everyone.
A draw's notation names its card only to the seats that see it (`notation_seen_by`).

A turn: place a card (or swap: the hand goes under the pile, then 3 are drawn from the top,
even when the pile held only 1 or 2; or pass, when the pile is empty), apply its object's effect (a choice where there is one:
the card to blow up, the cards to discard), then draw back up. Alarms are resolved the moment
they are drawn. Phases: deal, draw (chance), play, blow, discard, alarm (each player discards
one), burn (chance: alarm 2 takes the pile's top cards), over.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from simulator.core.action_fields import Between, OneOf
from simulator.core.errors import IllegalAction, Refusal, RefusalCode, SettingsError
from simulator.core.setting_values import flag
from simulator.core.setting_values import whole as whole_number
from simulator.core.state import CHANCE, TERMINAL, Ending, EndingCode, GameState
from simulator.core.text import shown
from simulator.games.bandida.cards import (
    ALARM1,
    ALARM_KINDS,
    BACKPACK,
    CELL_KIND,
    DIRECTION_NAMES,
    DIRS,
    DISCARD,
    DYNAMITE,
    DYNAMITE_KINDS,
    KEEP_KINDS,
    KINDS,
    LADDER_KIND,
    SIDES,
    SKIP,
    SUPER_KIND,
    UNKNOWN,
    Sides,
    bandida_deck,
    bandido_deck,
    can_cover,
    cell_fits,
    kind_of,
    masks,
)

HAND_SIZE = 3
NO_SIDES: Sides = (0, 0)      # a cell no card touches
EARLY_CARDS = 10              # modes 2 and 3: the ladder is shuffled in below the top 10
BURN = 5                      # alarm 2: the top 5 cards leave the game
MAX_DISCARDS = 2              # the discard object: up to 2 cards each
MODES = (1, 2, 3)
DECKS = ("bandida", "bandido")
MODE_NAMES = {1: "catch Bandida", 2: "help Bandida escape", 3: "the lovers' escape"}
PHASES = ("deal", "draw", "burn", "play", "blow", "discard", "alarm", "over")
VERBS = ("place", "swap", "pass", "blow", "discard", "keep", "draw")


class BandidaRefusal(RefusalCode):
    """Why a placement is refused (`BandidaState.refusal_of`); the view words some its own way."""

    NOT_IN_HAND = "not_in_hand"
    NEVER_PLACED = "never_placed"               # a card that only acts (dynamite, the alarms)
    ROTATION = "rotation"
    SIDE = "side"                               # the super card's side, or a side of another card
    TAKEN = "taken"                             # fields: the cell
    TUNNEL_INTO_EARTH = "tunnel_into_earth"     # fields: the cell and the side
    EARTH_MEETS_TUNNEL = "earth_meets_tunnel"   # fields: the cell and the side
    NOT_JOINED = "not_joined"


class BandidaEnding(EndingCode):
    """How a game of Bandida ended (`BandidaState.ending`): won, or which loss."""

    CAUGHT = "caught"                           # won, mode 1
    ESCAPED = "escaped"                         # won, modes 2 and 3
    LOST = "lost"                               # a loss with no code of its own
    SPECIAL_CARD_GONE = "special_card_gone"     # fields: the card's code
    SPECIAL_CARD_MISSING = "special_card_missing"   # fields: the cards' titles
    NO_ONE_CAN_PLACE = "no_one_can_place"
    NOTHING_FITS = "nothing_fits"
    CELL_NEVER_CLOSED = "cell_never_closed"     # fields: the cell
ROTATION_DEGREES = (0, 90, 180, 270)
MAX_COORDINATE = 9_999        # a cell's x and y (a save's network is read within these too)
Cell = tuple[int, int]
Placement = tuple[int, int, int, int, int]   # kind, x, y of cell A, rotation, side


@dataclass(frozen=True, order=True)
class Move:
    """An action. verb: place (card at x, y with rotation in quarter turns and, for a two-sided
    card, its side 5 or 6), swap, pass, blow (the card whose cell A is x, y), discard (card),
    keep (stop discarding), draw (chance: the card that comes off the pile)."""

    verb: Annotated[str, OneOf(*VERBS)]
    card: Annotated[int, Between(-1, len(KINDS) - 1)] = -1
    x: Annotated[int, Between(-MAX_COORDINATE, MAX_COORDINATE)] = 0
    y: Annotated[int, Between(-MAX_COORDINATE, MAX_COORDINATE)] = 0
    rotation: Annotated[int, Between(0, len(ROTATION_DEGREES) - 1)] = 0
    side: Annotated[int, OneOf(0, *SIDES)] = 0       # 0: a one-sided card


SWAP, PASS, KEEP = Move("swap"), Move("pass"), Move("keep")


def _choice(value: Any, allowed: tuple, name: str) -> Any:
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) < 10:
        value = int(value)
    if isinstance(value, bool) or value not in allowed:
        raise SettingsError(f"{name} must be one of {', '.join(map(str, allowed))}, not {shown(value, 20)}")
    return value


class BandidaState(GameState[Move]):
    hidden_information = True
    worded_keys = ("reason", "event")    # words for people, worded anew by each version
    added_keys: ClassVar[dict[str, Any]] = {"first": 0}    # a save before it: seat 1 began

    def __init__(self, players: int = 2, mode: int = 1, deck: str = "bandida", side: int = 6,
                 ladder: bool = True, early_loss: bool = True, first: int = 0) -> None:
        self.players = players
        self.first = first                         # the seat that plays first (the youngest)
        self.mode = mode
        self.deck = deck
        self.side = side
        self.ladder = ladder
        self.early_loss = early_loss
        # the network: placed cards (kind, x, y, rotation, side); index 0 is the start card
        self.placed: list[tuple[int, int, int, int, int]] = []
        self.cell_mask: dict[Cell, int] = {}
        self.cell_card: dict[Cell, int] = {}      # cell -> index into placed
        self.targets: dict[Cell, int] = {}        # empty cell -> openings facing it
        self.border: dict[Cell, Sides] = {}       # empty cell touching a card -> its sides
        self.keep_placed: frozenset[int] = frozenset()   # the ladder and super card in the network
        self.exits = 0
        # cards
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.pool: list[int] = []
        self.late: list[int] = []
        self.early = 0
        self.bottom: list[tuple[int, int]] = []   # (kind, seat that put it there), top first
        self.removed: list[int] = []
        # the turn
        self.phase = "deal"
        self.turn = 0
        self.actor = 0                             # who decides in blow, discard and alarm
        self.draw_seat = 0
        self.draw_left = 0
        self.resume = "deal"                       # what follows the draws: deal, discard, end
        self.queue: list[int] = []                 # seats still to decide on the discard object
        self.discarded = 0                         # cards the actor discarded in this effect
        self.alarm_queue: list[int] = []           # seats still to discard for alarm 1
        self.burn_left = 0
        self.set_aside: list[int] = []             # the ladder or super card alarm 2 turned up
        self.skip = [False] * players
        self.bonus = 0                             # the backpack's extra card at this refill
        self.just_placed = -1
        self.turns = 0
        self.result = ""                           # "won" or "lost" at the end
        self.reason = ""
        self.event = ""                            # the last public happening, for the view

    # --- setup --------------------------------------------------------------------------------
    def _start(self) -> None:
        """The start card in the middle, the pile, and the deal's first draw."""
        start = SUPER_KIND if self.deck == "bandido" else CELL_KIND
        self._add_card(start, 0, 0, 0, self.side)
        pile = bandido_deck() if self.deck == "bandido" else bandida_deck()
        pile[LADDER_KIND] = 0                   # the ladder is taken out before the deal
        self.pool = sorted(pile.elements())
        self.phase, self.resume = "draw", "deal"
        self.draw_seat, self.draw_left = 0, HAND_SIZE
        specials = " and ".join(KINDS[k].title() for k in self._specials())
        goal = f"get {specials} into the network, then close every other tunnel" if specials else \
            "close every tunnel"
        self.event = f"Mode {self.mode}, {MODE_NAMES[self.mode]}: {goal}."

    def composition(self) -> Counter[int]:
        """Every card in this game, the start card included."""
        pile = bandido_deck() if self.deck == "bandido" else bandida_deck()
        if self.mode == 1 or (self.mode == 3 and not self.ladder):
            pile[LADDER_KIND] = 0
        if self.mode == 3:
            pile[SUPER_KIND] += 1
        pile[SUPER_KIND if self.deck == "bandido" else CELL_KIND] += 1
        return +pile

    def _specials(self) -> list[int]:
        """The cards that must be in the network to win: the ladder (modes 2 and 3), the
        super card (mode 3)."""
        if self.mode == 2:
            return [LADDER_KIND]
        if self.mode == 3:
            return [SUPER_KIND] + ([LADDER_KIND] if self.ladder else [])
        return []

    # --- the network ----------------------------------------------------------------------------
    def _add_card(self, kind: int, x: int, y: int, rotation: int, side: int) -> int:
        index = len(self.placed)
        self.placed.append((kind, x, y, rotation, side))
        if kind in KEEP_KINDS and index > 0:       # the start card is not the one to bring in
            self.keep_placed = self.keep_placed | {kind}
        mask_a, mask_b = masks(KINDS[kind].openings(side), rotation)
        dx, dy = DIRS[rotation]
        cells = (((x, y), mask_a, rotation), ((x + dx, y + dy), mask_b, (rotation + 2) % 4))
        for cell, _, _ in cells:
            facing = self.targets.pop(cell, 0)
            self.exits -= facing
            self.cell_card[cell] = index
        for cell, mask, _ in cells:
            self.cell_mask[cell] = mask
        for (cx, cy), mask, inner in cells:
            for d in range(4):
                if d == inner or not mask >> d & 1:
                    continue
                ddx, ddy = DIRS[d]
                n = (cx + ddx, cy + ddy)
                if n not in self.cell_mask:
                    self.targets[n] = self.targets.get(n, 0) + 1
                    self.exits += 1
        self._refresh_border(cells[0][0], cells[1][0])
        return index

    def _refresh_border(self, *cells: Cell) -> None:
        """Work the sides out again for `cells` and the empty cells around them."""
        border, cell_mask = self.border, self.cell_mask
        for x, y in cells:
            for cell in ((x, y), (x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)):
                if cell in cell_mask:
                    border.pop(cell, None)
                    continue
                sides = self._sides(cell)
                if sides[0]:
                    border[cell] = sides
                else:
                    border.pop(cell, None)

    def _remove_card(self, index: int) -> None:
        """Take a placed card out of the network (dynamite); indices after it shift down."""
        kind, x, y, rotation, _side = self.placed[index]
        dx, dy = DIRS[rotation]
        cells = [(x, y), (x + dx, y + dy)]
        if kind in KEEP_KINDS:
            self.keep_placed = self.keep_placed - {kind}
        for cell in cells:
            mask = self.cell_mask[cell]
            for d in range(4):
                if mask >> d & 1:
                    n = (cell[0] + DIRS[d][0], cell[1] + DIRS[d][1])
                    if n not in self.cell_mask:
                        left = self.targets[n] - 1
                        if left:
                            self.targets[n] = left
                        else:
                            del self.targets[n]
                        self.exits -= 1
        for cell in cells:
            del self.cell_mask[cell]
            del self.cell_card[cell]
        for cell in cells:
            for d in range(4):
                n = (cell[0] + DIRS[d][0], cell[1] + DIRS[d][1])
                facing = self.cell_mask.get(n)
                if facing is not None and facing >> ((d + 2) % 4) & 1:
                    self.targets[cell] = self.targets.get(cell, 0) + 1
                    self.exits += 1
        self._refresh_border(*cells)
        del self.placed[index]
        if self.just_placed > index:
            self.just_placed -= 1
        for cell, card in self.cell_card.items():
            if card > index:
                self.cell_card[cell] = card - 1

    def _rebuild_network(self) -> None:
        placed, self.placed = self.placed, []
        self.cell_mask, self.cell_card, self.targets, self.border, self.exits = {}, {}, {}, {}, 0
        self.keep_placed = frozenset()
        for card in placed:
            self._add_card(*card)

    def _sides(self, cell: Cell) -> tuple[int, int]:
        """(occupied, open): masks of the sides of an empty cell that touch a placed card, and of
        those where that card shows an opening."""
        occupied = opened = 0
        x, y = cell
        get = self.cell_mask.get
        for d in range(4):
            dx, dy = DIRS[d]
            mask = get((x + dx, y + dy))
            if mask is not None:
                occupied |= 1 << d
                if mask >> ((d + 2) % 4) & 1:
                    opened |= 1 << d
        return occupied, opened

    def _neighbourhood(self, cell: Cell) -> tuple[Sides, tuple[Sides | None, ...]]:
        """The sides of an empty cell and of its four neighbours (None where a card lies)."""
        x, y = cell
        cell_mask, get = self.cell_mask, self.border.get
        east, north, west, south = (x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)
        return get(cell, NO_SIDES), (None if east in cell_mask else get(east, NO_SIDES),
                                     None if north in cell_mask else get(north, NO_SIDES),
                                     None if west in cell_mask else get(west, NO_SIDES),
                                     None if south in cell_mask else get(south, NO_SIDES))

    def _fits(self, cell: Cell, openings: str) -> Iterator[tuple[int, int, int]]:
        """Every placement (x, y of cell A, rotation) of a shape that covers `cell` legally."""
        x, y = cell
        for d, fit, _ in cell_fits(openings, *self._neighbourhood(cell)):
            yield (x, y, fit.rotation) if fit.here_is_a else (x + DIRS[d][0], y + DIRS[d][1], fit.rotation)

    @staticmethod
    def _shapes(kind: int) -> list[tuple[int, str]]:
        """(side, openings) of each face of a kind that can be played."""
        k = KINDS[kind]
        if k.two_sided:
            return [(side, k.openings(side)) for side in SIDES]
        return [(0, k.shape)] if k.placeable else []

    def placements(self, kinds: list[int]) -> list[Move]:
        """Every legal placement of the given card kinds, sorted."""
        found: set[Move] = set()
        for kind in set(kinds):
            if kind == UNKNOWN:
                continue
            for side, openings in self._shapes(kind):
                for cell in self.targets:
                    for x, y, rotation in self._fits(cell, openings):
                        found.add(Move("place", kind, x, y, rotation, side))
        return sorted(found)

    def _any_fits(self, kinds: set[int]) -> bool:
        shapes = {openings for kind in kinds if kind != UNKNOWN for _, openings in self._shapes(kind)}
        for cell in self.targets:
            here, partners = self._neighbourhood(cell)
            if any(can_cover(openings, here, partners) for openings in shapes):
                return True
        return False

    def hopeless_cell(self) -> Cell | None:
        """An empty cell an exit faces that no card still in the game could fill, or None."""
        return self._dead_cell(self.cards_left())

    def _dead_cell(self, kinds: set[int]) -> Cell | None:
        """An empty cell that an exit faces and that no card of `kinds` could ever fill (more
        cards around it only add constraints), or None."""
        shapes = {openings for kind in kinds for _, openings in self._shapes(kind)}
        for cell in sorted(self.targets):
            here, partners = self._neighbourhood(cell)
            if not any(can_cover(openings, here, partners) for openings in shapes):
                return cell
        return None

    def strands_a_tunnel(self, placement: Placement) -> bool:
        """Whether placing this card (kind, x, y, rotation, side) from the mover's hand would
        leave a tunnel facing a cell that no card still to be played could fill (the early
        loss's test, dynamite aside): the cells around the card get new neighbours, and every
        cell may lose the last card that fitted it."""
        trial = self.clone()
        trial.hands[trial.turn].remove(placement[0])
        trial._add_card(*placement)
        return trial._dead_cell(trial.cards_left()) is not None

    def _card_cells(self, index: int) -> tuple[Cell, Cell]:
        _, x, y, rotation, _ = self.placed[index]
        dx, dy = DIRS[rotation]
        return (x, y), (x + dx, y + dy)

    def blast_targets(self) -> list[int]:
        """Indices of the placed cards dynamite may blow up: not the start card, the ladder or
        the card just placed, and every other card stays joined to the start card through cards
        sharing a side, i.e. not a cut vertex of the cards' adjacency graph (one depth-first
        pass, Hopcroft and Tarjan's low points)."""
        count = len(self.placed)
        neighbours: list[set[int]] = [set() for _ in range(count)]
        get = self.cell_card.get
        for (x, y), card in self.cell_card.items():
            for dx, dy in DIRS:
                other = get((x + dx, y + dy))
                if other is not None and other != card:
                    neighbours[card].add(other)
        found_at = [-1] * count
        low = [0] * count
        cut = [False] * count
        found_at[0], clock, root_children = 0, 1, 0
        stack = [(0, -1, iter(neighbours[0]))]
        while stack:
            card, parent, rest = stack[-1]
            other = next(rest, None)
            if other is None:
                stack.pop()
                if stack:
                    up = stack[-1][0]
                    low[up] = min(low[up], low[card])
                    if up != 0 and low[card] >= found_at[up]:
                        cut[up] = True
                continue
            if found_at[other] < 0:
                found_at[other] = low[other] = clock
                clock += 1
                if card == 0:
                    root_children += 1
                stack.append((other, card, iter(neighbours[other])))
            elif other != parent:
                low[card] = min(low[card], found_at[other])
        if clock < count:          # a card cut off already (never after legal play): no blast
            return []
        return [index for index in range(1, count)
                if not cut[index] and index != self.just_placed and self.placed[index][0] != LADDER_KIND]

    # --- the pile -------------------------------------------------------------------------------
    def pile_count(self) -> int:
        return len(self.pool) + len(self.late) + len(self.bottom)

    def _take(self, kind: int) -> None:
        """Take the drawn card off the pile (the outcome `kind` of a draw)."""
        if self.pool:
            self.pool.remove(kind)
            if self.early > 0:
                self.early -= 1
                if self.early == 0:
                    self._merge_late()
        else:
            self.bottom.pop(0)

    def _merge_late(self) -> None:
        self.pool = sorted(self.pool + self.late)
        self.late = []
        self.early = 0

    def _draw_choices(self) -> list[tuple[int, float]]:
        if self.pool:
            counts = Counter(self.pool)
            if self.phase == "draw" and self.resume == "deal":
                for alarm in ALARM_KINDS:          # an alarm dealt is shuffled back and replaced
                    counts.pop(alarm, None)
            total = sum(counts.values())
            return [(kind, count / total) for kind, count in sorted(counts.items())]
        if self.bottom:
            return [(self.bottom[0][0], 1.0)]
        return []

    # --- protocol: turn and actions -----------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.players

    def current_player(self) -> int:
        phase = self.phase
        if phase == "over":
            return TERMINAL
        if phase in ("draw", "burn", "deal"):
            return CHANCE
        if phase == "play":
            return self.turn
        return self.actor

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.current_player() != CHANCE:
            return []
        return [(Move("draw", kind), p) for kind, p in self._draw_choices()]

    def _discardable(self, seat: int) -> list[int]:
        return sorted({k for k in self.hands[seat] if k not in KEEP_KINDS})

    def legal_actions(self) -> list[Move]:
        phase = self.phase
        if phase == "play":
            moves = self.placements(self.hands[self.turn])
            if moves:
                return moves
            return [SWAP] if self.pile_count() else [PASS]   # a swap needs only a card to draw
        if phase == "blow":
            return sorted(Move("blow", -1, *self.placed[i][1:3]) for i in self.blast_targets())
        if phase == "discard":
            return [Move("discard", k) for k in self._discardable(self.actor)] + [KEEP]
        if phase == "alarm":
            return [Move("discard", k) for k in self._discardable(self.actor)]
        return []

    def is_legal(self, action: Any) -> bool:
        if not isinstance(action, Move):
            return False
        if self.phase == "play" and action.verb == "place":
            return self._place_problem(action) is None
        return super().is_legal(action)

    def _place_problem(self, move: Move) -> Refusal | None:
        """Why a placement is illegal (the cells it names in `fields`, as (x, y) and the side
        as a compass word: a view shows them on the table), or None when it is legal."""
        seat = self.turn
        if not 0 <= move.card < len(KINDS) or move.card not in self.hands[seat]:
            name = KINDS[move.card].title() if 0 <= move.card < len(KINDS) else "that card"
            return Refusal(f"{name} is not in your hand", BandidaRefusal.NOT_IN_HAND)
        kind = KINDS[move.card]
        if not kind.placeable:
            return Refusal(f"{kind.title()} is never placed", BandidaRefusal.NEVER_PLACED)
        if move.rotation not in range(4):
            return Refusal("a card turns in quarter turns (r0, r90, r180, r270)",
                           BandidaRefusal.ROTATION)
        if kind.two_sided != (move.side in SIDES) or (not kind.two_sided and move.side != 0):
            return Refusal("choose the side of the super card: 5 or 6 exits" if kind.two_sided
                           else "only the super card has two sides", BandidaRefusal.SIDE)
        mask_a, mask_b = masks(kind.openings(move.side), move.rotation)
        a = (move.x, move.y)
        b = (move.x + DIRS[move.rotation][0], move.y + DIRS[move.rotation][1])
        for cell in (a, b):
            if cell in self.cell_mask:
                return Refusal(f"cell {cell[0]},{cell[1]} is taken", BandidaRefusal.TAKEN,
                               {"cell": cell})
        connected = False
        for cell, mask, inner in ((a, mask_a, move.rotation), (b, mask_b, (move.rotation + 2) % 4)):
            for d in range(4):
                if d == inner:
                    continue
                n = (cell[0] + DIRS[d][0], cell[1] + DIRS[d][1])
                other = self.cell_mask.get(n)
                if other is None:
                    continue
                mine, theirs = mask >> d & 1, other >> ((d + 2) % 4) & 1
                where = f"on the {DIRECTION_NAMES[d]} side of {cell[0]},{cell[1]}"
                at = {"cell": cell, "side": DIRECTION_NAMES[d]}
                if mine and not theirs:
                    return Refusal(f"a tunnel would run into earth {where}",
                                   BandidaRefusal.TUNNEL_INTO_EARTH, at)
                if theirs and not mine:
                    return Refusal(f"an open tunnel would meet earth {where}",
                                   BandidaRefusal.EARTH_MEETS_TUNNEL, at)
                connected = connected or bool(mine)
        if not connected:
            return Refusal("the card must join an open tunnel of the network",
                           BandidaRefusal.NOT_JOINED)
        return None

    def refusal_of(self, action: Any) -> Refusal:
        if not self.is_terminal() and isinstance(action, Move) and self.phase == "play" and action.verb == "place":
            problem = self._place_problem(action)
            if problem is not None:
                return problem
        return super().refusal_of(action)

    def illegal_reason(self, action: Any) -> str:
        if self.is_terminal():
            return "the game is over"
        if not isinstance(action, Move):
            return f"not a Bandida move: {shown(action, 40)}"
        phase = self.phase
        if phase == "play":
            if action.verb == "place":
                problem = self._place_problem(action)
                return problem.text if problem is not None else "that placement is legal"
            if action.verb in ("swap", "pass"):
                if self.placements(self.hands[self.turn]):
                    return f"you can place a card, so you cannot {action.verb}"
                return "the draw pile is empty, so you pass" if action.verb == "swap" \
                    else "you can swap your hand: the draw pile still has cards"
            return "place a card from your hand"
        if phase == "blow":
            if action.verb != "blow":
                return "choose the card the dynamite blows up"
            card = self.cell_card.get((action.x, action.y))
            if card is None:
                return "there is no card there"
            if card == 0:
                return "the start card cannot be blown up"
            if self.placed[card][0] == LADDER_KIND:
                return "the ladder cannot be blown up"
            if card == self.just_placed:
                return "the dynamite cannot blow up the card it is on"
            if card not in self.blast_targets():
                return "blowing that card up would cut other cards off from the start card"
            return "choose the card by its first cell"
        if phase in ("discard", "alarm"):
            if action.verb == "keep" and phase == "alarm":
                return "the alarm: you must discard one card"
            if action.verb == "discard":
                if action.card not in self.hands[self.actor]:
                    return "that card is not in your hand"
                if action.card in KEEP_KINDS:
                    return "the ladder and the super card are never discarded"
            return "discard a card from your hand" + (" or keep the rest" if phase == "discard" else "")
        return f"{self.action_to_str(action)} is not a legal move now"

    def reveals(self, action: Move) -> bool:
        return False

    def notation_seen_by(self, notation: str, mover: int, seat: int | None) -> str:
        """A card drawn into a hand is seen by that hand's seat, and by the seat that put it
        under the pile (its own cards there, in order); every other seat and a spectator see
        "draw ?". The rest is public: an alarm is resolved face up the moment it is drawn,
        alarm 2's burnt cards leave the game face up, and a placed, blown up or discarded card
        lies face up; a swap names no card (its cards go under the pile unseen)."""
        words = notation.split()
        if mover != CHANCE or self.phase == "burn" or len(words) != 2 or words[0] != "draw":
            return notation
        try:
            kind = kind_of(words[1]).index
        except ValueError:
            return "draw ?"
        if kind in ALARM_KINDS:
            return notation
        under = self.bottom[0][1] if not self.pool and self.bottom else None
        return notation if seat is not None and seat in (self.draw_seat, under) else "draw ?"

    # --- applying -------------------------------------------------------------------------------
    def apply_unchecked(self, action: Move) -> None:
        verb = action.verb
        if verb == "draw":
            self._on_draw(action.card)
        elif verb == "place":
            self._on_place(action)
        elif verb == "swap":
            seat = self.turn
            self.bottom.extend((kind, seat) for kind in self.hands[seat])
            self.hands[seat] = []
            self.event = f"Player {seat + 1} could not place a card and swapped their hand."
            self._begin_draw(seat, HAND_SIZE, "end")
        elif verb == "pass":
            self.event = f"Player {self.turn + 1} could not place a card and passed."
            self._end_turn()
        elif verb == "blow":
            index = self.cell_card[(action.x, action.y)]
            kind = self.placed[index][0]
            self._remove_card(index)
            self.removed.append(kind)
            self.event = f"Dynamite! The card at {action.x},{action.y} ({KINDS[kind].title()}) is blown up."
            self._refill()
        elif verb == "discard":
            seat = self.actor
            self.hands[seat].remove(action.card)
            self.removed.append(action.card)
            self.event = f"Player {seat + 1} discards {KINDS[action.card].title()}."
            if self.phase == "alarm":
                self.alarm_queue.pop(0)
                self._next_in_alarm()
            else:
                self.discarded += 1
                if self.discarded >= MAX_DISCARDS:
                    self._done_discarding()
        elif verb == "keep":
            self._done_discarding()

    def _on_place(self, move: Move) -> None:
        seat = self.turn
        self.hands[seat].remove(move.card)
        self.just_placed = self._add_card(move.card, move.x, move.y, move.rotation, move.side)
        kind = KINDS[move.card]
        self.event = f"Player {seat + 1} places {kind.title()}."
        if self._won():
            self._finish("won", self._win_sentence())
            return
        icon = kind.icon
        if icon == DYNAMITE:
            if self.blast_targets():
                self.phase, self.actor = "blow", seat
                self.event += " Dynamite: choose a card to blow up."
                return
            self.event += " Dynamite: no card can be blown up."
        elif icon == DISCARD:
            self.event += " Everyone may discard up to 2 cards and draw back up."
            self._begin_discard_effect(seat)
            return
        elif icon == SKIP:
            if self.players > 1:
                self.skip[seat] = True
                self.event += f" Player {seat + 1} skips their next turn."
            else:
                self.event += " (Skip has no effect in a solo game.)"
        elif icon == BACKPACK:
            self.bonus = 1
            self.event += " Backpack: one extra card."
        self._refill()

    def _begin_discard_effect(self, first: int) -> None:
        """The discard object: each seat from the placer on may discard up to 2 cards."""
        self.queue = [(first + k) % self.players for k in range(self.players)]
        self.discarded = 0
        self._next_in_discard()

    def _next_in_discard(self) -> None:
        while self.queue and not self._discardable(self.queue[0]):
            self.queue.pop(0)
        if self.queue:
            self.phase, self.actor = "discard", self.queue[0]
            return
        self._refill()

    def _done_discarding(self) -> None:
        """The seat stops discarding and draws back up if it discarded anything."""
        seat = self.queue.pop(0)
        count, self.discarded = self.discarded, 0
        if count:
            self._begin_draw(seat, max(0, HAND_SIZE - len(self.hands[seat])), "discard")
        else:
            self._next_in_discard()

    def _begin_alarm(self, first: int) -> None:
        """Alarm 1: every seat, from the drawer on, discards one card it may discard."""
        self.alarm_queue = [(first + k) % self.players for k in range(self.players)]
        self._next_in_alarm()

    def _next_in_alarm(self) -> None:
        while self.alarm_queue and not self._discardable(self.alarm_queue[0]):
            self.alarm_queue.pop(0)
        if self.alarm_queue:
            self.phase, self.actor = "alarm", self.alarm_queue[0]
            return
        self.phase = "draw"                   # the drawer draws the alarm's replacement
        self._continue_draw()

    def _refill(self) -> None:
        seat = self.turn
        target = HAND_SIZE + self.bonus
        self.bonus = 0
        self._begin_draw(seat, max(0, target - len(self.hands[seat])), "end")

    def _begin_draw(self, seat: int, count: int, resume: str) -> None:
        self.phase, self.draw_seat, self.draw_left, self.resume = "draw", seat, count, resume
        self._continue_draw()

    def _continue_draw(self) -> None:
        """Go on drawing, or on to what follows when the draws are done or the pile is empty."""
        if self.phase == "draw" and (self.draw_left <= 0 or not self._draw_choices()):
            resume = self.resume
            if resume == "deal":
                self._deal_next()
            elif resume == "discard":
                self._next_in_discard()
            else:
                self._end_turn()

    def _on_draw(self, kind: int) -> None:
        if self.phase == "burn":
            self._take(kind)
            if kind in KEEP_KINDS:
                self.set_aside.append(kind)
            else:
                self.removed.append(kind)
            self.burn_left -= 1
            if self.burn_left <= 0 or not self._draw_choices():
                gone = BURN - self.burn_left - len(self.set_aside)
                burnt = self.removed[len(self.removed) - gone:] if gone else []
                self.event = f"Alarm 2! {len(burnt)} cards leave the game" + (
                    f"; {', '.join(KINDS[k].title() for k in self.set_aside)} shuffled back in." if self.set_aside
                    else ".")
                if self.set_aside:
                    self.pool = sorted(self.pool + self.late + [k for k, _ in self.bottom] + self.set_aside)
                    self.late, self.bottom, self.set_aside, self.early = [], [], [], 0
                self.phase = "draw"
                self._continue_draw()
            return
        self._take(kind)
        seat = self.draw_seat
        if kind in ALARM_KINDS:
            self.removed.append(kind)
            if KINDS[kind].icon == ALARM1:
                self.event = f"Alarm 1, drawn by Player {seat + 1}: everyone discards a card."
                self._begin_alarm(seat)
            else:
                self.phase, self.burn_left = "burn", BURN
                self.event = f"Alarm 2, drawn by Player {seat + 1}: the top {BURN} cards leave the game."
                if not self._draw_choices():
                    self.phase = "draw"
                    self._continue_draw()
            return
        self.hands[seat].append(kind)
        self.hands[seat].sort()
        self.draw_left -= 1
        self._continue_draw()

    def _deal_next(self) -> None:
        if self.draw_seat + 1 < self.players:
            self._begin_draw(self.draw_seat + 1, HAND_SIZE, "deal")
            return
        if self.mode >= 2:
            self.late = sorted(self._specials())
            self.early = min(EARLY_CARDS, len(self.pool))
            if self.early == 0:
                self._merge_late()
        self.turn = self.first
        self._start_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        self.just_placed = -1
        seat = self.turn
        for _ in range(2 * self.players):
            seat = (seat + 1) % self.players
            if self.skip[seat] and self.players > 1:
                self.skip[seat] = False
                self.event = f"{self.event} Player {seat + 1} sits out this turn (skip).".strip()
                continue
            break
        self.turn = seat
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = "play"
        loss = self._loss()
        if loss is not None:
            self._finish("lost", loss.text)

    # --- the end --------------------------------------------------------------------------------
    def _in_network(self, kind: int) -> bool:
        """Whether the ladder or the super card (not the start card) lies in the network."""
        return kind in self.keep_placed

    def _won(self) -> bool:
        return self.exits == 0 and all(self._in_network(k) for k in self._specials())

    def _win_sentence(self) -> str:
        if self.mode == 1:
            return "Every tunnel is closed: Bandida is caught."
        if self.mode == 2:
            return "The ladder is in place and every other tunnel is closed: Bandida escapes."
        return "Bandido's super card is in place and every other tunnel is closed: the lovers escape."

    def cards_left(self) -> set[int]:
        """Kinds still to be played: in hands and in the pile."""
        kinds = {k for hand in self.hands for k in hand} | set(self.pool) | set(self.late)
        kinds |= {k for k, _ in self.bottom}
        kinds.discard(UNKNOWN)
        return kinds

    def _loss(self) -> Ending | None:
        """Why the team has lost, seen at the start of a turn, or None."""
        for kind in self._specials():
            if kind in self.removed:
                return Ending(BandidaEnding.SPECIAL_CARD_GONE,
                              f"{KINDS[kind].title()} has left the game, so the team can no "
                              "longer win.", {"card": KINDS[kind].code})
        if self.exits == 0:
            missing = [KINDS[k].title() for k in self._specials() if not self._in_network(k)]
            return Ending(BandidaEnding.SPECIAL_CARD_MISSING,
                          f"Every tunnel is closed, but {' and '.join(missing)} never reached the "
                          "network.", {"cards": tuple(missing)})
        left = self.cards_left()
        if not self._any_fits(set(self.hands[self.turn])):
            if self.pile_count() == 0 and not any(self._any_fits(set(h)) for h in self.hands):
                return Ending(BandidaEnding.NO_ONE_CAN_PLACE,
                              "The draw pile is empty and no one can place a card.")
            if not self._any_fits(left):
                return Ending(BandidaEnding.NOTHING_FITS,
                              "No card left in the game fits anywhere in the network.")
        if self.early_loss and not left & DYNAMITE_KINDS:
            dead = self._dead_cell(left)
            if dead is not None:
                return Ending(BandidaEnding.CELL_NEVER_CLOSED,
                              f"The tunnel into cell {dead[0]},{dead[1]} can never be closed: no "
                              "card left in the game fits there, and no dynamite is left.",
                              {"cell": dead})
        return None

    def ending(self) -> Ending | None:
        """Won (mode 1: "caught", else "escaped") or which loss, with the cell a loss names."""
        if not self.is_terminal():
            return None
        if self.result == "won":
            won = BandidaEnding.CAUGHT if self.mode == 1 else BandidaEnding.ESCAPED
            return Ending(won, self.reason)
        loss = self._loss()       # the final state is the one the loss was seen in
        if loss is not None and loss.text == self.reason:
            return loss
        return Ending(BandidaEnding.LOST, self.reason)

    def _finish(self, result: str, reason: str) -> None:
        self.phase, self.result, self.reason = "over", result, reason
        self.event = reason

    def returns(self) -> list[float]:
        if self.result == "won":
            return [1.0] * self.players
        if self.result == "lost":
            return [-1.0] * self.players
        return [0.0] * self.players

    # --- playouts ---------------------------------------------------------------------------------
    def random_action(self, rng: random.Random) -> Move:
        if self.current_player() == CHANCE:
            if self.pool:
                dealing = self.phase == "draw" and self.resume == "deal"
                while True:
                    kind = self.pool[int(rng.random() * len(self.pool))]
                    if not (dealing and kind in ALARM_KINDS):
                        return Move("draw", kind)
            return Move("draw", self.bottom[0][0])
        legal = self.legal_actions()
        return legal[int(rng.random() * len(legal))]

    def scored_placements(self) -> list[tuple[int, Placement]]:
        """Every placement of the mover's hand as (score, (kind, x, y, rotation, side)), lower
        is better: the change in open exits, 8 less for the ladder or the super card going in,
        50 for closing the last exit before they are in. Fast (no sorting; a card over two
        target cells may come twice): the playouts' and the computer players' first look."""
        scored: list[tuple[int, Placement]] = []
        targets = self.targets
        waiting = {k for k in self._specials() if not self._in_network(k)}
        around = [(cell, self._neighbourhood(cell)) for cell in targets]
        exits = self.exits
        for kind in set(self.hands[self.turn]):
            special = kind in waiting
            for side, openings in self._shapes(kind):
                for cell, neighbourhood in around:
                    fits = cell_fits(openings, *neighbourhood)
                    if not fits:
                        continue
                    x, y = cell
                    closed_here = targets[cell]
                    for d, fit, added in fits:
                        dx, dy = DIRS[d]
                        partner = (x + dx, y + dy)
                        delta = added - closed_here - targets.get(partner, 0)
                        if special:
                            delta -= 8
                        elif waiting and exits + delta <= 0:
                            delta = 50
                        if fit.here_is_a:
                            scored.append((delta, (kind, x, y, fit.rotation, side)))
                        else:
                            scored.append((delta, (kind, partner[0], partner[1], fit.rotation, side)))
        return scored

    def playout_placement(self, rng: random.Random, greed: float = 0.8) -> Move | None:
        """A placement for a fast playout, or None when no card fits: with probability `greed`
        one of the best scored (`scored_placements`, ties at random), else any legal one."""
        scored = self.scored_placements()
        if not scored:
            return None
        if rng.random() < greed:
            best_score = min(score for score, _ in scored)
            pick = [found for score, found in scored if score == best_score]
        else:
            pick = [found for _, found in scored]
        kind, x, y, rotation, side = pick[int(rng.random() * len(pick))]
        return Move("place", kind, x, y, rotation, side)

    def random_playout_step(self, rng: random.Random) -> None:
        """One step of a fast playout (search): chance at random, a placement that closes
        exits more often than not, dynamite at random, discards kept."""
        phase = self.phase
        if phase == "play":
            move = self.playout_placement(rng)
            if move is None:
                move = SWAP if self.pile_count() else PASS
        elif phase == "discard":
            move = KEEP
        elif phase == "blow":
            targets = self.blast_targets()
            move = Move("blow", -1, *self.placed[targets[int(rng.random() * len(targets))]][1:3])
        else:
            move = self.random_action(rng)
        self.apply_unchecked(move)

    # --- information ------------------------------------------------------------------------------
    def redacted(self, player: int) -> BandidaState:
        other = self.clone()
        other.hands = [list(hand) if seat == player else [UNKNOWN] * len(hand)
                       for seat, hand in enumerate(self.hands)]
        other.pool = [UNKNOWN] * len(self.pool)
        other.bottom = [(kind if owner == player else UNKNOWN, owner) for kind, owner in self.bottom]
        return other

    def watched(self) -> BandidaState:
        """Every hand, the pile and the cards under it face down: what no seat hides is the
        network, the cards out of the game and the counts."""
        return self.redacted(-1)          # a seat no card belongs to

    def unseen(self, player: int) -> list[int]:
        """The cards `player` cannot see, as a sorted list of kinds: everything in the game less
        the network, the cards out of the game, its own hand, the late cards and its own cards
        under the pile. Works on a redacted state."""
        left = self.composition()
        seen = [card[0] for card in self.placed] + self.removed + self.hands[player] + self.late
        seen += [kind for kind, owner in self.bottom if owner == player] + self.set_aside
        left.subtract(seen)
        return sorted(left.elements())

    def resample(self, player: int, rng: random.Random) -> BandidaState:
        """A full state the seat cannot tell from this one: the unseen cards dealt at random to
        the other hands, the pile and the others' cards under it (alarms only ever lie in the
        pile, since a drawn alarm is resolved at once)."""
        other = self.clone()
        unseen = self.unseen(player)
        alarms = [k for k in unseen if k in ALARM_KINDS]
        rest = [k for k in unseen if k not in ALARM_KINDS]
        rng.shuffle(rest)
        slots = len(self.pool) - len(alarms)
        if slots < 0:
            raise ValueError("more unseen alarms than cards in the pile")
        other.pool = sorted(alarms + rest[:slots])
        rest = rest[slots:]
        for seat, hand in enumerate(self.hands):
            if seat != player:
                other.hands[seat] = sorted(rest[:len(hand)])
                rest = rest[len(hand):]
        bottom = []
        for kind, owner in self.bottom:
            if owner == player:
                bottom.append((kind, owner))
            else:
                bottom.append((rest.pop(), owner))
        other.bottom = bottom
        return other

    # --- copies and serialisation -------------------------------------------------------------------
    def clone(self) -> BandidaState:
        other = BandidaState.__new__(BandidaState)
        other.__dict__.update(self.__dict__)
        other.placed = self.placed[:]
        other.cell_mask = dict(self.cell_mask)
        other.cell_card = dict(self.cell_card)
        other.targets = dict(self.targets)
        other.border = dict(self.border)
        other.hands = [h[:] for h in self.hands]
        other.pool = self.pool[:]
        other.late = self.late[:]
        other.bottom = self.bottom[:]
        other.removed = self.removed[:]
        other.queue = self.queue[:]
        other.alarm_queue = self.alarm_queue[:]
        other.set_aside = self.set_aside[:]
        other.skip = self.skip[:]
        return other

    def summary(self) -> str:
        side = f"{self.side} exits"
        extra = "" if self.mode != 3 or self.ladder else ", no ladder"
        return f"mode {self.mode}, {self.deck}, {side}{extra}"

    @staticmethod
    def _code(kind: int) -> str:
        return "?" if kind == UNKNOWN else KINDS[kind].code

    def to_dict(self) -> dict[str, Any]:
        code = self._code
        return {
            "game": "bandida", "players": self.players, "mode": self.mode, "deck": self.deck,
            "side": self.side, "ladder": self.ladder, "early_loss": self.early_loss,
            "first": self.first,
            "network": [[KINDS[k].code, x, y, ROTATION_DEGREES[r], s] for k, x, y, r, s in self.placed],
            "hands": [[code(k) for k in hand] for hand in self.hands],
            "pool": [code(k) for k in self.pool],
            "late": [code(k) for k in self.late], "early": self.early,
            "bottom": [[code(k), owner] for k, owner in self.bottom],
            "removed": [code(k) for k in self.removed],
            "phase": self.phase, "turn": self.turn, "actor": self.actor,
            "draw_seat": self.draw_seat, "draw_left": self.draw_left, "resume": self.resume,
            "queue": self.queue[:], "alarm_queue": self.alarm_queue[:], "discarded": self.discarded, "burn_left": self.burn_left,
            "set_aside": [code(k) for k in self.set_aside], "skip": self.skip[:], "bonus": self.bonus,
            "just_placed": self.just_placed, "turns": self.turns, "result": self.result,
            "reason": self.reason, "event": self.event,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BandidaState:
        try:
            return cls._from_dict(data)
        except SettingsError as error:
            raise ValueError(f"not a Bandida state: {error}") from None
        except (TypeError, AttributeError, KeyError, IndexError) as error:
            raise ValueError(f"not a Bandida state: {type(error).__name__} {error}") from None

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> BandidaState:
        if not isinstance(data, dict) or data.get("game") != "bandida":
            raise ValueError("not a Bandida state")

        def whole(name: str, low: int, high: int) -> int:
            return whole_number(data[name], name, low, high)

        def kind(text: Any, hidden: bool = True) -> int:
            if text == "?" and hidden:
                return UNKNOWN
            if not isinstance(text, str):
                raise ValueError(f"{shown(text, 30)} is not a card")
            return kind_of(text).index

        def kinds(name: str) -> list[int]:
            value = data[name]
            if not isinstance(value, list):
                raise ValueError(f"{name} must be a list of cards")
            return [kind(k) for k in value]

        players = whole("players", 1, 4)
        state = cls(players, _choice(data["mode"], MODES, "mode"),
                    _choice(data["deck"], DECKS, "deck"), _choice(data["side"], SIDES, "side"),
                    flag(data["ladder"], "ladder"), flag(data["early_loss"], "early_loss"),
                    # a state of an earlier version has no first player: seat 1 started
                    whole_number(data.get("first", 0), "first", 0, players - 1))
        if state.deck == "bandido" and state.mode != 1:
            raise ValueError("the Bandido deck plays mode 1 only")
        network = data["network"]
        if not isinstance(network, list) or not network:
            raise ValueError("network must list the placed cards, the start card first")
        for n, entry in enumerate(network):
            if not isinstance(entry, list) or len(entry) != 5:
                raise ValueError(f"network card {n + 1} must be [card, x, y, rotation, side]")
            k = kind(entry[0], hidden=False)
            x, y, degrees, side = entry[1:]
            if not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10_000 for v in (x, y, side)):
                raise ValueError(f"network card {n + 1}: x, y and side must be whole numbers")
            if degrees not in ROTATION_DEGREES:
                raise ValueError(f"network card {n + 1}: rotation must be 0, 90, 180 or 270")
            if KINDS[k].two_sided != (side in SIDES) or not KINDS[k].placeable:
                raise ValueError(f"network card {n + 1}: {KINDS[k].code} cannot lie there with side {side}")
            cells = ((x, y), (x + DIRS[ROTATION_DEGREES.index(degrees)][0], y + DIRS[ROTATION_DEGREES.index(degrees)][1]))
            if any(c in state.cell_mask for c in cells):
                raise ValueError(f"network card {n + 1} overlaps another card")
            state._add_card(k, x, y, ROTATION_DEGREES.index(degrees), side)
        for (cx, cy), mask in state.cell_mask.items():
            for d in range(4):
                near = (cx + DIRS[d][0], cy + DIRS[d][1])
                other = state.cell_mask.get(near)
                if (other is not None and state.cell_card[near] != state.cell_card[(cx, cy)]
                        and (mask >> d & 1) != (other >> ((d + 2) % 4) & 1)):
                    raise ValueError(f"in the network, cells {cx},{cy} and {near[0]},{near[1]} do not "
                                     f"match (opening against earth)")
        start = SUPER_KIND if state.deck == "bandido" else CELL_KIND
        if state.placed[0][:4] != (start, 0, 0, 0) or state.placed[0][4] != state.side:
            raise ValueError("the first network card must be the start card at 0,0 with the chosen side")
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != state.players:
            raise ValueError(f"hands must be {state.players} lists")
        state.hands = []
        for hand in hands:
            if not isinstance(hand, list) or len(hand) > HAND_SIZE + 1:
                raise ValueError("a hand holds at most 4 cards")
            state.hands.append(sorted(kind(k) for k in hand))
        state.pool = sorted(kinds("pool"))
        state.late = kinds("late")
        state.early = whole("early", 0, EARLY_CARDS)
        bottom = data["bottom"]
        if not isinstance(bottom, list):
            raise ValueError("bottom must be a list")
        state.bottom = []
        for entry in bottom:
            if not isinstance(entry, list) or len(entry) != 2:
                raise ValueError("a bottom card must be [card, seat]")
            owner = entry[1]
            if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < state.players:
                raise ValueError("a bottom card's seat is out of range")
            state.bottom.append((kind(entry[0]), owner))
        state.removed = kinds("removed")
        state.set_aside = kinds("set_aside")
        if UNKNOWN in state.removed + state.late + state.set_aside:
            raise ValueError("cards out of the game, late and set aside are face up")
        phase = data["phase"]
        if phase not in PHASES:
            raise ValueError(f"phase must be one of {', '.join(PHASES)}")
        state.phase = phase
        top = state.players - 1
        state.turn, state.actor, state.draw_seat = whole("turn", 0, top), whole("actor", 0, top), whole("draw_seat", 0, top)
        state.draw_left = whole("draw_left", 0, HAND_SIZE + 1)
        if data["resume"] not in ("deal", "discard", "end"):
            raise ValueError("resume must be deal, discard or end")
        state.resume = data["resume"]
        for name in ("queue", "alarm_queue"):
            queue = data[name]
            if not isinstance(queue, list) or len(queue) > state.players or not all(
                    isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= top for s in queue):
                raise ValueError(f"{name} must list seats")
            setattr(state, name, list(queue))
        state.discarded = whole("discarded", 0, MAX_DISCARDS)
        state.burn_left = whole("burn_left", 0, BURN)
        skip = data["skip"]
        if not isinstance(skip, list) or len(skip) != state.players or not all(isinstance(s, bool) for s in skip):
            raise ValueError("skip must be one true/false per seat")
        state.skip = list(skip)
        state.bonus = whole("bonus", 0, 1)
        state.just_placed = whole("just_placed", -1, len(state.placed) - 1)
        state.turns = whole("turns", 0, 10**9)
        if data["result"] not in ("", "won", "lost") or (data["result"] != "") != (phase == "over"):
            raise ValueError("result must be won or lost exactly when the game is over")
        for name in ("result", "reason", "event"):
            if not isinstance(data[name], str):
                raise ValueError(f"{name} must be text")
        state.result, state.reason, state.event = data["result"], data["reason"], data["event"]
        if phase == "discard" and (not state.queue or state.queue[0] != state.actor):
            raise ValueError("the discarding seat must head the queue")
        if phase == "alarm" and (not state.alarm_queue or state.alarm_queue[0] != state.actor):
            raise ValueError("the discarding seat must head the alarm's queue")
        # every card of the game is somewhere, once
        every = state.composition()
        where = [c[0] for c in state.placed] + state.removed + state.late + state.set_aside + state.pool
        where += [k for h in state.hands for k in h] + [k for k, _ in state.bottom]
        if state.resume == "deal" and state.phase in ("deal", "draw"):
            where += state._specials()          # set apart until the deal is done (_deal_next)
        hidden = where.count(UNKNOWN)
        known = Counter(k for k in where if k != UNKNOWN)
        if known - every or sum(every.values()) != len(where) or (not hidden and known != every):
            raise ValueError("the cards do not add up to the deck of these settings")
        if phase == "play" and not hidden:
            # a turn's start, judged as play judges it: a position written by hand (or by a
            # test) where the team has lost opens lost, never as a turn with no legal move
            state._start_turn()
        return state

    # --- notation -------------------------------------------------------------------------------------
    def action_to_str(self, action: Move) -> str:
        verb = action.verb
        if verb == "place":
            side = f" s{action.side}" if action.side else ""
            return (f"place {KINDS[action.card].code} {action.x},{action.y} "
                    f"r{ROTATION_DEGREES[action.rotation]}{side}")
        if verb == "blow":
            return f"blow {action.x},{action.y}"
        if verb in ("discard", "draw"):
            return f"{verb} {KINDS[action.card].code}"
        return verb

    def action_from_str(self, text: str) -> Move:
        words = str(text).strip().split()
        usage = ("write place CARD X,Y rDEG [s5|s6], swap, pass, blow X,Y, discard CARD, keep "
                 "or draw CARD")
        try:
            verb = words[0].lower()
            if verb in ("swap", "pass", "keep") and len(words) == 1:
                return Move(verb)
            if verb in ("discard", "draw") and len(words) == 2:
                return Move(verb, kind_of(words[1]).index)
            if verb == "blow" and len(words) == 2:
                x, y = _xy(words[1])
                return Move("blow", -1, x, y)
            if verb == "place" and len(words) in (4, 5):
                card = kind_of(words[1]).index
                x, y = _xy(words[2])
                if not words[3].startswith("r") or int(words[3][1:]) not in ROTATION_DEGREES:
                    raise ValueError
                rotation = ROTATION_DEGREES.index(int(words[3][1:]))
                side = 0
                if len(words) == 5:
                    if words[4] not in ("s5", "s6"):
                        raise ValueError
                    side = int(words[4][1:])
                return Move("place", card, x, y, rotation, side)
        except (ValueError, IndexError):
            pass
        raise IllegalAction(f"{shown(text, 60)} is not a Bandida move; {usage}")


def _xy(text: str) -> tuple[int, int]:
    left, sep, right = text.partition(",")
    if not sep or len(text) > 12:
        raise ValueError(text)
    return int(left), int(right)


def new_game(players: int = 2, mode: Any = 1, deck: Any = "bandida", side: Any = 6,
             ladder: Any = True, early_loss: Any = True, first: Any = 0) -> BandidaState:
    """The starting state (before the deal, which is chance) for the given settings; `first`
    is the seat that plays first (RULES: the youngest player; seat 1 unless set)."""
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
        raise SettingsError(f"Bandida is for 1 to 4 players, not {shown(players, 20)}")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise SettingsError(f"the first player must sit at one of the {players} seats: first = 0 "
                            f"for seat 1 ... first = {players - 1} for seat {players}, not "
                            f"{shown(first, 20)}")
    mode = _choice(mode, MODES, "mode")
    deck = _choice(deck.strip().lower() if isinstance(deck, str) else deck, DECKS, "deck")
    side = _choice(side, SIDES, "side")
    ladder = flag(ladder, "ladder")
    early_loss = flag(early_loss, "early_loss")
    if deck == "bandido" and mode != 1:
        raise SettingsError("the Bandido deck plays mode 1 only (modes 2 and 3 need Bandida's ladder)")
    if not ladder and mode != 3:
        raise SettingsError("playing without the ladder is a mode 3 choice")
    state = BandidaState(players, mode, deck, side, ladder, early_loss, first)
    state._start()
    return state
