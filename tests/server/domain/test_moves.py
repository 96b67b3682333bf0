"""Moves and who may make them: turn order, seats, spectators, same screen, the AI, legality,
and the endings decided on the board (den, all captured, no legal move, repetition)."""

from __future__ import annotations

import pytest
from tests.support.helpers import (
    BLUE_ID,
    DEN_FEN,
    HEMMED_FEN,
    LAST_ANIMAL_FEN,
    OWNER,
    RED_ID,
    REPEAT,
    SPECTATOR,
    T0,
    ai_game,
    ok,
    online_game,
    play,
    refused,
    same_screen_game,
    types,
)

from doushouqi.core.outcome import BoardEnding
from doushouqi.jungle.rules import RuleSet
from doushouqi.server.domain import (
    SERVER,
    AiPlayer,
    GameFinished,
    GameStatus,
    Move,
    MoveMade,
    RejectCode,
)


def test_a_move_is_played_and_reported() -> None:
    game = online_game(time_control="5+2")
    game, events = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 3)
    (made,) = events
    assert isinstance(made, MoveMade)
    assert (made.color, made.move, made.readable, made.readable_zh) == (
        0,
        "a3a4",
        "Ea3-a4",
        "象 a3-a4",
    )
    assert made.ply == 1 and made.to_move == 1 and made.at == T0 + 3
    assert made.fen == game.fen == "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1"
    assert made.clocks is not None and made.clocks.remaining == (299.0, 300.0)
    assert sorted(made.dests) == ["a7", "a9", "b8", "c7", "e7", "f8", "g7", "g9"]
    assert game.moves[-1] == ("a3a4", T0 + 3)
    assert game.turn == 1


def test_only_the_side_to_move_may_move() -> None:
    game = online_game()
    rejected = refused(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 1)
    assert rejected.code is RejectCode.NOT_YOUR_TURN
    assert rejected.reason == "it is Red's turn"
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 2)
    assert refused(game, Move(actor=RED_ID, move="a4a5"), T0 + 3).code is RejectCode.NOT_YOUR_TURN


@pytest.mark.parametrize("actor", [SPECTATOR, SERVER, AiPlayer(4), OWNER])
def test_spectators_and_the_server_cannot_move(actor: object) -> None:
    game = online_game()
    rejected = refused(game, Move(actor=actor, move="a3a4"), T0 + 1)  # type: ignore[arg-type]
    assert rejected.code is RejectCode.NOT_A_PLAYER


def test_a_player_cannot_act_for_the_other_colour() -> None:
    game = online_game()
    rejected = refused(game, Move(actor=BLUE_ID, color=0, move="a3a4"), T0 + 1)
    assert rejected.code is RejectCode.NOT_YOUR_SEAT


def test_same_screen_owner_moves_both_colours() -> None:
    game = same_screen_game()
    game, _ = ok(game, Move(actor=OWNER, move="a3a4"), T0 + 1)
    game, _ = ok(game, Move(actor=OWNER, move="a7a6"), T0 + 2)
    game, _ = ok(game, Move(actor=OWNER, color=0, move="a4a5"), T0 + 3)
    # Naming the colour that is not to move is refused as out of turn.
    assert refused(game, Move(actor=OWNER, color=0, move="a5b5"), T0 + 4).code is (
        RejectCode.NOT_YOUR_TURN
    )
    assert refused(game, Move(actor=RED_ID, move="a6a7"), T0 + 4).code is RejectCode.NOT_A_PLAYER


def test_vs_ai_the_ai_identity_moves_the_ai_seat() -> None:
    game = ai_game(human=1, level=6)
    assert refused(game, Move(actor=RED_ID, move="a3a4"), T0 + 1).code is RejectCode.NOT_YOUR_TURN
    assert refused(game, Move(actor=AiPlayer(5), move="a3a4"), T0 + 1).code is (
        RejectCode.NOT_A_PLAYER
    )
    game, _ = ok(game, Move(actor=AiPlayer(6), move="a3a4"), T0 + 1)
    game, _ = ok(game, Move(actor=RED_ID, move="a7a6"), T0 + 2)
    assert game.turn == 0


