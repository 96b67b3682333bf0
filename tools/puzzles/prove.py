"""Find and prove puzzles: a position where exactly one move (and one at every later step)
wins by force, or where exactly one move does not lose.

Built on the exhaustive AND/OR solver of ``tools/tactics/solver.py`` (no heuristics: every
defence is searched). Two kinds of puzzle:

* **win** — the side to move (the solver, "player") forces a win (den entry, annihilation,
  opponent left without a move) in N own moves, N minimal (N ≤ :data:`WIN_HORIZON`, or
  :data:`JUMP_WIN_HORIZON` for the jump skeletons), and exactly ONE first move does it
  within N. The opponent then plays its best defence (the reply after which the win takes the
  longest; among those, one after which the player's next winning move is again unique), and
  so on: at every step of the line the player has exactly one move that wins within the moves
  left. The line is ``2N - 1`` plies.
* **defence** — the player has no forced win within :data:`WIN_HORIZON`, the opponent
  threatens to force a win within T own moves after every legal move but ONE (and after at
  least :data:`MIN_LOSING` of them). The line is that one move. T is the smallest threat of
  :data:`DEFENCE_THREATS` (1 or 2) that only one move meets, or, for the jump-blocking
  skeletons, of :data:`JUMP_DEFENCE_THREATS` (up to 4: a jump to the den is 4 moves).

Every puzzle carries a stored proof that makes re-verification fast (:func:`verify` with
``full=False``): for each of the player's wrong moves at each step, the reply that refutes it
(so that only one reply needs checking, not every one), and the horizon of each step. The
full check (:func:`verify` with ``full=True``) re-runs the solver from scratch, ignoring the
stored proof, and must find the same unique moves.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from load_tool import load_tool

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.squares import (
    DENS,
    ELEPHANT,
    JUMPS,
    LION,
    RAT,
    STEPS,
    TIGER,
    TRAPS,
    WATER,
    code_animal,
    code_color,
)

solver = load_tool("tactics", "solver")
tactics = load_tool("tactics", "generate")

#: Longest forced win searched for (own moves); den in 3 = a 5-ply line.
WIN_HORIZON = 3
#: Threats (opponent's own moves) a defence puzzle may defend against.
DEFENCE_THREATS = (1, 2)
#: The same for ``--motifs jump``: a lion's or tiger's jump lands 3 steps from the den it
#: attacks (c7, e7, d6 from d9; c3, e3, d4 from d1), so a den threat through a jump takes 4 of
#: the opponent's moves, and a rat's move into the lane that meets it is a defence against 4.
JUMP_DEFENCE_THREATS = (1, 2, 3, 4)
#: And the longest win asked there: the jump and 3 steps to the den.
JUMP_WIN_HORIZON = 4
#: A defence puzzle needs at least this many losing moves besides the one that holds.
MIN_LOSING = 4
#: A puzzle with at most this many animals on the board is an endgame.
ENDGAME_ANIMALS = 6
THEMES = ("den_attack", "capture", "traps", "rat_elephant", "jump_blocking", "defence", "endgame")


def position_fen(board: Board) -> str:
    """Placement and side to move only: a puzzle starts with no history."""
    return " ".join(board.fen().split()[:2])


# ----------------------------------------------------------------------------- searching


class Prover:
    """Proof searches on one root (one solver, its memo shared by every question)."""

    def __init__(self, board: Board, horizon_plies: int) -> None:
        self.search = solver.Solver(board, horizon_plies)
        self.board = self.search.board  # the solver's own board: push/pop on it

    def wins_within(self, k: int) -> bool:
        """The side to move forces a win within ``k`` own moves (the game is not over)."""
        return bool(k >= 1 and self.search.attacker_wins(k))

    def distance(self, k_max: int) -> int | None:
        for k in range(1, k_max + 1):
            if self.wins_within(k):
                return k
        return None

    def winners(self, k: int) -> list[Move]:
        return list(self.search.winning_moves(k))

    def refutation(self, move: Move, k: int) -> str:
        """For a player's move that does not win within ``k``: a reply after which the player
        cannot win within ``k - 1`` ("=" when the move ends the game without a win)."""
        board = self.board
        me = board.turn
        board.push(move)
        try:
            outcome = board.outcome()
            if outcome is not None:
                assert outcome.winner != me
                return "="
            for reply in self.search._ordered_defender_moves():
                board.push(reply)
                try:
                    outcome = board.outcome()
                    if outcome is not None:
                        if outcome.winner != me:
                            return str(reply)
                        continue
                    if not self.wins_within(k - 1):
                        return str(reply)
                finally:
                    board.pop()
        finally:
            board.pop()
        raise AssertionError(f"{move} wins within {k}: no refutation")

    def best_defence(self, k: int) -> tuple[Move, Move] | None:
        """Opponent to move, losing within ``k`` player moves: the reply that delays the loss
        most after which the player's win is again unique, with that winning move."""
        board = self.board
        options: list[tuple[int, str, Move, Move]] = []
        for reply in board.generate_legal_moves():
            board.push(reply)
            try:
                if board.outcome() is not None:
                    continue  # a reply that loses at once is no defence
                distance = self.distance(k)
                assert distance is not None, "every reply must lose"
                moves = self.winners(distance)
                if len(moves) == 1:
                    options.append((-distance, str(reply), reply, moves[0]))
                else:
                    options.append((-distance, str(reply), reply, Move(0, 0)))
            finally:
                board.pop()
        if not options:
            return None
        options.sort(key=lambda t: (t[0], t[1]))
        longest = options[0][0]
        for minus_distance, _, reply, answer in options:
            if minus_distance != longest:
                break
            if answer != Move(0, 0):
                return reply, answer
        return None


