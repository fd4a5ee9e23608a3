"""What Buddel Bande's board says in words: the rules and keys for the help, a roll, a finished
turn's line in the log, the action card's prompt, look and peek, the hint about the move
pointed at, the panel's prompt and seat lines, a move of the history and the result.
"""

from __future__ import annotations

from collections.abc import Callable

from simulator.games.buddel_bande.rules import (
    CLAN_SINGULAR,
    CLANS,
    DEN_ENTRANCE,
    DOG,
    DOG_OR_ANY,
    FIGURE_NAMES,
    FIGURES,
    HAYSTACK,
    LOOK,
    MOVE,
    PEEK,
    SIZES,
    SYMBOL_NAMES,
    BuddelState,
)

RULES = (
    "Each player owns a clan of moles (ladybirds, ants, worms, snails): a small, a medium and "
    "a large one. From above all moles of a size look alike: the clan is hidden underneath.\n"
    "Roll both dice. The figure die says which mole (a size, any mole), or the dog, or "
    "either; the symbol die says flower, leaf or clover. A mole runs to the nearest FREE hole "
    "ahead with that symbol (occupied ones are skipped); with none left it reaches the den "
    "entrance and goes, turned over, into its clan's den, whoever moved it. The dog goes "
    "beside any other hole with the symbol, forward or back; the mole beside it cannot move.\n"
    "Moving is compulsory; when nothing of the rolled size can move you roll again. Only when "
    "every move would bring home a mole you KNOW is an opponent's may you decline.\n"
    "After moving a mole you may look under it, secretly: remember what you saw.\n"
    "The clan whose third mole enters its den wins, on whoever's turn it happens.")
CONTROLS = (("Left click", "move a lit mole, or send the dog to a lit spot"),
            ("Hover", "see where a mole or the dog would go"),
            ("Tab, Enter", "go through the lit moves (Shift+Tab back), make the one shown"),
            ("L / N", "look under the mole you moved / do not look"),
            ("Enter", "done (after a look)"),
            ("D", "decline (when every move would bring an opponent's mole home)"))
NO_TURN_YET = "Each turn is told here."


def roll_words(figure: int, symbol: int) -> str:
    return f"{FIGURE_NAMES[figure]} + {SYMBOL_NAMES[symbol]}"


def turn_sentence(state: BuddelState, seat_name: str) -> str:
    """One line for a finished turn: the roll(s) and what was done."""
    if not state.last_turn:
        return ""
    _seat, rolls, move, looked = state.last_turn
    rolled = roll_words(*rolls[-1]) if rolls else "?"
    again = f" (rolled {len(rolls) - 1} more time{'s' if len(rolls) > 2 else ''}: nothing could move)" \
        if len(rolls) > 1 else ""
    if not move:
        did = "did nothing"
    elif move[0] == "decline":
        did = "declined to bring an opponent's mole home"
    elif move[0] == "dog":
        did = f"sent the dog from hole {move[1]} to hole {move[2]}"
    else:
        _, mole, start, target, clan = move
        size = SIZES[state.size[mole]]
        where = "the haystack" if start == HAYSTACK else f"hole {start}"
        if target == DEN_ENTRANCE:
            did = f"ran the {size} mole from {where} home: {CLAN_SINGULAR[clan]}, into the {CLANS[clan]}' den"
        else:
            did = f"ran the {size} mole from {where} to hole {target}" + (", looked under it" if looked else "")
    return f"{seat_name}: {rolled}{again}; {did}."


# --- the action card ---------------------------------------------------------------------------------

def over_words(state: BuddelState, name: Callable[[int], str]) -> str:
    return f"The {CLANS[state.winner]} are all home: {name(state.winner)} win!"


def waiting_words(state: BuddelState, name: Callable[[int], str]) -> str:
    """Someone else's turn (or the dice's)."""
    player = state.current_player()
    return f"{name(player)} to play." if player >= 0 else "Rolling..."


def move_prompt(state: BuddelState) -> str:
    """A person's roll and what to click."""
    rolled = roll_words(state.figure, state.symbol)
    if state.figure == DOG:
        return f"You rolled {rolled}: click a lit spot to send the dog there."
    what = "a lit mole or dog spot" if state.figure == DOG_OR_ANY else "a lit mole"
    extra = " Or decline: every move brings an opponent's mole home." if state.may_decline() else ""
    return f"You rolled {rolled}: click {what} to move it.{extra}"


def look_question(state: BuddelState) -> str:
    """After a mole ran to a hole: look under it?"""
    mole = state.moved
    # 'your' only when this seat knows it is (any mole may be moved)
    whose = "Your" if state.clan[mole] == state.to_move else "The"
    return (f"{whose} {SIZES[state.size[mole]]} mole ran to hole {state.pos[mole]}. Look under it, "
            f"secretly?")


def peek_words(state: BuddelState, name: Callable[[int], str]) -> str:
    """What the person who looked saw, for them only."""
    mole = state.moved
    clan = state.clan[mole]
    whose = "yours!" if clan == state.to_move else f"{name(clan)}' mole." if clan >= 0 else "?"
    return (f"Only you see this: under the {SIZES[state.size[mole]]} mole on hole {state.pos[mole]} "
            f"is {'an' if clan == 1 else 'a'} {CLAN_SINGULAR[clan] if clan >= 0 else '?'}: {whose}\n"
            f"Remember it.")


# --- the move pointed at -------------------------------------------------------------------------------

def mole_hint(state: BuddelState, mole: int, destination: int) -> str:
    where = "the den entrance and into its clan's den" if destination == DEN_ENTRANCE else f"hole {destination}"
    start = "the haystack" if state.pos[mole] == HAYSTACK else f"hole {state.pos[mole]}"
    return f"Mole {mole + 1} ({SIZES[state.size[mole]]}): from {start} to {where}"


def dog_hint(state: BuddelState, hole: int) -> str:
    return f"The dog: from beside hole {state.dog} to beside hole {hole}"


# --- the side panel and the end ------------------------------------------------------------------------

def prompt(state: BuddelState) -> str:
    phase = state.phase
    if phase == MOVE:
        return "Move a lit mole or the dog (or Tab, Enter)."
    if phase == LOOK:
        return "Look under the mole you moved, or not."
    if phase == PEEK:
        return "Remember what you saw, then Done."
    return ""


def seat_detail(state: BuddelState, seat: int) -> str:
    home = state.dens[seat]
    return f"{home} of 3 moles home"


def result_text(state: BuddelState, name: Callable[[int], str]) -> str:
    if state.winner < 0:
        return ""
    last = state.last_turn
    mover = name(last[0]) if last else "?"
    return (f"The {CLANS[state.winner]}' third mole went into their den on turn {state.turns}, "
            f"moved by the {mover}.")


def describe_move(notation: str) -> str:
    """A move of the history in words (the haystack's arrangement stays secret, whether the
    notation names the clan or not: "arrange ? small", as another seat sees it)."""
    words = notation.split()
    if words and words[0] == "arrange":
        return "arranged the haystack"
    if len(words) == 3 and words[0] == "roll" and words[1] in FIGURES:
        return f"rolled {FIGURE_NAMES[FIGURES.index(words[1])]} + {words[2]}"
    if words and words[0] == "mole":
        return f"moved mole {words[1]}"
    if words and words[0] == "dog":
        return f"sent the dog to hole {words[1]}"
    return {"no-look": "did not look", "look": "looked under the mole", "done": "ended the turn",
            "decline": "declined"}.get(notation, notation)
