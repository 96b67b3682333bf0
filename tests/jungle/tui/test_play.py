"""The terminal game (``doushouqi play``): session logic, drawing, the loop and the command.

The computer opponent here is a scripted one that plays the first legal move in sorted order:
deterministic, and fine for tests only (the game itself uses the engine or none at all).
"""

from __future__ import annotations

import importlib
import io
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from doushouqi.cli import main as cli
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.rules import RuleSet
from doushouqi.jungle.squares import BLUE, RED
from doushouqi.jungle.tui import engine
from doushouqi.jungle.tui.play import make_line_reader, play_loop
from doushouqi.jungle.tui.render import (
    CELL_WIDTH,
    WIDE_MIN_WIDTH,
    board_text,
    panel_lines,
    session_renderable,
)
from doushouqi.jungle.tui.session import Mode, NoteKind, Reply, Session
from doushouqi.jungle.tui.text import default_lang

START = Board().fen()
#: Red's lion on c9 (a trap beside Blue's den), Blue's rat alone on a1: c9d9 wins for Red.
DEN_IN_ONE = "2L4/7/7/7/7/7/7/7/r6 w"


class FirstMove:
    """Plays the first legal move in sorted order; remembers the level it was given."""

    def __init__(self) -> None:
        self.level = 0
        self.calls = 0

    def choose_move(self, board: Board) -> Move:
        self.calls += 1
        return sorted(board.legal_moves, key=str)[0]


class Broken:
    def choose_move(self, board: Board) -> Move:
        raise RuntimeError("search exploded")


class Illegal:
    def choose_move(self, board: Board) -> Move:
        return Move.from_str("a1a9")


def feed(session: Session, lines: Iterable[str]) -> str:
    """Type each line, letting the computer answer as the game loop does; all notes' text."""
    out = []
    for line in lines:
        out.append(session.handle(line).text)
        while session.engine_to_move():
            out.append(session.play_engine_move().text)
    return "\n".join(out)


def vs_computer(**options: object) -> tuple[Session, FirstMove]:
    opponent = FirstMove()
    return Session(opponent=opponent, **options), opponent  # type: ignore[arg-type]


def hotseat(board: Board | None = None, **options: object) -> Session:
    return Session(board, mode=Mode.HOTSEAT, **options)  # type: ignore[arg-type]


def plain(renderable: object, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    console.print(renderable)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    return output


# ----------------------------------------------------------------------------- moves


@pytest.mark.parametrize("text", ["g3g4", "g3 g4", "G3G4", "g3-g4", "  g3   g4 ", "Rg3-g4"])
def test_a_move_can_be_typed_in_several_ways(text: str) -> None:
    session = hotseat()
    reply = session.handle(text)
    assert reply.redraw
    assert session.board.move_stack == [Move.from_str("g3g4")]
    assert session.board.turn == BLUE


def test_hotseat_players_take_turns() -> None:
    session = hotseat()
    text = feed(session, ["g3g4", "a7 a6", "g4g5"])
    assert session.board.fen() == "l5t/1d3c1/2p1w1e/r6/6R/7/E1W1P2/1C3D1/T5L b 3 2"
    assert "Red: Rg3-g4" in text and "Blue: Ra7-a6" in text


def test_computer_replies_after_the_players_move() -> None:
    session, opponent = vs_computer()
    text = feed(session, ["g3g4"])
    assert [str(m) for m in session.board.move_stack] == ["g3g4", "a7a6"]
    assert "Computer: Ra7-a6" in text
    assert opponent.calls == 1
    assert session.board.turn == RED


def test_computer_moves_first_when_the_player_takes_blue() -> None:
    session, _ = vs_computer(human=BLUE)
    assert session.flipped  # the player's side at the bottom
    assert session.engine_to_move()
    session.play_engine_move()
    assert str(session.board.peek()) == "a1a2"
    assert not session.engine_to_move()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("g3g5", "an animal moves one square forwards, backwards or sideways"),
        ("a7a6", "the blue rat on a7 is not yours: red to move"),
        ("c3c4", "only the rat may enter the water; the red wolf cannot"),
        ("d4d5", "there is no animal on d4"),
        ("f2e2", None),  # legal: checks that the parametrisation itself is sound
    ],
)
def test_illegal_moves_show_the_librarys_reason_and_change_nothing(
    text: str, reason: str | None
) -> None:
    session = hotseat()
    reply = session.handle(text)
    if reason is None:
        assert session.board.ply() == 1
        return
    move = Move.from_str(text.replace(" ", ""))
    assert Board().explain_illegal(move) == reason
    assert reply.notes[0].kind is NoteKind.ERROR
    assert reply.text == f"Illegal move {move}: {reason}"
    assert not reply.redraw
    assert session.board.fen() == START


