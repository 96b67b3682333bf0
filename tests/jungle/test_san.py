"""Tests for short algebraic notation (doushouqi.jungle.san, Board.san/parse_san/push_san)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doushouqi import AmbiguousMoveError, InvalidSanError
from doushouqi.jungle.board import Board, IllegalMoveError, InvalidMoveError, Move, Piece
from doushouqi.jungle.notation import IllegalNotationMoveError, NotationError
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet
from doushouqi.jungle.san import move_to_san, parse_san
from doushouqi.jungle.squares import DENS, NUM_SQUARES, RAT, WATER, code_animal, code_color
from doushouqi.jungle.squares import parse_square as parse

FOX = RuleSet(name="fox", wolf_name="fox")
JUMP_CAPTURE = "7/7/7/T2w3/7/7/7/7/7 w"  # Red tiger a6 may jump the lake onto Blue's wolf d6
DEN_READY = "7/3L3/7/7/7/7/7/7/r6 w"  # Red lion d8 next to Blue's den d9


def m(text: str) -> Move:
    return Move.from_uci(text)


# ------------------------------------------------------------------------- writing


def test_steps_are_animal_letter_and_destination() -> None:
    board = Board()
    assert board.san(m("g3g4")) == "Rg4"
    assert board.san(m("a3a4")) == "Ea4"
    assert board.san(m("g1g2")) == "Lg2"
    board.push_uci("g3g4")
    # Blue's animals are written with the same upper-case letters, as in chess.
    assert board.san(m("a7a6")) == "Ra6"
    assert board.san(m("a7a6"), lang="zh") == "鼠a6"


def test_capture_jump_and_win_suffix() -> None:
    board = Board(JUMP_CAPTURE)
    # The wolf is Blue's last animal: taking it wins at once.
    assert board.san(m("a6d6")) == "Txd6#"
    assert board.san(m("a6d6"), lang="zh") == "虎吃d6#"
    assert board.san(m("a6a7")) == "Ta7"
    quiet = Board("7/7/7/T2w3/7/7/7/7/6r w")
    assert quiet.san(m("a6d6")) == "Txd6"
    assert quiet.san(m("a6d6"), lang="zh") == "虎吃d6"


def test_den_entry_wins_and_den_threat_is_plus() -> None:
    assert Board(DEN_READY).san(m("d8d9")) == "Ld9#"
    assert Board(DEN_READY).san(m("d8c8")) == "Lc8"  # c8 is not next to the den d9
    board = Board("7/7/3L3/7/7/7/7/7/r6 w")
    assert board.san(m("d7d8")) == "Ld8+"
    assert board.san(m("d7c7")) == "Lc7"


def test_den_threat_suffix_matches_is_den_threatened() -> None:
    rng = random.Random(7)
    for _ in range(20):
        board = Board(rules="international")
        for _ in range(rng.randrange(60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        for move in board.legal_moves:
            san = board.san(move)
            board.push(move)
            outcome = board.outcome()
            threatened = board.is_den_threatened()
            board.pop()
            assert san.endswith("#") == (outcome is not None and outcome.winner is not None)
            assert san.endswith("+") == (outcome is None and threatened)


def test_fox_rules_write_f() -> None:
    board = Board("7/7/7/7/7/7/7/3W3/6r w", rules=FOX)
    assert board.san(m("d2d3")) == "Fd3"
    assert board.san(m("d2d3"), lang="zh") == "狐d3"
    assert board.parse_san("Fd3") == board.parse_san("Wd3") == m("d2d3")
    assert board.parse_san("狼d3") == board.parse_san("狐d3") == m("d2d3")


def test_pass() -> None:
    board = Board()
    assert board.san(Move.null()) == "--"
    assert board.san(Move.null(), lang="zh") == "停棋一步"
    for text in ("--", "0000", "pass", "停棋一步"):
        assert board.parse_san(text, allow_pass=True) == Move.null()
        with pytest.raises(IllegalMoveError, match="pass"):
            board.parse_san(text)
    assert board.push_san("--", allow_pass=True) == Move.null()
    assert board.turn == 1


def test_illegal_move_cannot_be_written() -> None:
    board = Board()
    with pytest.raises(IllegalNotationMoveError, match="not yours"):
        board.san(m("a7a6"))
    with pytest.raises(ValueError, match="language"):
        board.san(m("a3a4"), lang="fr")  # type: ignore[arg-type]


def test_disambiguation_only_on_boards_with_two_of_one_animal() -> None:
    # Two Red lions (an edited, invalid board) that can both reach d5: lion d4 steps up,
    # lion d6 steps down; and a third case where the files are equal, so the rank is given.
    board = Board.empty()
    board.set_piece_at(parse("d4"), Piece.from_symbol("L"))
    board.set_piece_at(parse("d6"), Piece.from_symbol("L"))
    board.set_piece_at(parse("a9"), Piece.from_symbol("r"))
    assert not board.is_valid()
    assert board.san(m("d4d5")) == "L4d5"
    assert board.san(m("d6d5")) == "L6d5"
    assert board.parse_san("L4d5") == m("d4d5")
    with pytest.raises(AmbiguousMoveError) as caught:
        board.parse_san("Ld5")
    assert caught.value.candidates == [m("d4d5"), m("d6d5")]
    board.set_piece_at(parse("d6"), None)
    board.set_piece_at(parse("e5"), Piece.from_symbol("L"))  # in the water: invalid too
    board.set_piece_at(parse("a5"), Piece.from_symbol("L"))  # a5 can jump to d5
    assert board.san(m("e5d5")) == "Led5"
    assert board.san(m("a5d5")) == "Lad5"
    assert board.san(m("d4d5")) == "Ldd5"
    assert board.san(m("d4d5"), lang="zh") == "狮dd5"


# ------------------------------------------------------------------------- reading


@pytest.mark.parametrize(
    "text",
    ["Rg4", "rg4", "RG4", " R g4 ", "Rg3g4", "Rg3-g4", "g3g4", "Rg4!?", "Rg4+", "鼠g4", "鼠 g3-g4"],
)
def test_forgiving_reading(text: str) -> None:
    assert Board().parse_san(text) == m("g3g4")


def test_reading_captures_in_every_form() -> None:
    board = Board("7/7/7/T2w3/7/7/7/7/6r w")
    for text in ("Txd6", "T×d6", "T:d6", "虎吃d6", "虎×d6", "txd6", "Ta6xd6", "Td6", "a6d6"):
        assert board.parse_san(text) == m("a6d6"), text


def test_marks_must_fit() -> None:
    board = Board("7/7/7/T2w3/7/7/7/7/6r w")
    with pytest.raises(IllegalNotationMoveError, match="empty"):
        board.parse_san("Txa7")
    with pytest.raises(IllegalNotationMoveError, match="write 'x'"):
        board.parse_san("Ta6-d6")
    with pytest.raises(IllegalNotationMoveError, match="does not win"):
        board.parse_san("Txd6#")
    assert Board(JUMP_CAPTURE).parse_san("Txd6#") == m("a6d6")


def test_canonical_case_is_read_as_written() -> None:
    # "Dd4"-style text: an upper-case letter is the animal, so no ambiguity with file d.
    board = Board("7/7/7/7/7/7/3W3/4D2/6r w")  # Red wolf d3, Red dog e2
    assert board.parse_san("De3") == m("e2e3")
    assert board.parse_san("We3") == m("d3e3")
    # In lower case "de3" is the dog (e2e3) or the animal on file d (d3e3): ambiguous.
    with pytest.raises(AmbiguousMoveError, match="De3, We3"):
        board.parse_san("de3")
    # Destination only, when one legal move goes there.
    assert board.parse_san("d4") == m("d3d4")


def test_errors_are_clear() -> None:
    board = Board()
    with pytest.raises(InvalidSanError, match="cannot read"):
        board.parse_san("Rz9")
    with pytest.raises(InvalidSanError):
        board.parse_san("")
    with pytest.raises(IllegalNotationMoveError, match="the rat on g3 cannot go to g5"):
        board.parse_san("Rg5")
    with pytest.raises(IllegalNotationMoveError, match="already stands on g3"):
        board.parse_san("Rg3")
    with pytest.raises(IllegalNotationMoveError, match="no legal move"):
        board.parse_san("d5")
    board.remove_piece_at(parse("g3"))
    with pytest.raises(IllegalNotationMoveError, match="Red has no rat"):
        board.parse_san("Rg4")
    over = Board(DEN_READY)
    over.push_san("Ld9")
    with pytest.raises(IllegalNotationMoveError, match="game is over"):
        over.parse_san("a8")
    # Every error is a ValueError; the board's own error classes catch them.
    assert issubclass(InvalidSanError, InvalidMoveError)
    assert issubclass(InvalidSanError, NotationError)
    assert issubclass(AmbiguousMoveError, IllegalMoveError)


def test_push_san_plays_and_returns_the_move() -> None:
    board = Board()
    assert board.push_san("Rg4") == m("g3g4")
    assert board.push_san("Ra6") == m("a7a6")
    assert [str(move) for move in board.move_stack] == ["g3g4", "a7a6"]
    with pytest.raises(IllegalMoveError):
        board.push_san("Ra5")  # Blue's rat; Red to move
    assert board.ply() == 2


def test_module_functions_match_board_methods() -> None:
    board = Board()
    for move in board.legal_moves:
        assert move_to_san(board, move) == board.san(move)
        assert parse_san(board, board.san(move)) == move


# ------------------------------------------------------------------ round trip (Hypothesis)


def _allowed(code: int) -> list[int]:
    return [
        s
        for s in range(NUM_SQUARES)
        if s != DENS[code_color(code)] and (code_animal(code) == RAT or not WATER >> s & 1)
    ]


@st.composite
def positions(draw: st.DrawFn) -> Board:
    """A random legal position: a random set-up, then a few random moves from it."""
    rules = draw(st.sampled_from([*sorted(BUILTIN_RULE_SETS), FOX]))
    board = Board.empty(rules=rules)
    # The turn first: editing recomputes the hash with it (assigning turn alone does not).
    board.turn = draw(st.sampled_from([0, 1]))
    codes = draw(st.lists(st.integers(1, 16), unique=True, min_size=2, max_size=16))
    for code in codes:
        free = [s for s in _allowed(code) if board.piece_at(s) is None]
        board.set_piece_at(draw(st.sampled_from(free)), Piece.from_code(code))
    for choice in draw(st.lists(st.integers(0, 1 << 16), max_size=30)):
        moves = sorted(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    return board


@settings(max_examples=150, deadline=None)
@given(positions())
def test_san_round_trips_in_both_languages(board: Board) -> None:
    before = board.fen()
    for move in board.legal_moves:
        for lang in ("en", "zh"):
            san = board.san(move, lang=lang)
            assert board.parse_san(san) == move, (board.fen(), san)
        # Lower case and spaces: the same move, or a clear ambiguity error (never another move).
        sloppy = " ".join(board.san(move).lower())
        try:
            assert board.parse_san(sloppy) == move
        except AmbiguousMoveError as exc:
            assert move in exc.candidates
    assert board.fen() == before  # writing and reading never change the board


@settings(max_examples=100, deadline=None)
@given(positions())
def test_san_is_unique_per_position(board: Board) -> None:
    for lang in ("en", "zh"):
        sans = [board.san(move, lang=lang) for move in board.legal_moves]
        assert len(sans) == len(set(sans))
