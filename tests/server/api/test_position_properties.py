"""``POST /api/position`` and ``POST /api/analysis`` never answer a 5xx, whatever position
string and move list they get: position strings built from the letters, digits and separators
of the format (well formed, slightly broken, or counters of any size and any digits), and move
lists that mix legal moves, timeout passes (also after the game ended) and garbage.

The rules library is the oracle: a request is answered (200) exactly when the library reads
the position and plays every move (a pass with ``allow_pass``), and then with the library's
position; otherwise it is a 422 that says why. Analysis runs on the in-process RandomAi here;
one test sends absurd counters to the real engine in its worker process.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tests.support.live import Player, make_settings, running

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.fen import MAX_HALFMOVE_CLOCK, MAX_MOVE_NUMBER
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.jungle.squares import DENS, RAT, SQUARE_NAMES, WATER, code_animal, code_color
from doushouqi.server.ai.pool import ProcessPoolAi
from doushouqi.server.api.analysis import MAX_MOVES
from doushouqi.server.infra.settings import RateLimit

FEN_MAX_LENGTH = 200  # PositionQuery.fen
RULE_SETS = sorted(BUILTIN_RULE_SETS)
LETTERS = "RCDWPTLE"
#: Positions a move or two from their end (a den, the last animal, no legal move), so that
#: passes after the end come up often.
NEAR_THE_END = [
    "7/3L3/7/7/7/7/7/7/e6",  # Red's lion beside Blue's den
    "7/7/7/7/c6/E6/7/7/7",  # Red's elephant beside Blue's last animal
    "cW5/D6/7/7/7/7/7/7/7",  # Blue's cat hemmed in: no legal move for Blue
    "7/7/7/7/7/7/7/7/6L",  # Blue has no animal
    "r6/3L3/7/7/7/7/7/7/7",
]

# ------------------------------------------------------------------------ strategies


@st.composite
def placements(draw: st.DrawFn) -> str:
    """A placement: a random set-up, one near the end, or either with a character changed."""
    if draw(st.booleans()):
        placement = draw(st.sampled_from(NEAR_THE_END))
    else:
        codes = draw(st.lists(st.integers(1, 16), unique=True, max_size=16))
        board: dict[int, int] = {}
        for code in codes:
            free = [
                square
                for square in range(63)
                if square not in board
                and square != DENS[code_color(code)]
                and (code_animal(code) == RAT or not WATER >> square & 1)
            ]
            board[draw(st.sampled_from(free))] = code
        placement = Board(_placement_fen(board)).board_fen()
    if draw(st.integers(0, 4)) == 0:  # broken: a character replaced, inserted or dropped
        index = draw(st.integers(0, len(placement)))
        char = draw(st.sampled_from(LETTERS + LETTERS.lower() + "0123456789/ xX-+١²"))
        cut = index + draw(st.integers(0, 1))
        placement = placement[:index] + draw(st.sampled_from([char, ""])) + placement[cut:]
    return placement


def _placement_fen(board: dict[int, int]) -> str:
    rows = []
    for row in range(8, -1, -1):
        text, empty = "", 0
        for square in range(row * 7, row * 7 + 7):
            code = board.get(square)
            if code is None:
                empty += 1
                continue
            if empty:
                text, empty = text + str(empty), 0
            letter = LETTERS[code_animal(code) - 1]
            text += letter if code_color(code) == 0 else letter.lower()
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows) + " w"


#: A counter: mostly a small one, else any whole number (far beyond 64 bits too), one near the
#: ends of the range, or text that int() would take but a position string must not (signs,
#: '_', other digits).
small_counters = st.integers(min_value=0, max_value=300).map(str)
counters = st.one_of(
    small_counters,
    small_counters,
    small_counters,
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.integers(min_value=-2, max_value=MAX_MOVE_NUMBER + 2).map(str),
    st.sampled_from([str(2**63 - 1), str(2**63), str(2**64), "9" * 30, "0" * 30 + "7", "9" * 4400]),
    st.text(alphabet="0123456789+-_.e١٢３²", min_size=1, max_size=24),
)


@st.composite
def position_strings(draw: st.DrawFn) -> str | None:
    if draw(st.integers(0, 9)) == 0:
        return None  # the rule set's start
    side = draw(st.sampled_from(["w", "b"] * 4 + ["r", "B", "x", "-", "wb"]))
    fields = [draw(placements()), side, *draw(st.lists(counters, max_size=2))]
    if draw(st.integers(0, 19)) == 0:  # a field too many
        fields.append(draw(counters))
    elif draw(st.integers(0, 19)) == 0:  # one missing
        fields.pop()
    separator = draw(st.sampled_from([" ", " ", " ", "  ", "\t", "\u3000"]))
    return separator.join(fields)


@st.composite
def queries(draw: st.DrawFn) -> dict[str, Any]:
    """A query: rules, position string and a move list that follows the game where it can
    (legal moves, passes) and throws in garbage."""
    rules = draw(st.sampled_from(RULE_SETS))
    fen = draw(position_strings())
    try:
        board: Board | None = Board(fen, rules)
    except ValueError:
        board = None
    moves: list[str] = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["legal"] * 8 + ["pass"] * 2 + ["squares", "garbage"]))
        legal = sorted(board.legal_moves, key=str) if board is not None else []
        if kind == "legal" and legal:
            move = draw(st.sampled_from(legal))
            moves.append(str(move))
        elif kind in ("legal", "pass"):
            moves.append(draw(st.sampled_from(["0000", " 0000", "0000 ", "0000\n"])))
            move = Move.null()
        elif kind == "squares":  # mostly illegal; the game is followed only when legal
            moves.append(draw(st.sampled_from(SQUARE_NAMES)) + draw(st.sampled_from(SQUARE_NAMES)))
            move = Move.from_str(moves[-1])
            if move not in legal:
                continue
        else:
            moves.append(draw(st.text(alphabet="abcdefghz0123456789 -x:", max_size=7)))
            continue
        if board is not None:
            board.push(move)  # unchecked (passes after the end too): the oracle decides
    return {"rules": rules, "fen": fen, "moves": moves}


# ------------------------------------------------------------------------ the oracle


def library_board(query: dict[str, Any]) -> Board | None:
    """The position the library reaches, or None where it refuses the query."""
    fen = query["fen"]
    if (fen is not None and len(fen) > FEN_MAX_LENGTH) or len(query["moves"]) > MAX_MOVES:
        return None
    try:
        board = Board(fen, query["rules"])
        for text in query["moves"]:
            board.push_move(text, allow_pass=True)
    except ValueError:
        return None
    return board


def check_answer(answer: Any, board: Board | None) -> dict[str, Any]:
    assert answer.status_code < 500, answer.text
    if board is None:
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"]
        return {}
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    assert data["fen"] == board.fen()
    assert data["turn"] == board.turn
    return data


# ------------------------------------------------------------------------ the tests


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Player]:
    settings = make_settings(
        tmp_path_factory.mktemp("positions"), analysis_rate=RateLimit(1_000_000, 60.0)
    )
    with running(settings) as live:  # RandomAi: analyses answer at once
        yield live.player()


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(query=queries())
def test_position_never_fails_and_agrees_with_the_library(
    client: Player, query: dict[str, Any]
) -> None:
    board = library_board(query)
    data = check_answer(client.post("/api/position", json=query), board)
    if board is not None:
        over = board.outcome() is not None
        assert (data["outcome"] is not None) == over
        assert [m["move"] for m in data["moves"]] == [str(m) for m in board.move_stack]
        destinations = sum(len(squares) for squares in data["dests"].values())
        assert destinations == (0 if over else board.legal_moves.count())


@FUZZ
@given(query=queries())
def test_analysis_never_fails_and_agrees_with_the_library(
    client: Player, query: dict[str, Any]
) -> None:
    board = library_board(query)
    data = check_answer(client.post("/api/analysis", json={**query, "movetime": 0.05}), board)
    if board is not None:
        if board.is_game_over():
            assert data["bestmove"] is None
        else:
            assert board.parse_move(data["bestmove"]) in board.legal_moves


@pytest.fixture(scope="module")
def engine_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Player]:
    # A long margin: the first analysis also waits for the worker to start and load the engine.
    settings = make_settings(
        tmp_path_factory.mktemp("engine"),
        analysis_rate=RateLimit(1_000_000, 60.0),
        ai_timeout_margin=90.0,
    )
    with running(settings, ai=ProcessPoolAi(1)) as live:
        yield live.player()


# The engine keeps the halfmove clock as a 64-bit number: 2**63 and beyond once overflowed it
# (a 503), and under wango (no no-capture limit) no draw stops the search before it.
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rules=st.sampled_from(RULE_SETS),
    halfmove=st.one_of(st.integers(0, MAX_HALFMOVE_CLOCK), st.integers(2**63 - 2, 2**80)),
    fullmove=st.one_of(st.integers(1, MAX_MOVE_NUMBER), st.integers(2**63 - 2, 2**80)),
    moves=st.sampled_from([[], ["d8e8"], ["d8e8", "0000"]]),
)
@example(rules="wango", halfmove=2**63, fullmove=1, moves=[])
@example(rules="wango", halfmove=2**63 - 1, fullmove=2**63, moves=["d8e8", "0000"])
@example(rules="wango", halfmove=2**64, fullmove=2**64, moves=["d8e8"])
@example(rules="wango", halfmove=MAX_HALFMOVE_CLOCK, fullmove=MAX_MOVE_NUMBER, moves=["d8e8"])
def test_the_real_engine_never_sees_absurd_counters(
    engine_client: Player, rules: str, halfmove: int, fullmove: int, moves: list[str]
) -> None:
    query = {"rules": rules, "fen": f"7/3L3/7/7/7/7/7/7/e6 w {halfmove} {fullmove}", "moves": moves}
    board = library_board(query)
    assert (board is None) == (halfmove > MAX_HALFMOVE_CLOCK or fullmove > MAX_MOVE_NUMBER)
    answer = engine_client.post("/api/analysis", json={**query, "movetime": 0.05}, timeout=60)
    data = check_answer(answer, board)
    if board is not None and not board.is_game_over():
        assert board.parse_move(data["bestmove"]) in board.legal_moves
