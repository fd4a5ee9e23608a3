"""The contract between a game's view and the shared game screen, for flat boards and 3D tables.

A GameView draws one game's table in the area the screen gives it and turns input into actions
sent through the controller; it never changes the state itself. It:
- owns its draw pass (`draw()`): a flat board draws its own batch in window pixels; a 3D table
  sets its own viewport, projection, depth test and shaders (render/pass3d.py) and puts the
  window's back as it found them (`render.pass3d.view_pass`);
- receives the full input set straight from pyglet's handler stack, on which the game screen
  pushes it above itself: on_mouse_motion/press/release/drag/scroll, on_key_press/release. A
  handler returns True when it used the event; otherwise the event goes on to the screen (its
  buttons and keys) and the window;
- sees the state a seat may see: `self.state` is `controller.visible_state(viewer)`, the viewer
  being the person at the machine (the game screen's hand-over decides who that is);
- gives the shared side panel its game-specific text: seat icons and details, the prompt of a
  person's turn, the end-of-game sentence, its keys and rules for the help overlay;
- may name a part of its table that the screen's dialogs leave in sight (`keep_in_sight()`).
The game screen (app/game_screen.py) draws the rest: seats, status, buttons, overlays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from pyglet.graphics import Batch

from simulator.core import registry
from simulator.core.controller import TurnController
from simulator.core.errors import IllegalAction, Refusal, SettingsError
from simulator.core.state import GameState
from simulator.render.widgets import Area, Toast

if TYPE_CHECKING:
    from simulator.core.registry import GameInfo, GameRules


@dataclass
class ViewContext:
    controller: TurnController
    toast: Toast
    viewer: Callable[[], int | None]      # the seat whose eyes the view shows (None: all)
    window: Any                           # the AppWindow (size, projection, pixel ratio)


S = TypeVar("S", bound=GameState)


class GameView(Generic[S]):
    """A game's view, generic in the game's state class (`MyView(GameView[MyState])`)."""

    #: the state class the view draws: `state` is checked to be one, typed as S
    state_class: type = object
    #: short rules shown in the help overlay (written from the game's rule book)
    rules_summary: str = ""
    #: (key, what it does) pairs of the game's own mouse and keys, listed in the help overlay
    controls: tuple[tuple[str, str], ...] = ()
    #: what the status says a computer player is doing on its turn ('Player 2 is thinking')
    computer_doing: str = "thinking"

    def __init__(self, context: ViewContext) -> None:
        self.context = context
        self.controller = context.controller
        self.toast = context.toast
        self.batch = Batch()            # a flat view's own drawing; 3D views add their own pass
        self.area = (0.0, 0.0, 1.0, 1.0)
        self.enabled = True             # False while the hand-over screen hides the table
        self.hint = ""                  # one line under the status: what the hovered thing would do
        self._moves_heard = len(context.controller.history)   # a loaded game's moves are past

    @property
    def state(self) -> S:
        """The state as the viewing seat may see it."""
        state = self.controller.visible_state(self.context.viewer())
        assert isinstance(state, self.state_class), type(state).__name__
        return cast(S, state)

    def play_sound(self, name: str, make: Callable[[], Any], gain: float = 1.0) -> None:
        """Play a sound of the table (render/sound.py): `make()` makes its samples the first
        time. Silent where the window has no sound (tests without a window, no device)."""
        sound = getattr(self.context.window, "sound", None)
        if sound is not None:
            sound.play(name, make, gain)

    def hear_new_moves(self, sound_of: Callable[[str, int], Any]) -> None:
        """Play the sound of each move recorded since the view last listened: `sound_of(
        notation, ply)` gives (name, make, gain) or None for a silent move."""
        history = self.controller.history
        for ply in range(self._moves_heard, len(history)):
            found = sound_of(history[ply].action, ply)
            if found is not None:
                self.play_sound(*found)
        self._moves_heard = len(history)

    def may_act(self) -> bool:
        """May the person at the machine act now: the table shown (not the hand-over screen),
        a person's turn, the game not over. The one test every view asks."""
        return self.enabled and self.controller.is_person_turn() and not self.controller.is_over()

    # --- area, drawing, clock -----------------------------------------------------------------
    def layout(self, x: float, y: float, width: float, height: float) -> None:
        """The view's area in window pixels."""
        self.area = (x, y, width, height)

    def contains(self, x: float, y: float) -> bool:
        ax, ay, width, height = self.area
        return ax <= x < ax + width and ay <= y < ay + height

    def draw(self) -> None:
        """The view's own draw pass; called before the screen's panel and overlays."""
        self.batch.draw()

    def still_showing(self) -> bool:
        """Is the view still showing how the game ended (a tower falling)? The end screen waits
        until it is not."""
        return False

    def sync(self) -> None:
        """The controller's state changed (a move, an undo, a load, a new viewer): redraw."""

    def update(self, dt: float) -> None:
        """Animation tick (60 Hz)."""

    def close(self) -> None:
        """The game screen is gone: free GL objects the view made."""

    def keep_in_sight(self) -> Area | None:
        """A part of the view that the screen's dialogs leave in sight where the window has room
        (a score sheet under the end dialog); None: dialogs are centred."""
        return None

    # --- input: pyglet's event handlers (True: used) -------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        return None

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        return None

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool | None:
        return None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool | None:
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        return None

    def on_key_release(self, symbol: int, modifiers: int) -> bool | None:
        return None

    # --- text for the shared panel ----------------------------------------------------------------
    def seat_icon(self, seat: int) -> Any:
        """A pyglet image standing for the seat in the side panel, or None."""
        return None

    def seat_detail(self, seat: int) -> str:
        """A short line about the seat, e.g. '12 stones'."""
        return ""

    def prompt(self) -> str:
        """What the person to move does, e.g. 'Click a point.'"""
        return ""

    def refusal_words(self, refused: Refusal) -> str:
        """The rules' refusal of a move as the person at the table should read it: its text,
        or words a view builds from its code and fields (dropping coordinates the picture
        already shows)."""
        return refused.text

    def result_title(self) -> str:
        """The end screen's title where the winners' names do not say it (a team's loss);
        empty: the winners' names, or 'Game over'."""
        return ""

    def result_text(self) -> str:
        """A sentence under the winner's name on the end screen."""
        return ""

    def outcome_text(self) -> str:
        """The status while an outcome is being resolved, e.g. 'Rolling'; dots are added."""
        return "Waiting for the result"

    def describe_move(self, notation: str) -> str:
        """A history entry's notation as the panel and the replay show it (a game whose notation
        carries data for the save, such as settled poses, says it in short)."""
        return notation

    # --- acting --------------------------------------------------------------------------------
    def submit(self, action: Any) -> bool:
        """Send a person's action; show the reason in the toast when it is refused."""
        try:
            self.controller.submit(action)
        except IllegalAction as error:
            self.toast.show(self.refusal_words(error.refusal), error=True)
            return False
        self.toast.dismiss_error()          # the refusal it answered is out of date
        return True


