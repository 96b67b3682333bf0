"""Generate the tactical test suite ``tests/jungle/ai/data/tactics.epd``, proving every answer.

Sources (all deterministic):

* **playouts**: games from the start position under ``wango``, ``classic``, ``international``
  and ``classic-dog`` with a fixed seed; each side plays a random move or, more often, a
  greedy one (den entries, captures, steps towards the enemy den) so that den fights arise;
* **hand-made** positions (:data:`HAND`), each with a comment naming its motif and the answer
  its author expects; the generator refuses to run if the solver disagrees with the author.
  (One of them was spotted by a throw-away random search over sparse positions and then
  checked by hand; its ``src`` says so.)

Every position is classified by the exhaustive solver (:mod:`solver`):

* ``den1`` / ``den2`` / ``den3``: the side to move forces a win in N own moves, N minimal,
  and at most :data:`MAX_ANSWERS` first moves do it (``bm`` lists all of them, ``dm N``);
* ``defence``: no forced win within 3, but the opponent would force a win within N = 1 or 2
  of its moves after every move except 1-3 safe ones (``sm``, ``threat N``);
* ``trap`` / ``rat``: a win or a defence whose every answer shows the motif (a capture only
  legal because the victim stands in the capturer's trap; a rat taking an elephant, a rat in
  the water next to an elephant, a rat entering the water to block a lion/tiger jump);
* ``rule``: the same question has a different answer under a contrasting rule set (kept in
  the ``differs`` field).

For den-in-2 and den-in-3 the solution must not be trivial-looking: some other move that goes
at least as close to the enemy den, or captures, must fail (a "decoy").

Every kept answer is then proved twice: by the AND/OR solver and by a plain minimax with no
memo, ordering or shortcut (:func:`solver.reference_solve` / :func:`solver.reference_defends`).

Run from the repository root: ``.venv/bin/python tools/tactics/generate.py`` (a few minutes).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from load_tool import load_tool

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.squares import (
    DENS,
    ELEPHANT,
    LION,
    RAT,
    STEPS,
    TIGER,
    TRAPS,
    WATER,
    code_animal,
    code_color,
    parse_square,
)

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "tests" / "jungle" / "ai" / "data" / "tactics.epd"


solver = load_tool("tactics", "solver")
suite = load_tool("tactics", "suite")

SEED = 20_240_601
PLAYOUT_RULES = ("wango", "classic", "international", "classic-dog")
#: The rule set each one is compared with for the ``rule`` category.
CONTRAST = {
    "wango": "classic",
    "classic": "wango",
    "international": "wango",
    "classic-dog": "classic",
}
MAX_ANSWERS = 3
#: Positions wanted per category from the playouts (hand-made ones come on top).
QUOTA = {"den1": 28, "den2": 30, "den3": 20, "defence": 30, "trap": 10, "rat": 3, "rule": 0}
MAX_GAMES = 200
FIRST_PLY = 12
MIN_GAP = 6
MAX_PLIES = 300


# ------------------------------------------------------------------------ hand-made positions


@dataclasses.dataclass(frozen=True)
class Hand:
    """A hand-made position: pieces as ``"Cc2 Eg5"`` (letter + square), Red's upper case."""

    category: str
    side: str
    red: str
    blue: str
    expect: str  # "bm <moves> dm <N>" or "sm <moves> threat <N>"
    note: str
    rules: str = "wango"
    differs: str | None = None
    source: str = "hand"

    def fen(self) -> str:
        squares: dict[int, str] = {}
        for text, upper in ((self.red, True), (self.blue, False)):
            for token in text.split():
                letter = token[0].upper() if upper else token[0].lower()
                squares[parse_square(token[1:])] = letter
        return _placement(squares) + " " + self.side


def _placement(squares: dict[int, str]) -> str:
    rows = []
    for row in range(8, -1, -1):
        text, empty = "", 0
        for column in range(7):
            letter = squares.get(row * 7 + column)
            if letter is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += letter
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


