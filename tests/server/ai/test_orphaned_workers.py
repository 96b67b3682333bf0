"""SIGKILL a real ``doushouqi serve`` whose engine workers are running: none of its child
processes (the games' AI and analysis workers, multiprocessing's resource tracker) may
outlive it, although nothing in the server had the chance to clean up.

Linux only: the process tree is read from /proc.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from tests.server.live.test_crash_recovery import Client, serving
from tests.support.live import move
from tests.support.ports import free_port

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

#: How long the children may take to notice and exit.
EXIT_WITHIN = 15.0


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, start time) of a process, or None when there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # The command name is in parentheses and may hold anything: the fields follow the last ')'.
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[19])


def descendants(root: int) -> dict[int, int]:
    """Every process below ``root``: pid -> start time (to tell a reused pid apart)."""
    children: dict[int, list[int]] = {}
    started: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            children.setdefault(stat[1], []).append(int(entry.name))
            started[int(entry.name)] = stat[2]
    found: dict[int, int] = {}
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found[pid] = started[pid]
        todo.extend(children.get(pid, []))
    return found


def alive(pid: int, started: int) -> bool:
    """Whether the process still runs (a zombie has exited: only its entry waits for a reaper)."""
    stat = _stat(pid)
    return stat is not None and stat[2] == started and stat[0] != "Z"


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
    except OSError:
        return "?"


def test_sigkill_of_the_server_leaves_no_worker_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOUSHOUQI_AI_MOVETIME", "0.1")
    port = free_port()
    with serving(tmp_path, port) as server:
        client = Client(port)
        # The analysis pool starts on the first analysis (which may time out on a busy
        # machine while the worker loads the engine: then the next one is answered)...
        for _ in range(3):
            analysis = client.post("/api/analysis", json={"movetime": 0.05}, timeout=120)
            if analysis.status_code != 503:
                break
        assert analysis.status_code == 200, analysis.text
        # ... and the games' AI pool on the computer's first move.
        game = client.post("/api/games", json={"mode": "vs_ai", "color": "red", "ai_level": 1})
        assert game.status_code == 201, game.text
        with client.socket(game.json()["id"]) as ws:
            ws.wait_for("game_started")
            move(ws, "a3a4")
            ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=120)
        children = descendants(server.process.pid)
        workers = [pid for pid in children if "multiprocessing" in _command(pid)]
        # Two workers (one a pool) besides the resource tracker, each started by spawn.
        assert len(workers) >= 2, {pid: _command(pid) for pid in children}
        server.kill()
    deadline = time.monotonic() + EXIT_WITHIN
    while (left := [pid for pid, started in children.items() if alive(pid, started)]) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.1)
    assert not left, {pid: _command(pid) for pid in left}
