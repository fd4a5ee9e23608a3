"""The fresh fuzzer (tools/fuzz_inputs.py) as a long-running test: 1,000 damaged inputs over
every family (scenes, saves, records imports and databases, game actions, command lines), none
of which may escape. Run it with `./test.sh -m long tests/test_fuzz_run.py` (about 4 minutes);
a short run of the same generator stays in the everyday suite so that the tool keeps working."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import tool_module


def _run(cases: int, tmp_path: Path, monkeypatch) -> object:
    module = tool_module.load("fuzz_inputs")
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
    module = tool_module.load("fuzz_inputs")
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
