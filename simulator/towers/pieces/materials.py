"""The three materials of the piece set, with the physical constants we calibrated.

`friction` is the coefficient of the material against beech. Bullet combines two bodies'
friction values by multiplying them, so each body carries the square root of its coefficient
against beech (and the table is beech): beech on beech gives 0.5, lacquer on beech
sqrt(0.5 * 0.35), lacquer on lacquer 0.35. See docs/PHYSICS.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Material:
    name: str
    density: float  # kg/m3
    friction: float  # against beech
    restitution: float
    colour: tuple[float, float, float]  # linear-ish RGB in 0..1
    glossy: bool
    grain: bool  # visible wood grain

    @property
    def body_friction(self) -> float:
        """The value given to Bullet, whose pair friction is the product of the two bodies'."""
        return math.sqrt(self.friction)


BEECH = Material("beech", 700.0, 0.50, 0.15, (0.86, 0.72, 0.52), glossy=False, grain=True)
RED_LACQUER = Material("red lacquer", 700.0, 0.35, 0.15, (0.78, 0.10, 0.08), glossy=True,
                       grain=False)
GREEN_LACQUER = Material("green lacquer", 700.0, 0.35, 0.15, (0.12, 0.52, 0.20), glossy=True,
                         grain=False)

MATERIALS = {m.name: m for m in (BEECH, RED_LACQUER, GREEN_LACQUER)}
