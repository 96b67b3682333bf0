"""The scoring step on finish (docs/rules.md 5.4): ladder points, the 10-round rule and its
tournament exception, draws, the leaving penalty, the AI and guests, and Glicko-2 ratings."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from tests.support.helpers import (
    BLUE_ID,
    OWNER,
    RAPID,
    RED_ID,
    T0,
    ai_game,
    ok,
    online_game,
    play,
    quiet_moves,
    red_player,
    same_screen_game,
    started,
)

from doushouqi.core.outcome import BoardEnding, PlatformEnding
from doushouqi.core.rating import Rating, rate_game
from doushouqi.core.scoring import ScoreChange
from doushouqi.server.domain import (
    Abort,
    AcceptDraw,
    AiPlayer,
    Disconnected,
    GameFinished,
    GameSpec,
    Guest,
    Join,
    Mode,
    OfferDraw,
    PlayerSlot,
    Resign,
    Tick,
    new_game,
    rematch_spec,
)

ELEVEN_ROUNDS = quiet_moves(21)  # 21 moves: the 11th round has begun
TEN_ROUNDS = ELEVEN_ROUNDS[:20]


def _finished(events: Sequence[object]) -> GameFinished:
    assert isinstance(events[-1], GameFinished)
    return events[-1]


def test_the_winner_gains_by_level_and_the_loser_loses_two() -> None:
    game, now = play(online_game(scores=(130, 60)), ELEVEN_ROUNDS)
    game, events = ok(game, Resign(actor=BLUE_ID), now + 1)
    # Red stands at level 3 (130), Blue at level 2 (60): 4 - 1 = 3 points.
    expected = ScoreChange(deltas=(3, -2), new_scores=(133, 58), voided=False)
    assert game.score_change == _finished(events).score_change == expected
    assert game.rating_change is None  # not rated


def test_a_game_within_ten_rounds_scores_nothing() -> None:
    game, now = play(online_game(rated=True, time_control=RAPID), TEN_ROUNDS)
    game, _ = ok(game, Resign(actor=BLUE_ID), now + 1)
    assert game.score_change == ScoreChange(deltas=(0, 0), new_scores=(0, 0), voided=True)
    assert game.rating_change is None


def test_tournament_games_score_however_short() -> None:
    game, now = play(online_game(tournament=True), ["a3a4"])
    game, _ = ok(game, Resign(actor=BLUE_ID), now + 1)
    assert game.score_change == ScoreChange(deltas=(4, -2), new_scores=(4, -2), voided=False)


def test_timeout_passes_are_not_rounds() -> None:
    game = online_game(time_control="/10s")
    game, _ = ok(game, Tick(), T0 + 10)  # a pass: Blue to move
    moves = quiet_moves(20, fen=game.fen)
    game, now = play(game, moves)
    assert len(game.moves) == 21
    game, _ = ok(game, Resign(actor=BLUE_ID), now + 1)
    assert game.score_change is not None and game.score_change.voided


@pytest.mark.parametrize("ending", ["agreed", "repetition"])
def test_draws_change_nothing(ending: str) -> None:
    game, now = play(online_game(rated=True, time_control=RAPID, scores=(100, 100)), ELEVEN_ROUNDS)
    if ending == "agreed":
        game, _ = ok(game, OfferDraw(actor=BLUE_ID), now + 1)
        game, _ = ok(game, AcceptDraw(actor=RED_ID), now + 2)
    else:
        # Blue is to move after 21 moves: the tigers shuffle until the position stands thrice.
        game, _ = play(game, ["g9g8", "g1g2", "g8g9", "g2g1"] * 2)
        assert game.termination == BoardEnding("repetition")
    assert game.score_change == ScoreChange(deltas=(0, 0), new_scores=(100, 100), voided=False)
    # A draw still counts for the ratings, as half a point each.
    assert game.rating_change is not None
    assert game.rating_change.after == rate_game(Rating(), Rating(), 0.5)


def test_leaving_costs_ten_more_even_in_a_short_game() -> None:
    game, now = play(online_game(), ["a3a4"])
    game, _ = ok(game, Disconnected(color=1), now)
    game, _ = ok(game, Tick(), now + 60)
    assert game.score_change == ScoreChange(deltas=(0, -10), new_scores=(0, -10), voided=True)


def test_leaving_a_long_game_costs_the_loss_and_ten() -> None:
    game, now = play(online_game(), ELEVEN_ROUNDS)
    game, _ = ok(game, Disconnected(color=0), now)
    game, events = ok(game, Tick(), now + 60)
    assert _finished(events).leaver == 0
    assert game.score_change == ScoreChange(deltas=(-12, 4), new_scores=(-12, 4), voided=False)


def test_losing_on_time_scores_like_any_loss() -> None:
    game, _ = play(online_game(time_control="5+0"), ELEVEN_ROUNDS, step=0.5)
    game, _ = ok(game, Tick(), T0 + 1000)
    assert game.termination is PlatformEnding.TIME_FORFEIT
    assert game.winner == 0  # after 21 moves Blue is to move, and its flag falls
    assert game.score_change is not None and game.score_change.deltas == (4, -2)


def test_rated_online_games_between_accounts_change_ratings() -> None:
    game, now = play(online_game(rated=True, time_control=RAPID), ELEVEN_ROUNDS)
    game, events = ok(game, Resign(actor=BLUE_ID), now + 1)
    change = _finished(events).rating_change
    assert change is not None and change == game.rating_change
    assert change.before == (Rating(), Rating())
    assert change.after == rate_game(Rating(), Rating(), 1.0)
    assert round(change.deltas[0], 1) == 162.3
    assert events[-1].to_dict()["rating_change"]["deltas"][1] < 0


def test_against_the_ai_only_the_human_scores() -> None:
    game, now = play(ai_game(human=0, level=5), ELEVEN_ROUNDS)
    game, _ = ok(game, Resign(actor=AiPlayer(5)), now + 1)
    # A level-1 player beating a level-5 AI: 4 + 5 - 1 = 8 points; the AI keeps no score.
    assert game.score_change == ScoreChange(deltas=(8, 0), new_scores=(8, 0), voided=False)
    assert game.rating_change is None


def test_guests_keep_no_score() -> None:
    spec = GameSpec(Mode.ONLINE, (red_player(), PlayerSlot.guest("g-1", "Visitor")))
    game = new_game(spec, game_id="g", now=T0)
    game, _ = ok(game, Join(actor=RED_ID), T0)
    game, _ = ok(game, Join(actor=Guest("g-1")), T0)
    game, now = play(game, ELEVEN_ROUNDS)
    game, _ = ok(game, Resign(actor=RED_ID), now + 1)
    assert game.score_change == ScoreChange(deltas=(-2, 0), new_scores=(-2, 0), voided=False)


def test_same_screen_and_aborted_games_score_nothing() -> None:
    game, now = play(same_screen_game(), ELEVEN_ROUNDS)
    game, _ = ok(game, Resign(actor=OWNER), now + 1)
    assert game.score_change is None and game.rating_change is None
    aborted, _ = ok(online_game(rated=True, time_control=RAPID), Abort(actor=RED_ID), T0 + 1)
    assert aborted.score_change is None and aborted.rating_change is None


def test_the_rematch_spec_carries_the_new_scores_and_ratings() -> None:
    game, now = play(online_game(rated=True, time_control=RAPID, scores=(10, 20)), ELEVEN_ROUNDS)
    game, _ = ok(game, Resign(actor=BLUE_ID), now + 1)
    spec = rematch_spec(game)
    blue, red = spec.players  # colours swapped
    assert red is not None and blue is not None
    assert (red.identity, red.score) == (RED_ID, 14)
    assert (blue.identity, blue.score) == (BLUE_ID, 18)
    assert game.rating_change is not None
    assert red.rating == game.rating_change.after[0]
    assert started(new_game(spec, game_id="g2", now=now + 5), now + 5).players == (blue, red)
