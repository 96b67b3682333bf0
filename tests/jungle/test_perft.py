"""Perft: leaf counts of the legal-move tree, read from ``data/*.perft`` files.

The files use python-chess's ``.perft`` format: blocks of ``id <name>``, ``epd <position
string>`` and ``perft <depth> <count>`` lines separated by blank lines; ``#`` starts a comment
line. The rule set is the file name (``classic-dog.perft`` → ``classic-dog``).
``international.perft`` holds the published numbers of docs/rules.md section 6; the other files are
regression numbers recorded from this library, which a small independent move generator at the
end of this file re-checks at shallow depths.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.perft import parse_perft, read_perft_file

from doushouqi.jungle.board import Board
from doushouqi.jungle.rules import Ranks, find_rules

DATA = Path(__file__).parent / "data"
PERFT_FILES = sorted(DATA.glob("*.perft"))

#: Counts up to this many leaves run in the normal test run; larger ones are marked slow.
FAST_LEAVES = 300_000
#: The published international numbers are the real check of the move generator, so they run
#: in the normal run up to start-position depth 5 (5,111,620 leaves, about 2-3 s).
FAST_LEAVES_PUBLISHED = 6_000_000


def _perft_cases() -> list[object]:
    cases: list[object] = []
    for path in PERFT_FILES:
        rules = path.stem
        limit = FAST_LEAVES_PUBLISHED if rules == "international" else FAST_LEAVES
        for position in read_perft_file(path):
            for depth, count in position.counts:
                marks = [pytest.mark.slow] if count > limit else []
                cases.append(
                    pytest.param(
                        rules,
                        position.epd,
                        depth,
                        count,
                        marks=marks,
                        id=f"{rules}-{position.id}-{depth}",
                    )
                )
    return cases


@pytest.mark.parametrize(("rules", "epd", "depth", "count"), _perft_cases())
def test_perft(rules: str, epd: str, depth: int, count: int) -> None:
    board = Board(epd, rules)
    assert board.perft(depth) == count
    assert board.fen().split()[:2] == epd.split()[:2]  # perft leaves the board as it was
    assert board.ply() == 0


def test_perft_files_are_complete() -> None:
    names = {path.stem for path in PERFT_FILES}
    assert {"international", "wango", "classic", "classic-dog"} <= names
    international = {p.id: dict(p.counts) for p in read_perft_file(DATA / "international.perft")}
    assert international["start"] == {1: 24, 2: 576, 3: 12240, 4: 260099, 5: 5111620, 6: 100453636}
    assert international["middlegame"] == {1: 20, 2: 303, 3: 6245, 4: 102800, 5: 2138872}
    recorded = {
        name: read_perft_file(DATA / f"{name}.perft")
        for name in ("wango", "classic", "classic-dog")
    }
    for name, positions in recorded.items():
        assert len(positions) >= 6, name
        assert len({p.id for p in positions}) == len(positions), name
        for position in positions:
            depths = [depth for depth, _ in position.counts]
            assert depths == list(range(1, len(depths) + 1)), (name, position.id)
    # The rule sets differ on these positions, so the files test the options, not just moves.
    counts = {name: {p.id: p.counts for p in positions} for name, positions in recorded.items()}
    differing = {pid for pid in counts["wango"] if counts["wango"][pid] != counts["classic"][pid]}
    assert len(differing) >= 3
    assert any(counts["classic"][pid] != counts["classic-dog"][pid] for pid in counts["classic"])


def test_parse_perft_skips_comments_and_reports_bad_lines() -> None:
    text = """# a comment
id one
# another comment
epd 7/7/7/7/7/7/7/7/3L3 w
perft 1 3