def test_illegal_move_in_chinese_keeps_the_reason() -> None:
    session = hotseat(lang="zh")
    assert session.handle("g3 g5").text.startswith("不能这样走 g3g5：an animal moves")


def test_readable_notation_errors_say_what_is_wrong() -> None:
    session = hotseat()
    text = session.handle("Ta3-a4").text
    assert "the animal on a3 is the Red elephant, not a tiger" in text
    assert session.board.ply() == 0


@pytest.mark.parametrize("text", ["hello", "mvoes", "12", "--", "pass", "0000"])
def test_unreadable_input_and_passes_are_refused(text: str) -> None:
    session = hotseat()
    reply = session.handle(text)
    assert reply.notes[0].kind is NoteKind.ERROR
    assert session.board.ply() == 0


def test_empty_line_redraws() -> None:
    assert hotseat().handle("   ") == Reply(redraw=True)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=12),
            st.sampled_from(
                [
                    *("undo", "hint", "flip", "moves", "new", "resign", "y", "level 4", "lang zh"),
                    *("lang en", "help", "g3g4", "a7a6", "a3a4", "a1a2", "c9d9", "u", "level x"),
                ]
            ),
        ),
        max_size=25,
    )
)
def test_no_input_crashes_the_session(lines: list[str]) -> None:
    lines = [line for line in lines if not re.match(r"\s*(save|load|保存|读取)\b", line)]
    session, _ = vs_computer()
    feed(session, lines)
    assert session.board.ply() >= 0


# ------------------------------------------------------------------------------ undo


def test_undo_against_the_computer_takes_back_its_reply_and_your_move() -> None:
    session, _ = vs_computer()
    feed(session, ["g3g4", "f2f3"])
    assert session.board.ply() == 4
    reply = session.handle("undo")
    assert reply.text == "Took back 2 moves."
    assert [str(m) for m in session.board.move_stack] == ["g3g4", "a7a6"]
    assert session.board.turn == RED
    assert not session.engine_to_move()
    feed(session, ["undo"])
    assert session.board.ply() == 0
    assert session.handle("undo").text == "Nothing to take back."


def test_undo_when_the_computer_opened_keeps_its_first_move() -> None:
    session, _ = vs_computer(human=BLUE)
    feed(session, [])
    session.play_engine_move()
    feed(session, ["a7a6"])
    assert session.board.ply() == 3
    feed(session, ["undo"])
    assert session.board.ply() == 1 and session.board.turn == BLUE
    assert session.handle("undo").text == "Nothing to take back."
    assert session.board.ply() == 1


def test_undo_after_the_players_winning_move_takes_back_one_ply() -> None:
    session, _ = vs_computer(board=Board(DEN_IN_ONE))
    feed(session, ["c9d9"])
    assert session.is_over() and session.board.ply() == 1
    assert session.handle("undo").text == "Took back 1 move."
    assert session.board.ply() == 0 and not session.is_over()


def test_undo_with_two_players_takes_back_one_move() -> None:
    session = hotseat()
    feed(session, ["g3g4", "a7a6"])
    session.handle("undo")
    assert [str(m) for m in session.board.move_stack] == ["g3g4"]


def test_undo_after_resigning_takes_back_the_resignation() -> None:
    session = hotseat()
    feed(session, ["g3g4", "resign"])
    assert session.is_over()
    session.handle("undo")
    assert not session.is_over() and session.board.ply() == 1


# -------------------------------------------------------------------- end of the game


def test_den_entry_ends_the_game_with_its_label_and_offers_a_new_one() -> None:
    session = hotseat(Board(DEN_IN_ONE))
    reply = session.handle("c9d9")
    assert "Game over: Red wins (den entered)." in reply.text
    assert "New game?" in reply.text
    assert {n.kind for n in reply.notes[1:]} == {NoteKind.RESULT}
    assert session.prompt() == "New game? [y/n]> "
    assert "game is over" in session.handle("a1a2").text
    session.handle("y")
    assert session.board.fen() == START and not session.is_over()


