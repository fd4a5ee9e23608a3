"""Error types a person can cause; each carries a message fit to show as one line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class SimulatorError(Exception):
    """Base of every error the program reports to the user without a traceback."""


class RefusalCode(StrEnum):
    """Base of every refusal code: a game's codes are the members of its own enum derived from
    this one (in the game's package), core's are `CoreRefusal`'s. A member equals its string,
    so a code reads, compares and goes into JSON as the plain word it always was; a code that
    is not a member (a typo, a bare string) fails the type check and simulator.testing."""


class CoreRefusal(RefusalCode):
    """The refusal codes core makes itself."""

    ILLEGAL = "illegal"       # a refusal given as text alone (no game's own code)


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse a move: `text` for anyone to read; `code` and `fields` for a view
    that words it its own way (a "taken" refusal may name the cell, which the picture shows)."""

    text: str
    code: RefusalCode = CoreRefusal.ILLEGAL
    fields: Mapping[str, Any] = field(default_factory=dict)


class IllegalAction(SimulatorError, ValueError):
    """An action that the rules forbid in the current state; the message says why, and
    `refusal` says it as a code and fields too."""

    def __init__(self, reason: str | Refusal) -> None:
        self.refusal = reason if isinstance(reason, Refusal) else Refusal(reason)
        super().__init__(self.refusal.text)


class SaveError(SimulatorError):
    """A save file that cannot be read, parsed, validated or replayed."""


class SceneError(SimulatorError):
    """A scene file with bad content (unknown key, unknown piece, bad number ...)."""


class SettingsError(SimulatorError, ValueError):
    """Game settings that are unknown or out of range."""


class AssetError(SimulatorError):
    """The generated piece assets (meshes, catalogue.json) are missing or damaged."""


class UsageError(SimulatorError):
    """Bad command-line input (exit status 2)."""


class InvalidArgument(SimulatorError, ValueError):
    """An argument of a library call that is out of range or of the wrong kind. `argument`
    names it; the message begins with that name where it reads so ("trials must be 1 to
    10000, not 0"), and the command line words it as its flag (`as_usage_error`)."""

    def __init__(self, argument: str, message: str) -> None:
        self.argument = argument
        super().__init__(message)

    def as_usage_error(self) -> UsageError:
        """The same refusal in the command line's words: the argument's name as its flag."""
        text = str(self)
        if text.startswith(self.argument):
            text = "--" + self.argument.replace("_", "-") + text[len(self.argument):]
        return UsageError(text)


class RecordsError(SimulatorError):
    """The solo records (their database, an export file) cannot be read, written or trusted."""
