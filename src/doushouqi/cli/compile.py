"""``doushouqi compile``: compile every game's engine ahead of its first start.

An engine's machine code is compiled by numba on first use and kept in numba's cache; without
it, the first ``doushouqi engine``, the first hint or the first game against the computer waits
tens of seconds on a small machine. ``make install`` (and so ``make run``) runs this once; a
later run finds the cache and ends in about a second. The engines compile side by side, one
process each, each saying how far it has got every few seconds.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import os
import sys
import time

from doushouqi.cli.engines import ENGINES, load
from doushouqi.cli.extras import Subcommands, require

__all__ = ["add_compile", "compile_game"]


def compile_game(game: str) -> tuple[str, int, float]:
    """Compile ``game``'s engine in this process, printing progress lines; (game, functions
    compiled: 0 when all came from the cache, seconds)."""
    from doushouqi.compiled.progress import CompileStatus, CompileWatch

    def report(status: CompileStatus, final: bool) -> None:
        if not final:
            doing = f" ({status.current.rpartition('.')[2]})" if status.current else ""
            print(
                f"{game}: compiling, {status.compiled} functions in {status.elapsed:.0f} s{doing}",
                flush=True,
            )

    started = time.monotonic()
    with CompileWatch(report, every=5.0) as watch:
        load(ENGINES[game].compile)()
    return game, watch.compiled, time.monotonic() - started


def add_compile(sub: Subcommands) -> None:
    p = sub.add_parser(
        "compile",
        help="compile the engines ahead of their first start (numba's cache)",
        description="Compile each game's engine into numba's cache, so that its first start, "
        "hint or game against the computer does not wait for it. Quick when already done.",
    )
    p.add_argument(
        "--game",
        action="append",
        choices=sorted(ENGINES),
        help="only this game's engine (repeatable; default: every game's)",
    )

    def run(args: argparse.Namespace) -> int:
        require("compile", "numba")
        games = args.game or list(ENGINES)
        workers = max(1, min(len(games), os.cpu_count() or 1))
        began = time.monotonic()
        # Processes, not threads: numba compiles under one lock per process.
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
            for game, compiled, seconds in pool.map(compile_game, games):
                done = f"{compiled} functions compiled" if compiled else "already compiled"
                print(f"{game}: {done} ({seconds:.1f} s)", flush=True)
        print(f"engines ready in {time.monotonic() - began:.1f} s", file=sys.stderr)
        return 0

    p.set_defaults(func=run)
