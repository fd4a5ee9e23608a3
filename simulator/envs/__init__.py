"""Reinforcement-learning environments: every game through PettingZoo's AEC API, and Bandu's
solo stacking through Gymnasium's. Importing this package registers the Gymnasium ids:

- `BanduStack-v0`: build one tower from the reserve, piece by piece, each released exactly where
  the action says (envs/stack.py, BanduStackEnv);
- `BanduStackTremor-v0`: the same, each release shaken by the tremor of a human hand.

    import gymnasium, simulator.envs
    env = gymnasium.make("BanduStack-v0")

and names `aec_env(game, **settings)`, the PettingZoo environment of any registered game
(envs/aec.py). The environments load on first use: importing this package loads neither
PettingZoo nor the physics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium

__all__ = ["BanduStackEnv", "GameAEC", "aec_env", "decode_observation"]

if TYPE_CHECKING:
    from simulator.envs.aec import GameAEC, aec_env, decode_observation
    from simulator.envs.stack import BanduStackEnv

_HOMES = {"BanduStackEnv": "simulator.envs.stack", "GameAEC": "simulator.envs.aec",
          "aec_env": "simulator.envs.aec", "decode_observation": "simulator.envs.aec"}

for _id, _kwargs in (("BanduStack-v0", {}), ("BanduStackTremor-v0", {"tremor": "hand"})):
    if _id not in gymnasium.envs.registry:
        gymnasium.register(id=_id, entry_point="simulator.envs.stack:BanduStackEnv",
                           kwargs=_kwargs)


def __getattr__(name: str) -> Any:
    """The environments' names, imported when first asked for (PEP 562)."""
    if name in _HOMES:
        import importlib

        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'simulator.envs' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
