"""Every example of README.md and docs/ runs as written, on its own.

* Each ```` ```python ```` block of README.md and of every page under docs/ is executed alone,
  in a fresh namespace and a scratch folder: a reader copies one block, not the page, so each
  block makes its own imports. Each block is its own test, named by its file and first line.
* A block with a line ``# requires: MODULE [MODULE …]`` is skipped, with that reason, where one
  of those modules cannot be imported (sb3-contrib, for one, is no dependency of the project).
* A block that cannot run here at all (it needs a running server, say) says so on a line
  ``# not run: REASON``: it is still compiled (no syntax errors), and such blocks are counted
  (:data:`MOST_NOT_RUN`, so that they stay the exception). Every other block must run. Indented
  examples (four spaces) are shell, not Python.
* The README's ``doushouqi …`` command lines whose comment is one word (a number: ``# 5111620``)
  state the command's exact output, and are run and checked; the long-running commands (serve,
  play, engine, worker, match) are not.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```python[ \t]*\n(?P<code>.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
REQUIRES = re.compile(r"^[ \t]*#[ \t]*requires:[ \t]*(?P<modules>\S.*?)[ \t]*$", re.MULTILINE)
NOT_RUN = re.compile(r"^[ \t]*#[ \t]*not run:[ \t]*(?P<reason>.*?)[ \t]*$", re.MULTILINE)
#: The most blocks the docs may mark ``# not run``: raise it only for a block that truly
#: cannot run in the test suite (today none needs to).
MOST_NOT_RUN = 0
#: An indented README command line: ``    doushouqi ARGS   # COMMENT``.
COMMAND = re.compile(r"^    (?P<command>doushouqi\s[^#\n]*?)\s*#\s*(?P<comment>[^\n]*?)\s*$", re.M)
#: Commands that serve, play or wait for input: never run here.
LONG_RUNNING = {"serve", "play", "engine", "worker", "match"}


@dataclass(frozen=True)
class Block:
    """One python block of a markdown file."""

    document: Path
    line: int  # of the opening fence
    code: str
    requires: tuple[str, ...]
    #: Why the block is not run (its ``# not run:`` line), or None: it runs.
    not_run: str | None = None

    @property
    def name(self) -> str:
        where = self.document.relative_to(ROOT) if self.document.is_relative_to(ROOT) else None
        return f"{(where or self.document).as_posix()}:{self.line}"


def python_blocks(document: Path) -> list[Block]:
    """The python blocks of a markdown file, in order, with the modules each requires."""
    text = document.read_text(encoding="utf-8")
    blocks = []
    for match in BLOCK.finditer(text):
        code = match.group("code")
        requires = tuple(
            module for marker in REQUIRES.finditer(code) for module in marker["modules"].split()
        )
        not_run = NOT_RUN.search(code)
        line = text.count("\n", 0, match.start()) + 1
        blocks.append(Block(document, line, code, requires, not_run and not_run["reason"]))
    return blocks


def missing_modules(block: Block) -> list[str]:
    """The modules the block requires that cannot be imported here."""
    missing = []
    for module in block.requires:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    return missing


@contextlib.contextmanager
def example_environment(workdir: Path) -> Iterator[None]:
    """Run in a scratch folder, with this environment's ``doushouqi`` first on the PATH."""
    old_cwd, old_path = Path.cwd(), os.environ.get("PATH", "")
    os.chdir(workdir)
    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), old_path])
    try:
        yield
    finally:
        os.chdir(old_cwd)
        os.environ["PATH"] = old_path


def compiled(block: Block) -> object:
    """The block's code object; tracebacks and syntax errors name the markdown file's lines."""
    source = "\n" * block.line + block.code
    return compile(source, str(block.document), "exec")


def run_alone(block: Block, workdir: Path) -> None:
    """Run one block by itself, in a fresh namespace, as a reader who copied it would."""
    code = compiled(block)
    if block.not_run is not None:
        return
    missing = missing_modules(block)
    if missing:
        pytest.skip(f"{block.name} requires {', '.join(missing)}, not installed here")
    with example_environment(workdir):
        exec(code, {"__name__": "__main__"})


