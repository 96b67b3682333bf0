"""Stored games come back exactly: ``game_from_storage(game_to_storage(g)) == g`` for games
in every state the domain can reach, through JSON as the database keeps them."""

from __future__ import annotations

import json
import random

import pytest

from doushouqi.core.clock import TimeControl
from doushouqi.server.db.repo import stored_game
from doushouqi.server.domain import (
    Abort,
    AcceptDraw,
    AcceptTakeback,
    Account,
    CorruptGameError,
    Disconnected,
    Game,
    GameSpec,
    Join,
    Mode,
    Move,
    OfferDraw,
    PlayerSlot,
    Reconnected,
    Rematch,
    RequestTakeback,
    Resign,
    Tick,
    apply,
    new_game,
)
from doushouqi.server.domain.recovery import resume_after_downtime
from doushouqi.server.domain.storage import game_from_storage, game_to_storage

RED, BLUE = Account(1), Account(2)


def _round_trip(game: Game) -> Game:
    return game_from_storage(json.loads(json.dumps(game_to_storage(game))))


def _random_game(seed: int) -> list[Game]:
    rng = random.Random(seed)
    control = rng.choice(
        [None, TimeControl.parse("1+2/10s"), TimeControl.parse("/5s"), TimeControl.parse("30s+0")]
    )
    spec = GameSpec(
        Mode.ONLINE,
        (
            PlayerSlot.account(1, "Li", score=rng.randrange(-20, 300)),
            PlayerSlot.account(2, "Wang", avatar="lion"),
        ),
        rules=rng.choice(["wango", "classic", "international"]),
        time_control=control,
        rated=control is not None and rng.random() < 0.5,  # rated games need a clock
        first_player=rng.choice([None, 0, 1]),
    )
    now = 1000.0
    game = new_game(spec, game_id=f"g{seed}", now=now)
    games = [game]
    for actor in (RED, BLUE):
        game, _ = apply(game, Join(actor=actor), now)
    for _ in range(rng.randrange(5, 80)):
        now += rng.choice([0.5, 1.0, 3.0, 7.5, 12.0])
        mover = (RED, BLUE)[game.turn]
        other = (RED, BLUE)[1 - game.turn]
        roll = rng.random()
        if roll < 0.75:
            legal = sorted(game.position().legal_moves())
            command = Move(actor=mover, move=str(rng.choice(legal))) if legal else Tick()
        else:
            command = rng.choice(
                [
                    OfferDraw(actor=mover),
                    AcceptDraw(actor=other),
                    RequestTakeback(actor=other),
                    AcceptTakeback(actor=mover),
                    Disconnected(color=rng.randrange(2)),
                    Reconnected(color=rng.randrange(2)),
                    Tick(),
                    Abort(actor=mover),
                    Resign(actor=mover),
                    Rematch(actor=other),
                ]
            )
        game, _ = apply(game, command, now)
        games.append(game)
    return games


@pytest.mark.parametrize("seed", range(40))
def test_every_state_round_trips(seed: int) -> None:
    for game in _random_game(seed):
        again = _round_trip(game)
        assert again == game
        assert again.position().position_string() == game.position().position_string()


