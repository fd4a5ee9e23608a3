"""Bunko rules, pure Python: a night of dice for 4 to 20 players at 1 to 5 tables of four.

The rule book's section 4, as the program plays it:
- Seating: seats 0-3 at table 1 (the head table), 4-7 at table 2 ... Each table has four chairs
  in playing order; chairs 0 and 2 are one team, chairs 1 and 3 the other (partners opposite).
  Chair 0 rolls first; the dice go to the left, chair c to chair c + 1.
- A game is `sets` sets of 6 rounds; in round r of a set the target number is r.
- A roll of three dice scores for the roller's team: 1 per die showing the target, 21 for three
  targets (a bunko, counted for the roller), 5 for three of a kind of another number (a triple).
  Whether the same player rolls again depends on `roll_on` (ROLL_ON, `rolls_on`).
- The tables play at once, in the program one roll at a time: table 1, table 2, ..., table 1
  again. When a team at the head table reaches 21 the bell rings; each other table makes one
  more roll (its current roller's), in table order, and the round is over.
- At each table the team with more points wins the round; a tie is settled by a roll-off: each
  team makes one last roll, by its player in the earlier chair (chair 0 for team 0, chair 1 for
  team 1: ROLL_OFF_CHAIRS), the team that scores more wins, repeated while tied. Roll-off points
  and bunkos go on no score sheet.
- Every player marks a win or a loss; then the players move (`next_seating`): winners move up a
  table and losers stay, except at the head table, whose winners stay and losers go to the last
  table; each stayer partners an arrival. With one table the partners rotate instead.
- Standings: wins, then bunkos, then points (the points of the player's own rolls).

A roll is two plies: the player's decision `Roll()` (their only one), then an outcome node whose
result is the `Dice` that landed. The window resolves it with dice that tumble on screen
(pace.py), headless play with the game's model (`sample_outcome`); either way the faces come
from the controller's seeded RNG, so a seed and the actions replay a game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any

from simulator.core.action_fields import Between
from simulator.core.errors import IllegalAction, SettingsError
from simulator.core.state import OUTCOME, TERMINAL, GameState
from simulator.core.text import shown

TABLE_SIZE = 4
MAX_TABLES = 5
MAX_SETS = 4
ROUNDS_PER_SET = 6
BELL_POINTS = 21            # a team at the head table with this many ends the round
BUNKO_POINTS = 21
TRIPLE_POINTS = 5
DICE = 3
FACES = 6
ROLL_ON = ("bunko-only", "always", "not-after-bunko-or-triple")
PACES = ("normal", "fast", "instant")

# what a roll was
BUNKO, TRIPLE, HITS, MISS = "bunko", "triple", "hits", "miss"
KINDS = (BUNKO, TRIPLE, HITS, MISS)
# the phases of a round
PLAY, FINISH, ROLL_OFF, OVER = "play", "finish", "roll-off", "over"
PHASES = (PLAY, FINISH, ROLL_OFF, OVER)


Face = Annotated[int, Between(1, 6)]


@dataclass(frozen=True, order=True)
class Roll:
    """The player to move picks up the three dice and rolls: a player's only decision."""


@dataclass(frozen=True, order=True)
class Dice:
    """How the three dice landed (the result of a roll, an outcome)."""

    faces: tuple[Face, Face, Face]


BunkoAction = Roll | Dice


# --- scoring -----------------------------------------------------------------------------------------

def roll_kind(faces: tuple[int, ...], target: int) -> str:
    """BUNKO (three targets), TRIPLE (three of another number), HITS (one or two targets), MISS."""
    hits = sum(1 for face in faces if face == target)
    if hits == DICE:
        return BUNKO
    if faces[0] == faces[1] == faces[2]:
        return TRIPLE
    return HITS if hits else MISS


def roll_points(faces: tuple[int, ...], target: int) -> int:
    """What a roll scores for the roller's team: 21 for a bunko, 5 for a triple, else 1 per target."""
    kind = roll_kind(faces, target)
    if kind == BUNKO:
        return BUNKO_POINTS
    if kind == TRIPLE:
        return TRIPLE_POINTS
    return sum(1 for face in faces if face == target)


