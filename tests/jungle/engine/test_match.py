"""Matches between engines (doushouqi.jungle.engine.match): statistics, set-up, games and the CLI.

The statistics are checked against values worked out by hand; games and matches run real
engine processes (the scripted ``fake_engine.py``, and our engine once it exists).
"""

from __future__ import annotations

import asyncio
import math
import re
import sys
from pathlib import Path

import pytest
from tests.jungle.engine.conftest import FakeCommand

from doushouqi.cli.main import main
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine import Engine, EngineError
from doushouqi.jungle.engine.match import (
    EngineSpec,
    MatchScore,
    MatchTimeControl,
    Opening,
    Sprt,
    default_openings,
    elo_estimate,
    elo_from_score,
    play_game,
    read_openings,
    score_from_elo,
    sprt_bounds,
    sprt_llr,
)
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.rules import RuleSet

# ------------------------------------------------------------------------ statistics


def test_elo_from_score() -> None:
    # 0.75 = 3 points in 4: 400·log10(0.75/0.25) = 400·log10(3) = 400 × 0.4771213 = 190.8485
    assert elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert elo_from_score(0.25) == pytest.approx(-190.8485, abs=1e-4)
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    # 1/(1 + 10^(-10/400)) = 1/(1 + 0.9440609) = 0.5143872
    assert score_from_elo(10) == pytest.approx(0.5143872, abs=1e-7)
    assert elo_from_score(score_from_elo(123.0)) == pytest.approx(123.0)


def test_elo_error_bar_uses_the_trinomial_variance() -> None:
    # 60 wins, 20 draws, 20 losses: s = 0.7,
    # σ² = (60·0.3² + 20·0.2² + 20·0.7²)/100 = (5.4 + 0.8 + 9.8)/100 = 0.16, σ/√N = 0.04,
    # margin = 1.959964 × 0.04 = 0.0783986: scores 0.6216014 .. 0.7783986.
    # Elo: 400·log10(0.7/0.3) = 147.1907; 400·log10(0.6216014/0.3783986) = 86.2250;
    # 400·log10(0.7783986/0.2216014) = 218.2518; error = (218.2518 - 86.2250)/2 = 66.0134.
    elo, error = elo_estimate(60, 20, 20)
    assert elo == pytest.approx(147.1907, abs=1e-4)
    assert error == pytest.approx(66.0134, abs=1e-4)
    # 30/40/30: s = 0.5, σ² = (30·0.25 + 30·0.25)/100 = 0.15, margin = 1.959964·√0.0015
    # = 0.0759083; 400·log10(0.5759083/0.4240917) = 53.1580.
    elo, error = elo_estimate(30, 40, 30)
    assert elo == 0.0 and error == pytest.approx(53.1580, abs=1e-4)
    # All draws: no spread, so no error; no games or all wins: unbounded.
    assert elo_estimate(0, 10, 0) == (0.0, 0.0)
    assert elo_estimate(0, 0, 0)[1] == math.inf
    assert elo_estimate(5, 0, 0) == (math.inf, math.inf)
    assert elo_estimate(0, 0, 5) == (-math.inf, math.inf)


def test_sprt_llr_and_bounds() -> None:
    # 60/20/20 with elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 0.5143872, s = 0.7, σ² = 0.16:
    # LLR = 100 × 0.0143872 × (1.4 - 0.5 - 0.5143872) / (2 × 0.16)
    #     = 100 × 0.0143872 × 0.3856128 / 0.32 = 1.73371
    assert sprt_llr(60, 20, 20, 0, 10) == pytest.approx(1.73371, abs=1e-5)
    # The mirror image is as strong evidence against H1.
    assert sprt_llr(20, 20, 60, -10, 0) == pytest.approx(-1.73371, abs=1e-5)
    # No variance, no evidence.
    assert sprt_llr(0, 0, 0, 0, 10) == 0.0 and sprt_llr(8, 0, 0, 0, 10) == 0.0
    # ln(0.05/0.95) = -ln 19 = -2.944439; ln(0.9/0.05) = ln 18 = 2.890372.
    lower, upper = sprt_bounds(0.05, 0.05)
    assert (lower, upper) == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    assert sprt_bounds(0.05, 0.1)[1] == pytest.approx(2.890372, abs=1e-6)


