"""Material signatures and the job graph of a generation.

A *job* solves the two tables of one pair of animal sets, ``A`` to move against ``B`` and
``B`` against ``A`` (one table when A == B): a move that captures nothing leads from one to
the other, so they are solved together. A capture leads into a job with one animal fewer,
which must be solved first: the jobs form a graph whose edges only go to smaller animal
counts, so every job of one animal count can run in parallel once the smaller ones are done.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable

from doushouqi.jungle.squares import ANIMALS
from doushouqi.jungle.tablebase.file_format import signature_name

__all__ = ["Job", "all_jobs", "dependencies", "inputs", "job_levels", "parse_job"]


def _sort(animals: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(animals, reverse=True))


@dataclasses.dataclass(frozen=True, order=True)
class Job:
    """The pair ``first`` vs ``second`` (the side with more animals, or the stronger, first)."""

    first: tuple[int, ...]
    second: tuple[int, ...]

    @classmethod
    def of(cls, a: Iterable[int], b: Iterable[int]) -> Job:
        a, b = _sort(a), _sort(b)
        if (len(a), a) < (len(b), b):
            a, b = b, a
        return cls(a, b)

    @property
    def animals(self) -> int:
        return len(self.first) + len(self.second)

    @property
    def name(self) -> str:
        return signature_name(self.first, self.second)

    def tables(self) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """(mover, opponent) of each table of the job."""
        if self.first == self.second:
            return [(self.first, self.second)]
        return [(self.first, self.second), (self.second, self.first)]

    def table_names(self) -> list[str]:
        return [signature_name(m, o) for m, o in self.tables()]

    @property
    def strength(self) -> int:
        """Sum of the animals (elephant 8 ... rat 1): the order "strongest first"."""
        return sum(self.first) + sum(self.second)


def parse_job(name: str) -> Job:
    from doushouqi.jungle.tablebase.file_format import parse_signature

    mover, opponent = parse_signature(name)
    return Job.of(mover, opponent)


def dependencies(job: Job) -> set[Job]:
    """The jobs whose tables a capture in ``job`` leads into."""
    found = set()
    for mover, opponent in job.tables():
        if len(opponent) == 1:
            continue  # capturing the last animal ends the game
        for captured in opponent:
            rest = tuple(a for a in opponent if a != captured)
            found.add(Job.of(rest, mover))
    return found


def inputs(job: Job) -> list[str]:
    """The tables (signatures) a capture in ``job`` leads into, each once, in the order the
    solver reads them: what a job run elsewhere (a Ray task) must be given."""
    found: list[str] = []
    for mover, opponent in job.tables():
        if len(opponent) == 1:
            continue
        for captured in opponent:
            rest = tuple(a for a in opponent if a != captured)
            name = signature_name(rest, mover)
            if name not in found:
                found.append(name)
    return found


def all_jobs(max_animals: int, min_animals: int = 2) -> list[Job]:
    """Every job with ``min_animals`` to ``max_animals`` animals, fewest animals first and,
    within a count, the strongest animals first."""
    found: set[Job] = set()
    for total in range(min_animals, max_animals + 1):
        for left in range(1, total):
            for a in itertools.combinations(ANIMALS, left):
                for b in itertools.combinations(ANIMALS, total - left):
                    found.add(Job.of(a, b))
    return sorted(found, key=lambda j: (j.animals, -j.strength, j.name))


def job_levels(jobs: Iterable[Job]) -> list[list[Job]]:
    """The jobs grouped by animal count (each group depends only on earlier ones)."""
    by_count: dict[int, list[Job]] = {}
    for job in jobs:
        by_count.setdefault(job.animals, []).append(job)
    return [by_count[k] for k in sorted(by_count)]
