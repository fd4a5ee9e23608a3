"""A finished solo or chain game of Bandu as a record attempt (simulator/records.py): its score,
how tall its tower stood, the key of its chain, and the whole game for the replay.

How tall: the tower counted is the one the score counts, the pieces that stood after the last
placement that did not fall (after a fall the state keeps their settled poses from before it).
Its height is its highest point above the table top, in mm, worked out here from the settled
poses the state records (mm and a quaternion per piece) and each piece's exact collision shape
(towers/pieces/build.py, the points the physics measures heights with) with numpy alone: no physics
engine is needed, so an attempt played in the window and one played on the command line are
measured alike, and the records never import PyBullet. A piece with no recorded pose (the
foundation alone, when the first placement fell) lies on its largest face: its smallest size.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from simulator.core.controller import COMPUTER, PERSON, TurnController
from simulator.core.text import printable
from simulator.games.bandu.aids import aided
from simulator.games.bandu.chains import CHAIN_PIECES, chain_text
from simulator.games.bandu.records import WHO_CHARACTERS, Attempt
from simulator.games.bandu.rules import BUILDING_PIECES, BanduState
from simulator.towers.pieces.build import exact_parts, load_piece

CHAIN_NAME_CHARACTERS = 60


def standing_tower(state: BanduState, seat: int = 0) -> list[str]:
    """The pieces the score counts, the foundation first."""
    return state.towers[seat][:state.score_pieces[seat] + 1]


@cache
def _points_mm(piece: str) -> np.ndarray:
    """The vertices of the piece's exact collision parts, mm, centre-of-mass frame."""
    return np.vstack(exact_parts(piece)) * 1000.0


def piece_top_mm(piece: str, pose: list[float] | tuple[float, ...]) -> float:
    """The height of the piece's highest point at `pose` (x, y, z mm of its centre of mass and
    its quaternion x, y, z, w), mm above the table top."""
    _, _, z, qx, qy, qz, qw = pose
    radius = load_piece(piece).spec.sphere_radius_mm
    if radius:                               # simulated as an exact sphere
        return z + radius
    # the third row of the rotation matrix: how far up each point of the piece goes
    up = np.array([2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)])
    return z + float((_points_mm(piece) @ up).max())


def tower_height_mm(state: BanduState, seat: int = 0) -> float:
    """The top of `seat`'s standing tower above the table, mm (0.1 mm)."""
    tops = []
    for piece in standing_tower(state, seat):
        pose = state.poses.get(piece)
        tops.append(piece_top_mm(piece, pose) if pose is not None
                    else min(load_piece(piece).size_mm))
    return round(max(tops, default=0.0), 1)


def chain_key(state: BanduState, settings: Mapping[str, Any], name: str | None = None) -> str:
    """What names the contest, so that only like attempts are compared: "" for a solo game of
    all 48 pieces ("reserve:N" for fewer, drawn at random), "seed:K" for a seeded chain of 48
    ("seed:K/N" for its first N), else the chain's `name` (a scene file's name) and a hash of
    its pieces in order: "mixed-tower.toml#702ae1d29eaa"."""
    if state.variant == "solo":
        return "" if state.reserve_size >= len(BUILDING_PIECES) else f"reserve:{state.reserve_size}"
    chain = settings.get("chain")
    if chain is None or (isinstance(chain, int) and not isinstance(chain, bool)):
        seed = chain or 0
        full = len(state.chain) >= len(BUILDING_PIECES)
        return f"seed:{seed}" if full else f"seed:{seed}/{len(state.chain)}"
    if name is None:
        scene = isinstance(chain, str) and not chain.startswith(CHAIN_PIECES)
        name = Path(chain).name if scene else "pieces"
    digest = hashlib.sha256(" ".join(state.chain).encode()).hexdigest()[:12]
    return f"{printable(name, CHAIN_NAME_CHARACTERS)}#{digest}"


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def attempt_of(controller: TurnController, practice_aid: bool | None = None,
               chain_name: str | None = None) -> Attempt:
    """The record of a finished one-player solo or chain game: who played it (a person's name,
    or the computer's "ai:LEVEL"), its score, height and fall, and the whole game as its save.
    A chain read from a scene file is written out in the replay's settings, so the replay
    needs no file. `chain_name`: the scene file's name, when the setting is written out."""
    state = controller.state
    if practice_aid is None:                 # the game's own settings (the window's aids)
        practice_aid = aided(controller.settings)
    if not isinstance(state, BanduState) or not state.built_alone \
            or state.players != 1 or not state.is_terminal():
        raise ValueError("a record attempt is a finished one-player solo or chain game of Bandu")
    seat = controller.seats[0]
    if seat.is_computer:
        agent = seat.agent or controller.game.agent_prefix
        who = agent if ":" in agent else f"{agent}:{controller.game.default_strength}"
    else:
        who = printable(seat.name or "Person", WHO_CHARACTERS)
    replay = controller.to_save_dict()
    chain = controller.settings.get("chain")
    if isinstance(chain, str) and not chain.startswith(CHAIN_PIECES):   # a scene file's name
        chain_name = chain_name or Path(chain).name
        replay["settings"] = dict(replay["settings"], chain=chain_text(state.chain))
    return Attempt(when=now_utc(), who=who, kind=COMPUTER if seat.is_computer else PERSON,
                   variant=state.variant, chain_key=chain_key(state, controller.settings, chain_name),
                   score=state.score_pieces[0], height_mm=tower_height_mm(state),
                   fell=not state.alive[0], practice_aid=practice_aid, replay=replay)