def rolls_on(kind: str, roll_on: str) -> bool:
    """Whether the roller rolls again after a roll of this kind, under the `roll_on` setting:
    `bunko-only` (the default): when a die showed the target (a bunko too); `always`: also after
    a triple of another number; `not-after-bunko-or-triple`: only after one or two targets."""
    if roll_on == "always":
        return kind in (BUNKO, TRIPLE, HITS)
    if roll_on == "not-after-bunko-or-triple":
        return kind == HITS
    return kind in (BUNKO, HITS)


def team_of(chair: int) -> int:
    """Team 0 sits in chairs 0 and 2, team 1 in chairs 1 and 3."""
    return chair % 2


# a roll-off is one roll per team, by the team's player in the earlier chair, in chair order
ROLL_OFF_CHAIRS = (0, 1)


# --- seating -----------------------------------------------------------------------------------------

def first_seating(tables: int) -> list[list[int]]:
    """Seats 0-3 at table 1, 4-7 at table 2 ..., in chair order."""
    return [[TABLE_SIZE * t + c for c in range(TABLE_SIZE)] for t in range(tables)]


def rotated_seating(players: list[int], round_number: int) -> list[int]:
    """One table's chairs in round `round_number` (1-based): the first player partners the
    (r mod 3 + 1)-th of the other three, in their order; the other two sit between them."""
    first, others = players[0], players[1:]
    partner = others[round_number % 3]
    rest = [p for p in others if p != partner]
    return [first, rest[0], partner, rest[1]]


def seated_table(stayers: list[int], arrivals: list[int]) -> list[int]:
    """Chairs of a table where two players stayed and two arrived: the lower-numbered stayer in
    chair 0 (rolls first) with the lower-numbered arrival opposite, the other two in between."""
    low_stay, high_stay = sorted(stayers)
    low_arrival, high_arrival = sorted(arrivals)
    return [low_stay, high_stay, low_arrival, high_arrival]


def next_seating(chairs: list[list[int]], winning_team: list[int], next_round: int) -> list[list[int]]:
    """Where everyone sits in round `next_round` (1-based), given each table's chairs and the
    team that won there. Head table: winners stay, losers go to the last table; other tables:
    winners move up one, losers stay. One table: nobody moves, the partners rotate."""
    tables = len(chairs)
    if tables == 1:
        return [rotated_seating(sorted(chairs[0]), next_round)]
    winners = [[seat for c, seat in enumerate(table) if team_of(c) == team]
               for table, team in zip(chairs, winning_team, strict=True)]
    losers = [[seat for c, seat in enumerate(table) if team_of(c) != team]
              for table, team in zip(chairs, winning_team, strict=True)]
    seating = [seated_table(winners[0], winners[1])]
    for t in range(1, tables - 1):
        seating.append(seated_table(losers[t], winners[t + 1]))
    seating.append(seated_table(losers[tables - 1], losers[0]))
    return seating


# --- the state ---------------------------------------------------------------------------------------

