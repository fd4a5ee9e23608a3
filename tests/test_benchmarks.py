"""One home for measurement: `python -m benchmarks` lists every benchmark and runs one by name;
every module of the package is a listed benchmark or shared code; the program never imports the
package (it is not in the wheel) and nothing outside tests/ imports tests/ or edits sys.path."""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import benchmarks

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
RUNNER = [sys.executable, "-m", "benchmarks"]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*RUNNER, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def _modules_outside_tests() -> list[Path]:
    """Every Python file of the checkout but tests/ (hidden folders, the virtual environment
    and build outputs left out)."""
    skipped = {"tests", "build", "dist", "site", "node_modules", "__pycache__"}
    return sorted(p for p in ROOT.rglob("*.py")
                  if not any(part.startswith(".") or part in skipped
                             for part in p.relative_to(ROOT).parts[:-1]))


def _imported(tree: ast.AST) -> set[str]:
    """The absolute modules a file imports (relative imports stay in their own package)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module)
    return found


def test_every_module_of_the_package_is_a_listed_benchmark_or_shared_code():
    modules = {m.name for m in pkgutil.iter_modules(benchmarks.__path__)} - {"__main__"}
    unlisted = modules - set(benchmarks.BENCHMARKS) - benchmarks.SHARED
    assert not unlisted, f"benchmarks/ modules the runner does not list: {sorted(unlisted)}"
    assert set(benchmarks.BENCHMARKS) <= modules, "a listed benchmark has no module"
    assert not benchmarks.SHARED & set(benchmarks.BENCHMARKS)
    for name in benchmarks.BENCHMARKS:          # each one runs through its main(argv)
        tree = ast.parse((ROOT / "benchmarks" / f"{name}.py").read_text(encoding="utf-8"))
        mains = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main"]
        assert mains and mains[0].args.args and mains[0].args.args[0].arg == "argv", name


def test_the_runner_lists_every_benchmark_with_what_it_measures():
    for args in (["--list"], []):
        listed = _run(*args)
        assert listed.returncode == 0 and listed.stderr == "", listed.stderr
        lines = listed.stdout.splitlines()
        assert [line.split()[0] for line in lines] == list(benchmarks.BENCHMARKS)
        assert all(len(line.split()) > 3 for line in lines)


def test_an_unknown_benchmark_is_refused_in_one_line_with_exit_2():
    refused = _run("no_such_benchmark", "--quick")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "'no_such_benchmark'" in refused.stderr


def test_a_benchmark_gets_its_options_and_refuses_bad_ones_in_its_own_name():
    refused = _run("lab_history", "--pieces", "99")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.splitlines()[-1].startswith("benchmarks lab_history: error: ")
    helped = _run("rolling", "--help")          # a benchmark without argparse: its docstring
    assert helped.returncode == 0 and "rolling" in helped.stdout


def test_speed_is_bandu_sims_bench_command(monkeypatch, capsys):
    """`python -m benchmarks speed` runs `bandu-sim bench`, the same code and options."""
    from simulator import bench

    calls = []

    def run_benchmarks(quick=False, progress=None):
        calls.append(quick)
        return {"physics": {"towers": 1}}, "the text"

    monkeypatch.setattr(bench, "run_benchmarks", run_benchmarks)
    argv = list(sys.argv)
    assert benchmarks.main(["speed", "--quick", "--json"]) == 0
    assert sys.argv == argv                     # the runner gives the process its argv back
    assert calls == [True] and json.loads(capsys.readouterr().out) == {"physics": {"towers": 1}}


def test_nothing_outside_tests_imports_tests_or_edits_sys_path():
    """tests/ is not a package: what a benchmark or a tool needs lives outside it (the MuJoCo
    models are benchmarks/mujoco_models); the runner finds its modules without sys.path edits."""
    of_tests = {"tests", *(p.stem for p in TESTS.glob("*.py")),
                *(p.name for p in TESTS.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))}
    files = _modules_outside_tests()
    assert ROOT / "benchmarks" / "crosscheck.py" in files and ROOT / "tools" / "fuzz_inputs.py" in files
    offenders = []
    for path in files:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        where = path.relative_to(ROOT)
        offenders += [f"{where} imports {m}" for m in sorted(_imported(tree))
                      if m.split(".")[0] in of_tests]
        offenders += [f"{where}:{node.lineno} edits sys.path" for node in ast.walk(tree)
                      if isinstance(node, ast.Attribute) and node.attr == "path"
                      and isinstance(node.value, ast.Name) and node.value.id == "sys"]
    assert not offenders, offenders


def test_the_program_never_imports_the_benchmarks():
    """The wheel ships simulator/ only: a module of it that imported benchmarks would break."""
    offenders = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "simulator").rglob("*.py"))
                 if any(m.split(".")[0] == "benchmarks"
                        for m in _imported(ast.parse(p.read_text(encoding="utf-8"))))]
    assert not offenders, offenders