# fmt: off
HAND: tuple[Hand, ...] = (
    # --- trap: a capture that is only legal because the victim stands in the capturer's trap
    Hand("trap", "w", "Cc2 Eg5", "ld2 tg9 ra9", "sm c2d2 threat 1",
         "trap: the cat takes the lion standing in Red's trap d2 (rank 0 there)"),
    Hand("trap", "b", "Ld8 Tg1 Ra3", "Ce8 Ea5", "sm e8d8 threat 1",
         "trap: Blue's cat takes Red's lion in Blue's trap d8"),
    Hand("trap", "w", "Rb1 Ea9", "tc1 lg9", "sm b1c1 threat 1",
         "trap: the rat takes the tiger in trap c1 (a rat takes any trapped animal)"),
    Hand("trap", "b", "Ta3 Ec9 Da1", "Cb9 Tg7 Wa5", "sm b9c9 threat 1",
         "trap: Blue's cat takes Red's elephant in trap c9"),
    Hand("trap", "w", "Cc2 Wc8", "ld2 ea9", "bm c2d2 dm 3",
         "trap: take the trapped lion first, then the wolf walks in by d8 (c8d8 at once loses)"),
    Hand("trap", "w", "Df1 Ea3", "le1", "bm f1e1 dm 1",
         "trap: the dog takes Blue's last animal, a lion in trap e1 (annihilation)"),
    Hand("trap", "w", "Pd3 Ce2", "ld2 tf2 rb9", "sm d3d2 e2d2 threat 1",
         "trap: leopard or cat may take the lion in d2; nothing else stops d2d1"),
    Hand("trap", "w", "Cf1 Ea3", "te1 lg4", "sm f1e1 threat 1",
         "trap: the cat takes the tiger in trap e1"),
    # --- rat: rat takes elephant, elephant cannot take rat, rat in the water
    Hand("rat", "w", "Rd7 Lc3 Wa4", "ed8 tg9 dg7", "bm d7d8 dm 2",
         "rat: the rat takes the elephant guarding d8 and enters the den next"),
    Hand("rat", "w", "Rc3 Lg4", "ec2 tg9", "sm c3c2 threat 2",
         "rat: only the rat can take the elephant on c2 before it reaches a trap"),
    Hand("rat", "b", "Ta3 Re8", "ef8 ce9", "sm e9e8 threat 2",
         "rat: the elephant next to the rat may not take it; the cat must"),
    Hand("rat", "b", "Ed2 Tg1 Ca1", "rd3 lg9 ce7", "bm d3d2 dm 2",
         "rat: Blue's rat takes the elephant on d2 and enters the den next"),
    Hand("rat", "w", "Eb2 Cc3 Lg5", "rc2 tg9 da7", "sm c3c2 threat 2",
         "rat: the elephant beside the rat on c2 may not take it (not in a trap); the cat must"),
    Hand("rat", "b", "Lb7", "lc8 ea6 rb3 de3", "bm b3b4 dm 2",
         "rat blocks a jump: b3b4 shuts the lion's escape b7b3; a7, b8, c7 are all covered",
         source="hand-checked, found by a random sparse-position search (seed 3)"),
    # --- rule: the answer depends on a rule option (the `differs` rule set answers otherwise)
    Hand("rule", "w", "Dd7 Wa3", "wd8 tg9", "bm d7d8 dm 2",
         "rule ranks: with dog > wolf the dog takes the wolf on d8 and enters next",
         rules="classic-dog", differs="classic"),
    Hand("rule", "w", "Wd7 Da3", "dd8 tg9", "bm d7d8 dm 2",
         "rule ranks: with wolf > dog the wolf takes the dog on d8 and enters next",
         rules="classic", differs="classic-dog"),
    Hand("rule", "w", "Dc3 Eg3", "wc2 tg9", "sm c3c2 threat 2",
         "rule ranks: only with dog > wolf can the dog take the wolf on c2",
         rules="classic-dog", differs="classic"),
    Hand("rule", "w", "Wc9 Ta3 Eg2", "cc8", "bm c9c8 c9d9 dm 1",
         "rule trapped_can_capture: the wolf in trap c9 may also take the last animal",
         rules="international", differs="wango"),
    Hand("rule", "w", "Lc3 Rc5 Ea1", "dc7", "bm c3c7 dm 1",
         "rule own_rat_blocks_jump: the own rat on c5 does not block the jump onto the last animal",
         rules="classic", differs="wango"),
    Hand("rule", "w", "Td5 Rf5 Ea1", "dg5", "bm d5g5 dm 1",
         "rule own_rat_blocks_jump: the tiger jumps over its own rat and takes the last animal",
         rules="classic", differs="wango"),
    Hand("rule", "w", "Lc7 Rc5", "wc3 tg9 ec8", "sm c7c3 c7d7 threat 3",
         "rule own_rat_blocks_jump: the lion jumps back over its own rat to take the wolf",
         rules="classic", differs="wango"),
    Hand("rule", "w", "Te7 Re5", "we3 lg9 ee8", "sm e7d7 e7e3 threat 3",
         "rule own_rat_blocks_jump: the tiger jumps back over its own rat to take the wolf",
         rules="classic", differs="wango"),
    Hand("rule", "w", "Rc4 Eg1", "rc3 tg9", "sm c4c3 threat 3",
         "rule rat_captures_across_water: the rat in the water takes the rat on c3",
         rules="classic", differs="wango"),
    Hand("rule", "b", "Rc7 Ea3", "rc6 eg8", "sm c6c7 threat 3",
         "rule rat_captures_across_water: Blue's rat takes Red's from the water",
         rules="classic", differs="wango"),
    Hand("rule", "b", "We2 Ta1", "de3 wg7", "bm e3e2 dm 3",
         "rule ranks: Blue's dog takes the wolf on e2 (only with dog > wolf), then e1 or d2",
         rules="classic-dog", differs="classic"),
    Hand("rule", "b", "We8 Ta1", "df8 la5", "sm f8e8 threat 2",
         "rule ranks: Blue's dog must take the wolf on e8, legal only with dog > wolf",
         rules="classic-dog", differs="classic"),
    Hand("rule", "b", "Rb1", "pc1 tg9", "bm c1b1 c1d1 dm 1",
         "rule trapped_can_capture: the leopard in trap c1 may also take Red's last animal",
         rules="international", differs="wango"),
)
# fmt: on


