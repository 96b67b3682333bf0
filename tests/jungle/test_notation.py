"""Tests for doushouqi.jungle.notation: names in two languages and readable move notation."""

from __future__ import annotations

import random

import pytest

from doushouqi.jungle.board import Board, Move, Piece
from doushouqi.jungle.notation import (
    TERMS,
    NotationError,
    animal_letter,
    animal_name,
    color_name,
    format_move_list,
    move_list_lines,
    move_to_readable,
    outcome_label,
    parse_readable,
    piece_name,
    term,
    termination_label,
)
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.rules import RuleSet
from doushouqi.jungle.squares import ANIMALS, BLUE, DOG, ELEPHANT, LEOPARD, RAT, RED, WOLF

FOX = RuleSet(name="fox", wolf_name="fox")

# Positions for the readable-notation tests (rows 9 -> 1).
JUMP_CAPTURE = "7/7/7/T2w3/7/7/7/7/7 w"  # Red tiger a6 may jump the lake onto Blue's wolf d6
VERTICAL_JUMP = "7/7/7/7/7/7/1L5/7/r6 w"  # Red lion b3 may jump b4-b6 to b7
DEN_READY = "7/3L3/7/7/7/7/7/7/r6 w"  # Red lion d8 next to Blue's den d9
BLUE_DEN_READY = "7/7/7/7/7/7/7/3l3/6R b"  # Blue lion d2 next to Red's den d1
PERFT_POSITION = "l6/3c3/1d1pet1/3wR2/Tr5/3W3/3P1L1/1CE2D1/7 w"


def _midgame(seed: int, plies: int, rules: str = "wango") -> Board:
    board = Board(rules=rules)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
    return board


# --- names -----------------------------------------------------------------------------------


def test_animal_names_in_both_languages() -> None:
    assert [animal_name(a) for a in ANIMALS] == [
        "rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant",
    ]  # fmt: skip
    assert "".join(animal_name(a, "zh") for a in ANIMALS) == "鼠猫狗狼豹虎狮象"


def test_the_wolf_is_a_fox_only_under_fox_naming() -> None:
    assert animal_name(WOLF, "zh", FOX) == "狐"
    assert animal_name(WOLF, "en", FOX) == "fox"
    assert animal_letter(WOLF, FOX) == "F"
    # Only the wolf is renamed, and a named rule set keeps 狼.
    assert animal_name(DOG, "zh", FOX) == "狗"
    assert animal_name(WOLF, "zh", "classic") == "狼"
    assert animal_letter(WOLF, "classic") == "W"


def test_colour_piece_and_term_names() -> None:
    assert (color_name(RED), color_name(BLUE)) == ("Red", "Blue")
    assert (color_name(RED, "zh"), color_name(BLUE, "zh")) == ("红方", "蓝方")
    assert piece_name(Piece(LEOPARD, BLUE)) == "Blue leopard"
    assert piece_name(Piece(WOLF, RED), "zh", FOX) == "红狐"
    expected = {
        "den": "兽穴", "trap": "陷阱", "water": "小河", "den_entry": "入穴",
        "no_legal_moves": "困毙", "resign": "认输", "draw": "和棋", "timeout": "超时",
        "abandon": "逃跑",
    }  # fmt: skip
    for key, zh in expected.items():
        assert term(key, "zh") == zh
        assert term(key, "en")
    assert "river" in term("water")
    assert all(entry.zh and entry.en for entry in TERMS.values())


def test_every_termination_has_distinct_labels() -> None:
    for lang in ("en", "zh"):
        labels = [termination_label(t, lang) for t in Termination]
        assert all(labels) and len(set(labels)) == len(labels)
    assert termination_label(Termination.NO_LEGAL_MOVES, "zh") == "困毙"
    assert termination_label(Termination.ABANDONMENT, "zh") == "逃跑"
    assert termination_label(Termination.TIMEOUTS, "zh") == "三次以上超时"