# ------------------------------------------------------------------------------- finding


def find_win(
    board: Board, horizon: int = WIN_HORIZON, prover: Prover | None = None
) -> dict[str, Any] | None:
    """A win puzzle from ``board`` (no history), or None."""
    if board.outcome() is not None:
        return None
    prover = prover or Prover(board, 2 * horizon)
    n = prover.distance(horizon)
    if n is None:
        return None
    first = prover.winners(n)
    if len(first) != 1:
        return None
    work = prover.board
    line: list[str] = []
    steps: list[dict[str, Any]] = []
    move = first[0]
    pushed = 0
    try:
        for k in range(n, 0, -1):
            refutations = {}
            for alt in list(work.generate_legal_moves()):
                if alt != move:
                    refutations[str(alt)] = prover.refutation(alt, k)
            steps.append({"k": k, "refute": refutations})
            line.append(str(move))
            work.push(move)
            pushed += 1
            if k == 1:
                outcome = work.outcome()
                assert outcome is not None and outcome.winner == 1 - work.turn
                break
            found = prover.best_defence(k - 1)
            if found is None:
                return None
            reply, move = found
            line.append(str(reply))
            work.push(reply)
            pushed += 1
    finally:
        for _ in range(pushed):
            work.pop()
    return {
        "kind": "win",
        "depth": n,
        "line": line,
        "proof": {"steps": steps, "nodes": prover.search.nodes},
    }


def find_defence(board: Board, threats: tuple[int, ...] = DEFENCE_THREATS) -> dict[str, Any] | None:
    """A defence puzzle from ``board`` (no history), or None: the smallest of ``threats`` that
    only one move meets."""
    if board.outcome() is not None:
        return None
    legal = list(board.generate_legal_moves())
    for threat in threats:
        prover = Prover(board, 2 * threat + 1)
        work = prover.board
        safe: list[Move] = []
        refute: dict[str, str] = {}
        for move in legal:
            work.push(move)
            try:
                if work.outcome() is None and prover.wins_within(threat):
                    refute[str(move)] = str(prover.winners(threat)[0])
                else:
                    safe.append(move)  # (a move that ends the game never loses)
            finally:
                work.pop()
            if len(safe) > 1:
                break  # two moves hold against this threat: maybe not against a longer one
        if not safe:
            return None  # lost whatever the player does
        if len(safe) == 1:
            if len(refute) < MIN_LOSING:
                return None
            return {
                "kind": "defence",
                "depth": threat,
                "line": [str(safe[0])],
                "proof": {"steps": [{"k": threat, "refute": refute}], "nodes": prover.search.nodes},
            }
    return None


