"""A second, independent move generator for 老虎棋, written from TIGER_RULES.md for the tests.

It shares nothing with :mod:`doushouqi.tiger` (no import of it, no tables, no position-string
reader): points are ``(file, rank)`` pairs, a position is a dict of them, a line is decided
from the definition (neighbouring points; a diagonal is the diagonal of a square whose four
corners are all points), and moves are recomputed from scratch in the plainest way. It is
slow and obvious on purpose. The perft files in ``tests/tiger/data/`` were computed with it
(``python -m tests.support.tiger_reference``), and tests/tiger/test_perft.py compares it
with the library again on every option.

Options are a plain dict with the keys of TIGER_RULES.md: ``diagonals`` ("none", "nest",
"all"), ``men``, ``tigers``, ``first``, ``men_retreat``, ``multi_jump``,
``capture_mandatory``, ``tiger_wins_below``.
"""

from __future__ import annotations

import random
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

Point = tuple[int, int]  # (file 0-8, rank 1-11)
Placement = dict[Point, str]  # "T" or "M"

FILES = "abcdefghi"

#: The named rule sets of TIGER_RULES.md section 5, written out again (not read from the
#: library's data file).
DEFAULT: dict[str, Any] = {
    "diagonals": "none",
    "men": 12,
    "tigers": 1,
    "first": "tiger",
    "men_retreat": True,
    "multi_jump": False,
    "capture_mandatory": False,
    "tiger_wins_below": 4,
}
NAMED: dict[str, dict[str, Any]] = {
    "laohuqi": DEFAULT,
    "laohuqi-18": {**DEFAULT, "men": 18},
    "laohuqi-strict": {**DEFAULT, "tiger_wins_below": 9},
    "laohuqi-south": {**DEFAULT, "tigers": 2},
}


def is_point(p: Point) -> bool:
    file, rank = p
    if 0 <= file <= 8 and 1 <= rank <= 9:
        return True
    return 3 <= file <= 5 and 10 <= rank <= 11  # the nest's upper two rows, files d-f


def in_nest(p: Point) -> bool:
    return 3 <= p[0] <= 5 and 9 <= p[1] <= 11


def name(p: Point) -> str:
    return f"{FILES[p[0]]}{p[1]}"


def is_line(a: Point, b: Point, diagonals: str) -> bool:
    """Whether a and b are neighbours joined by a line."""
    if not (is_point(a) and is_point(b)):
        return False
    df, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
    if df + dr == 1:
        return True
    if df != 1 or dr != 1 or diagonals == "none":
        return False
    low = (min(a[0], b[0]), min(a[1], b[1]))
    corners = [(low[0] + i, low[1] + j) for i in (0, 1) for j in (0, 1)]
    if not all(is_point(c) for c in corners):
        return False  # no such square
    if diagonals == "all":
        return True
    return all(in_nest(c) for c in corners)


DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


def read(text: str) -> tuple[Placement, str]:
    """Placement and side to move ("t" or "m") of a position string."""
    fields = text.split()
    rows = fields[0].split("/")
    assert len(rows) == 11, text
    placement: Placement = {}
    for index, row in enumerate(rows):
        rank = 11 - index
        files = [3, 4, 5] if rank >= 10 else list(range(9))
        column = 0
        for char in row:
            if char.isdigit():
                column += int(char)
            else:
                placement[(files[column], rank)] = char
                column += 1
        assert column == len(files), (text, rank)
    return placement, fields[1]


def write(placement: Placement, side: str, halfmove: int = 0, number: int = 1) -> str:
    rows = []
    for rank in range(11, 0, -1):
        files = [3, 4, 5] if rank >= 10 else list(range(9))
        text, empty = "", 0
        for file in files:
            piece = placement.get((file, rank))
            if piece is None:
                empty += 1
            else:
                text += (str(empty) if empty else "") + piece
                empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {side} {halfmove} {number}"


def game_over(placement: Placement, rules: dict[str, Any]) -> bool:
    """The tiger has taken enough men: nobody moves any more."""
    return sum(1 for piece in placement.values() if piece == "M") < rules["tiger_wins_below"]


def moves(placement: Placement, side: str, rules: dict[str, Any]) -> list[str]:
    """Every legal move string (any order)."""
    if game_over(placement, rules):
        return []
    diagonals = rules["diagonals"]
    found: list[str] = []
    if side == "m":
        for (f, r), piece in placement.items():
            if piece != "M":
                continue
            for df, dr in DIRECTIONS:
                to = (f + df, r + dr)
                if not is_line((f, r), to, diagonals) or to in placement:
                    continue
                if not rules["men_retreat"] and dr < 0:
                    continue
                found.append(name((f, r)) + name(to))
        return found
    steps: list[str] = []
    jumps: list[str] = []
    for start, piece in placement.items():
        if piece != "T":
            continue
        for df, dr in DIRECTIONS:
            to = (start[0] + df, start[1] + dr)
            if is_line(start, to, diagonals) and to not in placement:
                steps.append(name(start) + name(to))
        board = dict(placement)
        del board[start]  # the tiger has left its point

        def jump(at: Point, text: str, board: Placement) -> None:
            for df, dr in DIRECTIONS:
                over = (at[0] + df, at[1] + dr)
                land = (at[0] + 2 * df, at[1] + 2 * dr)
                if not (is_line(at, over, diagonals) and is_line(over, land, diagonals)):
                    continue
                if board.get(over) != "M" or land in board:
                    continue
                after = dict(board)
                del after[over]  # the man leaves at once
                jumps.append(text + name(land))
                if rules["multi_jump"]:
                    jump(land, text + name(land), after)

        jump(start, name(start), board)
    if rules["capture_mandatory"] and jumps:
        return jumps
    return steps + jumps


