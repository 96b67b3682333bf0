"""A real nginx for the tests, in front of test nodes: the site configuration users deploy
(``deploy/nginx.conf``) with the tests' ports, run by Debian's nginx in a temporary
directory, stopped afterwards."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.ports import free_port

HOST = "127.0.0.1"
SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def nginx_path() -> str | None:
    return shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )


def site_for(node_ports: list[int], port: int) -> str:
    """``deploy/nginx.conf`` with these nodes and this listening port."""
    site = SITE.read_text()
    servers = "".join(f"    server {HOST}:{p} max_fails=1 fail_timeout=5s;\n" for p in node_ports)
    site, count = re.subn(r"(    server 127\.0\.0\.1:800\d [^\n]*\n)+", servers, site)
    assert count == 1, "deploy/nginx.conf no longer lists its nodes as the tests expect"
    site, count = re.subn(r"listen 80;", f"listen {HOST}:{port};", site)
    assert count == 1
    return site


def write_config(
    root: Path, node_ports: list[int], port: int, connections: int = 8192
) -> list[str]:
    """Write the site and a main configuration that runs nginx in the foreground out of
    ``root``, with room for ``connections`` (each proxied socket holds two); return the
    command-line arguments that start nginx with them."""
    (root / "site.conf").write_text(site_for(node_ports, port))
    temp = "".join(
        f"    {kind}_temp_path {root / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (root / "nginx.conf").write_text(
        f"daemon off;\nworker_processes 1;\nworker_rlimit_nofile {4 * connections};\n"
        f"pid {root / 'nginx.pid'};\nerror_log {root / 'error.log'} warn;\n"
        f"events {{ worker_connections {connections}; }}\n"
        f"http {{\n    access_log off;\n{temp}    include {root / 'site.conf'};\n}}\n"
    )
    return ["-p", str(root), "-c", str(root / "nginx.conf")]


@contextmanager
def nginx_in_front(node_ports: list[int]) -> Iterator[str]:
    """Start nginx proxying to ``node_ports``; yield its base URL."""
    executable = nginx_path()
    if executable is None:
        raise RuntimeError("nginx is not installed")
    root = Path(tempfile.mkdtemp(prefix="doushouqi-nginx-"))
    port = free_port()
    process = subprocess.Popen(
        [executable, *write_config(root, node_ports, port)],
        stdout=subprocess.DEVNULL,
        stderr=(root / "stderr.log").open("wb"),
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection((HOST, port), timeout=0.5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    logs = "".join(
                        f.read_text()
                        for f in (root / "stderr.log", root / "error.log")
                        if f.exists()
                    )
                    raise RuntimeError(f"nginx did not start:\n{logs}") from None
                time.sleep(0.02)
        yield f"http://{HOST}:{port}"
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(root, ignore_errors=True)
