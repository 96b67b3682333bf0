"""Every example of README.md and docs/ runs as written.

* Each ```` ```python ```` block of README.md and of every page under docs/ is executed. The
  blocks of one file share a namespace, in order, like a doctest session: a later block may use
  the names an earlier one made. Each block is its own test, named by its file and first line;
  when a block's test runs in a fresh process (another xdist worker), the blocks before it run
  first, and a failure among them fails it too, naming that block.
* A block with a line ``# requires: MODULE [MODULE …]`` is skipped, with that reason, where one
  of those modules cannot be imported (sb3-contrib, for one, is no dependency of the project);
  every other block must run. Indented examples (four spaces) are shell, not Python.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```python[ \t]*\n(?P<code>.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
REQUIRES = re.compile(r"^[ \t]*#[ \t]*requires:[ \t]*(?P<modules>\S.*?)[ \t]*$", re.MULTILINE)
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
        line = text.count("\n", 0, match.start()) + 1
        blocks.append(Block(document, line, code, requires))
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


@dataclass
class Session:
    """The shared namespace of one file's blocks and how far it has run."""

    workdir: Path
    namespace: dict[str, Any] = field(default_factory=lambda: {"__name__": "__main__"})
    done: int = 0  # blocks run (or skipped) so far
    broken: str | None = None  # the first block that failed, and how


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


def execute(block: Block, session: Session) -> None:
    """Run one block in the session's namespace; tracebacks name the file and its lines."""
    source = "\n" * block.line + block.code  # line numbers as in the markdown file
    code = compile(source, str(block.document), "exec")
    with example_environment(session.workdir):
        exec(code, session.namespace)


def run_through(blocks: list[Block], index: int, session: Session) -> None:
    """Run the blocks up to and including ``blocks[index]`` that have not run yet."""
    while session.done <= index:
        block = blocks[session.done]
        session.done += 1
        if session.broken is not None:
            continue
        missing = missing_modules(block)
        if missing:
            if block is blocks[index]:
                pytest.skip(f"{block.name} requires {', '.join(missing)}, not installed here")
            continue
        try:
            execute(block, session)
        except Exception as error:
            session.broken = f"{block.name} ({type(error).__name__}: {error})"
            if block is blocks[index]:
                raise
    if session.broken is not None:
        pytest.fail(f"an earlier example of the same file failed: {session.broken}")


BLOCKS = {document: python_blocks(document) for document in DOCUMENTS}
CASES = [(block, index) for blocks in BLOCKS.values() for index, block in enumerate(blocks)]
SESSIONS: dict[Path, Session] = {}


@pytest.mark.parametrize(("block", "index"), CASES, ids=[block.name for block, _ in CASES])
def test_docs_example_runs(
    block: Block, index: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    session = SESSIONS.get(block.document)
    if session is None:
        session = SESSIONS[block.document] = Session(tmp_path_factory.mktemp("docs-examples"))
    run_through(BLOCKS[block.document], index, session)


def test_the_docs_have_examples() -> None:
    counts = {document.relative_to(ROOT).as_posix(): len(BLOCKS[document]) for document in BLOCKS}
    assert counts["README.md"] >= 2
    assert counts["docs/engine.md"] >= 1
    assert counts["docs/rl.md"] >= 5
    assert any(block.requires for block, _ in CASES), "the requires marker is used"


# The collection itself, on made-up pages: a wrong example must fail, a missing module skip.


def test_blocks_share_a_namespace_and_report_the_failing_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Text\n\n```python\nx = 40\n```\n\n```python\nassert x + 2 == 42\n```\n\n"
        "```sh\nexit 1\n```\n\n```python\n\nraise ValueError(x)\n```\n",
        encoding="utf-8",
    )
    blocks = python_blocks(page)
    assert [block.line for block in blocks] == [3, 7, 15]
    session = Session(tmp_path)
    run_through(blocks, 1, session)
    assert session.namespace["x"] == 40
    with pytest.raises(ValueError) as raised:
        run_through(blocks, 2, session)
    assert raised.traceback[-1].lineno + 1 == 17  # the markdown line of the raise
    assert str(raised.traceback[-1].path) == str(page)


def test_a_failing_block_fails_the_blocks_after_it(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```python\n1 / 0\n```\n\n```python\ny = 1\n```\n", encoding="utf-8")
    blocks = python_blocks(page)
    session = Session(tmp_path)
    with pytest.raises(pytest.fail.Exception, match=r"earlier example .*page\.md:1"):
        run_through(blocks, 1, session)


def test_a_block_whose_module_is_missing_is_skipped(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\n# requires: json no_such_module_for_docs\nraise AssertionError\n```\n\n"
        "```python\n# requires: json\nimport json\n```\n",
        encoding="utf-8",
    )
    blocks = python_blocks(page)
    assert blocks[0].requires == ("json", "no_such_module_for_docs")
    session = Session(tmp_path)
    with pytest.raises(pytest.skip.Exception, match="requires no_such_module_for_docs"):
        run_through(blocks, 0, session)
    run_through(blocks, 1, session)
    assert "json" in session.namespace


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
