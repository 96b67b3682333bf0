"""The Tiger engine's public face: :class:`Searcher` (iterative deepening), which
:mod:`.shared_engines` (:func:`~.shared_engines.best_move`, :func:`~.shared_engines.analyse`,
:func:`~.shared_engines.analyse_lines`) keeps a pool of.

>>> from doushouqi.tiger.board import Board
>>> engine = Searcher("laohuqi", hash_mb=8)
>>> caged = Board("MTM/1M1/4M4/9/9/9/9/9/9/9/M8 m")  # the tiger on e11, hemmed in
>>> result = engine.search(caged, Limit(depth=3))
>>> str(result.move)[:2], result.info["score"]  # a waiting move keeps the cage shut
('a1', Score(mate=1))

The compiled search (:mod:`.search`) does one depth per call; this driver runs the
iterations, keeps the time (:mod:`.timeman`), applies the playing level (:mod:`.levels`) and
reports an :class:`~doushouqi.tiger.analysis.Info` after each finished depth. The search runs
with the GIL released, so :meth:`Searcher.stop` (from any thread) and the deadline timer act
at once. The shape is Jungle's driver's (games share no code), less what this game has not
yet: a second set of weights. A root the endgame tables cover (:mod:`.tablebase.root`) is
played from them when won or lost, at full strength.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from doushouqi.core.analysis import send_ranked_lines
from doushouqi.tiger.ai.core import Position, decode_move
from doushouqi.tiger.ai.eval_params import NUM_PARAMS, default_params, with_awareness
from doushouqi.tiger.ai.levels import LevelSettings, choose_root_move, settings_for
from doushouqi.tiger.ai.search import INFINITE, prepare_root, search_root
from doushouqi.tiger.ai.tablebase.root import keep_the_draw, tablebase_root_move
from doushouqi.tiger.ai.timeman import (
    Overhead,
    StopTimer,
    TimePlan,
    plan_time,
    searches_until_stopped,
)
from doushouqi.tiger.ai.ttable import WIN_BOUND, hashfull, new_tt
from doushouqi.tiger.ai.work import (
    C_ABORT,
    C_AGE,
    C_BEST_MOVE,
    C_BEST_SCORE,
    C_CONTEMPT,
    C_EXT_BUDGET,
    C_FUTILITY_MARGIN,
    C_LMR,
    C_NO_QUIESCENCE,
    C_NODE_LIMIT,
    C_NODES,
    C_NOISE,
    C_NOISE_SEED,
    C_NULL_FREEDOM,
    C_NULL_MOVE,
    C_QTRAPS,
    C_ROOT_COUNT,
    C_ROOT_PLY,
    C_SELDEPTH,
    C_STOP,
    MAX_PLY,
    W_EVAL_CACHE,
    W_HISTORY,
    W_KILLERS,
    W_PV,
    W_PV_LEN,
    W_ROOT_MOVES,
    W_ROOT_SCORES,
    new_work,
)
from doushouqi.tiger.analysis import WIN_SCORE, Info, Limit, PlayResult, Score
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.rules import RuleSet, rules_by_name
from doushouqi.tiger.tablebase.probe import tablebase_directories

__all__ = [
    "DEFAULT_TUNING",
    "MAX_DEPTH",
    "Searcher",
    "score_from_internal",
]

#: Deepest iteration (leaves room below MAX_PLY for extensions and quiescence).
MAX_DEPTH = MAX_PLY - 32
#: First aspiration half-window, centipawns.
ASPIRATION = 30

InfoCallback = Callable[[Info], None]

#: Search switches and margins; :attr:`Searcher.tuning` starts from these.
DEFAULT_TUNING = {
    "null_move": 1,
    # Null move only while every tiger has at least this much freedom: with less, having to
    # move is what loses (a trapped tiger is a zugzwang).
    "null_freedom": 3,
    "lmr": 1,
    "quiescence_traps": 2,  # quiescence plies that try the men's steps beside a tiger
    "futility_margin": 90,  # reverse futility, centipawns per ply
    "extension_percent": 50,  # cage-fight extensions per path, % of the depth (+1)
    # Centipawns a draw is worth less than an equal position, to the side to move at the
    # root: enough that a level does not settle for a repetition while it still has play.
    "contempt": 40,
    # A lead must be converted: the contempt grows by this % of the root's lead above 100 cp,
    # up to contempt_max.
    "contempt_gain": 50,
    "contempt_max": 500,
}
TUNING_RANGES = {
    "null_move": (0, 1),
    "null_freedom": (0, 99),
    "lmr": (0, 1),
    "quiescence_traps": (0, 64),
    "futility_margin": (0, 10**7),
    "extension_percent": (0, 200),
    "contempt": (-1000, 1000),
    "contempt_gain": (0, 100),
    "contempt_max": (0, 2000),
}
_TUNING_WORDS = {
    "null_move": C_NULL_MOVE,
    "null_freedom": C_NULL_FREEDOM,
    "lmr": C_LMR,
    "quiescence_traps": C_QTRAPS,
    "futility_margin": C_FUTILITY_MARGIN,
    "contempt": C_CONTEMPT,
}


def score_from_internal(value: int) -> Score:
    """A search score as centipawns, or as the side to move's moves to a win (``win N``) or
    a loss (``win -N``)."""
    if value > WIN_BOUND:
        return Score(mate=max(1, (WIN_SCORE - value + 1) // 2))
    if value < -WIN_BOUND:
        return Score(mate=-max(1, (WIN_SCORE + value) // 2))
    return Score(cp=int(value))


def _rules_of(rules: RuleSet | str) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else rules_by_name(rules)


class Searcher:
    """A 老虎棋 engine: one transposition table, one search at a time.

    ``rules`` is the rule set it expects (a board is always searched under its own rules;
    a new rule set clears the table). ``seed`` fixes the random choices of the weaker levels
    (level 10 is deterministic at a fixed depth).
    """

    def __init__(
        self,
        rules: RuleSet | str = "laohuqi",
        *,
        hash_mb: int = 64,
        params: NDArray[np.int64] | None = None,
        seed: int | None = None,
    ) -> None:
        self._rules = _rules_of(rules)
        self._hash_mb = hash_mb
        self._tt = new_tt(hash_mb)
        self._work = new_work()
        if params is None:
            params = default_params()
        if len(params) != NUM_PARAMS:  # compiled code reads by index, unchecked
            raise ValueError(f"expected {NUM_PARAMS} evaluation weights, got {len(params)}")
        self._params = np.array(params, dtype=np.int64)  # a private, contiguous copy
        #: The weights each awareness sees (weaker levels), made when first needed.
        self._by_awareness: dict[float, NDArray[np.int64]] = {1.0: self._params}
        self._in_use = self._params  # the weights of this search (and of the eval cache)
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._searching = False
        self._serial = 0
        #: What a timed search keeps back for stopping and answering (learnt, or fixed).
        self.overhead = Overhead()
        self._age = 0
        self._tt_rules: RuleSet | None = None
        #: Search switches and margins (see :data:`DEFAULT_TUNING`); for experiments.
        self.tuning: dict[str, int] = dict(DEFAULT_TUNING)
        #: Every level's node budget times this (1: as the levels say). For benchmarks that
        #: measure the ladder's steps in less time: the steps keep their ratios.
        self.node_scale = 1.0
        #: Whether a root the endgame tables cover is played from them (full strength only).
        self.use_tablebase = True
        #: Directories searched for tables before ``$DOUSHOUQI_TABLEBASES`` and the package's.
        self.tablebase_paths: list[str] = []

    # ---------------------------------------------------------------------- settings

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @rules.setter
    def rules(self, rules: RuleSet | str) -> None:
        self._rules = _rules_of(rules)

    @property
    def hash_mb(self) -> int:
        return self._hash_mb

    @hash_mb.setter
    def hash_mb(self, megabytes: int) -> None:
        with self._lock:
            self._hash_mb = megabytes
            self._tt = new_tt(megabytes)
            self._tt_rules = None

    @property
    def searching(self) -> bool:
        """Whether a search is running (its stop flag is armed)."""
        return self._searching

    def new_game(self) -> None:
        """Forget everything learnt (table, killers, history): the next position is unrelated."""
        with self._lock:
            self._tt.fill(0)
            self._work.fill(0)

    def stop(self) -> None:
        """Stop the running search soon (thread-safe); it returns its best move so far."""
        self._work[C_STOP] = 1

    def warm_up(self) -> None:
        """Load (or compile) all the compiled code with a small search."""
        self.search(Board(rules=self._rules), Limit(depth=3))
        self.new_game()

    # ------------------------------------------------------------------------ search

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        level: int = 10,
        on_info: InfoCallback | None = None,
        multipv: int = 1,
        root_moves: Sequence[Move] | None = None,
        since: float | None = None,
    ) -> PlayResult:
        """Search ``board`` (with its history) within ``limit`` at ``level`` (1-10).

        Returns the move to play and the last search info; ``move`` is None when the game is
        over (a side has won, or it is drawn by rule). With ``multipv`` N > 1, each finished
        depth also searches the 2nd … Nth best root moves (each with the better ones left
        out), and reports the depth's lines once they are all searched, best score first, as
        ``multipv`` 1 … N; the move played is the best line's.
        ``root_moves`` (UCI's ``searchmoves``) restricts the search to those of the root's
        moves; ValueError when none of them is legal. ``limit.mate`` N stops the search once
        it has proven a win in N own moves or fewer (and after the 2N - 1 plies such a win
        takes, when there is none). ``since`` is the ``time.perf_counter()`` the move's time
        began (the protocol's ``go`` read; default: now): the deadlines count from it.
        """
        settings = settings_for(level)
        with self._lock:
            self._work[C_STOP] = 0
            self._serial += 1
            self._searching = True
            try:
                return self._search(
                    board, limit, settings, on_info, max(1, int(multipv)), root_moves, since
                )
            finally:
                self._searching = False

    def _expire(self, serial: int) -> None:
        if self._serial == serial and self._searching:
            self._work[C_STOP] = 1

    def _search(
        self,
        board: Board,
        limit: Limit,
        settings: LevelSettings,
        on_info: InfoCallback | None,
        multipv: int,
        root_moves: Sequence[Move] | None = None,
        since: float | None = None,
    ) -> PlayResult:
        started = time.perf_counter() if since is None else since
        if board.outcome() is not None:
            return PlayResult(None, Info(string="game over"))
        directories = tablebase_directories(self.tablebase_paths)
        # Full strength only: the weaker levels' strength stays as measured.
        use_tables = self.use_tablebase and not settings.noise and not settings.exact_root
        if use_tables and multipv == 1 and not limit.infinite and root_moves is None:
            found = tablebase_root_move(board, directories)
            if found is not None:  # a covered root: the fastest win, the longest defence
                return found
        if board.rules != self._tt_rules:
            # Entries (moves, scores, evaluations) of another rule set mislead.
            self._tt.fill(0)
            self._work[W_EVAL_CACHE:] = 0
            self._tt_rules = board.rules
        position = Position.from_board(board)
        state, rules = position.state, position.compiled_rules
        work, tt = self._work, self._tt
        params = self._by_awareness.get(settings.awareness)
        if params is None:
            params = with_awareness(self._params, settings.awareness)
            self._by_awareness[settings.awareness] = params
        if params is not self._in_use:
            # Evaluations and table entries of other weights mislead.
            work[W_EVAL_CACHE:] = 0
            tt.fill(0)
            self._in_use = params

        plan = plan_time(limit, board.turn, overhead=self.overhead.seconds)
        plan = plan.scaled(settings.time_share)
        max_depth = min(d for d in (plan.depth, settings.max_depth, MAX_DEPTH) if d is not None)
        level_nodes = settings.max_nodes
        if level_nodes is not None:
            level_nodes = max(100, int(level_nodes * self.node_scale))
        node_caps = [n for n in (plan.nodes, level_nodes) if n is not None]
        self._age = (self._age + 1) & 0xFF
        work[C_ABORT] = 0
        work[C_NODES] = 0
        work[C_SELDEPTH] = 0
        work[C_NODE_LIMIT] = min(node_caps) if node_caps else 0
        work[C_ROOT_PLY] = position.ply
        work[C_AGE] = self._age
        work[C_NOISE] = settings.noise
        work[C_NOISE_SEED] = self._rng.getrandbits(62) if settings.noise else 0
        for key, word in _TUNING_WORDS.items():
            # Compiled code checks no bounds: keep every knob inside its range.
            low, high = TUNING_RANGES[key]
            work[word] = min(high, max(low, int(self.tuning[key])))
        work[C_NO_QUIESCENCE] = not settings.quiescence
        work[W_KILLERS:W_HISTORY] = 0
        work[W_HISTORY:W_PV] //= 4  # old history still hints, but less

        count = prepare_root(state, rules, tt, work)
        if count == 0:
            return PlayResult(None, Info(string="no legal move"))
        if root_moves is not None:
            count = self._restrict_root(count, root_moves)
        if count == 1 and plan.timed:
            max_depth = min(max_depth, 4)  # forced: answer at once, with a score

        serial = self._serial
        with StopTimer(plan.hard, started, lambda: self._expire(serial), self.overhead):
            best, info, scores = self._iterate(
                board, position, plan, settings, max_depth, started, on_info, multipv
            )
            if searches_until_stopped(limit, board.turn):
                # `go infinite`: the answer waits for `stop`, even after the last depth.
                while not work[C_STOP]:
                    time.sleep(0.002)
        elapsed = max(1e-6, time.perf_counter() - started)
        info = Info({**info, "nodes": int(work[C_NODES]), "time": elapsed})
        info["nps"] = int(info["nodes"] / elapsed)
        info["hashfull"] = hashfull(tt, self._age)
        if scores is not None and settings.exact_root:
            moves = [int(m) for m in work[W_ROOT_MOVES : W_ROOT_MOVES + count]]
            index = choose_root_move(scores, settings, self._rng)
            if moves[index] != best:
                # A weaker level's pick: its own exact score, and a line of its own.
                info["score"] = score_from_internal(scores[index])
            best = moves[index]
        move = decode_move(best)
        drawing = keep_the_draw(board, move, directories) if use_tables else None
        if drawing is not None:  # the search's move would lose a drawn ending
            move = drawing
        if not info.get("pv") or info["pv"][0] != move:
            info["pv"] = [move]
        return PlayResult(move, info)

    def _iterate(
        self,
        board: Board,
        position: Position,
        plan: TimePlan,
        settings: LevelSettings,
        max_depth: int,
        started: float,
        on_info: InfoCallback | None,
        multipv: int,
    ) -> tuple[int, Info, list[int] | None]:
        """The iterations; returns the best move, the last info and (levels that choose among
        moves) the exact root scores of the last finished depth."""
        state, history, rules = position.state, position.history, position.compiled_rules
        work, tt, params = self._work, self._tt, self._in_use
        count = int(work[C_ROOT_COUNT])
        best = int(work[W_ROOT_MOVES])
        info = Info(depth=0, score=Score(cp=0), nodes=0, pv=[decode_move(best)])
        scores: list[int] | None = None
        previous = 0
        base_contempt = int(work[C_CONTEMPT])
        gain = min(100, max(0, int(self.tuning.get("contempt_gain", 0))))
        most = min(2000, max(0, int(self.tuning.get("contempt_max", 0))))
        percent = min(200, max(0, int(self.tuning["extension_percent"])))
        for depth in range(1, max_depth + 1):
            # Contempt in proportion to the lead: the side ahead values a draw below it.
            lead = min(WIN_BOUND, previous) - 100
            work[C_CONTEMPT] = base_contempt + min(most, max(0, lead * gain // 100))
            work[C_EXT_BUDGET] = max(2, depth * percent // 100 + 1)
            exact = settings.exact_root
            if exact or depth < 4 or abs(previous) > WIN_BOUND:
                alpha, beta, delta = -INFINITE, INFINITE, INFINITE
            else:
                alpha, beta, delta = previous - ASPIRATION, previous + ASPIRATION, ASPIRATION
            while True:
                work[C_BEST_MOVE] = 0  # set again only by a root move that beats alpha
                score = int(search_root(state, history, rules, tt, work, params, depth,
                                        alpha, beta, exact))  # fmt: skip
                if work[C_ABORT] or alpha < score < beta:
                    break
                delta *= 3
                if delta > 1500:
                    alpha, beta = -INFINITE, INFINITE
                elif score <= alpha:
                    alpha = max(-INFINITE, score - delta)
                else:
                    beta = min(INFINITE, score + delta)
            if work[C_ABORT]:
                # A root move whose search finished above alpha in the interrupted call beat
                # every move searched before it at this depth: a real improvement.
                improved = int(work[C_BEST_MOVE])
                if improved not in (0, best) and depth > 1 and not exact:
                    best = improved
                    info = self._info(board, depth, int(work[C_BEST_SCORE]), started, best)
                break
            best = int(work[W_ROOT_MOVES])
            previous = score
            info = self._info(board, depth, score, started, best)
            if exact:
                scores = [int(s) for s in work[W_ROOT_SCORES : W_ROOT_SCORES + count]]
            if multipv > 1 and count > 1:
                # Sent once the depth's lines are all searched, best first, as GUIs read them;
                # the move played is the best line's (line 1 of the depth).
                lines = [(best, info)]
                lines += self._other_lines(board, position, depth, exact, started, multipv)
                best, info = send_ranked_lines(lines, on_info)
                if work[C_ABORT]:
                    break
            elif on_info is not None:
                on_info(Info({**info, "multipv": 1}) if multipv > 1 else info)
            if self._done(plan, depth, score, started):
                break
        return best, info, scores

    def _restrict_root(self, count: int, root_moves: Sequence[Move]) -> int:
        """Keep only ``root_moves`` among the ``count`` root moves (in their static order);
        returns how many are left (ValueError when none)."""
        # Compared as library moves: encoding a move that is no move of the board (a pass, an
        # impossible jump) could fail or give another move's code.
        wanted = set(root_moves)
        work = self._work
        kept = [
            int(code)
            for code in work[W_ROOT_MOVES : W_ROOT_MOVES + count]
            if decode_move(int(code)) in wanted
        ]
        if not kept:
            moves = ", ".join(str(move) for move in root_moves) or "none"
            raise ValueError(f"no legal move among the root moves given ({moves})")
        work[W_ROOT_MOVES : W_ROOT_MOVES + len(kept)] = kept
        work[C_ROOT_COUNT] = len(kept)
        return len(kept)

    def _other_lines(
        self,
        board: Board,
        position: Position,
        depth: int,
        exact: bool,
        started: float,
        multipv: int,
    ) -> list[tuple[int, Info]]:
        """MultiPV lines 2 … ``multipv`` at ``depth`` (each with its move's code), as many as
        finished before the search was stopped: each a full-window search of the root moves not
        yet reported. The root list is put back as it was."""
        state, history, rules = position.state, position.history, position.compiled_rules
        work, tt, params = self._work, self._tt, self._in_use
        count = int(work[C_ROOT_COUNT])
        moves = work[W_ROOT_MOVES : W_ROOT_MOVES + count].copy()
        root_scores = work[W_ROOT_SCORES : W_ROOT_SCORES + count].copy()
        shown = [int(moves[0])]
        lines: list[tuple[int, Info]] = []
        try:
            for _ in range(2, min(multipv, count) + 1):
                rest = [int(m) for m in moves if int(m) not in shown]
                work[W_ROOT_MOVES : W_ROOT_MOVES + len(rest)] = rest
                work[C_ROOT_COUNT] = len(rest)
                work[C_BEST_MOVE] = 0
                score = int(search_root(state, history, rules, tt, work, params, depth,
                                        -INFINITE, INFINITE, exact))  # fmt: skip
                if work[C_ABORT]:
                    break  # (the lines finished before it stand)
                move = int(work[W_ROOT_MOVES])
                shown.append(move)
                lines.append((move, self._info(board, depth, score, started, move)))
        finally:
            work[C_ROOT_COUNT] = count
            work[W_ROOT_MOVES : W_ROOT_MOVES + count] = moves
            work[W_ROOT_SCORES : W_ROOT_SCORES + count] = root_scores
        return lines

    def _done(self, plan: TimePlan, depth: int, score: int, started: float) -> bool:
        """Whether to stop after a finished depth."""
        if plan.mate is not None and score > WIN_BOUND:
            moves = score_from_internal(score).moves
            if moves is not None and moves <= plan.mate:
                return True  # `go mate N`: a win in N own moves or fewer is proven
        if abs(score) > WIN_BOUND and plan.timed and depth >= WIN_SCORE - abs(score) + 4:
            return True  # a proven result: more depth only finds a faster win
        if plan.soft is None or plan.hard is None:
            return False
        elapsed = time.perf_counter() - started
        if plan.soft < plan.hard:
            return elapsed > 0.55 * plan.soft  # a clock: the next depth would end too late
        return elapsed >= plan.hard

    def _info(self, board: Board, depth: int, score: int, started: float, best: int) -> Info:
        work = self._work
        elapsed = max(1e-6, time.perf_counter() - started)
        nodes = int(work[C_NODES])
        length = int(work[W_PV_LEN])
        codes = [int(m) for m in work[W_PV : W_PV + length]]
        if not codes or codes[0] != best:
            codes = [best]
        pv: list[Move] = []
        check = board.copy()
        for code in codes:
            move = decode_move(code)
            if check.outcome() is not None or not check.is_legal(move):
                break
            pv.append(move)
            check.push(move)
        return Info(
            depth=depth,
            seldepth=max(depth, int(work[C_SELDEPTH])),
            score=score_from_internal(score),
            nodes=nodes,
            nps=int(nodes / elapsed),
            time=elapsed,
            pv=pv or [decode_move(best)],
        )
