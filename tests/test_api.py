"""The library's front door (simulator/api.py, re-exported by the package): the names it
promises, the command line's numbers through it, refusals that name the argument, and an
import that loads no window or plotting library and prints nothing."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import simulator
from simulator import api
from simulator.core.errors import InvalidArgument, UsageError

ROOT = Path(__file__).resolve().parents[1]
THREE = ["cube-large", "cylinder-wide", "cone-small"]


def _cli_json(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "simulator", *args, "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _scene(tmp_path: Path, order: list[str], name: str = "tower") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\n[[towers]]\norder = {json.dumps(order)}\n')
    return path


def test_the_package_names_its_public_api_typed_and_documented():
    assert (Path(simulator.__file__).parent / "py.typed").is_file()
    assert simulator.__all__ == api.__all__
    for name in simulator.__all__:
        value = getattr(simulator, name)
        assert value is getattr(api, name)
        assert (value.__doc__ or "").strip(), f"{name} has no docstring"
        assert name in dir(simulator)
    for function in (api.judge, api.judge_scene, api.stand_probability, api.pieces, api.new_game):
        assert "return" in function.__annotations__, function.__name__
    with pytest.raises(AttributeError):
        simulator.run_scene  # noqa: B018  (an internal name is not on the front door)


def test_importing_the_api_loads_no_window_or_plots_and_prints_nothing(tmp_path):
    """A fresh process imports the package and the environments and judges a tower: its
    standard output and error stay empty (PyBullet's build-time line included), and neither
    pyglet nor matplotlib is loaded."""
    out = tmp_path / "answer.json"
    code = textwrap.dedent(f"""
        import json, sys
        import simulator
        from simulator import judge, new_game, pieces, stand_probability
        import simulator.envs
        verdict = judge({THREE!r})
        rate = stand_probability(["ball", "cube-large"], trials=2)
        state = new_game("tanbo")
        loaded = sorted(m for m in ("pyglet", "matplotlib") if m in sys.modules)
        with open({str(out)!r}, "w") as handle:
            json.dump({{"stood": verdict.stood, "rate": rate.rate, "loaded": loaded,
                       "pieces": len(pieces())}}, handle)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
    answer = json.loads(out.read_text())
    assert answer == {"stood": True, "rate": 0.0, "loaded": [], "pieces": 49}


def test_judge_gives_the_command_lines_verdict(tmp_path):
    """The same tower through judge() and `bandu-sim stability --json`: the same verdict, key
    for key, for an order, a scene file, and with a tremor and a seed."""
    scene = _scene(tmp_path, THREE)
    cli = _cli_json("stability", str(scene))["scenes"][0]["towers"][0]
    assert api.judge(THREE).to_dict() == cli
    assert api.judge(scene).to_dict() == cli
    assert api.judge(str(scene)).to_dict() == cli
    shaken = _cli_json("stability", str(scene), "--tremor-mm", "3", "--tremor-deg", "2",
                       "--seed", "7")["scenes"][0]["towers"][0]
    assert api.judge(THREE, tremor=api.Tremor(3.0, 2.0), seed=7).to_dict() == shaken
    assert shaken != cli                                   # the tremor did move something


def test_judge_scene_judges_every_tower_of_a_scene():
    path = ROOT / "scenes" / "examples" / "six-towers.toml"
    cli = _cli_json("stability", str(path))["scenes"][0]["towers"]
    verdicts = api.judge_scene(path)
    assert [v.to_dict() for v in verdicts] == cli and len(verdicts) == 6
    with pytest.raises(InvalidArgument, match="has 6 towers; judge_scene judges them all"):
        api.judge(path)


def test_a_verdict_says_fell_at_unstable_and_disturbed():
    on_a_ball = api.judge(["ball", "cube-large"])
    assert on_a_ball.stood and on_a_ball.unstable           # balanced on the ball's top point
    assert not api.judge(THREE).unstable
    fallen = api.judge(["cone-small", "cube-large", "ashlar-large"])
    assert not fallen.stood and fallen.fell_at == 1 and not fallen.unstable
    assert fallen.to_dict()["fell_at"] == 1 and next(p.id for p in fallen.pieces) == "base"


def test_stand_probability_gives_the_studys_numbers(tmp_path):
    scene = _scene(tmp_path, ["ball", "cube-large", "cube-small"], "shaky")
    cli = _cli_json("stability", str(scene), "--trials", "4", "--seed", "3")["towers"][0]
    rate = api.stand_probability(["ball", "cube-large", "cube-small"], trials=4, seed=3)
    assert rate.stood == cli["stood"] and round(rate.rate, 4) == cli["p_stand"]
    assert [round(v, 4) for v in rate.interval_95] == cli["interval_95"]
    fell_at: dict[str, int] = {}
    for trial in rate.trials:
        if trial.fell_at is not None:
            fell_at[str(trial.fell_at)] = fell_at.get(str(trial.fell_at), 0) + 1
    assert fell_at == cli["orderings"][0]["fell_at"]
    assert [t.seed for t in rate.trials] == [3, 4, 5, 6]
    assert rate.tremor == api.Tremor(1.0, 1.0)              # the study's hand, as the CLI's
    two = api.stand_probability(["ball", "cube-large", "cube-small"], trials=4, seed=3, workers=2)
    assert two == rate                                      # workers change no figure


def test_pieces_are_the_catalogue_the_command_line_lists():
    listed = _cli_json("pieces")["pieces"]
    assert [p.to_dict() for p in api.pieces()] == listed


def test_new_game_starts_any_game_with_its_settings():
    state = api.new_game("tanbo", size=7)
    assert state.num_players == 2 and state.legal_actions()
    assert api.new_game("bunko", players=8).num_players == 8


@pytest.mark.parametrize(("call", "argument"), [
    (lambda: api.judge(["no-such-piece"]), "order_or_scene"),
    (lambda: api.judge("no/such/scene.toml"), "order_or_scene"),
    (lambda: api.judge("cube-large"), "order_or_scene"),
    (lambda: api.judge([1, 2]), "order_or_scene"),
    (lambda: api.judge(["ball", "ball"]), "order_or_scene"),
    (lambda: api.judge(THREE, settings="fast"), "settings"),
    (lambda: api.judge(THREE, tremor=api.Tremor("1", 1.0)), "tremor"),
    (lambda: api.judge_scene(ROOT / "scenes"), "scene"),
    (lambda: api.stand_probability(["ball"], seed=2**63 - 1, trials=2), "seed"),
    (lambda: api.stand_probability("no/such.toml"), "order"),
    (lambda: api.new_game(3), "name"),
    (lambda: api.judge(THREE, seed=-1), "seed"),
    (lambda: api.judge(THREE, seed=True), "seed"),
    (lambda: api.judge(THREE, tremor=api.Tremor(60.0, 0.0)), "tremor"),
    (lambda: api.judge(THREE, tremor=api.Tremor(float("nan"), 0.0)), "tremor"),
    (lambda: api.judge(THREE, tremor=(1.0, 1.0)), "tremor"),
    (lambda: api.judge(THREE, foundation="nope"), "foundation"),
    (lambda: api.stand_probability(THREE, trials=0), "trials"),
    (lambda: api.stand_probability(THREE, trials=10_001), "trials"),
    (lambda: api.stand_probability(THREE, workers=0), "workers"),
    (lambda: api.stand_probability(THREE, backend="cloud"), "backend"),
    (lambda: api.new_game("chess"), "name"),
    (lambda: api.new_game("tanbo", players=5), "players"),
    (lambda: api.new_game("tanbo", size=8), "settings"),
    (lambda: api.new_game("tanbo", colour="red"), "settings"),
])
def test_a_bad_argument_is_a_value_error_that_names_it_in_the_librarys_words(call, argument):
    with pytest.raises(InvalidArgument) as refused:
        call()
    error = refused.value
    assert isinstance(error, ValueError) and not isinstance(error, UsageError)
    assert error.argument == argument
    assert str(error).startswith(argument) and "--" not in str(error)
    assert "\n" not in str(error)


def test_the_command_line_words_a_library_refusal_as_its_flag(capsys):
    from simulator import cli

    assert cli.main(["stability", str(ROOT / "scenes/examples/mixed-tower.toml"),
                     "--orderings", "random:0"]) == 2
    assert "bandu-sim: error: --orderings random:N wants N from 1" in capsys.readouterr().err


def test_the_modules_examples_run():
    """The examples in simulator/api.py's docstring are doctests: they print what they say."""
    failures, tried = doctest.testmod(api, optionflags=doctest.ELLIPSIS)
    assert tried >= 3 and failures == 0


@pytest.mark.slow
def test_the_library_benchmark_measures_every_door_in_one_run(capsys):
    """`python -m benchmarks library --quick`: judge against its internal call and the command line,
    and both environments' steps a second. judge() adds no cost of its own to the call it wraps
    (the figure of the quiet run is on docs/MEASUREMENTS.md; here, under the suite's load, a
    loose bound)."""
    from benchmarks import library

    assert library.main(["--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    judge = figures["judge"]
    assert judge["judge_per_minute"] > judge["cli_per_minute"] > 0
    assert judge["judge_over_internal"] < 1.5
    assert figures["bandu_stack"]["steps_per_second"] > 0 and figures["bandu_stack"]["episodes"] >= 1
    assert figures["tanbo_aec"]["steps"] == 200 and figures["tanbo_aec"]["aec_steps_per_second"] > 0
