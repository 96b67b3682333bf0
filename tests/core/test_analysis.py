"""The shared search terms (doushouqi.core.analysis) against python-chess's chess.engine:
the same snippets, ported, give the same answers where the games agree with chess."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doushouqi.core.analysis import InfoSelection, Limit, PovScore, Score, select_info
from doushouqi.jungle import analysis as jungle
from doushouqi.tiger import analysis as tiger

chess_engine = pytest.importorskip("chess.engine")

moves = st.integers(-200, 200).filter(bool)
centipawns = st.integers(-5000, 5000)


def test_limit_takes_python_chess_keywords() -> None:
    limit = Limit(time=0.5, depth=3, nodes=100, mate=2, white_clock=10.0, black_clock=9.0,
                  white_inc=1.0, black_inc=1.0, remaining_moves=20)  # fmt: skip
    assert (limit.time, limit.movetime, limit.remaining_moves, limit.moves_to_go) == (
        0.5, 0.5, 20, 20,
    )  # fmt: skip
    assert str(limit) == (
        "depth 3 nodes 100 movetime 500 wtime 10000 btime 9000 winc 1000 binc 1000 "
        "movestogo 20 mate 2"
    )
    assert repr(Limit(time=0.5)) == repr(chess_engine.Limit(time=0.5)) == "Limit(time=0.5)"


def test_each_game_names_its_seats_clocks() -> None:
    red = jungle.Limit(red_clock=5.0, blue_inc=1.0, time=2.0)
    assert (red.white_clock, red.red_clock, red.black_inc, red.blue_inc) == (5.0, 5.0, 1.0, 1.0)
    assert jungle.Limit(white_clock=5.0).red_clock == 5.0
    assert tiger.Limit(men_clock=3.0).clock(1) == (3.0, None)
    assert dataclasses.replace(red, depth=4).red_clock == 5.0  # replace() goes through __init__
    with pytest.raises(TypeError, match="red_clock and white_clock"):
        jungle.Limit(red_clock=1.0, white_clock=2.0)
    with pytest.raises(TypeError):
        jungle.Limit(wtime=1.0)  # a protocol word is no keyword


@given(moves, st.integers(1, 10**6))
def test_mate_scores_as_python_chess(n: int, mate_score: int) -> None:
    ours, theirs = Score(mate=n), chess_engine.Mate(n)
    assert ours.mate() == theirs.mate() == n and ours.is_mate() and theirs.is_mate()
    assert ours.score() is theirs.score() is None
    assert ours.score(mate_score=mate_score) == theirs.score(mate_score=mate_score)
    assert (-ours).mate() == (-theirs).mate()


@given(centipawns)
def test_centipawn_scores_as_python_chess(cp: int) -> None:
    ours, theirs = Score(cp=cp), chess_engine.Cp(cp)
    assert ours.score() == theirs.score() == cp and ours.mate() is theirs.mate() is None
    assert not ours.is_mate() and ours.score(mate_score=10) == cp
    wdl = ours.wdl()
    # Per mille, a lead under 3 cp rounds to an even 500: never to the other side.
    assert wdl.total() == 1000 and (wdl.expectation() - 0.5) * cp >= 0
    assert (wdl.expectation() > 0.5) == (cp > 0) or abs(cp) <= 2


scores = st.one_of(moves.map(lambda n: ("mate", n)), centipawns.map(lambda c: ("cp", c)))


@given(scores, scores)
def test_scores_are_ordered_as_python_chess(a: tuple[str, int], b: tuple[str, int]) -> None:
    def ours(kind: str, n: int) -> Score:
        return Score(mate=n) if kind == "mate" else Score(cp=n)

    def theirs(kind: str, n: int) -> chess_engine.Score:
        return chess_engine.Mate(n) if kind == "mate" else chess_engine.Cp(n)

    assert (ours(*a) < ours(*b)) == (theirs(*a) < theirs(*b))
    assert (ours(*a) == ours(*b)) == (theirs(*a) == theirs(*b))


def test_pov_score_as_python_chess() -> None:
    ours = PovScore(Score(mate=-3), 1)
    theirs = chess_engine.PovScore(chess_engine.Mate(-3), False)  # Black to move
    assert ours.white().mate() == theirs.white().mate() == 3
    assert ours.black().mate() == theirs.black().mate() == -3
    assert ours.is_mate() and ours.relative == Score(mate=-3)
    assert jungle.PovScore(cp=40, turn=1).red() == Score(cp=-40)
    with pytest.raises(TypeError):
        PovScore(Score(cp=1), 0, cp=2)


def test_a_score_has_exactly_one_kind() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        Score()
    with pytest.raises(ValueError, match="exactly one"):
        Score(cp=1, mate=2)


def test_info_selection_keeps_what_was_asked() -> None:
    info = jungle.Info(depth=5, score=Score(cp=3), pv=[], nodes=9, string="x")
    assert select_info(info, InfoSelection.ALL) == info
    assert select_info(info, InfoSelection.NONE) == {}
    assert set(select_info(info, InfoSelection.BASIC)) == {"depth", "nodes", "string"}
    assert set(select_info(info, InfoSelection.SCORE | InfoSelection.PV)) == {"score", "pv"}
