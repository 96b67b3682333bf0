"""Generate the shipped puzzles
``src/doushouqi/server/puzzles/data/puzzles.jsonl``, each one proved.

One command, from the repository root::

    .venv/bin/python tools/puzzles/generate.py --count 1000 --jobs 2

Candidate positions come from self-play games (deterministic for a ``--seed``: game ``g`` of
the run always plays the same moves) and, with ``--games-db URL``, from the finished games
stored by a game server. In self-play each move is, by the game's seeded random choice, the
engine's move at a fixed search depth (``--policy engine``: the numba engine at level 10,
deterministic at a fixed depth), a greedy move (den steps, captures) or a random legal move,
so that den fights arise. Every position from ply 12 on that is worth asking (a piece near a
den, a capture on the board, or few animals: :func:`worth_asking`) is asked, and every 8th
one also with most animals taken off (:func:`reduced`: where endgames and rat/elephant fights
live; its ``source`` says "reduced"). The questions (tools/puzzles/prove.py):

* does the side to move force a win within 3 own moves with exactly ONE first move, and is
  the player's move unique at every later step against the best defence? (a "win" puzzle)
* else: does exactly one move avoid a forced loss within 1 or 2 opponent moves? ("defence")

Kept puzzles are themed from their line (den attack, capture, traps, rat vs elephant, jump
blocking, defence, endgame), deduplicated up to mirror image and colour swap, given an initial
rating from their length, and written one JSON object per line with the stored proof that
``tests/server/puzzles/test_shipped_puzzles.py`` re-checks. The run is resumable: a second run with
the same output and seed appends, starting from the first game the earlier run did not
finish (``<out>.progress`` records it); ``--fresh`` starts over. ``--motifs`` (run after
the main run, resuming it) asks only positions cut down to a rat against an enemy lion, tiger
or elephant and keeps only rat-vs-elephant and jump-blocking puzzles. ``--motifs jump`` asks
only skeletons where a lion or tiger can jump to 3 steps from the enemy den and an enemy rat
is a step from the jump's water (:func:`jump_position`): the side to move has the rat (a
defence to find, against threats of up to 4 moves: ``prove.JUMP_DEFENCE_THREATS``, a den
threat through a jump being 4 moves) or the jumper (a win within
``prove.JUMP_WIN_HORIZON`` = 4 to find); it keeps only jump-blocking puzzles. The shipped set
is ``--count 1000``, then ``--count 1040 --motifs``, then ``--count 1140 --motifs jump``, each
resuming the one before (docs/server.md, "Puzzles").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from load_tool import load_tool

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.fen import placement_fen
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.jungle.squares import (
    CAT,
    DENS,
    DOG,
    ELEPHANT,
    JUMPS,
    LEOPARD,
    LION,
    RAT,
    STEPS,
    TIGER,
    WATER,
    WOLF,
    code_animal,
    code_color,
    iter_squares,
    may_stand,
    piece_code,
)

prove = load_tool("puzzles", "prove")

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "src" / "doushouqi" / "server" / "puzzles" / "data" / "puzzles.jsonl"
SEED = 20_261_202
RULES = ("wango", "classic", "international", "classic-dog")
FIRST_PLY = 12
MAX_PLIES = 240
#: At most this many puzzles from one game, at least MIN_GAP plies apart.
PER_GAME = 3
MIN_GAP = 4
#: At most this share of the puzzles may be one-move den entries (the easiest kind).
MAX_DEN1_SHARE = 0.2
#: Positions asked: a piece this close to the enemy den, a capture, or this few animals.
NEAR_DEN = 4
ENDGAME_ASK = 8
#: Every REDUCE_EVERY plies a game's position is also asked with most animals taken off
#: (see :func:`reduced`), at most PER_GAME_REDUCED puzzles per game from those.
REDUCE_EVERY = 8
PER_GAME_REDUCED = 2
#: What ``--motifs`` keeps.
MOTIF_THEMES = {"rat_elephant", "jump_blocking"}
#: ``--motifs jump``: skeleton positions tried per game index, at most PER_GAME kept.
JUMP_TRIES = 40

_engine: Any = None


def initial_rating(kind: str, depth: int, line: list[str], legal: int) -> int:
    """A first guess, before solvers rate it: longer lines and more choices are harder."""
    rating = 1000 + 150 * len(line) + 4 * min(legal, 40)
    if kind == "defence":
        rating += 150 * depth
    return rating


def puzzle_id(fen: str, rules: str) -> str:
    return hashlib.sha1(f"{rules} {fen}".encode()).hexdigest()[:8]


# --------------------------------------------------------------------------------- games


def _engine_move(board: Board, depth: int) -> Move | None:
    global _engine
    from doushouqi.jungle.ai import Searcher
    from doushouqi.jungle.analysis import Limit

    if _engine is None or _engine.rules.name != board.rules.name:
        _engine = Searcher(board.rules, hash_mb=8, seed=0)
    result = _engine.search(board, Limit(depth=depth), level=10)
    return result.move


def self_play(seed: int, game: int, policy: str) -> Iterator[tuple[int, Board]]:
    """Game ``game`` of the run: (ply, position without history) from :data:`FIRST_PLY` on."""
    rng = random.Random(f"{seed}/{game}")
    rules = RULES[game % len(RULES)]
    board = Board(rules=rules)
    if policy == "engine":
        _engine_move(board, 1)
        _engine.new_game()
    depth = 1 + game % 3
    for ply in range(MAX_PLIES):
        if board.outcome() is not None:
            return
        if ply >= FIRST_PLY:
            yield ply, Board(prove.position_fen(board), rules)
        moves = list(board.generate_legal_moves())
        roll = rng.random()
        move: Move | None = None
        if policy == "engine" and roll < 0.5:
            move = _engine_move(board, depth)
        elif roll < 0.8:
            move = min(moves, key=lambda m: prove.tactics._greedy_key(board, m, rng))
        if move is None:
            move = rng.choice(moves)
        board.push(move)


def stored_games(url: str) -> list[tuple[str, list[str]]]:
    """(rules, moves) of the finished games of a server database (builtin rule sets only)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    games = []
    with engine.connect() as connection:
        for (state,) in connection.execute(text("SELECT state FROM games ORDER BY id")):
            data = json.loads(state)
            name = str(data.get("rules", {}).get("name", ""))
            moves = [str(m[0]) for m in data.get("moves", [])]
            if name in BUILTIN_RULE_SETS and len(moves) > FIRST_PLY:
                games.append((name, moves))
    return games


