"""Tablebase figures: probes a second and generation time per table.

    .venv/bin/python bench/tablebase.py                        # the shipped tables
    .venv/bin/python bench/tablebase.py --dir /tmp/tb --jobs ELvR ETvLP --probes 20000

Probing: ``--probes`` random positions of the tables found (``$DOUSHOUQI_TABLEBASES`` with
``--dir`` first, then the shipped ones), probed once cold (each table read, checked and
decompressed on first use) and once warm, through :func:`doushouqi.jungle.tablebase.probe.probe`
(the position's own ``outcome()`` included, as every caller pays it) and through the bare lookup.

Generation: each of ``--jobs`` (signatures such as ``ELvR``) solved again from the tables it
depends on, in memory (nothing is written), one thread; the compile time is paid once before.
Times are CPU seconds of this process (the machine may be shared), the wall time beside them.

Solve modes side by side (``--compare ELvET ELTvEL``): each job solved with the successor
lists and with the low-memory un-move solve (:mod:`doushouqi.jungle.ai.tablebase.retro`), each in a
fresh process, one after the other: wall and CPU time, the peak resident memory of the solve
(the process's peak less what it held after compiling, per entry too) and whether the two
gave the same values (sha256 of the value arrays). ``--modes low`` runs only the low-memory
one (a five-animal job does not fit the lists in 24 GiB). ``--identity 3``: every job of up
to three animals solved both ways in this process, the count of those that differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src")]

from doushouqi.jungle.rules import find_rules  # noqa: E402
from doushouqi.jungle.tablebase.file_format import SUFFIX, table_size  # noqa: E402
from doushouqi.jungle.tablebase.probe import (  # noqa: E402
    ENV_VAR,
    _lookup,
    family_of,
    load_table,
    probe,
    tablebase_directories,
)


def bench_probes(count: int, rules: str, seed: int) -> None:
    from doushouqi.jungle.ai.tablebase.verify import random_board

    family = family_of(find_rules(rules))
    names = sorted(
        {p.stem for d in tablebase_directories() for p in (d / str(family)).glob(f"*{SUFFIX}")}
    )
    if not names:
        print("no tables found")
        return
    rng = random.Random(seed)
    boards = [random_board(rng, rng.choice(names), rules) for _ in range(count)]
    for label, fn in (("probe (cold)", probe), ("probe (warm)", probe), ("lookup", _lookup)):
        started = time.process_time()
        covered = sum(fn(b) is not None for b in boards)
        seconds = max(1e-6, time.process_time() - started)
        print(
            f"{label:13} {count / seconds:10,.0f} probes/CPU-s  ({covered} of {count} covered, "
            f"{len(names)} tables)"
        )


def bench_generation(jobs: list[str], rules: str) -> None:
    import numba

    from doushouqi.jungle.ai.tablebase.generate import resolve_rules, run_job
    from doushouqi.jungle.ai.tablebase.jobs import parse_job
    from doushouqi.jungle.ai.tablebase.solve import solve_job
    from doushouqi.jungle.ai.tablebase.store import values_of
    from doushouqi.jungle.tablebase.file_format import rules_key

    numba.set_num_threads(1)
    ruleset, family = resolve_rules(rules)
    options = rules_key(ruleset)

    def lookup(signature: str):  # type: ignore[no-untyped-def]
        table = load_table(family, signature)
        if table is None:
            raise SystemExit(f"table {signature} is missing: generate the smaller tables first")
        return values_of(table)

    with tempfile.TemporaryDirectory() as scratch:  # warm up the compiled code
        run_job("RvR", family, options, scratch)
    for name in jobs:
        job = parse_job(name)
        started, cpu = time.perf_counter(), time.process_time()
        solved = solve_job(job, options, lookup)
        seconds = time.perf_counter() - started
        cpu = max(1e-6, time.process_time() - cpu)
        positions = sum(table_size(list(m) + list(o)) for m, o in job.tables())
        print(
            f"{job.name:8} {positions:>12,} positions  {seconds:7.2f} s wall  {cpu:7.2f} s CPU  "
            f"{positions / cpu / 1e6:6.2f} M positions/CPU-s  {solved[0].levels} plies"
        )


def _peak_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB


def solve_one(name: str, mode: str, rules: str) -> None:
    """One job in one mode, in this process: a line of JSON (what :func:`compare` reads)."""
    import numba
    import numpy as np

    from doushouqi.jungle.ai.tablebase.generate import resolve_rules
    from doushouqi.jungle.ai.tablebase.jobs import inputs, parse_job
    from doushouqi.jungle.ai.tablebase.solve import (
        job_entries,
        solve_job_lists,
        solve_job_low_memory,
    )
    from doushouqi.jungle.ai.tablebase.store import values_of
    from doushouqi.jungle.tablebase.file_format import rules_key

    numba.set_num_threads(1)
    ruleset, family = resolve_rules(rules)
    options = rules_key(ruleset)
    solver = solve_job_low_memory if mode == "low" else solve_job_lists

    def lookup(signature: str):  # type: ignore[no-untyped-def]
        table = load_table(family, signature)
        if table is None:
            raise SystemExit(f"table {signature} is missing: generate the smaller tables first")
        return values_of(table)

    job = parse_job(name)
    warm = parse_job("RvR")
    solver(warm, options, lookup)  # compile (or load the cache) first
    for signature in inputs(job):
        lookup(signature)  # the smaller tables' own memory counts as the baseline
    baseline = _peak_bytes()
    started, cpu = time.perf_counter(), time.process_time()
    levels: list[tuple[int, int]] = []
    solved = solver(job, options, lookup, lambda n, changed: levels.append((n, changed)))
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu
    digest = hashlib.sha256()
    for table in solved:
        digest.update(np.ascontiguousarray(table.values).tobytes())
    print(
        json.dumps(
            {
                "job": job.name,
                "mode": mode,
                "entries": job_entries(job),
                "wall": seconds,
                "cpu": cpu,
                "peak": _peak_bytes(),
                "baseline": baseline,
                "levels": solved[0].levels,
                "sha256": digest.hexdigest(),
            }
        )
    )


def compare(jobs: list[str], modes: list[str], rules: str) -> None:
    for name in jobs:
        results = []
        for mode in modes:
            run = subprocess.run(
                [sys.executable, __file__, "--solve-one", name, mode, "--rules", rules],
                capture_output=True,
                text=True,
                check=False,
            )
            if run.returncode != 0:
                print(f"{name} {mode}: failed\n{run.stderr[-2000:]}")
                continue
            r = json.loads(run.stdout.strip().splitlines()[-1])
            results.append(r)
            solve_bytes = max(0, r["peak"] - r["baseline"])
            print(
                f"{r['job']:8} {mode:5} {r['entries']:>13,} entries  {r['wall']:8.1f} s wall  "
                f"{r['cpu']:8.1f} s CPU  peak {r['peak'] / 2**20:8.0f} MiB "
                f"(solve {solve_bytes / 2**20:7.0f} MiB, {solve_bytes / r['entries']:5.1f} B/entry)"
                f"  {r['levels']} levels  sha256 {r['sha256'][:12]}",
                flush=True,
            )
        if len(results) == 2:
            same = results[0]["sha256"] == results[1]["sha256"]
            ratio = results[1]["cpu"] / max(1e-6, results[0]["cpu"])
            print(
                f"{name}: values {'identical' if same else 'DIFFERENT'}; CPU low/lists {ratio:.2f}"
            )


def identity(max_animals: int, rules: str) -> None:
    """Every job of up to ``max_animals`` animals (their smaller tables from the search path)
    solved both ways in this process: how many differ, and the time of each mode."""
    import numpy as np

    from doushouqi.jungle.ai.tablebase.generate import resolve_rules
    from doushouqi.jungle.ai.tablebase.jobs import all_jobs
    from doushouqi.jungle.ai.tablebase.solve import solve_job_lists, solve_job_low_memory
    from doushouqi.jungle.ai.tablebase.store import values_of
    from doushouqi.jungle.tablebase.file_format import rules_key

    ruleset, family = resolve_rules(rules)
    options = rules_key(ruleset)

    def lookup(signature: str):  # type: ignore[no-untyped-def]
        table = load_table(family, signature)
        if table is None:
            raise SystemExit(f"table {signature} is missing: generate the smaller tables first")
        return values_of(table)

    jobs = all_jobs(max_animals)
    solve_job_lists(jobs[0], options, lookup)  # compile both first
    solve_job_low_memory(jobs[0], options, lookup)
    spent = {"lists": 0.0, "low": 0.0}
    different = []
    for job in jobs:
        results = []
        for mode, solver in (("lists", solve_job_lists), ("low", solve_job_low_memory)):
            started = time.process_time()
            results.append(solver(job, options, lookup))
            spent[mode] += time.process_time() - started
        a, b = results
        if any(
            not np.array_equal(x.values, y.values) or x.levels != y.levels
            for x, y in zip(a, b, strict=True)
        ):
            different.append(job.name)
    print(
        f"{len(jobs)} jobs of up to {max_animals} animals: {len(different)} differ "
        f"{different[:10]}; CPU lists {spent['lists']:.1f} s, low memory {spent['low']:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", help="table folder, looked at first")
    parser.add_argument("--rules", default="wango")
    parser.add_argument("--probes", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", nargs="*", default=["LvR", "ELvR", "ERvL"])
    parser.add_argument("--compare", nargs="+", metavar="JOB", help="solve modes side by side")
    parser.add_argument("--modes", nargs="+", default=["lists", "low"], choices=["lists", "low"])
    parser.add_argument(
        "--identity", type=int, metavar="N", help="every job of up to N animals both ways"
    )
    parser.add_argument("--solve-one", nargs=2, metavar=("JOB", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.dir:
        os.environ[ENV_VAR] = os.pathsep.join([args.dir, os.environ.get(ENV_VAR, "")])
    if args.solve_one:
        solve_one(*args.solve_one, args.rules)
        return
    if args.compare:
        compare(args.compare, args.modes, args.rules)
        return
    if args.identity:
        identity(args.identity, args.rules)
        return
    bench_probes(args.probes, args.rules, args.seed)
    if args.jobs:
        bench_generation(args.jobs, args.rules)


if __name__ == "__main__":
    main()