@pytest.mark.parametrize(
    ("text", "code", "reason"),
    [
        ("a3a5", RejectCode.ILLEGAL_MOVE, "an animal moves one square"),
        ("a3b4", RejectCode.ILLEGAL_MOVE, "only the rat may enter the water"),
        ("g1e1", RejectCode.ILLEGAL_MOVE, "neither a step nor a lake jump"),
        ("a7a6", RejectCode.ILLEGAL_MOVE, "is not yours: red to move"),
        ("d5d6", RejectCode.ILLEGAL_MOVE, "there is no animal on d5"),
        ("0000", RejectCode.ILLEGAL_MOVE, "a pass is only made for a player"),
        ("a3", RejectCode.INVALID_MOVE, "expected from- and to-square"),
        ("z9z8", RejectCode.INVALID_MOVE, "invalid move"),
        ("", RejectCode.INVALID_MOVE, "invalid move"),
    ],
)
def test_illegal_and_malformed_moves_are_explained(
    text: str, code: RejectCode, reason: str
) -> None:
    game = online_game()
    rejected = refused(game, Move(actor=RED_ID, move=text), T0 + 1)
    assert rejected.code is code
    assert reason in rejected.reason
    assert rejected.command == "move"


def test_a_move_that_is_not_a_string_is_refused() -> None:
    game = online_game()
    rejected = refused(game, Move(actor=RED_ID, move=None), T0 + 1)  # type: ignore[arg-type]
    assert rejected.code is RejectCode.INVALID_MOVE


def test_no_move_before_the_start() -> None:
    game = online_game(start=False)
    assert refused(game, Move(actor=RED_ID, move="a3a4"), T0 + 1).code is RejectCode.NOT_STARTED


def test_entering_the_den_wins() -> None:
    game = online_game(fen=DEN_FEN)
    game, events = ok(game, Move(actor=RED_ID, move="d8d9"), T0 + 1)
    assert types(events) == ["move_made", "game_finished"]
    assert events[0].readable == "Ld8-d9#"  # type: ignore[attr-defined]
    finished = events[1]
    assert isinstance(finished, GameFinished)
    assert (finished.termination, finished.winner, finished.result) == (
        BoardEnding("den_entered"),
        0,
        "1-0",
    )
    assert game.status is GameStatus.DEN_ENTERED and game.finished_at == T0 + 1
    assert events[0].dests == {}  # type: ignore[attr-defined]


def test_capturing_the_last_animal_wins() -> None:
    game = online_game(fen=LAST_ANIMAL_FEN)
    game, events = ok(game, Move(actor=RED_ID, move="a4a5"), T0 + 1)
    assert events[0].readable == "Ea4xa5"  # type: ignore[attr-defined]
    assert game.status is GameStatus.ALL_CAPTURED and game.winner == 0


def test_leaving_the_opponent_without_a_move_wins() -> None:
    game = online_game(fen=HEMMED_FEN)
    game, _ = ok(game, Move(actor=RED_ID, move="g1g2"), T0 + 1)
    assert game.status is GameStatus.NO_LEGAL_MOVES and game.result == "1-0"


def test_threefold_repetition_draws() -> None:
    game, _ = play(online_game(), REPEAT[:-1])
    assert game.status is GameStatus.STARTED
    game, _ = play(game, REPEAT[-1:])
    assert game.status is GameStatus.REPETITION
    assert (game.winner, game.result) == (None, "1/2-1/2")


def test_the_no_capture_limit_of_a_custom_rule_set_draws() -> None:
    rules = RuleSet(name="quick", no_capture_draw_rounds=2)
    game, _ = play(online_game(rules=rules), ["a3a4", "a7a6", "g3g4", "g7g6"])
    assert game.status is GameStatus.NO_CAPTURE_LIMIT


def test_no_move_after_the_end() -> None:
    game = online_game(fen=DEN_FEN)
    game, _ = ok(game, Move(actor=RED_ID, move="d8d9"), T0 + 1)
    rejected = refused(game, Move(actor=BLUE_ID, move="a9a8"), T0 + 2)
    assert rejected.code is RejectCode.GAME_OVER
    assert "den entered" in rejected.reason


def test_blue_may_move_first() -> None:
    from tests.support.helpers import blue_player, red_player, started

    from doushouqi.server.domain import GameSpec, Mode, new_game

    spec = GameSpec(Mode.ONLINE, (red_player(), blue_player()), first_player=1)
    game = started(new_game(spec, game_id="g", now=T0))
    assert game.turn == 1 and game.first_player == 1
    assert refused(game, Move(actor=RED_ID, move="a3a4"), T0 + 1).code is RejectCode.NOT_YOUR_TURN
    game, _ = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 1)
    assert game.turn == 0
