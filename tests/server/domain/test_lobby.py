"""An online game nobody joins is aborted when its wait for an opponent ends (``lobby_wait``),
through the domain like every other deadline: ``next_deadline`` says when, a ``Tick`` settles
it at the deadline's own time, and recovery after a restart does the same."""

from __future__ import annotations

import json
import math

import pytest
from tests.support.helpers import (
    RED_ID,
    T0,
    blue_player,
    ok,
    red_player,
    refused,
    same_screen_game,
    types,
)

from doushouqi.server.domain import (
    DEFAULT_LOBBY_WAIT,
    DEFAULT_START_WAIT,
    Abort,
    AbortReason,
    Account,
    Game,
    GameFinished,
    GameSpec,
    GameSpecError,
    GameStatus,
    Join,
    Mode,
    Move,
    PlayerSlot,
    RejectCode,
    Tick,
    apply,
    game_state_dict,
    lobby_deadline,
    new_game,
    next_deadline,
    rematch_spec,
)
from doushouqi.server.domain.recovery import resume_after_downtime
from doushouqi.server.domain.storage import game_from_storage, game_to_storage

WAIT = 600.0
DEADLINE = T0 + WAIT


def waiting_game(wait: float = WAIT) -> Game:
    """An open online game whose creator has opened its page (joined its own seat)."""
    spec = GameSpec(Mode.ONLINE, (red_player(), None), lobby_wait=wait)
    game = new_game(spec, game_id="lobby-1", now=T0)
    game, _ = ok(game, Join(actor=RED_ID), T0 + 1)
    return game


def test_an_open_online_game_waits_until_its_deadline() -> None:
    game = waiting_game()
    assert lobby_deadline(game) == DEADLINE
    assert next_deadline(game, T0 + 5) == DEADLINE
    assert game_state_dict(game)["lobby_deadline"] == DEADLINE
    # An early tick changes nothing at all.
    after, events = apply(game, Tick(), DEADLINE - 0.001)
    assert after is game and events == []


@pytest.mark.parametrize("late", [0.0, 0.5, 3600.0])
def test_nobody_joined_by_the_deadline_aborts_the_game_at_the_deadline(late: float) -> None:
    game = waiting_game()
    after, events = ok(game, Tick(), DEADLINE + late)
    assert types(events) == ["game_finished"]
    finished = events[0]
    assert isinstance(finished, GameFinished)
    # Settled at the deadline's own time, however late the tick came.
    assert finished.at == DEADLINE and after.finished_at == DEADLINE
    assert finished.abort_reason is AbortReason.LOBBY_EXPIRED
    assert finished.to_dict()["termination"] == "aborted"
    assert finished.to_dict()["abort_reason"] == "lobby_expired"
    assert finished.result == "*" and finished.winner is None
    assert finished.score_change is None and finished.rating_change is None
    assert after.status is GameStatus.ABORTED and after.abort_reason is AbortReason.LOBBY_EXPIRED
    assert next_deadline(after, DEADLINE + late) is None and lobby_deadline(after) is None
    state = game_state_dict(after)
    assert (state["status"], state["abort_reason"], state["lobby_deadline"]) == (
        "aborted",
        "lobby_expired",
        None,
    )


def test_joining_after_the_deadline_is_refused_even_before_the_tick() -> None:
    game = waiting_game()
    newcomer = PlayerSlot.account(2, "Wang")
    rejected = refused(game, Join(actor=newcomer.identity, player=newcomer), DEADLINE + 1)
    assert rejected.code is RejectCode.GAME_OVER
    # The refused command dropped the settled deadline; the overdue tick then applies it.
    assert next_deadline(game, DEADLINE + 1) == DEADLINE
    after, _ = ok(game, Tick(), DEADLINE + 1)
    assert after.status is GameStatus.ABORTED and after.finished_at == DEADLINE


def test_joining_in_time_ends_the_wait_and_the_started_game_never_expires() -> None:
    game = waiting_game()
    newcomer = PlayerSlot.account(2, "Wang")
    started, events = ok(game, Join(actor=newcomer.identity, player=newcomer), DEADLINE - 1)
    assert types(events) == ["player_joined", "game_started"]
    assert lobby_deadline(started) is None
    # What is left is the wait for the first move (tests/server/domain/test_no_shows.py).
    assert next_deadline(started, DEADLINE) == DEADLINE - 1 + DEFAULT_START_WAIT
    played, _ = ok(started, Move(actor=RED_ID, move="a3a4"), DEADLINE)
    played, _ = ok(played, Move(actor=newcomer.identity, move="a7a6"), DEADLINE + 1)
    after, events = apply(played, Tick(), DEADLINE + 10 * WAIT)
    assert after is played and events == []


