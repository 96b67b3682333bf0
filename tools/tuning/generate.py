"""Self-play games written as labelled quiet positions, the training data of ``texel.py``.

Each game starts with a few random plies (their number drawn too), then the engine plays both
sides at a fixed node count (or depth) and level; the level's evaluation noise varies the games
further. The engine plays with the hand-set weights (the tuner's starting point, so that the
data do not depend on an earlier tuning) unless ``--params`` names a weight file.

Every position before an engine move is kept if it is *quiet*: the game is not over and the
engine's quiescence search (captures, den entries and den threats, with a full window) returns
exactly the static evaluation — nothing the side to move can take or threaten changes the
value, so the evaluation alone should predict the outcome. A position repeated within a
game is kept once. Each kept position is labelled with the game's final result from Red's
view: 1, 0.5 (a draw, or the ``--max-plies`` limit), 0.

Output: one position a line, ``FEN<TAB>result<TAB>game``, after ``#`` header lines that name
the settings; gzip-compressed when the path ends in ``.gz``. With ``--scores`` a fourth column
holds the engine's own search score of the position (the search that chose the move played
from it: centipawns from the side to move's view, a found den win or loss as
±:data:`DEN_CP`), the label of the learned evaluation (tools/nnue/). Game ``g`` depends only on
``--seed`` and ``g``, and games are written in order, so the file is the same whatever the
number of workers.

Run from the repository root (the machine is shared: ``nice``, at most 2 workers)::

    nice .venv/bin/python tools/tuning/generate.py --games 3000 --workers 2 \\
        --output tools/tuning/data/positions.txt.gz
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import numpy as np

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.core import Position
from doushouqi.jungle.ai.eval_params import hand_set_params, load_params
from doushouqi.jungle.ai.evaluate import evaluate
from doushouqi.jungle.ai.quiescence import INFINITE, qsearch
from doushouqi.jungle.ai.search_driver import DEFAULT_TUNING
from doushouqi.jungle.ai.tbprobe import empty_tables
from doushouqi.jungle.ai.work import C_ABORT, C_NODES, C_QCHECKS, new_work
from doushouqi.jungle.analysis import Limit, Score
from doushouqi.jungle.board import Board

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUTPUT = ROOT / "tools" / "tuning" / "data" / "positions.txt.gz"
#: A search score that found a den win (loss) is written as this many centipawns (minus).
DEN_CP = 3000


def new_quiet_work() -> np.ndarray:
    """Scratch memory for :func:`is_quiet` (quiescence tries den threats as the search does)."""
    work = new_work()
    work[C_QCHECKS] = DEFAULT_TUNING["quiescence_threats"]
    return work


def is_quiet(position: Position, params: np.ndarray, work: np.ndarray) -> bool:
    """Whether quiescence search from ``position`` returns its static evaluation unchanged.

    ``work`` (from :func:`new_quiet_work`) may be reused for positions evaluated with the same
    ``params`` (it caches evaluations by hash).
    """
    if position.is_game_over_on_board() or position.is_draw_by_rule():
        return False
    state, history, rules = position.state, position.history, position.compiled_rules
    work[C_ABORT] = 0
    work[C_NODES] = 0
    stand = int(evaluate(state, rules, params))
    # Without the endgame tables: the static evaluation is what is being tuned.
    no_tables = empty_tables()
    score = qsearch(state, history, rules, work, params, *no_tables, -INFINITE, INFINITE, 0, 0)
    return int(score) == stand


def _opening(rng: random.Random, rules: str, low: int, high: int) -> Board:
    """The start position plus ``low..high`` random plies (the game not over)."""
    while True:
        board = Board(rules=rules)
        for _ in range(rng.randint(low, high)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            return board


@dataclasses.dataclass(frozen=True)
class GameSettings:
    """How the games are played (every game also depends on its number)."""

    rules: str = "wango"
    seed: int = 1
    nodes: int | None = 5000
    depth: int | None = None
    level: int = 8
    min_random: int = 2
    max_random: int = 8
    max_plies: int = 300
    #: Weight file both sides play with (and judge quietness with); None: the hand-set weights,
    #: the tuner's starting point.
    params: str | None = None
    #: Write each position's search score as a fourth column.
    scores: bool = False
    #: The share of the engine's moves replaced by a random legal move (after its search, so
    #: the position keeps its score): positions off the engine's own path, which a learned
    #: evaluation meets in the search. 0 draws nothing: the games are those before it.
    random_rate: float = 0.0
    #: The static evaluation both sides search with (``Searcher.evaluation``): ``classic`` (the
    #: weights above) or ``nnue`` (the network of ``network_file`` added to them), whose
    #: search scores are the labels of a network's next generation. Quietness is judged with
    #: the weights alone.
    evaluation: str = "classic"
    #: The network's weight file for ``nnue`` (empty: the shipped one): the labels of a data
    #: set are those of the network that played it, which a later one replaces in the tree.
    network_file: str = ""


def score_cp(score: Score) -> int:
    """A search score as centipawns from the side to move's view (a den win: :data:`DEN_CP`)."""
    if score.cp is not None:
        return max(-DEN_CP, min(DEN_CP, score.cp))
    return DEN_CP if (score.moves or 0) > 0 else -DEN_CP


