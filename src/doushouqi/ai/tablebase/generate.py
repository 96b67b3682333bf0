"""Generate tables: run the job graph (:mod:`.jobs`) locally or on a Ray cluster.

Each finished job writes its tables atomically, so a run that stops can be started again: a
table whose file exists, reads back with a good checksum and has these rules is kept and its
job skipped (``resumed``); so, unless ``reuse`` is off, is a table found complete in the
probe's search path (the package's own up to three animals, ``$DOUSHOUQI_TABLEBASES``), which
is then read from there. The jobs of one animal count run in parallel (``jobs`` worker
processes, or Ray tasks when a cluster address is given); a count starts when the smaller
ones are done, since captures lead only into smaller tables.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from doushouqi import __version__ as _version
from doushouqi.rules import RuleSet, find_rules
from doushouqi.tablebase import family_of, tablebase_directories
from doushouqi.tablebase_format import out_of_scope_reason, rules_key, value_key

from .jobs import Job, all_jobs, dependencies, job_levels, parse_job
from .solve import solve_job
from .store import encode_values, is_complete, load_values, table_path, write_values

__all__ = ["JobReport", "generate", "plan", "run_job"]


@dataclasses.dataclass
class JobReport:
    name: str
    animals: int
    tables: list[str]
    positions: int = 0
    seconds: float = 0.0
    bytes: int = 0
    levels: int = 0
    max_dtm: int = 0
    counts: dict[str, int] = dataclasses.field(default_factory=dict)
    resumed: bool = False


def resolve_rules(rules: RuleSet | str) -> tuple[RuleSet, str]:
    """The rule set and its table folder; ValueError when the tables cannot model it."""
    ruleset = find_rules(rules)
    reason = out_of_scope_reason(ruleset)
    if reason is not None:
        raise ValueError(f"no tablebases for rules {ruleset.name!r}: {reason}")
    family = family_of(ruleset)
    if family is None:
        raise ValueError(
            f"no tablebases for rules {ruleset.name!r}: only the move rules of "
            "wango and international have table folders"
        )
    return ruleset, family


def plan(max_animals: int, only: Iterable[str] = (), min_animals: int = 2) -> list[Job]:
    """The jobs to run: all up to ``max_animals``, or the named ones and what they need."""
    names = list(only)
    if not names:
        return all_jobs(max_animals, min_animals)
    wanted: set[Job] = set()
    todo = [parse_job(n) for n in names]
    while todo:
        job = todo.pop()
        if job not in wanted:
            wanted.add(job)
            todo.extend(dependencies(job))
    return sorted(wanted, key=lambda j: (j.animals, -j.strength, j.name))


def _found(
    out: Path, family: str, signature: str, values: Mapping[str, Any], reuse: bool = True
) -> Path | None:
    """A complete table file: in ``out``, else (``reuse``) in the probe's search path (the
    tables the package ships, ``$DOUSHOUQI_TABLEBASES``), so that those are not made again."""
    for directory in (out, *(tablebase_directories() if reuse else ())):
        path = table_path(directory, family, signature)
        if is_complete(path, values):
            return path
    return None


def _job_done(job: Job, out: Path, family: str, values: Mapping[str, Any], reuse: bool) -> bool:
    return all(_found(out, family, n, values, reuse) is not None for n in job.table_names())


def run_job(
    name: str, family: str, options: Mapping[str, Any], out: str, reuse: bool = True
) -> JobReport:
    """Solve one job, reading its dependencies from ``out`` (or, ``reuse``, the search path)
    and writing its tables to ``out``."""
    job = parse_job(name)
    directory = Path(out)
    cache: dict[str, np.ndarray] = {}

    values = {k: v for k, v in options.items() if k != "trapped_can_capture"}

    def lookup(signature: str) -> np.ndarray:
        if signature not in cache:
            path = _found(directory, family, signature, values, reuse)
            if path is None:
                raise ValueError(f"table {signature} is missing: generate the smaller ones first")
            cache[signature] = load_values(path)
        return cache[signature]

    started = time.perf_counter()
    solved = solve_job(job, options, lookup)
    report = JobReport(job.name, job.animals, job.table_names())
    for table in solved:
        header = {
            "signature": table.signature,
            "rules": values,
            "move_rules": dict(options),
            "family": family,
            "generator": f"doushouqi {_version}",
        }
        data = encode_values(table.values, header)
        write_values(table_path(directory, family, table.signature), data)
        report.positions += int(table.values.shape[0])
        report.bytes += len(data)
        report.levels = max(report.levels, table.levels)
        positive = table.values[table.values > 0]
        negative = table.values[(table.values < 0) & (table.values != -32768)]
        report.max_dtm = max(
            report.max_dtm,
            int(positive.max(initial=1)) - 1,
            -int(negative.min(initial=-1)) - 1,
        )
        for key, count in (
            ("win", positive.size),
            ("loss", negative.size),
            ("draw", int((table.values == 0).sum())),
        ):
            report.counts[key] = report.counts.get(key, 0) + int(count)
    report.seconds = time.perf_counter() - started
    return report


def _single_thread() -> None:
    import numba

    numba.set_num_threads(1)


def generate(
    rules: RuleSet | str,
    max_animals: int,
    out: Path,
    *,
    jobs: int = 1,
    only: Iterable[str] = (),
    cluster: str | None = None,
    reuse: bool = True,
    on_report: Callable[[JobReport, int, int], None] | None = None,
) -> list[JobReport]:
    """Generate every table up to ``max_animals`` animals (or the ``only`` jobs and their
    dependencies) into ``out/<family>/``; returns a report per job, resumed ones included.
    ``wango`` and ``international`` have one family, ``wango`` (their values are equal,
    :func:`doushouqi.tablebase_format.value_key`): either finishes the other's tables."""
    ruleset, family = resolve_rules(rules)
    options = rules_key(ruleset)
    values = value_key(ruleset)
    todo = plan(max_animals, only)
    total = len(todo)
    reports: list[JobReport] = []
    done = 0

    def record(report: JobReport) -> None:
        nonlocal done
        done += 1
        reports.append(report)
        if on_report is not None:
            on_report(report, done, total)

    runner = _ray_runner(cluster) if cluster else None
    pool = None
    if runner is None and jobs > 1:
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_single_thread,
        )
    try:
        for level in job_levels(todo):
            pending = []
            for job in level:
                if _job_done(job, out, family, values, reuse):
                    record(JobReport(job.name, job.animals, job.table_names(), resumed=True))
                else:
                    pending.append(job.name)
            if runner is not None:
                for report in runner(pending, family, options, str(out), reuse):
                    record(report)
            elif pool is not None:
                futures = [
                    pool.submit(run_job, n, family, options, str(out), reuse) for n in pending
                ]
                for future in concurrent.futures.as_completed(futures):
                    record(future.result())
            else:
                for name in pending:
                    record(run_job(name, family, options, str(out), reuse))
    finally:
        if pool is not None:
            pool.shutdown()
    return reports


def _ray_runner(
    address: str,
) -> Callable[[list[str], str, Mapping[str, Any], str, bool], Iterable[JobReport]]:
    """Run one level's jobs as Ray tasks on the cluster at ``address`` (the output directory
    must be shared by the nodes)."""
    try:
        import ray  # type: ignore[import-not-found]  # optional, not a dependency
    except ImportError:
        raise ValueError("--cluster needs Ray installed (pip install ray)") from None
    if not ray.is_initialized():
        ray.init(address=address)
    remote = ray.remote(run_job)

    def run(names: list[str], family: str, options: Mapping[str, Any], out: str, reuse: bool):  # type: ignore[no-untyped-def]
        refs = [remote.remote(n, family, dict(options), out, reuse) for n in names]
        while refs:
            ready, refs = ray.wait(refs, num_returns=1)
            yield from ray.get(ready)

    return run
