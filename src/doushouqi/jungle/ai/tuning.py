"""The search's knobs: their defaults, their ranges and where the compiled search reads them.

:attr:`Searcher.tuning <doushouqi.jungle.ai.search_driver.Searcher.tuning>` starts from
:data:`DEFAULT_TUNING`; each run of the search copies the knobs into its control array, each
clamped to its range (compiled code checks no bounds). Each value's effect is measured in
docs/engine-research.md.
"""

from __future__ import annotations

from doushouqi.jungle.ai.eval_params import P_HOME_GUARD, P_HOME_MARGIN
from doushouqi.jungle.ai.work import (
    C_CONTEMPT,
    C_DANGER_GUARDS,
    C_DANGER_MOVES,
    C_DANGER_RADIUS,
    C_FUTILITY_MARGIN,
    C_IIR,
    C_LMP,
    C_LMR,
    C_LMR_IN_DANGER,
    C_LMR_PERCENT,
    C_NULL_MOVE,
    C_PROGRESS_PLIES,
    C_QCHECKS,
    C_QSEE,
    C_QUIET_FUTILITY,
    C_STAGED_DEPTH,
)

__all__ = ["DEFAULT_TUNING", "TUNING_PARAMS", "TUNING_RANGES", "TUNING_WORDS"]