def test_sprt_parse_and_decide() -> None:
    sprt = Sprt.parse("0,10,0.05,0.05")
    assert sprt == Sprt(0, 10, 0.05, 0.05) == Sprt.parse("0,10")
    assert sprt.decision(3.0) == "H1" and sprt.decision(-3.0) == "H0"
    assert sprt.decision(1.0) is None
    assert sprt.llr(MatchScore(60, 20, 20)) == pytest.approx(1.73371, abs=1e-5)
    for bad in ("0", "0,10,0.05", "10,0", "0,10,1.5,0.05", "a,b"):
        with pytest.raises(ValueError):
            Sprt.parse(bad)


def test_match_score() -> None:
    score = MatchScore()
    for points in (1.0, 0.5, 0.0, 1.0):
        score.add(points)
    assert (score.wins, score.draws, score.losses, score.games) == (2, 1, 1, 4)
    assert score.score == 0.625
    assert str(score) == "W/D/L 2/1/1, 62.5% (4 games)"


# --------------------------------------------------------------------------- set-up


def test_time_control_parse() -> None:
    assert MatchTimeControl.parse("0.5") == MatchTimeControl(movetime=0.5)
    assert MatchTimeControl.parse("10+0.1") == MatchTimeControl(base=10.0, increment=0.1)
    assert MatchTimeControl.parse("60s+1") == MatchTimeControl(base=60.0, increment=1.0)
    assert str(MatchTimeControl.parse("5+0")) == "5+0"
    for bad in ("", "fast", "0", "-1+1", "1+x"):
        with pytest.raises(ValueError):
            MatchTimeControl.parse(bad)


def test_engine_spec_parse() -> None:
    ours = EngineSpec.parse("ai:4")
    assert ours.command == (sys.executable, "-m", "doushouqi", "engine")
    assert ours.options == (("Level", "4"),) and ours.name == "ai:4"
    other = EngineSpec.parse("cmd:/opt/jungle/bin/engine --hash 64")
    assert other.command == ("/opt/jungle/bin/engine", "--hash", "64")
    assert other.options == () and other.name == "engine --hash 64"
    assert EngineSpec.parse("./engine").command == ("./engine",)
    for bad in ("ai:", "ai:strong", "cmd:", "cmd:'unclosed"):
        with pytest.raises(ValueError):
            EngineSpec.parse(bad)