id two
epd l6/7/7/7/7/7/7/7/7 b
perft 1 2
perft 2 0
"""
    positions = parse_perft(text)
    assert [p.id for p in positions] == ["one", "two"]
    assert positions[1].counts == ((1, 2), (2, 0))
    with pytest.raises(ValueError, match="'perft' line before the first id line"):
        parse_perft("perft 1 2\n")
    with pytest.raises(ValueError, match="expected 'perft"):
        parse_perft("id x\nepd 7/7/7/7/7/7/7/7/7 w\nperft one 2\n")
    with pytest.raises(ValueError, match="no epd"):
        parse_perft("id x\nperft 1 2\n")


# Positions in which the game is already over on the board: no legal moves, perft 0.
GAME_OVER = [
    pytest.param("3L3/7/7/7/7/7/7/7/4t2 b", id="red-in-blue-den-blue-to-move"),
    pytest.param("3L3/7/7/7/7/7/7/7/4t2 w", id="red-in-blue-den-red-to-move"),
    pytest.param("l5t/5c1/r1p1w1e/7/7/7/E1W1P1R/1C5/T2d2L w", id="blue-dog-in-red-den"),
    pytest.param("7/7/7/7/7/7/7/7/T5L w", id="blue-has-no-animals"),
    pytest.param("7/7/7/7/7/7/7/7/T5L b", id="blue-has-no-animals-blue-to-move"),
    pytest.param("l5t/7/7/7/7/7/7/7/7 b", id="red-has-no-animals"),
    pytest.param("7/7/7/7/7/7/7/7/7 w", id="empty-board"),
]


@pytest.mark.parametrize("epd", GAME_OVER)
@pytest.mark.parametrize("rules", ["wango", "classic", "classic-dog", "international"])
def test_perft_is_zero_when_the_game_is_over(epd: str, rules: str) -> None:
    board = Board(epd, rules)
    assert board.is_game_over_on_board()
    for depth in (1, 2, 3):
        assert board.perft(depth) == 0
    assert board.perft(0) == 1


def test_den_entry_ends_the_branch() -> None:
    # Red's leopard on c9 can enter Blue's den d9; that branch has no replies.
    board = Board("2P4/7/7/7/7/7/7/7/t6 w", "wango")
    assert board.perft(1) == 3  # c9-d9 (den), c9-b9, c9-c8
    replies = {str(m): 0 for m in board.legal_moves}
    for move in board.legal_moves:
        board.push(move)
        replies[str(move)] = board.perft(1)
        board.pop()
    assert replies["c9d9"] == 0
    assert board.perft(2) == sum(replies.values())


def _turned(epd: str) -> str:
    """The position turned by 180° with the colours (and the side to move) swapped."""
    placement, side, *rest = epd.split()
    rows = "/".join(row[::-1] for row in reversed(placement.split("/"))).swapcase()
    return " ".join([rows, "w" if side == "b" else "b", *rest])


def _mirrored(epd: str) -> str:
    """The position mirrored left to right (files a and g swapped): the board is symmetric."""
    placement, *rest = epd.split()
    return " ".join(["/".join(row[::-1] for row in placement.split("/")), *rest])


def _shallow_cases() -> list[object]:
    """Every recorded count at depth <= 3 (cheap enough for slower checks)."""
    cases: list[object] = []
    for path in PERFT_FILES:
        for position in read_perft_file(path):
            for depth, count in position.counts:
                if depth <= 3:
                    cases.append(
                        pytest.param(
                            path.stem,
                            position.epd,
                            depth,
                            count,
                            id=f"{path.stem}-{position.id}-{depth}",
                        )
                    )
    return cases


@pytest.mark.parametrize(("rules", "epd", "depth", "count"), _shallow_cases())
def test_turned_and_mirrored_positions_have_the_same_counts(
    rules: str, epd: str, depth: int, count: int
) -> None:
    for transformed in (_turned(epd), _mirrored(epd), _mirrored(_turned(epd))):
        assert Board(transformed, rules).perft(depth) == count, transformed


# ------------------------------------------------------------- independent cross-check

# A deliberately naive move generator written straight from docs/rules.md sections 3-4, sharing
# no code with the library, for re-checking the recorded (non-published) numbers.
_WATER = {(c, r) for c in (1, 2, 4, 5) for r in (3, 4, 5)}  # (column, row), 0-based
_DEN = ((3, 0), (3, 8))
_TRAPS = ({(2, 0), (4, 0), (3, 1)}, {(2, 8), (4, 8), (3, 7)})
_LETTERS = "RCDWPTLE"
_RAT, _DOG, _WOLF, _TIGER, _LION, _ELEPHANT = 1, 3, 4, 6, 7, 8

Square = tuple[int, int]
Position = dict[Square, tuple[int, int]]  # square -> (colour, animal)


def _reference_parse(epd: str) -> tuple[Position, int]:
    placement, side = epd.split()[:2]
    position: Position = {}
    for index, row in enumerate(placement.split("/")):
        column = 0
        for char in row:
            if char.isdigit():
                column += int(char)
            else:
                color = 0 if char.isupper() else 1
                position[(column, 8 - index)] = (color, _LETTERS.index(char.upper()) + 1)
                column += 1
    return position, (1 if side == "b" else 0)


def _reference_may_capture(
    position: Position,
    frm: Square,
    to: Square,
    opts: dict[str, bool],
) -> bool:
    color, animal = position[frm]
    defender = position[to][1]
    if frm in _TRAPS[1 - color] and not opts["trapped_can_capture"]:
        return False
    from_water, to_water = frm in _WATER, to in _WATER
    if animal == _RAT and defender == _RAT:
        return from_water == to_water or opts["rat_across"]
    if animal == _RAT and from_water:
        return False  # a rat in the water takes nothing on land but a rat (above)
    if to in _TRAPS[color]:
        return True  # the defender stands in the attacker's trap: rank 0
    if animal == _ELEPHANT and defender == _RAT:
        return False
    if animal == _RAT and defender == _ELEPHANT:
        return True

    def rank(a: int) -> int:
        return {_DOG: _WOLF, _WOLF: _DOG}.get(a, a) if opts["dog_over_wolf"] else a

    return rank(animal) >= rank(defender)


def _reference_moves(
    position: Position,
    turn: int,
    opts: dict[str, bool],
) -> list[tuple[Square, Square]]:
    colors = {color for color, _ in position.values()}
    entered = any(position.get(_DEN[c], (c, 0))[0] != c for c in (0, 1))
    if len(colors) < 2 or entered:
        return []
    moves = []
    for frm, (color, animal) in position.items():
        if color != turn:
            continue
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c, r = frm[0] + dc, frm[1] + dr
            if not (0 <= c < 7 and 0 <= r < 9):
                continue
            if (c, r) in _WATER and animal != _RAT:
                if animal not in (_LION, _TIGER):
                    continue
                blocked = False
                while (c, r) in _WATER:
                    rat = position.get((c, r))
                    if rat is not None and (rat[0] != color or opts["own_rat_blocks"]):
                        blocked = True
                    c, r = c + dc, r + dr
                if blocked:
                    continue
            to = (c, r)
            if to == _DEN[color]:
                continue
            if to in position and (
                position[to][0] == color or not _reference_may_capture(position, frm, to, opts)
            ):
                continue
            moves.append((frm, to))
    return moves


def _reference_perft(position: Position, turn: int, depth: int, opts: dict[str, bool]) -> int:
    moves = _reference_moves(position, turn, opts)
    if depth == 1:
        return len(moves)
    total = 0
    for frm, to in moves:
        child = dict(position)
        child[to] = child.pop(frm)
        total += _reference_perft(child, 1 - turn, depth - 1, opts)
    return total


@pytest.mark.parametrize(("rules", "epd", "depth", "count"), _shallow_cases())
def test_recorded_counts_agree_with_a_naive_generator(
    rules: str, epd: str, depth: int, count: int
) -> None:
    ruleset = find_rules(rules)
    opts = {
        "dog_over_wolf": ruleset.ranks is Ranks.DOG_OVER_WOLF,
        "own_rat_blocks": ruleset.own_rat_blocks_jump,
        "rat_across": ruleset.rat_captures_across_water,
        "trapped_can_capture": ruleset.trapped_can_capture,
    }
    position, turn = _reference_parse(epd)
    assert _reference_perft(position, turn, depth, opts) == count
