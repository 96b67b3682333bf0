"""Progress while numba compiles (``doushouqi.compiled.progress``) and ``doushouqi compile``:
a function compiled inside the watch is counted and reported, one already compiled is not,
other threads' compilations are not this watch's; the command compiles each game's engine
ahead and, with the cache full, says so at once."""

from __future__ import annotations

import re
import subprocess
import sys
import threading

from numba import njit

from doushouqi.cli.engines import ENGINES
from doushouqi.compiled.progress import CompileStatus, CompileWatch, protocol_report


def fresh_function():  # type: ignore[no-untyped-def]
    @njit
    def add(a: int, b: int) -> int:
        return a + b

    return add


def test_a_compilation_inside_the_watch_is_counted_and_reported() -> None:
    reports: list[tuple[CompileStatus, bool]] = []
    add = fresh_function()
    with CompileWatch(lambda status, final: reports.append((status, final)), every=0.0) as w:
        assert add(2, 3) == 5
    assert w.compiled == 1
    assert reports[-1][1] is True and reports[-1][0].compiled == 1
    assert any(status.current.endswith(".add") for status, final in reports if not final)


def test_nothing_is_reported_when_nothing_compiles() -> None:
    add = fresh_function()
    add(1, 1)  # compiled before the watch
    reports: list[tuple[CompileStatus, bool]] = []
    with CompileWatch(lambda status, final: reports.append((status, final)), every=0.0) as w:
        assert add(2, 3) == 5
    assert (w.compiled, reports) == (0, [])


def test_another_threads_compilation_is_not_counted() -> None:
    add = fresh_function()
    with CompileWatch(lambda status, final: None, every=0.0) as watch:
        other = threading.Thread(target=add, args=(1, 2))
        other.start()
        other.join()
    assert watch.compiled == 0


def test_the_protocol_lines_say_what_is_happening() -> None:
    lines: list[str] = []
    report = protocol_report(lines.append)
    report(CompileStatus(12, "doushouqi.jungle.ai.search.negamax", 6.2), False)
    report(CompileStatus(51, "", 31.0), True)
    assert lines[0].startswith("info string compiling the engine") and "12 functions" in lines[0]
    assert lines[0].endswith("now negamax")
    assert lines[1].startswith("info string engine compiled: 51 functions in 31.0 s")


def test_the_compile_command_finds_every_engine_compiled_after_the_install() -> None:
    # `make install` ran it once; the engines' code is in numba's cache now.
    done = subprocess.run(
        [sys.executable, "-m", "doushouqi", "compile"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    said = dict(line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    assert set(said) == set(ENGINES), done.stdout
    for game in ENGINES:
        assert re.fullmatch(r"(already compiled|\d+ functions compiled) \(\d+\.\d s\)", said[game])
