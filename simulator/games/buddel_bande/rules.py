"""Buddel Bande (the moles' race) rules, pure Python and fast enough for tree search.

The track: the haystack (position 0), 24 exit holes (1-24), each showing one symbol (F flower,
L leaf, C four-leaf clover), and the den entrance (25), which carries every symbol. Each seat
owns one clan (seat 0 the ladybirds, 1 the ants, 2 the worms, 3 the snails); every clan in play
has a small, a medium and a large mole. From above the moles of a size look alike: their clan is
hidden under them. A mole is known by the haystack spot it started on (1 to 3 x players), and
keeps that name as it runs.

A game is a chain of nodes:
- ARRANGE (chance, once per haystack spot): which mole stands on the next spot, so a seed
  arranges the haystack; with `know_own` each player knows where their own moles stand.
- ROLL (chance): the figure die (small, medium, large, any mole, dog, dog or any mole) and the
  symbol die (F, F, L, L, C, C). When nothing can move the same player rolls again.
- MOVE (the player): a mole of the rolled figure runs to the nearest free hole ahead with the
  rolled symbol, skipping occupied ones, else to the den entrance and into its clan's den; or
  the dog goes beside any other hole with the symbol, forward or back; or, when every possible
  move would bring home a mole the player knows to be an opponent's (seen, or by elimination:
  the player's own mole of that size is known to be another), the player may decline.
  A mole in the hole beside the dog is paralysed.
- LOOK (the player, after moving a mole that is still on the track): look under it, or not.
- PEEK (the player who looked): the look is shown to that player alone; `done` ends the turn.
The clan whose third mole enters its den wins, on whoever's turn it happens.

Each seat's knowledge is part of the state: the moles it looked at (which moles a seat looked
at is public, as at the table; what it saw is not), its own moles with `know_own`, and every
mole in a den (turned over). `redacted(seat)` hides every clan that seat does not know;
`resample(seat, rng)` deals the unknown clans again, one clan per size, from that seat's
knowledge only; `notation_seen_by` hides the clans the haystack's arrangement names.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any

from simulator.core.action_fields import Between, OneOf
from simulator.core.errors import IllegalAction, SettingsError
from simulator.core.setting_values import flag, whole
from simulator.core.state import CHANCE, TERMINAL, GameState
from simulator.core.text import printable, shown

# --- the board ---------------------------------------------------------------------------------
HAYSTACK = 0
HOLES = 24
DEN_ENTRANCE = 25
IN_DEN = 26                       # the position of a mole that went into its den
FLOWER, LEAF, CLOVER = 0, 1, 2
SYMBOL_LETTERS = "FLC"
SYMBOL_NAMES = ("flower", "leaf", "clover")
#: the symbol of holes 1-24 (index 0 is the haystack, which shows none)
TRACK = "FLCLFCCFLFCLLCFCLFFLCFCL"
HOLE_SYMBOL: tuple[int, ...] = (-1, *(SYMBOL_LETTERS.index(c) for c in TRACK))

CLANS = ("ladybirds", "ants", "worms", "snails")
CLAN_SINGULAR = ("ladybird", "ant", "worm", "snail")
SIZES = ("small", "medium", "large")
SMALL, MEDIUM, LARGE = 0, 1, 2
FIGURES = ("small", "medium", "large", "any", "dog", "dog-or-any")
ANY, DOG, DOG_OR_ANY = 3, 4, 5
FIGURE_NAMES = ("small mole", "medium mole", "large mole", "any mole", "dog", "dog or any mole")
#: the symbol die's six faces
SYMBOL_FACES = (FLOWER, FLOWER, LEAF, LEAF, CLOVER, CLOVER)
MIN_PLAYERS, MAX_PLAYERS = 2, 4
UNKNOWN = -1
MOLES_TO_WIN = 3
DOG_START = 24

ARRANGE, ROLL, MOVE, LOOK, PEEK, OVER = range(6)
PHASES = ("arrange", "roll", "move", "look", "peek", "over")


def _later_holes(symbol: int, position: int) -> tuple[int, ...]:
    return tuple(h for h in range(position + 1, HOLES + 1) if HOLE_SYMBOL[h] == symbol)


#: NEXT_HOLES[symbol][position]: the holes ahead of `position` with `symbol`, nearest first
NEXT_HOLES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_later_holes(symbol, position) for position in range(HOLES + 1)) for symbol in range(3))
#: DOG_HOLES[symbol]: the holes 1-24 with `symbol`
DOG_HOLES: tuple[tuple[int, ...], ...] = tuple(
    tuple(h for h in range(1, HOLES + 1) if HOLE_SYMBOL[h] == symbol) for symbol in range(3))
#: the roll's chance outcomes: every figure with every symbol, weighted by the symbol die
ROLL_PROBABILITY = 1.0 / (len(FIGURES) * 3)


KINDS = ("arrange", "roll", "mole", "dog", "decline", "look", "no-look", "done")


@dataclass(frozen=True, order=True)
class Act:
    """One action. kind: 'arrange' (chance: a = clan, b = size of the mole on the next haystack
    spot), 'roll' (chance: a = figure, b = symbol), 'mole' (a = the mole's index, its haystack
    spot minus one), 'dog' (a = the hole the dog goes beside), 'decline', 'look', 'no-look',
    'done' (after a look)."""

    kind: Annotated[str, OneOf(*KINDS)]
    a: Annotated[int, Between(0, HOLES)] = 0
    b: Annotated[int, Between(0, len(SIZES) - 1)] = 0


DECLINE, LOOK_UNDER, NO_LOOK, DONE = Act("decline"), Act("look"), Act("no-look"), Act("done")
ROLLS: tuple[Act, ...] = tuple(Act("roll", f, s) for f in range(len(FIGURES)) for s in range(3))


def move_mole(mole: int) -> Act:
    return Act("mole", mole)


def move_dog(hole: int) -> Act:
    return Act("dog", hole)


def position_name(position: int) -> str:
    if position == HAYSTACK:
        return "the haystack"
    if position == DEN_ENTRANCE:
        return "the den entrance"
    if position == IN_DEN:
        return "its den"
    return f"hole {position}"


def check_settings(players: Any, first: Any) -> None:
    if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SettingsError(f"Buddel Bande is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {shown(players, 30)}")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        seat = f" (seat {first + 1})" if isinstance(first, int) and not isinstance(first, bool) else ""
        raise SettingsError(f"the first player must sit at one of the {players} seats, 1 to {players}: "
                            f"first = 0 for seat 1 ... first = {players - 1} for seat {players}, "
                            f"not {shown(first, 30)}{seat}")


class BuddelState(GameState[Act]):
    """The whole table: moles (size, clan, position), the dog, the dens, the turn and what each
    seat knows. In a redacted state the clans a seat does not know are UNKNOWN."""

    hidden_information = True

    def __init__(self, players: int = 2, know_own: bool = True, first: int = 0) -> None:
        check_settings(players, first)
        self.players = players
        self.know_own = know_own
        self.first = first
        count = 3 * players
        self.size: list[int] = []             # per mole, in haystack order (filled by ARRANGE)
        self.clan: list[int] = []             # per mole; UNKNOWN where the holder may not know
        self.pos: list[int] = []              # per mole: 0 haystack, 1-24 a hole, IN_DEN
        self.mole_count = count
        self.occupant = [-1] * (HOLES + 1)    # hole -> mole index, or -1
        self.dog = DOG_START
        self.dens = [0] * players             # moles in each clan's den
        self.looked = [0] * players           # per seat, bit mask of the moles it looked at
        self.own = [0] * players              # per seat, bit mask of its own moles it knows
        self.den_mask = 0                     # moles in a den (everybody has seen them)
        self.phase = ARRANGE
        self.to_move = first
        self.figure = -1                      # the roll being played
        self.symbol = -1
        self.moved = -1                       # the mole moved this turn (LOOK, PEEK)
        self.winner = -1                      # the winning seat (its clan)
        self.turns = 0                        # turns completed
        self.turn_rolls: tuple[tuple[int, int], ...] = ()     # this turn's rolls, rerolls first
        self.turn_move: tuple[Any, ...] = ()  # this turn's move: see _record_move
        self.last_turn: tuple[Any, ...] = ()  # (seat, rolls, move, looked) of the turn before

    # --- whose turn ---------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.players

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in (ARRANGE, ROLL):
            return CHANCE
        return self.to_move

    # --- queries ------------------------------------------------------------------------------
    def known_mask(self, seat: int) -> int:
        """The moles whose clan `seat` knows: looked at, its own (know_own) and those in dens."""
        return self.looked[seat] | self.own[seat] | self.den_mask

    def knows(self, seat: int, mole: int) -> bool:
        return bool(self.known_mask(seat) >> mole & 1)

    def paralysed(self, mole: int) -> bool:
        return self.pos[mole] == self.dog

    def destination(self, mole: int, symbol: int) -> int:
        """Where `mole` runs on `symbol`: the nearest free hole ahead with it, else the den
        entrance."""
        occupant = self.occupant
        for hole in NEXT_HOLES[symbol][self.pos[mole]]:
            if occupant[hole] < 0:
                return hole
        return DEN_ENTRANCE

    def movable_moles(self) -> list[int]:
        """The moles the current roll lets the player move (by index)."""
        figure = self.figure
        if figure < 0 or figure == DOG:
            return []
        any_size = figure >= ANY
        dog, pos, size = self.dog, self.pos, self.size
        return [m for m in range(len(pos))
                if pos[m] != IN_DEN and pos[m] != dog and (any_size or size[m] == figure)]

    def dog_holes(self) -> list[int]:
        if self.figure != DOG and self.figure != DOG_OR_ANY:
            return []
        return [h for h in DOG_HOLES[self.symbol] if h != self.dog]

    def may_decline(self) -> bool:
        """True when every possible move would bring home a mole the mover knows to be an
        opponent's (never from facts the mover has not seen)."""
        if self.phase != MOVE or self.figure == DOG or self.figure == DOG_OR_ANY:
            return False
        moles = self.movable_moles()
        if not moles:
            return False
        seat = self.to_move
        for mole in moles:
            if not self.surely_an_opponents(seat, mole):
                return False
            if self.destination(mole, self.symbol) != DEN_ENTRANCE:
                return False
        return True

    def surely_an_opponents(self, seat: int, mole: int) -> bool:
        """Does `seat` know `mole` to be an opponent's: seen to be (looked at, in a den), or by
        elimination, each clan having one mole of each size: `seat` knows where its own mole of
        that size is, and it is another one."""
        known = self.known_mask(seat)
        if known >> mole & 1:
            return self.clan[mole] != seat and self.clan[mole] != UNKNOWN
        return any(known >> other & 1 and self.clan[other] == seat and self.size[other] == self.size[mole]
                   for other in range(len(self.pos)) if other != mole)

    def moles_at(self, position: int) -> list[int]:
        return [m for m, p in enumerate(self.pos) if p == position]

    def den_moles(self, clan: int) -> list[int]:
        return [m for m, p in enumerate(self.pos) if p == IN_DEN and self.clan[m] == clan]

    # --- actions ------------------------------------------------------------------------------
    def legal_actions(self) -> list[Act]:
        phase = self.phase
        if phase == MOVE:
            actions = [Act("dog", h) for h in self.dog_holes()]
            actions += [Act("mole", m) for m in self.movable_moles()]
            if self.may_decline():
                actions.insert(0, DECLINE)
            return actions
        if phase == LOOK:
            return [LOOK_UNDER, NO_LOOK]
        if phase == PEEK:
            return [DONE]
        return []

    def _remaining(self) -> list[tuple[int, int]]:
        """(clan, size) of the moles not yet on the haystack (while arranging)."""
        placed = set(zip(self.clan, self.size, strict=True))
        return [(c, s) for c in range(self.players) for s in range(3) if (c, s) not in placed]

    def chance_outcomes(self) -> list[tuple[Act, float]]:
        if self.phase == ROLL:
            return [(roll, ROLL_PROBABILITY) for roll in ROLLS]
        if self.phase == ARRANGE:
            remaining = self._remaining()
            return [(Act("arrange", c, s), 1.0 / len(remaining)) for c, s in remaining]
        return []

    def is_legal(self, action: Any) -> bool:
        if not isinstance(action, Act):
            return False
        phase = self.phase
        if phase == ROLL:
            return action.kind == "roll" and 0 <= action.a < len(FIGURES) and 0 <= action.b < 3
        if phase == ARRANGE:
            return action.kind == "arrange" and (action.a, action.b) in self._remaining()
        if phase == MOVE:
            if action.kind == "mole":
                return action.a in self.movable_moles()
            if action.kind == "dog":
                return action.a in self.dog_holes()
            return action == DECLINE and self.may_decline()
        return action in self.legal_actions()

    def illegal_reason(self, action: Any) -> str:
        if self.phase == OVER:
            return "the game is over"
        if not isinstance(action, Act):
            return f"not a Buddel Bande move: {shown(action, 40)}"
        phase = self.phase
        if phase in (ARRANGE, ROLL):
            return "the dice are rolled (or the haystack arranged) by chance, not by a player"
        if phase in (LOOK, PEEK) and action.kind in ("mole", "dog", "decline"):
            return "you have moved this turn; look under the mole or not" if phase == LOOK \
                else "you have moved and looked; click Done to end your turn"
        if phase == MOVE and action.kind in ("look", "no-look", "done"):
            return "move first: look under a mole after moving it"
        if phase == PEEK and action.kind in ("look", "no-look"):
            return "you have looked already"
        if phase == LOOK and action == DONE:
            return "look under the mole or not first"
        roll = f"you rolled {FIGURE_NAMES[self.figure]} and {SYMBOL_NAMES[self.symbol]}"
        if action.kind == "mole":
            mole = action.a
            if not 0 <= mole < self.mole_count:
                return f"there is no mole {mole + 1}"
            if self.pos[mole] == IN_DEN:
                return "that mole is in its den already"
            if self.figure == DOG:
                return f"{roll}: move the dog, not a mole"
            if self.figure < ANY and self.size[mole] != self.figure:
                return f"{roll}: this is a {SIZES[self.size[mole]]} mole"
            if self.paralysed(mole):
                return f"the dog is beside hole {self.dog}: the mole in it is paralysed"
        if action.kind == "dog":
            if self.figure < DOG:
                return f"{roll}: move a mole, not the dog"
            if action.a == self.dog:
                return "the dog must go to another hole"
            if not 1 <= action.a <= HOLES:
                return "the dog runs beside holes 1 to 24 only"
            return f"{roll}: the dog goes beside a {SYMBOL_NAMES[self.symbol]} hole"
        if action == DECLINE:
            return ("you may decline only when every move would bring home a mole you know "
                    "belongs to an opponent")
        return f"{printable(self.action_to_str(action), 40)} is not a legal move now"

    def reveals(self, action: Act) -> bool:
        """A look shows a clan to the looker; a mole going home is turned over for everyone."""
        if action.kind == "look":
            return True
        return action.kind == "mole" and self.phase == MOVE and \
            self.destination(action.a, self.symbol) == DEN_ENTRANCE

    def notation_seen_by(self, notation: str, mover: int, seat: int | None) -> str:
        """The haystack's arrangement names each mole's clan: with `know_own` a seat sees the
        arrangement of its own moles, and no seat sees another's, nor a spectator anyone's
        ("arrange ? small": the size shows from above). Every other move is public: a look
        names no clan (what the looker saw is in its redacted state), and a mole going home is
        turned over for everyone."""
        words = notation.split()
        if mover != CHANCE or self.phase != ARRANGE or len(words) != 3 or words[0] != "arrange":
            return notation
        if self.know_own and seat is not None and 0 <= seat < self.players and words[1] == CLANS[seat]:
            return notation
        return f"arrange ? {words[2] if words[2] in SIZES else '?'}"

    def apply_unchecked(self, action: Act) -> None:
        kind = action.kind
        if kind == "roll":
            self._roll(action.a, action.b)
        elif kind == "mole":
            self._move_mole(action.a)
        elif kind == "dog":
            self._move_dog(action.a)
        elif kind == "look":
            self.looked[self.to_move] |= 1 << self.moved
            self.phase = PEEK
        elif kind == "no-look":
            self._end_turn(False)
        elif kind == "done":
            self._end_turn(True)
        elif kind == "decline":
            self.turn_move = ("decline",)
            self._end_turn(False)
        elif kind == "arrange":
            self._arrange(action.a, action.b)
        else:
            raise IllegalAction(f"unknown action {action!r}")

    def _arrange(self, clan: int, size: int) -> None:
        mole = len(self.pos)
        self.clan.append(clan)
        self.size.append(size)
        self.pos.append(HAYSTACK)
        if self.know_own:
            self.own[clan] |= 1 << mole
        if len(self.pos) == self.mole_count:
            self.phase = ROLL

    def _roll(self, figure: int, symbol: int) -> None:
        self.figure, self.symbol = figure, symbol
        self.turn_rolls += ((figure, symbol),)
        self.phase = MOVE
        if figure >= DOG or self.movable_moles():
            return
        self.phase = ROLL                      # nothing of that size can move: roll again
        self.figure = self.symbol = -1

    def _move_mole(self, mole: int) -> None:
        start = self.pos[mole]
        target = self.destination(mole, self.symbol)
        if start != HAYSTACK:
            self.occupant[start] = -1
        if target == DEN_ENTRANCE:
            clan = self.clan[mole]
            self.pos[mole] = IN_DEN
            self.den_mask |= 1 << mole
            self.dens[clan] += 1
            self.turn_move = ("mole", mole, start, DEN_ENTRANCE, clan)
            if self.dens[clan] >= MOLES_TO_WIN:
                self.winner = clan
                self._end_turn(False)
                self.phase = OVER
            else:
                self._end_turn(False)
            return
        self.pos[mole] = target
        self.occupant[target] = mole
        self.turn_move = ("mole", mole, start, target, UNKNOWN)
        self.moved = mole
        self.phase = LOOK

    def _move_dog(self, hole: int) -> None:
        self.turn_move = ("dog", self.dog, hole)
        self.dog = hole
        self._end_turn(False)

    def _end_turn(self, looked: bool) -> None:
        self.last_turn = (self.to_move, self.turn_rolls, self.turn_move, looked)
        self.turn_rolls, self.turn_move = (), ()
        self.turns += 1
        self.moved = -1
        self.figure = self.symbol = -1
        self.to_move = (self.to_move + 1) % self.players
        self.phase = ROLL

    # --- fast play for search -----------------------------------------------------------------
    def random_action(self, rng: random.Random) -> Act:
        if self.phase == ROLL:
            return ROLLS[int(rng.random() * len(ROLLS))]
        return super().random_action(rng)

    def random_playout_step(self, rng: random.Random) -> None:
        """One random step without building action lists where it can (search playouts): a
        roll, a uniformly random move, always a look (it costs nothing), done."""
        phase = self.phase
        if phase == ROLL:
            roll = ROLLS[int(rng.random() * len(ROLLS))]
            self._roll(roll.a, roll.b)
        elif phase == MOVE:
            holes = self.dog_holes()
            moles = self.movable_moles()
            declines = 1 if not holes and self.may_decline() else 0
            pick = int(rng.random() * (declines + len(holes) + len(moles))) - declines
            if pick < 0:
                self.turn_move = ("decline",)
                self._end_turn(False)
            elif pick < len(holes):
                self._move_dog(holes[pick])
            else:
                self._move_mole(moles[pick - len(holes)])
        elif phase == LOOK:
            self.looked[self.to_move] |= 1 << self.moved
            self.phase = PEEK
        elif phase == PEEK:
            self._end_turn(True)
        else:
            self.apply_unchecked(self.random_action(rng))

    # --- outcome ------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0] * self.players
        return [1.0 if seat == self.winner else -1.0 for seat in range(self.players)]

    # --- information --------------------------------------------------------------------------
    def _refresh_own(self) -> None:
        """Recompute the own-mole masks from the clans (after a redaction or a resample)."""
        self.own = [0] * self.players
        if self.know_own:
            for mole, clan in enumerate(self.clan):
                if clan >= 0:
                    self.own[clan] |= 1 << mole

    def redacted(self, player: int) -> BuddelState:
        other = self.clone()
        known = self.known_mask(player)
        other.clan = [c if known >> m & 1 else UNKNOWN for m, c in enumerate(self.clan)]
        other._refresh_own()
        return other

    def watched(self) -> BuddelState:
        """Only the moles in the dens show their clan (turned over for everyone)."""
        other = self.clone()
        other.clan = [c if self.den_mask >> m & 1 else UNKNOWN for m, c in enumerate(self.clan)]
        other._refresh_own()
        return other

    def resample(self, player: int, rng: random.Random) -> BuddelState:
        """A full state `player` cannot tell from this one: the clans it does not know dealt
        again at random, one clan of each size per clan, from its own knowledge only."""
        other = self.clone()
        known = self.known_mask(player)
        for size in range(3):
            unknown = [m for m in range(len(self.pos)) if self.size[m] == size and not known >> m & 1]
            if not unknown:
                continue
            taken = {self.clan[m] for m in range(len(self.pos)) if self.size[m] == size and known >> m & 1}
            if self.know_own:
                taken.add(player)          # the seat knows all its own moles: none is unknown
            pool = [c for c in range(self.players) if c not in taken]
            for mole, clan in zip(unknown, rng.sample(pool, len(unknown)), strict=True):
                other.clan[mole] = clan
        other._refresh_own()
        return other

    # --- copies and serialisation -------------------------------------------------------------
    def clone(self) -> BuddelState:
        other = BuddelState.__new__(BuddelState)
        other.__dict__.update(self.__dict__)
        other.size = self.size[:]
        other.clan = self.clan[:]
        other.pos = self.pos[:]
        other.occupant = self.occupant[:]
        other.dens = self.dens[:]
        other.looked = self.looked[:]
        other.own = self.own[:]
        return other

    def summary(self) -> str:
        return f"{self.players} clans, turn {self.turns + 1}" if self.phase != OVER else \
            f"{self.players} clans, {self.turns} turns"

    def _move_dict(self, move: tuple[Any, ...]) -> dict[str, Any] | None:
        if not move:
            return None
        if move[0] == "mole":
            _, mole, start, target, clan = move
            return {"kind": "mole", "spot": mole + 1, "from": start, "to": target,
                    "den": CLANS[clan] if clan >= 0 else None}
        if move[0] == "dog":
            return {"kind": "dog", "from": move[1], "to": move[2]}
        return {"kind": "decline"}

    def _rolls_list(self, rolls: tuple[tuple[int, int], ...]) -> list[list[str]]:
        return [[FIGURES[f], SYMBOL_NAMES[s]] for f, s in rolls]

    def to_dict(self) -> dict[str, Any]:
        last = None
        if self.last_turn:
            seat, rolls, move, looked = self.last_turn
            last = {"seat": seat, "rolls": self._rolls_list(rolls), "move": self._move_dict(move),
                    "looked": looked}
        return {
            "game": "buddel_bande",
            "players": self.players,
            "know_own": self.know_own,
            "first": self.first,
            "moles": [{"spot": m + 1, "size": SIZES[self.size[m]],
                       "clan": CLANS[self.clan[m]] if self.clan[m] >= 0 else None,
                       "at": "den" if self.pos[m] == IN_DEN else self.pos[m]}
                      for m in range(len(self.pos))],
            "dog": self.dog,
            "phase": PHASES[self.phase],
            "to_move": self.to_move,
            "roll": [FIGURES[self.figure], SYMBOL_NAMES[self.symbol]] if self.figure >= 0 else None,
            "rolls": self._rolls_list(self.turn_rolls),
            "move": self._move_dict(self.turn_move),
            "moved": self.moved + 1 if self.moved >= 0 else None,
            "looked": [[m + 1 for m in range(len(self.pos)) if mask >> m & 1] for mask in self.looked],
            "dens": {CLANS[c]: self.dens[c] for c in range(self.players)},
            "winner": self.winner if self.winner >= 0 else None,
            "turns": self.turns,
            "last_turn": last,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BuddelState:
        try:
            return _read_state(data)
        except (TypeError, AttributeError, KeyError, IndexError) as error:
            raise ValueError(f"not a Buddel Bande state ({type(error).__name__}: {shown(str(error), 60)})") from None

    # --- notation -----------------------------------------------------------------------------
    def action_to_str(self, action: Act) -> str:
        kind = action.kind
        if kind == "mole":
            return f"mole {action.a + 1}"
        if kind == "dog":
            return f"dog {action.a}"
        if kind == "roll":
            return f"roll {FIGURES[action.a]} {SYMBOL_NAMES[action.b]}"
        if kind == "arrange":
            return f"arrange {CLANS[action.a]} {SIZES[action.b]}"
        return kind

    def action_from_str(self, text: str) -> Act:
        words = str(text).strip().lower().split()
        problem = (f"{shown(str(text), 40)} is not a Buddel Bande move; write mole N, dog N, "
                   f"decline, look, no-look or done")
        if len(words) == 1 and words[0] in ("decline", "look", "no-look", "done"):
            return Act(words[0])
        if len(words) == 2 and words[0] in ("mole", "dog") and words[1].isascii() and words[1].isdigit() \
                and len(words[1]) <= 3:
            number = int(words[1])
            if words[0] == "mole":
                if not 1 <= number <= self.mole_count:
                    raise IllegalAction(f"there is no mole {number}; the haystack spots are 1 to {self.mole_count}")
                return Act("mole", number - 1)
            if not 1 <= number <= HOLES:
                raise IllegalAction(f"the dog runs beside holes 1 to {HOLES}, not {number}")
            return Act("dog", number)
        if len(words) == 3 and words[0] == "roll" and words[1] in FIGURES and words[2] in SYMBOL_NAMES:
            return Act("roll", FIGURES.index(words[1]), SYMBOL_NAMES.index(words[2]))
        if len(words) == 3 and words[0] == "arrange" and words[1] in CLANS and words[2] in SIZES:
            return Act("arrange", CLANS.index(words[1]), SIZES.index(words[2]))
        raise IllegalAction(problem)


# --- reading a saved state ---------------------------------------------------------------------
def _rolls_from(value: Any, name: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list of [figure, symbol] pairs")
    rolls = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2 or pair[0] not in FIGURES or pair[1] not in SYMBOL_NAMES:
            raise ValueError(f"{name}: {shown(pair, 40)} is not a [figure, symbol] pair")
        rolls.append((FIGURES.index(pair[0]), SYMBOL_NAMES.index(pair[1])))
    return tuple(rolls)


def _move_from(value: Any, moles: int, name: str) -> tuple[Any, ...]:
    if value is None:
        return ()
    if not isinstance(value, dict) or value.get("kind") not in ("mole", "dog", "decline"):
        raise ValueError(f"{name} must be a mole, dog or decline move")
    if value["kind"] == "decline":
        return ("decline",)
    if value["kind"] == "dog":
        return ("dog", whole(value["from"], f"{name} from", 1, HOLES), whole(value["to"], f"{name} to", 1, HOLES))
    clan = value.get("den")
    if clan is not None and clan not in CLANS:
        raise ValueError(f"{name}: den {shown(clan, 30)} is not a clan")
    return ("mole", whole(value["spot"], f"{name} spot", 1, moles) - 1,
            whole(value["from"], f"{name} from", 0, HOLES), whole(value["to"], f"{name} to", 1, DEN_ENTRANCE),
            CLANS.index(clan) if clan is not None else UNKNOWN)


def _read_state(data: Any) -> BuddelState:
    if not isinstance(data, dict):
        raise ValueError("a Buddel Bande state must be a JSON object")
    if data.get("game") != "buddel_bande":
        raise ValueError("not a Buddel Bande state ('game' must be 'buddel_bande')")
    players = whole(data["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    know_own = data["know_own"]
    if not isinstance(know_own, bool):
        raise ValueError("know_own must be true or false")
    first = whole(data["first"], "first", 0, players - 1)
    state = BuddelState(players, know_own, first)
    if data["phase"] not in PHASES:
        raise ValueError(f"phase must be one of {', '.join(PHASES)}")
    state.phase = PHASES.index(data["phase"])
    moles = data["moles"]
    count = 3 * players
    if not isinstance(moles, list) or len(moles) > count or ((state.phase == ARRANGE) == (len(moles) == count)):
        raise ValueError(f"moles must list the {count} moles of the haystack's spots")
    seen: set[tuple[int, int]] = set()
    for n, mole in enumerate(moles):
        where = f"mole {n + 1}"
        if not isinstance(mole, dict) or mole.get("spot") != n + 1:
            raise ValueError(f"{where}: each mole is an object with its spot, in order")
        if mole["size"] not in SIZES:
            raise ValueError(f"{where}: size must be small, medium or large")
        size = SIZES.index(mole["size"])
        clan_name = mole["clan"]
        if clan_name is not None and clan_name not in CLANS[:players]:
            raise ValueError(f"{where}: clan {shown(clan_name, 30)} is not in play")
        clan = CLANS.index(clan_name) if clan_name is not None else UNKNOWN
        if clan >= 0:
            if (clan, size) in seen:
                raise ValueError(f"{where}: two {SIZES[size]} {CLANS[clan]}")
            seen.add((clan, size))
        at = mole["at"]
        position = IN_DEN if at == "den" else whole(at, f"{where} at", 0, HOLES)
        if position not in (HAYSTACK, IN_DEN) and state.occupant[position] >= 0:
            raise ValueError(f"{where}: hole {position} holds two moles")
        if position == IN_DEN:
            if clan < 0:
                raise ValueError(f"{where}: a mole in a den is turned over; its clan is known")
            state.den_mask |= 1 << n
            state.dens[clan] += 1
        elif position != HAYSTACK:
            state.occupant[position] = n
        state.size.append(size)
        state.clan.append(clan)
        state.pos.append(position)
    for size in range(3):
        if sum(1 for s in state.size if s == size) > players:
            raise ValueError(f"more than {players} {SIZES[size]} moles")
    state._refresh_own()
    state.dog = whole(data["dog"], "dog", 1, HOLES)
    state.to_move = whole(data["to_move"], "to_move", 0, players - 1)
    roll = data["roll"]
    if roll is not None:
        ((state.figure, state.symbol),) = _rolls_from([roll], "roll")
    if (roll is None) != (state.phase not in (MOVE, LOOK, PEEK)):
        raise ValueError(f"a roll is in play exactly while a player moves, not in phase {data['phase']}")
    state.turn_rolls = _rolls_from(data["rolls"], "rolls")
    state.turn_move = _move_from(data["move"], count, "move")
    moved = data["moved"]
    state.moved = -1 if moved is None else whole(moved, "moved", 1, count) - 1
    if (state.moved >= 0) != (state.phase in (LOOK, PEEK)):
        raise ValueError("'moved' names the mole just moved, while its mover may look under it")
    looked = data["looked"]
    if not isinstance(looked, list) or len(looked) != players:
        raise ValueError(f"looked must list, per seat, the moles it looked at ({players} lists)")
    for seat, spots in enumerate(looked):
        if not isinstance(spots, list):
            raise ValueError(f"looked[{seat}] must be a list of spots")
        for spot in spots:
            state.looked[seat] |= 1 << (whole(spot, f"looked[{seat}]", 1, count) - 1)
    dens = data["dens"]
    if not isinstance(dens, dict) or dens != {CLANS[c]: state.dens[c] for c in range(players)}:
        raise ValueError("dens do not match the moles in the dens")
    winner = data["winner"]
    if winner is not None:
        state.winner = whole(winner, "winner", 0, players - 1)
    full = [c for c in state.dens if c >= MOLES_TO_WIN]
    if (state.phase == OVER) != (state.winner >= 0) or (state.winner >= 0 and state.dens[state.winner] < MOLES_TO_WIN) \
            or len(full) > 1:
        raise ValueError("the game is over exactly when one clan has all three moles in its den")
    if state.phase != OVER and full:
        raise ValueError("a clan has all three moles home, but the game goes on")
    state.turns = whole(data["turns"], "turns", 0, 10**9)
    last = data["last_turn"]
    if last is not None:
        if not isinstance(last, dict) or not isinstance(last.get("looked"), bool):
            raise ValueError("last_turn must be an object with seat, rolls, move and looked")
        state.last_turn = (whole(last["seat"], "last_turn seat", 0, players - 1),
                           _rolls_from(last["rolls"], "last_turn rolls"),
                           _move_from(last["move"], count, "last_turn move"), last["looked"])
    return state


def new_game(players: int = 2, know_own: Any = True, first: Any = 0) -> BuddelState:
    """The table before the haystack is arranged (the arrangement is the first chance moves)."""
    check_settings(players, first)
    return BuddelState(players, flag(know_own, "know_own"), first)


def game_report(state: GameState) -> dict[str, Any]:
    """A finished game's figures for self-play's JSON: turns, and per clan the moles home."""
    assert isinstance(state, BuddelState)
    return {"turns": state.turns, "dens": {CLANS[c]: state.dens[c] for c in range(state.players)},
            "winning_clan": CLANS[state.winner] if state.winner >= 0 else None}
