"""What the cluster load bench (``bench/cluster_load.py``) measures, and the table it ends
with: where a setting's clients go (:class:`Target`), the measured window (wall time, the
processes' CPU, the client's event-loop lag, every node's ``/metrics`` before and after),
percentiles, and the cluster's figures beside the single node's.
"""

from __future__ import annotations

import asyncio
import math
import os
import signal
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from chaos_bookkeeping import pct
from cluster_harness import tree_cpu


@dataclass
class Target:
    """Where one setting's clients go, and what runs it."""

    label: str
    #: REST and sockets through here (nginx, or the single node).
    front: str
    #: The nodes' own addresses (for direct sockets and their /metrics).
    nodes: list[str]
    redis_url: str | None
    #: Process groups whose CPU is measured: name → root pids.
    pids: dict[str, list[int]]
    #: The nodes' logs (for the leases they lost).
    logs: list[Path]
    #: Nodes whose CPU is sampled over the measured window (``--cpu-profile``: the
    #: bench/cpu_sampler on their path, SIGUSR1 starts it, SIGUSR2 writes the stacks).
    sampled: tuple[int, ...] = ()


def leases_lost(target: Target) -> int:
    """Games whose lease a node lost (an overloaded node failed to renew it in time: another
    took the game over and this one cut its sockets off, 4408)."""
    return sum(
        path.read_text(errors="replace").count("lost the lease")
        for path in target.logs
        if path.exists()
    )


