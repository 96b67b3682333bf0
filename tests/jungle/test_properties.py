"""Property tests (Hypothesis) for the board: position strings, push/pop, hashing, legality,
random games under every named rule set, and copies.

Positions come from two sources: random playouts from the start position (which sometimes
shuttle an animal back and forth, so that the move restrictions and repetition rules of the
classic rule sets come into play), and random set-ups that put a random subset of the 16
animals on squares they may stand on.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, Repetition
from doushouqi.jungle.squares import (
    BLUE,
    DENS,
    NUM_SQUARES,
    RAT,
    RED,
    WATER,
    code_animal,
    code_color,
    square_name,
)

RULE_SET_NAMES = sorted(BUILTIN_RULE_SETS)
rule_sets = st.sampled_from(RULE_SET_NAMES)
ANIMAL_LETTERS = " RCDWPTLE"


# ------------------------------------------------------------------------- strategies


def _allowed_squares(code: int) -> list[int]:
    """Squares an animal may stand on in a position string: not water (rats aside), not its
    own den."""
    color, animal = code_color(code), code_animal(code)
    return [
        s for s in range(NUM_SQUARES) if s != DENS[color] and (animal == RAT or not WATER >> s & 1)
    ]


def _write_fen(placement: dict[int, int], side: str, halfmove: int, fullmove: int) -> str:
    """A position string written independently of the library."""
    rows = []
    for row in range(8, -1, -1):
        text, empty = "", 0
        for square in range(row * 7, row * 7 + 7):
            code = placement.get(square)
            if code is None:
                empty += 1
                continue
            if empty:
                text, empty = text + str(empty), 0
            letter = ANIMAL_LETTERS[code_animal(code)]
            text += letter if code_color(code) == RED else letter.lower()
        rows.append(text + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {side} {halfmove} {fullmove}"


@st.composite
def setups(draw: st.DrawFn) -> str:
    """A random set-up: any subset of the 16 animals on squares they may stand on."""
    codes = draw(st.lists(st.integers(1, 16), unique=True, max_size=16))
    placement: dict[int, int] = {}
    for code in codes:
        free = [s for s in _allowed_squares(code) if s not in placement]
        placement[draw(st.sampled_from(free))] = code
    side = draw(st.sampled_from("wb"))
    halfmove = draw(st.integers(0, 199))
    fullmove = draw(st.integers(1, 999))
    return _write_fen(placement, side, halfmove, fullmove)


def _play(board: Board, choices: list[int]) -> Board:
    """Play one legal move per choice; a choice divisible by 3 takes back the side's own last
    move when it can (shuttling), to reach the move restrictions and repetitions."""
    for choice in choices:
        moves = list(board.legal_moves)
        if not moves:
            break
        move = moves[choice % len(moves)]
        if choice % 3 == 0 and len(board.move_stack) >= 2:
            own_last = board.move_stack[-2]
            back = Move(own_last.to_square, own_last.from_square)
            if own_last and back in moves:
                move = back
        board.push(move)
    return board


@st.composite
def playouts(draw: st.DrawFn, max_plies: int = 60) -> Board:
    """A board reached by a random playout from the start, with its history."""
    rules = draw(rule_sets)
    choices = draw(st.lists(st.integers(0, 1 << 16), max_size=max_plies))
    return _play(Board(rules=rules), choices)


@st.composite
def setup_boards(draw: st.DrawFn) -> Board:
    return Board(draw(setups()), draw(rule_sets))


any_boards = st.one_of(playouts(), setup_boards())


# ----------------------------------------------------------------- position strings


@settings(max_examples=200, deadline=None)
@given(setups(), rule_sets)
def test_setup_position_string_round_trips(fen: str, rules: str) -> None:
    board = Board(fen, rules)
    assert board.fen() == fen
    assert Board(board.fen(), rules) == board
    # 'r' is accepted for Red; two fields are enough.
    placement, side, *_ = fen.split()
    short = Board(f"{placement} {'r' if side == 'w' else side}", rules)
    assert short.board_fen() == placement
    assert short.turn == board.turn
    assert short.zobrist_hash() == board.zobrist_hash()


@settings(max_examples=100, deadline=None)
@given(playouts())
def test_playout_position_string_round_trips(board: Board) -> None:
    copy = Board(board.fen(), board.rules)
    assert copy.fen() == board.fen()
    assert copy == board
    assert copy.zobrist_hash() == board.zobrist_hash()
    assert copy.halfmove_clock == board.halfmove_clock
    assert copy.fullmove_number == board.fullmove_number
    placement = {s: board.piece_at(s) for s in range(NUM_SQUARES)}
    assert {s: p for s, p in placement.items() if p} == {
        s: copy.piece_at(s) for s in range(NUM_SQUARES) if copy.piece_at(s)
    }


# -------------------------------------------------------------- push, pop and hashing


def _snapshot(board: Board) -> tuple[object, ...]:
    return (
        board.fen(),
        board.zobrist_hash(),
        [str(m) for m in board.legal_moves],
        list(board.move_stack),
        board.ply(),
        board.repetition_count(),
        board.occupied_co[RED],
        board.occupied_co[BLUE],
        board.outcome(),
    )


@settings(max_examples=100, deadline=None)
@given(any_boards)
def test_push_pop_restores_everything(board: Board) -> None:
    before = _snapshot(board)
    for move in list(board.legal_moves):
        board.push(move)
        assert board.zobrist_hash() == Board(board.fen(), board.rules).zobrist_hash()
        assert board.pop() == move
        assert _snapshot(board) == before
    board.push(Move.null())  # unchecked, like push(move): the set-up may be a finished game
    assert board.pop() == Move.null()
    assert _snapshot(board) == before


@settings(max_examples=80, deadline=None)
@given(rule_sets, st.lists(st.integers(0, 1 << 16), max_size=80))
def test_incremental_hash_equals_hash_from_scratch(rules: str, choices: list[int]) -> None:
    board = Board(rules=rules)
    fens = [board.fen()]
    for choice in choices:
        _play(board, [choice])
        assert board.zobrist_hash() == Board(board.fen(), rules).zobrist_hash()
        fens.append(board.fen())
    # Unwinding the whole game goes back through the same positions and hashes.
    while board.move_stack:
        assert board.fen() == fens[board.ply()]
        board.pop()
        assert board.zobrist_hash() == Board(board.fen(), rules).zobrist_hash()
    assert board.fen() == fens[0]


# ------------------------------------------------------------------------ symmetry


def _turn_square(square: int) -> int:
    return NUM_SQUARES - 1 - square  # a half turn: a1 <-> g9


def _mirror_square(square: int) -> int:
    row, column = divmod(square, 7)
    return row * 7 + 6 - column  # left to right: a1 <-> g1


@settings(max_examples=100, deadline=None)
@given(setups(), rule_sets)
def test_turned_and_mirrored_positions_have_the_same_moves(fen: str, rules: str) -> None:
    """The rules are symmetric under a half turn with colours swapped, and left to right."""
    board = Board(fen, rules)
    placement, side, *counters = fen.split()
    turned_placement = "/".join(row[::-1] for row in reversed(placement.split("/"))).swapcase()
    turned = Board(" ".join([turned_placement, "w" if side == "b" else "b", *counters]), rules)
    mirrored_placement = "/".join(row[::-1] for row in placement.split("/"))
    mirrored = Board(" ".join([mirrored_placement, side, *counters]), rules)
    moves = {(m.from_square, m.to_square) for m in board.legal_moves}
    for other, transform in ((turned, _turn_square), (mirrored, _mirror_square)):
        assert {(m.from_square, m.to_square) for m in other.legal_moves} == {
            (transform(frm), transform(to)) for frm, to in moves
        }
        assert other.perft(2) == board.perft(2)
        outcome, other_outcome = board.outcome(), other.outcome()
        assert (outcome is None) == (other_outcome is None)
        if outcome is not None and other_outcome is not None:
            assert outcome.termination == other_outcome.termination


# ------------------------------------------------------------------------ legality


@settings(max_examples=100, deadline=None)
@given(any_boards, st.lists(st.tuples(st.integers(0, 62), st.integers(0, 62)), max_size=40))
def test_membership_agrees_with_iteration(board: Board, pairs: list[tuple[int, int]]) -> None:
    legal = list(board.legal_moves)
    assert len(legal) == len(set(legal)) == board.legal_moves.count()
    assert bool(board.legal_moves) == bool(legal)
    for move in legal:
        assert move in board.legal_moves
        assert board.is_pseudo_legal(move)
        assert board.explain_illegal(move) is None
    legal_set = set(legal)
    # Every move of one of the side's animals, and random from/to pairs.
    candidates = [
        Move(s, t)
        for s in range(NUM_SQUARES)
        if (p := board.piece_at(s)) is not None and p.color == board.turn
        for t in range(NUM_SQUARES)
    ]
    candidates += [Move(s, t) for s, t in pairs]
    for move in candidates:
        inside = move in board.legal_moves
        assert inside == (move in legal_set), move
        if not inside:
            reason = board.explain_illegal(move)
            assert isinstance(reason, str) and reason, move
    assert Move.null() not in board.legal_moves
    assert "a3a4" not in board.legal_moves


# -------------------------------------------------------------------------- games


def _check_outcome(board: Board, outcome: Outcome) -> None:
    rules = board.rules
    termination, winner = outcome.termination, outcome.winner
    assert termination.is_on_board
    assert outcome.result() == {None: "1/2-1/2", RED: "1-0", BLUE: "0-1"}[winner]
    assert board.result() == outcome.result()
    assert board.is_game_over()
    if termination is Termination.DEN_ENTERED:
        assert winner in (RED, BLUE)
        piece = board.piece_at(DENS[1 - winner])
        assert piece is not None and piece.color == winner
        assert board.is_game_over_on_board()
        assert not board.legal_moves
    elif termination is Termination.ALL_CAPTURED:
        assert winner in (RED, BLUE)
        assert board.occupied_co[1 - winner] == 0
        # Only an empty set-up (never reached in play) leaves the winner without animals.
        assert board.occupied_co[winner] != 0 or board.occupied == 0
        assert not board.legal_moves
    elif termination is Termination.NO_LEGAL_MOVES:
        assert winner == 1 - board.turn
        assert not board.legal_moves
        assert not any(
            board.is_pseudo_legal(Move(s, t))
            for s in range(NUM_SQUARES)
            for t in range(NUM_SQUARES)
        )
    elif termination is Termination.MOVE_RESTRICTIONS:
        assert winner == 1 - board.turn
        assert (
            rules.rule_7_3
            or rules.rule_17_5
            or (rules.repetition is Repetition.INITIATOR_MUST_VARY)
        )
        assert not board.legal_moves
        assert any(
            board.is_pseudo_legal(Move(s, t))
            for s in range(NUM_SQUARES)
            for t in range(NUM_SQUARES)
        )
    elif termination is Termination.REPETITION:
        assert winner is None
        assert rules.repetition is Repetition.THREEFOLD_DRAW
        assert board.repetition_count() >= 3
    elif termination is Termination.NO_CAPTURE_LIMIT:
        assert winner is None
        assert rules.no_capture_draw_rounds is not None
        assert board.halfmove_clock >= 2 * rules.no_capture_draw_rounds
    else:  # pragma: no cover - an off-board ending can't come from the board
        raise AssertionError(f"unexpected termination {termination}")


MAX_PLIES = 400


@settings(max_examples=60, deadline=None)
@given(rule_sets, st.integers(0, 2**32 - 1), st.booleans())
def test_random_games_continue_or_end_with_a_valid_outcome(
    rules: str, seed: int, shuttle: bool
) -> None:
    rng = random.Random(seed)
    board = Board(rules=rules)
    for _ in range(MAX_PLIES):
        if board.outcome() is not None:
            break
        moves = list(board.legal_moves)
        assert moves, "no outcome, so there must be a legal move"
        move = rng.choice(moves)
        if shuttle and len(board.move_stack) >= 2 and rng.random() < 0.5:
            own_last = board.move_stack[-2]
            back = Move(own_last.to_square, own_last.from_square)
            if back in board.legal_moves:
                move = back
        board.push(move)
        assert board.piece_at(move.to_square) is not None
        assert board.piece_at(move.from_square) is None
    outcome = board.outcome()
    if outcome is None:
        assert board.legal_moves  # the game goes on
    else:
        _check_outcome(board, outcome)
    # The game can be unwound to the start.
    while board.move_stack:
        board.pop()
    assert board.fen() == Board(rules=rules).fen()


@settings(max_examples=150, deadline=None)
@given(setup_boards())
def test_setups_continue_or_have_a_valid_outcome(board: Board) -> None:
    # Random set-ups often have a side without animals or an animal in a den.
    outcome = board.outcome()
    if outcome is None:
        assert board.legal_moves
    else:
        _check_outcome(board, outcome)


def test_every_named_rule_set_is_covered() -> None:
    assert set(RULE_SET_NAMES) >= {"wango", "classic", "classic-dog", "international"}


# --------------------------------------------------------------------------- copies


@settings(max_examples=60, deadline=None)
@given(playouts(max_plies=40), st.lists(st.integers(0, 1 << 16), min_size=1, max_size=10))
def test_copy_is_independent(board: Board, choices: list[int]) -> None:
    copy = board.copy()
    assert copy == board
    assert copy.fen() == board.fen()
    assert copy.move_stack == board.move_stack
    assert copy.zobrist_hash() == board.zobrist_hash()
    assert copy.repetition_count() == board.repetition_count()
    assert copy.outcome() == board.outcome()
    assert [str(m) for m in copy.legal_moves] == [str(m) for m in board.legal_moves]
    before = _snapshot(board)
    _play(copy, choices)
    assert _snapshot(board) == before
    # ... and the other way round.
    copy_before = _snapshot(copy)
    _play(board, choices)
    while board.move_stack:
        board.pop()
    assert _snapshot(copy) == copy_before
    assert board.fen() == Board(rules=board.rules).fen()


def test_square_names_cover_the_board() -> None:
    assert len({square_name(s) for s in range(NUM_SQUARES)}) == NUM_SQUARES
