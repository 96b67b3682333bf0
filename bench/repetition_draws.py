"""Repetition draws given away: self-play at a fixed budget, counting the repetition draws in
which a side stood ahead by at least ``--threshold`` centipawns (issue 31).

    nice -n 5 .venv/bin/python bench/repetition_draws.py --a level=10 --b level=8 \
        --games 400 --nodes 20000 --out /tmp/rep.jsonl
    PYTHONPATH=/tmp/old/src .venv/bin/python bench/repetition_draws.py ... --out /tmp/old.jsonl
    .venv/bin/python bench/repetition_draws.py --a level=10 --b src=/tmp/old/src,Level=10 \
        --games 200 --nodes 20000 --out /tmp/new-vs-old.jsonl

A side is what ``bench/selfplay.py`` takes (``level``, ``params``, ``seed`` or a key of
``Searcher.tuning``, in this process, from the source tree on ``PYTHONPATH``), or, with
``src=PATH`` among its keys, a ``doushouqi engine`` process run from that ``src`` folder
(the rest of its keys are protocol options, e.g. ``Level=10``): an old copy of the engine
(``git archive``) can play the new one at equal nodes. Either kind takes ``movetime=SECONDS``
for its own time a move (time odds: ``--a level=10,movetime=0.1 --b src=…,movetime=0.3``).
Each opening is played twice, colours swapped; games longer than ``--max-plies`` are drawn
(the ply cap).

**What counts.** A game drawn by repetition (the third occurrence under ``threefold_draw``)
is judged afterwards: a fresh engine of this process (level 10, ``--judge-nodes``, contempt 0
and no growth, so a draw scores 0) searches the drawn position *without* the game's history.
A side that could keep its lead away from the repetition scores it (``lead``, from the side
ahead's view); a repetition the side behind could force, the judge finds too and scores about
0. A draw counts when ``|lead| >= --threshold``. The searches' own scores in the game are kept
beside it (``own``: each side's score at its last move before the draw, from its view) and
counted the same way, as a second opinion.

**Output.** ``--out`` gets one JSON line per game (its job number, the sides, the result, how
it ended, the moves and every move's score); run again with the same ``--out`` and arguments
to go on where it stopped (the first line holds the arguments; other arguments are refused).
Prints A's results with the Elo difference, how the games ended, and the repetition draws
with a side ahead, with the list. ``--report`` prints that for ``--out`` as it stands;
``--rejudge`` judges its repetition draws again first, with this tree's judge (the stored
leads stay as they are).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.analysis import Limit, Score
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.engine import SimpleEngine
from doushouqi.jungle.engine.match import MatchScore, elo_estimate
from selfplay import limit_arguments, limit_of, make_engine, openings, take_key

#: Centipawns standing for a den win (a Score with ``mate``), above any evaluation.
DEN_CP = 100_000

#: One engine as the game loop sees it: the move and its score (side to move's view, cp).
Mover = Callable[[Board, Limit], tuple[Move, int | None]]


def centipawns(score: Score | None) -> int | None:
    """A search score as centipawns, a den win or loss as +/- :data:`DEN_CP` less the moves."""
    if score is None:
        return None
    return score.score(mate_score=DEN_CP)


def _in_process(spec: str, rules: str) -> tuple[Mover, Callable[[], None], Callable[[], None]]:
    engine, level = make_engine(spec, rules)

    def move(board: Board, limit: Limit) -> tuple[Move, int | None]:
        result = engine.search(board, limit, level=level)
        assert result.move is not None
        return result.move, centipawns(result.info.get("score"))

    return move, engine.new_game, lambda: None


def _process(spec: str) -> tuple[Mover, Callable[[], None], Callable[[], None]]:
    options = dict(item.split("=", 1) for item in spec.split(",") if item.strip())
    env = dict(os.environ)
    env["PYTHONPATH"] = options.pop("src")
    options.setdefault("Hash", "16")  # as selfplay.make_engine's engines
    engine = SimpleEngine.popen([sys.executable, "-m", "doushouqi", "engine"], env=env,
                                timeout=120.0)  # fmt: skip
    engine.configure(options)

    def move(board: Board, limit: Limit) -> tuple[Move, int | None]:
        result = engine.play(board, limit)
        assert result.move is not None
        return result.move, centipawns(result.info.get("score"))

    return move, engine.new_game, engine.quit


def make_side(spec: str, rules: str) -> tuple[Mover, Callable[[], None], Callable[[], None]]:
    """A side's move function, its new-game call and its shutdown, from its description
    (``movetime=SECONDS`` among its keys: that side's time a move, whatever the match's limit
    — time odds)."""
    spec, own_time = take_key(spec, "movetime")
    move, new_game, quit_ = _process(spec) if "src=" in spec else _in_process(spec, rules)
    if own_time is None:
        return move, new_game, quit_
    limit = Limit(time=float(own_time))
    return (lambda board, _: move(board, limit)), new_game, quit_


def judge(board: Board, nodes: int) -> int | None:
    """The drawn position's score from the view of the side to move, searched without the
    game's history by a fresh engine that scores every draw 0."""
    engine = Searcher(board.rules, hash_mb=16)
    for knob in ("contempt", "contempt_gain", "contempt_behind_gain", "twofold_lead"):
        engine.tuning[knob] = 0  # a draw is 0 to either side, only threefold draws (no history)
    result = engine.search(board.copy(stack=False), Limit(nodes=nodes))
    return centipawns(result.info.get("score"))