def test_openings_file(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text(
        "# two-ply openings\n"
        "g3g4 a7a6\n"
        "\n"
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1\n"
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1 moves a3a4\n"
        "startpos moves g3g4\n"
    )
    openings = read_openings(path)
    assert [o.moves for o in openings] == [("g3g4", "a7a6"), (), ("a3a4",), ("g3g4",)]
    assert openings[1].board("wango").turn == 1
    assert openings[2].board("wango").ply() == 1
    path.write_text("g3g4\ng3g5\n")
    with pytest.raises(ValueError, match=r"openings.txt:2: illegal move g3g5"):
        read_openings(path)
    path.write_text("3R3/7/7/7/7/7/7/7/6r b\n")  # Red's rat already in the den
    with pytest.raises(ValueError, match="already over"):
        read_openings(path)


def test_openings_from_an_epd_suite(tmp_path: Path) -> None:
    # The suites' lines (tests/jungle/ai/data/*.epd): a position, then ;-separated operations.
    path = tmp_path / "suite.epd"
    path.write_text(
        "7/4d2/5l1/7/7/7/e2E3/3W3/7 b 0 1;rules=wango;class=won;score=D8;animals=5\n"
        '2d4/1P2w2/7/7/7/7/4D2/3E1e1/7 w 0 1 ; rules wango ; id "eg-2"\n'
        "7/4d2/5l1/7/7/7/e2E3/3W3/7 b 0 1;score=+12\n"
    )
    openings = read_openings(path)
    assert [o.fen for o in openings] == [
        "7/4d2/5l1/7/7/7/e2E3/3W3/7 b 0 1",
        "2d4/1P2w2/7/7/7/7/4D2/3E1e1/7 w 0 1",
        "7/4d2/5l1/7/7/7/e2E3/3W3/7 b 0 1",
    ]
    assert all(o.moves == () for o in openings)
    assert openings[1].board("wango").turn == 0
    # A position for other rules is refused, not played under the match's.
    with pytest.raises(
        ValueError,
        match=r"suite.epd:1: the position is for the wango rules, the match plays intern",
    ):
        read_openings(path, "international")
    path.write_text("7/4d2/5l1/7/7/7/e2E3/3W3/7 b 0 1;rules=classic\n")
    assert read_openings(path, "classic")[0].fen == "7/4d2/5l1/7/7/7/e2E3/3W3/7 b 0 1"
    with pytest.raises(ValueError, match=r"suite.epd:1: .*the match plays wango"):
        read_openings(path)
    path.write_text("7/4d2/5l1/7/7/7/e2E3/3W3/7 b 0 1;rules=chess\n")
    with pytest.raises(ValueError, match=r"suite.epd:1: unknown rule set 'chess'"):
        read_openings(path)


def test_match_from_a_position_file(
    fake_command: FakeCommand, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `doushouqi match --openings` plays each position twice, the colours swapped; each
    # game's moves start from the position and replay to its end.
    path = tmp_path / "suite.epd"
    fens = ["7/4d2/5l1/7/7/7/e2E3/3W3/7 b 0 1", "2d4/1P2w2/7/7/7/7/4D2/3E1e1/7 w 0 1"]
    path.write_text("".join(f"{fen};rules=wango;class=unclear\n" for fen in fens))
    engine = "cmd:" + " ".join(fake_command())
    args = ["match", engine, engine, "--games", "4", "--tc", "0.02", "--max-plies", "30"]
    assert main([*args, "--openings", str(path)]) == 0
    out = capsys.readouterr().out
    for number, fen in zip((1, 2, 3, 4), (fens[0], fens[0], fens[1], fens[1]), strict=True):
        assert f"Game {number}/4: " in out and f"opening {fen} moves start" in out, out
    # Games 1 and 2 swap the colours: A is Red once, B ("… (2)") the other time.
    games = [line for line in out.splitlines() if line.startswith("Game ")]
    assert "fake_engine.py (red) vs " in games[0] and "(2) (blue)" in games[0], out
    assert "fake_engine.py (2) (red) vs " in games[1] and "py (blue)" in games[1], out


def test_game_results_keep_the_moves_from_the_opening(fake_command: FakeCommand) -> None:
    from doushouqi.jungle.engine.match import Match, MatchConfig
    from doushouqi.jungle.rules import find_rules

    fen = "2d4/1P2w2/7/7/7/7/4D2/3E1e1/7 w 0 1"
    spec = EngineSpec.parse("cmd:" + " ".join(fake_command()))
    config = MatchConfig(
        first=spec,
        second=spec,
        games=2,
        control=MatchTimeControl(movetime=0.02),
        openings=[Opening(fen, ("e3f3",))],
        rules=find_rules("wango"),
        max_plies=20,
    )
    match = Match(config, out=lambda line: None)
    asyncio.run(match.run())
    assert len(match.results) == 2
    for result in match.results:
        assert result.moves[0] == "e3f3" and len(result.moves) == result.plies
        board = Board(fen)
        for move in result.moves:
            board.push_move(move)
        outcome = board.outcome()
        assert (outcome.result() if outcome else "1/2-1/2") == result.result


def test_default_openings_are_all_two_ply_openings_in_a_fixed_order() -> None:
    openings = default_openings("wango")
    board = Board()
    expected = 0
    for move in list(board.legal_moves):
        board.push(move)
        expected += board.legal_moves.count()
        board.pop()
    assert len(openings) == expected == len(set(openings))
    assert openings == default_openings("wango")
    assert openings != default_openings("wango", seed=7)
    assert all(len(o.moves) == 2 and o.fen is None for o in openings)
    assert Opening.parse(str(openings[0])) == openings[0]


# ---------------------------------------------------------------------------- games


def _game(
    red_command: list[str],
    blue_command: list[str],
    board: Board,
    control: MatchTimeControl,
    max_plies: int = 400,
) -> tuple[str, Termination | None, str]:
    async def run() -> tuple[str, Termination | None, str]:
        async with (
            Engine(red_command, move_grace=0.5) as red,
            Engine(blue_command, move_grace=0.5) as blue,
        ):
            return await play_game(red, blue, board, control, max_plies=max_plies)

    return asyncio.run(run())


MOVETIME = MatchTimeControl(movetime=0.02)


def test_game_ends_on_the_board(fake_command: FakeCommand) -> None:
    # Red's rat on d8 can only go into Blue's den: cat, dog and wolf hem it in.
    board = Board("7/2cRd2/3w3/7/7/7/7/7/7 w")
    result = _game(fake_command(), fake_command(), board, MOVETIME)
    assert result == ("1-0", Termination.DEN_ENTERED, "den entered")
    assert [str(m) for m in board.move_stack] == ["d8d9"]


def test_game_drawn_at_the_ply_limit(fake_command: FakeCommand) -> None:
    board = Board()
    result = _game(fake_command(), fake_command("--seed", "1"), board, MOVETIME, max_plies=6)
    assert board.ply() == 6 or result[1] is not None
    if board.ply() == 6 and board.outcome() is None:
        assert result == ("1/2-1/2", None, "draw after 6 plies (adjudicated)")


def test_crash_loses(fake_command: FakeCommand) -> None:
    result, termination, reason = _game(
        fake_command(), fake_command("--crash-after", "1"), Board(), MOVETIME
    )
    assert (result, termination) == ("1-0", Termination.ABANDONMENT)
    assert "crashed" in reason and "exit code 3" in reason


def test_illegal_move_loses(fake_command: FakeCommand) -> None:
    result, termination, reason = _game(
        fake_command("--illegal-after", "2"), fake_command(), Board(), MOVETIME
    )
    assert (result, termination) == ("0-1", None)
    assert re.search(r"\(red\) lost by a bad move: .*illegal move", reason)


def test_silent_engine_loses_on_time(fake_command: FakeCommand) -> None:
    result, termination, reason = _game(
        fake_command(), fake_command("--hang-after", "1"), Board(), MOVETIME
    )
    assert (result, termination) == ("1-0", Termination.TIME_FORFEIT)
    assert "did not answer in time" in reason


def test_rule_set_the_engine_lacks_is_an_error_not_a_loss(fake_command: FakeCommand) -> None:
    board = Board(rules=RuleSet(name="house", trapped_can_capture=True))
    with pytest.raises(EngineError, match="does not offer the rule set 'house'"):
        _game(fake_command(), fake_command(), board, MOVETIME)


def test_slow_engine_runs_out_of_clock_time(fake_command: FakeCommand) -> None:
    control = MatchTimeControl(base=0.2, increment=0.0)
    result, termination, reason = _game(
        fake_command("--think", "0.45"), fake_command(), Board(), control
    )
    assert (result, termination) == ("0-1", Termination.TIME_FORFEIT)
    assert "ran out of time" in reason


# ------------------------------------------------------------------------------ CLI


def _fake_spec(fake_command: FakeCommand, *switches: str) -> str:
    return "cmd:" + " ".join(fake_command(*switches))


def test_match_command_plays_and_records(
    fake_command: FakeCommand, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from doushouqi.jungle.record import read_record

    first = _fake_spec(fake_command)
    second = _fake_spec(fake_command, "--seed", "5")
    records = tmp_path / "games"
    options = ["--games", "4", "--tc", "0.02", "--max-plies", "30", "--concurrency", "2"]
    status = main(
        ["match", first, second, *options, "--records", str(records), "--rules", "classic"]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert len(re.findall(r"^Game \d/4: ", out, re.M)) == 4
    assert re.search(r"^Final score of .* W/D/L \d/\d/\d, [\d.]+% \(4 games\)$", out, re.M)
    assert re.search(r"^Elo difference: [+-](inf|[\d.]+) \+/- (inf|[\d.]+) \(95%\)$", out, re.M)
    files = sorted(records.iterdir())
    assert [f.name for f in files] == [f"game-000{n}.jgn" for n in range(1, 5)]
    record = read_record(files[1].read_text())
    assert record.rules.name == "classic" and record.tags["Round"] == "2"
    assert record.tags["Red"].endswith("--seed 5")  # colours swap in the second game
    assert record.result in ("1-0", "0-1", "1/2-1/2")


def test_time_odds_match_gives_each_engine_its_own_time(
    fake_command: FakeCommand, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from doushouqi.jungle.record import read_record

    logs = tmp_path / "a.log", tmp_path / "b.log"
    first, second = (_fake_spec(fake_command, "--log", str(log)) for log in logs)
    records = tmp_path / "games"
    options = ["--tc", "0.03", "--tc-b", "0.01", "--games", "2", "--max-plies", "6"]
    assert main(["match", first, second, *options, "--records", str(records)]) == 0
    out = capsys.readouterr().out
    assert "2 games, 0.03s/move against 0.01s/move" in out
    assert re.search(r"^Final score of .*@0\.03s/move vs .*@0\.01s/move: ", out, re.M)
    for log, movetime in zip(logs, ("30", "10"), strict=True):
        goes = [line for line in log.read_text().splitlines() if line.startswith("go")]
        assert goes and all(line == f"go movetime {movetime}" for line in goes), goes
    first_game, second_game = (read_record(f.read_text()) for f in sorted(records.iterdir()))
    assert first_game.tags["TimeControl"] == "0.03s/move:0.01s/move"  # red's, then blue's
    assert second_game.tags["TimeControl"] == "0.01s/move:0.03s/move"  # colours swapped


def test_match_crashing_engine_loses_every_game_and_is_restarted(
    fake_command: FakeCommand, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _fake_spec(fake_command, "--crash-after", "1")
    status = main(["match", first, _fake_spec(fake_command), "--games", "3", "--tc", "0.02"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.count("crashed") == 3
    assert "W/D/L 0/0/3, 0.0% (3 games)" in out
    assert "Elo difference: -inf +/- inf (95%)" in out


def test_match_stops_when_the_sprt_decides(
    fake_command: FakeCommand, capsys: pytest.CaptureFixture[str]
) -> None:
    # Both engines lose every game they play as Blue: 50% — far below elo0 = 200.
    # Per game pair: LLR = 2 × (0.909091 - 0.759747) × (1 - 1.668838) / (2 × 0.25) = -0.3996;
    # the lower bound ln(0.2/0.8) = -1.386 is crossed after 4 pairs (8 games).
    first = _fake_spec(fake_command, "--illegal-as", "blue")
    second = _fake_spec(fake_command, "--illegal-as", "blue", "--name", "Other")
    status = main(
        ["match", first, second, "--games", "40", "--tc", "0.02", "--sprt", "200,400,0.2,0.2"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "SPRT: H0 accepted (LLR -1.60); stopping" in out
    assert "W/D/L 4/0/4, 50.0% (8 games)" in out
    assert re.search(r"LLR -1\.60 \(bounds -1\.39, 1\.39\), H0 accepted$", out, re.M)


def test_match_command_errors(
    fake_command: FakeCommand, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _fake_spec(fake_command)
    assert main(["match", "cmd:/nonexistent/engine", good, "--games", "1"]) == 2
    assert main(["match", "ai:strong", good]) == 2
    assert main(["match", good, good, "--tc", "fast"]) == 2
    broken = f"cmd:{sys.executable} -c 'import sys; sys.exit(4)'"
    assert main(["match", good, broken, "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "invalid time control 'fast'" in err
    assert re.search(r"engine error: engine python\S* has exited \(exit code 4\)", err)
    assert "ai:strong" in err


# ----------------------------------------------------------------------- our engine


def test_match_between_our_engine_levels(
    real_engine_command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["match", "ai:1", "ai:2", "--games", "2", "--tc", "0.05", "--max-plies", "60"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert re.search(
        r"^Final score of ai:1 vs ai:2: W/D/L \d/\d/\d, [\d.]+% \(2 games\)$", out, re.M
    )