def find_puzzle(
    board: Board, threats: tuple[int, ...] = DEFENCE_THREATS, horizon: int = WIN_HORIZON
) -> dict[str, Any] | None:
    """A win puzzle if the side to move wins by force within ``horizon`` own moves, else a
    defence puzzle (against one of ``threats``), else None."""
    if board.outcome() is not None:
        return None
    prover = Prover(board, 2 * horizon)
    if prover.distance(horizon) is not None:
        return find_win(board, horizon, prover)  # None when the win is not unique
    return find_defence(board, threats)


# -------------------------------------------------------------------------------- themes


def _capture_on_trap(board: Board, move: Move) -> bool:
    if not board.is_capture(move):
        return False
    trap_mask = TRAPS[0] | TRAPS[1]
    return bool(trap_mask >> move.to_square & 1) or tactics._capture_needs_trap(board, move)


def _rat_elephant(board: Board, move: Move) -> bool:
    codes = board.piece_codes()
    code, victim = codes[move.from_square], codes[move.to_square]
    if code_animal(code) == RAT and victim and code_animal(victim) == ELEPHANT:
        return True
    if code_animal(code) == ELEPHANT and victim and code_animal(victim) == RAT:
        return True  # an elephant taking a rat in a trap
    if code_animal(code) != RAT:
        return False
    if (WATER >> move.from_square & 1) == (WATER >> move.to_square & 1):
        return False
    enemy = 1 - board.turn
    for square in (move.from_square, move.to_square):
        for neighbour in range(63):
            other = codes[neighbour]
            near = STEPS[square] >> neighbour & 1 and other
            if near and code_color(other) == enemy and code_animal(other) == ELEPHANT:
                return True
    return False


def _jumps(board: Board) -> set[tuple[int, int]]:
    """The legal lion/tiger jumps (:meth:`Board.is_jump`) of the side to move."""
    codes = board.piece_codes()
    return {
        (m.from_square, m.to_square)
        for m in board.generate_legal_moves()
        if board.is_jump(m) and code_animal(codes[m.from_square]) in (LION, TIGER)
    }


#: How many of the opponent's moves a blocked jump must win in to matter: the longest defence
#: threat asked (a den threat through a jump is 4 moves: see JUMP_DEFENCE_THREATS).
JUMP_THREAT = max(JUMP_DEFENCE_THREATS)


def _blocks_jump(board: Board, move: Move, later: list[str]) -> bool:
    """Jump blocking: the player's rat moves into, out of or along the water and so

    * takes away an enemy lion's or tiger's jump that would win for the opponent (with the
      player passing instead, that jump is one of the opponent's fastest forced wins within
      :data:`JUMP_THREAT` moves) or would take an animal the player moves on with later in the line,
      or
    * opens a jump for its own lion or tiger that the player then makes (in ``later``, the
      rest of the line from the opponent's reply on).

    Jumps and their blocking are the rules library's (legal moves, :meth:`Board.is_jump`)."""
    codes = board.piece_codes()
    if code_animal(codes[move.from_square]) != RAT:
        return False
    if not (WATER >> move.from_square & 1 or WATER >> move.to_square & 1):
        return False
    work = board.copy(stack=False)
    mine_before = _jumps(work)
    work.push_pass()
    enemy_before = _jumps(work)
    work.pop()
    work.push(move)
    if work.outcome() is not None:
        return False  # the rat's move ends the game: no jump in it
    enemy_after = _jumps(work)
    work.push_pass()
    mine_after = _jumps(work)
    freed = {f"{Move(a, b)}" for a, b in mine_after - mine_before}
    if freed & set(later[1::2]):
        return True
    blocked = enemy_before - enemy_after
    if not blocked:
        return False
    # the blocked jump would have taken an animal the player moves on with later in the line
    movers = {Move.from_str(text).from_square for text in later[1::2]}
    if any(b in movers and codes[b] for _, b in blocked):
        return True
    work = board.copy(stack=False)
    work.push_pass()
    wins = set(solver.solve(work, JUMP_THREAT).move_names)
    return any(str(Move(a, b)) in wins for a, b in blocked)


