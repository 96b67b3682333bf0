"""Exhaustive den-fight solver on the pure-Python rules library (no engine, no heuristics).

``solve(board, n)`` answers: can the side to move force a win within ``n`` of its own moves
against every defence, and if so, which first moves do it fastest? A win is whatever
``Board.outcome()`` says: den entry (入穴), annihilation (被吃光), or the opponent left without a
legal move (困毙). Draws (repetition, no-capture limit) count as "not a win", for both sides.

``defends(board, n)`` answers the defender's question: which moves of the side to move avoid
being forced to lose within ``n`` opponent moves?

The search is a plain AND/OR search, correct by construction:

* OR node (the attacker to move, ``k`` own moves left): a win iff some legal move either ends
  the game in the attacker's favour at once, or (``k > 1``) leads to an AND node that is a win.
* AND node (the defender to move): a win iff the game is over in the attacker's favour, or
  every legal reply leads to an OR node with ``k - 1`` moves that is a win. A draw or a
  defender's win refutes.

Nothing prunes a defence: every reply is searched until one refutes. Move ordering only
changes how soon a refutation or a win is found, never the answer. Results are memoised per
position and horizon; because "wins within k" is monotone in k, one entry keeps the smallest
horizon known to win and the largest known not to win.

Memo keys are exact: a 64-bit Zobrist hash selects the entry, and the full placement (63
squares plus the side to move) is compared before an entry is trusted, so a hash collision can
only cost time. When the game's history could change the answer inside the horizon
(repetition, the 7-3 / 17-5 move restrictions, the no-capture limit — see
:func:`history_sensitive`), the key also includes the moves played since the root, so no two
different histories share an entry.

The one shortcut, for the last attacker move (``k == 1``), is exact too: a stalemate (困毙) after
the attacker's move needs every defender move to disappear, and a single attacker move changes
only two squares; a defender *step* that neither starts nor ends on the attacker's destination
square stays legal whatever the attacker plays (same piece, same capture rule, and a vacated
square only adds moves). So when the defender has two such steps on disjoint squares, no
attacker move can stalemate it and the push/outcome check is skipped. The shortcut is only used
when no history-dependent rule can be active.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.squares import DENS, STEPS

__all__ = [
    "SolveResult",
    "Solver",
    "defends",
    "defends_counted",
    "history_sensitive",
    "reference_defends",
    "reference_solve",
    "solve",
]

_ROW = [s // 7 for s in range(63)]
_COL = [s % 7 for s in range(63)]


def _distance(square: int, target: int) -> int:
    return abs(_ROW[square] - _ROW[target]) + abs(_COL[square] - _COL[target])


@dataclasses.dataclass(frozen=True)
class SolveResult:
    """The answer of :func:`solve`.

    ``distance``: the fewest own moves in which the side to move forces a win (1 = wins with
    this move), or None when it cannot within ``max_moves``. ``moves``: every first move that
    forces the win within ``distance`` (empty when ``distance`` is None), sorted by name.
    ``nodes``: positions visited (for the record).
    """

    distance: int | None
    moves: tuple[Move, ...]
    max_moves: int
    nodes: int

    @property
    def wins(self) -> bool:
        return self.distance is not None

    @property
    def move_names(self) -> tuple[str, ...]:
        return tuple(str(m) for m in self.moves)


def history_sensitive(board: Board, plies: int) -> bool:
    """Whether the game's history could change an outcome within ``plies`` plies from here.

    Conservative: any history at all counts (repetition counts, the move restrictions and the
    halfmove clock all read it). From a position with no history, a position can stand a third
    time no earlier than 8 plies on (two full there-and-back cycles of both sides), the 7-3
    restriction needs 5 own moves before it can forbid anything (ply 10 at the earliest) and
    17-5 needs 17; the no-capture limit is checked against the halfmove clock directly.
    """
    if board.ply() > 0 or plies >= 8:
        return True  # every rule set has a repetition rule, so 8 plies are always enough
    rounds = board.rules.no_capture_draw_rounds
    return rounds is not None and board.halfmove_clock + plies >= 2 * rounds


class Solver:
    """One search over one root position; reuse it for several horizons of the same root.

    The board passed in is copied; the solver pushes and pops on its copy only.
    """

    def __init__(self, board: Board, horizon_plies: int) -> None:
        self.board = board.copy()
        self.root_ply = self.board.ply()
        self.sensitive = history_sensitive(self.board, horizon_plies)
        self.nodes = 0
        # key -> (placement, smallest horizon known to win, largest horizon known to fail)
        self._memo: dict[object, tuple[tuple[int, ...], int, int]] = {}

    # ----------------------------------------------------------------- memo keys

    def _key(self) -> object:
        board = self.board
        if self.sensitive:
            path = tuple((m.from_square, m.to_square) for m in board.move_stack[self.root_ply :])
            return (board.zobrist_hash(), path)
        return board.zobrist_hash()

    # ------------------------------------------------------------------ ordering

    def _ordered_attacker_moves(self) -> list[Move]:
        board = self.board
        den = DENS[1 - board.turn]
        scored = []
        for move in board.generate_legal_moves():
            score = _distance(move.to_square, den) * 4 - _distance(move.from_square, den)
            if board.is_capture(move):
                score -= 20
            scored.append((score, move.from_square, move.to_square, move))
        scored.sort(key=lambda t: t[:3])
        return [t[3] for t in scored]

    def _ordered_defender_moves(self) -> list[Move]:
        """Replies most likely to refute first: den entries, captures near the own den."""
        board = self.board
        own_den = DENS[board.turn]
        enemy_den = DENS[1 - board.turn]
        scored = []
        for move in board.generate_legal_moves():
            if move.to_square == enemy_den:
                score = -1000
            else:
                score = _distance(move.to_square, own_den) * 2
                if board.is_capture(move):
                    score -= 30 - _distance(move.to_square, own_den) * 2
            scored.append((score, move.from_square, move.to_square, move))
        scored.sort(key=lambda t: t[:3])
        return [t[3] for t in scored]

    # -------------------------------------------------------------------- search

    def attacker_wins(self, k: int) -> bool:
        """Side to move forces a win within ``k`` own moves (the game must not be over)."""
        self.nodes += 1
        key = self._key()
        placement = self.board.transposition_key()
        entry = self._memo.get(key)
        if entry is not None and entry[0] == placement:
            if entry[1] <= k:
                return True
            if entry[2] >= k:
                return False
        result = self._attacker_search(k)
        if entry is None or entry[0] != placement:
            entry = (placement, 1 << 30, 0)
        if result:
            entry = (placement, min(entry[1], k), entry[2])
        else:
            entry = (placement, entry[1], max(entry[2], k))
        self._memo[key] = entry
        return result

    def _attacker_search(self, k: int) -> bool:
        board = self.board
        me = board.turn
        moves = self._ordered_attacker_moves()
        if k == 1:
            return self._wins_now(moves)
        for move in moves:  # den entries come first in this order
            board.push(move)
            outcome = board.outcome()
            won = outcome.winner == me if outcome is not None else self.defender_loses(k - 1)
            board.pop()
            if won:
                return True
        return False

    def _wins_now(self, moves: list[Move]) -> bool:
        """Some move wins at once (den, last enemy captured, enemy left without moves)."""
        board = self.board
        me = board.turn
        for move in moves:
            if board.gives_den_entry(move):
                return True
        skip_stalemate = not self.sensitive and self._cannot_be_stalemated()
        enemy_count = board.occupied_co[1 - me].bit_count()
        for move in moves:
            if skip_stalemate and not (enemy_count == 1 and board.is_capture(move)):
                continue
            board.push(move)
            outcome = board.outcome()
            board.pop()
            if outcome is not None and outcome.winner == me:
                return True
        return False

    def _cannot_be_stalemated(self) -> bool:
        """The defender keeps a legal step whatever single move the attacker makes now."""
        board = self.board
        board.push_pass()
        try:
            if board.is_game_over_on_board():
                return False
            steps = []
            for move in board.generate_legal_moves():
                if STEPS[move.from_square] >> move.to_square & 1:
                    steps.append((move.from_square, move.to_square))
            for i, (a1, b1) in enumerate(steps):
                for a2, b2 in steps[i + 1 :]:
                    if len({a1, b1, a2, b2}) == 4:
                        return True
            return False
        finally:
            board.pop()

    def defender_loses(self, k: int) -> bool:
        """Defender to move; the attacker (not to move) forces a win within ``k`` own moves."""
        self.nodes += 1
        board = self.board
        attacker = 1 - board.turn
        for reply in self._ordered_defender_moves():
            board.push(reply)
            outcome = board.outcome()
            if outcome is not None:
                board.pop()
                if outcome.winner == attacker:
                    continue
                return False
            held = not self.attacker_wins(k)
            board.pop()
            if held:
                return False
        return True

    def winning_moves(self, k: int) -> list[Move]:
        """Every legal move at the root that forces a win within ``k`` own moves."""
        board = self.board
        me = board.turn
        winners = []
        for move in self._ordered_attacker_moves():
            board.push(move)
            outcome = board.outcome()
            if outcome is not None:
                won = outcome.winner == me
            else:
                won = k > 1 and self.defender_loses(k - 1)
            board.pop()
            if won:
                winners.append(move)
        return winners


def _sorted(moves: Iterable[Move]) -> tuple[Move, ...]:
    return tuple(sorted(moves, key=str))


def solve(board: Board, max_moves: int) -> SolveResult:
    """The fastest forced win of the side to move within ``max_moves`` own moves.

    Iterative deepening: horizon 1, 2, … ``max_moves``; the first horizon at which some move
    wins is the distance, and every move winning at that horizon is returned.

    >>> board = Board("e1R4/7/7/7/7/7/7/7/4E2 w", rules="wango")
    >>> result = solve(board, 2)
    >>> print(result.distance, *result.move_names)
    1 c9d9
    """
    if max_moves < 1:
        raise ValueError("max_moves must be at least 1")
    if board.outcome() is not None:
        return SolveResult(None, (), max_moves, 0)
    solver = Solver(board, 2 * max_moves - 1)
    for k in range(1, max_moves + 1):
        if solver.attacker_wins(k):
            return SolveResult(k, _sorted(solver.winning_moves(k)), max_moves, solver.nodes)
    return SolveResult(None, (), max_moves, solver.nodes)


def defends(board: Board, max_moves: int) -> frozenset[Move]:
    """Moves of the side to move after which the opponent cannot force a win in ``max_moves``.

    A move that ends the game at once counts as safe unless it loses (it cannot); a move that
    leads to a draw is safe. The opponent's win is judged exactly as in :func:`solve`.
    """
    safe, _ = defends_counted(board, max_moves)
    return safe


def defends_counted(board: Board, max_moves: int) -> tuple[frozenset[Move], int]:
    """:func:`defends` and the number of positions it visited."""
    if max_moves < 1:
        raise ValueError("max_moves must be at least 1")
    if board.outcome() is not None:
        return frozenset(), 0
    solver = Solver(board, 2 * max_moves)
    work = solver.board
    me = work.turn
    safe = []
    for move in list(work.generate_legal_moves()):
        work.push(move)
        outcome = work.outcome()
        if outcome is not None:
            ok = outcome.winner != 1 - me
        else:
            ok = not solver.attacker_wins(max_moves)
        work.pop()
        if ok:
            safe.append(move)
    return frozenset(safe), solver.nodes


# --------------------------------------------------------------------------------------
# Reference implementation: the same questions answered by the plainest possible minimax,
# with no memo, no move ordering and no shortcut. Exponential; used to cross-check the solver.


def _reference_wins(board: Board, k: int) -> bool:
    """Side to move forces a win within ``k`` own moves (plain recursion)."""
    me = board.turn
    for move in list(board.generate_legal_moves()):
        board.push(move)
        try:
            outcome = board.outcome()
            if outcome is not None:
                if outcome.winner == me:
                    return True
            elif k > 1 and _reference_all_replies_lose(board, k - 1, me):
                return True
        finally:
            board.pop()
    return False


def _reference_all_replies_lose(board: Board, k: int, attacker: int) -> bool:
    for reply in list(board.generate_legal_moves()):
        board.push(reply)
        try:
            outcome = board.outcome()
            if outcome is not None:
                if outcome.winner != attacker:
                    return False
            elif not _reference_wins(board, k):
                return False
        finally:
            board.pop()
    return True


def reference_solve(board: Board, max_moves: int) -> tuple[int | None, tuple[str, ...]]:
    """(distance, winning first moves) by plain minimax; must equal :func:`solve`."""
    work = board.copy()
    if work.outcome() is not None:
        return None, ()
    me = work.turn
    for k in range(1, max_moves + 1):
        winners = []
        for move in list(work.generate_legal_moves()):
            work.push(move)
            outcome = work.outcome()
            if outcome is not None:
                won = outcome.winner == me
            else:
                won = k > 1 and _reference_all_replies_lose(work, k - 1, me)
            work.pop()
            if won:
                winners.append(str(move))
        if winners:
            return k, tuple(sorted(winners))
    return None, ()


def reference_defends(board: Board, max_moves: int) -> frozenset[str]:
    """The safe moves by plain minimax; must equal :func:`defends`."""
    work = board.copy()
    if work.outcome() is not None:
        return frozenset()
    me = work.turn
    safe = []
    for move in list(work.generate_legal_moves()):
        work.push(move)
        outcome = work.outcome()
        if outcome is not None:
            ok = outcome.winner != 1 - me
        else:
            ok = not _reference_wins(work, max_moves)
        work.pop()
        if ok:
            safe.append(str(move))
    return frozenset(safe)
