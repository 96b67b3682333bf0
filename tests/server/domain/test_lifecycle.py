"""Setting games up, joining and starting, rematches, snapshots for clients, record export."""

from __future__ import annotations

import json

import pytest
from tests.support.helpers import (
    BLUE_ID,
    DEN_FEN,
    OWNER,
    RED_ID,
    SPECTATOR,
    T0,
    ai_game,
    blue_player,
    ok,
    online_game,
    play,
    red_player,
    refused,
    same_screen_game,
    types,
)

from doushouqi.core.clock import TimeControl
from doushouqi.jungle.record import read_record, write_record
from doushouqi.server.domain import (
    SERVER,
    Abort,
    Account,
    AiPlayer,
    GameSpec,
    GameSpecError,
    GameStarted,
    GameStatus,
    Guest,
    Join,
    Mode,
    Move,
    PlayerSlot,
    RejectCode,
    Rematch,
    RematchCreated,
    Resign,
    Tick,
    game_state_dict,
    new_game,
)
from doushouqi.server.games.jungle import game_to_record

# ---------------------------------------------------------------------- set-up


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (GameSpec(Mode.VS_AI, (red_player(), blue_player())), "one AI seat"),
        (GameSpec(Mode.SAME_SCREEN, (red_player(), blue_player())), "owner at both"),
        (GameSpec(Mode.ONLINE, (None, None)), "at least the player"),
        (GameSpec(Mode.ONLINE, (red_player(), red_player())), "two different players"),
        (GameSpec(Mode.ONLINE, (red_player(), PlayerSlot.ai(3))), "no AI"),
        (
            GameSpec(Mode.SAME_SCREEN, (red_player(), red_player()), rated=True),
            "only online games are rated",
        ),
        (
            GameSpec(Mode.ONLINE, (red_player(), PlayerSlot.guest("g", "G")), rated=True),
            "account holders",
        ),
        (GameSpec(Mode.ONLINE, (red_player(), None), rules="chess"), "unknown rule set"),
        (GameSpec(Mode.ONLINE, (red_player(), None), start_fen="7/7 w"), "9 rows"),
        (
            GameSpec(Mode.ONLINE, (red_player(), None), start_fen="3L3/7/7/7/7/7/7/7/3l3 w"),
            "decided",
        ),
        (GameSpec(Mode.ONLINE, (red_player(), None), grace_period=0), "grace_period"),
        (GameSpec(Mode.ONLINE, (red_player(), None), first_player=2), "first_player"),
        (GameSpec(Mode.VS_AI, (red_player(), PlayerSlot.ai(2)), tournament=True), "tournament"),
        (GameSpec(Mode.ONLINE, (red_player(), None), tournament_id="cup"), "only a tournament"),
    ],
)
def test_impossible_games_are_not_set_up(spec: GameSpec, message: str) -> None:
    with pytest.raises(GameSpecError, match=message):
        new_game(spec, game_id="x", now=T0)


def test_a_new_game_waits_for_its_players() -> None:
    game = online_game(start=False, time_control="3+2")
    assert (game.status, game.version, game.clock, game.created_at) == (
        GameStatus.CREATED,
        0,
        None,
        T0,
    )
    assert game.ready == (False, False)


# ---------------------------------------------------------------------- joining


def test_the_game_starts_when_both_players_have_joined() -> None:
    game = online_game(start=False, time_control="3+2")
    game, events = ok(game, Join(actor=RED_ID), T0 + 5)
    assert types(events) == ["player_joined"] and game.status is GameStatus.CREATED
    assert refused(game, Join(actor=RED_ID), T0 + 6).code is RejectCode.ALREADY_JOINED
    game, events = ok(game, Join(actor=BLUE_ID), T0 + 20)
    assert types(events) == ["player_joined", "game_started"]
    started = events[1]
    assert isinstance(started, GameStarted)
    assert (started.at, started.to_move) == (T0 + 20, 0)
    assert started.clocks is not None and started.clocks.remaining == (180.0, 180.0)
    assert len(started.dests) == 8  # every Red animal can move at the start
    assert game.status is GameStatus.STARTED and game.started_at == T0 + 20
    assert game.clock is not None and game.clock.turn_started == T0 + 20
    assert refused(game, Join(actor=RED_ID), T0 + 21).code is RejectCode.ALREADY_STARTED