def rejudge(record: dict, settings: dict) -> int | None:
    """A stored repetition draw judged again: the drawing side's lead (see :func:`play`)."""
    board = Board(record["start"], rules=settings["rules"])
    for move in record["moves"]:
        board.push(Move.from_uci(move))
    judged = judge(board, settings["judge_nodes"])
    return None if judged is None else -judged


def play(board: Board, red: tuple[Mover, Callable[[], None], Callable[[], None]],
         blue: tuple[Mover, Callable[[], None], Callable[[], None]], limit: Limit,
         max_plies: int, judge_nodes: int) -> dict:  # fmt: skip
    """One game from ``board``: its record (see the module's docstring)."""
    board = board.copy()
    start_ply = board.ply()
    for _, new_game, _ in (red, blue):
        new_game()
    scores: list[int | None] = []
    record: dict = {"start": board.fen()}
    while True:
        outcome = board.outcome()
        if outcome is not None:
            record["winner"] = outcome.winner
            record["ending"] = outcome.termination.value
            break
        if board.ply() >= max_plies:
            record["winner"] = None
            record["ending"] = "ply cap"
            break
        mover = red[0] if board.turn == 0 else blue[0]
        move, score = mover(board, limit)
        board.push(move)
        scores.append(score)
    record["moves"] = [m.uci() for m in board.move_stack[start_ply:]]
    record["scores"] = scores
    if record["ending"] == "repetition":
        drawn_by = 1 - board.turn  # the side whose move made the third occurrence
        judged = judge(board, judge_nodes)
        # The judge speaks for the side to move (the other side): the drawing side's view.
        lead = None if judged is None else -judged
        own = {  # each side's own score at its last move before the draw, from its view
            "drawn_by": scores[-3] if len(scores) >= 3 else None,
            "other": scores[-2] if len(scores) >= 2 else None,
        }
        record["repetition"] = {"drawn_by": drawn_by, "lead": lead, "own": own}
    return record


def ahead(record: dict, threshold: int) -> tuple[bool, bool]:
    """Whether a repetition draw had a side ahead by ``threshold``: by the judge, by the
    games' own searches."""
    details = record.get("repetition")
    if details is None:
        return False, False
    lead = details["lead"]
    own = [s for s in details["own"].values() if s is not None]
    return (
        lead is not None and abs(lead) >= threshold,
        any(s >= threshold for s in own),
    )


def _read(path: Path) -> tuple[dict | None, list[dict]]:
    if not path.exists():
        return None, []
    header = None
    games = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        data = json.loads(line)
        if "args" in data:
            header = data["args"]
        else:
            games.append(data)
    return header, games


def _count(item: tuple[str, int]) -> int:
    return -item[1]


