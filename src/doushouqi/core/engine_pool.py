"""Engines kept per rule set for the library's one-off questions (a hint, an analysis), so that
concurrent callers — web games, tools — search in parallel and repeated calls reuse what an
engine learnt. Game-agnostic: each game's ``shared_engines`` module makes its own searchers.

>>> pool = EnginePool(lambda rules: [rules], size=1)
>>> with pool.engine("wango") as engine:
...     engine
['wango']
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

__all__ = ["EnginePool"]

Rules = TypeVar("Rules", bound=Hashable)
Engine = TypeVar("Engine")


class EnginePool(Generic[Rules, Engine]):
    """Up to ``size`` engines per rule set, made by ``make(rules)`` when first needed; a caller
    that finds them all busy waits for one.

    >>> made = []
    >>> pool = EnginePool(lambda rules: made.append(rules) or f"engine {len(made)}", size=2)
    >>> with pool.engine("wango") as first, pool.engine("wango") as second:
    ...     first, second
    ('engine 1', 'engine 2')
    >>> with pool.engine("wango") as again:  # the last given back; no third is made
    ...     again, len(made)
    ('engine 1', 2)
    """

    def __init__(self, make: Callable[[Rules], Engine], size: int = 4) -> None:
        self.size = size
        self._make = make
        self._lock = threading.Lock()
        self._idle: dict[Rules, queue.LifoQueue[Engine]] = {}
        self._made: dict[Rules, int] = {}

    def _acquire(self, rules: Rules) -> Engine:
        with self._lock:
            idle = self._idle.setdefault(rules, queue.LifoQueue())
            try:
                return idle.get_nowait()  # the last given back: its table is warmest
            except queue.Empty:
                if self._made.get(rules, 0) < self.size:
                    self._made[rules] = self._made.get(rules, 0) + 1
                    return self._make(rules)
        return idle.get()  # every engine busy: wait for one

    @contextlib.contextmanager
    def engine(self, rules: Rules) -> Iterator[Engine]:
        """One of the rule set's engines, given back to the pool afterwards.

        >>> pool = EnginePool(lambda rules: {"rules": rules})
        >>> with pool.engine("classic") as engine:
        ...     engine["rules"]
        'classic'
        """
        engine = self._acquire(rules)
        try:
            yield engine
        finally:
            self._idle[rules].put(engine)