BLOCKS = {document: python_blocks(document) for document in DOCUMENTS}
CASES = [block for blocks in BLOCKS.values() for block in blocks]


@pytest.mark.parametrize("block", CASES, ids=[block.name for block in CASES])
def test_docs_example_runs_on_its_own(block: Block, tmp_path: Path) -> None:
    run_alone(block, tmp_path)


def test_the_docs_have_examples() -> None:
    counts = {document.relative_to(ROOT).as_posix(): len(BLOCKS[document]) for document in BLOCKS}
    assert counts["README.md"] >= 2
    assert counts["docs/engine.md"] >= 1
    assert counts["docs/rules.md"] >= 10
    assert counts["docs/rl.md"] >= 5
    assert any(block.requires for block in CASES), "the requires marker is used"


def test_blocks_not_run_are_counted_and_say_why() -> None:
    not_run = [block for block in CASES if block.not_run is not None]
    assert all(block.not_run for block in not_run), "a # not run: line names its reason"
    assert len(not_run) <= MOST_NOT_RUN, [f"{b.name}: {b.not_run}" for b in not_run]


# The collection itself, on made-up pages: a wrong example must fail, a missing module skip.


def test_a_block_runs_alone_and_reports_the_failing_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Text\n\n```python\nx = 40\n```\n\n```python\nassert x + 2 == 42\n```\n\n"
        "```sh\nexit 1\n```\n\n```python\n\nraise ValueError(1)\n```\n",
        encoding="utf-8",
    )
    blocks = python_blocks(page)
    assert [block.line for block in blocks] == [3, 7, 15]
    run_alone(blocks[0], tmp_path)
    with pytest.raises(NameError, match="'x'"):  # the first block's names are not there
        run_alone(blocks[1], tmp_path)
    with pytest.raises(ValueError) as raised:
        run_alone(blocks[2], tmp_path)
    assert raised.traceback[-1].lineno + 1 == 17  # the markdown line of the raise
    assert str(raised.traceback[-1].path) == str(page)


def test_a_block_whose_module_is_missing_is_skipped(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\n# requires: json no_such_module_for_docs\nraise AssertionError\n```\n\n"
        "```python\n# requires: json\nimport json\n```\n",
        encoding="utf-8",
    )
    blocks = python_blocks(page)
    assert blocks[0].requires == ("json", "no_such_module_for_docs")
    with pytest.raises(pytest.skip.Exception, match="requires no_such_module_for_docs"):
        run_alone(blocks[0], tmp_path)
    run_alone(blocks[1], tmp_path)


def test_a_block_not_run_is_still_compiled(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\n# not run: needs a server\nraise AssertionError\n```\n\n"
        "```python\n# not run: broken\nif True print(1)\n```\n",
        encoding="utf-8",
    )
    blocks = python_blocks(page)
    assert [block.not_run for block in blocks] == ["needs a server", "broken"]
    run_alone(blocks[0], tmp_path)
    with pytest.raises(SyntaxError):
        run_alone(blocks[1], tmp_path)


# The README's command lines with their output.


def readme_commands() -> list[tuple[str, str]]:
    """(command, expected output) for each README command line whose comment is one word."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for match in COMMAND.finditer(text):
        command, comment = match["command"], match["comment"]
        if " " in comment or shlex.split(command)[1] in LONG_RUNNING:
            continue
        commands.append((command, comment))
    return commands


COMMANDS = readme_commands()


def test_the_readme_has_commands_with_outputs() -> None:
    assert ("doushouqi perft startpos 5 --rules international", "5111620") in COMMANDS


@pytest.mark.parametrize(("command", "output"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_readme_command_prints_its_output(command: str, output: str, tmp_path: Path) -> None:
    program, *arguments = shlex.split(command)
    executable = Path(sys.executable).parent / program
    assert executable.exists(), f"{program} is not installed in this environment"
    done = subprocess.run(
        [str(executable), *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == output