def _count(value: Any, what: str, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise ValueError(f"{what} must be a whole number {span}, not {shown(value, 30)}")
    return value


def _counts(value: Any, what: str, length: int, low: int = 0, high: int | None = None) -> list[int]:
    if not isinstance(value, list) or len(value) != length:
        raise ValueError(f"{what} must be a list of {length} numbers")
    return [_count(v, f"{what}[{n}]", low, high) for n, v in enumerate(value)]


class BunkoState(GameState[BunkoAction]):
    """A Bunko night in progress. Score sheets are per seat: wins, losses, bunkos, points."""


    def __init__(self, players: int = 12, sets: int = 1, roll_on: str = "bunko-only",
                 pace: str = "normal") -> None:
        check_settings(players, sets, roll_on, pace)
        self.players = players
        self.tables = players // TABLE_SIZE
        self.sets = sets
        self.roll_on = roll_on
        self.pace = pace
        self.round = 0                              # 0-based, over all sets
        self.phase = PLAY
        self.chairs = first_seating(self.tables)    # per table: the seat in each chair
        self.scores = [[0, 0] for _ in range(self.tables)]
        self.roller = [0] * self.tables             # per table: the chair to roll
        self.turn = 0                               # the table whose roller acts (play, finish)
        self.awaiting = False                       # a roll was made; the dice are in the air
        self.bell = False                           # the head table reached 21 this round
        self.rolloff_tables: list[int] = []         # tied tables still to roll off, first = now
        self.rolloff_chair = 0
        self.rolloff_score = [0, 0]
        self.rolloff_winner = [-1] * self.tables    # per table: the team that won its roll-off
        self.rolloffs: list[list[list[int]]] = [[] for _ in range(self.tables)]   # tied roll-offs' scores
        self.last_rolls: list[dict[str, Any] | None] = [None] * self.tables   # each table's latest roll
        self.last_table = -1                        # the table of the latest roll
        self.round_rolls = 0                        # rolls this round, roll-offs included
        # score sheets
        self.wins = [0] * players
        self.losses = [0] * players
        self.bunkos = [0] * players
        self.points = [0] * players
        # counts over the night, every roll (roll-offs too)
        self.rolls = 0
        self.bunko_rolls = 0
        self.triple_rolls = 0
        self.results: list[dict[str, Any]] = []     # one per finished round

    # --- reading ------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.players

    @property
    def total_rounds(self) -> int:
        return self.sets * ROUNDS_PER_SET

    @property
    def target(self) -> int:
        """The number the dice should show this round."""
        return self.round % ROUNDS_PER_SET + 1

    def table_of(self, seat: int) -> tuple[int, int]:
        """(table, chair) where `seat` sits this round."""
        for t, table in enumerate(self.chairs):
            if seat in table:
                return t, table.index(seat)
        raise ValueError(f"no seat {seat}")

    def rolling_table(self) -> int:
        """The table whose player rolls now (or whose dice are in the air); -1 at the end."""
        if self.phase == OVER:
            return -1
        if self.phase == ROLL_OFF:
            return self.rolloff_tables[0]
        return self.turn

    def rolling_chair(self) -> int:
        """The chair at rolling_table() whose player rolls now."""
        if self.phase == ROLL_OFF:
            return ROLL_OFF_CHAIRS[self.rolloff_chair]
        return self.roller[self.turn]

    def roller_seat(self) -> int:
        """The seat that rolls now (or whose dice are in the air); -1 at the end."""
        if self.phase == OVER:
            return -1
        return self.chairs[self.rolling_table()][self.rolling_chair()]

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.awaiting:
            return OUTCOME
        return self.roller_seat()

    def sheet(self, seat: int) -> dict[str, int]:
        return {"wins": self.wins[seat], "losses": self.losses[seat], "bunkos": self.bunkos[seat],
                "points": self.points[seat]}

    def rank_key(self, seat: int) -> tuple[int, int, int]:
        return (self.wins[seat], self.bunkos[seat], self.points[seat])

    def standings(self) -> list[int]:
        """Seats in rank order: most wins, then most bunkos, then most points (then seat)."""
        return sorted(range(self.players), key=lambda s: (tuple(-v for v in self.rank_key(s)), s))

    def places(self) -> list[int]:
        """Per seat its place (1 = best); players level on wins, bunkos and points share one."""
        keys = [self.rank_key(s) for s in range(self.players)]
        return [1 + sum(1 for other in keys if other > keys[s]) for s in range(self.players)]

    # --- actions ------------------------------------------------------------------------------
    def legal_actions(self) -> list[BunkoAction]:
        if self.phase == OVER or self.awaiting:
            return []
        return [Roll()]

    def illegal_reason(self, action: BunkoAction) -> str:
        if self.phase == OVER:
            return "the night is over: see the standings"
        if self.awaiting:
            if isinstance(action, Roll):
                return "the dice are rolling; wait for them to land"
            return f"{self.action_to_str(action)} is not three dice of 1 to 6"
        if isinstance(action, Dice):
            return f"Player {self.roller_seat() + 1} must roll first: the dice show what the roll gives"
        return f"{self.action_to_str(action)} is not a move in Bunko: the only move is to roll"

    def outcome_request(self) -> dict[str, Any]:
        if not self.awaiting:
            return {}
        return {"kind": "dice", "dice": DICE, "faces": FACES, "seat": self.roller_seat(),
                "table": self.rolling_table(), "target": self.target, "roll_off": self.phase == ROLL_OFF}

    def is_valid_outcome(self, action: BunkoAction) -> bool:
        return (self.awaiting and isinstance(action, Dice) and isinstance(action.faces, tuple)
                and len(action.faces) == DICE
                and all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= FACES
                        for f in action.faces))

    def sample_outcome(self, rng: random.Random) -> Dice:
        return Dice((rng.randint(1, FACES), rng.randint(1, FACES), rng.randint(1, FACES)))

    def reveals(self, action: BunkoAction) -> bool:
        return False

    def apply_unchecked(self, action: BunkoAction) -> None:
        if isinstance(action, Roll):
            self.awaiting = True
            return
        self.awaiting = False
        self._land(action.faces)

    # --- what a roll does ---------------------------------------------------------------------------
    def _land(self, faces: tuple[int, int, int]) -> None:
        target = self.target
        kind = roll_kind(faces, target)
        points = roll_points(faces, target)
        table = self.rolling_table()
        chair = self.rolling_chair()
        seat = self.chairs[table][chair]
        self.rolls += 1
        self.round_rolls += 1
        self.bunko_rolls += kind == BUNKO
        self.triple_rolls += kind == TRIPLE
        roll_off = self.phase == ROLL_OFF
        again = not roll_off and rolls_on(kind, self.roll_on) and self.phase == PLAY
        self.last_rolls[table] = {"number": self.rolls, "round": self.round, "seat": seat, "chair": chair,
                                  "faces": list(faces), "kind": kind, "points": points,
                                  "roll_off": roll_off, "again": again}
        self.last_table = table
        if roll_off:
            self._roll_off_roll(table, chair, points)
            return
        self.scores[table][team_of(chair)] += points
        self.points[seat] += points
        self.bunkos[seat] += kind == BUNKO
        if not rolls_on(kind, self.roll_on):
            self.roller[table] = (chair + 1) % TABLE_SIZE
        if self.phase == PLAY:
            if table == 0 and self.scores[0][team_of(chair)] >= BELL_POINTS:
                self.bell = True
                if self.tables == 1:
                    self._end_play()
                else:
                    self.phase, self.turn = FINISH, 1
            else:
                self.turn = (table + 1) % self.tables
        else:                                   # FINISH: this table's one roll after the bell
            self.turn = table + 1
            if self.turn == self.tables:
                self._end_play()

    def _end_play(self) -> None:
        self.turn = 0                           # every table has rolled: none is next
        tied = [t for t in range(self.tables) if self.scores[t][0] == self.scores[t][1]]
        if tied:
            self.phase = ROLL_OFF
            self.rolloff_tables = tied
            self.rolloff_chair = 0
            self.rolloff_score = [0, 0]
        else:
            self._finish_round()

    def _roll_off_roll(self, table: int, chair: int, points: int) -> None:
        self.rolloff_score[team_of(chair)] += points
        self.rolloff_chair += 1
        if self.rolloff_chair < len(ROLL_OFF_CHAIRS):
            return
        score = self.rolloff_score
        self.rolloff_chair, self.rolloff_score = 0, [0, 0]
        if score[0] == score[1]:
            self.rolloffs[table].append(score)      # tied again: they roll off once more
            return
        self.rolloffs[table].append(score)
        self.rolloff_winner[table] = 0 if score[0] > score[1] else 1
        self.rolloff_tables = self.rolloff_tables[1:]
        if not self.rolloff_tables:
            self._finish_round()

    def winning_team(self, table: int) -> int:
        """The team that won the round at `table` (-1 while undecided)."""
        a, b = self.scores[table]
        if a != b:
            return 0 if a > b else 1
        return self.rolloff_winner[table]

    def _finish_round(self) -> None:
        teams = [self.winning_team(t) for t in range(self.tables)]
        tables: list[dict[str, Any]] = []
        record = {"round": self.round + 1, "target": self.target, "bell": self.bell, "tables": tables}
        for t, team in enumerate(teams):
            for chair, seat in enumerate(self.chairs[t]):
                if team_of(chair) == team:
                    self.wins[seat] += 1
                else:
                    self.losses[seat] += 1
            tables.append({"chairs": self.chairs[t][:], "score": self.scores[t][:],
                                     "winner": team, "roll_offs": [s[:] for s in self.rolloffs[t]]})
        self.results.append(record)
        if self.round + 1 >= self.total_rounds:
            self.phase = OVER
            return
        self.chairs = next_seating(self.chairs, teams, self.round + 2)
        self.round += 1
        self.phase = PLAY
        self.turn = 0
        self.bell = False
        self.scores = [[0, 0] for _ in range(self.tables)]
        self.roller = [0] * self.tables
        self.rolloff_tables, self.rolloff_chair, self.rolloff_score = [], 0, [0, 0]
        self.rolloff_winner = [-1] * self.tables
        self.rolloffs = [[] for _ in range(self.tables)]
        self.round_rolls = 0

    # --- the end ------------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """By place: the best +1, the worst down to -1, players level sharing a value."""
        if self.phase != OVER:
            return [0.0] * self.players
        keys = [self.rank_key(s) for s in range(self.players)]
        return [1.0 - 2.0 * sum(1 for other in keys if other > keys[s]) / (self.players - 1)
                for s in range(self.players)]

    # --- copies and saving --------------------------------------------------------------------------
    def clone(self) -> BunkoState:
        other = BunkoState.__new__(BunkoState)
        other.__dict__.update(self.__dict__)
        other.chairs = [t[:] for t in self.chairs]
        other.scores = [s[:] for s in self.scores]
        other.roller = self.roller[:]
        other.rolloff_tables = self.rolloff_tables[:]
        other.rolloff_score = self.rolloff_score[:]
        other.rolloff_winner = self.rolloff_winner[:]
        other.rolloffs = [[s[:] for s in t] for t in self.rolloffs]
        other.last_rolls = [dict(r, faces=r["faces"][:]) if r else None for r in self.last_rolls]
        other.wins, other.losses = self.wins[:], self.losses[:]
        other.bunkos, other.points = self.bunkos[:], self.points[:]
        other.results = self.results[:]          # finished rounds are never changed, only added
        return other

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "bunko", "players": self.players, "sets": self.sets, "roll_on": self.roll_on,
            "pace": self.pace, "round": self.round, "phase": self.phase,
            "chairs": [t[:] for t in self.chairs], "scores": [s[:] for s in self.scores],
            "roller": self.roller[:], "turn": self.turn, "awaiting": self.awaiting, "bell": self.bell,
            "rolloff_tables": self.rolloff_tables[:], "rolloff_chair": self.rolloff_chair,
            "rolloff_score": self.rolloff_score[:], "rolloff_winner": self.rolloff_winner[:],
            "rolloffs": [[s[:] for s in t] for t in self.rolloffs],
            "last_rolls": [dict(r, faces=r["faces"][:]) if r else None for r in self.last_rolls],
            "last_table": self.last_table, "round_rolls": self.round_rolls,
            "wins": self.wins[:], "losses": self.losses[:], "bunkos": self.bunkos[:],
            "points": self.points[:], "rolls": self.rolls, "bunko_rolls": self.bunko_rolls,
            "triple_rolls": self.triple_rolls,
            "results": [_copy_record(r) for r in self.results],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BunkoState:
        if not isinstance(data, dict):
            raise ValueError("a Bunko state must be a JSON object")
        try:
            return cls._from_dict(data)
        except KeyError as error:
            raise ValueError(f"a Bunko state lacks the key {shown(error.args[0], 30)}") from None
        except (TypeError, AttributeError, IndexError) as error:
            raise ValueError(f"not a Bunko state ({type(error).__name__})") from None

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> BunkoState:
        players = data["players"]
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError("players must be a whole number")
        state = cls(players, data["sets"], data["roll_on"], data["pace"])
        tables, n = state.tables, players
        state.round = _count(data["round"], "round", 0, state.total_rounds - 1)
        if data["phase"] not in PHASES:
            raise ValueError(f"phase must be one of {', '.join(PHASES)}")
        state.phase = data["phase"]
        chairs = data["chairs"]
        if not isinstance(chairs, list) or len(chairs) != tables:
            raise ValueError(f"chairs must list {tables} tables")
        state.chairs = [_counts(t, f"chairs[{i}]", TABLE_SIZE, 0, n - 1) for i, t in enumerate(chairs)]
        if sorted(s for t in state.chairs for s in t) != list(range(n)):
            raise ValueError("chairs must seat every player exactly once")
        if not isinstance(data["scores"], list) or len(data["scores"]) != tables:
            raise ValueError(f"scores must list {tables} tables")
        state.scores = [_counts(s, f"scores[{i}]", 2) for i, s in enumerate(data["scores"])]
        state.roller = _counts(data["roller"], "roller", tables, 0, TABLE_SIZE - 1)
        state.turn = _count(data["turn"], "turn", 0, tables - 1)
        for name in ("awaiting", "bell"):
            if not isinstance(data[name], bool):
                raise ValueError(f"{name} must be true or false")
        state.awaiting, state.bell = data["awaiting"], data["bell"]
        rolloff_tables = data["rolloff_tables"]
        if not isinstance(rolloff_tables, list):
            raise ValueError("rolloff_tables must be a list")
        state.rolloff_tables = [_count(t, "rolloff_tables", 0, tables - 1) for t in rolloff_tables]
        state.rolloff_chair = _count(data["rolloff_chair"], "rolloff_chair", 0,
                                     len(ROLL_OFF_CHAIRS) - 1)
        state.rolloff_score = _counts(data["rolloff_score"], "rolloff_score", 2)
        state.rolloff_winner = _counts(data["rolloff_winner"], "rolloff_winner", tables, -1, 1)
        rolloffs = data["rolloffs"]
        if not isinstance(rolloffs, list) or len(rolloffs) != tables or not all(isinstance(t, list) for t in rolloffs):
            raise ValueError(f"rolloffs must list {tables} tables")
        state.rolloffs = [[_counts(s, "rolloffs", 2) for s in t] for t in rolloffs]
        last = data["last_rolls"]
        if not isinstance(last, list) or len(last) != tables:
            raise ValueError(f"last_rolls must list {tables} tables")
        state.last_rolls = [None if r is None else _last_roll(r, n) for r in last]
        state.last_table = _count(data["last_table"], "last_table", -1, tables - 1)
        state.round_rolls = _count(data["round_rolls"], "round_rolls", 0)
        state.wins = _counts(data["wins"], "wins", n)
        state.losses = _counts(data["losses"], "losses", n)
        state.bunkos = _counts(data["bunkos"], "bunkos", n)
        state.points = _counts(data["points"], "points", n)
        state.rolls = _count(data["rolls"], "rolls", 0)
        state.bunko_rolls = _count(data["bunko_rolls"], "bunko_rolls", 0, state.rolls)
        state.triple_rolls = _count(data["triple_rolls"], "triple_rolls", 0, state.rolls)
        results = data["results"]
        if not isinstance(results, list):
            raise ValueError("results must be a list")
        state.results = [_record(r, tables, n) for r in results]
        state._check_consistent()
        return state

    def _check_consistent(self) -> None:
        """What no sequence of Bunko rolls can leave, refused in one line."""
        done = len(self.results)
        finished = self.phase == OVER
        if done != self.round + (1 if finished else 0):
            raise ValueError(f"results hold {done} rounds, but round {self.round + 1} is "
                             f"{'over' if finished else 'being played'}")
        for seat in range(self.players):
            if self.wins[seat] + self.losses[seat] != done:
                raise ValueError(f"Player {seat + 1}'s wins and losses do not add up to {done} rounds")
        if self.phase == ROLL_OFF:
            if not self.rolloff_tables or self.rolloff_tables != sorted(set(self.rolloff_tables)):
                raise ValueError("a roll-off needs its tied tables, in table order")
            if any(self.scores[t][0] != self.scores[t][1] for t in self.rolloff_tables):
                raise ValueError("only a tied table rolls off")
        elif self.rolloff_tables or self.rolloff_chair or any(self.rolloff_score):
            raise ValueError("roll-off figures outside a roll-off")
        if any(r is not None and (r["number"] > self.rolls or r["round"] > self.round) for r in self.last_rolls):
            raise ValueError("a table's last roll is newer than the night")
        if finished and self.awaiting:
            raise ValueError("the night is over, yet dice are rolling")
        if self.phase == FINISH and (not self.bell or self.turn == 0):
            raise ValueError("tables finish their last roll only after the bell, head table excepted")
        head = max(self.scores[0])
        if self.phase == PLAY and (self.bell or head >= BELL_POINTS):
            raise ValueError("the head table has reached 21, yet the round goes on")

    # --- notation -------------------------------------------------------------------------------
    def action_to_str(self, action: BunkoAction) -> str:
        if isinstance(action, Roll):
            return "roll"
        if isinstance(action, Dice):
            return "-".join(str(f) for f in action.faces)
        return shown(action, 40)

    def action_from_str(self, text: str) -> BunkoAction:
        clean = text.strip().lower()
        if clean == "roll":
            return Roll()
        parts = clean.split("-")
        if len(parts) == DICE and all(p in ("1", "2", "3", "4", "5", "6") for p in parts):
            return Dice((int(parts[0]), int(parts[1]), int(parts[2])))
        raise IllegalAction(f"{shown(text, 40)} is not a Bunko move: 'roll', or dice such as '3-5-3'")

    def summary(self) -> str:
        if self.phase == OVER:
            return f"{self.players} players, {self.total_rounds} rounds played"
        return f"{self.players} players, round {self.round + 1} of {self.total_rounds}"