def test_an_open_seat_is_taken_by_joining() -> None:
    control = TimeControl.parse("10+0")  # rated games need a clock
    spec = GameSpec(Mode.ONLINE, (None, blue_player()), time_control=control, rated=True)
    game = new_game(spec, game_id="open", now=T0)
    game, _ = ok(game, Join(actor=BLUE_ID), T0 + 1)
    newcomer = PlayerSlot.account(3, "Zhao")
    assert refused(game, Join(actor=Account(3)), T0 + 2).code is RejectCode.BAD_COMMAND
    assert refused(game, Join(actor=Account(4), player=newcomer), T0 + 2).code is (
        RejectCode.BAD_COMMAND
    )
    assert refused(game, Join(actor=Account(3), player=newcomer, color=1), T0 + 2).code is (
        RejectCode.SEAT_TAKEN
    )
    guest = PlayerSlot.guest("g", "Guest")
    assert refused(game, Join(actor=Guest("g"), player=guest), T0 + 2).code is (
        RejectCode.ACCOUNT_REQUIRED
    )
    assert refused(game, Join(actor=SERVER), T0 + 2).code is RejectCode.NOT_A_PLAYER
    assert refused(game, Join(actor=AiPlayer(3), player=PlayerSlot.ai(3)), T0 + 2).code is (
        RejectCode.NOT_AVAILABLE
    )
    game, events = ok(game, Join(actor=Account(3), player=newcomer), T0 + 3)
    assert types(events) == ["player_joined", "game_started"]
    assert game.players[0] == newcomer
    assert refused(
        game, Join(actor=SPECTATOR, player=PlayerSlot.account(99, "S")), T0 + 4
    ).code is (RejectCode.ALREADY_STARTED)


def test_a_full_game_has_no_seat_for_others() -> None:
    game = online_game(start=False)
    slot = PlayerSlot.account(99, "S")
    assert refused(game, Join(actor=SPECTATOR, player=slot), T0 + 1).code is RejectCode.GAME_FULL


def test_a_join_for_the_wrong_seat_is_refused() -> None:
    game = online_game(start=False)
    assert refused(game, Join(actor=RED_ID, color=1), T0 + 1).code is RejectCode.NOT_YOUR_SEAT


def test_against_the_ai_and_on_one_screen_the_owner_starts_the_game() -> None:
    game = ai_game(human=1)
    assert game.status is GameStatus.STARTED and game.ready == (True, True)
    game = same_screen_game()
    assert game.status is GameStatus.STARTED and game.seats_of(OWNER) == (0, 1)


# ---------------------------------------------------------------------- rematch


def _finished_online() -> tuple[object, float]:
    game, now = play(online_game(time_control="3+2"), ["a3a4"])
    game, _ = ok(game, Resign(actor=BLUE_ID), now + 1)
    return game, now + 1


def test_an_online_rematch_needs_both_players() -> None:
    game, now = _finished_online()
    assert refused(game, Rematch(actor=SPECTATOR), now + 1).code is RejectCode.NOT_A_PLAYER  # type: ignore[arg-type]
    game, events = ok(game, Rematch(actor=BLUE_ID), now + 1)  # type: ignore[arg-type]
    assert types(events) == ["rematch_offered"] and game.rematch_offer == 1
    assert refused(game, Rematch(actor=BLUE_ID), now + 2).code is RejectCode.REMATCH_PENDING
    game, events = ok(game, Rematch(actor=RED_ID), now + 3)
    created = events[0]
    assert isinstance(created, RematchCreated)
    spec = created.spec
    assert spec.players == (game.players[1], game.players[0])
    assert spec.time_control == TimeControl.parse("3+2") and spec.rematch_of == game.id
    assert refused(game, Rematch(actor=RED_ID), now + 4).code is RejectCode.REMATCH_PENDING
    assert json.dumps(created.to_dict())
    rematch = new_game(spec, game_id="again", now=now + 5)
    assert rematch.rematch_of == game.id


def test_the_finished_game_itself_never_changes_by_a_rematch() -> None:
    game, now = _finished_online()
    after, _ = ok(game, Rematch(actor=BLUE_ID), now + 1)  # type: ignore[arg-type]
    assert after.evolve(rematch_offer=None, version=game.version) == game  # type: ignore[attr-defined]


