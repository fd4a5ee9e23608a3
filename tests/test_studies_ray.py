"""The Ray backend of stability studies (simulator/towers/studies/cluster.py, `--backend ray`,
`--address`): the same numbers as local processes on a private Ray and on a running cluster
joined by address, a node with another version refused, and bad input refused in one line
before any work."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest
from test_studies import SCENE, _cli, _scene_file

from simulator.core.errors import UsageError
from simulator.towers.physics.scene_file import parse_scene
from simulator.towers.physics.tremor import Tremor
from simulator.towers.studies.orderings import OrderingSpec


def _plan():
    from simulator.towers.studies.study import plan_study

    return plan_study([parse_scene(SCENE, "s.toml")], [Tremor(2.0, 2.0)],
                      OrderingSpec("permutations"), trials=2, seed=3)


def _figures(result) -> dict:
    report = result.as_dict()
    for key in ("wall_seconds", "workers", "backend"):
        del report["study"][key]
    return report


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_a_private_ray_gives_the_numbers_of_local_processes():
    from simulator.towers.studies.study import run_study

    plan = _plan()
    local = run_study(plan, workers=1)
    on_ray = run_study(plan, workers=2, backend="ray")
    assert on_ray.backend == "ray" and on_ray.workers == 2 and not on_ray.interrupted
    assert on_ray.results == local.results and len(on_ray.results) == 12
    assert _figures(on_ray) == _figures(local)
    assert 0 < sum(r.stood for r in on_ray.results) < 12    # the study tells orders apart
    assert on_ray.where() == "2 workers on Ray"


@pytest.mark.slow
def test_a_node_with_another_version_is_refused(monkeypatch):
    import simulator
    from simulator.towers.studies.cluster import run_jobs_on_ray

    monkeypatch.setattr(simulator, "__version__", "0.0.0-other")
    with pytest.raises(UsageError, match=r"runs bandu-sim 0\.1\.0, this machine 0\.0\.0-other: "
                                         r"install the same version on every node"):
        run_jobs_on_ray(_plan().jobs[:1], workers=1)


@pytest.mark.slow
def test_joining_a_running_cluster_by_address(tmp_path):
    """As docs/studies.md says: `ray start --head` on one machine (with Ray's default token
    authentication), then the study joins it by address and leaves it running."""
    ray = shutil.which("ray", path=os.path.dirname(sys.executable))
    assert ray is not None, "the ray command comes with the test extra"
    port = _free_port()
    env = os.environ | {"RAY_AUTH_MODE": "token"}
    started = subprocess.run([ray, "start", "--head", "--port", str(port), "--num-cpus", "2",
                              "--include-dashboard", "false", "--disable-usage-stats"],
                             capture_output=True, text=True, timeout=180, env=env)
    assert started.returncode == 0, started.stderr[-2000:]
    try:
        scene = _scene_file(tmp_path)
        args = ["stability", str(scene), "--orderings", "random:3", "--trials", "2", "--seed", "9",
                "--json"]
        joined = subprocess.run([sys.executable, "-m", "simulator", *args, "--address",
                                 f"127.0.0.1:{port}"], capture_output=True, text=True,
                                timeout=300, env=env)
        assert joined.returncode == 0, joined.stderr[-2000:]
        status = subprocess.run([ray, "status", "--address", f"127.0.0.1:{port}"],
                                capture_output=True, text=True, timeout=120, env=env)
        assert status.returncode == 0, "the study stopped the cluster it joined"
    finally:
        subprocess.run([ray, "stop", "--force"], capture_output=True, timeout=120)
    local = _cli(*args)
    assert local.returncode == 0, local.stderr
    on_cluster, here = json.loads(joined.stdout), json.loads(local.stdout)
    assert on_cluster["study"]["backend"] == "ray" and on_cluster["study"]["workers"] == 2
    assert on_cluster["towers"] == here["towers"]


def _refused(*args: str, env: dict | None = None) -> str:
    start = time.monotonic()
    result = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                            timeout=60, env=env)
    assert result.returncode == 2, result.stderr
    assert time.monotonic() - start < 30
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


@pytest.mark.parametrize(("extra", "message"), [
    (["--address", "head"], "--address 'head': expected HOST:PORT of a Ray cluster's head"),
    (["--address", "h:99999"], "--address 'h:99999': expected HOST:PORT"),
    (["--address", "h" * 300 + ":6379"], "not a host name (a name has at most 253 characters"),
    (["--address", "a" * 64 + ".example:6379"], "each part between dots at most 63"),
    (["--address", "10.0.0.5:6379", "--backend", "local"],
     "--address joins a Ray cluster: it goes with --backend ray"),
    (["--backend", "cluster"], "invalid choice: 'cluster'"),
])
def test_bad_cluster_options_are_refused_in_one_line(tmp_path, extra, message):
    scene = _scene_file(tmp_path)
    assert message in _refused("-m", "simulator", "stability", str(scene), *extra)


def test_an_address_where_nothing_listens_is_refused_at_once(tmp_path):
    scene = _scene_file(tmp_path)
    port = _free_port()
    error = _refused("-m", "simulator", "stability", str(scene), "--address", f"127.0.0.1:{port}")
    assert f"cannot join the Ray cluster at 127.0.0.1:{port}:" in error
    assert "ray start --head" in error


def test_without_ray_installed_the_backend_says_how_to_install_it(tmp_path):
    scene = _scene_file(tmp_path)
    code = ("import sys; sys.modules['ray'] = None\n"
            "from simulator.cli import main\n"
            f"sys.exit(main(['stability', {str(scene)!r}, '--backend', 'ray']))\n")
    error = _refused("-c", code)
    assert "--backend ray needs Ray: pip install 'bandu-sim[cluster]'" in error


def test_a_private_ray_that_cannot_start_is_one_line_not_a_traceback(tmp_path):
    """`--backend ray` when Ray cannot start here (no room in /tmp, no free port) gave a traceback."""
    scene = _scene_file(tmp_path)
    code = ("import sys, ray\n"
            "def refuse(**options):\n"
            "    raise RuntimeError('Failed to start the GCS server.\\nmore detail')\n"
            "ray.init = refuse\n"
            "from simulator.cli import main\n"
            f"sys.exit(main(['stability', {str(scene)!r}, '--backend', 'ray']))\n")
    error = _refused("-c", code)
    assert "a private Ray could not start on this machine: Failed to start the GCS server." in error
    assert "--backend local" in error


def test_the_backend_is_not_imported_by_local_studies():
    code = ("import sys, simulator.towers.studies.command, simulator.towers.studies.study\n"
            "print('ray' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"