def _copy_record(record: dict[str, Any]) -> dict[str, Any]:
    return {"round": record["round"], "target": record["target"], "bell": record["bell"],
            "tables": [{"chairs": t["chairs"][:], "score": t["score"][:], "winner": t["winner"],
                        "roll_offs": [s[:] for s in t["roll_offs"]]} for t in record["tables"]]}


def _last_roll(data: Any, players: int) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError("a last roll must be an object")
    faces = _counts(data["faces"], "last roll faces", DICE, 1, FACES)
    if data["kind"] not in KINDS:
        raise ValueError(f"a roll's kind must be one of {', '.join(KINDS)}")
    for name in ("roll_off", "again"):
        if not isinstance(data[name], bool):
            raise ValueError(f"a last roll's {name} must be true or false")
    return {"number": _count(data["number"], "last roll number", 1),
            "round": _count(data["round"], "last roll round", 0, MAX_SETS * ROUNDS_PER_SET - 1),
            "seat": _count(data["seat"], "last roll seat", 0, players - 1),
            "chair": _count(data["chair"], "last roll chair", 0, TABLE_SIZE - 1), "faces": faces,
            "kind": data["kind"], "points": _count(data["points"], "last roll points", 0, BUNKO_POINTS),
            "roll_off": data["roll_off"], "again": data["again"]}


