"""What the server measures, for Prometheus (``GET /metrics``, prometheus-client).

Each app has its own registry (tests build many apps in one process), labelled with the node's
name so that one Prometheus can scrape every node of a cluster. Gauges that are a count of
something the server holds anyway (live games, open sockets, queued AI jobs) are read when
scraped rather than kept up to date by hand.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.utils import floatToGoString

__all__ = ["CONTENT_TYPE_LATEST", "Metrics", "MoveCounts"]

#: Move round trips: most take milliseconds; a slow database or disk shows in the tail.
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: The latency buckets' ``le`` labels, written as prometheus-client writes them (``+Inf`` last).
_LATENCY_LABELS: tuple[str, ...] = tuple(
    floatToGoString(bound)  # type: ignore[no-untyped-call]
    for bound in (*_LATENCY_BUCKETS, float("inf"))
)
#: AI queue waits and searches: from nothing to the seconds a strong search takes.
_AI_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


class Metrics:
    def __init__(self, node: str) -> None:
        self.node = node
        self.registry = CollectorRegistry(auto_describe=True)
        labels = {"node": node}
        registry = self.registry
        #: Moves and their round trips: counted with every move (:meth:`MoveCounts.moved`).
        self.moves = MoveCounts(node)
        registry.register(self.moves)
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
            "AI searches that got less time than asked for, because the AI was busy",
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


class MoveCounts:
    """The moves played (``doushouqi_moves``, a counter) and their round trips
    (``doushouqi_move_latency_seconds``, a histogram) as plain numbers, read when scraped (a
    collector of the registry's): prometheus-client's ``Counter.inc`` and ``Histogram.observe``
    each take a lock, with every move (docs/server.md, "One node, eleventh round"). The same
    names, labels, buckets and values on ``/metrics`` as those two metrics had. Counted by the
    event loop's thread only; a scrape from another thread reads numbers that each move
    changes by a few plain additions, so it may see a move in the count and not yet in the
    sum, as a scrape between ``inc`` and ``observe`` could before."""

    def __init__(self, node: str) -> None:
        self.node = node
        self.created = time.time()
        #: Moves played.
        self.count = 0
        #: Moves by their round trip's bucket (not cumulative: one addition a move), the last
        #: for those over the largest bound (``+Inf``).
        self.buckets = [0] * (len(_LATENCY_BUCKETS) + 1)
        #: The round trips' sum, in seconds.
        self.sum = 0.0

    def moved(self, latency: float) -> None:
        """One move played, ``latency`` seconds from its command's arrival to its event
        stored and sent. A bucket holds the round trips up to its bound, that bound included
        (Prometheus's ``le``)."""
        self.count += 1
        self.buckets[bisect_left(_LATENCY_BUCKETS, latency)] += 1
        self.sum += latency

    def collect(self) -> Iterator[Metric]:
        labels = [self.node]
        moves = CounterMetricFamily(
            "doushouqi_moves", "Moves played (by players and the AI)", labels=["node"]
        )
        moves.add_metric(labels, self.count, created=self.created)
        yield moves
        latency = HistogramMetricFamily(
            "doushouqi_move_latency_seconds",
            "From a move command's arrival to its event being stored and sent",
            labels=["node"],
        )
        counts, total = list(self.buckets), 0
        cumulative = []
        for bound, count in zip(_LATENCY_LABELS, counts, strict=True):
            total += count
            cumulative.append((bound, float(total)))
        latency.add_metric(labels, cumulative, self.sum)
        latency.add_sample(
            "doushouqi_move_latency_seconds_created", {"node": self.node}, self.created
        )
        yield latency
