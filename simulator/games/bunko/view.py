"""Bunko's room in the window: every table at once (the head table large, the others in a row
below), the players in their chairs, three dice per table that tumble and land, the round's
target, the team scores, the head table's bell, players moving between tables, and the score
sheets with the standings.

Reads the state through the view contract (render/game_view.py) and never changes it: a person's
roll (Space, or a click on the room) goes through the controller. The dice of a roll in the air
are drawn from the controller's pending outcome (pace.RollingDice: waiting while players move,
tumbling, lying); their faces are the outcome's result, drawn from the seeded RNG.
Chairs: chair 0 sits south, then the dice go left (west, north, east), so partners sit opposite:
south and north against west and east.

This module is the room's banner, clock and input; its parts place the tables (room.py), draw
each table and its dice (table_drawing.py), the players (tokens.py), the bell (bell.py) and
the score sheets (score_sheet.py), paint the pictures (art.py) and say it in words (words.py).
"""

from __future__ import annotations

import math
from typing import Any

from pyglet import shapes
from pyglet.window import key, mouse

from simulator.games.bunko import art, pace, words
from simulator.games.bunko.bell import Bell
from simulator.games.bunko.layers import G_BANNER, G_FLASH, G_GLOW, G_TOKEN_SHADOW
from simulator.games.bunko.room import BANNER_HEIGHT, TableSpot, room_layout
from simulator.games.bunko.rules import BUNKO, ROUNDS_PER_SET, BunkoState, Roll
from simulator.games.bunko.score_sheet import ScoreSheet
from simulator.games.bunko.table_drawing import TableDrawing
from simulator.games.bunko.tokens import PlayerTokens
from simulator.render import sound_synthesis, theme
from simulator.render.dice import Die
from simulator.render.game_view import GameView, ViewContext
from simulator.render.sound import dice_sound
from simulator.render.tweens import Tween
from simulator.render.widgets import Area, fit_width, label, shrink_to_width

FLASH_SECONDS = {"normal": 1.8, "fast": 1.2, "instant": 0.8}   # a big word over a table


