"""What Bandu's table says in words: the rules and keys for the help, the prompt of a person's
turn, the bar's headline and its buttons, a seat's line, a move of the history (pieces by their
names, a physics result without its poses), the verdict of a placement and the result.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from simulator.games.bandu.rules import ACQUIRE, REFUSE, TAKE, BanduState, Offer, Respond
from simulator.towers.pieces.catalogue import BY_ID, kind, piece_name

RULES = (
    "Each turn the auctioneer picks a piece from the reserve and auctions it. To refuse: "
    "each player from the left accepts it or pays 1 bean to pass it on, round and round "
    "until someone accepts (a player without beans must). To acquire: bid exactly one bean "
    "more or pass for good; the highest bidder pays and takes it, and if nobody bids the "
    "auctioneer gets it free. Whoever gets the piece places it on their own tower. Only the "
    "base may touch the table: a tower that falls knocks its builder out, their pieces "
    "return to the reserve. The last tower standing wins. With the reserve empty, the "
    "auctioneer auctions a piece from their own tower (not the one placed last).")
SOLO_RULES = (
    "Solo: take the pieces from the reserve one at a time, in any order, and stack each on your "
    "base. Only the base may touch the table. The attempt ends when the tower falls or the "
    "reserve is empty; the score is the pieces standing after the last placement that stood (the "
    "piece that brought the tower down does not count), the height breaking ties. Your records "
    "are kept.")
CHAIN_SOLO_RULES = (
    "Chain, alone: place the pieces of the chain in their order on your base. Only the base may "
    "touch the table. The score is the pieces of the chain standing when the tower falls or the "
    "chain ends.")
CONTROLS: tuple[tuple[str, str], ...] = (
    ("Click", "pick a reserve piece; release the held piece"),
    ("1, 2, 3", "the auction buttons in order"),
    ("Q / E", "turn the held piece about the vertical"),
    ("R / F", "tilt it away from you / towards you"),
    ("Z / C", "tilt it to your left / right"),
    ("Arrow keys", "move the held piece 1 mm left, right, farther or nearer, as the bar's "
                   "readout counts (Shift: 0.2 mm)"),
    ("Shift", "with Q E R F Z C and the arrows: fine steps"),
    ("Ctrl+wheel", "hold the piece higher or lower"),
    ("Right drag", "orbit the camera"),
    ("Middle drag", "pan (or Shift+right drag)"),
    ("Wheel", "zoom"),
    ("M", "the magnet on or off (snaps to the axis, the top piece's centre)"),
    ("V", "the next view of the tower: the default angle, from above, from the side, your own"),
    ("T", "fly to the tower in play"),
    ("Home", "the whole table"),
)
HINT_CONTROL = ("G", "a hint: the strong player's placement, a blue ghost; G again "
                     "releases it there (the record is marked)")


def alone_rules(state: BanduState) -> str:
    """The rules of a game built alone: the chain's or the solo attempt's."""
    return CHAIN_SOLO_RULES if state.variant == "chain" else SOLO_RULES


def alone_controls(hints: bool) -> tuple[tuple[str, str], ...]:
    """The keys of a game built alone: the bar's two buttons, and G where hints are given."""
    controls = tuple(("1, 2", "the bar's buttons: take it, cancel") if k == "1, 2, 3" else (k, v)
                     for k, v in CONTROLS)
    return (*controls, HINT_CONTROL) if hints else controls


def count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def out_word(state: BanduState) -> str:
    """How a seat whose tower fell is marked: out of the game, or, alone, its attempt over."""
    return "tower fell" if state.players == 1 else "out"


def built(state: BanduState, seat: int) -> int:
    """The pieces on the seat's tower, its foundation not counted (a challenge game's
    foundation is a piece it took)."""
    return len(state.towers[seat]) - (0 if state.variant == "challenge" else 1)


def seat_detail(state: BanduState, seat: int) -> str:
    """The panel's line for a seat: out, or its pieces (and beans)."""
    if not state.alive[seat]:
        return out_word(state)
    if state.players == 1:
        return count(built(state, seat), "piece")
    return f"{count(state.beans[seat], 'bean')} · {count(built(state, seat), 'piece')}"


def seat_status(state: BanduState, seat: int) -> str:
    """The line under a seat's name on the table: out, its pieces alone, else its beans."""
    beans = state.beans[seat]
    return (out_word(state) if not state.alive[seat]
            else count(built(state, seat), "piece") if state.players == 1
            else f"{beans} bean{'s' if beans != 1 else ''}")


def prompt(state: BanduState, chosen: str | None) -> str:
    """What the person to move does."""
    if state.phase == "offer":
        if state.players == 1:
            return "Take it, or pick another." if chosen else "Click a piece to take it."
        if chosen:
            return "Choose the auction."
        return "Click a piece to auction."
    if state.phase == REFUSE:
        return "Accept the piece or refuse it."
    if state.phase == ACQUIRE:
        return "Bid or pass."
    if state.phase == "place":
        return "Place the piece: move, turn (Q/E, R/F, Z/C), click."
    return ""


def result_text(state: BanduState) -> str:
    """The result: the score alone, else the last tower standing."""
    if state.built_alone and state.players == 1:
        score = count(state.score_pieces[0], "piece")
        if not state.alive[0]:              # the panel says the tower fell: so does the result
            return f"The tower fell. Score: {score}, standing before the last one."
        return f"Score: {score} standing."
    winners = [s for s in range(state.players) if state.alive[s]]
    if len(winners) == 1:
        pieces = built(state, winners[0])
        if pieces == 0:
            return "The last tower standing: a base with nothing on it yet."
        on = "" if state.variant == "challenge" else " on its base"
        return f"The last tower standing, {count(pieces, 'piece')}{on}."
    return ""


