"""The library's front door: judge a tower, estimate how likely it is to stand, list the pieces,
start a game. `from simulator import judge, stand_probability, pieces, new_game` (the package's
top re-exports every name in `__all__`).

    >>> from simulator import judge, stand_probability
    >>> judge(["cube-large", "cylinder-wide", "cone-small"]).stood
    True
    >>> stand_probability(["ball", "cube-large"], trials=10).rate   # a cube on a ball
    0.0

Every function checks its arguments before any work and refuses a bad one with
`InvalidArgument`, a `ValueError` that names the argument (`error.argument`). The numbers are
those of the command line: `judge` gives the verdict `bandu-sim stability SCENE` prints, and
`stand_probability` the stand rate of `bandu-sim stability SCENE --trials N`. Importing this
module loads no physics, window or plotting library and prints nothing; the physics loads at
the first call that needs it, silently.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simulator.core.errors import InvalidArgument, SceneError, SettingsError
from simulator.core.setting_values import whole_argument
from simulator.core.state import GameState
from simulator.core.text import shown
from simulator.towers.physics.tremor import Tremor

if TYPE_CHECKING:
    from simulator.towers.physics.scene_file import Scene
    from simulator.towers.physics.stability import PieceReport, TowerReport
    from simulator.towers.physics.world import PhysicsSettings

__all__ = ["InvalidArgument", "Piece", "PieceVerdict", "StandRate", "TowerVerdict", "Tremor",
           "TrialVerdict", "judge", "judge_scene", "new_game", "pieces", "stand_probability"]

MAX_SEED = 2**63 - 1
MAX_TREMOR_MM = 50.0       # as a scene file's [tremor] and `stability --tremor-mm` allow
MAX_TREMOR_DEG = 45.0
MAX_WORKERS = 256
BACKENDS = ("local", "ray")

Order = Sequence[str]
SceneSource = str | os.PathLike[str]


# --- what the functions answer --------------------------------------------------------------------

@dataclass(frozen=True)
class PieceVerdict:
    """One piece of a judged tower, as it lies when the verdict is given."""

    id: str                                    # `base`, `cube-large`, a second copy `ball#2`
    position_mm: tuple[float, float, float]    # its centre of mass, table frame
    touches_table: bool                        # touches the table or the floor
    moved_mm: float                            # its centre of mass since its release
    tilt_deg: float                            # its vertical axis against the one it was released with

    @property
    def disturbed(self) -> bool:
        """Moved more than 5 mm or tilted more than 10 degrees (stability.DISTURBED_*)."""
        from simulator.towers.physics.stability import DISTURBED_DEG, DISTURBED_MM

        return self.moved_mm > DISTURBED_MM or self.tilt_deg > DISTURBED_DEG

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "position_mm": [round(v, 2) for v in self.position_mm],
                "touches_table": self.touches_table, "moved_mm": round(self.moved_mm, 2),
                "tilt_deg": round(self.tilt_deg, 2)}


@dataclass(frozen=True)
class TowerVerdict:
    """Whether a tower stood, where it fell and how its pieces lie: what `bandu-sim stability`
    prints for one tower (`to_dict()` is its --json entry, key for key)."""

    stood: bool
    fell_at: int | None          # the placement that brought it down (0: the first on the
    #                              foundation, -1: the foundation alone); None when it stood
    unstable: bool               # stood, at rest on an unstable point: the balance test's nudge tipped it
    disturbed: bool              # stood, but a piece moved more than 5 mm or tilted over 10 degrees
    height_mm: float             # of its highest point above the table
    pieces: tuple[PieceVerdict, ...]
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"stood": self.stood, "fell_at": self.fell_at, "disturbed": self.disturbed,
                "unstable": self.unstable, "height_mm": round(self.height_mm, 2),
                "pieces": [p.to_dict() for p in self.pieces], "warnings": list(self.warnings)}


@dataclass(frozen=True)
class TrialVerdict:
    """One build of a stand-probability estimate: trial t's hand is seeded with seed + t."""

    seed: int
    stood: bool
    fell_at: int | None
    disturbed: bool
    height_mm: float

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "stood": self.stood, "fell_at": self.fell_at,
                "disturbed": self.disturbed, "height_mm": round(self.height_mm, 2)}


@dataclass(frozen=True)
class StandRate:
    """How often a tower stood over `trials` builds, each released by a trembling hand, with a
    95 % Wilson interval: the figures of `bandu-sim stability SCENE --trials N`."""

    rate: float
    interval_95: tuple[float, float]
    stood: int
    trials: tuple[TrialVerdict, ...]
    tremor: Tremor

    def to_dict(self) -> dict[str, Any]:
        return {"rate": round(self.rate, 4), "interval_95": [round(v, 4) for v in self.interval_95],
                "stood": self.stood, "trials": [t.to_dict() for t in self.trials],
                "tremor": {"position_mm": self.tremor.position_mm,
                           "angle_deg": self.tremor.angle_deg}}


