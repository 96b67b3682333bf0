"""The endgame tables inside the compiled search: the compiled probe agrees with the reader,
covered nodes get exact scores, and ``use_tablebase`` / ``Tablebases`` switch it all off."""

from __future__ import annotations

import io
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.core import Position
from doushouqi.jungle.ai.protocol import EngineProtocol
from doushouqi.jungle.ai.search_driver import score_from_internal
from doushouqi.jungle.ai.tablebase import memory
from doushouqi.jungle.ai.tablebase.verify import random_board
from doushouqi.jungle.ai.tbprobe import TB_MISS, tb_probe
from doushouqi.jungle.analysis import DEN_SCORE, Limit
from doushouqi.jungle.board import Board
from doushouqi.jungle.fen import placement_fen
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.squares import BLUE, DENS, RED, WATER, piece_code
from doushouqi.jungle.tablebase.probe import (
    ENV_VAR,
    Probe,
    probe,
    shipped_directory,
    tablebase_directories,
)

#: Where the 4-animal tables are generated on the development machine (optional tests).
FOUR_ANIMAL_DIRECTORY = Path(os.environ.get("DOUSHOUQI_TEST_TABLEBASES", "/work/tablebases"))


@pytest.fixture(autouse=True)
def _only_shipped_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the shipped tables (the cache folder is the session's: tests/conftest.py)."""
    monkeypatch.delenv(ENV_VAR, raising=False)


@pytest.fixture(scope="module")
def shipped() -> memory.LoadedTables:
    tables = memory.loaded_tables([shipped_directory()], "wango")
    assert tables is not None
    return tables


def _encoded(entry: Probe | None) -> int:
    """A reader's value in :func:`tb_probe`'s encoding."""
    if entry is None:
        return TB_MISS
    if entry.wdl == 0:
        return 0
    assert entry.dtm is not None
    return entry.dtm + 1 if entry.wdl > 0 else -(entry.dtm + 1)


def test_compiled_probe_agrees_with_the_reader(shipped: memory.LoadedTables) -> None:
    rng = random.Random(14)
    signatures = [table.signature for table in shipped.tables]
    assert len(signatures) == 512 and shipped.max_animals == 3
    kinds = {"win": 0, "draw": 0, "loss": 0, "mirrored": 0, "blue": 0}
    for i in range(4000):
        rules = ("wango", "international")[i % 2]
        board = random_board(rng, rng.choice(signatures), rules)
        if i % 3 == 1:
            board = board.flip_horizontal()  # the first animal on the other half
        elif i % 3 == 2:
            board = board.half_turn()  # colours swapped, the board turned: the other frame
        entry = probe(board)
        assert entry is not None, board.fen()
        got = tb_probe(Position.from_board(board).state, shipped.values, shipped.meta)
        assert got == _encoded(entry), board.fen()
        kinds["win" if entry.wdl > 0 else "loss" if entry.wdl < 0 else "draw"] += 1
        kinds["blue"] += board.turn == BLUE
        kinds["mirrored"] += i % 3 == 1
    assert min(kinds.values()) > 40, kinds  # every kind of entry and frame was compared


def test_uncovered_material_is_a_miss(shipped: memory.LoadedTables) -> None:
    board = Board("7/7/3D3/3p3/3R3/7/7/7/5W1 b")  # four animals: no shipped table
    assert probe(board) is None
    assert tb_probe(Position.from_board(board).state, shipped.values, shipped.meta) == TB_MISS


def test_cache_file_is_mapped_by_the_next_load(tmp_path: Path) -> None:
    os.environ[memory.CACHE_ENV_VAR] = str(tmp_path)
    directory = tmp_path / "tables"
    (directory / "wango").mkdir(parents=True)
    for name in ("LvR", "RvL", "EvR"):
        source = shipped_directory() / "wango" / f"{name}.dsqtb"
        (directory / "wango" / source.name).write_bytes(source.read_bytes())
    first = memory._load("wango", (directory,))
    assert first.source.endswith(".int8.npy") and Path(first.source).parent == tmp_path
    assert memory.most_animals([directory], "wango") == 2
    second = memory._load("wango", (directory,))
    assert second.source == first.source
    assert np.array_equal(first.values, second.values)
    assert second.values.flags.writeable  # copy on write: numba's signature takes it
    (directory / "wango" / "EvR.dsqtb").unlink()
    third = memory._load("wango", (directory,))
    assert third.source != first.source and third.entries < first.entries


def test_a_damaged_table_is_left_out_and_the_others_load(tmp_path: Path) -> None:
    os.environ[memory.CACHE_ENV_VAR] = str(tmp_path)
    directory = tmp_path / "tables" / "wango"
    directory.mkdir(parents=True)
    for name in ("LvR", "RvL"):
        data = (shipped_directory() / "wango" / f"{name}.dsqtb").read_bytes()
        if name == "RvL":
            data = data[:-10] + bytes(b ^ 0xFF for b in data[-10:])  # the payload damaged
        (directory / f"{name}.dsqtb").write_bytes(data)
    loaded = memory._load("wango", (directory.parent,))
    assert [t.signature for t in loaded.tables] == ["LvR"]
    assert loaded.source == "memory"  # not cached: the next process tries the file again
    board = Board("7/7/7/3L3/7/7/7/7/r6 w")  # LvR
    expected = _encoded(probe(board))
    assert tb_probe(Position.from_board(board).state, loaded.values, loaded.meta) == expected
    blue = Board("7/7/7/3L3/7/7/7/7/r6 b")  # RvL: left out
    assert tb_probe(Position.from_board(blue).state, loaded.values, loaded.meta) == TB_MISS


# ------------------------------------------------------------------ exact scores in the search


def _hemmed_in(rng: random.Random, extra: int, rules: str) -> Board | None:
    """A position whose side to move has one animal, every move of which is a capture (the
    opponent's animals stand on all its targets), plus ``extra`` more enemy animals: its exact
    value is that of the positions after the captures, one animal fewer."""
    turn = rng.choice((RED, BLUE))
    animal = rng.randint(1, 8)
    square = rng.randrange(63)
    if square in DENS or (animal != 1 and WATER >> square & 1):
        return None
    far = 62 if square < 31 else 0
    codes = [0] * 63
    codes[square], codes[far] = piece_code(turn, animal), piece_code(1 - turn, 1)
    lone = Board(f"{placement_fen(codes)} {'wb'[turn]}", rules)
    targets = sorted({m.to_square for m in lone.generate_legal_moves()} - {far})
    if not 1 <= len(targets) <= 3 or any(t in DENS for t in targets):
        return None
    enemies = rng.sample(range(1, 9), len(targets) + extra)
    codes[far] = 0
    for enemy, target in zip(enemies, targets, strict=False):
        codes[target] = piece_code(1 - turn, enemy)
    for enemy in enemies[len(targets) :]:
        free = [s for s in range(63) if s not in DENS and not codes[s]]
        free = [s for s in free if enemy == 1 or not WATER >> s & 1]
        codes[rng.choice(free)] = piece_code(1 - turn, enemy)
    try:
        board = Board(f"{placement_fen(codes)} {'wb'[turn]}", rules)
    except ValueError:
        return None
    moves = list(board.generate_legal_moves())
    if board.outcome() is not None or not moves or not all(board.is_capture(m) for m in moves):
        return None
    return board


def _value_by_captures(board: Board, directories: list[Path]) -> tuple[int, int] | None:
    """(1 win / 0 draw / -1 loss, DTM) of ``board`` from the reader's values after each
    move (all captures), or None when one is not covered."""
    best: tuple[int, int] | None = None
    for move in list(board.generate_legal_moves()):
        board.push(move)
        try:
            outcome = board.outcome()
            if outcome is not None and outcome.termination is not Termination.NO_LEGAL_MOVES:
                value = (1, 1)  # the last enemy animal captured
            else:
                entry = probe(board, directories)
                if entry is None:
                    return None
                value = (-entry.wdl, (entry.dtm or 0) + 1 if entry.wdl else 0)
        finally:
            board.pop()
        rank = (value[0], -value[1] if value[0] > 0 else value[1])
        if best is None or rank > (best[0], -best[1] if best[0] > 0 else best[1]):
            best = value
    return best


def _positions(
    extra: int, count: int, directories: list[Path], tries: int = 200_000
) -> Iterator[tuple[Board, tuple[int, int]]]:
    rng = random.Random(1400 + extra)
    found = 0
    for _ in range(tries):
        if found == count:
            return
        board = _hemmed_in(rng, extra, rng.choice(("wango", "international")))
        if board is None:
            continue
        value = _value_by_captures(board, directories)
        if value is None or (value[0] != 0 and value[1] < 7):
            continue  # long results only: what a shallow search cannot find on its own
        found += 1
        yield board, value


def _expected_score(value: tuple[int, int]) -> object:
    wdl, dtm = value
    if wdl == 0:
        return None
    return score_from_internal(DEN_SCORE - dtm if wdl > 0 else -(DEN_SCORE - dtm))


@pytest.fixture(scope="module")
def engine() -> Searcher:
    engine = Searcher(hash_mb=8, seed=1)
    engine.warm_up()
    return engine


def test_a_four_animal_search_scores_the_captures_from_the_tables(engine: Searcher) -> None:
    checked = 0
    for board, value in _positions(1, 12, tablebase_directories()):
        assert probe(board) is None  # the root itself is not covered: the search runs
        engine.new_game()
        result = engine.search(board, Limit(depth=3))
        assert result.info["tbhits"] > 0, board.fen()
        expected = _expected_score(value)
        if expected is None:  # a draw: the draw score (the contempt, in centipawns)
            cp = result.info["score"].cp
            assert cp is not None and abs(cp) <= 500, board.fen()
        else:
            assert result.info["score"] == expected, (board.fen(), value)
        assert result.move is not None
        board.push(result.move)
        after = probe(board)
        board.pop()
        assert after is not None and -after.wdl == value[0], board.fen()
        checked += 1
    assert checked == 12


def test_switching_the_tables_off_searches_without_them(engine: Searcher) -> None:
    board, value = next(iter(_positions(1, 1, tablebase_directories())))
    assert value[0] != 0 and value[1] > 7
    engine.new_game()
    with_tables = engine.search(board, Limit(depth=4))
    engine.use_tablebase = False
    try:
        engine.new_game()
        without = engine.search(board, Limit(depth=4))
    finally:
        engine.use_tablebase = True
    assert with_tables.info["tbhits"] > 0 and without.info["tbhits"] == 0
    assert with_tables.info["nodes"] != without.info["nodes"]
    assert with_tables.info["score"] == _expected_score(value)
    assert without.info["score"] != with_tables.info["score"]  # too deep for depth 4 alone


def test_a_covered_drawn_root_is_searched_without_the_tables(engine: Searcher) -> None:
    board = Board("7/3e3/4L2/7/7/7/7/7/7 b")  # Blue's elephant holds the draw (d8e8 only)
    assert probe(board) == Probe(0, None)
    engine.new_game()
    result = engine.search(board, Limit(depth=4))
    assert result.info["tbhits"] == 0  # the search plays on for the opponent's mistakes
    assert str(result.move) == "d8e8"  # and the root's rule keeps the draw


def test_the_weaker_levels_search_without_the_tables(engine: Searcher) -> None:
    board, _ = next(iter(_positions(1, 1, tablebase_directories())))
    engine.new_game()
    assert engine.search(board, Limit(depth=3), level=9).info["tbhits"] == 0
    engine.new_game()
    assert engine.search(board, Limit(depth=3), level=10).info["tbhits"] > 0


def test_big_material_never_probes(engine: Searcher) -> None:
    engine.new_game()
    result = engine.search(Board(), Limit(depth=5))
    assert result.info["tbhits"] == 0


@pytest.mark.skipif(
    not (FOUR_ANIMAL_DIRECTORY / "wango").is_dir(), reason="no 4-animal tables on this machine"
)
def test_a_five_animal_search_scores_the_captures_from_four_animal_tables() -> None:
    directories = [FOUR_ANIMAL_DIRECTORY, shipped_directory()]
    engine = Searcher(hash_mb=8, seed=1)
    engine.tablebase_paths = [str(FOUR_ANIMAL_DIRECTORY)]
    checked = 0
    for board, value in _positions(2, 4, directories, tries=20_000):
        result = engine.search(board, Limit(depth=3))
        expected = _expected_score(value)
        if expected is not None:
            assert result.info["score"] == expected, (board.fen(), value)
        assert result.info["tbhits"] > 0
        checked += 1
    if checked == 0:
        pytest.skip("no 5-animal position found whose captures the 4-animal tables cover")


# ------------------------------------------------------------------------------ protocol


def _session_go(session: EngineProtocol, out: io.StringIO, command: str) -> list[str]:
    start = len(out.getvalue())
    session.handle(command)
    deadline = time.monotonic() + 60
    while "bestmove" not in out.getvalue()[start:]:
        assert time.monotonic() < deadline, out.getvalue()[start:]
        time.sleep(0.01)
    session.handle("isready")
    return out.getvalue()[start:].splitlines()


def test_protocol_options_switch_the_tables(engine: Searcher) -> None:
    out = io.StringIO()
    session = EngineProtocol(out, engine)
    session.handle("uci")
    lines = out.getvalue().splitlines()
    assert "option name Tablebases type check default true" in lines
    assert "option name TablebasePath type string default <empty>" in lines
    session.handle("setoption name TablebasePath value /no/such/directory")
    assert "error setoption: TablebasePath: no such directory" in out.getvalue()
    session.handle("setoption name Tablebases value maybe")
    assert "expected true or false" in out.getvalue()
    board, _ = next(iter(_positions(1, 1, tablebase_directories())))
    session.handle(f"position fen {board.fen()}")
    session.handle("ucinewgame")
    on = [line for line in _session_go(session, out, "go depth 3") if " tbhits " in line]
    assert on and int(on[-1].split(" tbhits ")[1].split()[0]) > 0
    session.handle("setoption name Tablebases value false")
    session.handle("ucinewgame")
    off = [line for line in _session_go(session, out, "go depth 3") if " tbhits " in line]
    assert off and all(int(line.split(" tbhits ")[1].split()[0]) == 0 for line in off)
    session.handle("setoption name Tablebases value true")
    session.handle("setoption name TablebasePath value <empty>")
    # Settings reach the engine when it is next used (the protocol's `engine`).
    assert session.engine.use_tablebase is True and session.engine.tablebase_paths == []


@pytest.mark.skipif(
    not (FOUR_ANIMAL_DIRECTORY / "wango" / "ELvEL.dsqtb").is_file(),
    reason="no 4-animal table ELvEL on this machine",
)
def test_protocol_tablebase_path_adds_tables(engine: Searcher) -> None:
    out = io.StringIO()
    session = EngineProtocol(out, engine)
    fen = "7/2e4/7/3L3/7/7/7/3l3/4E2 w"  # ELvEL: only a 4-animal table covers it
    assert probe(Board(fen)) is None
    session.handle(f"position fen {fen}")
    # Played from the tables, the root's move has depth 0 and no nodes.
    searched = _session_go(session, out, "go depth 2")
    assert not any(line.startswith("info depth 0 ") for line in searched), searched
    session.handle(f"setoption name TablebasePath value {FOUR_ANIMAL_DIRECTORY}")
    lines = _session_go(session, out, "go depth 2")
    assert any(line.startswith("info depth 0 score den ") for line in lines), lines
    session.handle("setoption name TablebasePath value <empty>")
    engine.tablebase_paths = []
