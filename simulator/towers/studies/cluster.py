"""The Ray backend: a study's jobs on a Ray cluster (`bandu-sim stability ... --backend ray`).

Ray is the optional extra `cluster` (`pip install 'bandu-sim[cluster]'`); nothing else imports
it. Without an address the study starts a private Ray instance on this machine and stops it at
the end; with `--address HOST:PORT` it joins a running cluster (one started with
`ray start --head` on one machine and `ray start --address HOST:PORT` on the others) and leaves it
running. Every node runs the jobs with its own installed copy of bandu-sim, so before any job
starts each node is asked for its version and a node without the package, or with another
version, is refused in one line (a different catalogue or physics would change the numbers).

The jobs are the local backend's (jobs.py): each builds a world of its own from everything it
carries, so a study gives the same numbers here as on local processes for the same seed. At most
`workers` jobs are in flight (default: every CPU of the cluster). Ctrl+C behaves as on local
processes (simulator/processes.py): no new job starts, the jobs in flight finish and are kept, a
second Ctrl+C stops at once.
"""

from __future__ import annotations

import logging
import os
import re
import socket
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from simulator.core.errors import InvalidArgument, SimulatorError, UsageError
from simulator.core.text import printable
from simulator.processes import first_ctrl_c_stops_after_the_current_jobs
from simulator.progress import Progress
from simulator.towers.studies.local import Finished

if TYPE_CHECKING:
    from simulator.towers.studies.jobs import Job, JobResult

INSTALL_HINT = "pip install 'bandu-sim[cluster]' (the optional extra 'cluster')"
_ADDRESS = re.compile(r"^(ray://)?[A-Za-z0-9.\-\[\]:]+:\d{1,5}$")
CONNECT_SECONDS = 5.0        # how long the head's port may take to answer
WAIT_SECONDS = 0.25          # how often the loop wakes to see Ctrl+C while jobs run


def check_address(address: str | None) -> str | None:
    """--address: HOST:PORT (or ray://HOST:PORT for Ray's client), refused in one line."""
    if address is None:
        return None
    if not _ADDRESS.match(address) or not 0 < int(address.rsplit(":", 1)[1]) < 65536:
        raise UsageError(f"--address {printable(address, 80)!r}: expected HOST:PORT of a Ray "
                         "cluster's head, e.g. 10.0.0.5:6379")
    host = address.removeprefix("ray://").rsplit(":", 1)[0].strip("[]")
    if len(host) > 253 or any(len(label) > 63 for label in host.split(".")):
        raise UsageError(f"--address {printable(address, 80)!r}: not a host name (a name has at "
                         "most 253 characters, each part between dots at most 63)")
    return address


def import_ray() -> Any:
    """The ray module, or a one-line refusal saying how to install it."""
    try:
        import ray
    except ImportError:
        raise InvalidArgument("backend", f"backend ray needs Ray: {INSTALL_HINT}") from None
    return ray


def run_job_on_node(job: Job) -> JobResult:
    """A job as a Ray task: the physics imported with PyBullet's build-time print silenced."""
    from simulator.core.quiet_output import import_quietly

    import_quietly("simulator.towers.studies.jobs")
    from simulator.towers.studies.jobs import run_job

    return run_job(job)


def node_version() -> str:
    import simulator

    return simulator.__version__


def run_jobs_on_ray(jobs: Sequence[Job], workers: int | None = None,
                    progress: Progress | None = None, address: str | None = None) -> Finished:
    """Run every job on a Ray cluster: a private one on this machine, or the one at `address`.
    `workers` caps the jobs in flight (None: the cluster's CPUs)."""
    ray = import_ray()
    _connect(ray, address, workers)
    try:
        _check_nodes(ray)
        limit = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        return _run(ray, jobs, limit, progress)
    finally:
        ray.shutdown()


