"""Is an action what its class says it is? Actions are small frozen dataclasses; a caller (a
fuzzer, a bad save, a view's bug) can still build one with a field of the wrong type
(`Place(None, 1)`), which the rules' arithmetic would meet as a TypeError, or of the right type
out of its range (a card's side 1000), which the rules might take and write into a save.
`wrong_field` checks every field against its declared type and, where the type is
`Annotated[int, Between(0, 3)]` or `Annotated[str, OneOf("pass", "swap")]`, against its declared
range, so GameState.apply refuses such an action as illegal, in one line, before the rules see
it."""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from functools import cache
from typing import Any

from simulator.core.text import shown


@dataclass(frozen=True)
class Between:
    """A field's declared range: `low` to `high`, both included (a NaN is in no range)."""

    low: float
    high: float

    def admits(self, value: Any) -> bool:
        return bool(self.low <= value <= self.high)

    def __str__(self) -> str:
        return f"{self.low:g} to {self.high:g}"


class OneOf:
    """A field's declared values."""

    def __init__(self, *values: Any) -> None:
        self.values = values

    def admits(self, value: Any) -> bool:
        return value in self.values

    def __str__(self) -> str:
        shown_values = [shown(v, 20) for v in self.values[:8]]
        return "one of " + ", ".join(shown_values) + (" ..." if len(self.values) > 8 else "")


@cache
def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception:            # an annotation that cannot be resolved: nothing to check
        return {}


def _matches(value: Any, expected: Any) -> bool:
    """Does `value` fit the annotation `expected`? Plain types, unions, tuples and lists are
    checked, and the ranges of Annotated ones; anything else (Any, a protocol, a type
    variable) is taken as it is."""
    if expected is Any:
        return True
    origin = typing.get_origin(expected)
    if origin is typing.Annotated:
        return _matches(value, expected.__origin__) and all(
            constraint.admits(value) for constraint in expected.__metadata__
            if isinstance(constraint, Between | OneOf))
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
            return f"{type(action).__name__}.{field.name}: wants {_described(expected)}, not " \
                   f"{shown(value, 40)}"
    return None


def _described(expected: Any) -> str:
    """An annotation in words: 'int', 'int 0 to 3', 'str one of 'pass', 'swap''."""
    origin = typing.get_origin(expected)
    if origin is typing.Annotated:
        ranges = [str(c) for c in expected.__metadata__ if isinstance(c, Between | OneOf)]
        return " ".join([_described(expected.__origin__), *ranges])
    if origin is tuple and (args := typing.get_args(expected)):
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of {_described(args[0])}"
        return f"({', '.join(_described(arg) for arg in args)})"
    return getattr(expected, "__name__", None) or str(expected).replace("typing.", "")
