"""Tests for side lines (variations), NAGs and comments in game records, and for the move
tree (doushouqi.jungle.record.tree):
reading, writing, legality from the branch point, round trips."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.record import (
    GameNode,
    GameRecord,
    RecordError,
    Variation,
    read_record,
    write_record,
)
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.jungle.squares import BLUE


def _moves(*texts: str) -> list[Move]:
    return [Move.from_str(text) for text in texts]


def _movetext(record: GameRecord, **options: object) -> str:
    return write_record(record, **options).split("\n\n", 1)[1]  # type: ignore[arg-type]


def _round_trip(record: GameRecord) -> GameRecord:
    text = write_record(record)
    again = read_record(text)
    assert again == record
    assert write_record(again) == text
    return again


# --- reading the tree ------------------------------------------------------------------------


def test_side_lines_are_read_into_a_tree() -> None:
    record = read_record(
        "{start} 1. a3a4 {main} (1. g3g4 a7a6 (1... g7g6 2. g4g5) 2. a3a4) (1. g1g2)\n"
        "1... a7a6 2. a4a5 *"
    )
    assert record.moves == _moves("a3a4", "a7a6", "a4a5")
    assert record.comments == {0: "start", 1: "main"}
    rat, lion = record.variations[1]
    assert lion == Variation(_moves("g1g2"))
    assert rat.moves == _moves("g3g4", "a7a6", "a3a4")
    # The nested side line replaces the rat line's second move (ply 2 of the game).
    assert rat.variations == {2: [Variation(_moves("g7g6", "g4g5"))]}
    assert set(record.variations) == {1}
    _round_trip(record)


def test_side_lines_are_written_after_their_move_with_numbers() -> None:
    board = Board()
    board.replay(["a3a4", "a7a6", "a4a5"])
    record = GameRecord.from_board(board)
    record.variations[2] = [Variation(_moves("g7g6", "g3g4"), comments={0: "or", 2: "x"})]
    record.variations[3] = [Variation(_moves("g3g4"), nags={1: {2}})]
    record.nags[1] = {1, 14}
    assert _movetext(record) == (
        "1. a3a4 $1 $14 a7a6 ({or} 1... g7g6 2. g3g4 {x}) 2. a4a5 (2. g3g4 $2) *\n"
    )
    _round_trip(record)


def test_the_move_after_a_side_line_gets_its_number_again() -> None:
    record = read_record("1. a3a4 (1. g3g4) a7a6 *")
    assert _movetext(record) == "1. a3a4 (1. g3g4) 1... a7a6 *\n"


def test_glued_tokens_and_layout() -> None:
    record = read_record("1.a3a4$1(1.g3g4)(\n1.g1g2\n)a7a6{c}*")
    assert record.nags == {1: {1}}
    assert [v.moves for v in record.variations[1]] == [_moves("g3g4"), _moves("g1g2")]
    assert record.comments == {2: "c"}


def test_a_side_line_of_a_side_lines_first_move_is_its_sibling() -> None:
    # "(1. g3g4 (1. g1g2))": the inner line replaces g3g4, so it branches where it does.
    record = read_record("1. a3a4 (1. g3g4 (1. g1g2) 1... a7a6) *")
    assert record.variations == {1: [Variation(_moves("g3g4", "a7a6")), Variation(_moves("g1g2"))]}
    assert _movetext(record) == "1. a3a4 (1. g3g4 a7a6) (1. g1g2) *\n"
    _round_trip(record)


def test_comments_around_side_lines() -> None:
    record = read_record("1. a3a4 (1. g3g4) {after the side line} ({why not} 1. g1g2 {no}) *")
    # A comment after a side line closes belongs to the move the side lines replace.
    assert record.comments == {1: "after the side line"}
    assert record.variations[1][1].comments == {0: "why not", 1: "no"}
    assert (
        _movetext(record) == "1. a3a4 {after the side line} (1. g3g4) ({why not} 1. g1g2 {no}) *\n"
    )


@pytest.mark.parametrize(
    ("glyph", "nag"), [("!", 1), ("?", 2), ("!!", 3), ("??", 4), ("!?", 5), ("?!", 6)]
)
def test_suffix_annotations_are_nags(glyph: str, nag: int) -> None:
    glued = read_record(f"1. a3a4{glyph} a7a6 *")
    alone = read_record(f"1. a3a4 {glyph} a7a6 *")
    assert glued.nags == alone.nags == {1: {nag}}
    assert _movetext(glued) == f"1. a3a4 ${nag} a7a6 *\n"
    assert read_record(f"1. a3a4 a7a6 (1... g7g6{glyph}) *").variations[2][0].nags == {1: {nag}}


def test_several_nags_and_the_largest() -> None:
    record = read_record("1. a3a4 $0 $255 ! $1 a7a6 *")
    assert record.nags == {1: {0, 1, 255}}
    assert _movetext(record) == "1. a3a4 $0 $1 $255 a7a6 *\n"


def test_a_side_line_may_end_the_game() -> None:
    fen = "7/3L3/7/7/7/7/7/7/r6 w"
    record = read_record(f'[FEN "{fen}"]\n\n1. d8d7 (1. d8d9) 1... a1a2 *')
    assert record.variations == {1: [Variation(_moves("d8d9"))]}
    with pytest.raises(
        RecordError, match="side line 1 at ply 1, ply 2: illegal move a1a2: the game"
    ):
        read_record(f'[FEN "{fen}"]\n\n1. d8d7 (1. d8d9 a1a2) *')


# --- legality from the branch point ----------------------------------------------------------


def test_a_side_line_is_played_from_its_branch_point() -> None:
    # a4a5 is legal after the main line's a3a4, but the side line took a3a4 back.
    with pytest.raises(RecordError) as info:
        read_record("1. a3a4 a7a6\n(1... g7g6 2. a4a5)\n(1... g7g6 2. g3g4 g6g5 3. a4a5 a5a6) *")
    assert info.value.line == 3
    assert info.value.reason.startswith(
        "side line 2 at ply 2, ply 6: illegal move a5a6: the red elephant on a5 is not yours"
    )
    with pytest.raises(RecordError, match="side line 1 at ply 1, ply 3: illegal move a4a5"):
        read_record("1. a3a4 (1. g3g4 a7a6 2. a4a5) *")
    # After the side line the main line goes on from its own position.
    record = read_record("1. a3a4 (1. g3g4 a7a6 2. a3a4) 1... a7a6 2. a4a5 *")
    plain = Board()
    plain.replay(["a3a4", "a7a6", "a4a5"])
    assert record.board() == plain


def test_errors_in_nested_side_lines_name_them() -> None:
    text = "1. a3a4 a7a6 2. a4a5\n(2. g3g4 g7g6 (2... a6a5 3. g4g5 a5a4 4. a4a3))\n*"
    with pytest.raises(RecordError) as info:
        read_record(text)
    assert info.value.line == 2
    assert info.value.reason.startswith(
        "side line 1 at ply 4 in side line 1 at ply 3, ply 7: illegal move a4a3"
    )


def test_built_records_check_their_side_lines() -> None:
    record = GameRecord(moves=_moves("a3a4", "a7a6"))
    record.variations[2] = [Variation(_moves("g7g6")), Variation(_moves("g7g6", "a4a6"))]
    with pytest.raises(
        RecordError, match=r"^side line 2 at ply 2, ply 3: illegal move a4a6"
    ) as info:
        record.board()
    assert info.value.line is None
    with pytest.raises(RecordError, match="side line 2 at ply 2, ply 3: illegal move a4a6"):
        write_record(record, san=True)
    # Written as move strings it is not replayed, and reading it finds the same fault.
    with pytest.raises(RecordError, match="line 4: side line 2 at ply 2, ply 3: illegal move"):
        read_record(write_record(record))
    record.variations[2][1].moves[1] = Move.from_str("a4a5")
    assert record.board().move_stack == record.moves


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("1. a3a4 (1. a3a5) *", 1, "side line 1 at ply 1, ply 1: illegal move a3a5: an animal"),
        ("1. a3a4 (1... a7a6) *", 1, "side line 1 at ply 1, ply 1: move number 1... out of place"),
        ("1. a3a4\n(1. g3g4 h1h2) *", 2, "side line 1 at ply 1, ply 2: bad move string"),
        ("(1. a3a4) *", 1, "'(' before any move: a side line replaces the move before it"),
        ("1. a3a4 (( 1. g3g4)) *", 1, "side line 1 at ply 1, ply 1: '(' before any move"),
        ("1. a3a4 ) *", 1, "')' without an opening '('"),
        ("1. a3a4 () *", 1, "empty side line '()'"),
        ("1. a3a4 ({just a comment}) *", 1, "empty side line '()'"),
        ("1. a3a4 (1. g3g4\n\n*", 3, "result * inside a side line: no ')' for its '(' (line 1)"),
        ("1. a3a4 (1. g3g4", 1, "the game has no result at the end"),
        ("$1 a3a4 *", 1, "$1 before any move: a NAG follows its move"),
        ("! a3a4 *", 1, "! before any move"),
        ("a3a4 (! g3g4) *", 1, "! before any move"),
        ("a3a4 $256 *", 1, "bad NAG '$256': expected $ and a number from 0 to 255"),
        ("a3a4 $ *", 1, "bad NAG '$'"),
        ("a3a4 $x *", 1, "bad NAG '$'"),
        ("a3a4!!! *", 1, "unknown annotation '!!!' (known: ! ? !! ?? !? ?!)"),
        ("a3a4 ??! *", 1, "unknown annotation '??!'"),
    ],
)
def test_bad_side_lines_and_nags_are_rejected(text: str, line: int, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(text)
    assert info.value.line == line, str(info.value)
    assert info.value.reason.startswith(reason), str(info.value)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"nags": {1: {1}}}, "NAGs of ply 1, but the game has 0"),
        ({"moves": _moves("a3a4"), "nags": {1: {256}}}, "NAG 256 is not a number from 0 to 255"),
        ({"moves": _moves("a3a4"), "nags": {1: {True}}}, "NAG True is not a number"),
        ({"variations": {1: [Variation(_moves("a3a4"))]}}, "side lines at ply 1, but the game"),
        (
            {"moves": _moves("a3a4"), "variations": {1: [Variation()]}},
            "side line 1 at ply 1: a side",
        ),
        (
            {"moves": _moves("a3a4"), "variations": {1: [Variation(_moves("g3g4"), {2: "x"})]}},
            "side line 1 at ply 1: comment after ply 2, but the line has 1",
        ),
        (
            {
                "moves": _moves("a3a4"),
                "variations": {1: [Variation(_moves("g3g4"), {1: "a}"})]},
            },
            "side line 1 at ply 1: comment 'a}' contains '}'",
        ),
        (
            {
                "moves": _moves("a3a4", "a7a6"),
                "variations": {
                    2: [Variation(_moves("g7g6"), variations={1: [Variation(_moves("g7f7"))]})]
                },
            },
            "side line 1 at ply 2: side lines replacing a side line's first move belong",
        ),
        (
            {
                "moves": _moves("a3a4", "a7a6"),
                "variations": {
                    1: [Variation(_moves("g3g4", "a7a6"), nags={3: {1}})],
                },
            },
            "side line 1 at ply 1: NAGs of ply 3, but the line has 2",
        ),
    ],
)
def test_bad_trees_cannot_be_built(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameRecord(**changes)  # type: ignore[arg-type]


def test_empty_nags_and_side_line_lists_are_dropped() -> None:
    side = Variation(_moves("g3g4"), nags={1: set()}, variations={})
    record = GameRecord(moves=_moves("a3a4"), nags={1: set()}, variations={1: [side]})
    assert record.nags == {} and side.nags == {}
    assert GameRecord(moves=_moves("a3a4"), variations={1: []}).variations == {}
    assert _round_trip(record) == record


# --- the node view ---------------------------------------------------------------------------


def test_nodes_walk_the_tree() -> None:
    record = read_record("{start} 1. a3a4 ! (1. g3g4 a7a6) (1. g1g2) 1... a7a6 {reply} 2. a4a5 *")
    root = record.root()
    assert root.move is None and root.parent is None and root.comment == "start"
    assert root.ply() == 0 and root.is_main_line() and not root.starts_variation()
    main, rat, lion = root.variations
    assert [str(node.move) for node in root.variations] == ["a3a4", "g3g4", "g1g2"]
    assert main.nags == {1} and main.is_main_variation() and main.is_main_line()
    assert rat.starts_variation() and not rat.is_main_line()
    assert [node.san() for node in (main, rat, lion)] == ["Ea4", "Rg4", "Lg2"]
    assert [str(node.move) for node in root.mainline()] == ["a3a4", "a7a6", "a4a5"]
    assert root.mainline_moves() == record.moves
    assert root.end().ply() == 3 and root.end().is_end()
    reply = rat.next()
    assert reply is not None and reply.ply() == 2 and reply.parent == rat
    assert reply.board().fen() == "l5t/1d3c1/2p1w1e/r6/7/6R/E1W1P2/1C3D1/T5L w 2 2"
    assert rat.mainline_moves() == _moves("a7a6")
    assert root.variation(2) == lion and root.variation(Move.from_str("g3g4")) == rat
    assert root.has_variation(Move.from_str("g1g2")) and not root.has_variation(Move.null())
    with pytest.raises(KeyError):
        root.variation(3)
    assert main.next() is not None and main.next().comment == "reply"  # type: ignore[union-attr]
    assert record.root() == root and hash(record.root()) == hash(root)
    assert main != rat and repr(main) == "<GameNode ply 1 a3a4>"
    with pytest.raises(ValueError):
        root.san()


def test_editing_through_nodes_changes_the_record() -> None:
    record = GameRecord()
    root = record.root()
    first = root.add_variation(Move.from_str("a3a4"), comment="main", nags=[1])
    side = root.add_variation(Move.from_str("g3g4"), starting_comment="or", nags={6})
    side.add_variation(Move.from_str("a7a6"))
    reply = first.add_variation(Move.from_str("a7a6"))
    reply.add_variation(Move.from_str("a4a5"))
    other = reply.add_variation(Move.from_str("g3g4"))
    assert record.moves == _moves("a3a4", "a7a6", "a4a5")
    assert record.comments == {1: "main"} and record.nags == {1: {1}}
    assert record.variations == {
        1: [Variation(_moves("g3g4", "a7a6"), comments={0: "or"}, nags={1: {6}})],
        3: [Variation(_moves("g3g4"))],
    }
    assert side.starting_comment == "or" and other.ply() == 3
    assert _movetext(record) == (
        "1. a3a4 $1 {main} ({or} 1. g3g4 $6 a7a6) 1... a7a6 2. a4a5 (2. g3g4) *\n"
    )
    first.comment, first.nags, side.starting_comment = "", set(), ""
    assert record.comments == {} and record.nags == {}
    assert record.variations[1][0].comments == {}
    reply.remove_variation(other)
    assert 3 not in record.variations
    with pytest.raises(ValueError, match="not a side line"):
        reply.remove_variation(reply.variations[0])
    with pytest.raises(ValueError, match="starting comment"):
        first.starting_comment = "x"
    with pytest.raises(ValueError, match="root"):
        root.nags = {1}
    _round_trip(record)
    record.board()


# --- property test: random trees of legal side lines -----------------------------------------

_comment = st.text(st.characters(blacklist_characters="}\r"), max_size=8)


def _grow(data: st.DataObject, board: Board, depth: int, plies: int, side: bool) -> Variation:
    """A random line of legal moves (and passes) from ``board``, with side lines in it; the
    board is left as it was."""
    line = Variation()
    if data.draw(st.integers(0, 4)) == 0:
        line.comments[0] = data.draw(_comment)
    for k in range(1, plies + 1):
        if board.outcome() is not None:
            break
        move = data.draw(st.sampled_from([*board.legal_moves, Move.null()]))
        if depth < 3 and (k > 1 or not side) and data.draw(st.integers(0, 3)) == 0:
            count = data.draw(st.integers(1, 2))
            line.variations[k] = [
                _grow(data, board, depth + 1, data.draw(st.integers(1, 5)), True)
                for _ in range(count)
            ]
        board.push(move)
        line.moves.append(move)
        if data.draw(st.integers(0, 4)) == 0:
            line.comments[k] = data.draw(_comment)
        if data.draw(st.integers(0, 4)) == 0:
            line.nags[k] = data.draw(st.sets(st.integers(0, 255), min_size=1, max_size=3))
    for _ in line.moves:
        board.pop()
    return line


def _nodes(node: GameNode) -> int:
    return sum(1 + _nodes(child) for child in node.variations)


@pytest.mark.parametrize("name", list(BUILTIN_RULE_SETS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_trees_round_trip(name: str, data: st.DataObject) -> None:
    rules = BUILTIN_RULE_SETS[name]
    if data.draw(st.booleans(), label="blue first"):
        rules = dataclasses.replace(rules, name=f"{name}-blue", first_player=BLUE)
    board = Board(rules=rules)
    main = _grow(data, board, 0, data.draw(st.integers(0, 30), label="plies"), False)
    for move in main.moves:
        board.push(move)
    record = dataclasses.replace(
        GameRecord.from_board(board, comments=main.comments),
        nags=main.nags,
        variations=main.variations,
    )
    text = write_record(record)
    again = read_record(text)
    assert again == record
    assert write_record(again) == text
    assert again.board().fen() == board.fen()
    assert _nodes(again.root()) == main.count_moves()
    for lang in ("en", "zh"):
        readable = write_record(record, san=True, lang=lang)
        assert read_record(readable) == record
