"""Tests for reading game records one by one from open files (read_game, iter_games,
load_records): line by line, with the file name, line and game number in every error, and
reading on after a bad game."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from doushouqi.jungle.board import Board
from doushouqi.jungle.record import (
    GameRecord,
    RecordError,
    iter_games,
    load_record,
    load_records,
    read_game,
    read_record,
    read_records,
    write_record,
    write_records,
)

GOOD = '[Event "good {}"]\n\n1. a3a4 a7a6 *\n'  # 3 lines
ILLEGAL = '[Event "illegal"]\n\n1. a3a4 a7a6\n2. a4a6 *\n'  # 4 lines, the fault on the 4th
NO_RESULT = '[Event "no result"]\n\n1. a3a4\n'  # runs into the next game's tags
GARBLED = '[Event "garbled"]\n[Round 1]\n[Rules "wango"]\n\n1. a3a4 *\n'  # fault on line 2


def _records(count: int) -> list[GameRecord]:
    records = []
    for number in range(count):
        board = Board()
        board.replay(["a3a4", "a7a6", "g3g4", "g7g6"][: number % 5])
        records.append(GameRecord.from_board(board, Event=f"game {number}", Round=str(number)))
    return records


class LinesOnly:
    """An open text file that may only be read with readline, counting the calls."""

    def __init__(self, text: str, name: str | None = None) -> None:
        self._handle = io.StringIO(text)
        self.calls = 0
        if name is not None:
            self.name = name

    def readline(self) -> str:
        self.calls += 1
        return self._handle.readline()


def test_many_games_are_read_one_at_a_time(tmp_path: Path) -> None:
    records = _records(400)
    path = tmp_path / "many.jgn"
    path.write_text(write_records(records), encoding="utf-8")
    with path.open(encoding="utf-8") as handle:
        first = read_game(handle)
        # Only the first game's lines have been taken from the file.
        assert handle.tell() == len(write_record(records[0]).encode())
        found = [first]
        while (record := read_game(handle)) is not None:
            found.append(record)
        assert read_game(handle) is None
    assert found == records
    assert load_records(path) == records
    with path.open(encoding="utf-8") as handle:
        assert list(iter_games(handle)) == records


def test_reading_uses_readline_only() -> None:
    text = write_records(_records(3))
    handle = LinesOnly(text)
    assert read_game(handle) == _records(3)[0]
    assert handle.calls == write_record(_records(3)[0]).count("\n")
    assert [r.tags["Event"] for r in iter_games(handle)] == ["game 1", "game 2"]


def test_a_bad_game_in_the_middle_is_reported_and_reading_goes_on(tmp_path: Path) -> None:
    text = "\n".join([GOOD.format(1), ILLEGAL, GOOD.format(2), GARBLED, GOOD.format(3)])
    path = tmp_path / "games.jgn"
    path.write_text(text, encoding="utf-8")
    events: list[str] = []
    problems: list[RecordError] = []
    with path.open(encoding="utf-8") as handle:
        while True:
            try:
                record = read_game(handle)
            except RecordError as exc:
                problems.append(exc)
                continue
            if record is None:
                break
            events.append(record.tags["Event"])
    assert events == ["good 1", "good 2", "good 3"]
    illegal, garbled = problems
    assert str(illegal).startswith(f"{path}:8: illegal move a4a6: an animal moves one square")
    assert (illegal.name, illegal.line, illegal.game) == (str(path), 8, 2)
    assert str(garbled) == f"{path}:15: garbled tag line '[Round 1]': expected [Name \"value\"]"
    assert (garbled.line, garbled.game) == (15, 4)
    # iter_games and load_records do the same with a list for the errors ...
    errors: list[RecordError] = []
    assert [r.tags["Event"] for r in load_records(path, errors=errors)] == events
    assert [(e.line, e.game, e.reason) for e in errors] == [
        (p.line, p.game, p.reason) for p in problems
    ]
    # ... and without one stop at the first bad game.
    with pytest.raises(RecordError, match=r"games\.jgn:8: illegal move a4a6") as info:
        load_records(path)
    assert info.value.game == 2
    with path.open(encoding="utf-8") as handle:
        games = iter_games(handle)
        assert next(games).tags["Event"] == "good 1"
        with pytest.raises(RecordError, match=":8: illegal move"):
            next(games)


def test_a_game_without_a_result_ends_at_the_next_games_tags() -> None:
    for gap in ("\n", ""):
        handle = io.StringIO(GOOD.format(1) + "\n" + NO_RESULT + gap + GOOD.format(2))
        assert read_game(handle) is not None
        with pytest.raises(RecordError, match="tag line inside the movetext") as info:
            read_game(handle)
        assert (info.value.line, info.value.game) == (8 + len(gap), 2)
        second = read_game(handle)
        assert second is not None and second.tags["Event"] == "good 2"
        assert read_game(handle) is None


def test_after_a_bad_game_without_tags_the_next_game_with_tags_is_read() -> None:
    text = "1. a3a5 *\n\n1. a3a4 *\n\n" + GOOD.format(3)
    handle = io.StringIO(text)
    with pytest.raises(RecordError, match="line 1: illegal move a3a5"):
        read_game(handle)
    # A game without tags cannot be told from the rest of a bad one: it is skipped too.
    record = read_game(handle)
    assert record is not None and record.tags == {"Event": "good 3"}
    assert read_game(handle) is None


def test_games_without_tags_are_read_one_by_one() -> None:
    handle = io.StringIO("1. a3a4 *\n\n\n1. g3g4 1-0\n1. g1g2 *")
    moves = [[str(m) for m in record.moves] for record in iter_games(handle)]
    assert moves == [["a3a4"], ["g3g4"], ["g1g2"]]


def test_the_handles_name_goes_into_errors() -> None:
    handle = LinesOnly(GOOD.format(1) + "\n" + ILLEGAL, name="club/night.jgn")
    read_game(handle)
    with pytest.raises(RecordError) as info:
        read_game(handle)
    assert str(info.value).startswith("club/night.jgn:8: illegal move a4a6")
    # name= overrides it; a handle without one gives "line N:".
    handle = LinesOnly(ILLEGAL, name="ignored")
    with pytest.raises(RecordError, match=r"^given\.jgn:4: illegal"):
        read_game(handle, name="given.jgn")
    with pytest.raises(RecordError, match=r"^line 4: illegal"):
        read_game(LinesOnly(ILLEGAL))
    # Texts take a name too.
    with pytest.raises(RecordError, match=r"^pasted:4: illegal"):
        read_record(ILLEGAL, name="pasted")
    with pytest.raises(RecordError, match=r"^pasted:9: illegal"):
        read_records(GOOD.format(1) + "\n\n" + ILLEGAL, name="pasted")


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("", 1, "no game in the file"),
        (GOOD.format(1) + "\n" + GOOD.format(2), 5, "expected one game, but a second one"),
        (ILLEGAL, 4, "illegal move a4a6"),
        ('[Event "x"]\n\n1. a3a4 {never closed\n\n', 3, "unterminated comment"),
        ('[Event "x"]\n\n1. a3a4\n\n', 3, "the game has no result at the end"),
    ],
)
def test_load_record_names_the_file(tmp_path: Path, text: str, line: int, reason: str) -> None:
    path = tmp_path / "one.jgn"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert str(info.value).startswith(f"{path}:{line}: {reason}")
    assert info.value.name == str(path)


def test_load_record_reads_one_game(tmp_path: Path) -> None:
    path = tmp_path / "one.jgn"
    record = _records(3)[2]
    path.write_text("\ufeff" + write_record(record).replace("\n", "\r\n"), encoding="utf-8")
    assert load_record(path) == record
    assert load_records(str(path)) == [record]


def test_undecodable_files_are_reported_with_their_name(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jgn"
    path.write_bytes(GOOD.format(1).encode() + b'\n[Event "caf\xe9"]\n\n*\n')
    errors: list[RecordError] = []
    found = load_records(path, errors=errors)
    assert len(found) <= 1 and len(errors) == 1
    assert str(errors[0]).startswith(f"{path}:") and "not UTF-8 text" in str(errors[0])


def test_rewinding_counts_lines_afresh() -> None:
    handle = io.StringIO(GOOD.format(1) + "\n" + ILLEGAL)
    assert read_game(handle) is not None
    with pytest.raises(RecordError) as info:
        read_game(handle)
    assert (info.value.line, info.value.game) == (8, 2)
    handle.seek(0)
    assert read_game(handle) is not None
    with pytest.raises(RecordError) as info:
        read_game(handle)
    assert (info.value.line, info.value.game) == (8, 2)


def test_read_game_wants_an_open_text_file() -> None:
    with pytest.raises(TypeError, match="open text file"):
        read_game("1. a3a4 *")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text mode"):
        read_game(io.BytesIO(b"1. a3a4 *\n"))  # type: ignore[arg-type]
    assert read_game(io.StringIO("")) is None
    assert read_game(io.StringIO("\n  \n")) is None


def test_errors_without_a_file_keep_their_old_form() -> None:
    error = RecordError("bad", 3)
    assert str(error) == "line 3: bad" and error.name is None and error.game is None
    assert str(RecordError("bad")) == "bad"
    assert str(RecordError("bad", name="f.jgn")) == "f.jgn: bad"
    assert str(RecordError("bad", 2, name="f.jgn", game=1)) == "f.jgn:2: bad"
