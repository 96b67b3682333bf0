"""``tablebase generate --cluster``: the job graph on a Ray cluster started here on loopback
gives the same files, byte for byte, as the local run; it resumes; a failing task is named.

The cluster is one head node (``ray start --head --block``, its own temporary folder) in a
process group of its own; the fixture stops it and checks that none of its processes is left
(``ray stop`` is not used: it would stop every Ray process on the machine, others' too).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="generating tables needs the ai extra (numba)")

from doushouqi import __version__
from doushouqi.cli import main as cli
from doushouqi.jungle.ai.tablebase import generate as gen
from doushouqi.jungle.ai.tablebase.jobs import all_jobs, dependencies, inputs
from doushouqi.jungle.tablebase.file_format import signature_name

ONLY = ["ELvT", "LvR"]  # 4 jobs: ELvT needs EvT and LvT; 8 tables


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ours(marker: str) -> list[int]:
    """Pids of the processes whose command line names ``marker`` (the cluster's folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
    return found


def test_a_task_is_sent_the_tables_its_captures_lead_into() -> None:
    for job in all_jobs(4):
        sent = inputs(job)
        assert len(sent) == len(set(sent))
        assert set(sent) == {n for d in dependencies(job) for n in d.table_names()} & {
            signature_name(tuple(a for a in o if a != c), m) for m, o in job.tables() for c in o
        }


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    pytest.importorskip("ray", reason="the Ray path needs the tablebase-cluster extra (ray)")
    ray = Path(sys.executable).with_name("ray")
    if not ray.is_file():
        pytest.skip(f"no ray command next to {sys.executable}")
    folder = tempfile.mkdtemp(prefix="dsqray")  # short: Ray's socket paths must stay < 108
    port = _free_port()
    log = Path(folder, "head.log")
    command = [
        str(ray), "start", "--head", "--block", "--node-ip-address", "127.0.0.1",
        "--port", str(port), "--num-cpus", "2", "--include-dashboard=false",
        "--disable-usage-stats", "--object-store-memory", str(100 * 2**20),
        "--temp-dir", str(Path(folder, "ray")),
    ]  # fmt: skip
    with log.open("wb") as out:
        head = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 120
        while "Ray runtime started" not in log.read_text(errors="replace"):
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Ray head did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        head.terminate()  # it stops the node's processes (not all at once: it drains first)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)  # the group this fixture made
            head.wait()
        deadline = time.monotonic() + 30
        while (left := _ours(folder)) and time.monotonic() < deadline:
            time.sleep(0.5)
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
        assert not left, f"Ray processes left after the head stopped: {left}"


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((directory / "wango").iterdir())}


def _generate_on(address: str, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    args = ["tablebase", "generate", "--only", *ONLY, "--no-reuse", "--quiet"]
    assert cli.main([*args, "--out", str(out), "--cluster", address]) == 0
    return capsys.readouterr().out


def test_the_cluster_makes_the_local_tables(
    cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    # One test, one cluster (pytest-xdist would start one per worker running a test of it).
    import ray

    local = gen.generate("wango", 3, tmp_path / "local", only=ONLY, reuse=False)
    assert sorted(r.name for r in local) == ["ELvT", "EvT", "LvR", "LvT"]
    expected = _files(tmp_path / "local")
    assert len(expected) == 8

    out = tmp_path / "ray"
    assert "4 jobs (0 already done)" in _generate_on(cluster, out, capsys)  # connects itself
    assert _files(out) == expected
    assert not ray.is_initialized()  # and disconnected

    # Connected here: generate() keeps this connection (and its warm workers).
    ray.init(address=cluster, logging_level=logging.WARNING)
    try:
        # Resumed: the tables on disk go to the object store, and only ELvT is made again.
        (out / "wango" / "ELvT.dsqtb").unlink()
        (out / "wango" / "TvEL.dsqtb").unlink()
        assert "4 jobs (3 already done)" in _generate_on(cluster, out, capsys)
        assert _files(out) == expected

        # The driver claims another version: the task refuses to make tables that would differ.
        monkeypatch.setattr(gen, "_version", "0-other")
        failed = tmp_path / "failed"
        with pytest.raises(gen.ClusterJobError, match=r"job LvR failed on the cluster \(node"):
            gen.generate("wango", 2, failed, only=["LvR"], reuse=False, cluster=cluster)
        assert not failed.exists()
        assert cli.main(["tablebase", "generate", "--only", "LvR", "--no-reuse", "--out",
                         str(failed), "--cluster", cluster]) == 2  # fmt: skip
        error = capsys.readouterr().err
        assert "doushouqi tablebase: error: job LvR failed on the cluster (node " in error
        assert f"this node has doushouqi {__version__}, the driver 0-other" in error
    finally:
        ray.shutdown()


def test_an_unreachable_cluster_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("ray", reason="the Ray path needs the tablebase-cluster extra (ray)")
    address = f"127.0.0.1:{_free_port()}"  # nothing listens there
    args = ["tablebase", "generate", "--only", "LvR", "--no-reuse", "--out", str(tmp_path)]
    assert cli.main([*args, "--cluster", address]) == 2
    assert f"cannot reach the Ray cluster at {address}" in capsys.readouterr().err