# ------------------------------------------------------------------------------ classification


@dataclasses.dataclass
class Candidate:
    fen: str
    rules: str
    kind: str  # "win" or "defence"
    moves: tuple[str, ...]
    depth: int
    legal: int
    category: str = ""
    source: str = ""
    note: str = ""
    differs: str | None = None


def classify(board: Board) -> Candidate | None:
    """The win (N <= 3) or defence (threat 1 or 2) question this position answers, if any."""
    legal = board.legal_moves.count()
    result = solver.solve(board, 3)
    fen = " ".join(board.fen().split()[:2])
    if result.distance is not None:
        if len(result.moves) > MAX_ANSWERS:
            return None
        return Candidate(fen, board.rules.name, "win", result.move_names, result.distance, legal)
    for threat in (1, 2):
        safe = solver.defends(board, threat)
        if len(safe) == legal:
            continue
        if 1 <= len(safe) <= MAX_ANSWERS and legal - len(safe) >= 4:
            names = tuple(sorted(str(m) for m in safe))
            return Candidate(fen, board.rules.name, "defence", names, threat, legal)
        return None
    return None


def answer_under(board: Board, kind: str, depth: int) -> tuple[int | None, tuple[str, ...]]:
    """The same question as a candidate's, asked of another board (other rules)."""
    if kind == "win":
        result = solver.solve(board, depth)
        return result.distance, result.move_names
    return depth, tuple(sorted(str(m) for m in solver.defends(board, depth)))


