"""python-chess's game-tree and archive idioms, ported: ``promote_to_main``, ``promote``,
``demote``, ``add_main_variation``, ``add_line``, ``[%clk]``/``[%eval]`` comments through
``clock()``/``eval()``/``set_clock``/``set_eval``, and ``read_headers``/``skip_game``; each
snippet also runs on python-chess where the two agree."""

from __future__ import annotations

import io

import pytest

from doushouqi.jungle.analysis import PovScore, Score
from doushouqi.jungle.board import Move
from doushouqi.jungle.record import (
    GameRecord,
    RecordError,
    read_game,
    read_headers,
    read_record,
    skip_game,
    write_record,
)

chess_pgn = pytest.importorskip("chess.pgn")
chess_engine = pytest.importorskip("chess.engine")


def _moves(*texts: str) -> list[Move]:
    return [Move.from_uci(text) for text in texts]


def _tree() -> GameRecord:
    """1. a3a4 (1. g3g4 {rat} a7a6) (1. g1g2) 1... a7a6."""
    record = GameRecord()
    root = record.root()
    root.add_line(_moves("a3a4", "a7a6"))
    root.add_line(_moves("g3g4", "a7a6"), starting_comment="side")
    root.variation(1).comment = "rat"
    root.add_variation(Move.from_uci("g1g2"))
    return record


def _children(record: GameRecord) -> list[str]:
    return [str(node.move) for node in record.root().variations]


def test_promote_demote_and_promote_to_main() -> None:
    record = _tree()
    assert _children(record) == ["a3a4", "g3g4", "g1g2"]
    record.root().promote(record.root().variation(2))
    assert _children(record) == ["a3a4", "g1g2", "g3g4"]
    record.root().promote_to_main(record.root().variation(2))
    assert _children(record) == ["g3g4", "a3a4", "g1g2"]
    assert [str(m) for m in record.moves] == ["g3g4", "a7a6"]
    main = record.root().next()
    assert main is not None and main.comment == "rat" and main.is_main_line()
    record.root().demote(record.root().variation(0))
    assert _children(record) == ["a3a4", "g3g4", "g1g2"]
    assert [str(m) for m in record.moves] == ["a3a4", "a7a6"]
    # The tree still writes and reads back as itself.
    assert read_record(write_record(record)) == record
    with pytest.raises(ValueError, match="not a move after this node"):
        record.root().promote(record.root().end())

    game = chess_pgn.Game()  # the same moves on python-chess
    for uci in ("e2e4", "d2d4", "c2c4"):
        game.add_variation(chess_pgn.chess.Move.from_uci(uci))
    game.promote(game.variations[2])
    game.promote_to_main(game.variations[2])
    game.demote(game.variations[0])
    assert [v.move.uci() for v in game.variations] == ["e2e4", "d2d4", "c2c4"]


def test_add_main_variation_and_add_line() -> None:
    record = GameRecord()
    root = record.root()
    root.add_variation(Move.from_uci("a3a4"))
    root.add_main_variation(Move.from_uci("g3g4"), comment="the rat first")
    assert _children(record) == ["g3g4", "a3a4"]
    last = root.next().add_line(_moves("a7a6", "g4g5"), comment="and on", nags={1})  # type: ignore[union-attr]
    assert last.ply() == 3 and last.comment == "and on" and last.nags == {1}
    assert [str(m) for m in record.moves] == ["g3g4", "a7a6", "g4g5"]
    with pytest.raises(ValueError):
        root.add_line([])


def test_clock_and_eval_are_read_and_written_back() -> None:
    text = (
        '[Rules "wango"]\n\n'
        "1. g3g4 {[%clk 0:01:30.5] [%eval 0.35,12] good} 1... a7a6 {[%eval #-3]} *"
    )
    record = read_record(text)
    first, second = list(record.root().mainline())
    assert first.clock() == 90.5 and first.eval() == PovScore(Score(cp=35), 0)
    assert first.eval_depth() == 12 and second.clock() is None
    assert second.eval() is not None and second.eval().red().mate() == -3  # type: ignore[union-attr]
    # python-chess reads the same comments the same way.
    theirs = chess_pgn.read_game(io.StringIO("1. e4 {[%clk 0:01:30.5] [%eval 0.35,12] good} *"))
    node = theirs.next()
    assert node.clock() == 90.5 and node.eval() == chess_engine.PovScore(chess_engine.Cp(35), True)
    assert node.eval_depth() == 12

    second.set_clock(3725.0)
    second.set_eval(PovScore(Score(mate=2), 1))  # Blue wins in 2: Red's view is #-2
    first.set_eval(None)
    assert first.comment == "[%clk 0:01:30.5] good"
    again = read_record(write_record(record))
    first, second = list(again.root().mainline())
    assert second.clock() == 3725.0 and second.eval() == PovScore(Score(mate=-2), 0)
    assert first.eval() is None and first.clock() == 90.5
    second.set_clock(None)
    assert second.comment == "[%eval #-2]"
    with pytest.raises(ValueError):
        second.set_clock(-1)


ARCHIVE = (
    '[Event "one"]\n[Red "Li"]\n\n1. g3g4 a7a6 *\n\n'
    '[Event "two"]\n[Rules "classic"]\n\n1. a3a4 (1. g3g4) *\n\n'
    '[Event "three"]\n\n1. g1g2 *\n'
)


def test_read_headers_and_skip_game_scan_an_archive() -> None:
    handle = io.StringIO(ARCHIVE)
    headers = read_headers(handle)
    assert headers is not None and headers["Event"] == "one" and headers["Red"] == "Li"
    assert skip_game(handle)
    record = read_game(handle)
    assert record is not None and record.tags["Event"] == "three"
    assert read_headers(handle) is None and not skip_game(handle)
    # The same scan with python-chess's functions over a chess archive.
    theirs = io.StringIO(
        '[Event "one"]\n\n1. e4 *\n\n[Event "two"]\n\n1. d4 *\n\n[Event "3"]\n\n*\n'
    )
    assert chess_pgn.read_headers(theirs)["Event"] == "one"
    assert chess_pgn.skip_game(theirs)
    assert chess_pgn.read_game(theirs).headers["Event"] == "3"


def test_read_headers_reports_a_garbled_tag_and_goes_on() -> None:
    handle = io.StringIO('[Event one]\n\ng3g4 *\n\n[Event "two"]\n\na3a4 *\n')
    with pytest.raises(RecordError, match="garbled tag line"):
        read_headers(handle)
    headers = read_headers(handle)
    assert headers is not None and headers["Event"] == "two"
