"""What both engines' MultiPV searches must report: at every depth the lines numbered 1 … N,
best score first, and the move played the deepest depth's first line."""

from __future__ import annotations

from typing import Any


def assert_lines_best_first(infos: list[Any], move: object, depth: int, lines: int) -> None:
    """``infos`` (a search's ``on_info`` calls, to ``depth`` with ``lines`` lines) and its
    ``move`` as the module's docstring says."""
    by_depth: dict[int, list[Any]] = {}
    for info in infos:
        if "multipv" in info:
            by_depth.setdefault(info["depth"], []).append(info)
    assert sorted(by_depth) == list(range(1, depth + 1))
    for at, sent in by_depth.items():
        assert [line["multipv"] for line in sent] == list(range(1, lines + 1)), at
        scores = [line["score"] for line in sent]
        assert scores == sorted(scores, reverse=True), (at, [str(s) for s in scores])
    assert [move] == by_depth[depth][0]["pv"][:1]
