"""The domain core stays pure: no web framework, database, asyncio or engine imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import doushouqi.server.domain as domain

FORBIDDEN = ("asyncio", "fastapi", "starlette", "sqlalchemy", "pydantic", "numpy", "numba")
DOMAIN_DIR = Path(domain.__file__).parent


def test_no_forbidden_import_in_the_sources() -> None:
    for path in sorted(DOMAIN_DIR.glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top not in FORBIDDEN, f"{path.name} imports {name}"
                assert not name.startswith(("doushouqi.jungle.ai", "doushouqi.jungle.tui")), (
                    path.name
                )


def test_importing_the_domain_loads_none_of_them() -> None:
    code = (
        "import sys, doushouqi.server.domain\n"
        f"print([m for m in {FORBIDDEN!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