@dataclass(frozen=True)
class Piece:
    """One kind of piece in the Bandu set, as `bandu-sim pieces` lists it."""

    id: str
    name: str
    count: int                                # how many the set has
    material: str
    size_mm: tuple[float, float, float]       # its bounding box
    mass_g: float
    convex_parts: int                         # the convex hulls the physics simulates it with

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "count": self.count, "material": self.material,
                "size_mm": list(self.size_mm), "mass_g": self.mass_g,
                "convex_parts": self.convex_parts}


# --- the functions ---------------------------------------------------------------------------------

def judge(order_or_scene: Order | SceneSource, *, foundation: str = "base",
          tremor: Tremor | None = None, seed: int | None = None,
          settings: PhysicsSettings | None = None) -> TowerVerdict:
    """Build one tower and judge it. `order_or_scene`: the pieces placed on `foundation` in
    order by the default placement policy (each on its most stable face, centred on the one
    below), or the path of a scene file of one tower (docs/SCENES.md). `tremor` and `seed`
    override a scene's own (default: an exact release, seed 0); `settings`: the physics
    (default: the settings that judge every game, PhysicsSettings.chosen())."""
    scene = _scene(order_or_scene, foundation, "order_or_scene")
    if len(scene.towers) != 1:
        raise InvalidArgument("order_or_scene", f"order_or_scene: {shown(str(order_or_scene), 80)} "
                                                f"has {len(scene.towers)} towers; judge_scene "
                                                "judges them all")
    return judge_scene(scene, tremor=tremor, seed=seed, settings=settings)[0]


def judge_scene(scene: SceneSource | Scene, *, tremor: Tremor | None = None,
                seed: int | None = None,
                settings: PhysicsSettings | None = None) -> tuple[TowerVerdict, ...]:
    """Build and judge every tower of a scene file (one table, towers built one after the
    other), as `bandu-sim stability SCENE` does; the arguments as for `judge`."""
    from simulator.towers.physics.scene_file import Scene
    from simulator.towers.physics.stability import run_scene

    loaded = scene if isinstance(scene, Scene) else _scene(scene, "base", "scene")
    _check_tremor(tremor)
    _check_seed(seed)
    _check_settings(settings)
    report = run_scene(loaded, settings=settings, tremor=tremor, seed=seed)
    return tuple(_verdict(tower) for tower in report.towers)


def stand_probability(order: Order | SceneSource, *, foundation: str = "base",
                      trials: int = 10, tremor: Tremor | None = None, seed: int | None = None,
                      workers: int = 1, backend: str = "local") -> StandRate:
    """Build the tower `trials` times, each release shaken by `tremor` (default: the study's
    hand, 1 mm and 1 degree, where a scene sets none), trial t seeded with seed + t, and say how
    often it stood. `order` as for `judge` (a scene file of one tower). `workers`: processes
    building at once; `backend`: "local" (this machine) or "ray" (a Ray cluster; `pip install
    bandu-sim[cluster]`). The figures do not depend on `workers` or `backend`. With workers
    above 1 the builds run in processes Python spawns, which import the calling script again: a
    script must then call this under `if __name__ == "__main__":`, as multiprocessing requires."""
    from simulator.towers.studies import study
    from simulator.towers.studies.orderings import GIVEN

    scene = _scene(order, foundation, "order")
    if len(scene.towers) != 1:
        raise InvalidArgument("order", f"order: a scene of {len(scene.towers)} towers; "
                                       "stand_probability judges one")
    _check_tremor(tremor)
    _check_seed(seed)
    whole_argument(workers, "workers", 1, MAX_WORKERS)
    whole_argument(trials, "trials", 1, study.MAX_TRIALS)
    if seed is not None and seed > MAX_SEED - trials + 1:   # trial t is seeded with seed + t
        raise InvalidArgument("seed", f"seed must be at most 2^63 - {trials} with {trials} trials, "
                                      f"so that every trial's seed is one")
    if backend not in BACKENDS:
        raise InvalidArgument("backend", f"backend must be local or ray, not {shown(backend, 30)}")
    hand = tremor if tremor is not None else (scene.tremor or study.DEFAULT_TREMOR)
    plan = study.plan_study([scene], [hand], GIVEN, trials, seed)
    try:
        result = study.run_study(plan, workers, None, backend)
    except BrokenProcessPool:
        raise InvalidArgument("workers", "workers: the worker processes could not start; a script "
                                         "that asks for more than one must call stand_probability "
                                         "under `if __name__ == \"__main__\":`") from None
    if result.interrupted:
        raise KeyboardInterrupt
    tower = result.towers[0]
    from simulator.towers.studies.wilson import wilson_interval

    verdicts = tuple(TrialVerdict(r.seed, r.stood, r.fell_at, r.disturbed, r.height_mm)
                     for r in tower.results)
    stood = sum(v.stood for v in verdicts)
    return StandRate(stood / len(verdicts), wilson_interval(stood, len(verdicts)), stood,
                     verdicts, hand)