# ------------------------------------------------------------------------------ measuring


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds (user and system) of each of ``pid``'s threads, by name and thread id,
    from ``/proc/PID/task/*/stat``; empty when the process is gone."""
    tick = os.sysconf("SC_CLK_TCK")
    used: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        used[f"{name}/{task.name}"] = (int(fields[11]) + int(fields[12])) / tick
    return used


def ms(values: list[float]) -> str:
    if not values:
        return "-"
    return (
        f"p50 {pct(values, 50) * 1000:.1f}  p90 {pct(values, 90) * 1000:.1f}  "
        f"p99 {pct(values, 99) * 1000:.1f}  max {max(values) * 1000:.1f}"
    )


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(target: Target) -> Samples:
    """Every node's /metrics, summed over the nodes (the ``node`` label dropped)."""
    totals: Samples = defaultdict(float)
    async with httpx.AsyncClient(timeout=30) as http:
        for url in target.nodes:
            response = await http.get(url + "/metrics")
            response.raise_for_status()
            for family in text_string_to_metric_families(response.text):
                for sample in family.samples:
                    labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "node"))
                    totals[sample.name, labels] += sample.value
    return totals


def delta(after: Samples, before: Samples, name: str, **labels: str) -> float:
    """The change of one metric (summed over any labels not given)."""
    total = 0.0
    for (sample, have), value in after.items():
        if sample == name and all(dict(have).get(k) == v for k, v in labels.items()):
            total += value - before.get((sample, have), 0.0)
    return total


def histogram(after: Samples, before: Samples, name: str, **labels: str) -> dict[str, Any]:
    count = delta(after, before, name + "_count", **labels)
    buckets: list[tuple[float, float]] = []
    for sample, have in after:
        bound = dict(have).get("le")
        if sample == name + "_bucket" and bound is not None:
            rest = {k: v for k, v in have if k != "le"}
            if all(rest.get(k) == v for k, v in labels.items()):
                buckets.append((float(bound), delta(after, before, sample, le=bound, **labels)))
    buckets.sort()

    def upper(q: float) -> float:
        return next((b for b, n in buckets if n >= q * count), math.inf)

    return {
        "count": count,
        "mean": delta(after, before, name + "_sum", **labels) / count if count else math.nan,
        "p50": upper(0.5) if count else math.nan,
        "p99": upper(0.99) if count else math.nan,
        "buckets": buckets,
    }


class Window:
    """The measured window: wall time, the processes' CPU, the client's event-loop lag."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.lags: list[float] = []
        self._lag_task: asyncio.Task[None] | None = None

    async def _watch_lag(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.05)
            self.lags.append(time.perf_counter() - asked - 0.05)

    async def open(self) -> None:
        self.before = await scrape(self.target)
        self.cpu_before = {k: tree_cpu(v) for k, v in self.target.pids.items()}
        self.threads_before = {pid: thread_cpu(pid) for pid in self.target.sampled}
        for pid in self.target.sampled:
            os.kill(pid, signal.SIGUSR1)  # bench/cpu_sampler: start
        self.client_before = time.process_time()
        self.started = time.perf_counter()
        self._lag_task = asyncio.create_task(self._watch_lag())

    async def close(self) -> None:
        self.elapsed = time.perf_counter() - self.started
        client = time.process_time() - self.client_before
        if self._lag_task is not None:
            self._lag_task.cancel()
        self.cpu = {
            k: (tree_cpu(v) - self.cpu_before[k]) / self.elapsed
            for k, v in self.target.pids.items()
        }
        self.cpu["client (this script)"] = client / self.elapsed
        for pid in self.target.sampled:
            os.kill(pid, signal.SIGUSR2)  # stop, and write the stacks
        self.threads = {
            pid: {
                name: (used - self.threads_before[pid].get(name, 0.0)) / self.elapsed
                for name, used in thread_cpu(pid).items()
            }
            for pid in self.target.sampled
        }
        self.after = await scrape(self.target)
        self.load = os.getloadavg()[0]

    def threads_line(self, pid: int) -> str:
        """One sampled node's cores by thread (its threads' names, as ``/proc`` gives them)."""
        busy = sorted(self.threads.get(pid, {}).items(), key=lambda kv: -kv[1])
        return "  ".join(f"{name} {cores:.3f}" for name, cores in busy if cores >= 0.001)

    def cpu_line(self) -> str:
        server = sum(v for k, v in self.cpu.items() if not k.startswith("client"))
        parts = "  ".join(f"{k} {v:.2f}" for k, v in self.cpu.items())
        return f"{server:.2f} cores server side ({parts})"

    def per_move_line(self, moves_per_second: float) -> str:
        """The server's CPU per move (the figure issue 32 sets targets for), and its parts."""
        server = sum(v for k, v in self.cpu.items() if not k.startswith("client"))
        parts = "  ".join(
            f"{k} {v / moves_per_second * 1000:.2f}"
            for k, v in self.cpu.items()
            if not k.startswith("client")
        )
        return f"{server / moves_per_second * 1000:.2f} ms server side ({parts})"

    def lag_line(self) -> str:
        if not self.lags:
            return "-"
        return f"p50 {pct(self.lags, 50) * 1000:.1f} ms, p99 {pct(self.lags, 99) * 1000:.1f} ms"


# ------------------------------------------------------------------------------ the table


def table(cluster: dict[str, Any], single: dict[str, Any], scale: float, ai_level: int) -> None:
    """The cluster's figures beside the single node's (its loads scaled by ``scale``)."""
    heads = ("cluster (3 nodes, nginx, PG, Redis)", "single node (SQLite)")
    print(f"\n{'':34} {heads[0]:>36} {heads[1]:>24}")
    if scale != 1:
        print(f"(the single node's loads are scaled by {scale:g}: its games are fewer)")

    def row(label: str, *cells: str) -> None:
        print(f"{label:34} {cells[0]:>36} {cells[1]:>24}")

    def each(part: str, show: Any) -> list[str]:
        return [show(r[part]) if part in r else "-" for r in (cluster, single)]

    def quant(values: list[float], p: float) -> str:
        return f"{pct(values, p) * 1000:.1f}" if values else "-"

    row("Part 1: online games", *each("online", lambda r: str(r["games"])))
    row("  moves/s", *each("online", lambda r: f"{r['moves/s']:.0f}"))
    for name in ("all games", "same-node games", "cross-node games"):
        for p in (50, 90, 99):
            row(
                f"  {name} p{p} (ms)",
                *each("online", lambda r, n=name, q=p: quant(r["rows"][n], q)),
            )
        row(
            f"  {name} max (ms)",
            *each("online", lambda r, n=name: quant(r["rows"][n], 100)),
        )
    row("  errors", *each("online", lambda r: str(r["errors"])))
    row("  sockets closed by server", *each("online", lambda r: str(r["closed"])))
    row("  leases lost", *each("online", lambda r: str(r["leases"])))
    row("  server CPU (cores)", *each("online", lambda r: server_cpu(r["window"])))
    row("  client CPU (cores)", *each("online", lambda r: client_cpu(r["window"])))
    row(f"Part 2: games vs level {ai_level}", *each("ai", lambda r: str(r["games"])))
    row("  AI replies", *each("ai", lambda r: str(len(r["replies"]))))
    for p in (50, 99):
        row(f"  AI reply p{p} (ms)", *each("ai", lambda r, q=p: quant(r["replies"], q)))
    row("  AI reply max (ms)", *each("ai", lambda r: quant(r["replies"], 100)))
    row("  ai_busy notices", *each("ai", lambda r: str(r["busy"])))
    row(
        "  search s, mean (/metrics)",
        *each("ai", lambda r: f"{r['search']['mean']:.3f} ({r['search']['count']:.0f})"),
    )
    row(
        "  busy searches got, p50 s",
        *each(
            "ai", lambda r: f"{statistics.median(r['busy_given']):.3f}" if r["busy_given"] else "-"
        ),
    )
    row("  effort reductions", *each("ai", lambda r: f"{r['reductions']:.0f}"))
    row("  random fallbacks", *each("ai", lambda r: f"{r['fallbacks']:.0f}"))
    row("  games refused", *each("ai", lambda r: str(r["refused"])))
    row("  server CPU (cores)", *each("ai", lambda r: server_cpu(r["window"])))


def server_cpu(window: Window) -> str:
    return f"{sum(v for k, v in window.cpu.items() if not k.startswith('client')):.2f}"


def client_cpu(window: Window) -> str:
    return f"{window.cpu['client (this script)']:.2f}"
