"""tools/fuzz_inputs.py, the fresh fuzzer, loaded as a module for the tests (tools/ is not a
package): its run is a long test, and its JSON path helpers serve the Hypothesis suite too."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "fuzz_inputs.py"


def load():
    if "fuzz_inputs" in sys.modules:
        return sys.modules["fuzz_inputs"]
    spec = importlib.util.spec_from_file_location("fuzz_inputs", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_inputs"] = module
    spec.loader.exec_module(module)
    return module
