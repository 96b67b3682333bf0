"""The Tiger's engine client and matches, against the real engine process and a scripted
one that breaks the protocol; ``doushouqi match --game tiger`` from the command line."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path

import pytest

from doushouqi.cli.main import main
from doushouqi.tiger.analysis import Limit
from doushouqi.tiger.board import Board
from doushouqi.tiger.engine import Engine, EngineError, EngineMoveError, EngineNoMoveError
from doushouqi.tiger.engine.match import (
    EngineSpec,
    MatchConfig,
    TimeControl,
    default_openings,
    play_game,
    read_openings,
)
from doushouqi.tiger.engine.protocol import (
    RULE_OPTIONS,
    named_rule_set,
    rule_option_values,
    with_rule_option,
)
from doushouqi.tiger.record import read_record
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, rules_by_name, rules_from_mapping

OURS = (sys.executable, "-m", "doushouqi", "engine", "--game", "tiger")


def _scripted(tmp_path: Path, bestmove: str) -> tuple[str, ...]:
    """An engine that answers every ``go`` with ``bestmove``."""
    script = tmp_path / "engine.py"
    script.write_text(
        textwrap.dedent(f"""
        import sys
        for line in sys.stdin:
            word = line.split()[0] if line.split() else ""
            if word == "uci":
                print("id name scripted")
                print("option name Rules type combo default laohuqi var laohuqi")
                print("uciok")
            elif word == "isready":
                print("readyok")
            elif word == "go":
                print("info depth 1 score cp 0")
                print("bestmove {bestmove}")
            elif word == "quit":
                break
            sys.stdout.flush()
    """)
    )
    return (sys.executable, str(script))


def test_every_rule_set_goes_through_its_options() -> None:
    for name, rules in BUILTIN_RULE_SETS.items():
        rebuilt = rules_by_name("laohuqi")
        for field, text in rule_option_values(rules).items():
            rebuilt = with_rule_option(rebuilt, field, text)
        assert rule_option_values(rebuilt) == rule_option_values(rules)
        assert named_rule_set(rebuilt) == name
    custom = rules_from_mapping("x", {"multi_jump": True, "diagonals": "nest"})
    assert named_rule_set(custom) is None
    assert set(rule_option_values(custom)) == set(RULE_OPTIONS)
    with pytest.raises(ValueError, match="max_rounds"):
        with_rule_option(custom, "max_rounds", "-2")


def test_the_client_plays_our_engine_under_custom_rules() -> None:
    async def run() -> list[str]:
        engine = Engine(OURS)
        try:
            await engine.start()
            assert engine.name.startswith("doushouqi-tiger")
            await engine.configure({"Level": 2, "Hash": 4})
            with pytest.raises(EngineError, match="no option"):
                await engine.configure({"Colour": "red"})
            with pytest.raises(EngineError, match="set from the board"):
                await engine.configure({"multi_jump": True})
            custom = rules_from_mapping("x", {"multi_jump": True, "diagonals": "nest"})
            board = Board(rules=custom)
            played = []
            for _ in range(4):
                result = await engine.play(board, Limit(movetime=0.05))
                assert result.move is not None and result.move in board.legal_moves
                board.push(result.move)
                played.append(str(result.move))
            return played
        finally:
            await engine.quit()

    assert len(asyncio.run(run())) == 4


@pytest.mark.parametrize(
    ("bestmove", "error"),
    [("e10e8", EngineMoveError), ("zz", EngineMoveError), ("0000", EngineNoMoveError)],
)
def test_a_bad_move_is_caught(tmp_path: Path, bestmove: str, error: type[Exception]) -> None:
    async def run() -> None:
        engine = Engine(_scripted(tmp_path, bestmove))
        try:
            await engine.start()
            await engine.play(Board(), Limit(movetime=0.05))
        finally:
            await engine.quit()

    with pytest.raises(error):
        asyncio.run(run())


def test_a_game_against_a_broken_engine_is_lost_by_it(tmp_path: Path) -> None:
    async def run() -> tuple[str, str]:
        good, bad = Engine(OURS), Engine(_scripted(tmp_path, "e10e8"))
        try:
            for engine in (good, bad):
                await engine.start()
            control = TimeControl(movetime=0.05)
            return await play_game((bad, good), Board(), (control, control))
        finally:
            for engine in (good, bad):
                await engine.quit()

    result, reason = asyncio.run(run())
    assert result == "0-1" and "bad move" in reason


def test_specs_time_controls_and_openings(tmp_path: Path) -> None:
    assert EngineSpec.parse("ai:4", ["Hash=8"]).options == (("Level", "4"), ("Hash", "8"))
    assert EngineSpec.parse("cmd:my-engine --fast").command == ("my-engine", "--fast")
    for bad in ("ai:11", "ai:x", "cmd:"):
        with pytest.raises(ValueError, match="invalid engine"):
            EngineSpec.parse(bad)
    assert TimeControl.parse("5+0.1") == TimeControl(base=5.0, increment=0.1)
    for bad in ("fast", "0", "-1+1", "inf"):
        with pytest.raises(ValueError, match="invalid time control"):
            TimeControl.parse(bad)
    openings = default_openings("laohuqi-south", seed=1)
    assert len(openings) == len({tuple(o) for o in openings}) > 0
    path = tmp_path / "openings.txt"
    path.write_text("# two\ne10e9 d2d3\n\ne10d10\n")
    assert read_openings(path, rules_by_name("laohuqi")) == [["e10e9", "d2d3"], ["e10d10"]]
    path.write_text("e10e8\n")
    with pytest.raises(ValueError, match=r"openings\.txt:1"):
        read_openings(path, rules_by_name("laohuqi"))
    with pytest.raises(ValueError, match="at least 1"):
        MatchConfig(EngineSpec.parse("ai:1"), EngineSpec.parse("ai:2"), 0, TimeControl(0.1),
                    [[]], rules_by_name("laohuqi"))  # fmt: skip


def test_the_match_command_plays_tiger_engines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "records"
    status = main(["match", "--game", "tiger", "ai:1", "ai:3", "--games", "2", "--tc", "0.03",
                   "--max-plies", "16", "--records", str(records),
                   "--rules", "laohuqi-strict"])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    assert "rules laohuqi-strict" in out and "Elo difference" in out
    assert "The tiger side scored" in out
    files = sorted(records.glob("*.tgn"))
    assert len(files) == 2
    for path in files:
        record = read_record(path.read_text(encoding="utf-8"))
        assert record.rules.name == "laohuqi-strict" and record.tags["Round"] in ("1", "2")
        assert record.board().ply() >= 2


def test_the_match_command_refuses_a_rule_set_of_another_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "--game", "tiger", "ai:1", "ai:2", "--rules", "wango"]) == 2
    assert "unknown rule set 'wango'" in capsys.readouterr().err


def test_the_table_of_engines_names_installed_games() -> None:
    from doushouqi.cli.engines import ENGINES, load
    from doushouqi.core.game import get_game

    for key, engine in ENGINES.items():
        assert get_game(key).key == key
        assert callable(load(engine.protocol)) and callable(load(engine.match))
        get_game(key).parse_rules(engine.default_rules)