def replay(rules: str, moves: list[str]) -> Iterator[tuple[int, Board]]:
    board = Board(rules=rules)
    for ply, text in enumerate(moves):
        if board.outcome() is not None:
            return
        if ply >= FIRST_PLY:
            yield ply, Board(prove.position_fen(board), rules)
        try:
            board.push(Move.from_str(text))
        except ValueError:
            return


# ------------------------------------------------------------------------------- puzzles


def make_puzzle(
    board: Board,
    source: str,
    threats: tuple[int, ...] = prove.DEFENCE_THREATS,
    horizon: int = prove.WIN_HORIZON,
) -> dict[str, Any] | None:
    found = prove.find_puzzle(board, threats, horizon)
    if found is None:
        return None
    fen, rules = prove.position_fen(board), board.rules.name
    legal = board.legal_moves.count()
    if (
        found["kind"] == "win"
        and found["depth"] > 1
        and not prove.tactics.has_decoy(board, (found["line"][0],))
    ):
        return None  # the only forward move or capture: too easy to be worth a puzzle
    themes = prove.themes_of(fen, rules, found["kind"], found["line"])
    return {
        "id": puzzle_id(fen, rules),
        "fen": fen,
        "rules": rules,
        "kind": found["kind"],
        "depth": found["depth"],
        "line": found["line"],
        "themes": themes,
        "rating": initial_rating(found["kind"], found["depth"], found["line"], legal),
        "source": source,
        "proof": found["proof"],
    }