def _connect(ray: Any, address: str | None, workers: int | None) -> None:
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                               "logging_level": logging.ERROR}
    if address is None:
        if workers is not None:
            options["num_cpus"] = workers
        try:
            ray.init(**options)
        except Exception as error:  # no room in /tmp, no free port, a Ray that cannot run here
            raise SimulatorError(f"a private Ray could not start on this machine: {_first_line(error)}"
                                 " (--backend local runs the same study without Ray)") from None
        return
    _check_something_answers(address)
    try:
        ray.init(address=address, **options)
    except Exception as error:      # Ray raises ConnectionError, RuntimeError, ValueError ...
        raise UsageError(f"cannot join the Ray cluster at {address}: {_first_line(error)}"
                         f"{_auth_hint()}") from None


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return printable(text.splitlines()[0] if text else type(error).__name__, 160)


def _auth_hint() -> str:
    """Ray's `ray start` turns on token authentication (2.59 on); a driver without the token
    is refused after a minute of retries with nothing but "failed to connect"."""
    if os.environ.get("RAY_AUTH_MODE"):
        return ""
    return (" (if the cluster uses token authentication, as `ray start` does by default since "
            "Ray 2.59, set RAY_AUTH_MODE=token and give the cluster's token in RAY_AUTH_TOKEN "
            "or ~/.ray/auth_token)")


def _check_something_answers(address: str) -> None:
    """Refuse an address where nothing listens, at once: Ray itself retries for minutes."""
    host, port = address.removeprefix("ray://").rsplit(":", 1)
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS):
            pass
    except UnicodeError:                  # a name the resolver cannot even encode
        raise UsageError(f"cannot join the Ray cluster at {printable(address, 80)}: not a host "
                         "name") from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        if isinstance(error, TimeoutError):
            reason = f"no answer within {CONNECT_SECONDS:g} s"
        raise UsageError(f"cannot join the Ray cluster at {address}: {reason} (is `ray start "
                         "--head` running there, and is the port open?)") from None


def _check_nodes(ray: Any) -> None:
    """Every alive node must import bandu-sim and run this version of it."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    import simulator

    version = ray.remote(num_cpus=0)(node_version)
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    asks = [version.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
        n["NodeID"], soft=False)).remote() for n in nodes]
    for node, ask in zip(nodes, asks, strict=True):
        where = node.get("NodeManagerAddress", node["NodeID"][:12])
        try:
            theirs = ray.get(ask)
        except Exception as error:
            reason = printable(str(error).strip().splitlines()[-1] if str(error).strip() else
                               type(error).__name__, 160)
            raise UsageError(f"the Ray node at {where} cannot run bandu-sim ({reason}): "
                             f"install it on every node") from None
        if theirs != simulator.__version__:
            raise UsageError(f"the Ray node at {where} runs bandu-sim {printable(str(theirs), 40)}"
                             f", this machine {simulator.__version__}: install the same version "
                             "on every node")


def _run(ray: Any, jobs: Sequence[Job], limit: int, progress: Progress | None) -> Finished:
    remote = ray.remote(num_cpus=1)(run_job_on_node)
    finished = Finished(workers=limit)
    total = len(jobs)
    if progress:
        progress(0, total, "")

    def collect(references: list) -> None:
        for result in ray.get(references):
            finished.results.append(result)
            if progress:
                progress(len(finished.results), total, "")

    waiting = iter(jobs)
    running: list = []
    with first_ctrl_c_stops_after_the_current_jobs() as stopped:
        try:
            while True:
                while len(running) < limit and not stopped():
                    job = next(waiting, None)
                    if job is None:
                        break
                    running.append(remote.remote(job))
                if not running:
                    break
                done, running = ray.wait(running, num_returns=1, timeout=WAIT_SECONDS)
                collect(done)
        except KeyboardInterrupt:
            for reference in running:
                ray.cancel(reference, force=True)
            finished.interrupted = True
            return finished
        finished.interrupted = stopped() and len(finished.results) < total
    return finished
