"""Build the endgame suite: positions with 5–6 animals from engine self-play under wango
rules, each classified by a longer search (won, lost, drawn or unclear for the side to move).
It is what ``bench/tablebase_match.py`` plays from: the engine with tables against itself
without them.

    .venv/bin/python tools/conversion/build_endgames.py --target 220 --seed 1

The games are those of the conversion suite's builder (``build_suite.py``, whose code this
reuses: ``play_game``, the confirming search, the resumable pool) with other settings: wango
rules only, at most 400 plies, and an engine move that brings back a position of the game
replaced by an inaccuracy (a 2nd–6th MultiPV line) that does not, since under wango the third
repetition ends the game. ``--nodes`` (6000) a move, 15% inaccuracies while more than 6
animals are left, as for the conversion suite.

Such games seldom reach 5–6 animals with play left: the side ahead enters the den first
(in the games measured, a position of 5–9 animals nearly always had a den win found by the
game's search; docs/engine-research.md gives the yields). So the positions
are mostly *thinned*: a position of the game with 7–12 animals (no den found by the game's
search) with animals taken off at random until 5 or 6 are left, at least 2 a side, the rest
where they stood (``source=thinned-N``, N the animals before); a 5–6-animal game position is
kept as it is (``source=game``). At most ``--per-game`` positions a game, 8 plies apart.

Each is searched for ``--confirm`` seconds; a den win or loss within 5 own moves in the last
two finished depths is a tactic and is left out. The last two depths give the class, for the
side to move:

* ``won`` / ``lost``: both ≥ +``--decided`` cp (or both a den win) / both ≤ −``--decided``
  (or both a den loss);
* ``drawn``: both within ±``--drawn`` cp;
* ``unclear``: anything else.

No class takes more than ``--max-share`` of the target, and no position comes twice, mirror
images included (left-right, and the half turn with the colours swapped). Lines of the output
(``tests/jungle/ai/data/endgames.epd``)::

    FEN;rules=wango;class=won;score=+912;depths=9,10;animals=6;source=thinned-11;game=17;ply=84

Resumable like the conversion builder: the games played are listed in ``OUTPUT.progress``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from load_tool import load_tool

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUTPUT = ROOT / "tests" / "jungle" / "ai" / "data" / "endgames.epd"
CLASSES = ("won", "lost", "drawn", "unclear")
#: A den win (or loss) in this many own moves or fewer is a tactic: such positions are left out.
SHORT_DEN = 5


builder = load_tool("conversion", "build_suite")


def canonical_key(fen: str) -> str:
    """The placement and side to move of the least of the position's four images (itself,
    left-right, the half turn with colours swapped, both): mirror images share a key."""
    from doushouqi.jungle.board import Board

    board = Board(fen)
    turned = board.half_turn()
    images = (board, board.flip_horizontal(), turned, turned.flip_horizontal())
    return min(builder.board_key(image.fen()) for image in images)


def classify(scores: list[object], decided: int, drawn: int) -> str:
    """``won``, ``lost``, ``drawn`` or ``unclear`` from the last two depths' scores (for the
    side to move)."""

    def sign(score: object) -> int:
        den, cp = score.moves, score.cp  # type: ignore[attr-defined]
        if den is not None:
            return 1 if den > 0 else -1
        return 1 if cp >= decided else -1 if cp <= -decided else 0

    signs = {sign(score) for score in scores}
    if signs == {1}:
        return "won"
    if signs == {-1}:
        return "lost"
    if all(score.moves is None and abs(score.cp) <= drawn for score in scores):  # type: ignore[attr-defined]
        return "drawn"
    return "unclear"


def thinned(fen: str, rng: random.Random) -> str | None:
    """The position with animals taken off at random until 5 or 6 are left, at least 2 a
    side, the rest where they stood; None when that cannot be done or leaves a finished game,
    a position the rules do not allow, or no legal move."""
    from doushouqi.jungle.board import Board

    board = Board(fen)
    sides: list[list[int]] = [[], []]
    for square, code in enumerate(board.piece_codes()):
        if code:
            sides[0 if code <= 8 else 1].append(square)
    total = rng.choice((5, 6))
    splits = [
        (n, total - n)
        for n in range(2, total - 1)
        if n <= len(sides[0]) and total - n <= len(sides[1])
    ]
    if not splits:
        return None
    for side, count in zip((0, 1), rng.choice(splits), strict=True):
        for square in rng.sample(sides[side], len(sides[side]) - count):
            board.set_piece_at(square, None)
    if not board.is_valid() or board.outcome() is not None or not list(board.legal_moves):
        return None
    return builder.fresh_fen(board.fen())  # type: ignore[no-any-return]


def job(args: tuple[int, int, int, int, float, int, int]) -> tuple[int, list[dict]]:
    """Game ``game``'s positions, each with its class (run in a worker)."""
    game, seed, nodes, per_game, seconds, decided, drawn = args
    kept = []
    candidates = builder.play_game(
        game,
        seed,
        nodes,
        None,
        rules="wango",
        min_animals=5,
        max_animals=12,
        keep=per_game,
        spacing=8,
        max_plies=400,
        vary=True,
    )
    for candidate in candidates:
        entry = {k: v for k, v in candidate.items() if k != "cp"}
        if candidate["animals"] > 6:
            fen = thinned(candidate["fen"], random.Random(f"{seed}/{game}/{candidate['ply']}"))
            if fen is None:
                continue
            entry.update(fen=fen, animals=sum(1 for c in fen.split()[0] if c.isalpha()))
            entry["source"] = f"thinned-{candidate['animals']}"
        else:
            entry["source"] = "game"
        found = builder.last_scores(entry["fen"], entry["rules"], seconds)
        if found is None:
            continue
        depths, scores = found
        if any(score.moves is not None and abs(score.moves) <= SHORT_DEN for score in scores):
            continue  # a den within reach: a tactic, not an endgame
        entry["class"] = classify(scores, decided, drawn)
        entry["score"] = builder.score_text(scores[-1])
        entry["depths"] = f"{depths[0]},{depths[1]}"
        kept.append(entry)
    return game, kept