def test_outcome_labels() -> None:
    assert outcome_label(Outcome(Termination.DEN_ENTERED, RED)) == "Red wins (den entered)"
    assert outcome_label(Outcome(Termination.RESIGNATION, BLUE), "zh") == "蓝方胜（认输）"
    assert outcome_label(Outcome(Termination.DRAW_AGREED, None), "zh") == "和棋"
    assert outcome_label(Outcome(Termination.NO_CAPTURE_LIMIT, None)) == "draw (no-capture limit)"
    assert outcome_label(Outcome(Termination.ABORTED, None)) == "aborted"


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        animal_name(RAT, "fr")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown animal"):
        animal_name(9)
    with pytest.raises(ValueError, match="unknown colour"):
        color_name(2)
    with pytest.raises(KeyError, match="unknown term"):
        term("castling")


# --- move_to_readable ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "move", "en", "zh"),
    [
        (None, "g1g2", "Lg1-g2", "狮 g1-g2"),
        (None, "a3a4", "Ea3-a4", "象 a3-a4"),
        (JUMP_CAPTURE, "a6d6", "Ta6xd6", "虎 a6×d6 吃 狼"),
        (JUMP_CAPTURE, "a6a7", "Ta6-a7", "虎 a6-a7"),
        (VERTICAL_JUMP, "b3b7", "Lb3-b7", "狮 b3-b7"),
        (DEN_READY, "d8d9", "Ld8-d9#", "狮 d8-d9 入穴"),
        (BLUE_DEN_READY, "d2d1", "Ld2-d1#", "狮 d2-d1 入穴"),
        (PERFT_POSITION, "f3f7", "Lf3xf7", "狮 f3×f7 吃 虎"),
    ],
)
def test_readable_notation(fen: str | None, move: str, en: str, zh: str) -> None:
    board = Board(fen, rules="international")
    parsed = Move.from_str(move)
    assert move_to_readable(board, parsed) == en
    assert move_to_readable(board, parsed, "zh") == zh
    assert parse_readable(board, en) == parsed
    assert parse_readable(board, zh) == parsed


def test_jump_capture_is_a_jump_and_a_capture() -> None:
    board = Board(JUMP_CAPTURE)
    move = Move.from_str("a6d6")
    assert board.is_jump(move) and board.is_capture(move)


def test_pass_notation() -> None:
    board = Board()
    assert move_to_readable(board, Move.null()) == "--"
    assert move_to_readable(board, Move.null(), "zh") == "停棋一步"
    for text in ("--", "0000", "停棋一步", "pass"):
        assert parse_readable(board, text) == Move.null()


def test_fox_notation() -> None:
    board = Board(rules=FOX)
    board.push_move("a3a4")
    move = Move.from_str("e7d7")
    assert move_to_readable(board, move) == "Fe7-d7"
    assert move_to_readable(board, move, "zh") == "狐 e7-d7"
    # Either name reads back, whatever the rule set calls the animal.
    for text in ("Fe7-d7", "We7-d7", "狐 e7-d7", "狼 e7-d7"):
        assert parse_readable(board, text) == move


def test_move_to_readable_rejects_illegal_moves() -> None:
    with pytest.raises(NotationError, match="illegal move a3a5"):
        move_to_readable(Board(), Move.from_str("a3a5"))
    over = Board(DEN_READY)
    over.push_move("d8d9")
    with pytest.raises(NotationError, match="game is over"):
        move_to_readable(over, Move.null())


# --- parse_readable --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "rules"),
    [
        (None, "wango"),
        (PERFT_POSITION, "international"),
        (JUMP_CAPTURE, "wango"),
        (DEN_READY, "classic"),
        (_midgame(1, 30).fen(), "wango"),
        (_midgame(2, 45, "classic").fen(), "classic"),
        (_midgame(3, 25, "international").fen(), "international"),
    ],
)
def test_parse_readable_round_trips_every_legal_move(fen: str | None, rules: str) -> None:
    board = Board(fen, rules=rules)
    moves = list(board.legal_moves)
    assert moves
    for move in moves:
        for lang in ("en", "zh"):
            assert parse_readable(board, move_to_readable(board, move, lang)) == move
        assert parse_readable(board, str(move)) == move
    assert board.fen() == Board(fen, rules=rules).fen()  # parsing never moves anything