def pieces() -> tuple[Piece, ...]:
    """The Bandu set's kinds of piece, in catalogue order."""
    from simulator.towers.pieces.build import piece_table

    return tuple(Piece(row["id"], row["name"], row["count"], row["material"],
                       (float(row["size_mm"][0]), float(row["size_mm"][1]), float(row["size_mm"][2])),
                       float(row["mass_g"]), int(row["convex_parts"]))
                 for row in piece_table())


def new_game(name: str, players: int | None = None, **settings: Any) -> GameState:
    """The starting state of a game ("bandu", "tanbo", "bandida", "bunko", "buddel_bande") for
    `players` seats (default: the game's usual count) and its settings by name, e.g.
    `new_game("tanbo", size=7)`. The state is plain Python, no engine behind it:
    `current_player()`, `legal_actions()`, `apply(action)` (in place), `clone()`,
    `redacted(seat)`, `to_dict()`; a chance node (a draw, a roll: `is_chance_node()`) is played by
    `apply(state.random_action(random.Random(seed)))`."""
    from simulator.core import registry

    if not isinstance(name, str):
        raise InvalidArgument("name", f"name must be a game's name, not {shown(name, 40)}")
    try:
        game = registry.get_game(name)
    except (KeyError, ValueError, SettingsError):
        known = ", ".join(g.name for g in registry.playable_games())
        raise InvalidArgument("name", f"name: {shown(name, 40)} is not a game here ({known})") from None
    if not game.available:
        raise InvalidArgument("name", f"name: {game.title} is not playable yet")
    if players is not None:
        whole_argument(players, "players", game.info.min_players, game.info.max_players)
    try:
        return game.new_game(players, settings)
    except SettingsError as error:
        raise InvalidArgument("settings", f"settings: {error}") from None


# --- checks --------------------------------------------------------------------------------------

def _scene(source: Order | SceneSource | Scene, foundation: str, argument: str) -> Scene:
    """The scene an argument (named `argument` in a refusal) gives: an order of piece ids on
    `foundation`, or a scene file's path (whose foundations are its own)."""
    from simulator.towers.physics.scene_file import Scene, load_scene, scene_of_order

    if isinstance(source, Scene):
        return source
    if isinstance(source, str | os.PathLike):
        try:
            return load_scene(os.fspath(source))
        except SceneError as error:
            hint = (" (an order is a list of piece ids: [\"cube-large\", ...])"
                    if isinstance(source, str) and "no such file" in str(error) else "")
            raise InvalidArgument(argument, f"{argument}: {error}{hint}") from None
    if not isinstance(source, Sequence) or not all(isinstance(p, str) for p in source):
        raise InvalidArgument(argument, f"{argument} must be a list of piece ids or a scene "
                                        f"file's path, not {shown(source, 60)}")
    if not isinstance(foundation, str):
        raise InvalidArgument("foundation", f"foundation must be a piece id, not "
                                            f"{shown(foundation, 40)}")
    try:
        return scene_of_order(list(source), foundation)
    except SceneError as error:
        # the scene reader's words for a scene file, put as an order's
        text = str(error).removeprefix("<order>: ")
        named = "foundation" if text.startswith("towers[0].foundation") else argument
        text = text.replace("towers[0].foundation", "foundation").replace("towers[0].order", "order")
        text = text.replace("towers: ", "").replace(" (set allow_duplicates = true)", "")
        raise InvalidArgument(named, text if text.startswith(named) else f"{named}: {text}") from None


def _check_settings(settings: PhysicsSettings | None) -> None:
    if settings is None:
        return
    from simulator.towers.physics.world import PhysicsSettings

    if not isinstance(settings, PhysicsSettings):
        raise InvalidArgument("settings", f"settings must be a PhysicsSettings, not "
                                          f"{shown(settings, 40)}")


def _check_tremor(tremor: Tremor | None) -> None:
    if tremor is None:
        return
    numbers = isinstance(tremor, Tremor) and all(
        isinstance(v, int | float) and not isinstance(v, bool)
        for v in (tremor.position_mm, tremor.angle_deg))
    if not numbers:
        raise InvalidArgument("tremor", f"tremor must be a Tremor(position_mm, angle_deg) of two "
                                        f"numbers, not {shown(tremor, 60)}")
    if not (0.0 <= tremor.position_mm <= MAX_TREMOR_MM and 0.0 <= tremor.angle_deg <= MAX_TREMOR_DEG):
        raise InvalidArgument("tremor", f"tremor must be 0 to {MAX_TREMOR_MM:g} mm and 0 to "
                                        f"{MAX_TREMOR_DEG:g} degrees, not {tremor}")


def _check_seed(seed: int | None) -> None:
    if seed is not None:
        whole_argument(seed, "seed", 0, MAX_SEED)


def _verdict(report: TowerReport) -> TowerVerdict:
    return TowerVerdict(report.stood, report.fell_at, report.unstable, report.disturbed,
                        report.height_mm, tuple(_piece_verdict(p) for p in report.pieces),
                        tuple(report.warnings))


def _piece_verdict(piece: PieceReport) -> PieceVerdict:
    return PieceVerdict(piece.id, piece.position_mm, piece.touches_table, piece.moved_mm,
                        piece.tilt_deg)