def play_game(settings: GameSettings, game: int) -> tuple[int, float, list[tuple[str, int]]]:
    """Play game number ``game``; returns (game, Red's result, its quiet positions: FEN and
    the search score of the move played from it)."""
    rng = random.Random(f"texel:{settings.seed}:{game}")
    board = _opening(rng, settings.rules, settings.min_random, settings.max_random)
    params = hand_set_params() if settings.params is None else load_params(settings.params)
    engine = Searcher(settings.rules, hash_mb=4, params=params, seed=rng.getrandbits(62))
    engine.network_file = settings.network_file
    engine.evaluation = settings.evaluation
    limit = Limit(nodes=settings.nodes, depth=settings.depth)
    work = new_quiet_work()
    fens: list[tuple[str, int]] = []
    seen: set[int] = set()
    red_score = 0.5
    while board.ply() < settings.max_plies:
        outcome = board.outcome()
        if outcome is not None:
            red_score = 0.5 if outcome.winner is None else 1.0 - outcome.winner
            break
        key = board.zobrist_hash()
        keep = key not in seen and is_quiet(Position.from_board(board), params, work)
        played = engine.search(board, limit, level=settings.level)
        if keep:
            seen.add(key)
            fens.append((board.fen(), score_cp(played.info.get("score", Score(cp=0)))))
        assert played.move is not None
        move = played.move
        if settings.random_rate > 0 and rng.random() < settings.random_rate:
            move = rng.choice(list(board.legal_moves))
        board.push(move)
    return game, red_score, fens


def _play(job: tuple[GameSettings, int]) -> tuple[int, float, list[tuple[str, int]]]:
    return play_game(*job)


def format_result(score: float) -> str:
    return {1.0: "1", 0.5: "0.5", 0.0: "0"}[score]


def open_text(path: Path, mode: str) -> TextIO:
    """A text file, gzip-compressed when its name ends in ``.gz``."""
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def run(
    output: Path,
    settings: GameSettings,
    games: int,
    *,
    workers: int = 1,
    progress: bool = False,
    first: int = 0,
) -> dict[str, int]:
    """Play ``games`` games (numbers ``first`` on) and write their quiet positions to
    ``output``; returns counts."""
    jobs = [(settings, game) for game in range(first, first + games)]
    counts = {"games": 0, "positions": 0, "red": 0, "draws": 0, "blue": 0}
    started = time.perf_counter()
    output.parent.mkdir(parents=True, exist_ok=True)

    def results() -> Iterator[tuple[int, float, list[tuple[str, int]]]]:
        if workers <= 1:
            yield from map(_play, jobs)
            return
        # spawn: no numba or engine state is inherited; each worker loads the cached code.
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            yield from pool.imap(_play, jobs, chunksize=4)

    with open_text(output, "w") as out:
        score_column = "<TAB>score (side to move, cp)" if settings.scores else ""
        out.write(
            "# doushouqi self-play positions: FEN<TAB>result (Red: 1, 0.5, 0)<TAB>game"
            f"{score_column}\n"
        )
        fields = dataclasses.asdict(settings)
        header = " ".join(f"{key}={value}" for key, value in fields.items())
        out.write(f"# {header} games={games}\n")
        for game, red_score, fens in results():
            counts["games"] += 1
            counts["positions"] += len(fens)
            counts[{1.0: "red", 0.5: "draws", 0.0: "blue"}[red_score]] += 1
            label = format_result(red_score)
            for fen, score in fens:
                extra = f"\t{score}" if settings.scores else ""
                out.write(f"{fen}\t{label}\t{game}{extra}\n")
            if progress and (counts["games"] % 100 == 0 or counts["games"] == games):
                elapsed = time.perf_counter() - started
                print(f"{counts['games']}/{games} games, {counts['positions']} positions, "
                      f"{elapsed:.0f} s", file=sys.stderr, flush=True)  # fmt: skip
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=5000, help="nodes a move (0: no cap)")
    parser.add_argument("--depth", type=int, default=None, help="depth a move")
    parser.add_argument("--level", type=int, default=8, help="engine level (noise varies play)")
    parser.add_argument("--rules", default="wango")
    parser.add_argument("--min-random", type=int, default=2, help="fewest random first plies")
    parser.add_argument("--max-random", type=int, default=8, help="most random first plies")
    parser.add_argument("--max-plies", type=int, default=300, help="longer games are drawn")
    parser.add_argument("--params", help="weight file to play with (default: the hand-set weights)")
    parser.add_argument("--workers", type=int, default=1, help="processes (at most 2 here)")
    parser.add_argument("--scores", action="store_true", help="add each position's search score")
    parser.add_argument("--random-rate", type=float, default=0.0, help="random moves' share")
    args = parser.parse_args(argv)
    if not args.nodes and not args.depth:
        parser.error("give --nodes or --depth")
    started = time.perf_counter()
    settings = GameSettings(
        rules=args.rules,
        seed=args.seed,
        nodes=args.nodes or None,
        depth=args.depth,
        level=args.level,
        min_random=args.min_random,
        max_random=args.max_random,
        max_plies=args.max_plies,
        params=args.params,
        scores=args.scores,
        random_rate=args.random_rate,
    )
    counts = run(args.output, settings, args.games, workers=args.workers, progress=True)
    print(
        f"{counts['games']} games (Red +{counts['red']} ={counts['draws']} -{counts['blue']}), "
        f"{counts['positions']} positions -> {args.output}, "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