def _beats_block(board: Board, move: Move, k: int) -> bool:
    """Jump blocking the other way round: the player's lion or tiger jumps across water that
    an enemy rat could swim into on its next move, and the jump must come now: were the player
    to pass instead and that rat to block the jump, the player would no longer force a win
    within ``k`` own moves (the jump's and those after it). The rat comes too late."""
    codes = board.piece_codes()
    if not board.is_jump(move) or code_animal(codes[move.from_square]) not in (LION, TIGER):
        return False
    water = next(path for landing, path in JUMPS[move.from_square] if landing == move.to_square)
    work = board.copy(stack=False)
    work.push_pass()
    for block in list(work.generate_legal_moves()):
        if code_animal(codes[block.from_square]) != RAT or not water >> block.to_square & 1:
            continue
        work.push(block)
        try:
            if work.outcome() is None and not solver.solve(work, k).wins:
                return True
        finally:
            work.pop()
    return False


def themes_of(fen: str, rules: str, kind: str, line: list[str]) -> list[str]:
    """The themes a puzzle shows, read from its solution line."""
    board = Board(fen, rules)
    found: set[str] = set()
    if kind == "defence":
        found.add("defence")
    animals = board.occupied_co[0].bit_count() + board.occupied_co[1].bit_count()
    if animals <= ENDGAME_ANIMALS:
        found.add("endgame")
    for ply, text in enumerate(line):
        move = Move.from_str(text)
        if ply % 2 == 0:  # the player's moves
            if ply == 0 and board.is_capture(move):
                found.add("capture")
            if _capture_on_trap(board, move):
                found.add("traps")
            if _rat_elephant(board, move):
                found.add("rat_elephant")
            if _blocks_jump(board, move, line[ply + 1 :]):
                found.add("jump_blocking")
            if kind == "win" and _beats_block(board, move, (len(line) + 1 - ply) // 2):
                found.add("jump_blocking")
            if kind == "win" and ply == len(line) - 1 and move.to_square == DENS[1 - board.turn]:
                found.add("den_attack")
        board.push(move)
    return [t for t in THEMES if t in found]


# ------------------------------------------------------------------------------ verifying


class VerifyError(AssertionError):
    pass


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise VerifyError(message)


def verify(puzzle: dict[str, Any], *, full: bool = False) -> None:
    """Re-prove ``puzzle`` (raises :class:`VerifyError`). ``full``: from scratch with the
    solver, ignoring the stored proof; otherwise with the stored refutations."""
    board = Board(puzzle["fen"], puzzle["rules"])
    _check(board.outcome() is None, "the game is over")
    if puzzle["kind"] == "win":
        _verify_win(board, puzzle, full)
    elif puzzle["kind"] == "defence":
        _verify_defence(board, puzzle, full)
    else:
        raise VerifyError(f"unknown kind {puzzle['kind']!r}")


def _legal(board: Board, text: str) -> Move:
    move = Move.from_str(text)
    _check(move in list(board.generate_legal_moves()), f"{text} is not legal")
    return move


def _verify_win(board: Board, puzzle: dict[str, Any], full: bool) -> None:
    line: list[str] = puzzle["line"]
    n: int = puzzle["depth"]
    _check(len(line) == 2 * n - 1, "the line's length does not match its depth")
    prover = Prover(board, 2 * n)
    work = prover.board
    steps = puzzle["proof"]["steps"]
    _check(len(steps) == n, "one proof step per player move")
    if full:
        _check(prover.distance(n - 1) is None if n > 1 else True, "a faster win exists")
    for index, k in enumerate(range(n, 0, -1)):
        move = _legal(work, line[2 * index])
        if full:
            winners = prover.winners(k)
            _check(winners == [move], f"step {index}: winners {winners}, not only {move}")
        else:
            refute: dict[str, str] = steps[index]["refute"]
            _check(steps[index]["k"] == k, "the stored horizon")
            alternatives = {str(m) for m in work.generate_legal_moves()} - {str(move)}
            _check(set(refute) == alternatives, f"step {index}: not every wrong move refuted")
            for alt, reply in refute.items():
                _check_refuted(prover, Move.from_str(alt), reply, k)
            # the right move wins within k: every reply loses within k - 1
            work.push(move)
            outcome = work.outcome()
            if outcome is None:
                _check(k > 1 and prover.search.defender_loses(k - 1), f"step {index}: no win")
            else:
                _check(outcome.winner == 1 - work.turn, f"step {index}: not a win")
            work.pop()
        work.push(move)
        if k == 1:
            outcome = work.outcome()
            _check(outcome is not None and outcome.winner == 1 - work.turn, "the line wins")
            return
        defence = _legal(work, line[2 * index + 1])
        work.push(defence)
        _check(work.outcome() is None, "the reply ends the game")
        _check(prover.distance(k - 1) == k - 1, f"step {index}: the reply is not the best defence")


def _check_refuted(prover: Prover, alt: Move, reply: str, k: int) -> None:
    """``alt`` does not win within ``k``: refuted by ``reply`` (or it draws: "=")."""
    work = prover.board
    me = work.turn
    work.push(alt)
    try:
        outcome = work.outcome()
        if reply == "=":
            _check(outcome is not None and outcome.winner != me, f"{alt}: no draw")
            return
        _check(outcome is None, f"{alt} ends the game")
        answer = _legal(work, reply)
        work.push(answer)
        try:
            outcome = work.outcome()
            if outcome is not None:
                _check(outcome.winner != me, f"{alt} {reply}: the player wins")
            else:
                _check(not prover.wins_within(k - 1), f"{alt} {reply}: still a win")
        finally:
            work.pop()
    finally:
        work.pop()


def _verify_defence(board: Board, puzzle: dict[str, Any], full: bool) -> None:
    threat: int = puzzle["depth"]
    line: list[str] = puzzle["line"]
    _check(len(line) == 1, "a defence is one move")
    prover = Prover(board, 2 * threat + 1)
    work = prover.board
    safe = _legal(work, line[0])
    if full:
        ok = solver.defends(board, threat)
        _check(ok == frozenset([safe]), f"safe moves {sorted(map(str, ok))}, not only {safe}")
    else:
        refute: dict[str, str] = puzzle["proof"]["steps"][0]["refute"]
        alternatives = {str(m) for m in work.generate_legal_moves()} - {str(safe)}
        _check(set(refute) == alternatives, "not every losing move refuted")
        for alt, winner in refute.items():
            work.push(Move.from_str(alt))
            try:
                _check(work.outcome() is None, f"{alt} ends the game")
                answer = _legal(work, winner)
                work.push(answer)
                try:
                    outcome = work.outcome()
                    if outcome is not None:
                        _check(outcome.winner == 1 - work.turn, f"{alt}: no loss")
                    else:
                        _check(threat > 1 and prover.search.defender_loses(threat - 1), alt)
                finally:
                    work.pop()
            finally:
                work.pop()
        work.push(safe)
        try:
            outcome = work.outcome()
            if outcome is None:
                _check(not prover.wins_within(threat), f"{safe} loses")
        finally:
            work.pop()
    _check(len(puzzle["proof"]["steps"][0]["refute"]) >= MIN_LOSING, "too few losing moves")
