"""The Tiger engine's ``go``, read as Jungle's engine reads it (issue 30): every bad ``go`` is
refused as a whole and starts nothing, ``depth 0``/``nodes 0`` answer at once, ``searchmoves``
restricts the root, ``mate N`` stops once the win is proven; the Searcher's ``root_moves`` and
``Limit(mate=N)`` under it; and the real ``doushouqi engine --game tiger`` process."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.support.go_probes import ZERO_LIMITS, bad_go_probes
from tests.support.tiger_moves import TRAP
from tests.tiger.ai.protocol_session import Session

from doushouqi.tiger.ai import Searcher
from doushouqi.tiger.analysis import Limit, Score
from doushouqi.tiger.board import Board
from doushouqi.tiger.engine.protocol import parse_info
from doushouqi.tiger.moves import Move

#: The men to move, one step from trapping the tiger on d11 (TRAP's last move, e10d10).
ONE_FROM_THE_TRAP = "position startpos moves " + " ".join(TRAP[:-1])


@pytest.fixture(scope="module")
def shared_engine() -> Searcher:
    searcher = Searcher("laohuqi", hash_mb=8)
    searcher.warm_up()
    return searcher


@pytest.fixture
def session(shared_engine: Searcher) -> Session:
    shared_engine.new_game()
    return Session(shared_engine)


def _bestmoves(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("bestmove")]


def _depths(lines: list[str]) -> list[int]:
    return [int(line.split()[2]) for line in lines if line.startswith("info depth ")]


@pytest.mark.parametrize(("arguments", "message"), bad_go_probes("e10e9"))
def test_a_bad_go_is_refused_and_starts_nothing(
    session: Session, arguments: str, message: str
) -> None:
    session.say("position startpos")
    assert session.say(f"go {arguments}") == [f"info string error go: {message}"]
    # No search started: isready comes alone and the next go is the only one answered.
    assert session.say("isready") == ["readyok"]
    assert len(_bestmoves(session.search("go depth 1"))) == 1


@pytest.mark.parametrize("limit", ZERO_LIMITS)
def test_zero_limits_answer_at_once(session: Session, limit: str) -> None:
    session.say("position startpos")
    lines = session.search(f"go {limit}", timeout=3.0)
    assert Board().is_legal(Move.from_str(lines[-1].split()[1]))
    if "movetime" not in limit:  # one ply; a millisecond may reach further
        assert max(_depths(lines)) == 1


def test_searchmoves_restricts_the_root_moves(session: Session) -> None:
    session.say("position startpos")
    free = session.search("go depth 3")[-1].split()[1]
    allowed = {"e10d10", "e10f10", "e10e11"} - {free}
    lines = session.search(f"go depth 3 searchmoves {' '.join(sorted(allowed))}")
    assert lines[-1].split()[1] in allowed
    for line in lines:
        if line.startswith("info depth"):
            assert line.split(" pv ")[1].split()[0] in allowed, line
    # The men's move, with the tiger to move.
    error = session.say("go searchmoves a1a2 depth 2")
    assert error == ["info string error go: searchmoves: not legal in this position: a1a2"]
    lines = session.search("go searchmoves e10e11 depth 2")  # one move, words after it
    assert lines[-1].split()[:2] == ["bestmove", "e10e11"]


def test_go_mate_stops_once_the_win_is_proven(session: Session) -> None:
    session.say(ONE_FROM_THE_TRAP)
    for go in ("go mate 1", "go mate 3"):
        lines = session.search(go)
        assert lines[-1] == f"bestmove {TRAP[-1]}"  # the game ends: nothing to ponder on
        assert " score mate 1 " in lines[-2] and _depths(lines) == [1, 1], lines
    # No win to find: the search ends after the 2N - 1 plies of a mate in N.
    session.say("position startpos")
    lines = session.search("go mate 2")
    assert max(_depths(lines)) == 3 and " score cp " in lines[-2]


def test_movestogo_is_accepted(session: Session) -> None:
    session.say("position startpos")
    lines = session.search("go wtime 2000 btime 2000 movestogo 40", timeout=3.0)
    assert Board().is_legal(Move.from_str(lines[-1].split()[1]))


@pytest.mark.parametrize(
    "head", ["", "position fen ", "position startpos moves ", "go depth ", "go searchmoves "]
)
def test_a_long_line_is_not_echoed_back(session: Session, head: str) -> None:
    session.say("position startpos")
    (error,) = session.say(head + "x" * 1_000_000)
    assert error.startswith("info string error") and "x" * 80 in error, error[:600]
    assert len(error) < 500 and "x" * 200 not in error, error[:600]


def test_the_searcher_takes_root_moves_and_a_mate_limit(shared_engine: Searcher) -> None:
    board = Board()
    only = [Move.from_str("e10e11")]
    result = shared_engine.search(board, Limit(depth=2), root_moves=only)
    assert result.move == only[0] and result.info["pv"][0] == only[0]
    with pytest.raises(ValueError, match="no legal move among the root moves"):
        shared_engine.search(board, Limit(depth=2), root_moves=[Move.from_str("a1a2")])
    trapped = Board()
    for text in TRAP[:-1]:
        trapped.push_move(text)
    result = shared_engine.search(trapped, Limit(mate=2))
    assert str(result.move) == TRAP[-1] and result.info["score"] == Score(mate=1)
    assert result.info["depth"] == 1  # proven at once, not searched to the 3 plies allowed


def test_the_engine_process_answers_searchmoves_and_mate() -> None:
    # Piped: the end of the input lets the search finish, as `go mate 1` ends by itself.
    script = ["position startpos", "go searchmoves", ONE_FROM_THE_TRAP, "go mate 1"]
    done = subprocess.run(
        [sys.executable, "-m", "doushouqi", "engine", "--game", "tiger"],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert "info string error go: searchmoves: expected one or more moves" in lines
    assert lines[-1] == f"bestmove {TRAP[-1]}"
    assert parse_info(lines[-2][5:])["score"] == Score(mate=1)