def describe_move(state: BanduState, notation: str, seat_name: Callable[[int], str]) -> str:
    """A move as a person says it: pieces by their names ('offers the wide cylinder to
    refuse'), a physics result without its poses ('the tower stands', 'Player 2's tower
    fell')."""
    if (placed := _PLACED.fullmatch(notation)) is not None:
        return _placed_words(*placed.groups())
    if not notation.startswith("result "):
        return _with_piece_names(notation)
    verdict = notation.split(" poses ", 1)[0].removeprefix("result ")
    if verdict == "stood":
        return "the tower stands"
    if state.players == 1:                   # a solo attempt: no one else to name
        return "the tower fell"
    seats = [int(s) for s in verdict.removeprefix("fell: ").split(",") if s.strip().isascii() and s.strip().isdigit()]
    names = " and ".join(f"{seat_name(s)}'s" for s in seats if 0 <= s < state.players)
    return f"{names or 'a'} tower fell"


def verdict(sentence: str, out: list[str], players: int) -> str:
    """A physics result as the message line says it: the move, and who is out now."""
    extra = (f": {' and '.join(out)} {'is' if len(out) == 1 else 'are'} out"
             if out and players > 1 else "")       # alone, 'out' says nothing
    return sentence[0].upper() + sentence[1:] + extra + "."


def bar_text(state: BanduState, chosen: str | None, seat_name: Callable[[int], str], *, over: bool,
             outcome_turn: bool, physics_shown: bool) -> tuple[str, str]:
    """The bar's headline and the line under it: what is happening now."""
    name = seat_name
    if over:
        return "Game over", result_text(state)
    if outcome_turn:
        piece = piece_name(state.auction.piece) if state.auction else "the piece"
        if not physics_shown:                    # a replay shows no physics
            return f"{piece} released", "The next move says whether the tower stood."
        return f"{piece}: will the tower stand?", "The physics decides; wait for the tower to settle."
    auction = state.auction
    if state.phase == "offer":
        reserve = f"{len(state.reserve)} pieces in the reserve"
        if chosen:                               # short: the buttons under it say the rest
            return (f"{name(state.auctioneer)} picked the {piece_name(chosen)}",
                    f"{'Take it or pick another' if state.players == 1 else 'Choose the auction'}"
                    f" · {reserve}")
        where = "the reserve" if state.reserve else "their own tower"
        return f"{name(state.auctioneer)} chooses a piece from {where}", reserve
    if auction is None:
        return "", ""
    if state.phase == REFUSE:
        return (f"Auction to refuse: {piece_name(auction.piece)}",
                f"{name(auction.responder)} accepts or pays 1 bean to pass it on"
                f" · {auction.refusals} refused so far")
    if state.phase == ACQUIRE:
        high = (f"high bid {auction.high_bid} by {name(auction.high_bidder)}" if auction.high_bid
                else "no bid yet")
        return (f"Auction to acquire: {piece_name(auction.piece)}",
                f"{name(auction.responder)} to bid or pass · {high}")
    if state.phase == "place":
        return (f"{name(state.placer)} places the {piece_name(auction.piece)}",
                "Only the base may touch the table.")
    return "", ""


def bar_choices(state: BanduState, chosen: str | None) -> list[tuple[str, Any]]:
    """The bar's buttons for the person to move, as (words, action; None cancels the pick)."""
    if state.phase == "offer" and chosen is not None:
        kinds = sorted({a.auction for a in state.legal_actions()
                        if isinstance(a, Offer) and a.piece == chosen})
        names = {ACQUIRE: "To acquire", REFUSE: "To refuse", TAKE: "Take it"}
        choices: list[tuple[str, Any]] = [(names[k], Offer(chosen, k)) for k in kinds]
        if state.variant != "chain":
            choices.append(("Cancel", None))
        return choices
    if state.phase in (ACQUIRE, REFUSE):
        labels = {"accept": "Accept", "refuse": "Refuse (1 bean)", "pass": "Pass"}
        return [(f"Bid {a.amount}" if a.kind == "bid" else labels[a.kind], a)
                for a in state.legal_actions() if isinstance(a, Respond)]
    return []


_NUMBER = r"(-?[0-9.]+)"
_PLACED = re.compile(rf"places (\S+) at {_NUMBER} {_NUMBER} mm, yaw {_NUMBER} roll {_NUMBER} pitch {_NUMBER}")


def _placed_words(piece: str, x: str, y: str, yaw: str, roll: str, pitch: str) -> str:
    """'places the large cube on the axis', '... 3.2 mm off the axis, turned 15 degrees'."""
    off = math.hypot(float(x), float(y))
    words = f"places the {piece_name(piece)} " + ("on the axis" if off < 0.05 else f"{off:.1f} mm off the axis")
    turns = [f"{name} {float(value):g} degrees" for name, value in (("turned", yaw), ("rolled", roll),
                                                                       ("pitched", pitch)) if float(value)]
    return words + (", " + ", ".join(turns) if turns else "")


def _with_piece_names(notation: str) -> str:
    """A move's notation with its piece ids said as names: 'offers the wide cylinder to
    refuse' (an id is a word of its own in the notation)."""
    words = notation.split(" ")
    return " ".join(f"the {piece_name(word)}" if kind(word) in BY_ID else word for word in words)
