"""What the server measures, for Prometheus (``GET /metrics``, prometheus-client).

Each app has its own registry (tests build many apps in one process), labelled with the node's
name so that one Prometheus can scrape every node of a cluster. Gauges that are a count of
something the server holds anyway (live games, open sockets, queued AI jobs) are read when
scraped rather than kept up to date by hand.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]

#: Move round trips: most take milliseconds; a slow database or disk shows in the tail.
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: AI queue waits and searches: from nothing to the seconds a strong search takes.
_AI_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


class Metrics:
    def __init__(self, node: str) -> None:
        self.node = node
        self.registry = CollectorRegistry(auto_describe=True)
        labels = {"node": node}
        registry = self.registry
        self.moves = Counter(
            "doushouqi_moves", "Moves played (by players and the AI)", ["node"], registry=registry
        ).labels(**labels)
        self.move_latency = Histogram(
            "doushouqi_move_latency_seconds",
            "From a move command's arrival to its event being stored and sent",
            ["node"],
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        ).labels(**labels)
        self.ai_wait = Histogram(
            "doushouqi_ai_wait_seconds",
            "How long AI jobs waited for a worker",
            ["node", "kind"],
            buckets=_AI_BUCKETS,
            registry=registry,
        )
        self.ai_search = Histogram(
            "doushouqi_ai_search_seconds",
            "How long AI searches thought",
            ["node", "kind"],
            buckets=_AI_BUCKETS,
            registry=registry,
        )
        self.effort_reductions = Counter(
            "doushouqi_ai_effort_reductions",
            "AI searches the load cut short: given less time than asked for, and used it all",
            ["node", "kind"],
            registry=registry,
        )
        self.random_fallbacks = Counter(
            "doushouqi_ai_random_fallbacks",
            "AI moves played at random because no engine answered",
            ["node"],
            registry=registry,
        ).labels(**labels)
        self.refused_ai_games = Counter(
            "doushouqi_ai_games_refused",
            "New games against the computer refused because its capacity was used up",
            ["node"],
            registry=registry,
        ).labels(**labels)
        self._gauges: dict[str, Gauge] = {}

    def gauge(self, name: str, documentation: str, read: Callable[[], float]) -> None:
        """A gauge read from ``read`` at every scrape."""
        gauge = Gauge(name, documentation, ["node"], registry=self.registry)
        gauge.labels(node=self.node).set_function(read)
        self._gauges[name] = gauge

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