class BunkoView(GameView[BunkoState]):
    state_class = BunkoState
    computer_doing = "rolling"               # a computer player only rolls: it does not think
    rules_summary = words.RULES
    controls = words.CONTROLS

    def __init__(self, context: ViewContext) -> None:
        super().__init__(context)
        if self.controller.settings.get("pace") == "instant":
            self.controller.computer_delay = 0.0     # no pause between computer rolls either
        state = self.state
        batch = self.batch
        self.tables = [TableDrawing(batch, t) for t in range(state.tables)]
        self.spots: list[TableSpot] = [d.spot for d in self.tables]
        self.tokens = PlayerTokens(batch, state.players, lambda seat: not self.controller.seats[seat].is_computer)
        self.roller_glow = shapes.Circle(0, 0, 10, segments=40, color=(*art.ROLLER_GLOW, 0), batch=batch,
                                         group=G_TOKEN_SHADOW)
        self.dice_glow = shapes.Circle(0, 0, 10, segments=48, color=(*art.DICE_GLOW, 0), batch=batch, group=G_GLOW)
        # the banner: round, target, what happens now
        self.banner = shapes.RoundedRectangle(0, 0, 10, 10, radius=10, segments=6, color=art.BANNER,
                                              batch=batch, group=G_BANNER)
        self.round_label = label("", size=20, batch=batch, group=G_FLASH, bold=True, serif=True,
                                 anchor_y="center", color=art.ROUND_TEXT)
        self.set_label = label("", size=11, batch=batch, group=G_FLASH, anchor_y="center", color=theme.TEXT_DIM)
        self.target_caption = label("target", size=11, batch=batch, group=G_FLASH, anchor_x="right",
                                    anchor_y="center", color=theme.TEXT_DIM)
        self.target_die = Die(batch, G_FLASH, size=44, face=1)
        self.phase_label = label("", size=13, batch=batch, group=G_FLASH, anchor_x="right", anchor_y="center",
                                 color=art.PHASE_TEXT)
        self.bell = Bell(batch)
        self.flashes: list[tuple[Any, Tween]] = []   # big words over a table, fading as they rise
        self.sheet = ScoreSheet(batch, self.controller)
        self.clock = 0.0
        self.banner_middle = 0.0
        self.hover_seat: int | None = None
        self.hovering = False
        self.mouse: tuple[float, float] | None = None     # where the mouse is over the window
        self._shown_round = state.round
        self._shown_bell = state.bell
        self._shown_rolls = state.rolls
        self._throw: Any = None                      # the pending outcome whose dice fly
        self._was_over = state.is_terminal()
        self.sync()

    # --- layout ---------------------------------------------------------------------------------------
    def layout(self, x: float, y: float, width: float, height: float) -> None:
        super().layout(x, y, width, height)
        state = self.state
        self.spots = room_layout(state.tables, x + 8, y + 8, width - 16, height - 16)
        for drawing, spot in zip(self.tables, self.spots, strict=True):
            drawing.place(spot, left=x + 8)
        top = y + height - 10
        self.banner.position = (x + 12, top - BANNER_HEIGHT + 14)
        self.banner.width, self.banner.height = width - 24, BANNER_HEIGHT - 18
        middle = top - BANNER_HEIGHT / 2 + 5
        self.round_label.position = (x + 30, middle + 9, 0)
        self.set_label.position = (x + 32, middle - 16, 0)
        self.banner_middle = middle
        self.phase_label.position = (x + width - 30, middle, 0)
        head = self.spots[0]
        bell_size = max(20.0, head.radius * 0.3)
        self.bell.place(head.x + head.radius * 0.82 + head.token_radius, head.y + head.radius * 0.95 + bell_size * 0.5,
                        bell_size)
        self.tokens.sit(state, self.spots)
        self.tokens.glide.stop()
        self.tokens.place(state, self.spots)
        self.sync()

    # --- following the state ----------------------------------------------------------------------------
    def sync(self) -> None:
        state = self.state
        if state.round != self._shown_round:
            forward = state.round == self._shown_round + 1
            self._shown_round = state.round
            seconds = pace.MOVE_SECONDS[state.pace] if forward else 0.0
            self.tokens.start_glide(state, self.spots, seconds)
        if state.bell and not self._shown_bell and state.round == self._shown_round:
            self.bell.ring()
            self.play_sound("bell", sound_synthesis.bell)
        self._shown_bell = state.bell
        if state.rolls > self._shown_rolls:
            self._flash_news(state)
        self._shown_rolls = state.rolls
        if state.is_terminal() and not self._was_over:
            self.sheet.visible = True
        self._was_over = state.is_terminal()
        self._refresh()
        self._refresh_hover()           # a new round seats everyone anew: the hint follows

    def _flash_news(self, state: BunkoState) -> None:
        """A big word over the table where a bunko has just landed."""
        roll = state.last_rolls[state.last_table] if state.last_table >= 0 else None
        if roll is not None and roll["kind"] == BUNKO:
            self.flash("BUNKO!", self.spots[state.last_table], art.BUNKO_WORD)

    def flash(self, text: str, spot: TableSpot, colour: tuple[int, int, int, int]) -> None:
        """A big word over a table, rising and fading (faster at a faster pace); a new one
        replaces the last."""
        for earlier, _ in self.flashes:
            earlier.delete()
        self.flashes = []
        word = label(text, spot.x, spot.y + spot.radius * 0.35, size=max(14.0, spot.radius * 0.2),
                     batch=self.batch, group=G_FLASH, bold=True, serif=True, anchor_x="center",
                     anchor_y="center", color=colour)
        self.flashes.append((word, Tween(FLASH_SECONDS.get(self.state.pace, FLASH_SECONDS["normal"]))))

    def show_sheet(self, visible: bool) -> None:
        """Show or hide the score sheets."""
        self.sheet.visible = visible
        self.sheet.build(self.state, self.area)

    def _refresh(self) -> None:
        state = self.state
        target = state.target
        self.round_label.text = f"Round {state.round % ROUNDS_PER_SET + 1} of {ROUNDS_PER_SET}"
        self.set_label.text = (f"set {state.round // ROUNDS_PER_SET + 1} of {state.sets} · "
                               f"{state.players} players at {state.tables} table{'s' if state.tables > 1 else ''}")
        self.target_die.show(target, angle=0.0, marked=True)
        left = self.area[0] + 30 + max(self.round_label.content_width, self.set_label.content_width) + 40
        self.target_caption.anchor_x = "left"
        self.target_caption.position = (left, self.banner_middle, 0)
        self.target_caption.text = "target"
        self.target_die.place(left + self.target_caption.content_width + 34, self.banner_middle, 40)
        # what happens now, right of the target die: smaller, then cut short, in a narrow window
        room = self.area[0] + self.area[2] - 30 - (left + self.target_caption.content_width + 34 + 20 + 16)
        self.phase_label.text = text = words.phase_text(state)
        shrink_to_width(self.phase_label, room, 13, 9)
        self.phase_label.visible = self.phase_label.content_width <= room
        if not self.phase_label.visible:          # no room beside the die: under the round instead
            fit_width(self.set_label, text, left - self.area[0] - 60)
        rolling_table = state.rolling_table()
        for t, drawing in enumerate(self.tables):
            drawing.show(state, words.table_caption(state, t))
            if t != rolling_table or not state.awaiting:
                drawing.rest_dice(state)
        self._refresh_turn()
        self.tokens.show_records(state, self.spots, self.controller.info.seat_name)
        self.bell.set_visible(True)
        self.bell.rest(state.bell)
        self.sheet.build(state, self.area)

    def _refresh_turn(self) -> None:
        """The roller's token glows, and their table's dice, brighter when a person may roll."""
        state = self.state
        seat = state.roller_seat()
        if seat < 0 or self.tokens.glide.running:
            self.roller_glow.color = (*art.ROLLER_GLOW, 0)
            self.dice_glow.color = (*art.DICE_GLOW, 0)
            return
        x, y = self.tokens.xy[seat]
        table, _chair = state.table_of(seat)
        spot = self.spots[table]
        self.roller_glow.position = (x, y)
        self.roller_glow.radius = spot.token_radius * 1.7
        person = self.controller.is_person_turn()
        pulse = 0.5 + 0.5 * math.sin(self.clock * 5.0)
        strength = (0.75 + 0.25 * pulse) if person and self.hovering else (0.35 + 0.35 * pulse if person else 0.4)
        self.roller_glow.color = (*art.ROLLER_GLOW, int(200 * strength))
        self.dice_glow.position = (spot.x, spot.y)
        self.dice_glow.radius = spot.die_size * 2.6
        self.dice_glow.color = (255, 236, 180, int(45 * strength) if person else 0)

    # --- clock ------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.clock += dt
        state = self.state
        if self.tokens.glide.running:
            if self.tokens.update(dt, state, self.spots):
                self._refresh()
            self.tokens.place(state, self.spots)
        self.bell.update(dt, state.bell)
        still = []
        for word, fading in self.flashes:
            t = fading.update(dt)
            if fading.done:
                word.delete()
                continue
            word.opacity = int(255 * min(1.0, 3 * (1 - t)))
            word.y += dt * 14 * FLASH_SECONDS["normal"] / fading.seconds      # rises as far at every pace
            still.append((word, fading))
        self.flashes = still
        self._animate_throw(state)
        self._refresh_turn()

    def _animate_throw(self, state: BunkoState) -> None:
        pending = self.controller.outcome_in_progress()
        if pending is None or not state.awaiting:
            if self._throw is not None:
                self._throw = None
                self._refresh()
            return
        drawing = self.tables[state.rolling_table()]
        dice = pending.result()
        if pending is not self._throw:
            self._throw = pending
            drawing.throw(state, dice.faces, self.tokens.xy[state.roller_seat()])
            self.play_sound(*dice_sound(3, state.rolls))
        if isinstance(pending, pace.RollingDice):
            stage, fraction = pending.stage()
            progress = {"waiting": 0.0, "tumbling": fraction * 0.999, "landed": 1.0}[stage]
        else:
            progress = pending.progress()
        drawing.tumble(progress, dice.faces, state.target)

    # --- input ------------------------------------------------------------------------------------------
    def _roll_refusal(self) -> str | None:
        """Why a person cannot roll now, or None when they can."""
        controller, state = self.controller, self.state
        if controller.is_over():
            return "the night is over: the score sheets show the standings"
        if state.awaiting:
            return "the dice are rolling; wait for them to land"
        if not controller.is_person_turn():
            seat = state.roller_seat()
            return f"Player {seat + 1} (computer) rolls by itself; wait for your turn"
        return None

    def _roll(self) -> None:
        reason = self._roll_refusal()
        if reason is not None:
            self.toast.show(reason, error=not self.controller.is_over())
            return
        self.submit(Roll())

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if not self.enabled or modifiers & (key.MOD_CTRL | key.MOD_ALT):
            return None
        if symbol == key.SPACE:
            self._roll()
            return True
        if symbol == key.S:
            self.show_sheet(not self.sheet.visible)
            return True
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        if button != mouse.LEFT or not self.enabled or not self.contains(x, y):
            return None
        if self.sheet.visible:
            self.show_sheet(False)
            return True
        self._roll()
        return True

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> bool | None:
        self.mouse = (x, y)
        self._refresh_hover()
        return None

    def on_mouse_leave(self, x: int, y: int) -> bool | None:
        self.mouse = None
        self._refresh_hover()
        return None

    def _refresh_hover(self) -> None:
        """The player under the mouse, and the hint about them or the roll."""
        self.hovering = self.mouse is not None and self.enabled and self.contains(*self.mouse)
        self.hover_seat = None if self.mouse is None else self.tokens.seat_at(*self.mouse, self.state, self.spots)
        state = self.state
        if self.hover_seat is not None:
            self.hint = words.player_hint(state, self.hover_seat)
        elif self.hovering and self._roll_refusal() is None:
            self.hint = f"Click or press Space: Player {state.roller_seat() + 1} rolls for {state.target}s"
        elif self.hovering:
            self.hint = self._roll_refusal() or ""
        else:
            self.hint = ""

    # --- side panel and end screen -----------------------------------------------------------------------
    def keep_in_sight(self) -> Area | None:
        """The score sheets while they show: the end dialog leaves the standings in sight."""
        panel = self.sheet.panel
        return (panel.x, panel.y, panel.width, panel.height) if self.sheet.visible else None

    def seat_icon(self, seat: int) -> Any:
        return art.token_image(seat)

    def seat_detail(self, seat: int) -> str:
        return words.seat_detail(self.state, seat)

    def prompt(self) -> str:
        return "Space: roll."

    def outcome_text(self) -> str:
        return "Rolling"

    def describe_move(self, notation: str) -> str:
        return words.describe_move(notation)

    def result_text(self) -> str:
        return words.result_text(self.state)

    def close(self) -> None:
        for drawing in self.tables:
            for die in drawing.dice:
                die.delete()
        self.target_die.delete()
