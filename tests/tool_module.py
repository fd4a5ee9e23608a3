"""A script of tools/ loaded as a module for the tests (tools/ is not a package): the fresh
fuzzer (its run is a long test, its JSON path helpers serve the Hypothesis suite too) and the
house's drawing (tests/test_layering.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def load(name: str):
    """tools/<name>.py as the module `name`, loaded once."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module            # a dataclass of the module looks itself up there
    spec.loader.exec_module(module)
    return module