def parse_path(move: str) -> list[Point]:
    points, i = [], 0
    while i < len(move):
        j = i + 1
        while j < len(move) and move[j].isdigit():
            j += 1
        points.append((FILES.index(move[i]), int(move[i + 1 : j])))
        i = j
    return points


def play(placement: Placement, move: str) -> Placement:
    """The placement after a legal move."""
    path = parse_path(move)
    after = dict(placement)
    piece = after.pop(path[0])
    for a, b in pairwise(path):
        if abs(a[0] - b[0]) == 2 or abs(a[1] - b[1]) == 2:
            del after[((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)]
    after[path[-1]] = piece
    return after


def perft(placement: Placement, side: str, rules: dict[str, Any], depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    other = "m" if side == "t" else "t"
    for move in moves(placement, side, rules):
        total += perft(play(placement, move), other, rules, depth - 1)
    return total


def start(rules: dict[str, Any]) -> str:
    placement: Placement = {}
    for f in [3, 5] if rules["tigers"] == 2 else [4]:
        placement[(f, 10)] = "T"
    for f in range(9):
        placement[(f, 1)] = "M"
        if rules["men"] == 18:
            placement[(f, 2)] = "M"
    if rules["men"] == 12:
        for f in (3, 4, 5):
            placement[(f, 2)] = "M"
    return write(placement, "t" if rules["first"] == "tiger" else "m")


def random_position(rules: dict[str, Any], plies: int, seed: str) -> str:
    """The position after ``plies`` random plies from the start (a position still going on)."""
    rng = random.Random(seed)
    placement, side = read(start(rules))
    for ply in range(plies):
        legal = moves(placement, side, rules)
        if not legal:
            break
        # The tiger prefers jumps, so that the sample holds positions with men taken.
        jumps = [m for m in legal if len(play(placement, m)) < len(placement)]
        choice = rng.choice(jumps if side == "t" and jumps and ply % 3 else legal)
        placement = play(placement, choice)
        side = "m" if side == "t" else "t"
    return write(placement, side, 0, 1 + plies // 2)


# ------------------------------------------------------------------ writing the perft files

#: Hand-made positions per named set: (id, comment, position string).
HANDMADE: dict[str, list[tuple[str, str, str]]] = {
    "laohuqi": [
        (
            "jumps",
            "tiger e5 can jump d5 (to c5) and e4 (to e3); f5 and e6 are free",
            "3/3/9/9/4M4/3M1M3/3MT4/4M4/2M3M2/9/M7M t 0 12",
        ),
        (
            "nest",
            "men to move around the tiger on d10; d9 e9 f9 and e10 held",
            "3/TM1/3MMM3/4M4/9/9/9/9/9/9/MMMMM4 m 5 7",
        ),
        (
            "edge",
            "tiger a5 on the edge: it can jump a6 (to a7); c5 guards b5, a3 guards a4",
            "3/3/9/9/9/MM7/TMM6/M8/M8/9/MMMMM4 t 2 9",
        ),
        (
            "last-men",
            "four men: taking e5 leaves three, and the tiger has won",
            "3/3/8M/9/9/9/4M4/4T4/9/9/M2M5 t 0 30",
        ),
    ],
    "laohuqi-18": [
        (
            "tiger-out",
            "the tiger out on e6 before an intact wall of men",
            "3/3/9/9/9/4T4/9/MMM3MMM/MMMMMMMMM/MMM6/9 t 0 10",
        ),
        (
            "contact",
            "men to move, the tiger on e5 between d5 and f5",
            "3/3/9/9/9/9/3MTM3/MMM1M1MMM/M1MMMMM1M/9/9 m 0 11",
        ),
    ],
    "laohuqi-strict": [
        (
            "ninth-man",
            "nine men: any capture leaves eight, fewer than nine, and wins",
            "3/3/9/9/9/3MTM3/4M4/9/2MMMMM2/9/M8 t 0 12",
        ),
    ],
    "laohuqi-south": [
        (
            "side-by-side",
            "two tigers d6 and e6 side by side (a tiger never jumps a tiger)",
            "3/3/9/9/9/3TT4/3MM4/2M2M3/9/9/MMMMM4 t 0 15",
        ),
    ],
}

#: The files keep depths whose counts stay below this many leaves.
MAX_LEAVES = 400_000


def perft_file(rule_set: str) -> str:
    rules = NAMED[rule_set]
    blocks = [
        f"# 老虎棋 perft, rule set {rule_set!r} (docs/tiger.md).",
        "# Computed by the independent reference generator tests/support/tiger_reference.py",
        "# (python -m tests.support.tiger_reference), not by doushouqi.tiger; tests/tiger/",
        "# test_perft.py checks the library against these numbers.",
    ]
    positions = [("start", "the start position", start(rules))]
    positions += HANDMADE[rule_set]
    for plies in (12, 25):
        text = random_position(rules, plies, f"{rule_set}/{plies}")
        positions.append((f"random-{plies}", f"{plies} random plies from the start", text))
    for ident, comment, text in positions:
        placement, side = read(text)
        lines = ["", f"# {comment}", f"id {ident}", f"epd {text}"]
        for depth in range(1, 8):
            count = perft(placement, side, rules, depth)
            if count > MAX_LEAVES:
                break
            lines.append(f"perft {depth} {count}")
            if count == 0:
                break
        blocks += lines
    return "\n".join(blocks) + "\n"


def main() -> None:
    out = Path(__file__).parents[1] / "tiger" / "data"
    for rule_set in NAMED:
        (out / f"{rule_set}.perft").write_text(perft_file(rule_set), "utf-8")
        print(f"wrote {rule_set}.perft", file=sys.stderr)


if __name__ == "__main__":
    main()