def _distance(square: int, target: int) -> int:
    return abs(square // 7 - target // 7) + abs(square % 7 - target % 7)


def has_decoy(board: Board, answers: tuple[str, ...]) -> bool:
    """Some move outside the answers goes as close to the enemy den, or captures."""
    den = DENS[1 - board.turn]
    best = min(_distance(Move.from_str(m).to_square, den) for m in answers)
    for move in board.generate_legal_moves():
        if str(move) in answers:
            continue
        if board.is_capture(move) or _distance(move.to_square, den) <= best:
            return True
    return False


def _capture_needs_trap(board: Board, move: Move) -> bool:
    """A capture that would be illegal if the victim did not stand in the capturer's trap."""
    codes = board.piece_codes()
    attacker, victim = codes[move.from_square], codes[move.to_square]
    if not victim or not TRAPS[board.turn] >> move.to_square & 1:
        return False
    a, v = code_animal(attacker), code_animal(victim)
    if a == RAT:
        if WATER >> move.from_square & 1:
            return v != RAT
        return v not in (RAT, ELEPHANT)
    if a == ELEPHANT and v == RAT:
        return True
    attacker_piece, victim_piece = board.piece_at(move.from_square), board.piece_at(move.to_square)
    assert attacker_piece is not None and victim_piece is not None
    return board.rank_of(attacker_piece) < board.rank_of(victim_piece)


def _enemy_jumps(board: Board) -> set[tuple[int, int]]:
    """The lion/tiger jumps the side not to move could make if it were its turn."""
    board.push_pass()
    try:
        return {
            (m.from_square, m.to_square)
            for m in board.generate_legal_moves()
            if not STEPS[m.from_square] >> m.to_square & 1
        }
    finally:
        board.pop()


def _rat_motif(board: Board, move: Move) -> bool:
    codes = board.piece_codes()
    code = codes[move.from_square]
    if code_animal(code) != RAT:
        return False
    victim = codes[move.to_square]
    if victim and code_animal(victim) == ELEPHANT:
        return True  # rat takes elephant
    enemy = 1 - board.turn
    frm_water = WATER >> move.from_square & 1
    to_water = WATER >> move.to_square & 1
    if frm_water != to_water:
        for square in (move.from_square, move.to_square):
            for neighbour in range(63):
                if STEPS[square] >> neighbour & 1:
                    other = codes[neighbour]
                    if other and code_color(other) == enemy and code_animal(other) == ELEPHANT:
                        return True  # a rat going into or out of the water next to an elephant
    if to_water:
        before = _enemy_jumps(board)
        work = board.copy()
        work.push(move)
        work.push_pass()
        after = {
            (m.from_square, m.to_square)
            for m in work.generate_legal_moves()
            if not STEPS[m.from_square] >> m.to_square & 1
        }
        lost = before - after
        jumpers = {sq for sq, _ in lost if code_animal(codes[sq]) in (LION, TIGER)}
        if jumpers:
            return True  # the rat blocks a lion or tiger jump
    return False


def motif_of(board: Board, answers: tuple[str, ...]) -> str | None:
    """``trap`` or ``rat`` when every answer shows that motif."""
    moves = [Move.from_str(m) for m in answers]
    if all(_capture_needs_trap(board, m) for m in moves):
        return "trap"
    if all(_rat_motif(board, m) for m in moves):
        return "rat"
    return None


def base_category(candidate: Candidate) -> str:
    return f"den{candidate.depth}" if candidate.kind == "win" else "defence"


# ----------------------------------------------------------------------------- deduplication


def canonical_key(fen: str, rules: str) -> tuple[str, str]:
    """The same key for a position, its mirror image (a<->g) and its colour-swapped twin."""
    placement, side = fen.split()[:2]
    rows = [_expand(row) for row in placement.split("/")]
    variants = []
    for flip_colours in (False, True):
        for mirror in (False, True):
            grid = [row[::-1] for row in rows] if mirror else list(rows)
            turn = side
            if flip_colours:
                grid = [row[::-1].swapcase() for row in reversed(grid)]
                turn = "b" if side == "w" else "w"
            variants.append("/".join(grid) + " " + turn)
    return min(variants), rules


def _expand(row: str) -> str:
    return "".join("." * int(c) if c.isdigit() else c for c in row)


# ----------------------------------------------------------------------------------- playouts


def _greedy_key(board: Board, move: Move, rng: random.Random) -> float:
    den = DENS[1 - board.turn]
    gain = _distance(move.from_square, den) - _distance(move.to_square, den)
    capture = 3 if board.is_capture(move) else 0
    return -(gain + capture + rng.random() * 2)


def playout(rng: random.Random, rules: str) -> Iterator[tuple[int, Board]]:
    """One game: yields (ply, position) for every position from :data:`FIRST_PLY` on."""
    board = Board(rules=rules)
    for ply in range(MAX_PLIES):
        if board.outcome() is not None:
            return
        if ply >= FIRST_PLY:
            yield ply, Board(" ".join(board.fen().split()[:2]), rules)
        moves = list(board.generate_legal_moves())
        if rng.random() < 0.6:
            move = min(moves, key=lambda m: _greedy_key(board, m, rng))
        else:
            move = rng.choice(moves)
        board.push(move)


# ---------------------------------------------------------------------------------- selection


class Collector:
    """The positions kept so far, per category, and the keys of every position seen."""

    def __init__(self) -> None:
        self.chosen: dict[str, list[Candidate]] = {c: [] for c in suite.CATEGORIES}
        self.seen: set[tuple[str, str]] = set()
        self.hand: Counter[str] = Counter()

    def full(self, category: str, quota: dict[str, int]) -> bool:
        return len(self.chosen[category]) >= quota.get(category, 0) + self.hand[category]

    def add(self, candidate: Candidate) -> bool:
        key = canonical_key(candidate.fen, candidate.rules)
        if key in self.seen:
            return False
        self.seen.add(key)
        self.chosen[candidate.category].append(candidate)
        return True


def _parse_expect(text: str) -> tuple[str, tuple[str, ...], int]:
    words = text.split()
    kind = "win" if words[0] == "bm" else "defence"
    return kind, tuple(sorted(words[1:-2])), int(words[-1])


def add_hand(collector: Collector) -> None:
    for number, hand in enumerate(HAND, start=1):
        board = Board(hand.fen(), hand.rules)
        kind, moves, depth = _parse_expect(hand.expect)
        got = answer_under(board, kind, depth)
        if got != (depth, moves):
            raise SystemExit(
                f"hand-made #{number} ({hand.note}): expected {hand.expect}, got {got}"
            )
        if kind == "win" and solver.solve(board, depth).distance != depth:
            raise SystemExit(f"hand-made #{number}: a faster win exists")
        legal = board.legal_moves.count()
        if kind == "defence" and len(moves) >= legal:
            raise SystemExit(f"hand-made #{number}: every move is safe")
        candidate = Candidate(
            " ".join(board.fen().split()[:2]),
            hand.rules,
            kind,
            moves,
            depth,
            legal,
            category=hand.category,
            source=hand.source,
            note=hand.note,
            differs=hand.differs,
        )
        if hand.differs is not None:
            other = answer_under(Board(candidate.fen, hand.differs), kind, depth)
            if other == (depth, moves):
                raise SystemExit(f"hand-made #{number}: same answer under {hand.differs}")
        if not collector.add(candidate):
            raise SystemExit(f"hand-made #{number}: duplicate position")
        collector.hand[hand.category] += 1


def run_playouts(collector: Collector, seed: int, quota: dict[str, int], log: bool) -> None:
    rng = random.Random(seed)
    for game in range(MAX_GAMES):
        if all(collector.full(c, quota) for c in suite.CATEGORIES):
            return
        rules = PLAYOUT_RULES[game % len(PLAYOUT_RULES)]
        taken: set[str] = set()  # at most one position per category per game ...
        last_ply = -100  # ... and kept positions at least MIN_GAP plies apart
        for ply, board in playout(rng, rules):
            candidate = classify(board)
            if candidate is None:
                continue
            base = base_category(candidate)
            category = motif_of(board, candidate.moves) or base
            other_rules = CONTRAST[rules]
            other = answer_under(Board(candidate.fen, other_rules), candidate.kind, candidate.depth)
            if other != (candidate.depth, candidate.moves):
                category = "rule"
                candidate.differs = other_rules
            if category in taken or ply - last_ply < MIN_GAP or collector.full(category, quota):
                continue
            if category in ("den2", "den3") and not (
                candidate.legal >= 6 and has_decoy(board, candidate.moves)
            ):
                continue
            candidate.category = category
            candidate.source = f"playout {rules} seed {seed} game {game} ply {ply}"
            if collector.add(candidate):
                taken.add(category)
                last_ply = ply
                if log:
                    print(f"game {game:3d} ply {ply:3d} {category:8s} {candidate.fen}", flush=True)


# ------------------------------------------------------------------------------------- proofs


def prove(candidate: Candidate) -> str:
    """Re-derive the answer with the solver and with plain minimax; describe the proof."""
    board = Board(candidate.fen, candidate.rules)
    if candidate.kind == "win":
        result = solver.solve(board, candidate.depth)
        assert (result.distance, result.move_names) == (candidate.depth, candidate.moves)
        nodes = result.nodes
        reference = solver.reference_solve(board, candidate.depth)
        assert reference == (candidate.depth, candidate.moves), reference
        what = (
            f"and-or solver: no win in {candidate.depth - 1}, "
            if candidate.depth > 1
            else "and-or solver: "
        ) + f"bm = all {len(candidate.moves)} of {candidate.legal} legal moves winning in "
        what += f"{candidate.depth}"
    else:
        safe, nodes = solver.defends_counted(board, candidate.depth)
        assert tuple(sorted(str(m) for m in safe)) == candidate.moves
        reference = solver.reference_defends(board, candidate.depth)
        assert tuple(sorted(reference)) == candidate.moves
        what = (
            f"and-or solver: {candidate.legal - len(candidate.moves)} of {candidate.legal} legal"
            f" moves lose within {candidate.depth}, sm = the rest"
        )
    return f"{what} ({nodes} nodes); plain minimax agrees"


HEADER = """\
# Jungle (斗兽棋) tactical test suite — generated by tools/tactics/generate.py; do not edit.
#
# One position per line: <placement> <side> ; <opcode> <operands> ; ...
#   placement, side  position string of docs/rules.md 7a (w = Red to move, b = Blue to move)
#   rules <name>     the rule set the answer holds under
#   id "<cat>-<n>"   category: den1 den2 den3 (forced win in N own moves, N minimal),
#                    defence (avoid a forced loss), trap, rat (motifs), rule (rule option
#                    changes the answer)
#   bm <moves>       a win: ALL first moves that force the fastest win ...
#   dm <N>           ... in N own moves (den entry, annihilation or opponent without moves);
#                    no move forces a win in fewer
#   sm <moves>       a defence: ALL moves after which the opponent cannot force a win
#   threat <N>       ... within N of its own moves; after every other move it can
#   differs <rules>  (rule) the same question has another answer under these rules
#   c0 "<text>"      motif or remark (hand-made positions name their motif here)
#   src "<text>"     where the position comes from: hand (made, or picked and checked, by
#                    hand), or the playout (rules, seed, game, ply) that produced it
#   proof "<text>"   how the answer was verified when the file was written: the exhaustive
#                    AND/OR solver of tools/tactics/solver.py (every legal move at the root,
#                    every defence) and an independent plain minimax without memo, move
#                    ordering or shortcut; both gave exactly this answer
# An engine solves a position when it plays a move of bm (wins) or of sm (defences).
# tests/jungle/ai/test_tactics_data.py re-proves every line with the solver.
"""


def write_suite(collector: Collector, path: Path, log: bool) -> Counter[str]:
    lines = [HEADER]
    counts: Counter[str] = Counter()
    for category in suite.CATEGORIES:
        for number, candidate in enumerate(collector.chosen[category], start=1):
            proof = prove(candidate)
            extra: list[tuple[str, str]] = []
            if candidate.differs:
                extra.append(("differs", candidate.differs))
            if candidate.note:
                extra.append(("c0", candidate.note))
            extra.append(("src", candidate.source))
            extra.append(("proof", proof))
            ident = f"{category}-{number:03d}"
            lines.append(
                suite.format_entry(
                    candidate.fen,
                    candidate.rules,
                    ident,
                    candidate.kind,
                    candidate.moves,
                    candidate.depth,
                    extra,
                )
            )
            counts[category] += 1
            if log:
                print(f"proved {ident}: {proof}", flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=OUTPUT)
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    collector = Collector()
    add_hand(collector)
    run_playouts(collector, args.seed, QUOTA, not args.quiet)
    counts = write_suite(collector, args.out, not args.quiet)
    total = sum(counts.values())
    summary = ", ".join(f"{c} {counts[c]}" for c in suite.CATEGORIES)
    print(
        f"wrote {total} positions to {args.out} ({summary}) in {time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
