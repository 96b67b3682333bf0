"""``import doushouqi``: a clean public namespace, and no module loaded that only drawing or
the network needs (a library user pays for what they use; bench/import_time.py times it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import doushouqi

ROOT = Path(__file__).resolve().parents[1]

#: Modules ``import doushouqi`` must not load: ``urllib.request`` came in through the board's
#: SVG drawing (``xml.sax.saxutils``), and ``importlib.resources`` (with tempfile and zipfile)
#: through reading the rule sets' data file; together they were a third of the import time.
HEAVY = ("urllib", "xml", "email", "http", "importlib.resources", "tempfile", "zipfile")


def modules_after_import() -> list[str]:
    """The modules a fresh interpreter holds after ``import doushouqi``."""
    code = "import sys, json, doushouqi; print(json.dumps(sorted(sys.modules)))"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_the_namespace_holds_no_future_import() -> None:
    assert "annotations" not in dir(doushouqi)
    assert not hasattr(doushouqi, "annotations")


def test_every_public_name_is_there() -> None:
    missing = [name for name in doushouqi.__all__ if not hasattr(doushouqi, name)]
    assert missing == []


def test_import_loads_neither_urllib_nor_the_drawing_code() -> None:
    loaded = modules_after_import()
    heavy = [m for m in loaded if any(m == h or m.startswith(f"{h}.") for h in HEAVY)]
    assert heavy == []
    assert "doushouqi.jungle.svg" not in loaded and "doushouqi.tiger.svg" not in loaded
    # The games are registered all the same (doushouqi.games runs with the package).
    assert "doushouqi.games" in loaded


def test_a_board_still_draws_itself() -> None:
    svg = doushouqi.Board()._repr_svg_()
    assert svg.startswith("<svg") and "</svg>" in svg
