"""The Tiger engine's protocol: round trips in process (options, positions, go, MultiPV,
perft, bad input), and ``doushouqi engine --game tiger`` as a real process."""

from __future__ import annotations

import io
import subprocess
import sys
import time

import pytest
from tests.tiger.ai.protocol_session import Session

from doushouqi.tiger.ai import Searcher
from doushouqi.tiger.ai.protocol import DEFAULT_CONTEMPT, EngineProtocol
from doushouqi.tiger.ai.search_driver import DEFAULT_TUNING
from doushouqi.tiger.board import Board
from doushouqi.tiger.engine.protocol import parse_info, parse_option


@pytest.fixture(scope="module")
def shared_engine() -> Searcher:
    searcher = Searcher("laohuqi", hash_mb=8)
    searcher.warm_up()
    return searcher


@pytest.fixture
def session(shared_engine: Searcher) -> Session:
    shared_engine.new_game()
    return Session(shared_engine)


def test_the_handshake_lists_the_options(session: Session) -> None:
    lines = session.say("uci")
    assert lines[0].startswith("id name doushouqi-tiger") and lines[-1] == "uciok"
    options = {parse_option(line[7:]).name: parse_option(line[7:]) for line in lines
               if line.startswith("option ")}  # fmt: skip
    assert options["Rules"].var == ("laohuqi", "laohuqi-18", "laohuqi-strict", "laohuqi-south")
    assert options["Level"].min == 1 and options["Level"].max == 10
    assert options["diagonals"].var == ("none", "nest", "all")
    assert options["multi_jump"].type == "check"
    assert options["Contempt"].default == str(DEFAULT_TUNING["contempt"]) == str(DEFAULT_CONTEMPT)


def test_position_and_go_give_a_legal_move(session: Session) -> None:
    session.say("position startpos moves e10e9 d2d3")
    lines = session.search("go depth 5")
    infos = [parse_info(line[5:]) for line in lines if line.startswith("info ")]
    assert [info["depth"] for info in infos[:5]] == [1, 2, 3, 4, 5]
    move = lines[-1].split()[1]
    board = Board()
    for text in ("e10e9", "d2d3"):
        board.push_move(text)
    assert board.parse_move(move)
    assert str(infos[-1]["pv"][0]) == move


def test_a_won_position_reports_mate(session: Session) -> None:
    session.say("position fen 3/3/9/9/9/4M4/4T4/9/9/9/MM6M t 0 1")
    lines = session.search("go depth 3")
    assert "score mate 1" in lines[-2] and lines[-1].startswith("bestmove e5e7")


def test_multipv_lines_and_levels(session: Session) -> None:
    session.say("setoption name MultiPV value 3", "setoption name Level value 3")
    lines = session.search("go depth 2")
    assert {parse_info(line[5:]).get("multipv") for line in lines if " multipv " in line} == {
        1, 2, 3,
    }  # fmt: skip


def test_rules_and_rule_options(session: Session) -> None:
    session.say("setoption name Rules value laohuqi-south", "position startpos")
    assert session.say("d")[-1] == "Fen: 3/T1T/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1"
    session.say("setoption name men value 18")
    rules_line, fen_line = session.say("d")[-2:]
    assert rules_line == "Rules: custom" and fen_line.endswith("MMMMMMMMM/MMMMMMMMM t 0 1")
    session.say("setoption name Rules value laohuqi", "setoption name multi_jump value true")
    session.say("position fen 3/3/9/9/9/9/MM7/9/9/9/TM1M1M3 t 0 1")  # b1 d1 f1 in a row
    lines = session.search("go depth 2")
    assert lines[-1] == "bestmove a1c1e1g1" and "score mate 1" in lines[-2]


def test_perft_is_the_compiled_generators(session: Session) -> None:
    assert session.say("position startpos", "perft 4")[-1] == "2093"
    lines = session.say("perft 2 divide")
    assert lines[-1] == "44" and "e10e9: 11" in lines


