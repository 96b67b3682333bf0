"""The production opponent: a thin adapter over the engine's in-process API.

The engine package provides ``doushouqi.jungle.ai.best_move(board, *, level, movetime) -> Move``.
It is
imported on first use (it brings numpy and numba), so a hot-seat game starts at once and only a
``hint`` pays for loading it. When it cannot be imported, :func:`load_best_move` says why and the
game falls back to two players on one screen: there is no stand-in AI.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from doushouqi.jungle.board import Board, Move

__all__ = ["BestMove", "EngineOpponent", "EngineUnavailableError", "load_best_move"]


class BestMove(Protocol):
    """The signature of ``doushouqi.jungle.ai.best_move``."""

    def __call__(self, board: Board, *, level: int, movetime: float | None) -> Move: ...


class EngineUnavailableError(RuntimeError):
    """The engine package cannot be imported (not installed, or no ``best_move`` yet)."""


def load_best_move() -> BestMove:
    """``doushouqi.jungle.ai.best_move``, or EngineUnavailableError saying why it cannot be had."""
    try:
        module = importlib.import_module("doushouqi.jungle.ai")
        # doushouqi.jungle.ai loads its names on first use: numpy or numba missing shows up here.
        best_move = getattr(module, "best_move", None)
    except ImportError as exc:
        raise EngineUnavailableError(
            f"cannot import doushouqi.jungle.ai: {exc} (the engine needs the 'ai' extra: "
            "pip install 'doushouqi[ai]')"
        ) from exc
    if not callable(best_move):
        raise EngineUnavailableError("doushouqi.jungle.ai has no best_move")
    function: BestMove = best_move
    return function


class EngineOpponent:
    """The engine as an opponent: ``choose_move(board)`` at the current level and move time."""

    def __init__(
        self, level: int = 3, movetime: float | None = None, best_move: BestMove | None = None
    ) -> None:
        self.level = level
        self.movetime = movetime
        self._best_move = best_move
        #: Moves asked for so far (the first also compiles the engine: it takes longer).
        self.calls = 0

    @classmethod
    def load(cls, level: int = 3, movetime: float | None = None) -> EngineOpponent:
        """An opponent with the engine loaded now; EngineUnavailableError when it cannot be."""
        return cls(level, movetime, load_best_move())

    def choose_move(self, board: Board) -> Move:
        if self._best_move is None:
            self._best_move = load_best_move()
        self.calls += 1
        # The engine gets a copy: whatever it does to the board, the game's own stays intact.
        return self._best_move(board.copy(), level=self.level, movetime=self.movetime)
