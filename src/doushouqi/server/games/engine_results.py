"""An engine's results in the site's plain form, for every game's computer player.

Both games' engines answer alike (a ``PlayResult`` with its move and info; infos with a
:class:`~doushouqi.core.analysis.Score`, a depth and a line of moves), so what the AI service
sends on is built here once; each game's entry (``jungle.py``, ``tiger.py``) only calls its
engine and says how its engine names a decided game (``den``: Jungle's den entry, ``win``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["fixed_line", "lines", "move_and_nodes", "score_data"]


def score_data(score: Any, decided: str) -> dict[str, int] | None:
    """``{"cp": n}``, or ``{decided: n}`` for a decided game (the side to move wins in n of
    its moves; n < 0: loses after -n); None for no score.

    >>> from doushouqi.core.analysis import Score
    >>> score_data(Score(cp=35), "win"), score_data(Score(mate=-2), "den")
    ({'cp': 35}, {'den': -2})
    """
    if score is None:
        return None
    return {decided: score.moves} if score.is_mate() else {"cp": score.cp}


def move_and_nodes(result: Any) -> tuple[str | None, int]:
    """A search's move (None: the game is over) and the nodes it searched."""
    move = None if result.move is None else str(result.move)
    return move, int(result.info.get("nodes", 0))


def lines(infos: Iterable[Any], decided: str) -> list[dict[str, Any]]:
    """Lines (infos), best first, as the AI service sends them: ``score`` (the side to move's
    view, or None), ``depth`` and ``pv`` (moves as text)."""
    return [
        {
            "score": score_data(info.get("score"), decided),
            "depth": info.get("depth", 0),
            "pv": [str(m) for m in info.get("pv", [])],
        }
        for info in infos
    ]


def fixed_line(result: Any, decided: str) -> dict[str, Any]:
    """A search within a fixed budget: its best line as :func:`lines` gives one (no score and
    no line when the game is over), and the nodes searched."""
    info = result.info
    over = result.move is None
    return {
        "score": None if over else score_data(info.get("score"), decided),
        "depth": info.get("depth", 0),
        "pv": [] if over else [str(m) for m in info.get("pv", [])],
        "nodes": int(info.get("nodes", 0)),
    }
