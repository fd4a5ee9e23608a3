"""The chain game's order of pieces as a setting: written out ("pieces:ring,cube-large,..."),
so that a save stands on its own, or a scene file whose first tower's order is the chain."""

from __future__ import annotations

from typing import Any

from simulator.core.errors import SceneError, SettingsError

CHAIN_PIECES = "pieces:"   # a chain setting written out: "pieces:ring,cube-large,..."


def chain_text(pieces: tuple[str, ...]) -> str:
    """A chain as a setting that needs no file: a save of the game stands on its own."""
    return CHAIN_PIECES + ",".join(pieces)


def chain_from_scene(path: str) -> tuple[str, ...]:
    from simulator.towers.physics.scene_file import load_scene  # pure reading: no physics engine

    try:
        scene = load_scene(path)
    except SceneError as error:
        raise SettingsError(f"chain: {error}") from None
    return tuple(p.piece for p in scene.towers[0].placements)


def chain_as_the_rules_take_it(settings: dict[str, Any]) -> dict[str, Any]:
    """`chain` as the rules take it: a seed, or the pieces of a text (written out, or a scene
    file whose first tower's order is the chain)."""
    chain = settings.get("chain")
    if isinstance(chain, str):
        pieces = chain[len(CHAIN_PIECES):].split(",") if chain.startswith(CHAIN_PIECES) else None
        settings = dict(settings, chain=tuple(p.strip() for p in pieces if p.strip())
                        if pieces is not None else chain_from_scene(chain))
    return settings