def _record(data: Any, tables: int, players: int) -> dict[str, Any]:
    if not isinstance(data, dict) or not isinstance(data["tables"], list) or len(data["tables"]) != tables:
        raise ValueError(f"a round's result must list {tables} tables")
    if not isinstance(data["bell"], bool):
        raise ValueError("a round's bell must be true or false")
    out: list[dict[str, Any]] = []
    for t in data["tables"]:
        if not isinstance(t, dict) or not isinstance(t["roll_offs"], list):
            raise ValueError("a table's result must be an object with its roll-offs")
        out.append({"chairs": _counts(t["chairs"], "result chairs", TABLE_SIZE, 0, players - 1),
                    "score": _counts(t["score"], "result score", 2),
                    "winner": _count(t["winner"], "result winner", 0, 1),
                    "roll_offs": [_counts(s, "result roll-off", 2) for s in t["roll_offs"]]})
    return {"round": _count(data["round"], "result round", 1), "target": _count(data["target"], "target", 1, 6),
            "bell": data["bell"], "tables": out}


# --- settings and the start ------------------------------------------------------------------------

def check_settings(players: Any, sets: Any, roll_on: Any, pace: Any) -> None:
    """Refuse settings the rules do not know, in one line each (SettingsError)."""
    if not isinstance(players, int) or isinstance(players, bool) or players % TABLE_SIZE \
            or not TABLE_SIZE <= players <= TABLE_SIZE * MAX_TABLES:
        raise SettingsError(f"Bunko seats 4 players at each of 1 to {MAX_TABLES} tables: choose 4, 8, "
                            f"12, 16 or 20 players, not {shown(players, 20)}")
    if not isinstance(sets, int) or isinstance(sets, bool) or not 1 <= sets <= MAX_SETS:
        raise SettingsError(f"sets must be 1 to {MAX_SETS}, not {shown(sets, 20)}")
    if roll_on not in ROLL_ON:
        raise SettingsError(f"roll_on must be one of {', '.join(ROLL_ON)}, not {shown(roll_on, 40)}")
    if pace not in PACES:
        raise SettingsError(f"pace must be one of {', '.join(PACES)}, not {shown(pace, 40)}")


