"""Is an action what its class says it is? Actions are small frozen dataclasses; a caller (a
fuzzer, a bad save, a view's bug) can still build one with a field of the wrong type
(`Place(None, 1)`), which the rules' arithmetic would meet as a TypeError. `wrong_field` checks
every field against its declared type, so GameState.apply refuses such an action as illegal, in
one line, before the rules see it."""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any

from simulator.core.text import shown


@cache
def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except Exception:            # an annotation that cannot be resolved: nothing to check
        return {}


def _matches(value: Any, expected: Any) -> bool:
    """Does `value` fit the annotation `expected`? Plain types, unions, tuples and lists are
    checked; anything else (Any, a protocol, a type variable) is taken as it is."""
    if expected is Any:
        return True
    origin = typing.get_origin(expected)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, option) for option in typing.get_args(expected))
    if origin is typing.Literal:
        return value in typing.get_args(expected)
    if origin is tuple:
        args = typing.get_args(expected)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(item, args[0]) for item in value)
        return not args or (len(args) == len(value)
                            and all(_matches(item, arg) for item, arg in zip(value, args, strict=True)))
    if origin is list:
        args = typing.get_args(expected)
        return isinstance(value, list) and (not args or all(_matches(item, args[0]) for item in value))
    if expected is type(None):
        return value is None
    if expected is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(expected, type):
        return isinstance(value, expected)
    return True


def wrong_field(action: Any) -> str | None:
    """Why a dataclass action has a field of the wrong type ('Place.x: wants int, not None'),
    or None when every field fits (or the action is not a dataclass)."""
    if not dataclasses.is_dataclass(action) or isinstance(action, type):
        return None
    hints = _hints(type(action))
    for field in dataclasses.fields(action):
        expected = hints.get(field.name)
        value = getattr(action, field.name)
        if expected is not None and not _matches(value, expected):
            wanted = getattr(expected, "__name__", None) or str(expected).replace("typing.", "")
            return f"{type(action).__name__}.{field.name}: wants {wanted}, not {shown(value, 40)}"
    return None
