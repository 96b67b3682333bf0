"""Matches against outside engines: the handshake dialect (uci, jcei or detected), options
for each engine, move times in the records and the summary, engines that answer no move or
do not start, and the default ply limit of each rule set."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest
from tests.jungle.engine.conftest import FakeCommand

from doushouqi.cli.main import main
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine import Engine, EngineTimeoutError
from doushouqi.jungle.engine.match import (
    EngineSpec,
    Match,
    MatchConfig,
    MatchTimeControl,
    Opening,
    default_max_plies,
    play_game,
)
from doushouqi.jungle.record import read_record
from doushouqi.jungle.rules import find_rules

MOVETIME = MatchTimeControl(movetime=0.02)
#: A move time comment: score for the mover (pawns or den moves) / depth, then the time.
COMMENT = re.compile(r"([+-](\d+\.\d\d|D\d+)/\d+ )?\d+\.\d{3}s")


def _spec(prefix: str, fake_command: FakeCommand, *switches: str) -> str:
    return f"{prefix}:" + " ".join(fake_command(*switches))


def test_engine_spec_dialects_and_options() -> None:
    assert EngineSpec.parse("cmd:engine").handshake == "auto"
    assert EngineSpec.parse("engine --fast").handshake == "auto"
    assert EngineSpec.parse("uci:engine").handshake == "uci"
    jcei = EngineSpec.parse("jcei:/opt/x/engine -t 1", ["Hash=64", "Book File = a b.bin"])
    assert jcei.handshake == "jcei" and jcei.command == ("/opt/x/engine", "-t", "1")
    assert jcei.options == (("Hash", "64"), ("Book File", "a b.bin"))
    assert EngineSpec.parse("ai:10").handshake == "uci"
    for bad in ("ai:0", "ai:11"):
        with pytest.raises(ValueError, match="levels are 1 to 10"):
            EngineSpec.parse(bad)
    with pytest.raises(ValueError, match="NAME=VALUE"):
        EngineSpec.parse("ai:3", ["Hash"])


def test_a_jcei_engine_is_detected(fake_command: FakeCommand) -> None:
    async def main() -> tuple[str | None, str | None]:
        jcei = Engine(fake_command("--handshake", "jcei"), handshake="auto")
        uci = Engine(fake_command(), handshake="auto")
        async with jcei, uci:
            return jcei.protocol, uci.protocol

    started = time.monotonic()
    assert asyncio.run(main()) == ("jcei", "uci")
    assert time.monotonic() - started < 30


def test_match_against_jcei_engines_with_options(
    fake_command: FakeCommand, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "a.log"
    first = _spec("cmd", fake_command, "--handshake", "jcei", "--log", str(log))
    second = _spec("jcei", fake_command, "--handshake", "jcei", "--seed", "3")
    records = tmp_path / "games"
    options = ["--games", "2", "--tc", "0.02", "--max-plies", "12", "--records", str(records)]
    status = main(["match", first, second, *options, "--option-a", "Level=5"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "setoption name Level value 5" in log.read_text().splitlines()
    # Each engine's move times, and how many went over the move time.
    times = re.findall(
        r"^Move time of (.*): average (\d+\.\d{3}) s, max (\d+\.\d{3}) s \((\d+) moves\), "
        r"(\d+) over the 0\.02 s move time$",
        out,
        re.M,
    )
    assert len(times) == 2 and all(float(t[1]) <= float(t[2]) for t in times), out
    assert sum(int(t[3]) for t in times) == 2 * (12 - 2)  # two-ply openings
    for path in sorted(records.iterdir()):
        record = read_record(path.read_text())
        engine_plies = range(3, len(record.moves) + 1)
        assert sorted(record.comments) == list(engine_plies), record.comments
        assert all(COMMENT.fullmatch(record.comments[ply]) for ply in engine_plies)
        assert record.comments[3].startswith("+D5/2 ")  # the fake engine's last info


def test_an_engine_that_answers_no_move_loses(fake_command: FakeCommand) -> None:
    async def run() -> tuple[str, object, str]:
        async with (
            Engine(fake_command()) as red,
            Engine(fake_command("--no-move-after", "2")) as blue,
        ):
            return await play_game(red, blue, Board(), MOVETIME)

    result, termination, reason = asyncio.run(run())
    assert (result, termination) == ("1-0", None)
    assert "(blue) answered no move and loses" in reason and "legal moves" in reason


def test_an_engine_that_does_not_start_gives_no_score(
    fake_command: FakeCommand, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", "ai:3", "ai:11"]) == 2
    captured = capsys.readouterr()
    assert "levels are 1 to 10" in captured.err and "score" not in captured.out.lower()
    silent = EngineSpec.parse(_spec("uci", fake_command, "--no-handshake"))
    config = MatchConfig(
        first=silent,
        second=silent,
        games=2,
        control=MOVETIME,
        openings=[Opening()],
        rules=find_rules("wango"),
        reply_timeout=1.0,
    )
    match = Match(config, out=lambda line: None)
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError, match="uciok within 1 s"):
        asyncio.run(match.run())
    assert time.monotonic() - started < 15  # not the 300 s start-up allowance
    assert match.summary(stopped=True) == []


def test_default_ply_limits_follow_the_rules() -> None:
    assert default_max_plies(find_rules("wango")) == 400
    for name in ("classic", "classic-dog", "international"):
        rules = find_rules(name)
        assert rules.no_capture_draw_rounds is not None
        assert default_max_plies(rules) > 2 * rules.no_capture_draw_rounds
    config = MatchConfig(
        first=EngineSpec.parse("ai:1"),
        second=EngineSpec.parse("ai:2"),
        games=1,
        control=MOVETIME,
        openings=[Opening()],
        rules=find_rules("classic"),
    )
    assert config.plies_limit == 1000