def test_game_end_in_chinese() -> None:
    session = hotseat(Board(DEN_IN_ONE), lang="zh")
    text = session.handle("c9 d9").text
    assert "对局结束：红方胜（入穴）。" in text
    assert session.prompt() == "再来一局？[y/n]> "


def test_against_the_computer_the_result_is_told_personally() -> None:
    session, _ = vs_computer(board=Board(DEN_IN_ONE))
    assert "You win!" in feed(session, ["c9d9"])
    lost, _ = vs_computer(board=Board("4L2/7/7/7/7/7/7/7/r6 w"), human=BLUE)
    assert lost.engine_to_move()
    assert "You lose." in lost.play_engine_move().text  # the first sorted move: e9d9
    assert lost.outcome() is not None and lost.outcome().winner == RED  # type: ignore[union-attr]


def test_resign_loses_and_no_leaves() -> None:
    session, _ = vs_computer()
    text = session.handle("resign").text
    assert "Red resigns." in text and "Blue wins (resignation)" in text and "You lose." in text
    outcome = session.outcome()
    assert outcome is not None and outcome.termination is Termination.RESIGNATION
    session.handle("n")
    assert session.quit_requested


def test_quit() -> None:
    session = hotseat()
    assert session.handle("quit").text == "Bye."
    assert session.quit_requested


# -------------------------------------------------------------------------- commands


def test_hint_uses_the_opponent_and_moves_nothing() -> None:
    session, opponent = vs_computer()
    assert session.handle("hint").text == "Hint: a1a2  (Ta1-a2)"
    assert session.board.ply() == 0 and opponent.calls == 1


def test_hint_without_an_engine() -> None:
    assert hotseat().handle("hint").text == "No hint: the engine is not available."
    session = Session(mode=Mode.HOTSEAT, opponent=engine.EngineOpponent(3, None, _unavailable))
    assert session.handle("hint").text == "No hint: the engine is not available."


def _unavailable(board: Board, *, level: int, movetime: float | None) -> Move:
    raise engine.EngineUnavailableError("no engine in this test")


def test_level_sets_the_opponents_level() -> None:
    session, opponent = vs_computer(level=3)
    assert opponent.level == 3
    assert session.handle("level 7").text == "Computer level 7."
    assert session.level == 7 and opponent.level == 7
    for bad in ("level 0", "level 11", "level", "level x"):
        assert "Usage: level N" in session.handle(bad).text
    assert opponent.level == 7


def test_flip_turns_the_board() -> None:
    session = hotseat()
    assert not session.flipped
    session.handle("flip")
    assert session.flipped


def test_moves_lists_every_legal_move() -> None:
    text = hotseat().handle("moves").text
    assert text.startswith("Legal moves (24):")
    assert "rat g3 → g2 f3 g4" in text.replace("  ", " ")
    zh = hotseat(lang="zh").handle("走法").text
    assert "鼠 g3 → g2 f3 g4" in zh


def test_help_in_both_languages() -> None:
    assert "undo" in hotseat().handle("help").text
    assert "悔棋" in hotseat(lang="zh").handle("帮助").text


def test_language_switch() -> None:
    session = hotseat()
    assert session.handle("lang zh").text == "语言：中文。"
    assert session.lang == "zh"
    screen = plain(session_renderable(session, width=100, color=False))
    assert "红方走棋" in screen and "红象" in screen and "陷阱" in screen and "兽穴" in screen
    assert (
        "Usage: lang" in session.handle("lang fr").text or "用法" in session.handle("lang fr").text
    )
    session.handle("lang en")
    assert "Red to move" in plain(session_renderable(session, width=100, color=False))


# ------------------------------------------------------------------ save and load


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    session, _ = vs_computer(rules="classic")
    feed(session, ["g3g4", "f2f3", "a3a4"])
    path = tmp_path / "game.txt"
    assert session.handle(f"save {path}").text == f"Saved the game to {path}."
    text = path.read_text("utf-8")
    assert '[Rules "classic"]' in text and '[Red "Player"]' in text
    assert '[Blue "doushouqi level 3"]' in text

    other = hotseat()
    reply = other.handle(f"load {path}")
    assert reply.text.startswith(f"Loaded {path} (6 moves).")
    assert other.board.fen() == session.board.fen()
    assert other.board.move_stack == session.board.move_stack
    assert other.rules.name == "classic"
    feed(other, ["undo"])  # the loaded history can be taken back
    assert other.board.ply() == 5


