"""Hypothesis: random command sequences, valid and invalid, from random senders.

Whatever arrives, ``apply`` never raises, never lowers the version (and raises it by exactly
one when it changes the game), never lets a non-player change the game, and never changes a
finished game again except for rematch bookkeeping, and never changes the result, the ending
or the start and end times without changing the status. The position it keeps always agrees with a
fresh replay of its moves, and its clock always waits on the side to move.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.support.helpers import T0, blue_player, red_player

from doushouqi.core.clock import TimeControl
from doushouqi.jungle.record import read_record, write_record
from doushouqi.server.domain import (
    COMMAND_TYPES,
    SERVER,
    Account,
    Actor,
    AiPlayer,
    Command,
    Disconnected,
    Game,
    GameSpec,
    GameStatus,
    Guest,
    Join,
    Mode,
    Move,
    PlayerSlot,
    Rejected,
    Tick,
    apply,
    game_state_dict,
    lobby_deadline,
    new_game,
    next_deadline,
    start_deadline,
)
from doushouqi.server.domain.model import replay
from doushouqi.server.games.jungle import game_to_record

ACTORS: list[Actor] = [
    Account(1),
    Account(2),
    Account(5),
    Account(3),
    Account(99),
    Guest("g"),
    AiPlayer(3),
    SERVER,
]
SLOTS = [
    PlayerSlot.account(1, "Li"),
    PlayerSlot.account(99, "Spectator"),
    PlayerSlot.guest("g", "Guest"),
    PlayerSlot.ai(3),
]
TIME_CONTROLS = [None, "1+0", "/5s", "20s+2/5s"]
#: Everything but rematch bookkeeping (and the version) is frozen once a game is over.
REMATCH_FIELDS = {"version": 0, "rematch_offer": None, "rematch_created": False}


@st.composite
def games(draw: st.DrawFn) -> Game:
    mode = draw(st.sampled_from(list(Mode)))
    control = draw(st.sampled_from(TIME_CONTROLS))
    players: tuple[PlayerSlot | None, PlayerSlot | None]
    if mode is Mode.VS_AI:
        human = draw(st.integers(0, 1))
        seats: list[PlayerSlot | None] = [PlayerSlot.ai(3), PlayerSlot.ai(3)]
        seats[human] = red_player()
        players = (seats[0], seats[1])
    elif mode is Mode.SAME_SCREEN:
        players = (PlayerSlot.account(5, "A"), PlayerSlot.account(5, "B"))
    else:
        players = draw(
            st.sampled_from(
                [(red_player(), blue_player()), (red_player(), None), (None, blue_player())]
            )
        )
    spec = GameSpec(
        mode,
        players,
        time_control=None if control is None else TimeControl.parse(control),
        # Rated: online, with a clock (ratings are per speed).
        rated=mode is Mode.ONLINE and control is not None and draw(st.booleans()),
        tournament=mode is Mode.ONLINE and draw(st.booleans()),
        grace_period=draw(st.sampled_from([5.0, 60.0])),
        lobby_wait=draw(st.sampled_from([20.0, 1800.0])),
    )
    game = new_game(spec, game_id="prop", now=T0)
    if draw(st.integers(0, 4)):  # most games start at once; the rest wait for joins
        for color, player in enumerate(game.players):
            if player is None:
                newcomer = PlayerSlot.account(3, "Zhao")
                game, _ = apply(game, Join(actor=newcomer.identity, player=newcomer), T0)
            elif not player.is_ai and not game.ready[color]:
                game, _ = apply(game, Join(actor=player.identity), T0)
        assert game.status is GameStatus.STARTED
    return game


def _legal_moves(game: Game) -> list[str]:
    if game.status is not GameStatus.STARTED:
        return []
    return sorted(game.position().legal_moves())


@st.composite
def commands(draw: st.DrawFn, game: Game) -> Command:
    common: dict[str, Any] = {
        "color": draw(st.sampled_from([None, None, None, 0, 1, 2, 0.0, True, "red"])),
        "expected_version": draw(
            st.sampled_from([None, None, None, game.version, game.version - 1])
        ),
    }
    legal = _legal_moves(game)
    choice = draw(st.integers(0, 9))
    if choice == 0:
        return Tick(actor=SERVER)
    if legal and choice <= 5:
        # A sensible move, so that games get somewhere.
        player = game.players[game.turn]
        assert player is not None
        return Move(actor=player.identity, move=draw(st.sampled_from(legal)))
    seated = [p.identity for p in game.players if p is not None]
    actor = draw(st.sampled_from(seated + seated + ACTORS))
    kind = draw(st.sampled_from(sorted(COMMAND_TYPES)))
    cls = COMMAND_TYPES[kind]
    if cls is Move:
        texts = st.sampled_from(legal) if legal else st.just("a3a4")
        odd = st.sampled_from([None, 42, b"a3a4", "a3a4" * 9])
        move: Any = draw(st.one_of(texts, st.text(max_size=5), st.just("0000"), odd))
        return Move(actor=actor, move=move, **common)
    if cls is Join:
        slot: Any = draw(st.one_of(st.none(), st.sampled_from(SLOTS), st.just("me")))
        return Join(actor=actor, player=slot, **common)
    if cls is Disconnected:
        at: Any = draw(
            st.one_of(st.none(), st.floats(T0 - 10, T0 + 2000), st.sampled_from(["x", True]))
        )
        return Disconnected(actor=actor, at=at, **common)
    return cls(actor=actor, **common)


def _status_columns(game: Game) -> tuple[object, ...]:
    """The stored row's columns that change only with the status: a write that keeps the
    status (``GameWrite.same_status``) writes only the version and the stored game."""
    return (game.result, game.termination_key, game.created_at, game.started_at, game.finished_at)


def _check_consistent(game: Game) -> None:
    fresh = replay(game.rules, game.start_fen, (m.move for m in game.moves), game.game_key)
    assert fresh.position_string() == game.fen
    if game.clock is not None and game.status is GameStatus.STARTED:
        assert game.clock.running and game.clock.to_move == game.turn
    if game.status.is_over:
        assert game.clock is None or not game.clock.running
        assert game.outcome is not None and game.finished_at is not None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_commands_keep_every_invariant(data: st.DataObject) -> None:
    game = data.draw(games())
    now = T0
    for _ in range(data.draw(st.integers(10, 80))):
        command = data.draw(commands(game))
        step = data.draw(st.one_of(st.floats(0, 8), st.sampled_from([0.0, -1.0, 61.0])))
        at = now + step
        after, events = apply(game, command, at)

        assert events or after is game  # nothing happened: an early tick
        assert all(e.game_id == game.id and e.version == after.version for e in events)
        if any(isinstance(e, Rejected) for e in events):
            assert after is game and len(events) == 1
        else:
            assert after.version == game.version + (1 if events else 0)
        seated = bool(game.seats_of(command.actor)) or command.actor == SERVER
        if not seated and not isinstance(command, Join):
            assert after is game, "a non-player changed the game"
        if game.status.is_over:
            assert after.evolve(**REMATCH_FIELDS) == game.evolve(**REMATCH_FIELDS)
        if after.status is game.status:  # what a move's write leaves alone (db/repo.py)
            assert _status_columns(after) == _status_columns(game)
        for happened in events:
            json.dumps(happened.to_dict())
        if after is not game:
            _check_consistent(after)
            now = max(now, at)
        game = after
        deadline = next_deadline(game, now)
        if game.status is GameStatus.CREATED:  # an open seat's wait, or the players' to come
            start = start_deadline(game)
            assert deadline == (lobby_deadline(game) if start is None else start[0])
        else:
            assert deadline is None or game.status is GameStatus.STARTED

    event(f"final status: {game.status.label}")
    event(f"plies: {min(len(game.moves) // 10 * 10, 30)}+")
    json.dumps(game_state_dict(game, now))
    record = game_to_record(game)
    assert read_record(write_record(record)) == record
