"""Import a module of a tools folder by its path: ``load_tool("tactics", "solver")`` runs
tools/tactics/solver.py once, as module ``doushouqi_tactics_solver``.

The tools folders hold scripts, not packages (two of them have a ``generate.py``, and a
``tools`` package would clash with the test package tests/tools), so the scripts and their
tests import each other through this one helper. Put tools/ on ``sys.path`` first::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # from tools/<folder>/
    from load_tool import load_tool
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parent


def load_tool(folder: str, name: str) -> ModuleType:
    """The module tools/<folder>/<name>.py, imported on the first call, the same one after."""
    module_name = f"doushouqi_{folder}_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    path = TOOLS / folder / f"{name}.py"
    if not path.is_file():
        raise ImportError(f"no tool module {path}")
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # before running it: dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module
