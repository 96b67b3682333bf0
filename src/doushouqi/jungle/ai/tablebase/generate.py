"""Generate tables: run the job graph (:mod:`.jobs`) locally or on a Ray cluster.

Each finished job writes its tables atomically, so a run that stops can be started again: a
table whose file exists, reads back with a good checksum and has these rules is kept and its
job skipped (``resumed``); so, unless ``reuse`` is off, is a table found complete in the
probe's search path (the package's own up to three animals, ``$DOUSHOUQI_TABLEBASES``), which
is then read from there. Locally the jobs of one animal count run in parallel (``jobs``
worker processes); a count starts when the smaller ones are done, since captures lead only
into smaller tables. Given a cluster address each job is a Ray task whose arguments are the
smaller tables it reads, so Ray runs the graph itself: a job starts as soon as its own inputs
exist, on any node; the tables travel through the object store and the driver writes them."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import logging
import multiprocessing
import re
import socket
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from doushouqi import __version__ as _version
from doushouqi.jungle.ai.tablebase.jobs import (
    Job,
    all_jobs,
    dependencies,
    inputs,
    job_levels,
    parse_job,
)
from doushouqi.jungle.ai.tablebase.solve import solve_job
from doushouqi.jungle.ai.tablebase.store import (
    encode_values,
    is_complete,
    load_values,
    table_path,
    values_of,
    write_values,
)
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.jungle.tablebase.file_format import (
    decode_table,
    out_of_scope_reason,
    rules_key,
    value_key,
)
from doushouqi.jungle.tablebase.probe import family_of, tablebase_directories

__all__ = ["ClusterJobError", "JobReport", "generate", "plan", "run_job"]


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


def _solve(
    job: Job,
    family: str,
    options: Mapping[str, Any],
    lookup: Callable[[str], np.ndarray],
    low_memory: bool | None = None,
    on_level: Callable[[str, int, int], None] | None = None,
) -> tuple[JobReport, list[tuple[str, bytes]]]:
    """Solve ``job`` (smaller tables from ``lookup``): its report and each table's file bytes.
    ``low_memory``: :func:`.solve.solve_job`'s; ``on_level(job, level, entries decided)``."""
    values = {k: v for k, v in options.items() if k != "trapped_can_capture"}
    started = time.perf_counter()
    progress = None
    if on_level is not None:
        progress = lambda n, changed: on_level(job.name, n, changed)  # noqa: E731
    solved = solve_job(job, options, lookup, progress, low_memory)
    report = JobReport(job.name, job.animals, job.table_names())
    files: list[tuple[str, bytes]] = []
    for table in solved:
        header = {
            "signature": table.signature,
            "rules": values,
            "move_rules": dict(options),
            "family": family,
            "generator": f"doushouqi {_version}",
        }
        data = encode_values(table.values, header)
        files.append((table.signature, data))
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
    return report, files


def run_job(
    name: str,
    family: str,
    options: Mapping[str, Any],
    out: str,
    reuse: bool = True,
    low_memory: bool | None = None,
    on_level: Callable[[str, int, int], None] | None = None,
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

    report, files = _solve(job, family, options, lookup, low_memory, on_level)
    for signature, data in files:
        write_values(table_path(directory, family, signature), data)
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
    low_memory: bool | None = None,
    on_level: Callable[[str, int, int], None] | None = None,
) -> list[JobReport]:
    """Generate every table up to ``max_animals`` animals (or the ``only`` jobs and their
    dependencies) into ``out/<family>/``; returns a report per job, resumed ones included.
    ``wango`` and ``international`` have one family, ``wango`` (their values are equal,
    :func:`doushouqi.jungle.tablebase.file_format.value_key`): either finishes the other's tables.
    ``low_memory``: True solves every job by un-moves (:mod:`.retro`), False with successor
    lists, None (default) by un-moves the jobs above
    :data:`~doushouqi.jungle.ai.tablebase.solve.LOW_MEMORY_ENTRIES` entries (so it is on a cluster,
    always). ``on_level(job, level, entries decided)`` follows each level of a job solved in
    this process (not those of ``jobs > 1`` workers nor on a cluster)."""
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

    if cluster:
        _generate_on_ray(cluster, todo, family, options, out, reuse, record)
        return reports
    pool = None
    if jobs > 1:
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
            if pool is not None:
                futures = [
                    pool.submit(run_job, n, family, options, str(out), reuse, low_memory)
                    for n in pending
                ]
                for future in concurrent.futures.as_completed(futures):
                    record(future.result())
            else:
                for name in pending:
                    record(run_job(name, family, options, str(out), reuse, low_memory, on_level))
    finally:
        if pool is not None:
            pool.shutdown()
    return reports


class ClusterJobError(ValueError):
    """A job failed on the Ray cluster (the message names it and gives the remote error)."""