def test_a_saved_resignation_is_loaded_as_the_end(tmp_path: Path) -> None:
    session = hotseat()
    feed(session, ["g3g4", "resign", f"save {tmp_path / 'r.txt'}"])
    other = hotseat()
    text = other.handle(f"load {tmp_path / 'r.txt'}").text
    assert "Game over: Red wins (resignation)." in text
    assert other.is_over()


def test_save_and_load_errors_are_reported(tmp_path: Path) -> None:
    session = hotseat()
    assert "Usage: save FILE" in session.handle("save").text
    assert "Cannot save" in session.handle(f"save {tmp_path / 'missing' / 'x.txt'}").text
    assert "Cannot load" in session.handle(f"load {tmp_path / 'nope.txt'}").text
    bad = tmp_path / "bad.txt"
    bad.write_text('[Rules "wango"]\n\n1. a3a5 *\n', "utf-8")
    reply = session.handle(f"load {bad}")
    assert "Cannot load" in reply.text and "illegal move a3a5" in reply.text
    assert session.board.fen() == START


# ------------------------------------------------------------------ the engine


def test_no_engine_means_a_hotseat_game_with_a_clear_message() -> None:
    session = Session(mode=Mode.AI, opponent=None)
    reply = session.start()
    assert "The engine is not available, starting a hot-seat game." in reply.text
    assert session.mode is Mode.HOTSEAT
    feed(session, ["g3g4"])
    assert session.board.turn == BLUE  # nobody answered for Blue


def test_an_engine_failure_hands_the_game_to_two_players() -> None:
    for opponent in (Broken(), Illegal()):
        session = Session(opponent=opponent)
        text = feed(session, ["g3g4"])
        assert "The engine failed" in text
        assert session.mode is Mode.HOTSEAT and session.board.ply() == 1


def test_engine_adapter_calls_best_move_with_level_and_movetime() -> None:
    seen: list[tuple[int, float | None]] = []

    def best_move(board: Board, *, level: int, movetime: float | None) -> Move:
        seen.append((level, movetime))
        board.push(Move.from_str("a3a4"))  # whatever it does to its board stays there
        return Move.from_str("g3g4")

    session = Session(opponent=engine.EngineOpponent(2, 0.5, best_move), level=6, human=BLUE)
    session.play_engine_move()
    assert seen == [(6, 0.5)]
    assert [str(m) for m in session.board.move_stack] == ["g3g4"]


def test_load_best_move_reports_a_missing_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_module(name: str) -> object:
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(importlib, "import_module", no_module)
    with pytest.raises(engine.EngineUnavailableError, match=r"cannot import doushouqi\.jungle\.ai"):
        engine.load_best_move()
    monkeypatch.setattr(importlib, "import_module", lambda name: object())
    with pytest.raises(engine.EngineUnavailableError, match="no best_move"):
        engine.load_best_move()