def test_no_rematch_while_playing_or_in_tournaments() -> None:
    game = online_game()
    assert refused(game, Rematch(actor=RED_ID), T0 + 1).code is RejectCode.NOT_OVER
    game, _ = ok(online_game(tournament=True), Resign(actor=RED_ID), T0 + 1)
    assert refused(game, Rematch(actor=RED_ID), T0 + 2).code is RejectCode.NOT_AVAILABLE


def test_a_rematch_against_the_ai_is_set_up_at_once() -> None:
    game, _ = ok(ai_game(human=0, level=7), Resign(actor=RED_ID), T0 + 1)
    game, events = ok(game, Rematch(actor=RED_ID), T0 + 2)
    spec = events[0].spec  # type: ignore[attr-defined]
    assert spec.players[0].identity == AiPlayer(7) and spec.players[1].identity == RED_ID


def test_an_aborted_open_game_has_no_rematch() -> None:
    game = new_game(GameSpec(Mode.ONLINE, (red_player(), None)), game_id="o", now=T0)
    game, _ = ok(game, Abort(actor=RED_ID), T0 + 1)
    assert refused(game, Rematch(actor=RED_ID), T0 + 2).code is RejectCode.NOT_AVAILABLE


# ---------------------------------------------------------------------- snapshot


def test_the_snapshot_tells_the_client_everything() -> None:
    game = online_game(time_control="1+0/20s")
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 5)
    state = game_state_dict(game, now=T0 + 8)
    assert json.loads(json.dumps(state)) == state
    assert state["status"] == "started" and state["status_id"] == 20
    assert state["version"] == game.version and state["turn"] == 1
    assert state["last_move"] == "a3a4" and state["moves"] == [["a3a4", T0 + 5]]
    assert state["fen"] == game.fen
    assert sorted(state["dests"]["a7"]) == ["a6", "a8", "b7"]
    assert state["clocks"]["remaining"] == [55.0, 57.0]
    assert state["clocks"]["move_time_left"] == 17.0
    assert state["next_deadline"] == T0 + 25
    assert state["players"][0]["identity"] == {"kind": "account", "id": 1}
    assert state["rules"]["name"] == "wango" and state["time_control"] == "1+0/20s"


def test_the_snapshot_of_a_finished_game_has_no_destinations() -> None:
    game, _ = ok(online_game(fen=DEN_FEN), Move(actor=RED_ID, move="d8d9"), T0 + 1)
    state = game_state_dict(game)
    assert state["dests"] == {} and state["result"] == "1-0"
    assert state["outcome"] == {"termination": "den_entered", "winner": 0, "result": "1-0"}
    assert state["next_deadline"] is None


# ---------------------------------------------------------------------- records


def test_a_finished_game_exports_as_a_record_that_reads_back() -> None:
    game = online_game(time_control="/10s")
    game, _ = ok(game, Tick(), T0 + 10)  # Red passes
    game, _ = play(game, ["a7a6", "a3a4"])
    game, _ = ok(game, Resign(actor=BLUE_ID), T0 + 20)
    record = game_to_record(game, Event="Club night")
    text = write_record(record)
    assert '[Red "Li"]' in text and '[Blue "Wang"]' in text and '[Event "Club night"]' in text
    assert '[Termination "resignation"]' in text and '[TimeControl "/10s"]' in text
    assert "1. 0000 a7a6 2. a3a4 1-0" in text
    assert read_record(text) == record


def test_unfinished_and_aborted_games_export_with_star() -> None:
    game, _ = play(online_game(), ["a3a4"])
    assert game_to_record(game).result == "*"
    aborted, _ = ok(game, Abort(actor=BLUE_ID), T0 + 5)
    record = game_to_record(aborted)
    assert record.result == "*" and read_record(write_record(record)) == record


def test_a_blue_first_game_exports_its_rule_option() -> None:
    spec = GameSpec(
        Mode.SAME_SCREEN, (PlayerSlot.account(5, "A"), PlayerSlot.account(5, "B")), first_player=1
    )
    game = new_game(spec, game_id="s", now=T0)
    game, _ = ok(game, Join(actor=OWNER), T0)
    game, _ = play(game, ["a7a6"])
    text = write_record(game_to_record(game))
    assert '[RuleOption "first_player blue"]' in text
    assert read_record(text).moves == game_to_record(game).moves
