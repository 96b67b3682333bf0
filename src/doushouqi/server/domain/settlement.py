"""The scoring step: ladder points (docs/rules.md 5.4) and Glicko-2 ratings for a finished game.

Choices where the rules are silent (see also :mod:`doushouqi.core.scoring`):

* Same-screen games score nothing: both seats are one person's.
* Aborted games score nothing, for anyone.
* Only accounts keep a score: a guest's change is reported as 0 (the AI's already is).
* Rounds count real moves only; a timeout pass is not a move (docs/rules.md 2).
* Ratings change only in rated online games between two accounts, and not in a game the
  10-round rule voids (the same anti-farming reason; tournaments are again the exception).
  A draw of any kind counts as a draw for the ratings; leaving counts as a loss.
"""

from __future__ import annotations

from doushouqi.core.rating import rate_game
from doushouqi.core.scoring import Ending, GameResult, ScoreChange, rounds_from_plies, score_changes
from doushouqi.jungle.outcome import Termination
from doushouqi.server.domain.model import Game, Mode, RatingChange

__all__ = ["ENDINGS", "settle_scores"]

#: How each termination counts for scoring (ABORTED is absent: it never scores).
ENDINGS: dict[Termination, Ending] = {
    Termination.DEN_ENTERED: Ending.NORMAL,
    Termination.ALL_CAPTURED: Ending.NORMAL,
    Termination.NO_LEGAL_MOVES: Ending.NORMAL,
    Termination.MOVE_RESTRICTIONS: Ending.NORMAL,
    Termination.REPETITION: Ending.DRAW_OTHER,
    Termination.NO_CAPTURE_LIMIT: Ending.DRAW_OTHER,
    Termination.RESIGNATION: Ending.RESIGNATION,
    Termination.DRAW_AGREED: Ending.DRAW_AGREED,
    Termination.TIME_FORFEIT: Ending.TIME,
    Termination.TIMEOUTS: Ending.TIME,
    Termination.ABANDONMENT: Ending.ABANDONMENT,
}


def settle_scores(game: Game) -> tuple[ScoreChange | None, RatingChange | None]:
    """The score and rating changes of ``game``, whose ``outcome`` is set (None: no change)."""
    outcome = game.outcome
    red, blue = game.players
    if (
        outcome is None
        or outcome.termination not in ENDINGS
        or game.mode is Mode.SAME_SCREEN
        or red is None
        or blue is None
    ):
        return None, None
    players = (red, blue)
    result = GameResult(
        winner=outcome.winner,
        ending=ENDINGS[outcome.termination],
        rounds=rounds_from_plies(game.real_move_count),
        scores=(red.score, blue.score),
        tournament=game.tournament,
        ai_levels=(red.ai_level, blue.ai_level),
    )
    raw = score_changes(result)
    deltas = tuple(d if p.is_account else 0 for d, p in zip(raw.deltas, players, strict=True))
    scores = ScoreChange(
        deltas=(deltas[0], deltas[1]),
        new_scores=(red.score + deltas[0], blue.score + deltas[1]),
        voided=raw.voided,
    )
    ratings = None
    rated = game.rated and game.mode is Mode.ONLINE and red.is_account and blue.is_account
    if rated and not raw.voided:
        score_red = 0.5 if outcome.winner is None else float(outcome.winner == 0)
        after = rate_game(red.rating, blue.rating, score_red)
        ratings = RatingChange(before=(red.rating, blue.rating), after=after)
    return scores, ratings