def test_parse_readable_accepts_loose_spelling() -> None:
    board = Board()
    move = Move.from_str("f2f3")
    for text in ("Df2-f3", "df2f3", "D f2 - f3", "犬 f2-f3", "狗f2-f3", "  f2f3 "):
        assert parse_readable(board, text) == move


@pytest.mark.parametrize(
    ("fen", "text", "message"),
    [
        (None, "hello", "cannot read move 'hello'"),
        (None, "a3-a4-a5", "cannot read move"),
        (None, "Ta3-a4", "the animal on a3 is the Red elephant, not a tiger"),
        (None, "Ea4-a5", "there is no animal on a4"),
        (None, "a3a5", "illegal move a3a5"),
        (None, "a7a6", "not yours"),
        (None, "Ea3xa4", "marked as a capture, but a4 is empty"),
        (JUMP_CAPTURE, "Ta6-d6", "d6 holds the Blue wolf: write 'x'"),
        (JUMP_CAPTURE, "Ta6xd6 吃 狮", "does not capture a lion"),
        (None, "Ea3-a4#", "marked as entering the den"),
        (VERTICAL_JUMP.replace("7/7/7/7/7", "7/7/7/7/1R5"), "Lb3-b7", "blocks the jump"),
    ],
)
def test_parse_readable_errors(fen: str | None, text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message.replace("(", r"\(")) as info:
        parse_readable(Board(fen), text)
    assert isinstance(info.value, ValueError)


def test_no_pass_once_the_game_is_over() -> None:
    board = Board(DEN_READY)
    board.push_move("d8d9")
    with pytest.raises(NotationError, match=r"illegal move 0000: the game is over \(den entered\)"):
        parse_readable(board, "--")


# --- move lists ------------------------------------------------------------------------------


def test_move_list_red_first() -> None:
    board = Board()
    board.replay(["a3a4", "a7a6", "a4a5", "a6a5"])
    assert move_list_lines(board) == ["1. Ea3-a4 Ra7-a6", "2. Ea4-a5 Ra6xa5"]
    assert (
        format_move_list(board, lang="zh") == "1. 象 a3-a4  鼠 a7-a6\n2. 象 a4-a5  鼠 a6×a5 吃 象"
    )
    assert board.ply() == 4  # the board's own history is only read


def test_move_list_blue_first_under_first_player() -> None:
    rules = RuleSet(name="blue-first", first_player=BLUE)
    board = Board(rules=rules)
    board.replay(["a7a6", "a3a4"])
    board.push_pass()
    assert move_list_lines(board) == ["1. Ra7-a6 Ea3-a4", "2. --"]


def test_move_list_from_a_position_with_the_second_player_to_move() -> None:
    board = Board(PERFT_POSITION.replace(" w", " b 0 12"), rules="international")
    moves = [Move.from_str("a9a8"), Move.from_str("a5a4"), Move.from_str("a8b8")]
    assert move_list_lines(board, moves) == ["12... La9-a8", "13. Ta5-a4 La8-b8"]
    assert board.ply() == 0 and board.turn == BLUE  # explicit moves are played on a copy


def test_move_list_rejects_an_illegal_move() -> None:
    with pytest.raises(NotationError):
        move_list_lines(Board(), [Move.from_str("a3a4"), Move.from_str("a3a4")])


def test_animal_letters_match_the_position_string() -> None:
    assert "".join(animal_letter(a) for a in ANIMALS) == "RCDWPTLE"
    assert animal_letter(ELEPHANT) == Piece(ELEPHANT, RED).symbol()