def test_play_command_without_engine_falls_back_to_hotseat(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_engine() -> engine.BestMove:
        raise engine.EngineUnavailableError("not installed")

    monkeypatch.setattr(engine, "load_best_move", no_engine)
    monkeypatch.setattr(sys, "stdin", io.StringIO("g3g4\nquit\n"))
    assert cli.main(["play", "--mode", "ai", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "The engine is not available, starting a hot-seat game." in out
    assert "Blue>" in out  # after Red's move it is Blue's turn: nobody played for Blue


# ------------------------------------------------------------------------ drawing


def _rank_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"[1-9] ", line)]


def test_board_is_a_7_by_9_grid_with_labels() -> None:
    text = board_text(Board(), lang="en", color=False).plain
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefg") and lines[-1] == lines[0]
    rows = _rank_rows(text)
    assert [row[0] for row in rows] == list("987654321")
    cells = [cell for row in rows for cell in row.split("│")[1:-1]]
    assert len(cells) == 63 and all(len(cell) == CELL_WIDTH for cell in cells)
    grid = dict(zip((f + r for r in "987654321" for f in "abcdefg"), cells, strict=True))
    assert grid["a9"] == " l7 " and grid["g1"] == " L7 " and grid["g3"] == " R1 "
    assert grid["d1"].strip() == "den" and grid["c9"] == "trap" and grid["d2"] == "trap"
    assert grid["b4"] == " ~~ " and grid["f6"] == " ~~ " and grid["d5"] == "    "
    assert all(row.endswith(f" {row[0]}") for row in rows)


def test_chinese_board_names_animals_sides_traps_and_dens() -> None:
    text = board_text(Board(), lang="zh", color=False).plain
    for word in ("蓝狮", "红虎", "红鼠", "蓝象", "陷阱", "兽穴"):
        assert word in text
    colored = board_text(Board(), lang="zh", color=True).plain
    assert " 象 " in colored and "红" not in colored  # the colour tells the sides apart


def test_fox_rule_sets_call_the_wolf_fox() -> None:
    board = Board(rules=RuleSet(name="fox", wolf_name="fox"))
    assert "红狐" in board_text(board, lang="zh", color=False).plain
    assert " F4 " in board_text(board, lang="en", color=False).plain


def test_flipped_board_puts_blue_at_the_bottom() -> None:
    text = board_text(Board(), flipped=True, color=False).plain
    assert text.splitlines()[0].split() == list("gfedcba")
    rows = _rank_rows(text)
    assert [row[0] for row in rows] == list("123456789")
    assert rows[-1].split("│")[1] == " t6 "  # g9 bottom left


def test_colours_water_traps_dens_sides_and_last_move() -> None:
    board = Board()
    board.push_move("g3g4")
    text = board_text(board, lang="en", color=True)

    def style_at(square: str) -> str:
        file, rank = "abcdefg".index(square[0]), int(square[1])
        line_start = sum(len(line) + 1 for line in text.plain.splitlines()[: 2 + 2 * (9 - rank)])
        offset = line_start + 3 + file * (CELL_WIDTH + 1) + 1
        styles = [str(span.style) for span in text.spans if span.start <= offset < span.end]
        return " ".join(styles)

    assert "on #7ab8f5" in style_at("b5")  # water
    assert "on #dcb574" in style_at("c1")  # trap
    assert "on #a9bcf0" in style_at("d9")  # Blue's den
    assert "#c40000" in style_at("a3") and "#0b3fbf" in style_at("a9")  # Red and Blue
    assert "on #f5e45a" in style_at("g3") and "on #f5e45a" in style_at("g4")  # last move
    assert "on #f5e45a" not in style_at("a3")


def test_compact_board_fits_a_phone_terminal() -> None:
    session = hotseat(lang="zh")
    feed(session, ["g3g4", "a7a6", "g4g5"])
    for width in (36, 40, 60):
        screen = plain(session_renderable(session, width=width, color=False), width)
        assert "┼" not in screen  # no ruled grid when narrow
        assert all(Text(line).cell_len <= width for line in screen.splitlines())
        assert "红鼠" in screen and "2. 鼠 g4-g5" in screen
    wide = plain(session_renderable(session, width=WIDE_MIN_WIDTH, color=False), WIDE_MIN_WIDTH)
    assert "┼" in wide and all(Text(line).cell_len <= WIDE_MIN_WIDTH for line in wide.splitlines())


def test_panel_shows_turn_captures_and_moves() -> None:
    session = hotseat(Board("7/7/7/7/3r3/3R3/7/7/4E2 b"))
    feed(session, ["d5d4"])
    panel = "\n".join(line.plain for line in panel_lines(session, color=False))
    assert "Red to move" in panel
    assert "Captured: Red R  Blue none" in panel  # not the animals the set-up position lacks
    assert "1... Rd5xd4" in panel
    session.handle("lang zh")
    panel = "\n".join(line.plain for line in panel_lines(session, color=False))
    assert "被吃：红方 鼠  蓝方 无" in panel and "红方走棋" in panel
    assert "1... 鼠 d5×d4 吃 鼠" in panel


# ------------------------------------------------------------------------ the loop


def scripted(lines: list[str]) -> Iterator[str]:
    yield from lines


def run_loop(session: Session, lines: list[str], width: int = 100) -> tuple[int, str]:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    script = iter(lines)
    prompts: list[str] = []

    def read(prompt: str) -> str | None:
        prompts.append(prompt)
        return next(script, None)

    status = play_loop(session, console, read)
    return status, console.file.getvalue()  # type: ignore[attr-defined]


def test_loop_plays_the_computer_and_ends_at_quit() -> None:
    session, _ = vs_computer()
    status, out = run_loop(session, ["g3g4", "quit"])
    assert status == 0
    assert "Computer: Ra7-a6" in out and "Bye." in out
    assert out.count("9 │ l7 │") == 3  # the start, after the player's move, after the reply


def test_loop_ends_quietly_at_end_of_input() -> None:
    status, out = run_loop(hotseat(), ["g3g4"])
    assert status == 0 and "Rg3-g4" in out


def test_loop_new_game_after_the_end() -> None:
    session, _ = vs_computer(board=Board(DEN_IN_ONE))
    _, out = run_loop(session, ["c9d9", "y", "quit"])
    assert "You win!" in out and "New game." in out
    assert session.board.fen() == START


def test_loop_ctrl_c_exits_130() -> None:
    console = Console(file=io.StringIO(), width=80, color_system=None)

    def interrupted(prompt: str) -> str | None:
        raise KeyboardInterrupt

    assert play_loop(hotseat(), console, interrupted) == 130


def test_piped_input_is_echoed_after_the_prompt() -> None:
    console = Console(file=io.StringIO(), width=80, color_system=None)
    read = make_line_reader(console, io.StringIO("g3 g4\n"))
    assert read("Red> ") == "g3 g4\n"
    assert read("Blue> ") is None
    assert console.file.getvalue() == "Red> g3 g4\nBlue> \n"  # type: ignore[attr-defined]


def test_default_language_follows_the_locale() -> None:
    assert default_lang({"LANG": "zh_TW.UTF-8"}) == "zh"
    assert default_lang({"LANG": "en_US.UTF-8"}) == "en"
    assert default_lang({"LANG": "zh_CN.UTF-8", "LC_ALL": "C"}) == "en"


# --------------------------------------------------------------------- the command


def _command() -> list[str]:
    script = Path(sys.executable).parent / "doushouqi"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "doushouqi"]


