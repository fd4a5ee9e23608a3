"""`bandu-sim play GAME --players A,B [--setting KEY=VALUE]...`: a game started at once in the
window. The players and settings are read and checked as selfplay checks them, before any window
opens; bad input is one line and exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from simulator.cli import build_parser
from simulator.core.controller import COMPUTER, PERSON, Seat


def run_headless(*args: str) -> subprocess.CompletedProcess:
    """The command line with no screen at all: anything that got as far as a window would say
    'no screen found' instead of the message a test expects."""
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    return subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True, text=True,
                          timeout=120, env=env)


def test_play_reads_players_and_settings():
    args = build_parser().parse_args(["play", "tanbo", "--players", "person, mcts:easy,", "--setting",
                                      "width=7", "--setting", "height=7", "--size", "900"])
    assert (args.game, args.players, args.setting, args.size) == (
        "tanbo", "person, mcts:easy,", ["width=7", "height=7"], 900)
    plain = build_parser().parse_args(["play"])
    assert plain.players is None and plain.setting == []


def test_seats_are_people_and_the_games_own_computer_players():
    from simulator.app.main import seats_for

    assert seats_for("tanbo", ["person", "MCTS:Strong"], {}) == [Seat(PERSON), Seat(COMPUTER, "mcts:strong")]
    # the prefix alone is the game's default strength, spelt out as the new-game screen spells it
    assert seats_for("tanbo", ["random", "mcts"], {"width": 7, "height": 7}) == [
        Seat(COMPUTER, "random"), Seat(COMPUTER, "mcts:medium")]
    assert seats_for("tanbo", ["person", "person"], {"start": "classic"}) == [Seat(PERSON), Seat(PERSON)]


@pytest.mark.parametrize(("args", "message"), [
    (["play", "tanbo", "--players", "person,wizard"],
     "unknown player 'wizard' for Tanbo; use person, random, mcts or mcts:LEVEL"),
    (["play", "tanbo", "--players", "person,mcts:godlike"], "unknown strength 'godlike'"),
    (["play", "tanbo", "--players", "person"], "Tanbo is for 2 players, not 1"),
    (["play", "tanbo", "--players", "person,random,random"], "Tanbo is for 2 players, not 3"),
    (["play", "tanbo", "--players", "person,random", "--setting", "colour=red"],
     "unknown setting 'colour' for Tanbo"),
    (["play", "tanbo", "--players", "person,random", "--setting", "size=8"], "size must be one of"),
    (["play", "tanbo", "--players", "person,random", "--setting", "width"], "--setting wants KEY=VALUE"),
    (["play", "--players", "person,random"], "--players needs a GAME"),
    (["play", "tanbo", "--load", "some.json", "--players", "person,random"], "cannot go with --load"),
    (["play", "tanbo", "--setting", "size=7"], "--setting goes with --players"),
    (["play", "chess", "--players", "person,random"], "unknown game 'chess'"),
])
def test_bad_play_input_exits_2_with_one_line_before_any_window(args, message):
    result = run_headless(*args)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bandu-sim: error:"), result.stderr
    assert message in lines[0]


@pytest.mark.gui
def test_play_with_players_opens_the_game_with_those_seats(x_display):
    import pyglet

    from simulator.app.main import build_app

    window, app = build_app(game="tanbo", players=["person", "mcts:easy"],
                            settings={"width": 7, "height": 7}, visible=True)
    try:
        window.pump(2)
        assert [screen.title for screen in window.screens] == ["menu", "game"]   # no new-game screen
        controller = window.top.controller
        assert controller.seats == [Seat(PERSON), Seat(COMPUTER, "mcts:easy")]
        assert controller.settings == {"width": 7, "height": 7}
        assert (controller.state.width, controller.state.height) == (7, 7)
        assert controller.is_person_turn() and controller.autosave_path is not None
        names = [label.text for label in window.top.seat_details]
        assert names[0].startswith("Person") and names[1].startswith("Computer, Easy")
    finally:
        app.shutdown()
        window.close()
        pyglet.clock.tick()


@pytest.mark.parametrize("name", ["a" * 300 + ".json", "/tmp/" + "b/" * 2100 + "x.json"])
def test_a_save_name_too_long_for_the_system_is_one_line(name):
    """A name over 255 bytes or a path over 4096 gave a traceback (ENAMETOOLONG)."""
    result = run_headless("play", "--load", name)
    assert result.returncode == 2 and "cannot be opened (File name too long)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
