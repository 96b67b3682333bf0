"""The moves' metrics counted as plain numbers (``MoveCounts``) read on ``/metrics`` as
prometheus-client's own counter and histogram read for the same moves: the same names, labels,
buckets and values (docs/server.md, "One node, eleventh round")."""

from __future__ import annotations

import re

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from doushouqi.server.infra.metrics import _LATENCY_BUCKETS, Metrics

# On the bounds (a bound belongs to its own bucket), just over them, zero, beyond the largest.
ROUND_TRIPS = [0.0, 0.0005, 0.001, 0.0010001, 0.0025, 0.003, 0.1, 0.1000001, 2.4, 5.0, 5.5, 99.0]


def _without_creation_times(text: str) -> str:
    return re.sub(r"(_created\{[^}]*\}) \S+", r"\1 T", text)


def test_the_moves_metrics_read_as_prometheus_clients_own() -> None:
    theirs = CollectorRegistry(auto_describe=True)
    moves = Counter(
        "doushouqi_moves", "Moves played (by players and the AI)", ["node"], registry=theirs
    ).labels(node="n1")
    latency = Histogram(
        "doushouqi_move_latency_seconds",
        "From a move command's arrival to its event being stored and sent",
        ["node"],
        buckets=_LATENCY_BUCKETS,
        registry=theirs,
    ).labels(node="n1")
    ours = Metrics("n1")
    for seconds in ROUND_TRIPS:
        moves.inc()
        latency.observe(seconds)
        ours.moves.moved(seconds)
    expected = _without_creation_times(generate_latest(theirs).decode())
    exposition = _without_creation_times(generate_latest(ours.registry).decode())
    # The app's registry holds the other metrics too; the moves' come first, as registered.
    assert exposition.startswith(expected)
    assert 'doushouqi_move_latency_seconds_bucket{le="0.001",node="n1"} 3.0' in exposition
    assert 'doushouqi_moves_total{node="n1"} 12.0' in exposition