def _ray_task(
    name: str,
    family: str,
    options: Mapping[str, Any],
    version: str,
    signatures: list[str],
    *tables: bytes,
) -> tuple[JobReport | bytes, ...]:
    """One job as a Ray task: its smaller tables come in as file bytes (``signatures[i]`` is
    ``tables[i]``, from the object store); it returns the report, then each table's bytes."""
    if version != _version:
        raise RuntimeError(
            f"this node has doushouqi {_version}, the driver {version}: install the same "
            "version on every node (the tables name their generator)"
        )
    _single_thread()
    given = dict(zip(signatures, tables, strict=True))
    cache: dict[str, np.ndarray] = {}

    def lookup(signature: str) -> np.ndarray:
        if signature not in cache:
            if signature not in given:
                raise ValueError(f"table {signature} was not sent with job {name}")
            cache[signature] = values_of(decode_table(given[signature], signature))
        return cache[signature]

    job = parse_job(name)
    report, files = _solve(job, family, options, lookup)
    by_name = dict(files)
    return (report, *(by_name[n] for n in job.table_names()))


def _import_ray() -> Any:
    try:
        import ray  # the tablebase-cluster extra
    except ImportError:
        raise ValueError(
            "--cluster needs Ray: pip install 'doushouqi[tablebase-cluster]' (or ray)"
        ) from None
    return ray


def _why(error: BaseException) -> str:
    """A Ray error in a line: the task's own exception, else Ray's text without colours."""
    cause = getattr(error, "cause", None)
    if isinstance(cause, BaseException):
        where = f" (node {getattr(error, 'ip', '?')}, pid {getattr(error, 'pid', '?')})"
        return f"{where}: {type(cause).__name__}: {cause}"
    return ": " + re.sub(r"\x1b\[[0-9;]*m", "", str(error)).strip()


def _check_reachable(address: str) -> None:
    """ValueError unless ``HOST:PORT`` (``ray://`` allowed) takes a connection: Ray itself
    would retry an unreachable address for minutes. Other forms (``auto``) go to Ray as
    they are."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as error:
        raise ValueError(f"cannot reach the Ray cluster at {address}: {error}") from None


def _generate_on_ray(
    address: str,
    todo: list[Job],
    family: str,
    options: Mapping[str, Any],
    out: Path,
    reuse: bool,
    record: Callable[[JobReport], None],
) -> None:
    """Run the jobs as Ray tasks on the cluster at ``address``, a task per job.

    The object store carries the tables, so the nodes share nothing but the package: a task
    gets its smaller tables' bytes as arguments (those already on disk, in ``out`` or the
    search path, put there by the driver; those made in this run, the tasks' results), so Ray
    starts it once they exist, and returns its own; the driver writes each finished job's
    files into ``out`` (atomically: the run can be resumed) and reports it.
    """
    ray = _import_ray()
    values = {k: v for k, v in options.items() if k != "trapped_can_capture"}
    connected = not ray.is_initialized()
    if connected:
        _check_reachable(address)
        try:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=True)
        except (ConnectionError, RuntimeError) as error:
            raise ValueError(f"cannot reach the Ray cluster at {address}: {error}") from None
    try:
        task = ray.remote(num_cpus=1)(_ray_task)
        made: dict[str, Any] = {}  # signature -> object ref of its file bytes
        running: dict[Any, tuple[Job, list[Any]]] = {}  # report ref -> job, its table refs
        for job in todo:
            if _job_done(job, out, family, values, reuse):
                record(JobReport(job.name, job.animals, job.table_names(), resumed=True))
                continue
            needs = inputs(job)
            for signature in needs:
                if signature not in made:
                    path = _found(out, family, signature, values, reuse)
                    if path is None:
                        raise ValueError(f"table {signature} is missing (needed by {job.name})")
                    made[signature] = ray.put(path.read_bytes())
            names = job.table_names()
            refs = task.options(num_returns=1 + len(names), name=f"tablebase {job.name}").remote(
                job.name, family, dict(options), _version, needs, *(made[s] for s in needs)
            )
            made.update(zip(names, refs[1:], strict=True))
            running[refs[0]] = (job, refs[1:])
        made.clear()  # the submitted tasks hold their arguments; free each table once used
        while running:
            (ready,), _ = ray.wait(list(running), num_returns=1)
            job, table_refs = running.pop(ready)
            try:
                report = ray.get(ready)
                files = ray.get(table_refs)
            except ray.exceptions.RayError as error:
                for ref in running:
                    ray.cancel(ref)
                message = f"job {job.name} failed on the cluster{_why(error)}"
                raise ClusterJobError(message) from error
            for signature, data in zip(job.table_names(), files, strict=True):
                write_values(table_path(out, family, signature), data)
            record(report)
    finally:
        if connected:
            ray.shutdown()