def report(games: list[dict], threshold: int) -> list[str]:
    """The summary lines of the games played so far."""
    score = MatchScore()
    endings: dict[str, int] = {}
    for game in games:
        winner = game["winner"]
        a_red = game["a_red"]
        score.add(0.5 if winner is None else 1.0 if (winner == 0) == a_red else 0.0)
        endings[game["ending"]] = endings.get(game["ending"], 0) + 1
    repetitions = [g for g in games if g.get("repetition")]
    judged = [g for g in repetitions if ahead(g, threshold)[0]]
    own = [g for g in repetitions if ahead(g, threshold)[1]]
    difference, margin = elo_estimate(score.wins, score.draws, score.losses)
    lines = [
        f"{len(games)} games: A +{score.wins} ={score.draws} -{score.losses}, "
        f"score {100 * score.score:.1f}%, Elo {difference:+.0f} ± {margin:.0f}",
        "endings: " + ", ".join(f"{k} {n}" for k, n in sorted(endings.items(), key=_count)),
        f"repetition draws: {len(repetitions)}; a side ahead by >= {threshold} cp: "
        f"{len(judged)} by the judge, {len(own)} by the games' own scores",
    ]
    for game in sorted(repetitions, key=lambda g: g["job"]):
        details = game["repetition"]
        by_judge, by_own = ahead(game, threshold)
        flags = ("J" if by_judge else "-") + ("O" if by_own else "-")
        if flags == "--":
            continue
        drawer = "A" if (details["drawn_by"] == 0) == game["a_red"] else "B"
        lines.append(
            f"  [{flags}] job {game['job']}: {len(game['moves'])} plies, drawn by {drawer} "
            f"({'red' if details['drawn_by'] == 0 else 'blue'}), judge {details['lead']:+} "
            f"for it, own scores {details['own']['drawn_by']} / {details['own']['other']}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--a", default="level=10", help="side A, e.g. level=10,contempt=0")
    parser.add_argument("--b", default="level=8", help="side B")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, resumable")
    parser.add_argument("--threshold", type=int, default=300, help="centipawns ahead (300)")
    parser.add_argument("--judge-nodes", type=int, default=200_000, help="the judge's budget")
    parser.add_argument("--report", action="store_true", help="only print --out's summary")
    parser.add_argument(
        "--rejudge", action="store_true", help="judge --out's repetition draws again, print"
    )
    limit_arguments(parser)
    parser.set_defaults(nodes=20_000)
    args = parser.parse_args(argv)
    limit = limit_of(args)
    settings = {k: v for k, v in vars(args).items() if k not in ("out", "report", "concurrency")}
    header, done = _read(args.out)
    if args.report or args.rejudge:
        if args.rejudge:  # this judge (and --judge-nodes) in place of the stored leads
            for game in done:
                if game.get("repetition"):
                    game["repetition"]["lead"] = rejudge(game, header or settings)
        print("\n".join(report(done, args.threshold)))
        return 0
    if header is not None and header != json.loads(json.dumps(settings, default=str)):
        raise SystemExit(f"{args.out} was written with other arguments: {header}")
    if header is None:
        with args.out.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"args": settings}, default=str) + "\n")
    starts = openings((args.games + 1) // 2, args.opening_plies, args.rules, args.seed)
    jobs = [(board, a_red) for board in starts for a_red in (True, False)][: args.games]
    finished = {game["job"] for game in done}
    todo = [(job, *jobs[job]) for job in range(len(jobs)) if job not in finished]
    print(f"{len(todo)} of {len(jobs)} games to play, go {limit}, rules {args.rules}", flush=True)
    lock = threading.Lock()
    started = time.perf_counter()

    def worker(worker_jobs: list[tuple[int, Board, bool]]) -> None:
        side_a, side_b = make_side(args.a, args.rules), make_side(args.b, args.rules)
        try:
            for job, board, a_red in worker_jobs:
                red, blue = (side_a, side_b) if a_red else (side_b, side_a)
                game = play(board, red, blue, limit, args.max_plies, args.judge_nodes)
                record = {"job": job, "a_red": a_red, **game}
                with lock:
                    done.append(record)
                    with args.out.open("a", encoding="utf-8") as out:
                        out.write(json.dumps(record) + "\n")
                    print(f"job {job}: {record['ending']}, {len(record['moves'])} plies "
                          f"({len(done)}/{len(jobs)}, {time.perf_counter() - started:.0f} s)",
                          flush=True)  # fmt: skip
        finally:
            side_a[2]()
            side_b[2]()

    threads = [
        threading.Thread(target=worker, args=(todo[i :: args.concurrency],))
        for i in range(max(1, args.concurrency))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print("\n".join(report(done, args.threshold)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
