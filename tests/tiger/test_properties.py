"""Property tests (Hypothesis): position strings and move strings read back as written,
push/pop restores everything, the hash follows the position, and the reason a move is illegal
is given exactly for the moves the generator leaves out."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import tiger_reference as ref

from doushouqi.tiger.board import Board
from doushouqi.tiger.fen import EMPTY, MAN, TIGER, parse_position
from doushouqi.tiger.moves import MAX_MOVE_POINTS, Move
from doushouqi.tiger.points import NUM_POINTS, parse_point
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, Diagonals, RuleSet, rules_from_mapping

POINT_LIST = [(f, r) for r in range(1, 10) for f in range(9)] + [
    (f, r) for r in (10, 11) for f in (3, 4, 5)
]

rule_sets = st.builds(
    lambda name, extra: rules_from_mapping("random", {"parent": name, **extra}),
    st.sampled_from(sorted(BUILTIN_RULE_SETS)),
    st.fixed_dictionaries(
        {},
        optional={
            "diagonals": st.sampled_from([d.value for d in Diagonals]),
            "men_retreat": st.booleans(),
            "multi_jump": st.booleans(),
            "capture_mandatory": st.booleans(),
            "first": st.sampled_from(["tiger", "men"]),
            "max_rounds": st.integers(0, 30),
        },
    ),
)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A random placement that fits a random rule set (a position string from the reference)."""
    rules: RuleSet = draw(rule_sets)
    points = draw(st.permutations(POINT_LIST))
    men = draw(st.integers(0, rules.men))
    placement = {p: "T" for p in points[: rules.tigers]}
    placement |= {p: "M" for p in points[rules.tigers : rules.tigers + men]}
    side = draw(st.sampled_from("tm"))
    text = ref.write(placement, side, draw(st.integers(0, 9999)), draw(st.integers(1, 9999)))
    return Board(text, rules)


@st.composite
def played(draw: st.DrawFn) -> Board:
    """A board after random legal plies from a random start or placement."""
    board = draw(boards()) if draw(st.booleans()) else Board(rules=draw(rule_sets))
    for _ in range(draw(st.integers(0, 30))):
        legal = list(board.generate_legal_moves())
        if not legal:
            break
        board.push(draw(st.sampled_from(legal)))
    return board


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_position_strings_read_back_as_written(data: st.DataObject) -> None:
    board = data.draw(boards())
    text = board.position_string()
    again = Board(text, board.rules)
    assert again.position_string() == text and again == board
    assert again.zobrist_hash() == board.zobrist_hash()
    pieces, turn, halfmove, number = parse_position(text)
    assert pieces == board.pieces() and turn == board.turn
    assert (halfmove, number) == (board.halfmove_clock, board.fullmove_number)
    # The reference's reader sees the same pieces.
    placement, side = ref.read(text)
    assert {parse_point(ref.name(p)): {"T": TIGER, "M": MAN}[k] for p, k in placement.items()} == {
        p: code for p, code in enumerate(pieces) if code != EMPTY
    }
    assert side == "tm"[turn]


@given(st.lists(st.integers(0, NUM_POINTS - 1), min_size=2, max_size=MAX_MOVE_POINTS))
def test_move_strings_read_back_as_written(path: list[int]) -> None:
    move = Move(tuple(path))
    assert Move.from_str(str(move)) == move
    assert Move.from_str(str(move).upper()) == move


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_push_and_pop_restore_everything(data: st.DataObject) -> None:
    board = data.draw(played())
    history: list[tuple[Any, ...]] = []
    for _ in range(data.draw(st.integers(1, 20))):
        legal = list(board.generate_legal_moves())
        if not legal:
            break
        history.append(_snapshot(board))
        move = data.draw(st.sampled_from(legal))
        board.push(move)
        # The hash is the hash of the position the string describes.
        assert board.zobrist_hash() == Board(board.position_string(), board.rules).zobrist_hash()
        assert board.men_count == len(board.man_points())
    copy = board.copy()
    for before in reversed(history):
        board.pop()
        assert _snapshot(board) == before
    assert copy.ply() == board.ply() + len(history)


def _snapshot(board: Board) -> tuple[Any, ...]:
    return (
        board.position_string(),
        board.zobrist_hash(),
        board.men_count,
        board.repetition_count(),
        len(board.move_stack),
    )


@st.composite
def paths(draw: st.DrawFn, board: Board) -> Move:
    """A move-shaped path, mostly from a piece of the side to move, to nearby points."""
    pieces = [p for p in range(NUM_POINTS) if board.piece_at(p) == board.turn + 1]
    start = (
        draw(st.sampled_from(pieces))
        if pieces and draw(st.booleans())
        else draw(st.integers(0, NUM_POINTS - 1))
    )
    near = st.integers(0, NUM_POINTS - 1)
    rest = draw(st.lists(near, min_size=1, max_size=3))
    return Move((start, *rest))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_reason_is_given_exactly_for_the_moves_left_out(data: st.DataObject) -> None:
    board = data.draw(played())
    legal = set(board.generate_legal_moves())
    for move in legal:
        assert board.explain_illegal(move) is None
    for _ in range(20):
        move = data.draw(paths(board))
        reason = board.explain_illegal(move)
        assert (reason is None) == (move in legal), (board.position_string(), str(move), reason)
    # Also each legal move's variations: one point more, one point less.
    for move in list(legal)[:10]:
        for other in (Move((*move.path, move.path[-1])), Move(move.path[:-1] + move.path[-1:])):
            if len(other.path) >= 2:
                assert (board.explain_illegal(other) is None) == (other in legal)


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_a_copy_is_independent(data: st.DataObject) -> None:
    board = data.draw(played())
    before = _snapshot(board)
    copy = board.copy()
    for move in list(copy.generate_legal_moves())[:1]:
        copy.push(move)
        assert _snapshot(board) == before and _snapshot(copy) != before
        copy.pop()
    if board.ply():
        copy.pop()
        assert _snapshot(board) == before
    assert copy.ply() == max(board.ply() - 1, 0)