def _standard_text(game: Game) -> str:
    return json.dumps(game_to_storage(game), separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_the_written_text_is_the_stored_games_json(seed: int) -> None:
    """What a write stores (the set-up's part encoded once a game, the rest appended, the
    moves kept and appended to) is the standard library's encoding of ``game_to_storage``,
    through every copy a game goes through; also for a game read back (its clock's control
    another object than its own), and after a change of seat (the set-up's part made anew)."""
    for game in _random_game(seed):
        assert stored_game(game) == _standard_text(game)
        loaded = _round_trip(game)
        assert stored_game(loaded) == stored_game(game)
        if game.players[1] is not None:
            left = game.evolve(players=(game.players[0], None))
            assert stored_game(left) == _standard_text(left) != stored_game(game)


def test_unlimited_main_time_round_trips() -> None:
    spec = GameSpec(
        Mode.SAME_SCREEN,
        (PlayerSlot.guest("g", "G"), PlayerSlot.guest("g", "G")),
        time_control=TimeControl.parse("/30s"),
    )
    game = new_game(spec, game_id="x", now=0.0)
    game, _ = apply(game, Join(actor=game.players[0].identity), 1.0)  # type: ignore[union-attr]
    assert game.clock is not None and game.clock.main_time[0] == float("inf")
    text = json.dumps(game_to_storage(game), allow_nan=False)  # what PostgreSQL accepts
    assert game_from_storage(json.loads(text)) == game
    assert stored_game(game) == _standard_text(game)
    assert '"main_time":[null,null]' in stored_game(game)


def test_a_tournament_game_keeps_its_tournament_and_older_games_have_none() -> None:
    players = (PlayerSlot.account(1, "Li"), PlayerSlot.account(2, "Wang"))
    spec = GameSpec(Mode.ONLINE, players, tournament=True, tournament_id="cup42")
    game = new_game(spec, game_id="t1", now=0.0)
    assert _round_trip(game).tournament_id == "cup42"
    older = game_to_storage(game)
    del older["tournament_id"]  # stored before games named their tournament
    assert game_from_storage(older).tournament_id is None
    with pytest.raises(CorruptGameError):
        game_from_storage({**older, "tournament_id": 7})


def test_damaged_storage_is_refused() -> None:
    game = _random_game(1)[-1]
    data = game_to_storage(game)
    for damage in (
        {"moves": [["a3a9", 1.0]]},
        {"format": 99},
        {"mode": "chess"},
        {"players": [None]},
        {"clock": {"control": "x"}},
    ):
        with pytest.raises(CorruptGameError):
            game_from_storage({**data, **damage})


def test_resume_after_downtime_shifts_clocks_and_grace() -> None:
    spec = GameSpec(
        Mode.ONLINE,
        (PlayerSlot.account(1, "Li"), PlayerSlot.account(2, "Wang")),
        time_control=TimeControl.parse("1+0"),
    )
    game = new_game(spec, game_id="r", now=0.0)
    game, _ = apply(game, Join(actor=RED), 0.0)
    game, _ = apply(game, Join(actor=BLUE), 0.0)
    game, _ = apply(game, Move(actor=RED, move="a3a4"), 10.0)
    game, _ = apply(game, Disconnected(color=0), 12.0)
    # Down at 15 s (Blue had used 5 s), back at 515 s.
    resumed, events = resume_after_downtime(game, 15.0, 515.0)
    assert [e.type for e in events] == ["game_resumed"] and events[0].downtime == 500.0
    assert resumed.version == game.version + 1
    assert resumed.clock is not None
    assert resumed.clock.remaining(1, 515.0) == 55.0  # the downtime is nobody's
    assert resumed.disconnected_since == (512.0, None)  # Red's grace resumes too
    assert resume_after_downtime(resumed, 515.0, 515.0) == (resumed, [])


def test_resume_settles_what_fell_before_the_crash() -> None:
    spec = GameSpec(
        Mode.ONLINE,
        (PlayerSlot.account(1, "Li"), PlayerSlot.account(2, "Wang")),
        time_control=TimeControl.parse("30s+0"),
    )
    game = new_game(spec, game_id="f", now=0.0)
    game, _ = apply(game, Join(actor=RED), 0.0)
    game, _ = apply(game, Join(actor=BLUE), 0.0)
    # The server was last alive at 40 s: Red's flag had fallen at 30 s, unnoticed.
    ended, events = resume_after_downtime(game, 40.0, 900.0)
    assert ended.termination is not None and ended.termination.value == "time_forfeit"
    assert ended.finished_at == 30.0 and events[-1].type == "game_finished"