def test_a_filled_but_not_started_online_game_has_no_lobby_wait() -> None:
    # Both seats are taken (as in a rematch): it is nobody's lobby entry; what ends it is the
    # wait for its players to come (tests/server/domain/test_no_shows.py).
    spec = GameSpec(
        Mode.ONLINE, (red_player(), blue_player()), lobby_wait=WAIT, start_wait=WAIT * 2
    )
    game = new_game(spec, game_id="full-1", now=T0)
    assert lobby_deadline(game) is None and next_deadline(game, T0) == T0 + 2 * WAIT
    after, events = apply(game, Tick(), DEADLINE + 1)
    assert after is game and events == []


def test_games_against_the_ai_and_on_one_screen_never_expire() -> None:
    spec = GameSpec(Mode.VS_AI, (red_player(), PlayerSlot.ai(3)), lobby_wait=WAIT)
    unjoined = new_game(spec, game_id="ai-1", now=T0)
    assert lobby_deadline(unjoined) is None and next_deadline(unjoined, T0) is None
    after, events = apply(unjoined, Tick(), DEADLINE + 1)
    assert after is unjoined and events == []
    screen = same_screen_game()
    assert lobby_deadline(screen) is None


def test_the_creator_may_still_abort_before_the_deadline() -> None:
    game = waiting_game()
    after, events = ok(game, Abort(actor=RED_ID), T0 + 10)
    finished = events[0]
    assert isinstance(finished, GameFinished) and finished.abort_reason is None
    assert after.status is GameStatus.ABORTED and after.abort_reason is None
    assert next_deadline(after, DEADLINE + 1) is None


def test_a_guest_created_game_expires_too() -> None:
    spec = GameSpec(Mode.ONLINE, (None, PlayerSlot.guest("g1", "Guest")), lobby_wait=WAIT)
    game = new_game(spec, game_id="guest-1", now=T0)
    after, _ = ok(game, Tick(), DEADLINE)
    assert after.abort_reason is AbortReason.LOBBY_EXPIRED


@pytest.mark.parametrize("wait", [0.0, -5.0, math.inf, math.nan])
def test_the_wait_must_be_a_positive_time(wait: float) -> None:
    spec = GameSpec(Mode.ONLINE, (red_player(), None), lobby_wait=wait)
    with pytest.raises(GameSpecError, match="lobby_wait"):
        new_game(spec, game_id="bad", now=T0)


def test_the_default_wait_is_half_an_hour() -> None:
    game = new_game(GameSpec(Mode.ONLINE, (red_player(), None)), game_id="d", now=T0)
    assert DEFAULT_LOBBY_WAIT == 1800.0 and lobby_deadline(game) == T0 + 1800.0


def test_storage_keeps_the_wait_and_the_reason() -> None:
    game = waiting_game(wait=123.5)
    expired, _ = ok(game, Tick(), T0 + 200)
    for value in (game, expired):
        stored = json.loads(json.dumps(game_to_storage(value)))
        assert game_from_storage(stored) == value
    # Games stored before the wait existed load with the default wait and no reason.
    old = game_to_storage(game)
    del old["lobby_wait"], old["abort_reason"]
    loaded = game_from_storage(old)
    assert loaded.lobby_wait == DEFAULT_LOBBY_WAIT and loaded.abort_reason is None


def test_recovery_aborts_a_game_whose_wait_ended_while_the_server_was_down() -> None:
    game = waiting_game()
    # Down from T0 + 100 to well after the deadline: the wait is wall-clock time.
    after, events = resume_after_downtime(game, down_at=T0 + 100, now=DEADLINE + 500)
    assert types(events) == ["game_finished"]
    assert after.status is GameStatus.ABORTED and after.finished_at == DEADLINE
    assert after.abort_reason is AbortReason.LOBBY_EXPIRED
    assert after.version == game.version + 1


def test_recovery_leaves_a_game_still_waiting_as_it_was() -> None:
    game = waiting_game()
    after, events = resume_after_downtime(game, down_at=T0 + 100, now=T0 + 300)
    assert after is game and events == []
    assert next_deadline(after, T0 + 300) == DEADLINE  # not moved by the downtime


def test_a_rematch_keeps_the_wait() -> None:
    spec = GameSpec(Mode.ONLINE, (red_player(), None), lobby_wait=WAIT)
    game = new_game(spec, game_id="r", now=T0)
    newcomer = PlayerSlot.account(2, "Wang")
    game, _ = ok(game, Join(actor=RED_ID), T0)
    game, _ = ok(game, Join(actor=newcomer.identity, player=newcomer), T0 + 1)
    game, _ = ok(game, Abort(actor=Account(2)), T0 + 2)
    assert rematch_spec(game).lobby_wait == WAIT
