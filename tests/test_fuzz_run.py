"""The fresh fuzzer (tools/fuzz_inputs.py) as a long-running test: 1,000 damaged inputs over
every family (scenes, saves, records imports and databases, game actions, command lines), none
of which may escape. Run it with `./test.sh -m long tests/test_fuzz_run.py` (about 4 minutes);
a short run of the same generator stays in the everyday suite so that the tool keeps working."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "fuzz_inputs.py"


def _fuzzer_module():
    spec = importlib.util.spec_from_file_location("fuzz_inputs", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_inputs"] = module
    spec.loader.exec_module(module)
    return module


def _run(cases: int, tmp_path: Path, monkeypatch) -> object:
    module = _fuzzer_module()
    monkeypatch.setenv("BANDU_SIM_HOME", str(tmp_path / "home"))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    fuzzer = module.Fuzzer(scratch, seed=1)
    fuzzer.run(cases, progress=False)
    shutil.rmtree(scratch)
    return fuzzer


def test_a_short_fuzz_run_counts_every_family_and_nothing_escapes(tmp_path, monkeypatch):
    fuzzer = _run(28, tmp_path, monkeypatch)
    assert fuzzer.escapes == []
    assert all(sum(fuzzer.counts[family].values()) >= 1 for family in fuzzer.counts)
    assert "| all | 28 |" in fuzzer.table()


def test_the_fuzzers_judge_calls_a_traceback_an_escape():
    module = _fuzzer_module()
    with pytest.raises(module.Escape):
        module.classify(lambda: [][1], (ValueError,))
    with pytest.raises(module.Escape):
        module.classify(lambda: (_ for _ in ()).throw(ValueError("two\nlines")), (ValueError,))
    assert module.classify(lambda: None, (ValueError,)) == "accepted"
    assert module.classify(lambda: (_ for _ in ()).throw(ValueError("no")), (ValueError,)) == "refused"


@pytest.mark.long
def test_a_thousand_damaged_inputs_and_nothing_escapes(tmp_path, monkeypatch):
    fuzzer = _run(1000, tmp_path, monkeypatch)
    assert fuzzer.escapes == [], fuzzer.escapes[:5]
