"""Error types a person can cause; each carries a message fit to show as one line."""


class SimulatorError(Exception):
    """Base of every error the program reports to the user without a traceback."""


class IllegalAction(SimulatorError, ValueError):
    """An action that the rules forbid in the current state; the message says why."""


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


class RecordsError(SimulatorError):
    """The solo records (their database, an export file) cannot be read, written or trusted."""
