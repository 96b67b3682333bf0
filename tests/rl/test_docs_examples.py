"""Every python code block of docs/rl.md runs as written.

A block whose first line is ``# requires: MODULE [MODULE …]`` is skipped, with that reason,
where one of those modules is not installed (sb3-contrib, for one, is no dependency of the
project); every other block must run.
"""

from __future__ import annotations

import importlib.util
import re
import runpy
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)
REQUIRES = re.compile(r"#\s*requires:\s*(.+)")


def python_blocks() -> list[tuple[int, str]]:
    """Each python block of the page with the line it starts on."""
    text = DOC.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start()) + 1, match.group(1)) for match in BLOCK.finditer(text)
    ]


BLOCKS = python_blocks()


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"line {line}" for line, _ in BLOCKS])
def test_docs_example_runs(line: int, code: str, tmp_path: Path) -> None:
    first = code.splitlines()[0]
    required = REQUIRES.match(first)
    if required:
        for module in required.group(1).split():
            if importlib.util.find_spec(module) is None:
                pytest.skip(f"docs/rl.md line {line} needs {module}, which is not installed")
    script = tmp_path / f"rl_md_line_{line}.py"
    script.write_text(code, encoding="utf-8")
    runpy.run_path(str(script), run_name="__main__")
