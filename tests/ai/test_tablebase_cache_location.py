"""The test session keeps the decoded-table cache out of the user's home (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from doushouqi.ai.tablebase import memory


def test_the_session_cache_is_not_in_the_home_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    directory = memory.cache_directory()
    assert directory is not None
    run_folder = tmp_path_factory.getbasetemp().parent
    assert directory.is_relative_to(run_folder)
    assert not directory.is_relative_to(Path.home() / ".cache")


def test_engine_subprocesses_inherit_the_session_cache() -> None:
    code = "from doushouqi.ai.tablebase import memory; print(memory.cache_directory())"
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    ).stdout.strip()
    assert found == str(memory.cache_directory())
