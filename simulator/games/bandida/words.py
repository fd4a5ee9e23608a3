"""What Bandida's table says in words: the rules and keys for the help, the prompt of a person's
turn, a move of the history, a seat's line, a refused move as the picture shows it (no grid
coordinates), why the game ended, and the hints about what the pointer is on.
"""

from __future__ import annotations

from simulator.core.errors import Refusal
from simulator.games.bandida.cards import BY_CODE, KINDS
from simulator.games.bandida.rules import PASS, SWAP, BandidaEnding, BandidaRefusal, BandidaState

RULES = (
    "A cooperative game: the whole team wins or loses together.\n"
    "On your turn place one card from your hand next to the network: it must join an open "
    "tunnel, and on every side it touches, tunnel must meet tunnel and earth meet earth. Then "
    "draw back up to 3. If no card fits, put your hand under the pile and draw 3 from the "
    "top (pass only when the pile is empty).\n"
    "Mode 1: close every open exit. Mode 2: get the ladder into the network and close every "
    "other exit. Mode 3: the same with Bandido's super card (and the ladder).\n"
    "Objects act when placed: backpack, draw 1 extra card; dynamite, blow up a card whose "
    "loss cuts nothing off; discard, everyone may discard up to 2 and draw back up; skip, "
    "you miss your next turn. Alarms act when drawn: 1, everyone discards a card; 2, the top "
    "5 cards of the pile leave the game. Cards out of the game lie face up by the pile.\n"
    "The game is lost when the pile runs out and no one can place, or (setting) as soon as "
    "an exit can provably never be closed. Only your own hand is shown; talk strategy, but "
    "do not name your cards.")
CONTROLS = (("Drag a card", "from your hand onto a lit spot (or click it, then click)"),
            ("1-4, Tab", "pick up a hand card (Tab alone: the first that fits), go through its "
                         "spots (Enter places it)"),
            ("Wheel or R", "turn the card you hold (Shift+R the other way)"),
            ("S", "the other side of the super card you hold"),
            ("Esc", "put the held card back"),
            ("Click a card", "dynamite: blow it up; discards: discard it (or Tab to it, Enter)"),
            ("K or Enter", "keep the rest (discards); swap or pass when nothing fits"),
            ("Drag the felt", "pan; wheel zooms, arrows pan, + and - zoom"),
            ("Home", "fit the network to the table"))

_ON_SCREEN = {"east": "right", "north": "top", "west": "left", "south": "bottom"}
_EFFECTS = {                 # what an icon does, said when the mouse is on a hand card
    "backpack": "when you place it, you draw 1 extra card (a hand of 4 until you play it)",
    "dynamite": "when you place it, you blow up one card whose loss cuts nothing off",
    "discard": "when you place it, everyone may discard up to 2 cards and draw back up",
    "skip": "when you place it, you miss your next turn",
    "ladder": "Bandida's way out: it must be in the network before the last tunnel closes",
    "super": "it must be in the network before the last tunnel closes; S turns it over",
}


def prompt(state: BandidaState) -> str:
    """What the person to move does."""
    if state.phase == "blow":
        return "Dynamite: click the card to blow up (or Tab to it, Enter)."
    if state.phase == "discard":
        return "Click cards (or press 1-4, or Tab, Enter) to discard up to 2, then Keep the rest (K)."
    if state.phase == "alarm":
        return "Alarm: click a card (or press 1-4, or Tab, Enter) to discard."
    legal = state.legal_actions()
    if legal == [SWAP]:
        return "No card fits: swap your hand."
    if legal == [PASS]:
        return "No card fits and the pile is short: pass."
    return "Drag a card onto a lit spot; R or the wheel turns it (keys: 1-4, Tab, Enter)."


def describe_move(notation: str) -> str:
    """A move in words; a draw without its card, whether the notation names it or not ("draw ?",
    a draw as another seat sees it): a history line at one machine is seen by everyone."""
    words = notation.split()
    if not words or words[0] == "draw":
        return "a card is drawn"
    kind = BY_CODE.get(words[1]) if len(words) > 1 else None
    if words[0] == "place" and kind is not None:
        return f"placed {kind.title()}"
    if words[0] == "discard" and kind is not None:
        return f"discarded {kind.title()}"
    return {"blow": "blew up a card", "swap": "swapped their hand", "pass": "passed",
            "keep": "kept the rest of their hand"}.get(words[0], notation)


def seat_detail(state: BandidaState, seat: int) -> str:
    count = len(state.hands[seat])
    cards = f"{count} card{'s' if count != 1 else ''}"
    # the skip first: a narrow panel cuts the end of the line
    return f"skips next turn, {cards}" if state.skip[seat] else cards


def refusal_words(refused: Refusal) -> str:
    """Without the grid's coordinates: the held card shows red where it was refused."""
    if refused.code == BandidaRefusal.TAKEN:
        return "a card already lies there"
    side = _ON_SCREEN.get(str(refused.fields.get("side")), "")
    if refused.code == BandidaRefusal.TUNNEL_INTO_EARTH and side:
        return f"a tunnel would run into earth on the {side} side of the card"
    if refused.code == BandidaRefusal.EARTH_MEETS_TUNNEL and side:
        return f"an open tunnel would meet earth on the {side} side of the card"
    return refused.text


def cell_that_lost(state: BandidaState) -> tuple[int, int] | None:
    """The cell the game was lost to (the early loss names it), or None."""
    ending = state.ending()
    if ending is None or ending.code != BandidaEnding.CELL_NEVER_CLOSED:
        return None
    x, y = ending.fields["cell"]
    return (x, y)


def ending_words(state: BandidaState) -> str:
    """Why the game ended, with the cell it was lost to pointed at on the table (it is ringed
    red) instead of named by its grid coordinates."""
    ending = state.ending()
    if ending is None:
        return ""
    if ending.code == BandidaEnding.CELL_NEVER_CLOSED:
        return ("The tunnel into the cell ringed red on the table can never be closed: no card "
                "left in the game fits there, and no dynamite is left.")
    return ending.text


def result_text(state: BandidaState) -> str:
    pile = state.pile_count()
    return (f"{ending_words(state)} ({state.turns} turns, {state.exits} exits open, "
            f"{pile} card{'s' if pile != 1 else ''} in the pile.)")


def tally(kinds: list[int], most: int = 8) -> str:
    """'a dead end x2; alarm 1; ...': each kind once, in the order first met, with its count."""
    counts: dict[int, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    parts = [KINDS[k].title() + (f" x{n}" if n > 1 else "") for k, n in counts.items()]
    return "; ".join(parts[:most]) + (f"; and {len(parts) - most} more kinds" if len(parts) > most else "")


def card_hint(kind: int) -> str:
    """A hand card under the mouse: its name and what its icon does."""
    effect = _EFFECTS.get(KINDS[kind].icon, "")
    name = KINDS[kind].title()
    return name[0].upper() + name[1:] + (f": {effect}." if effect else ".")


def held_hint(shown: int, every: int, other_side_fits: bool) -> str | None:
    """The held card's spots: `shown` lit as it is turned, `every` in any turn; None where
    nothing needs saying."""
    if not shown:
        return ("This card fits nowhere as it is turned: press R or turn the wheel." if every
                else "This side fits nowhere: press S for the other side." if other_side_fits
                else "This card fits nowhere in the network now.")
    if every > shown:
        return (f"Lit: the {shown} spot{'s' if shown != 1 else ''} where it fits as it is "
                f"turned; R or the wheel shows {every - shown} more.")
    return None
