"""The landing preview: where a held piece would first touch its tower, by pure geometry.

The rule book allows a ghost of the held piece where it would first touch, after the auction,
and never a simulated outcome in a game against others: this module only lowers the piece
straight down onto the towers as they stand (the held piece is never stepped in time). It keeps
a world of its own (PyBullet, no pyglet), built exactly as the referee builds the world it
judges in (referee.build_world: the recorded poses, settled briefly), anew when they change, so
the ghost lies where the referee will release the piece; and one body for the held piece that
it moves for each query, so a query costs a few distance checks (well under a frame).
"""

from __future__ import annotations

from simulator.games.bandu.referee import (
    build_world,
    lower_onto,
    orientation_of,
    standing_towers,
    tower_axes,
)
from simulator.games.bandu.rules import BanduState, Place
from simulator.towers.physics.world import Quat, Vec3, World


class LandingPreview:
    def __init__(self) -> None:
        self.world: World | None = None
        self._key: object = None
        self._towers: list[list[int]] = []
        self._held: tuple[str, int] | None = None      # (piece, body) of the held piece

    def close(self) -> None:
        if self.world is not None:
            self.world.close()
            self.world = None
        self._key, self._held = None, None

    def _sync(self, state: BanduState) -> World:
        towers = standing_towers(state)
        key = (state.players, tuple(tuple(t) for t in towers),
               tuple(tuple(state.poses.get(p, ())) for t in towers for p in t))
        if self.world is not None and key == self._key:
            return self.world
        self.close()
        world, bodies, _ = build_world(state)      # the referee's world for this state
        self.world = world
        self._towers = [[bodies[piece] for piece in tower] for tower in towers]
        self._key = key
        return world

    def tower_poses(self, state: BanduState) -> dict[str, tuple[Vec3, Quat]]:
        """Every tower piece's pose (centre of mass in metres, quaternion): the settled pose the
        state records, or where the default stacking puts a piece without one."""
        world = self._sync(state)
        return {piece: world.pose(body) for tower, bodies in zip(standing_towers(state), self._towers, strict=True)
                for piece, body in zip(tower, bodies, strict=True)}

    def tower_top(self, state: BanduState, seat: int) -> float:
        """The height of the highest point of `seat`'s tower (metres; 0 for no tower)."""
        world = self._sync(state)
        return max((world.lowest_and_highest(b)[1] for b in self._towers[seat]), default=0.0)

    def landing(self, state: BanduState, seat: int, place: Place) -> tuple[Vec3, Quat]:
        """The pose (centre of mass in metres, table frame; quaternion) at which `place` would
        release the piece over `seat`'s tower: lowered until it first touches."""
        world = self._sync(state)
        axis = tower_axes(state.players)[seat]
        xy = (axis[0] + place.x_mm / 1000, axis[1] + place.y_mm / 1000)
        orientation = orientation_of(place)
        if self._held is None or self._held[0] != place.piece:
            if self._held is not None:
                world.remove(self._held[1])              # parked far below the floor
            body = world.add_piece(place.piece, (xy[0], xy[1], 1.0), orientation, clear_overlap=False)
            self._held = (place.piece, body)
        body = self._held[1]
        lower_onto(world, body, xy, orientation, self._towers[seat])
        return world.pose(body)

