"""Endgame tablebase generation (numba): retrograde analysis over compiled arrays.

Modules: :mod:`.geometry` (board and index arrays), :mod:`.kernels` (compiled index, move
generation, level-by-level solve), :mod:`.solve` (one job), :mod:`.jobs` (signatures and the
job graph), :mod:`.store` (value arrays <-> files), :mod:`.generate` (the driver, local or on
Ray), :mod:`.verify` (independent checks on the rules library). Probing needs none of this:
:mod:`doushouqi.jungle.tablebase.probe` reads the files with the standard library only.

Importing this package compiles nothing; the modules compile on first use.
"""

from __future__ import annotations