def game_ending(view: GameView, info: GameInfo, winners: list[int], solo: bool,
                as_title: bool = False) -> str:
    """How a finished game is said, the same on the status line, the end screen and the replay:
    the view's own words where the winners' names do not say it (a team's loss), else the
    winners' names, else 'Game over' (no winner, or a solo game, which ends with a score).
    `as_title`: the end screen's title ('Anna wins!', 'Ants win!'), otherwise a sentence
    ('Anna won.')."""
    title = view.result_title()
    if title:
        return title if as_title else f"{title}."
    if not winners or solo:
        return "Game over" if as_title else "Game over."
    names = " and ".join(info.seat_name(w) for w in winners)
    if as_title:
        verb = "win" if len(winners) > 1 else info.seat_verb(winners[0], "wins", "win")
        return f"{names} {verb}!"
    return f"{names} won."


def view_class_of(game: GameRules) -> type[GameView]:
    """The game's view class, loaded by its app part (GameApp.view, which imports pyglet: the
    window calls this, never the rules)."""
    load = registry.get_app(game).view
    if load is None:
        raise SettingsError(f"{game.title} has no view in the window yet")
    view = load()
    if not issubclass(view, GameView):
        raise TypeError(f"{game.title}'s view {view.__name__} is not a GameView")
    return view