def format_line(entry: dict) -> str:
    return (
        f"{entry['fen']};rules={entry['rules']};class={entry['class']};score={entry['score']};"
        f"depths={entry['depths']};animals={entry['animals']};source={entry['source']};"
        f"game={entry['game']};ply={entry['ply']}"
    )


def read_suite(path: str | Path = DEFAULT_OUTPUT) -> list[dict]:
    """The suite's entries (dicts: fen, rules, class, score, depths, animals, game, ply)."""
    return builder.read_suite(path)  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--target", type=int, default=220, help="positions to keep")
    parser.add_argument("--games", type=int, default=3000, help="most games to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=6000, help="self-play nodes a move")
    parser.add_argument("--per-game", type=int, default=6, help="most positions from one game")
    parser.add_argument("--confirm", type=float, default=0.5, help="classifying search, seconds")
    parser.add_argument("--decided", type=int, default=600, help="cp for won / lost")
    parser.add_argument("--drawn", type=int, default=60, help="cp either side of 0 for drawn")
    parser.add_argument(
        "--max-share", type=float, default=0.5, help="most of the target one class may take"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    cap = max(1, int(args.target * args.max_share))
    keys: set[str] = set()

    def accept(entry: dict, entries: list[dict]) -> bool:
        if not keys:
            keys.update(canonical_key(e["fen"]) for e in entries)
        key = canonical_key(entry["fen"])
        same_class = sum(1 for e in entries if e["class"] == entry["class"])
        if key in keys or same_class >= cap:
            return False
        keys.add(key)
        return True

    entries = builder.collect(
        args.output,
        args.games,
        job,
        lambda g: (g, args.seed, args.nodes, args.per_game, args.confirm, args.decided, args.drawn),
        accept,
        args.target,
        args.workers,
        format_line,
    )
    reds = sum(1 for e in entries if e["fen"].split()[1] == "w")
    blues = len(entries) - reds
    print(f"{len(entries)} positions in {args.output} ({reds} Red to move, {blues} Blue)")
    for field in ("class", "animals"):
        counts: dict[object, int] = {}
        for e in entries:
            counts[e[field]] = counts.get(e[field], 0) + 1
        print(f"by {field}: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
