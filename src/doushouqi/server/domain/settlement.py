"""The scoring step: ladder points (docs/rules.md 5.4) and Glicko-2 ratings for a finished game.

Choices where the rules are silent (see also :mod:`doushouqi.core.scoring`):

* Same-screen games score nothing: both seats are one person's.
* Aborted games score nothing, for anyone.
* Only accounts keep a score: a guest's change is reported as 0 (the AI's already is).
* Rounds count real moves only; a timeout pass is not a move (docs/rules.md 2).
* Ratings change only in rated online games between two accounts, at the game's speed (one
  rating per speed, ``doushouqi.core.speed``; a rated game always has a clock), and not in a
  game the 10-round rule voids (the same anti-farming reason; tournaments are again the exception).
  A draw of any kind counts as a draw for the ratings; leaving counts as a loss.
"""

from __future__ import annotations

from doushouqi.core.outcome import Outcome, PlatformEnding
from doushouqi.core.rating import rate_game
from doushouqi.core.scoring import Ending, GameResult, ScoreChange, rounds_from_plies, score_changes
from doushouqi.server.domain.model import Game, Mode, RatingChange

__all__ = ["ENDINGS", "scoring_ending", "settle_scores"]

#: How each platform ending counts for scoring (ABORTED is absent: it never scores).
ENDINGS: dict[PlatformEnding, Ending] = {
    PlatformEnding.RESIGNATION: Ending.RESIGNATION,
    PlatformEnding.DRAW_AGREED: Ending.DRAW_AGREED,
    PlatformEnding.TIME_FORFEIT: Ending.TIME,
    PlatformEnding.TIMEOUTS: Ending.TIME,
    PlatformEnding.ABANDONMENT: Ending.ABANDONMENT,
}


def scoring_ending(outcome: Outcome) -> Ending | None:
    """How ``outcome`` counts for scoring; None: it does not count (an aborted game).

    The game's own board endings are not listed: whatever the game calls them, one with a
    winner is a normal decided ending (Jungle's den entry, 老虎棋's trapped tiger) and one
    without is a draw by rule (repetition, the no-capture limit), so a new game scores
    without a line here.

    >>> from doushouqi.core.outcome import BoardEnding
    >>> scoring_ending(Outcome(BoardEnding("den_entered"), 1)), scoring_ending(
    ...     Outcome(BoardEnding("repetition"), None))
    (<Ending.NORMAL: 'normal'>, <Ending.DRAW_OTHER: 'draw_other'>)
    """
    if isinstance(outcome.ending, PlatformEnding):
        return ENDINGS.get(outcome.ending)
    return Ending.NORMAL if outcome.winner is not None else Ending.DRAW_OTHER


def settle_scores(game: Game) -> tuple[ScoreChange | None, RatingChange | None]:
    """The score and rating changes of ``game``, whose ``outcome`` is set (None: no change)."""
    outcome = game.outcome
    ending = None if outcome is None else scoring_ending(outcome)
    red, blue = game.players
    if (
        outcome is None
        or ending is None
        or game.mode is Mode.SAME_SCREEN
        or red is None
        or blue is None
    ):
        return None, None
    players = (red, blue)
    result = GameResult(
        winner=outcome.winner,
        ending=ending,
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
    rated = rated and game.speed is not None
    if rated and not raw.voided:
        score_red = 0.5 if outcome.winner is None else float(outcome.winner == 0)
        after = rate_game(red.rating, blue.rating, score_red)
        ratings = RatingChange(before=(red.rating, blue.rating), after=after)
    return scores, ratings