def new_game(players: int | None = None, tables: int | None = None, sets: int = 1,
             roll_on: str = "bunko-only", pace: str = "normal") -> BunkoState:
    """A Bunko night: `tables` tables of four (default: as many as the players fill, or 3), so
    players = 4 x tables; `sets` sets of 6 rounds."""
    if tables is not None and (not isinstance(tables, int) or isinstance(tables, bool)
                               or not 1 <= tables <= MAX_TABLES):
        raise SettingsError(f"tables must be 1 to {MAX_TABLES}, not {shown(tables, 20)}")
    if players is None:
        players = TABLE_SIZE * (tables or 3)
    elif tables is not None and players != TABLE_SIZE * tables:
        table_word = "table seats" if tables == 1 else "tables seat"
        fitting = players // TABLE_SIZE if isinstance(players, int) and players % TABLE_SIZE == 0 else 0
        other = (f", or {fitting} table{'s' if fitting > 1 else ''} for {players}"
                 if 1 <= fitting <= MAX_TABLES else "")
        raise SettingsError(f"{tables} {table_word} {TABLE_SIZE * tables} players, not {shown(players, 20)}: "
                            f"choose {TABLE_SIZE * tables} players{other}")
    return BunkoState(players, sets, roll_on, pace)


def game_report(state: GameState) -> dict[str, Any]:
    """A finished night's figures for self-play's JSON."""
    assert isinstance(state, BunkoState)
    return {"rounds": len(state.results), "rolls": state.rolls, "bunkos": state.bunkos[:],
            "standings": state.standings(), "wins": state.wins[:], "losses": state.losses[:],
            "points": state.points[:], "bunko_rolls": state.bunko_rolls,
            "triple_rolls": state.triple_rolls,
            "roll_offs": sum(len(t["roll_offs"]) for r in state.results for t in r["tables"])}
