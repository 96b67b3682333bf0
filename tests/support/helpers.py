"""Builders and drivers shared by the domain tests (tests/server/domain/test_*.py).

Times are plain floats from an arbitrary origin (``T0``); every call passes ``now``, so the
tests control time exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from doushouqi.core.clock import TimeControl
from doushouqi.jungle.board import Board
from doushouqi.jungle.game import JUNGLE
from doushouqi.jungle.rules import RuleSet
from doushouqi.server.domain import (
    Account,
    Command,
    Event,
    Game,
    GameSpec,
    Join,
    Mode,
    Move,
    PlayerSlot,
    Rejected,
    apply,
    new_game,
)

T0 = 1000.0
#: A rapid time control (rated games need a clock: ratings are per speed).
RAPID = "10+0"
RED_ID, BLUE_ID = Account(1), Account(2)
SPECTATOR = Account(99)
OWNER = Account(5)


def red_player(score: int = 0) -> PlayerSlot:
    return PlayerSlot.account(1, "Li", score=score)


def blue_player(score: int = 0) -> PlayerSlot:
    return PlayerSlot.account(2, "Wang", score=score)


def started(game: Game, now: float = T0) -> Game:
    """Send Join for every human seat, so that the game starts at ``now``."""
    identities = {p.identity for p in game.players if p is not None and not p.is_ai}
    for identity in sorted(identities, key=repr):
        game, events = apply(game, Join(actor=identity), now)
        assert not any(isinstance(e, Rejected) for e in events), events
    assert game.started_at == now
    return game


def online_game(
    *,
    time_control: str | None = None,
    rated: bool = False,
    tournament: bool = False,
    fen: str | None = None,
    rules: RuleSet | str = "wango",
    grace: float = 60.0,
    scores: tuple[int, int] = (0, 0),
    start: bool = True,
    start_wait: float = 86400.0,
) -> Game:
    """An online game between two accounts. Its wait for the players to come and make their
    first moves is a day unless ``start_wait`` says otherwise: the tests of other deadlines
    leave games unplayed for minutes (tests/server/domain/test_no_shows.py tests that wait)."""
    spec = GameSpec(
        Mode.ONLINE,
        (red_player(scores[0]), blue_player(scores[1])),
        rules=rules,
        time_control=None if time_control is None else TimeControl.parse(time_control),
        rated=rated,
        tournament=tournament,
        grace_period=grace,
        start_fen=fen,
        start_wait=start_wait,
    )
    game = new_game(spec, game_id="online-1", now=T0)
    return started(game) if start else game


def ai_game(
    *, human: int = 0, level: int = 3, time_control: str | None = None, fen: str | None = None
) -> Game:
    # The human is always account 1 (RED_ID), whichever colour it plays.
    seats = [PlayerSlot.ai(level), PlayerSlot.ai(level)]
    seats[human] = red_player()
    spec = GameSpec(
        Mode.VS_AI,
        (seats[0], seats[1]),
        time_control=None if time_control is None else TimeControl.parse(time_control),
        start_fen=fen,
    )
    return started(new_game(spec, game_id="ai-1", now=T0))


def same_screen_game(*, fen: str | None = None, time_control: str | None = None) -> Game:
    spec = GameSpec(
        Mode.SAME_SCREEN,
        (PlayerSlot.account(5, "Red side"), PlayerSlot.account(5, "Blue side")),
        start_fen=fen,
        time_control=None if time_control is None else TimeControl.parse(time_control),
    )
    return started(new_game(spec, game_id="screen-1", now=T0))


def ok(game: Game, command: Command, now: float) -> tuple[Game, list[Event]]:
    """Apply a command that must be accepted."""
    after, events = apply(game, command, now)
    assert events, "expected events"
    assert not any(isinstance(e, Rejected) for e in events), events
    assert after.version == game.version + 1
    return after, events


def refused(game: Game, command: Command, now: float) -> Rejected:
    """Apply a command that must be refused; the game must not change."""
    after, events = apply(game, command, now)
    assert after is game
    assert len(events) == 1 and isinstance(events[0], Rejected), events
    return events[0]


def play(
    game: Game,
    moves: Iterable[str],
    *,
    start: float | None = None,
    step: float = 1.0,
) -> tuple[Game, float]:
    """Play ``moves`` for whoever is to move (identities from the seats), ``step`` s apart."""
    now = game.last_activity_at if start is None else start
    for text in moves:
        now += step
        player = game.players[game.turn]
        assert player is not None
        game, _ = ok(game, Move(actor=player.identity, move=text), now)
    return game, now


def quiet_moves(count: int, fen: str | None = None, rules: str = "wango") -> list[str]:
    """``count`` legal moves that capture nothing, repeat no position and end nothing."""
    board = Board(fen, rules)
    played: list[str] = []
    for _ in range(count):
        for move in sorted(board.legal_moves, key=str):
            if board.is_capture(move):
                continue
            board.push(move)
            if board.outcome() is None and board.repetition_count() == 1:
                played.append(str(move))
                break
            board.pop()
        else:
            raise AssertionError("no quiet move found")
    return played


def types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]


#: Red lion on d8 (a step from Blue's den d9); Blue has only a rat.
DEN_FEN = "r6/3L3/7/7/7/7/7/7/7 w"
#: Red elephant on a4 beside Blue's last animal, a cat on a5.
LAST_ANIMAL_FEN = "7/7/7/7/c6/E6/7/7/7 w"
#: Blue's rat on a9 is hemmed in by Red's dog and cat; any Red move leaves Blue without moves.
HEMMED_FEN = "rD5/C6/7/7/7/7/7/7/6L w"
#: Lions shuffling g1-g2 / a9-a8 bring the start position back a third time (threefold).
REPEAT = ["g1g2", "a9a8", "g2g1", "a8a9", "g1g2", "a9a8", "g2g1", "a8a9"]


def board_for(request: Any) -> Board:
    """The position of a Jungle AI request (``doushouqi.server.ai.pool.AiRequest``: rule
    mapping, start position, moves) as a board; every move checked ("0000" is a timeout pass,
    refused where no move could be played)."""
    board = Board(request.start_fen, JUNGLE.parse_rules(request.rules))
    for move in request.moves:
        board.push_move(move, allow_pass=True)
    return board


def played_out(prefix: Sequence[str], plies: int, game_key: str = "jungle") -> list[str]:
    """``prefix`` and then, up to ``plies`` plies, the first legal move in alphabetical order
    that does not end the game: a deterministic game of that length (the opening explorer
    counts games of at least ten plies)."""
    from doushouqi.core.game import get_game

    kind = get_game(game_key)
    rules = kind.parse_rules(kind.default_rule_set)
    position = kind.new_position(rules, kind.start_position(rules))
    line = list(prefix)
    for text in line:
        position.push(position.parse_move(text))
    while len(line) < plies:
        for text in sorted(str(m) for m in position.legal_moves()):
            position.push(position.parse_move(text))
            if position.outcome() is None:
                line.append(text)
                break
            position.pop()
        else:
            raise AssertionError(f"no move goes on after {line}")
    return line
