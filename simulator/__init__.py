"""bandu-sim: a desktop simulator of wooden board games (Bandu, Tanbo, Bandida, Bunko, Buddel Bande).

As a library, the stable names are these (simulator/api.py, documented there):

    from simulator import judge, judge_scene, stand_probability, pieces, new_game

and `simulator.envs` for Gymnasium and PettingZoo environments. Every other module is internal.
The names load on first use, so `import simulator` costs nothing and prints nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["InvalidArgument", "Piece", "PieceVerdict", "StandRate", "TowerVerdict", "Tremor",
           "TrialVerdict", "judge", "judge_scene", "new_game", "pieces", "stand_probability"]

if TYPE_CHECKING:
    from simulator.api import (
        InvalidArgument,
        Piece,
        PieceVerdict,
        StandRate,
        TowerVerdict,
        Tremor,
        TrialVerdict,
        judge,
        judge_scene,
        new_game,
        pieces,
        stand_probability,
    )


def __getattr__(name: str) -> Any:
    """The public names, imported from simulator.api when first asked for (PEP 562): the
    package's own modules import `simulator` too, and need none of them."""
    if name in __all__:
        from simulator import api

        return getattr(api, name)
    raise AttributeError(f"module 'simulator' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
