"""Settings checked at the door: every value a game's settings receive is one the game declared,
of the kind it declared, before any of the game's own code sees it.

A setting's values are those of its choices (`registry.Choice.kwargs`) unless the game declares
`Accepts` for it: a kind and, for a whole number, a range or a list of values (a game's reserve
takes any count from 1 to 48, its menu offers four). Values come from the window (typed), the
command line (text; whole numbers already read as int) and saves (JSON), so a yes/no setting
also takes on/off, yes/no, true/false and 1/0. A bad value is one line: the setting, what it
takes, and what it got.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from simulator.core.errors import InvalidArgument, SettingsError
from simulator.core.text import shown

YES = ("on", "yes", "true", "1")
NO = ("off", "no", "false", "0")
MAX_TEXT = 4096              # a text setting (a chain's scene file or its pieces)


def flag(value: Any, name: str) -> bool:
    """A yes/no value from the window (bool), the command line (text) or a save (bool or 0/1)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in YES + NO:
        return value.strip().lower() in YES
    raise SettingsError(f"{name} must be on or off, not {shown(value, 20)}")


def whole(value: Any, name: str, low: int, high: int | None = None) -> int:
    """A whole number from `low` to `high` (None: no top; a bool is not one), else a
    ValueError in one line."""
    if not isinstance(value, int) or isinstance(value, bool) or value < low \
            or (high is not None and value > high):
        wanted = (f"a whole number of at least {low}" if high is None else
                  str(low) if low == high else f"a whole number from {low} to {high}")
        raise ValueError(f"{name} must be {wanted}, not {shown(value, 30)}")
    return value


def whole_argument(value: Any, name: str, low: int, high: int | None = None) -> int:
    """`whole` for a library call's argument: its refusal an InvalidArgument naming it."""
    try:
        return whole(value, name, low, high)
    except ValueError as error:
        raise InvalidArgument(name, str(error)) from None


@dataclass(frozen=True)
class Accepts:
    """What a setting takes beyond its choices' values: `kinds` (bool, int, str) and, for a
    whole number, a range (`low`, `high`) or the only values it may have (`values`)."""

    kinds: tuple[type, ...]
    low: int | None = None
    high: int | None = None
    values: tuple[Any, ...] = ()

    def check(self, name: str, value: Any) -> Any:
        if bool in self.kinds and (isinstance(value, bool) or (isinstance(value, str) and value.strip().lower() in YES + NO)):
            return flag(value, name)
        if int in self.kinds and isinstance(value, int) and not isinstance(value, bool):
            if self.values and value not in self.values:
                raise SettingsError(f"{name} must be one of {_listed(self.values)}, not {shown(value, 30)}")
            low = self.low if self.low is not None else value
            high = self.high if self.high is not None else value
            if not low <= value <= high:
                raise SettingsError(f"{name} must be a whole number from {low} to {high}, not {shown(value, 30)}")
            return value
        if str in self.kinds and isinstance(value, str) and len(value) <= MAX_TEXT and value.isprintable():
            return value
        raise SettingsError(f"{name} must be {_kinds(self.kinds)}, not {shown(value, 30)}")


def _listed(values: Iterable[Any]) -> str:
    return ", ".join(str(v) for v in values)          # in the order the game offers them


def _kinds(kinds: tuple[type, ...]) -> str:
    words = {bool: "on or off", int: "a whole number", str: f"a line of text (at most {MAX_TEXT} letters)"}
    return " or ".join(words.get(kind, kind.__name__) for kind in kinds)


def choice_values(choices: Iterable[Mapping[str, Any]]) -> dict[str, tuple[Any, ...]]:
    """Each setting name the choices give, with the values they give it (in their order)."""
    values: dict[str, list[Any]] = {}
    for kwargs in choices:
        for name, value in kwargs.items():
            known = values.setdefault(name, [])
            if not any(type(v) is type(value) and v == value for v in known):
                known.append(value)
    return {name: tuple(found) for name, found in values.items()}


def checked(settings: Mapping[str, Any], offered: Mapping[str, tuple[Any, ...]],
            accepts: Mapping[str, Accepts]) -> dict[str, Any]:
    """`settings` with every value checked and typed: by its `Accepts` where the game declares
    one, else one of the values its choices give it (a yes/no one as text too). Names neither
    knows are left to the caller (it says which names there are)."""
    result = dict(settings)
    for name, value in settings.items():
        if name in accepts:
            result[name] = accepts[name].check(name, value)
        elif name in offered:
            result[name] = _one_of(name, value, offered[name])
    return result


def _one_of(name: str, value: Any, values: tuple[Any, ...]) -> Any:
    if values and all(isinstance(v, bool) for v in values):
        value = flag(value, name)
    for allowed in values:
        if type(allowed) is type(value) and allowed == value:
            return allowed
    numbers = sorted(v for v in values if type(v) is int)
    if len(numbers) == len(values) >= 4 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        raise SettingsError(f"{name} must be a whole number from {numbers[0]} to {numbers[-1]}, "
                            f"not {shown(value, 30)}")
    raise SettingsError(f"{name} must be one of {_listed(values)}, not {shown(value, 30)}")
