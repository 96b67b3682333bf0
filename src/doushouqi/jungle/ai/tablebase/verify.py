"""Check tables against the rules library, independently of the generator.

Nothing here uses the generator's index, move generation or solver: positions come from the
placement rules of :mod:`doushouqi.jungle.squares`, moves and endings from
:class:`~doushouqi.jungle.board.Board`,
and table values through the core reader
(:func:`doushouqi.jungle.tablebase.probe.probe`). Three checks:

* :func:`bounded_value`: a plain depth-limited minimax on the rules library (no heuristics,
  nothing pruned) that finds every win or loss within ``depth`` plies with its exact DTM. A
  table win or loss within the horizon must have exactly that DTM; a draw, or a longer result,
  must show no result within the horizon.
* :func:`consistency`: the table value must be what the values of the legal moves' results
  give (a win in d + 1 when some move leaves a loss in d, the fastest such; a loss when every
  move leaves a win, in one more than the longest; a draw otherwise). A table that satisfies
  this everywhere is the game's exact solution (the wins and losses are well founded in their
  DTM), so sampling it tests the whole table.
* :func:`exhaustive_values`: for tiny material, the whole game graph solved again in plain
  Python by repeated sweeps over every position, for an entry-by-entry comparison.

Random positions: :func:`random_board`.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Literal

from doushouqi.jungle.board import Board
from doushouqi.jungle.fen import placement_fen
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.jungle.squares import BLUE, DENS, RED, may_stand, piece_code
from doushouqi.jungle.tablebase.file_format import parse_signature
from doushouqi.jungle.tablebase.probe import Probe, probe

__all__ = [
    "CheckReport",
    "bounded_value",
    "check_positions",
    "consistency",
    "exhaustive_values",
    "random_board",
]

Value = tuple[int, int]  # (1 win / -1 loss for the side to move, DTM in plies)


def _squares_for(code: int) -> list[int]:
    return [s for s in range(63) if s not in DENS and may_stand(code, s)]


def _board(codes_at: dict[int, int], turn: int, rules: RuleSet) -> Board:
    codes = [0] * 63
    for square, code in codes_at.items():
        codes[square] = code
    return Board(f"{placement_fen(codes)} {'b' if turn == BLUE else 'w'} 0 1", rules=rules)


def random_board(rng: random.Random, signature: str, rules: RuleSet | str) -> Board:
    """A random valid position of ``signature`` (the mover's animals first), either colour to
    move, any placement the rules allow with no animal on a den."""
    rules = find_rules(rules)
    mover, opponent = parse_signature(signature)
    turn = rng.choice((RED, BLUE))
    placed: dict[int, int] = {}
    for color, animals in ((turn, mover), (1 - turn, opponent)):
        for animal in animals:
            code = piece_code(color, animal)
            choices = [s for s in _squares_for(code) if s not in placed]
            placed[rng.choice(choices)] = code
    return _board(placed, turn, rules)


def _after(board: Board) -> Value | Literal[False] | None:
    """The value for the side to move after a push: a finished game as a value (None for a
    draw by rule), False when the game goes on."""
    outcome = board.outcome()
    if outcome is None:
        return False
    if outcome.termination is Termination.NO_LEGAL_MOVES:
        return (-1, 0)
    if outcome.winner is None:
        return None  # a draw by rule (cannot happen within the horizons used here)
    return (1, 0) if outcome.winner == board.turn else (-1, 0)


def bounded_value(board: Board, depth: int) -> Value | None:
    """The exact value when the game ends within ``depth`` plies with perfect play, else
    None. Plain minimax with a memo on (position, depth); for ``depth`` < 8 no repetition can
    arise from a board without history."""
    memo: dict[tuple[tuple[int, ...], int], Value | None] = {}
    work = board.copy(stack=False)

    def search(d: int) -> Value | None:
        key = (work.transposition_key(), d)
        if key in memo:
            return memo[key]
        moves = list(work.generate_legal_moves())
        result: Value | None
        if not moves:
            result = (-1, 0)
        elif d == 0:
            result = None
        else:
            fastest: int | None = None
            longest = 0
            all_lose = True
            for move in moves:
                work.push(move)
                child = _after(work)
                if child is False:
                    child = search(d - 1)
                work.pop()
                if child is None:
                    all_lose = False
                    continue
                if child[0] < 0:
                    fastest = child[1] + 1 if fastest is None else min(fastest, child[1] + 1)
                    all_lose = False
                else:
                    longest = max(longest, child[1] + 1)
            if fastest is not None:
                result = (1, fastest)
            elif all_lose and longest <= d:
                result = (-1, longest)
            else:
                result = None
        memo[key] = result
        return result

    return search(depth)


def _table_value(entry: Probe | None) -> Value | str | None:
    if entry is None:
        return "missing"
    if entry.wdl == 0:
        return None
    return (entry.wdl, entry.dtm or 0)


def consistency(board: Board) -> str | None:
    """None when the table value of ``board`` follows from its moves' values, else what
    differs."""
    own = _table_value(probe(board))
    if own == "missing":
        return "not covered"
    work = board.copy(stack=False)
    fastest: int | None = None
    longest = 0
    all_lose = True
    for move in list(work.generate_legal_moves()):
        work.push(move)
        finished = _after(work)
        child = _table_value(probe(work)) if finished is False else finished
        work.pop()
        if child == "missing":
            return f"after {move}: not covered"
        if child is None or isinstance(child, str):
            all_lose = False
        elif child[0] < 0:
            fastest = child[1] + 1 if fastest is None else min(fastest, child[1] + 1)
            all_lose = False
        else:
            longest = max(longest, child[1] + 1)
    expected: Value | None
    if fastest is not None:
        expected = (1, fastest)
    elif all_lose:
        expected = (-1, longest)
    else:
        expected = None
    if expected != own:
        return f"table {own}, moves give {expected}"
    return None


@dataclasses.dataclass
class CheckReport:
    positions: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    search_decided: int = 0  # positions whose value the bounded search found (DTM compared)
    disagreements: list[str] = dataclasses.field(default_factory=list)


def check_positions(
    boards: Sequence[Board] | Iterator[Board], depth: int, report: CheckReport | None = None
) -> CheckReport:
    """Run the three position checks (search, consistency, mirror symmetry) on each board."""
    report = report or CheckReport()
    for board in boards:
        report.positions += 1
        entry = probe(board)
        own = _table_value(entry)
        fen = board.fen()
        if own == "missing":
            report.disagreements.append(f"{fen}: not covered")
            continue
        if own is None:
            report.draws += 1
        elif isinstance(own, tuple) and own[0] > 0:
            report.wins += 1
        else:
            report.losses += 1
        found = bounded_value(board, depth)
        if found is not None:
            report.search_decided += 1
        within = isinstance(own, tuple) and own[1] <= depth
        if found != (own if within else None):
            report.disagreements.append(f"{fen}: table {own}, search to {depth} plies {found}")
        problem = consistency(board)
        if problem is not None:
            report.disagreements.append(f"{fen}: {problem}")
        for twin in (board.flip_horizontal(), board.mirror()):
            if probe(twin) != entry:
                report.disagreements.append(f"{fen}: symmetric {twin.fen()} differs")
    return report


def exhaustive_values(signature: str, rules: RuleSet | str) -> dict[str, Value | None]:
    """Every position reachable from the positions of ``signature``'s job, as ``fen`` →
    value (None: draw), solved again in plain Python: the game graph is built with the
    rules library, then swept ply by ply (at ply n: a win in n when some successor is a loss
    in n - 1; a loss in n when every successor is a win, the longest in n - 1). Only for two
    or three animals (slow)."""
    rules = find_rules(rules)
    mover, opponent = parse_signature(signature)
    roots = itertools.chain(
        _placements({RED: mover, BLUE: opponent}, RED, rules),
        _placements({RED: mover, BLUE: opponent}, BLUE, rules),
    )
    graph: dict[str, list[str | Value]] = {}
    todo = [_key(b) for b in roots]
    while todo:
        fen = todo.pop()
        if fen in graph:
            continue
        board = Board(fen, rules=rules)
        edges: list[str | Value] = []
        for move in list(board.generate_legal_moves()):
            board.push(move)
            child = _after(board)
            if child is False:
                key = _key(board)
                edges.append(key)
                if key not in graph:
                    todo.append(key)
            elif isinstance(child, tuple):
                edges.append(child)
            board.pop()
        graph[fen] = edges
    known: dict[str, Value] = {}
    ply = 0
    while True:
        changed = 0
        for fen, edges in graph.items():
            if fen in known:
                continue
            children = [e if isinstance(e, tuple) else known.get(e) for e in edges]
            if ply % 2 == 1:
                if any(c == (-1, ply - 1) for c in children):
                    known[fen] = (1, ply)
                    changed += 1
            elif all(c is not None and c[0] > 0 for c in children):
                longest = max((c[1] + 1 for c in children if c is not None), default=0)
                if longest == ply:
                    known[fen] = (-1, ply)
                    changed += 1
        if changed == 0 and ply >= 1:
            break
        ply += 1
    return {fen: known.get(fen) for fen in graph}


def _key(board: Board) -> str:
    """The position without its counters (a fresh board of it has no history)."""
    return f"{board.board_fen()} {'b' if board.turn == BLUE else 'w'}"


def _placements(sides: dict[int, Sequence[int]], turn: int, rules: RuleSet) -> Iterator[Board]:
    codes = [piece_code(c, a) for c, animals in sides.items() for a in animals]
    domains = [_squares_for(code) for code in codes]
    for squares in itertools.product(*domains):
        if len(set(squares)) == len(squares):
            yield _board(dict(zip(squares, codes, strict=True)), turn, rules)
