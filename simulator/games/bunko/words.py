"""What Bunko's room says in words: the rules and keys for the help, what happens now, a table's
caption of its last roll, a player's line and hint, a move of the history, the night's result.
"""

from __future__ import annotations

from typing import Any

from simulator.games.bunko.rules import (
    BUNKO,
    FINISH,
    HITS,
    OVER,
    ROLL_OFF,
    TRIPLE,
    BunkoState,
    team_of,
)

RULES = (
    "Four players at each table, partners opposite (south-north against west-east). A night "
    "is 6 rounds per set; in round r of a set the target is r.\n"
    "On your turn you roll three dice: each die showing the target scores 1 for your team; "
    "three targets are a BUNKO (21 points, and a bunko on your score sheet); three of another "
    "number score 5. After a roll with a target die you roll again, otherwise the dice go to "
    "the left (the setting 'Roll again' changes this for bunkos and triples).\n"
    "The tables roll in turn. When a team at the head table (table 1) reaches 21 the bell "
    "rings; every other table makes one more roll and the round ends. The team with more "
    "points wins its table; a tie is settled by a roll-off (one last roll per team, by its "
    "player in the earlier chair; it counts on no score sheet).\n"
    "Then winners move up a table and losers stay; at the head table the winners stay and "
    "the losers go to the last table. Everyone gets a new partner. With one table the "
    "partners rotate.\n"
    "Standings: most wins, then most bunkos, then most points.")
CONTROLS = (("Space", "roll the dice when it is your turn"),
            ("Left click", "roll the dice (anywhere on the tables)"),
            ("S", "show or hide the score sheets and standings"),
            ("Hover a player", "their score sheet"))


def roll_caption(roll: dict[str, Any], target: int) -> str:
    """What a table says about its last roll."""
    points = roll["points"]
    if roll["roll_off"]:
        return f"roll-off: +{points}" if points else "roll-off: nothing"
    if roll["kind"] == BUNKO:
        return "BUNKO! +21"
    if roll["kind"] == TRIPLE:
        return "triple: +5" + (", rolls again" if roll["again"] else "")
    if roll["kind"] == HITS:
        return f"+{points}" + (", rolls again" if roll["again"] else "")
    return f"no {target}: dice go left"


def phase_text(state: BunkoState) -> str:
    """What happens now, in the banner."""
    if state.phase == OVER:
        return "The night is over: the standings"
    seat = state.roller_seat()
    who = f"Player {seat + 1}"
    table = state.rolling_table() + 1
    if state.phase == ROLL_OFF:
        return f"Roll-off at table {table}: {who} rolls"
    if state.phase == FINISH:
        return f"The bell has rung: last roll at table {table}"
    if state.round_rolls == 0 and state.results:
        return "Players change tables"
    return f"{who} rolls at table {table}"


def table_caption(state: BunkoState, t: int) -> str:
    """Table t's line: its roll-off, its last roll this round, or how last round ended there."""
    if state.phase == ROLL_OFF and t in state.rolloff_tables:
        a, b = state.rolloff_score if t == state.rolloff_tables[0] else (0, 0)
        return f"tied: roll-off {a} : {b}"
    roll = state.last_rolls[t]
    if roll is not None and roll["round"] == state.round:
        return roll_caption(roll, state.target)
    if state.results:               # last round's, named (the winners may be opponents now)
        record = state.results[-1]
        result = record["tables"][t]
        winners = [result["chairs"][c] + 1 for c in range(4) if team_of(c) == result["winner"]]
        a, b = result["score"]
        return f"round {record['round']}: P{winners[0]} & P{winners[1]} won {max(a, b)}-{min(a, b)}"
    return ""


def player_hint(state: BunkoState, seat: int) -> str:
    """The player under the mouse: where and with whom first, then the sheet (a full panel
    leaves the hint a line or two)."""
    sheet = state.sheet(seat)
    table, chair = state.table_of(seat)
    partner = state.chairs[table][(chair + 2) % 4]
    return (f"Player {seat + 1}: table {table + 1}, partner Player {partner + 1}; "
            f"{sheet['wins']} won, {sheet['losses']} lost, {sheet['bunkos']} bunko"
            f"{'s' if sheet['bunkos'] != 1 else ''}, {sheet['points']} points")


def seat_detail(state: BunkoState, seat: int) -> str:
    sheet = state.sheet(seat)
    table = state.table_of(seat)[0] + 1
    bunkos = f" · {sheet['bunkos']} bunko{'s' if sheet['bunkos'] != 1 else ''}" if sheet["bunkos"] else ""
    return f"table {table} · {sheet['wins']}W {sheet['losses']}L{bunkos} · {sheet['points']} pts"


def describe_move(notation: str) -> str:
    if notation == "roll":
        return "rolls the dice"
    return "dice show " + notation.replace("-", " ")


def result_text(state: BunkoState) -> str:
    places = state.places()
    lines = []
    for seat in state.standings()[:5]:
        sheet = state.sheet(seat)
        lines.append(f"{places[seat]}. Player {seat + 1}: {sheet['wins']} wins, {sheet['bunkos']} "
                     f"bunko{'s' if sheet['bunkos'] != 1 else ''}, {sheet['points']} points")
    more = f"\n... and {state.players - 5} more on the score sheets." if state.players > 5 else ""
    return (f"After {len(state.results)} rounds, by wins, then bunkos, then points:\n"
            + "\n".join(lines) + more)
