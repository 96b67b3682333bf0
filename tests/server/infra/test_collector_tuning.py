"""The garbage collector's tuning at start-up (``infra/collector.py``): what is loaded is
frozen out of the collector's walks, the young generation's threshold is raised, and
garbage cycles made afterwards are still collected."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from doushouqi.server.infra.collector import YOUNG_THRESHOLD, tune_collector


@pytest.fixture
def restored_collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("restored_collector")
def test_start_up_objects_are_frozen_and_the_young_threshold_raised() -> None:
    middle, old = gc.get_threshold()[1:]
    tune_collector()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (YOUNG_THRESHOLD, middle, old)


@pytest.mark.usefixtures("restored_collector")
def test_a_cycle_made_after_the_tuning_is_still_collected() -> None:
    tune_collector()

    class Node:
        other: object = None

    first, second = Node(), Node()
    first.other, second.other = second, first
    gone = weakref.ref(first)
    del first, second
    gc.collect()
    assert gone() is None
