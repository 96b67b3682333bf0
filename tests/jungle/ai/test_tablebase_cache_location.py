"""The test session keeps the decoded-table cache out of the user's home (tests/conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from doushouqi.jungle.ai.tablebase import memory


def test_the_session_cache_is_not_in_the_home_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    directory = memory.cache_directory()
    assert directory is not None
    run_folder = tmp_path_factory.getbasetemp().parent
    assert directory.is_relative_to(run_folder)
    assert not directory.is_relative_to(Path.home() / ".cache")


def test_engine_subprocesses_inherit_the_session_cache(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # Started as the tests start their engine and server processes: no env= of their own.
    code = "from doushouqi.jungle.ai.tablebase import memory; print(memory.cache_directory())"
    found = Path(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    assert found.is_relative_to(tmp_path_factory.getbasetemp().parent)