def worth_asking(board: Board) -> bool:
    """A cheap filter on which positions to put to the (expensive) exhaustive search: a piece
    near a den, an exchange on the board, or few animals left. It only decides where to look;
    what is kept is still proved by the search."""
    codes = board.piece_codes()
    count = sum(1 for c in codes if c)
    if count <= ENDGAME_ASK:
        return True
    for square, code in enumerate(codes):
        if code:
            den = DENS[1 - code_color(code)]
            if abs(square // 7 - den // 7) + abs(square % 7 - den % 7) <= NEAR_DEN:
                return True
    return any(board.is_capture(m) for m in board.generate_legal_moves())


def reduced(board: Board, rng: random.Random) -> Board | None:
    """The same position with most animals taken off (3 to 6 left, both sides), a rat and the
    enemy elephant kept more often than not: where endgame and rat/elephant tactics live."""
    codes = board.piece_codes()
    sides: list[list[int]] = [[], []]
    for square, code in enumerate(codes):
        if code:
            sides[code_color(code)].append(square)
    keep: set[int] = set()
    for color in (0, 1):
        squares = sides[color]
        if not squares:
            return None
        wanted = rng.choice((1, 2, 2, 3)) if color != board.turn else rng.choice((1, 2, 3))
        favoured = [q for q in squares if code_animal(codes[q]) in (RAT, ELEPHANT, LION, TIGER)]
        if favoured and rng.random() < 0.7:
            keep.add(rng.choice(favoured))
        rest = [q for q in squares if q not in keep]
        rng.shuffle(rest)
        keep.update(rest[: max(0, wanted - len(keep & set(squares)))])
    placement = placement_fen([c if q in keep else 0 for q, c in enumerate(codes)])
    try:
        small = Board(placement + (" w" if board.turn == 0 else " b"), board.rules)
    except ValueError:
        return None
    if small.outcome() is not None or not list(small.generate_legal_moves()):
        return None
    return small


def motif_position(board: Board, rng: random.Random) -> Board | None:
    """A few animals of the position around a rat of the side to move and an enemy lion,
    tiger or elephant (``--motifs``: where rat-versus-elephant and jump-blocking lines are)."""
    codes = board.piece_codes()
    me = board.turn
    rats = [q for q, c in enumerate(codes) if c and code_color(c) == me and code_animal(c) == RAT]
    big = [
        q
        for q, c in enumerate(codes)
        if c and code_color(c) != me and code_animal(c) in (LION, TIGER, ELEPHANT)
    ]
    if not rats or not big:
        return None
    keep = {rng.choice(rats), rng.choice(big)}
    for color in (me, 1 - me):  # 1 or 2 more animals each: taking one is never the whole game
        others = [q for q, c in enumerate(codes) if c and code_color(c) == color and q not in keep]
        if not others:
            return None
        rng.shuffle(others)
        keep.update(others[: rng.randint(1, 2)])
    placement = placement_fen([c if q in keep else 0 for q, c in enumerate(codes)])
    try:
        small = Board(placement + (" w" if me == 0 else " b"), board.rules)
    except ValueError:
        return None
    if small.outcome() is not None or not list(small.generate_legal_moves()):
        return None
    return small


def scan_motifs(seed: int, game: int, policy: str) -> list[dict[str, Any]]:
    """``--motifs``: puzzles of a game's motif positions (every other ply) only."""
    rng = random.Random(f"{seed}/{game}/motif")
    found: list[dict[str, Any]] = []
    for ply, board in self_play(seed, game, policy):
        if ply % 2 or len(found) >= PER_GAME:
            continue
        small = motif_position(board, rng)
        if small is None:
            continue
        puzzle = make_puzzle(small, f"self-play seed {seed} game {game} ply {ply}, motif")
        if puzzle is not None and set(puzzle["themes"]) & MOTIF_THEMES:
            found.append(puzzle)
    return found


def _steps_apart(a: int, b: int) -> int:
    return abs(a // 7 - b // 7) + abs(a % 7 - b % 7)


def jump_position(rng: random.Random, rules: str, attack: bool = False) -> Board | None:
    """``--motifs jump``: a lion or tiger on a bank, its jump across the river landing 3 steps
    from the enemy den (a den threat in 4 moves: the jump and 3 steps), and an enemy rat one
    step from that jump's water, so that it can swim into the lane and block the jump.

    * ``attack`` False (a defence to find): the side to move has the rat, one or two other
      animals 4 steps or more from both dens (too far to defend their den or to attack the
      other at once); the enemy has the jumper and one or two more animals anywhere.
    * ``attack`` True (a win to find): the side to move has the jumper and at most one other
      animal, the enemy the rat and one or two more, all 4 steps or more from both dens: the
      jump is to be made before the rat blocks it.

    The rules library must accept the position; the prover decides whether it is a puzzle, and
    the classifier (prove.themes_of) whether it is jump blocking."""
    rat_side = rng.randrange(2)
    me = 1 - rat_side if attack else rat_side
    jumps = [
        (origin, landing, path)
        for origin in range(63)
        if not WATER >> origin & 1
        for landing, path in JUMPS[origin]
        if _steps_apart(landing, DENS[rat_side]) <= 3
    ]
    origin, landing, path = rng.choice(jumps)
    codes = [0] * 63
    codes[origin] = piece_code(1 - rat_side, rng.choice((LION, TIGER)))
    beside = sorted(
        {
            q
            for water in iter_squares(path)
            for q in iter_squares(STEPS[water])
            if not path >> q & 1 and q not in (origin, landing)
        }
    )
    codes[rng.choice(beside)] = piece_code(rat_side, RAT)
    free = [q for q in range(63) if not codes[q]]

    def place(color: int, animal: int, spots: list[int]) -> None:
        code = piece_code(color, animal)
        spots = [q for q in spots if q in free and may_stand(code, q)]
        if spots:
            square = rng.choice(spots)
            codes[square] = code
            free.remove(square)

    rat_animals = [CAT, DOG, WOLF, LEOPARD, TIGER, LION, ELEPHANT]
    rng.shuffle(rat_animals)
    jumper_animals = [CAT, DOG, WOLF, LEOPARD, TIGER, LION, ELEPHANT, RAT]
    jumper_animals.remove(code_animal(codes[origin]))
    if attack:
        jumper_animals.remove(RAT)  # no own rat to bring in: the jump alone must do it
    rng.shuffle(jumper_animals)
    far = [q for q in free if min(_steps_apart(q, DENS[0]), _steps_apart(q, DENS[1])) >= 4]
    for animal in rat_animals[: rng.randint(1, 2)]:
        place(rat_side, animal, far)
    for animal in jumper_animals[: rng.randint(0, 1) if attack else rng.randint(1, 2)]:
        place(1 - rat_side, animal, far if attack else list(free))
    placement = placement_fen(codes)
    try:
        board = Board(placement + (" w" if me == 0 else " b"), rules)
    except ValueError:
        return None
    if not board.is_valid() or board.outcome() is not None:
        return None
    if not list(board.generate_legal_moves()):
        return None
    return board


def scan_jumps(seed: int, game: int) -> list[dict[str, Any]]:
    """``--motifs jump``: jump-blocking puzzles of :data:`JUMP_TRIES` skeleton positions, in
    runs of 4 game indices (each rule set once) of wins to find (within
    ``prove.JUMP_WIN_HORIZON``) and of defences in turn."""
    rng = random.Random(f"{seed}/{game}/jump")
    rules = RULES[game % len(RULES)]
    attack = game // len(RULES) % 2 == 1
    horizon = prove.JUMP_WIN_HORIZON if attack else prove.WIN_HORIZON
    found: list[dict[str, Any]] = []
    for attempt in range(JUMP_TRIES):
        board = jump_position(rng, rules, attack)
        if board is None:
            continue
        source = f"jump motif seed {seed} game {game} try {attempt}"
        puzzle = make_puzzle(board, source, prove.JUMP_DEFENCE_THREATS, horizon)
        if puzzle is not None and "jump_blocking" in puzzle["themes"]:
            found.append(puzzle)
            if len(found) >= PER_GAME:
                break
    return found


Task = tuple[int, int, str, str | None, list[str] | None, str | None]


def scan_game(task: Task) -> list[dict[str, Any]]:
    """Puzzles of one game (run in a worker process)."""
    seed, game, policy, rules, moves, motifs = task
    if motifs == "jump":
        return scan_jumps(seed, game)
    if motifs:
        return scan_motifs(seed, game, policy)
    found: list[dict[str, Any]] = []
    last = -100
    if moves is not None and rules is not None:
        positions = replay(rules, moves)
        source = f"server game {game}"
    else:
        positions = self_play(seed, game, policy)
        source = f"self-play seed {seed} game {game}"
    rng = random.Random(f"{seed}/{game}/reduce")
    reductions = 0
    for ply, board in positions:
        if ply % REDUCE_EVERY == 0 and reductions < PER_GAME_REDUCED:
            small = reduced(board, rng)
            if small is not None and worth_asking(small):
                puzzle = make_puzzle(small, f"{source} ply {ply}, reduced")
                if puzzle is not None:
                    found.append(puzzle)
                    reductions += 1
        if ply - last < MIN_GAP or len(found) - reductions >= PER_GAME:
            continue
        if not worth_asking(board):
            continue
        puzzle = make_puzzle(board, f"{source} ply {ply}")
        if puzzle is not None:
            found.append(puzzle)
            last = ply
    return found


# ---------------------------------------------------------------------------------- main


def _read_existing(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="stop at this many puzzles")
    parser.add_argument("--games", type=int, default=100_000, help="at most this many games")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--policy", choices=("engine", "greedy"), default="engine")
    parser.add_argument("--games-db", help="also scan the games of this server database URL")
    parser.add_argument("--out", type=Path, default=OUTPUT)
    parser.add_argument("--fresh", action="store_true", help="start over (no resume)")
    parser.add_argument(
        "--motifs",
        nargs="?",
        const="rat",
        choices=("rat", "jump"),
        help="rat: ask only rat/jumper/elephant positions, keep only rat vs elephant and jump "
        "blocking; jump: ask only lion/tiger-jump skeletons, keep only jump blocking",
    )
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)

    progress_path = args.out.with_name(args.out.name + ".progress")
    existing = [] if args.fresh else _read_existing(args.out)
    state: dict[str, Any] = {}
    if not args.fresh and progress_path.exists():
        state = json.loads(progress_path.read_text("utf-8"))
        if state.get("seed") != args.seed:
            raise SystemExit(f"{progress_path} is of seed {state.get('seed')}: use --fresh")
    first_game = int(state.get("games_done", 0))
    elapsed = float(state.get("seconds", 0.0))
    seen = {prove.tactics.canonical_key(p["fen"], p["rules"]) for p in existing}
    counts = Counter(t for p in existing for t in p["themes"])
    den1 = sum(1 for p in existing if p["kind"] == "win" and p["depth"] == 1)
    total = len(existing)

    tasks: list[Task] = []
    if args.games_db and first_game == 0:
        for number, (rules, moves) in enumerate(stored_games(args.games_db)):
            tasks.append((args.seed, number, args.policy, rules, moves, None))
    tasks += [
        (args.seed, g, args.policy, None, None, args.motifs) for g in range(first_game, args.games)
    ]

    args.out.parent.mkdir(parents=True, exist_ok=True)
    mode = "w" if args.fresh else "a"
    start = time.perf_counter()
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[bold]puzzles"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[games]} games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    pool = multiprocessing.get_context("spawn").Pool(args.jobs) if args.jobs > 1 else None
    results = pool.imap(scan_game, tasks) if pool else map(scan_game, tasks)
    games_done = first_game
    with (
        args.out.open(mode, encoding="utf-8") as out,
        Progress(*columns, disable=args.no_progress) as bar,
    ):
        task = bar.add_task("puzzles", total=args.count, completed=total, games=games_done)
        for (_, game, _, from_db, _, _), found in zip(tasks, results, strict=False):
            complete = True  # every puzzle of the game written (else a resume redoes it)
            for puzzle in found:
                if total >= args.count:
                    complete = False
                    break
                key = prove.tactics.canonical_key(puzzle["fen"], puzzle["rules"])
                is_den1 = puzzle["kind"] == "win" and puzzle["depth"] == 1
                if key in seen or (is_den1 and den1 >= MAX_DEN1_SHARE * args.count):
                    continue
                seen.add(key)
                den1 += is_den1
                total += 1
                counts.update(puzzle["themes"])
                out.write(json.dumps(puzzle, separators=(",", ":"), sort_keys=True) + "\n")
            out.flush()
            if from_db is None:
                games_done = game + 1 if complete else game
                progress_path.write_text(
                    json.dumps(
                        {
                            "seed": args.seed,
                            "games_done": games_done,
                            "seconds": round(elapsed + time.perf_counter() - start, 1),
                            "puzzles": total,
                        }
                    ),
                    "utf-8",
                )
            bar.update(task, completed=min(total, args.count), games=games_done)
            if total >= args.count:
                break
    if pool:
        pool.terminate()
    seconds = elapsed + time.perf_counter() - start
    themes = ", ".join(f"{t} {counts[t]}" for t in prove.THEMES)
    print(f"{total} puzzles in {args.out} after {games_done} games, {seconds:.0f} s ({themes})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
