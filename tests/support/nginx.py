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
DEPLOYED = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
#: The site file run (the bench may name another version's).
SITE = DEPLOYED


def nginx_path() -> str | None:
    return shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )


def site_for(node_ports: list[int], port: int, tls: tuple[Path, Path] | None = None) -> str:
    """``deploy/nginx.conf`` with these nodes and this listening port; with ``tls`` (a
    certificate and its key), over TLS, as its comment says to serve it."""
    site = SITE.read_text()
    servers = "".join(f"    server {HOST}:{p} max_fails=1 fail_timeout=5s;\n" for p in node_ports)
    # Each upstream: every request, and the games' sockets (routed by their game). A site
    # file of an older version, which the cluster bench may run to compare, has only the first.
    site, count = re.subn(r"(    server 127\.0\.0\.1:800\d [^\n]*\n)+", servers, site)
    assert count == 2 or (count == 1 and SITE != DEPLOYED), (
        "deploy/nginx.conf no longer lists its nodes as the tests expect"
    )
    listen = f"listen {HOST}:{port};"
    if tls is not None:
        listen = (
            f"listen {HOST}:{port} ssl;\n"
            f"    ssl_certificate {tls[0]};\n    ssl_certificate_key {tls[1]};"
        )
    site, count = re.subn(r"listen 80;", listen, site)
    assert count == 1
    return site


def self_signed(root: Path) -> tuple[Path, Path] | None:
    """A certificate for 127.0.0.1 and its key, made by openssl in ``root`` (None without
    openssl)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        return None
    cert, key = root / "cert.pem", root / "key.pem"
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    subprocess.run(
        [openssl, *request, "-subj", f"/CN={HOST}", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    return cert, key


def write_config(
    root: Path,
    node_ports: list[int],
    port: int,
    connections: int = 8192,
    tls: tuple[Path, Path] | None = None,
) -> list[str]:
    """Write the site and a main configuration that runs nginx in the foreground out of
    ``root``, with room for ``connections`` (each proxied socket holds two); return the
    command-line arguments that start nginx with them."""
    (root / "site.conf").write_text(site_for(node_ports, port, tls))
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
def nginx_in_front(node_ports: list[int], tls: bool = False) -> Iterator[str]:
    """Start nginx proxying to ``node_ports`` (over TLS with a self-signed certificate:
    ``tls``); yield its base URL."""
    executable = nginx_path()
    if executable is None:
        raise RuntimeError("nginx is not installed")
    root = Path(tempfile.mkdtemp(prefix="doushouqi-nginx-"))
    port = free_port()
    certificate = self_signed(root) if tls else None
    if tls and certificate is None:
        raise RuntimeError("openssl is not installed")
    process = subprocess.Popen(
        [executable, *write_config(root, node_ports, port, tls=certificate)],
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
        yield f"{'https' if tls else 'http'}://{HOST}:{port}"
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(root, ignore_errors=True)