def test_play_command_in_a_subprocess() -> None:
    env = {**os.environ, "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8", "COLUMNS": "100"}
    env.pop("LC_ALL", None)
    result = subprocess.run(
        [*_command(), "play", "--mode", "hotseat"],
        input="g3g4\nb8b7\ng9 g8\nquit\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "a    b    c    d    e    f    g" in out
    assert "9 │ l7 │" in out and "1 │ T6 │" in out
    assert "Red: Rg3-g4" in out and "Blue: Db8-b7" in out
    assert "Red> g9 g8" in out
    assert out.count("Illegal move") == 1 and "the blue tiger on g9 is not yours" in out
    assert out.rstrip().endswith("Bye.")


def test_play_command_options_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--level", "11"], ["--lang", "fr"], ["--mode", "online"]):
        with pytest.raises(SystemExit) as exc:
            cli.main(["play", *argv])
        assert exc.value.code == 2
    assert "expected 1 to 10" in capsys.readouterr().err


def test_play_command_loads_a_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    session = hotseat()
    feed(session, ["g3g4", "a7a6", f"save {tmp_path / 'g.txt'}"])
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    argv = ["play", "--mode", "hotseat", "--lang", "zh", "--load", str(tmp_path / "g.txt")]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "1. 鼠 g3-g4  鼠 a7-a6" in out and "红方走棋" in out
    assert cli.main([*argv[:-1], str(tmp_path / "missing.txt")]) == 2
    assert "doushouqi play: error:" in capsys.readouterr().err


def test_other_commands_do_not_import_rich() -> None:
    code = (
        "import sys\n"
        "from doushouqi.cli.main import main\n"
        "assert main(['perft', 'startpos', '1']) == 0\n"
        "assert 'rich' not in sys.modules, 'rich imported'\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "24"


def test_only_a_hint_makes_the_loop_wait_for_the_engine() -> None:
    session, _ = vs_computer()
    assert session.asks_engine("hint") and session.asks_engine(" 提示 ")
    assert not session.asks_engine("g3g4") and not session.asks_engine("moves")
    assert not hotseat().asks_engine("hint")  # no engine: the answer comes at once


@pytest.mark.slow
def test_play_against_the_real_engine_in_a_subprocess() -> None:
    pytest.importorskip("numba")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "100"}
    result = subprocess.run(
        [*_command(), "play", "--lang", "en", "--level", "1", "--movetime", "0.2"],
        input="g3g4\nhint\nquit\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=300,  # the first search compiles the engine
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "engine is not available" not in result.stdout
    assert re.search(r"Computer: [A-Z][a-g][1-9][-x][a-g][1-9]", result.stdout)
    assert re.search(r"Hint: [a-g][1-9][a-g][1-9] ", result.stdout)