#: Search switches and margins; :attr:`Searcher.tuning` starts from these.
DEFAULT_TUNING = {
    "null_move": 1,
    "lmr": 1,
    "quiescence_threats": 2,  # quiescence plies that try den threats
    "futility_margin": 90,  # reverse futility, centipawns per ply
    "danger_radius": 3,  # no pruning with an enemy this close to our den
    "extension_percent": 50,  # den-check extensions per path, % of the depth (+1)
    # Centipawns a draw is worth less than an equal position, to us: enough that a level does
    # not settle for a repetition while it still has play (measured in bench/ladder.py).
    "contempt": 50,
    # A lead must be converted: the contempt grows by this % of the root's lead (its
    # quiescence score, search.root_lead) above 100 cp, up to contempt_max, so the side ahead
    # avoids repetitions and the no-capture limit in proportion to what it would give away.
    "contempt_gain": 50,
    "contempt_max": 500,
    # And the side behind seeks them: the contempt falls by this % of the root's deficit
    # beyond 100 cp (down to -contempt_max), so that a draw is worth more than its position
    # to the side behind and the opponent, ahead, is expected to avoid it (0: the side behind
    # keeps the plain contempt).
    "contempt_behind_gain": 50,
    # The root side ahead by this much (its root lead) counts a return to any position of the
    # game since the last capture as a draw, not only the third occurrence: once a position has
    # stood twice, the side behind can often force the third, and a shallow search that lets a
    # position come back sees that only when no way out is left (issue 31; 0: off).
    "twofold_lead": 200,
    # Without a no-capture limit in the rules, evaluations fade by half over this many plies
    # without a capture (with one, over the limit): progress beats shuffling (0: off).
    "progress_plies": 120,
    # The side to move ahead in material by this many centipawns, with at most lead_animals
    # animals on the board, searches with the lead piece-square tables (smooth, toward the
    # enemy den) in place of the tuned ones, whose ridges hold a winning side's animals where
    # they stand (0: never). In fuller middlegames they cost strength (docs/engine-research.md).
    "lead_tables": 300,
    "lead_animals": 10,
    # With the learned network (a correction added to the hand-tuned terms): 1, its base is
    # the lead tables wherever the hand-tuned evaluation would use them; 0, the tuned tables.
    "network_lead": 0,
    # Issue 31's second search round, each measured in docs/engine-research.md ("Search,
    # second round"); 0 = off. Non-PV nodes at depth <= 3 with no enemy near our den:
    # late move pruning skips the quiet moves after the first lmp + depth² of them;
    # quiet_futility skips every quiet move after the first when the static evaluation plus
    # this many centipawns per ply (depth <= 2) does not reach alpha.
    "lmp": 0,
    "quiet_futility": 0,
    # Internal iterative reduction: a node at depth >= 4 with no table move searches one
    # ply less (1 = on): +15 ± 14 Elo over 1,200 games, the conversion suite level.
    "iir": 1,
    # Quiescence skips a capture by a more valuable animal that the opponent can take back
    # at once (1 = on).
    "qsearch_see": 0,
    # Late move reductions' size, % of the log x log table's (100: as measured before).
    "lmr_percent": 100,
    # Late move reductions also with an enemy near our den (never in den check; 1 = on).
    "lmr_in_danger": 0,
    # Issue 31's third round ("Search, third round: the danger rule"). With danger_moves N > 0
    # a node is in danger (no pruning, as above) when an enemy animal can stand on one of our
    # traps within N of its own moves on an empty board (the rat swims, lion and tiger jump
    # the lakes: evaluate.RUN_STEPS), in place of danger_radius's Manhattan distance to the
    # den; with danger_guards 1 only when no animal of ours can stand on that trap or next to
    # it by then (we are to move: within as many moves as the runner needs), with 2 when
    # fewer of ours can than there are runners within N moves of that trap. 0: off.
    "danger_moves": 0,
    "danger_guards": 0,
    # Issue 31's third speed round: a node up to this depth searches a legal table move before
    # it generates its other moves, which it then need not generate when that move cuts off
    # (0: never). The same tree at any value (the ordering is the one the list would have had);
    # deeper nodes would gain nothing and overflow the history's journal (work.py).
    "staged_depth": 4,
    # Conversion's third round (issue 31): the home guard. The side ahead in material by
    # press_lead (300 cp) or more counts a den race as lost home_margin moves earlier than on
    # an empty board (a guard that arrives just in time is none against a runner that a deeper
    # search steers past it), and each lost race costs it home_guard % more at a lead of
    # 1000 cp (scaled by the lead below that). Evaluation weights (eval_params' P_HOME_*) the
    # Searcher sets from these; both 0: the evaluation, and the search, as before.
    "home_guard": 0,
    "home_margin": 0,
    # The root side ahead by this much (its root lead, search.root_lead) searches with the
    # danger rule's guard test (danger_moves=2, danger_guards=1, where neither is set): far
    # fewer nodes near the dens, so the side ahead sees the den races deeper (0: off).
    "danger_lead": 0,
    # 1: danger_lead's guard test at the side ahead's nodes only (its own den), the full rule
    # at the opponent's (whose den the side ahead attacks); 0: at both sides' nodes.
    "danger_lead_side": 0,
    # Time management (issue 31): a timed full-strength search (no noise, no choice among
    # moves) whose best move has stood for 3 finished depths, its score not falling, stops once
    # it has used this % of its time, sooner as the move keeps standing (core.time_plan's
    # stops_early): the depths it skips rarely change the move. 0: the whole time, always.
    # easy_stop_nodes 1: node budgets too (for fixed-node measurements; `go nodes N` otherwise
    # searches its N nodes).
    "easy_stop": 50,
    "easy_stop_nodes": 0,
}
TUNING_RANGES = {
    "null_move": (0, 1),
    "lmr": (0, 1),
    "quiescence_threats": (0, 64),
    "futility_margin": (0, 10**7),
    "danger_radius": (0, 7),  # rows of search.DANGER_ZONE
    "extension_percent": (0, 200),
    "contempt": (-1000, 1000),
    "contempt_gain": (0, 100),
    "contempt_max": (0, 2000),
    "contempt_behind_gain": (0, 100),
    "twofold_lead": (0, 100000),
    "progress_plies": (0, 10000),
    "lead_tables": (0, 100000),
    "lead_animals": (2, 16),
    "network_lead": (0, 1),
    "lmp": (0, 64),
    "quiet_futility": (0, 10**5),
    "iir": (0, 1),
    "qsearch_see": (0, 1),
    "lmr_percent": (0, 400),
    "lmr_in_danger": (0, 1),
    "danger_moves": (0, 7),  # rows of search.RUNNER_ZONE
    "danger_guards": (0, 2),
    "staged_depth": (0, 64),
    "home_guard": (0, 1000),
    "home_margin": (0, 3),
    "danger_lead": (0, 100000),
    "danger_lead_side": (0, 1),
    "easy_stop": (0, 100),
    "easy_stop_nodes": (0, 1),
}
#: The knobs that are evaluation weights: the Searcher writes each into its weights (at the
#: index given), not into the control array, and clears the evaluation cache when one changes.
TUNING_PARAMS = {"home_guard": P_HOME_GUARD, "home_margin": P_HOME_MARGIN}
#: Each knob's word in the search's control array (``work.py``), which compiled code reads.
TUNING_WORDS = {
    "null_move": C_NULL_MOVE,
    "lmr": C_LMR,
    "quiescence_threats": C_QCHECKS,
    "futility_margin": C_FUTILITY_MARGIN,
    "danger_radius": C_DANGER_RADIUS,
    "contempt": C_CONTEMPT,
    "progress_plies": C_PROGRESS_PLIES,
    "lmp": C_LMP,
    "quiet_futility": C_QUIET_FUTILITY,
    "iir": C_IIR,
    "qsearch_see": C_QSEE,
    "lmr_percent": C_LMR_PERCENT,
    "lmr_in_danger": C_LMR_IN_DANGER,
    "danger_moves": C_DANGER_MOVES,
    "danger_guards": C_DANGER_GUARDS,
    "staged_depth": C_STAGED_DEPTH,
}
