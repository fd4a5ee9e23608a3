"""Where the program keeps its files (saves, autosaves, screenshots, a game's records):
$BANDU_SIM_HOME if set (tests use it), else the user's data directory as platformdirs names it
(on Linux $XDG_DATA_HOME/bandu-sim, else ~/.local/share/bandu-sim). Low in the house, so that
the window's storage and a game's records ask the one answer without importing each other."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "bandu-sim"


def data_dir() -> Path:
    """The one answer to "where does the program keep its files"."""
    if os.environ.get("BANDU_SIM_HOME"):
        return Path(os.environ["BANDU_SIM_HOME"])
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def check_data_dir() -> Path:
    """The data directory, made if missing; SimulatorError in one line when it cannot be used
    (a name too long for the file system, a file in its place, no permission), before anything
    is played that would need it."""
    from simulator.core.errors import SimulatorError
    from simulator.core.text import printable

    folder = data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "autosaves").exists()      # a name within the file system's limits
    except OSError as error:
        raise SimulatorError(f"the data folder {printable(str(folder), 80)} cannot be used "
                             f"({error.strerror or error}); set BANDU_SIM_HOME to another") from None
    return folder