def test_pass_moves_and_a_timeouts_pass(session: Session) -> None:
    session.say("position startpos moves e10e9 0000 e9e8")
    assert session.say("d")[-1].endswith(" m 3 2")  # three plies without a capture


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("bogus", "unknown command"),
        ("setoption name Level value 11", "Level: expected 1..10"),
        ("setoption name Level value ten", "expected an integer"),
        ("setoption name Rules value wango", "unknown rule set"),
        ("setoption name diagonals value some", "expected none, nest or all"),
        ("setoption name men value 13", "men: expected 12 or 18"),
        ("setoption name Colour value red", "unknown option"),
        ("setoption Level 3", "expected: setoption name"),
        ("position fen 3/3/9 t", "position"),
        ("position startpos moves e10e8", "illegal move e10e8"),
        ("position startpos moves e10", "not a move string"),
        ("position sideways", "expected startpos or fen"),
        ("go depth", "depth: missing value"),
        ("go sideways 3", "unknown go parameter"),
        ("go depth x", "expected an integer"),
        ("perft 99", "depth: expected"),
        ("perft 2 all", "expected: perft"),
        ("ponderhit", "not pondering"),
    ],
)
def test_bad_input_is_answered_and_the_session_goes_on(
    session: Session, line: str, error: str
) -> None:
    session.say("position startpos moves e10e9")
    answer = session.say(line)
    assert len(answer) == 1 and answer[0].startswith("info string error") and error in answer[0]
    assert session.say("d")[-1].startswith("Fen: 3/3/4T4/")  # the old position stands
    assert session.say("isready") == ["readyok"]


def test_go_infinite_waits_for_stop(session: Session) -> None:
    session.say("position startpos")
    session.protocol.handle("go infinite")
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for line in session.out.getvalue().splitlines())
    session.protocol.handle("stop")
    assert session.out.getvalue().splitlines()[-1].startswith("bestmove")


def test_the_engine_command_speaks_the_protocol() -> None:
    # A real process, driven line by line: `quit` goes only once the search has answered (sent
    # at once, it may end a search still compiling on a cold machine before its bestmove).
    engine = subprocess.Popen(
        [sys.executable, "-m", "doushouqi", "engine", "--game", "tiger"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert engine.stdin is not None and engine.stdout is not None
    try:
        engine.stdin.write("uci\nisready\nposition startpos\ngo depth 4\n")
        engine.stdin.flush()
        lines = []
        while not (lines and lines[-1].startswith("bestmove")):
            line = engine.stdout.readline()
            assert line, f"the engine ended without a bestmove: {lines}"
            lines.append(line.strip())
        assert "uciok" in lines and "readyok" in lines
        assert lines[-1].startswith("bestmove e10")
        engine.stdin.write("isready\nquit\n")
        engine.stdin.flush()
        assert engine.stdout.readline().strip() == "readyok"
        assert engine.wait(timeout=60) == 0
    finally:
        engine.kill()


def test_end_of_input_waits_for_a_search_that_ends_by_itself(shared_engine: Searcher) -> None:
    # `printf '…go depth 8\n' | doushouqi engine --game tiger`: the whole search, as Jungle's.
    out = io.StringIO()
    EngineProtocol(out, engine=shared_engine).run(["position startpos\n", "go depth 8\n"])
    lines = out.getvalue().splitlines()
    assert any(line.startswith("info depth 8 ") for line in lines), lines
    assert lines[-1].startswith("bestmove ")


def test_end_of_input_stops_an_infinite_search(shared_engine: Searcher) -> None:
    out = io.StringIO()
    started = time.monotonic()
    EngineProtocol(out, engine=shared_engine).run(["position startpos\n", "go infinite\n"])
    assert out.getvalue().splitlines()[-1].startswith("bestmove ")
    assert time.monotonic() - started < 30
