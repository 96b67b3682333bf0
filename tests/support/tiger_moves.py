"""老虎棋 games that end, for the site's tests (server and browser): move strings from the
start of ``laohuqi``."""

from __future__ import annotations

# The men hem the tiger in on d11 (tiger_trapped, the men win): the tiger shuttles between d10
# and d11 while four men walk up to d9, e10, e11 and f11, and the last steps to d10.
_TRAP = """
    e10d10 a1a2 d10d11 f2f3 d11d10 f3f4 d10d11 f4f5 d11d10 f5f6 d10d11 f6f7 d11d10 f7f8
    d10d11 f8f9 d11d10 f9f10 d10d11 f10f11 d11d10 e2e3 d10d11 e3e4 d11d10 e4e5 d10d11 e5e6
    d11d10 e6e7 d10d11 e7e8 d11d10 e8e9 d10d11 e9e10 d11d10 e10e11 d10d11 d2d3 d11d10 d3d4
    d10d11 d4d5 d11d10 d5d6 d10d11 d6d7 d11d10 d7d8 d10d11 d8d9 d11d10 e1e2 d10d11 e2e3
    d11d10 e3e4 d10d11 e4e5 d11d10 e5e6 d10d11 e6e7 d11d10 e7e8 d10d11 e8e9 d11d10 e9e10
    d10d11 e10d10
"""
TRAP = _TRAP.split()

# The tiger comes down the e-file and jumps the man on e5 (e6e4): under ONE_CAPTURE_WINS
# (``tiger_wins_below`` 12) that capture wins (men_captured).
_CAPTURE = "e10e9 e2e3 e9e8 e3e4 e8e7 e4e5 e7e6 a1a2 e6e4"
CAPTURE = _CAPTURE.split()
ONE_CAPTURE_WINS = {"parent": "laohuqi", "tiger_wins_below": 12}
