"""The tables shipped with the package (doushouqi/jungle/tablebase/data): complete for up to three
animals, intact, and in agreement with the rules library."""

from __future__ import annotations

import random

import pytest

from doushouqi.jungle.ai.tablebase.jobs import all_jobs
from doushouqi.jungle.ai.tablebase.verify import check_positions, random_board
from doushouqi.jungle.tablebase.file_format import SUFFIX, read_table
from doushouqi.jungle.tablebase.probe import ENV_VAR, shipped_directory


@pytest.fixture(autouse=True)
def _only_shipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)


def test_every_table_up_to_three_animals_is_shipped_and_intact() -> None:
    folder = shipped_directory() / "wango"
    expected = {name for job in all_jobs(3) for name in job.table_names()}
    found = {path.stem for path in folder.glob(f"*{SUFFIX}")}
    assert found == expected and len(found) == 64 + 448
    for name in sorted(found)[::37]:  # a sample: reading checks the checksum
        table = read_table(folder / f"{name}{SUFFIX}")
        assert table.header["rules"]["ranks"] == "wolf>dog"


@pytest.mark.parametrize("rules", ["wango", "international"])
def test_shipped_tables_agree_with_the_rules_library(rules: str) -> None:
    names = sorted(p.stem for p in (shipped_directory() / "wango").glob(f"*{SUFFIX}"))
    rng = random.Random(11)
    boards = [random_board(rng, rng.choice(names), rules) for _ in range(60)]
    report = check_positions(boards, 3)
    assert report.disagreements == []
