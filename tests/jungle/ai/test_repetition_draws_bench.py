"""bench/repetition_draws.py: how a repetition draw is recorded and judged, and what counts
as one given away by a side ahead."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

# The bench's modules import each other by bare name, as when run from bench/ (appended: its
# names must not hide the package's).
sys.path.append(str(Path(__file__).resolve().parents[3] / "bench"))

from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board, Move
from repetition_draws import ahead, judge, main, play, report

#: Red's lion, tiger and elephant against Blue's lone elephant: Red far ahead.
RED_AHEAD = "5le/7/7/7/7/7/2T1E2/7/L6 w"


def _scripted(moves: list[str], score: int) -> tuple:
    """A side that plays ``moves`` in turn, each with ``score``."""
    queue = list(moves)

    def move(board: Board, limit: Limit) -> tuple[Move, int]:
        return Move.from_uci(queue.pop(0)), score

    return move, lambda: None, lambda: None


def test_a_repetition_by_the_side_ahead_is_judged_ahead() -> None:
    # Red shuffles its lion while far ahead; Blue shuffles back: the third occurrence comes
    # with Blue's move, so Blue made the draw, and the judge sees Red (to move) far ahead.
    red = _scripted(["a1b1", "b1a1"] * 2, 600)
    blue = _scripted(["g9g8", "g8g9"] * 2, -600)
    record = play(Board(RED_AHEAD), red, blue, Limit(nodes=1000), 300, 20_000)
    assert record["ending"] == "repetition" and record["winner"] is None
    assert record["moves"] == ["a1b1", "g9g8", "b1a1", "g8g9"] * 2
    details = record["repetition"]
    assert details["drawn_by"] == 1
    assert details["lead"] <= -300  # from Blue's view: Red, the side ahead, gave it away
    assert details["own"] == {"drawn_by": -600, "other": 600}
    assert ahead(record, 300) == (True, True)
    assert ahead(record, 100_000) == (False, False)


def test_the_judge_scores_a_forced_draw_zero() -> None:
    # Job 67 of the 10v6 run: Red ahead in material, its den under the blue elephant's
    # perpetual threat; Blue, behind, to move draws by force. The judge scores the draw 0 for
    # either side (it gave Blue +294 while the side behind's contempt was left on).
    assert judge(Board("4c2/3l3/2L2P1/6R/7/7/7/2W2e1/C3D2 b 10 70"), 20_000) == 0


def test_a_forced_repetition_is_not_counted() -> None:
    record = {"repetition": {"drawn_by": 0, "lead": 0, "own": {"drawn_by": -50, "other": -50}}}
    assert ahead(record, 300) == (False, False)
    assert ahead({"ending": "den_entered"}, 300) == (False, False)


def _game(job: int, a_red: bool, winner: int | None, lead: int | None = None) -> dict:
    game = {"job": job, "a_red": a_red, "winner": winner, "moves": ["a3a4"] * 9,
            "ending": "den_entered" if winner is not None else "repetition"}  # fmt: skip
    if lead is not None:
        game["repetition"] = {"drawn_by": 0, "lead": lead, "own": {"drawn_by": 0, "other": 0}}
    return game


def test_the_report_counts_a_score_and_the_draws_given_away() -> None:
    games = [_game(0, True, 0), _game(1, False, 0), _game(2, True, None, 450),
             _game(3, False, None, -20)]  # fmt: skip
    lines = report(games, 300)
    assert lines[0].startswith("4 games: A +1 =2 -1, score 50.0%")
    assert "repetition draws: 2; a side ahead by >= 300 cp: 1 by the judge, 0 by" in lines[2]
    assert len(lines) == 4 and lines[3].startswith("  [J-] job 2:")


def test_a_run_goes_on_only_with_its_own_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text(json.dumps({"args": {"games": 2}}) + "\n" + json.dumps(_game(0, True, 0)))
    assert main(["--out", str(out), "--report"]) == 0
    assert "1 games: A +1 =0 -0" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="written with other arguments"):
        main(["--out", str(out), "--games", "2"])


def test_rejudge_judges_the_stored_draws_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    red = _scripted(["a1b1", "b1a1"] * 2, 600)
    blue = _scripted(["g9g8", "g8g9"] * 2, -600)
    record = play(Board(RED_AHEAD), red, blue, Limit(nodes=1000), 300, 20_000)
    record["repetition"]["lead"] = 0  # as a judge that saw nothing would have stored it
    out = tmp_path / "games.jsonl"
    header = {"args": {"rules": "wango", "judge_nodes": 20_000}}
    out.write_text(json.dumps(header) + "\n" + json.dumps({"job": 0, "a_red": True, **record}))
    assert main(["--out", str(out), "--report"]) == 0
    assert "0 by the judge" in capsys.readouterr().out
    assert main(["--out", str(out), "--rejudge"]) == 0
    assert "1 by the judge" in capsys.readouterr().out
    assert json.loads(out.read_text().splitlines()[1])["repetition"]["lead"] == 0  # kept


def test_a_side_with_its_own_movetime_searches_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time odds: ``movetime=`` among a side's keys replaces the match's limit for that side
    (and is not passed on as an engine setting)."""
    import repetition_draws

    asked: list[tuple[str, Limit]] = []

    def in_process(spec: str, rules: str) -> tuple:
        def move(board: Board, limit: Limit) -> tuple[Move, int]:
            asked.append((spec, limit))
            return next(iter(board.legal_moves)), 0

        return move, lambda: None, lambda: None

    monkeypatch.setattr(repetition_draws, "_in_process", in_process)
    timed, _, _ = repetition_draws.make_side("level=10,movetime=0.3,contempt=0", "wango")
    plain, _, _ = repetition_draws.make_side("level=9", "wango")
    timed(Board(), Limit(nodes=20_000))
    plain(Board(), Limit(nodes=20_000))
    assert asked == [("level=10,contempt=0", Limit(time=0.3)), ("level=9", Limit(nodes=20_000))]
