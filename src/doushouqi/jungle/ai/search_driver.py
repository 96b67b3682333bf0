"""The engine's public face: :class:`Searcher`, the iterative deepening driver (the shared
engines of :func:`~.shared_engines.best_move` and its kin are searchers too).

>>> from doushouqi.jungle.board import Board
>>> engine = Searcher("wango", hash_mb=8)
>>> result = engine.search(Board("7/3W3/r6/7/7/7/7/7/7 w"), Limit(depth=3))
>>> str(result.move), result.info["score"]
('d8d9', Score(mate=1))

The compiled search (:mod:`.search`) does one depth per call; this driver runs the
iterations, keeps the time (:mod:`.timeman`), applies the playing level (:mod:`.levels`) and
reports an :class:`~doushouqi.jungle.analysis.Info` after each finished depth. The search runs with
the GIL released, so :meth:`Searcher.stop` (from any thread) and the deadline timer act at once.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from doushouqi.core.analysis import send_ranked_lines
from doushouqi.jungle.ai.core import Position
from doushouqi.jungle.ai.eval_params import (
    NUM_PARAMS,
    P_MATERIAL,
    P_PST,
    P_PST_LEAD,
    default_params,
)
from doushouqi.jungle.ai.levels import LevelSettings, choose_root_move, settings_for
from doushouqi.jungle.ai.search import INFINITE, prepare_root, root_lead, search_root
from doushouqi.jungle.ai.tablebase.memory import loaded_tables, most_animals
from doushouqi.jungle.ai.tablebase.root import keep_the_draw, tablebase_root_move
from doushouqi.jungle.ai.tables import RULE_RANK
from doushouqi.jungle.ai.tbprobe import empty_tables
from doushouqi.jungle.ai.timeman import (
    Overhead,
    StopTimer,
    TimePlan,
    plan_time,
    searches_until_stopped,
    stops_early,
)
from doushouqi.jungle.ai.ttable import DEN_BOUND, new_tt
from doushouqi.jungle.ai.tuning import (
    DEFAULT_TUNING,
    TUNING_PARAMS,
    TUNING_RANGES,
    TUNING_WORDS,
)
from doushouqi.jungle.ai.work import (
    C_ABORT,
    C_AGE,
    C_BEST_MOVE,
    C_BEST_SCORE,
    C_CONTEMPT,
    C_DANGER_GUARDS,
    C_DANGER_MOVES,
    C_DANGER_SIDE,
    C_EXT_BUDGET,
    C_NO_QUIESCENCE,
    C_NODE_LIMIT,
    C_NODES,
    C_NOISE,
    C_NOISE_SEED,
    C_REPEAT_FROM,
    C_ROOT_COUNT,
    C_ROOT_PLY,
    C_SELDEPTH,
    C_STOP,
    C_TBHITS,
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
from doushouqi.jungle.analysis import DEN_SCORE, Info, Limit, PlayResult, Score
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.jungle.tablebase.probe import family_of, probe, tablebase_directories

__all__ = [
    "DEFAULT_TUNING",
    "EVALUATIONS",
    "MAX_DEPTH",
    "Searcher",
    "score_from_internal",
]

#: Deepest iteration (leaves room below MAX_PLY for extensions and quiescence).
MAX_DEPTH = MAX_PLY - 32
#: First aspiration half-window, centipawns.
ASPIRATION = 30
#: The easy stop (``easy_stop``, :func:`~doushouqi.core.time_plan.stops_early`): the
#: centipawns a score may fall from one depth to the next and still stop early (more: the
#: search is finding trouble, and goes on).
EASY_FALL = 20
#: The search probes the endgame tables when its root has at most this many animals more than
#: the largest table (captures can bring it there); the tables are loaded on the first such
#: search. Beyond, it searches without them (loading them would cost memory for nothing).
TABLEBASE_REACH = 4
#: The arrays that cover nothing (no tables, or tables off).
NO_TABLES = empty_tables()

InfoCallback = Callable[[Info], None]

#: The static evaluations a :class:`Searcher` can search with (:attr:`Searcher.evaluation`):
#: each level's own (``auto``: the learned network at level 10, :attr:`.LevelSettings.network`),
#: the hand-tuned terms (:mod:`.evaluate`), or the learned network (:mod:`.nnue`) at every level.
EVALUATIONS = ("auto", "classic", "nnue")


def score_from_internal(value: int) -> Score:
    """A search score as centipawns, or as moves to a den win (``den N``) / loss (``den -N``)."""
    if value > DEN_BOUND:
        return Score(mate=max(1, (DEN_SCORE - value + 1) // 2))
    if value < -DEN_BOUND:
        return Score(mate=-max(1, (DEN_SCORE + value) // 2))
    return Score(cp=int(value))


def _contempt_by_lead(lead: int, gain: int, behind_gain: int, most: int) -> int:
    """What the root's ``lead`` (:func:`~.search.root_lead`) adds to the contempt:
    ``gain`` % of the lead beyond 100 cp, or, behind, ``behind_gain`` % of the deficit beyond
    100 cp taken off; at most ``most`` either way (a won or lost score counts as the largest
    centipawn score).

    >>> _contempt_by_lead(700, 50, 50, 500), _contempt_by_lead(-700, 50, 50, 500)
    (300, -300)
    >>> _contempt_by_lead(90, 50, 50, 500), _contempt_by_lead(-5000, 50, 0, 500)
    (0, 0)
    """
    excess = min(DEN_BOUND, abs(lead)) - 100
    if excess <= 0:
        return 0
    if lead > 0:
        return min(most, excess * gain // 100)
    return -min(most, excess * behind_gain // 100)


def _animals(board: Board) -> int:
    return sum(1 for code in board.piece_codes() if code)


def _decode(move: int) -> Move:
    return Move(int(move) & 63, int(move) >> 6)


class Searcher:
    """A Jungle engine: one transposition table, one search at a time.

    ``rules`` is the rule set of the positions it will be given (changing it clears the
    table); a board searched under other rules is searched under its own rules. ``seed`` fixes
    the random choices of the weaker levels (level 10 is deterministic at a fixed depth).
    """

    def __init__(
        self,
        rules: RuleSet | str = "wango",
        *,
        hash_mb: int = 64,
        params: NDArray[np.int64] | None = None,
        seed: int | None = None,
    ) -> None:
        self._rules = find_rules(rules)
        self._hash_mb = hash_mb
        self._tt = new_tt(hash_mb)
        self._work = new_work()
        # Weights given are what the caller wants searched (tuning, experiments): the network
        # would replace them at level 10.
        self._evaluation = "classic" if params is not None else "auto"
        if params is None:
            params = default_params()
        if len(params) != NUM_PARAMS:  # compiled code reads by index, unchecked
            raise ValueError(f"expected {NUM_PARAMS} evaluation weights, got {len(params)}")
        self._params = np.array(params, dtype=np.int64)  # a private, contiguous copy
        # The same weights with the lead tables as piece-square tables (see _weights_for).
        self._lead_params = self._params.copy()
        self._lead_params[P_PST : P_PST + 9 * 63] = self._params[P_PST_LEAD : P_PST_LEAD + 9 * 63]
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
        #: Use the endgame tables: play a won or lost root they cover from them (full
        #: strength), and score the positions they cover inside the search exactly.
        self.use_tablebase = True
        #: Directories searched for tables before ``$DOUSHOUQI_TABLEBASES`` and the package's.
        self.tablebase_paths: list[str] = []
        self._tb = NO_TABLES
        self._network_file = ""
        #: The weights with the network appended (:func:`.nnue.with_network`), once loaded:
        #: after the tuned tables, and after the lead tables (``tuning["network_lead"]``).
        self._networks: tuple[NDArray[np.int64], NDArray[np.int64]] | None = None

    # ---------------------------------------------------------------------- settings

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @rules.setter
    def rules(self, rules: RuleSet | str) -> None:
        self._rules = find_rules(rules)

    @property
    def hash_mb(self) -> int:
        return self._hash_mb

    @hash_mb.setter
    def hash_mb(self, megabytes: int) -> None:
        with self._lock:
            self._hash_mb = megabytes
            self._tt = new_tt(megabytes)

    @property
    def evaluation(self) -> str:
        """The static evaluation searched with: ``"auto"`` (the default, unless the searcher
        was given its weights: each level's own, :attr:`.LevelSettings.network`),
        ``"classic"`` (the hand-tuned terms) or ``"nnue"`` (the network of
        :attr:`network_file`). Setting ``"auto"`` or ``"nnue"`` loads the network
        (:class:`~.nnue.NetworkFileError` for a bad file); anything else is a ValueError."""
        return self._evaluation

    @evaluation.setter
    def evaluation(self, name: str) -> None:
        if name not in EVALUATIONS:
            raise ValueError(f"evaluation must be one of {', '.join(EVALUATIONS)}, not {name!r}")
        if name != "classic":
            self._network()
        self._evaluation = name

    def _network(self, lead: bool = False) -> NDArray[np.int64]:
        """The weights with the network of :attr:`network_file` appended (loaded once), after
        the tuned tables or (``lead``) the lead tables."""
        if self._networks is None:
            from doushouqi.jungle.ai.nnue import DEFAULT_NETWORK, load_network, with_network

            block = load_network(self._network_file or DEFAULT_NETWORK)
            self._networks = (
                with_network(self._params, block),
                with_network(self._lead_params, block),
            )
        return self._networks[int(lead)]

    @property
    def network_file(self) -> str:
        """The network's weight file for the learned evaluation (``nnue``, and ``auto`` at
        level 10; empty: the shipped one, :data:`.nnue.DEFAULT_NETWORK`); setting it loads
        the file at once unless the evaluation is ``classic``, else on the next switch."""
        return self._network_file

    @network_file.setter
    def network_file(self, path: str) -> None:
        if path == self._network_file:
            return
        previous = self._network_file, self._networks
        self._network_file, self._networks = path, None
        if self._evaluation != "classic":
            try:
                self._network()
            except ValueError:
                self._network_file, self._networks = previous
                raise

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
        """Compile (or load from numba's cache) all the compiled code with a small search."""
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
        whole_time: bool = False,
        full_time: float | None = None,
    ) -> PlayResult:
        """Search ``board`` (with its history) within ``limit`` at ``level`` (1-10).

        Returns the move to play and the last search info; ``move`` is None when the game is
        over (den entered, no animals, no legal move, or drawn by rule). With ``multipv`` N >
        1, each finished depth also searches the 2nd … Nth best root moves (each with the
        better ones left out, full window), and reports the depth's lines once they are all
        searched, best score first, as ``multipv`` 1 … N; the move played is the best line's.
        ``root_moves`` (UCI's ``searchmoves``) restricts the search to those of the root's
        moves (the tables then play no root move: they would choose among all); ValueError
        when none of them is legal. ``limit.mate`` N stops the search once it has proven a win
        in N own moves or fewer. ``since`` is the ``time.perf_counter()`` the move's time began
        (the protocol's ``go`` read; default: now): the deadlines count from it. A timed
        search at level 10 may end before its time once its best move stands (the
        ``easy_stop`` knob); ``whole_time`` (analysis: its depth is what it is for), or
        ``multipv`` above 1, uses every second of it. ``full_time``: the move time the search
        would have had but for its caller's load (a busy server gives each search less than
        it asked for): the easy stop then counts its share of that, so the search ends early
        where one given all of it would have, and otherwise runs to its shorter deadline —
        the load costs depth only to the searches that needed more time than they got.
        """
        settings = settings_for(level)
        with self._lock:
            self._work[C_STOP] = 0
            self._serial += 1
            self._searching = True
            try:
                multipv = max(1, int(multipv))
                whole = whole_time or multipv > 1
                return self._search(
                    board, limit, settings, on_info, multipv, root_moves, since, whole, full_time
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
        multipv: int = 1,
        root_moves: Sequence[Move] | None = None,
        since: float | None = None,
        whole_time: bool = False,
        full_time: float | None = None,
    ) -> PlayResult:
        started = time.perf_counter() if since is None else since
        position = Position.from_board(board)
        if position.is_game_over_on_board() or position.is_draw_by_rule():
            return PlayResult(None, Info(string="game over"))
        directories = self._tablebase_directories()
        restricted = root_moves is not None
        if (
            self.use_tablebase
            and multipv == 1
            and not limit.infinite
            and not settings.noise
            and not restricted
        ):
            found = None if settings.exact_root else tablebase_root_move(board, directories)
            if found is not None:  # a covered root: the fastest win, the longest defence
                return found
        if board.rules != self._tt_rules:
            # Entries (moves, scores, evaluations) of another rule set mislead.
            self._tt.fill(0)
            self._work[W_EVAL_CACHE:] = 0
            self._tt_rules = board.rules
        state, history, rules = position.state, position.history, position.compiled_rules
        self._apply_weight_knobs()
        params = self._weights_for(board, position)
        if self._evaluation == "nnue" or (self._evaluation == "auto" and settings.network):
            lead = params is self._lead_params and self._knob("network_lead") > 0
            params = self._network(lead)
        if params is not self._in_use:
            self._work[W_EVAL_CACHE:] = 0  # evaluations by the other weights
            self._in_use = params
        work, tt = self._work, self._tt

        plan = plan_time(limit, position.turn, overhead=self.overhead.seconds)
        plan = plan.scaled(settings.time_share)
        easy = 0 if whole_time else self._easy_stop(plan, settings)
        # What the easy stop measures the time used against: the full move time, where the
        # caller's load gave this search less.
        easy_plan = plan
        if easy and limit.movetime is not None and (full_time or 0.0) > limit.movetime:
            full = Limit(movetime=full_time)
            easy_plan = plan_time(full, position.turn, overhead=self.overhead.seconds)
            easy_plan = easy_plan.scaled(settings.time_share)
        # Full strength only, as at the root: the weaker levels' strength stays as measured.
        use_tables = not settings.noise
        self._tb = (
            self._search_tables(board, directories, wait=not plan.timed)
            if use_tables
            else NO_TABLES
        )
        max_depth = min(d for d in (plan.depth, settings.max_depth, MAX_DEPTH) if d is not None)
        node_caps = [n for n in (plan.nodes, settings.max_nodes) if n is not None]
        self._age = (self._age + 1) & 0xFF
        work[C_ABORT] = 0
        work[C_NODES] = 0
        work[C_TBHITS] = 0
        work[C_SELDEPTH] = 0
        work[C_NODE_LIMIT] = min(node_caps) if node_caps else 0
        work[C_ROOT_PLY] = position.ply
        work[C_REPEAT_FROM] = position.ply
        work[C_AGE] = self._age
        work[C_NOISE] = settings.noise
        work[C_NOISE_SEED] = self._rng.getrandbits(62) if settings.noise else 0
        for key, word in TUNING_WORDS.items():
            # Compiled code checks no bounds: keep every knob inside what it indexes.
            work[word] = self._knob(key)
        work[C_NO_QUIESCENCE] = not settings.quiescence
        work[C_DANGER_SIDE] = 0  # both sides' nodes (danger_lead may narrow it)
        work[W_KILLERS:W_HISTORY] = 0
        work[W_HISTORY : W_HISTORY + 8192] //= 4  # old history still hints, but less

        count = prepare_root(state, history, rules, tt, work, params)
        if count == 0:
            return PlayResult(None, Info(string="no legal move"))
        if root_moves is not None:
            count = self._restrict_root(count, root_moves)
        if count == 1 and plan.timed:
            max_depth = min(max_depth, 4)  # forced: answer at once, with a score

        serial = self._serial
        with StopTimer(plan.hard, started, lambda: self._expire(serial), self.overhead):
            best, info, scores = self._iterate(
                board,
                position,
                plan,
                settings,
                max_depth,
                started,
                on_info,
                multipv,
                easy,
                easy_plan,
            )
            if searches_until_stopped(limit, position.turn):
                # `go infinite`: the answer waits for `stop`, even after the last depth.
                while not work[C_STOP]:
                    time.sleep(0.002)
        # The answer's info: the last finished depth, with the whole search's nodes and time.
        elapsed = max(1e-6, time.perf_counter() - started)
        info = Info(
            {**info, "nodes": int(work[C_NODES]), "time": elapsed, "tbhits": int(work[C_TBHITS])}
        )
        info["nps"] = int(info["nodes"] / elapsed)
        if scores is not None and settings.exact_root:
            moves = [int(m) for m in work[W_ROOT_MOVES : W_ROOT_MOVES + count]]
            index = choose_root_move(scores, settings, self._rng)
            if moves[index] != best:
                # A weaker level's pick: its own exact score, and a line of its own.
                info["score"] = score_from_internal(scores[index])
            best = moves[index]
        move = _decode(best)
        if self.use_tablebase and not settings.noise and not settings.exact_root and not restricted:
            drawing = keep_the_draw(board, move, directories)  # a covered draw: never lose it
            if drawing is not None:
                move, info["score"], info["pv"] = drawing, Score(cp=0), [drawing]
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
        multipv: int = 1,
        easy: int = 0,
        easy_plan: TimePlan | None = None,
    ) -> tuple[int, Info, list[int] | None]:
        """The iterations; returns the best move, the last info and (levels that choose among
        moves) the exact root scores of the last finished depth. ``easy``: the easy stop's
        percent (0: none), of the time of ``easy_plan`` (default: ``plan``)."""
        easy_plan = easy_plan or plan
        state, history, rules = position.state, position.history, position.compiled_rules
        work, tt, params = self._work, self._tt, self._in_use
        count = int(work[C_ROOT_COUNT])
        best = int(work[W_ROOT_MOVES])
        info = Info(depth=0, score=Score(cp=0), nodes=0, pv=[_decode(best)])
        scores: list[int] | None = None
        previous = 0
        base_contempt = int(work[C_CONTEMPT])
        gain = self._knob("contempt_gain")
        behind_gain = self._knob("contempt_behind_gain")
        most = self._knob("contempt_max")
        twofold = self._knob("twofold_lead")
        danger_lead = self._knob("danger_lead")
        if gain or behind_gain or twofold or danger_lead:
            # Contempt in proportion to the lead: the side ahead values a draw below it, the
            # side behind above it; the same at every depth (the table keeps draw scores).
            lead = int(root_lead(state, history, rules, work, params, *self._tb))
            work[C_CONTEMPT] = base_contempt + _contempt_by_lead(lead, gain, behind_gain, most)
            if twofold and lead >= twofold:
                work[C_REPEAT_FROM] = 0  # every earlier position of the game, not just the tree's
            if danger_lead and lead >= danger_lead and work[C_DANGER_MOVES] == 0:
                # Well ahead: the danger rule's guard test, the search deeper where a runner
                # near a den meets a guard in time (docs/engine-research.md, conversion's
                # third round).
                work[C_DANGER_MOVES] = 2
                work[C_DANGER_GUARDS] = 1
                if self._knob("danger_lead_side"):  # at the side ahead's nodes only
                    work[C_DANGER_SIDE] = position.turn + 1
        stood = 0  # finished depths the best move has stood for
        for depth in range(1, max_depth + 1):
            # Den-check extensions per path: enough for den fights, bounded so depths finish.
            percent = self._knob("extension_percent")
            work[C_EXT_BUDGET] = max(2, depth * percent // 100 + 1)
            exact = settings.exact_root
            if exact or depth < 4 or abs(previous) > DEN_BOUND:
                alpha, beta, delta = -INFINITE, INFINITE, INFINITE
            else:
                alpha, beta, delta = previous - ASPIRATION, previous + ASPIRATION, ASPIRATION
            while True:
                # Set again only by a root move that beats alpha in this very call.
                work[C_BEST_MOVE] = 0
                score = int(search_root(state, history, rules, tt, work, params, *self._tb, depth,
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
            stood = stood + 1 if int(work[W_ROOT_MOVES]) == best else 1
            falling = depth > 1 and score < previous - EASY_FALL
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
            if easy and not falling and stops_early(self._used(easy_plan, started), easy, stood):
                break
        return best, info, scores

    def _easy_stop(self, plan: TimePlan, settings: LevelSettings) -> int:
        """The ``easy_stop`` percent for a search of ``plan``: full strength only (a level's
        noise and choice among moves are its strength, as measured), timed searches only
        unless ``easy_stop_nodes`` (``go nodes N`` searches its N nodes); 0: none."""
        if settings.noise or settings.exact_root:
            return 0
        if plan.soft is None and not (plan.nodes and self._knob("easy_stop_nodes")):
            return 0
        return self._knob("easy_stop")

    def _used(self, plan: TimePlan, started: float) -> float:
        """The share of its budget a search has used: its time (to the soft deadline), or its
        nodes where ``easy_stop_nodes`` counts them, whichever is more."""
        used = 0.0
        if plan.soft is not None:
            used = (time.perf_counter() - started) / max(plan.soft, 1e-6)
        limit = int(self._work[C_NODE_LIMIT])
        if limit and self._knob("easy_stop_nodes"):
            used = max(used, int(self._work[C_NODES]) / limit)
        return used

    def _restrict_root(self, count: int, root_moves: Sequence[Move]) -> int:
        """Keep only ``root_moves`` among the ``count`` root moves (in their order); returns
        how many are left."""
        wanted = {move.from_square | (move.to_square << 6) for move in root_moves}
        work = self._work
        kept = [int(m) for m in work[W_ROOT_MOVES : W_ROOT_MOVES + count] if int(m) in wanted]
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
        yet reported. The root list is put back as it was, so the next depth
        searches as without MultiPV."""
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
                score = int(search_root(state, history, rules, tt, work, params, *self._tb, depth,
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

    def _knob(self, key: str) -> int:
        """A knob of :attr:`tuning`, held inside its :data:`TUNING_RANGES` (compiled code
        checks no bounds; a knob set out of range acts as its nearest end)."""
        low, high = TUNING_RANGES[key]
        return min(high, max(low, int(self.tuning[key])))

    def _apply_weight_knobs(self) -> None:
        """Write the knobs that are evaluation weights (:data:`TUNING_PARAMS`: the home
        guard) into every weight set this searcher uses; one that changed clears the
        evaluation cache, whose scores were made with the old value."""
        changed = False
        for key, index in TUNING_PARAMS.items():
            value = self._knob(key)
            for weights in (self._params, self._lead_params, *(self._networks or ())):
                if int(weights[index]) != value:
                    weights[index] = value
                    changed = True
        if changed:
            self._work[W_EVAL_CACHE:] = 0

    def _weights_for(self, board: Board, position: Position) -> NDArray[np.int64]:
        """The lead tables' weights when the side to move is ahead in material by
        ``tuning["lead_tables"]`` or more with at most ``tuning["lead_animals"]`` animals on
        the board, else the engine's weights. Chosen at the root, so that every evaluation of
        one search uses the same tables; the side behind keeps the tuned ones (they defend
        better: docs/engine-research.md)."""
        threshold = self._knob("lead_tables")
        if threshold <= 0 or _animals(board) > self._knob("lead_animals"):
            return self._params
        rules, turn = position.compiled_rules, position.turn
        lead = 0
        for code in board.piece_codes():  # 8 * colour + animal (1-8), 0 for an empty square
            if code:
                value = int(self._params[P_MATERIAL + rules[RULE_RANK + code]])
                lead += value if (code - 1) >> 3 == turn else -value
        return self._lead_params if lead >= threshold else self._params

    def _tablebase_directories(self) -> list[Path]:
        return tablebase_directories(self.tablebase_paths)

    def _search_tables(
        self, board: Board, directories: list[Path], *, wait: bool
    ) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
        """The tables the search of ``board`` probes (:mod:`.tbprobe` arrays): those of its
        rule family, when it has one and the root has few enough animals to reach them
        (:data:`TABLEBASE_REACH`) and is not a draw they cover; else arrays that cover
        nothing. The first such search of
        the process loads them (at once from the decoded cache file, if there is one; a
        timed search that would have to decode them goes on without, while a thread does)."""
        family = family_of(board.rules)
        if not self.use_tablebase or family is None:
            return NO_TABLES
        most = most_animals(directories, family)
        if most == 0 or _animals(board) > most + TABLEBASE_REACH:
            return NO_TABLES
        root = probe(board, directories)
        if root is not None and root.wdl == 0:
            # A drawn root the tables cover is searched without them, as the root's rule
            # says: among the drawing moves the search picks the one that sets the opponent
            # the most problems (every one would score the same draw from the tables), and
            # `keep_the_draw` keeps it from a losing one.
            return NO_TABLES
        tables = loaded_tables(directories, family, wait=wait)
        if tables is None:
            return NO_TABLES
        return tables.values, tables.meta

    def _done(self, plan: TimePlan, depth: int, score: int, started: float) -> bool:
        """Whether to stop after a finished depth."""
        if plan.mate is not None and score > DEN_BOUND:
            den = score_from_internal(score).moves
            if den is not None and den <= plan.mate:
                return True  # `go mate N`: a win in N own moves or fewer is proven
        if abs(score) > DEN_BOUND and plan.timed:
            # A proven result: more depth can only find a faster den, rarely worth the time.
            plies = DEN_SCORE - abs(score)
            if depth >= plies + 4:
                return True
        if plan.soft is None or plan.hard is None:
            return False
        elapsed = time.perf_counter() - started
        if plan.soft < plan.hard:
            # Clock: the next depth would likely end past the soft deadline.
            return elapsed > 0.55 * plan.soft
        return elapsed >= plan.hard

    def _info(self, board: Board, depth: int, score: int, started: float, best: int) -> Info:
        work = self._work
        elapsed = max(1e-6, time.perf_counter() - started)
        nodes = int(work[C_NODES])
        length = int(work[W_PV_LEN])
        moves = [int(m) for m in work[W_PV : W_PV + length]]
        if not moves or moves[0] != best:
            moves = [best]
        pv: list[Move] = []
        check = board.copy()
        for code in moves:
            move = _decode(code)
            if not check.is_legal(move):
                break
            pv.append(move)
            check.push(move)
        return Info(
            depth=depth,
            seldepth=max(depth, int(work[C_SELDEPTH])),
            score=score_from_internal(score),
            nodes=nodes,
            nps=int(nodes / elapsed),
            tbhits=int(work[C_TBHITS]),
            time=elapsed,
            pv=pv or [_decode(best)],
        )
