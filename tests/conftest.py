"""Settings every test shares.

The engine decodes the endgame tables into a cache file (``$DOUSHOUQI_TABLEBASE_CACHE``,
by default under ``~/.cache``) that later processes map. Tests must not write into the user's
home, nor read a cache left there by another version: the whole session, its engine and
server subprocesses included (they inherit the environment), uses one folder of its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from doushouqi.jungle.ai.tablebase.memory import CACHE_ENV_VAR


@pytest.fixture(scope="session", autouse=True)
def _session_tablebase_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The session's table cache: one folder shared by the xdist workers of this run."""
    previous = os.environ.get(CACHE_ENV_VAR)
    # The parent of a worker's base folder is the run's own folder, common to every worker;
    # the cache is written atomically, so workers may race to fill it.
    os.environ[CACHE_ENV_VAR] = str(tmp_path_factory.getbasetemp().parent / "tablebase-cache")
    yield
    if previous is None:
        os.environ.pop(CACHE_ENV_VAR, None)
    else:
        os.environ[CACHE_ENV_VAR] = previous
