"""One small handler per command, and the table that dispatches to them.

A handler takes the :class:`~.flow.Context` (the game with every deadline up to ``now``
applied) and its command, and returns :class:`~.flow.Accept` (new game, events) or
:class:`~.flow.Reject` (code, reason). Handlers never raise for bad input.

Choices where the rules are silent:

* Joining: a game starts when every seat is filled and every human seat has sent ``Join``;
  the clocks start then (so nobody's time runs while a page loads).
* Draw offers stand until the opponent plays (which declines them) or answers; offering
  while the opponent's offer stands is agreeing to it.
* Abort is open to either player (and the server) until both sides have made a real move;
  in tournament games to the server only (the director ends a game nobody came to).
* Takebacks remove the requester's last real move and every ply after it (the opponent's
  reply, timeout passes). Against the AI and on one screen they apply at once; online the
  opponent must accept; tournament games allow none. The time used on the current turn is
  charged, then the turn restarts; timeout counts stay.
* Rematch: against the AI and on one screen the spec is created at once; online when both
  players have asked. Tournament games have no rematch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from doushouqi.core.clock import GameClock
from doushouqi.core.game import IllegalMoveError, MoveError
from doushouqi.core.outcome import Outcome, PlatformEnding
from doushouqi.server.domain.commands import (
    Abort,
    AcceptDraw,
    AcceptTakeback,
    ClaimDraw,
    ClaimVictory,
    Command,
    DeclineDraw,
    DeclineTakeback,
    Disconnected,
    Join,
    Move,
    OfferDraw,
    Reconnected,
    Rematch,
    RequestTakeback,
    Resign,
    Tick,
)
from doushouqi.server.domain.events import (
    DrawDeclined,
    DrawOffered,
    Event,
    GameStarted,
    MoveMade,
    PlayerDisconnected,
    PlayerJoined,
    PlayerReconnected,
    RejectCode,
    RematchCreated,
    RematchOffered,
    TakebackApplied,
    TakebackDeclined,
    TakebackRequested,
)
from doushouqi.server.domain.flow import (
    Accept,
    Context,
    HandlerResult,
    Reject,
    add_ply,
    end_on_board,
    finish,
    lapse_offers,
    require_started,
    resolve_seat,
    rewind_clock,
)
from doushouqi.server.domain.model import (
    MOVE_ID_MAX_LENGTH,
    MOVE_IDS_KEPT,
    Game,
    GameStatus,
    Mode,
    rematch_spec,
)
from doushouqi.server.domain.players import AiPlayer, PlayerSlot, Server
from doushouqi.server.domain.timing import abandonment_deadline
from doushouqi.server.domain.views import clock_view, legal_destinations

__all__ = ["HANDLERS", "Handler"]

#: Longer texts are refused before parsing (a move string is 4 characters, spaces aside).
_LONGEST_MOVE_TEXT = 16
Handler = Callable[[Context, Any], HandlerResult]


# ---------------------------------------------------------------------- joining


def _start(game: Game, now: float) -> Accept:
    position = game.position()
    clock = None
    if game.time_control is not None:
        clock = GameClock.new(game.time_control, to_move=position.turn).start(now)
    # Grace periods run from the start at the earliest: nobody can leave a game not yet begun.
    away = tuple(None if t is None else max(t, now) for t in game.disconnected_since)
    game = game.evolve(
        status=GameStatus.STARTED, started_at=now, clock=clock, disconnected_since=away
    )
    started = GameStarted(
        at=now,
        players=game.players,
        to_move=position.turn,
        fen=position.position_string(),
        dests=legal_destinations(position),
        clocks=clock_view(clock, now),
    )
    return Accept(game, [started])


def _take_open_seat(game: Game, command: Join) -> Accept | Reject:
    if isinstance(command.actor, Server):
        return Reject(RejectCode.NOT_A_PLAYER, "the server cannot take a seat")
    if game.mode is not Mode.ONLINE:
        return Reject(RejectCode.NOT_A_PLAYER, "you are not playing in this game")
    if isinstance(command.actor, AiPlayer):
        return Reject(RejectCode.NOT_AVAILABLE, "online games seat no AI")
    open_seats = [c for c in (0, 1) if game.players[c] is None]
    if not open_seats:
        return Reject(RejectCode.GAME_FULL, "both seats are taken")
    seat = open_seats[0] if command.color is None else command.color
    if seat not in open_seats:
        return Reject(RejectCode.SEAT_TAKEN, f"{game.seat_name(seat)} is taken")
    player = command.player
    if not isinstance(player, PlayerSlot) or player.identity != command.actor:
        return Reject(RejectCode.BAD_COMMAND, "join with your own player details")
    if game.rated and not player.is_account:
        return Reject(RejectCode.ACCOUNT_REQUIRED, "rated games are for account holders")
    players = list(game.players)
    players[seat] = player
    ready = list(game.ready)
    ready[seat] = True
    game = game.evolve(players=(players[0], players[1]), ready=(ready[0], ready[1]))
    return Accept(game, [PlayerJoined(color=seat, player=player)])


def handle_join(ctx: Context, command: Join) -> HandlerResult:
    game = ctx.game
    if game.status is not GameStatus.CREATED:
        code = RejectCode.GAME_OVER if game.status.is_over else RejectCode.ALREADY_STARTED
        return Reject(code, f"the game has already {'ended' if game.status.is_over else 'started'}")
    seats = game.seats_of(command.actor)
    if seats:
        if command.color is not None and command.color not in seats:
            return Reject(
                RejectCode.NOT_YOUR_SEAT, f"you do not play {game.seat_name(command.color)}"
            )
        wanted = seats if command.color is None else (command.color,)
        arriving = [c for c in wanted if not game.ready[c]]
        if not arriving:
            return Reject(RejectCode.ALREADY_JOINED, "you have already joined")
        ready = [game.ready[c] or c in arriving for c in (0, 1)]
        joined = game.evolve(ready=(ready[0], ready[1]))
        step = Accept(joined, [PlayerJoined(color=c, player=_seated(game, c)) for c in arriving])
    else:
        taken = _take_open_seat(game, command)
        if isinstance(taken, Reject):
            return taken
        step = taken
    game = step.game
    if all(p is not None for p in game.players) and all(game.ready):
        started = _start(game, ctx.now)
        return Accept(started.game, [*step.events, *started.events])
    return step


def _seated(game: Game, color: int) -> PlayerSlot:
    player = game.players[color]
    assert player is not None
    return player


# ---------------------------------------------------------------------- moves


def handle_move(ctx: Context, command: Move) -> HandlerResult:
    game = ctx.game
    seat = resolve_seat(game, command, default=game.turn)
    if isinstance(seat, Reject):
        return seat
    if rejected := require_started(game):
        return rejected
    if seat != game.turn:
        return Reject(RejectCode.NOT_YOUR_TURN, f"it is {game.seat_name(game.turn)}'s turn")
    if not isinstance(command.move, str) or len(command.move) > _LONGEST_MOVE_TEXT:
        return Reject(RejectCode.INVALID_MOVE, "a move is a string such as 'g3g4'")
    move_id = command.move_id
    if move_id is not None and (
        not isinstance(move_id, str) or not 0 < len(move_id) <= MOVE_ID_MAX_LENGTH
    ):
        reason = f"a move id is a string of 1 to {MOVE_ID_MAX_LENGTH} characters"
        return Reject(RejectCode.BAD_COMMAND, reason)
    position = game.position()
    try:
        move = position.parse_move(command.move)
    except IllegalMoveError as exc:  # well formed, refused by the rules (the message says why)
        return Reject(RejectCode.ILLEGAL_MOVE, str(exc))
    except MoveError as exc:
        return Reject(RejectCode.INVALID_MOVE, str(exc))
    # Words are made before the move is played: they name the piece that moves and what it
    # takes, which the position after the move no longer shows.
    readable = position.move_text(move, "en")
    readable_zh = position.move_text(move, "zh")
    position.push(move)
    clock = game.clock.press(ctx.now) if game.clock is not None else None
    if move_id is None:
        game = add_ply(game, position, move, ctx.now, clock)
    else:
        move_ids = (*game.move_ids, (move_id, move))[-MOVE_IDS_KEPT:]
        game = add_ply(game, position, move, ctx.now, clock, move_ids=move_ids)
    made = MoveMade.made(
        color=seat,
        move=move,
        readable=readable,
        readable_zh=readable_zh,
        ply=len(game.moves),
        at=ctx.now,
        fen=position.position_string(),
        to_move=position.turn,
        dests=legal_destinations(position),
        clocks=clock_view(clock, ctx.now),
        move_id=move_id,
    )
    lapsed = lapse_offers(game, seat)
    ended = end_on_board(lapsed.game, position, ctx.now)
    return Accept(ended.game, [made, *lapsed.events, *ended.events])


# ---------------------------------------------------------------------- resign, draw, abort


def handle_resign(ctx: Context, command: Resign) -> HandlerResult:
    game = ctx.game
    seat = resolve_seat(game, command, default=game.turn)
    if isinstance(seat, Reject):
        return seat
    if rejected := require_started(game):
        return rejected
    return finish(game, Outcome(PlatformEnding.RESIGNATION, 1 - seat), ctx.now)


def handle_offer_draw(ctx: Context, command: OfferDraw) -> HandlerResult:
    game = ctx.game
    seat = resolve_seat(game, command, default=game.turn)
    if isinstance(seat, Reject):
        return seat
    if rejected := require_started(game):
        return rejected
    if game.draw_offer == seat:
        return Reject(RejectCode.DRAW_ALREADY_OFFERED, "you have already offered a draw")
    if game.draw_offer == 1 - seat:
        return finish(game, Outcome(PlatformEnding.DRAW_AGREED, None), ctx.now)
    return Accept(game.evolve(draw_offer=seat), [DrawOffered(color=seat)])


_NO_DRAW_OFFER = Reject(RejectCode.NO_DRAW_OFFER, "there is no draw offer from your opponent")
_NO_TAKEBACK_REQUEST = Reject(
    RejectCode.NO_TAKEBACK_REQUEST, "there is no takeback request to answer"
)


def _answer_seat(
    ctx: Context, command: Command, asker: int | None, nothing_to_answer: Reject
) -> int | Reject:
    """The seat answering an offer or request made by ``asker``, or why it cannot answer
    (``nothing_to_answer`` when there is no offer or request from its opponent)."""
    seat = resolve_seat(ctx.game, command, default=None if asker is None else 1 - asker)
    if isinstance(seat, Reject):
        return seat
    if rejected := require_started(ctx.game):
        return rejected
    if asker is None or asker == seat:
        return nothing_to_answer
    return seat


def handle_accept_draw(ctx: Context, command: AcceptDraw) -> HandlerResult:
    game = ctx.game
    seat = _answer_seat(ctx, command, game.draw_offer, _NO_DRAW_OFFER)
    if isinstance(seat, Reject):
        return seat
    return finish(game, Outcome(PlatformEnding.DRAW_AGREED, None), ctx.now)


def handle_decline_draw(ctx: Context, command: DeclineDraw) -> HandlerResult:
    game = ctx.game
    seat = _answer_seat(ctx, command, game.draw_offer, _NO_DRAW_OFFER)
    if isinstance(seat, Reject):
        return seat
    return Accept(game.evolve(draw_offer=None), [DrawDeclined(color=seat)])


def handle_abort(ctx: Context, command: Abort) -> HandlerResult:
    game = ctx.game
    if not isinstance(command.actor, Server):
        seat = resolve_seat(game, command)
        if isinstance(seat, Reject):
            return seat
        if game.tournament and not game.status.is_over:
            # A paired game is the tournament's: only its director ends one nobody came to.
            return Reject(RejectCode.NOT_AVAILABLE, "tournament games cannot be aborted")
    if game.status.is_over:
        return require_started(game) or Reject(RejectCode.GAME_OVER, "the game is over")
    if game.status is GameStatus.STARTED and game.has_moved(0) and game.has_moved(1):
        reason = "both sides have moved: resign or offer a draw instead"
        return Reject(RejectCode.NOT_ABORTABLE, reason)
    return finish(game, Outcome(PlatformEnding.ABORTED, None), ctx.now)


# ---------------------------------------------------------------------- takebacks


def _plies_to_take_back(game: Game, color: int) -> int | None:
    """How many plies go when ``color`` takes back its last real move (None: it has none)."""
    colors = game.ply_colors()
    for index in range(len(game.moves) - 1, -1, -1):
        if colors[index] == color and not game.is_pass(game.moves[index].move):
            return len(game.moves) - index
    return None


def _last_mover(game: Game) -> int | None:
    colors = game.ply_colors()
    for index in range(len(game.moves) - 1, -1, -1):
        if not game.is_pass(game.moves[index].move):
            return colors[index]
    return None


def _take_back(game: Game, requester: int, now: float) -> HandlerResult:
    count = _plies_to_take_back(game, requester)
    if count is None:
        return Reject(RejectCode.NOTHING_TO_TAKE_BACK, "there is no move of yours to take back")
    removed = tuple(m.move for m in game.moves[-count:])
    position = game.position()
    for _ in range(count):
        position.pop()
    clock = rewind_clock(game.clock, position.turn, now)
    events: list[Event] = []
    if game.draw_offer is not None:
        events.append(DrawDeclined(color=1 - game.draw_offer, implicit=True))
    game = game.with_position(
        position, moves=game.moves[:-count], clock=clock, draw_offer=None, takeback_request=None
    )
    applied = TakebackApplied(
        color=requester,
        removed=removed,
        ply=len(game.moves),
        fen=position.position_string(),
        to_move=position.turn,
        dests=legal_destinations(position),
        clocks=clock_view(clock, now),
    )
    return Accept(game, [applied, *events])


def handle_request_takeback(ctx: Context, command: RequestTakeback) -> HandlerResult:
    game = ctx.game
    seat = resolve_seat(game, command, default=_last_mover(game))
    if isinstance(seat, Reject):
        return seat
    if rejected := require_started(game):
        return rejected
    if game.tournament:
        return Reject(RejectCode.NOT_AVAILABLE, "tournament games allow no takebacks")
    if game.is_ai_seat(seat):
        return Reject(RejectCode.NOT_AVAILABLE, "the AI does not take back its moves")
    if game.mode is not Mode.ONLINE:
        return _take_back(game, seat, ctx.now)
    if game.takeback_request is not None:
        whose = "your" if game.takeback_request == seat else "your opponent's"
        return Reject(RejectCode.TAKEBACK_PENDING, f"{whose} takeback request is already pending")
    if _plies_to_take_back(game, seat) is None:
        return Reject(RejectCode.NOTHING_TO_TAKE_BACK, "there is no move of yours to take back")
    return Accept(game.evolve(takeback_request=seat), [TakebackRequested(color=seat)])


def handle_accept_takeback(ctx: Context, command: AcceptTakeback) -> HandlerResult:
    game = ctx.game
    seat = _answer_seat(ctx, command, game.takeback_request, _NO_TAKEBACK_REQUEST)
    if isinstance(seat, Reject):
        return seat
    return _take_back(game, 1 - seat, ctx.now)  # the requester is the opponent


def handle_decline_takeback(ctx: Context, command: DeclineTakeback) -> HandlerResult:
    game = ctx.game
    seat = _answer_seat(ctx, command, game.takeback_request, _NO_TAKEBACK_REQUEST)
    if isinstance(seat, Reject):
        return seat
    return Accept(game.evolve(takeback_request=None), [TakebackDeclined(color=seat)])


# ---------------------------------------------------------------------- connections


def handle_claim_victory(ctx: Context, command: ClaimVictory) -> HandlerResult:
    before, game = ctx.before, ctx.game
    seat = resolve_seat(before, command)
    if isinstance(seat, Reject):
        return seat
    if before.mode is not Mode.ONLINE:
        return Reject(
            RejectCode.NOT_AVAILABLE, "only an online game is won by the opponent leaving"
        )
    # The grace expiry is a deadline like any other: settling up to now has already applied it.
    won_now = game.status.is_over and not before.status.is_over
    if won_now and game.termination is PlatformEnding.ABANDONMENT and game.winner == seat:
        return Accept(game, [])
    if rejected := require_started(game):
        return rejected
    deadline = abandonment_deadline(game, 1 - seat)
    if deadline is None:
        return Reject(RejectCode.OPPONENT_CONNECTED, "your opponent is connected")
    left = deadline - ctx.now
    return Reject(RejectCode.GRACE_NOT_OVER, f"your opponent has {left:.0f} s left to return")


def handle_claim_draw(ctx: Context, command: ClaimDraw) -> HandlerResult:
    game = ctx.game
    seat = resolve_seat(game, command)
    if isinstance(seat, Reject):
        return seat
    if game.mode is not Mode.ONLINE:
        return Reject(RejectCode.NOT_AVAILABLE, "only an online game's opponent can leave")
    if rejected := require_started(game):
        return rejected
    if abandonment_deadline(game, 1 - seat) is None:
        return Reject(RejectCode.OPPONENT_CONNECTED, "your opponent is connected")
    # The one who stayed lets the leaver off: a draw, and no penalty for leaving.
    return finish(game, Outcome(PlatformEnding.DRAW_AGREED, None), ctx.now)


def _connection_seat(game: Game, command: Command) -> int | Reject:
    if not isinstance(command.actor, Server):
        return Reject(RejectCode.SERVER_ONLY, "only the server reports connections")
    if command.color is None:
        return Reject(RejectCode.BAD_COMMAND, "say which colour's connection changed")
    if game.status.is_over:
        return Reject(RejectCode.GAME_OVER, "the game is over")
    if game.players[command.color] is None or game.is_ai_seat(command.color):
        return Reject(
            RejectCode.BAD_COMMAND, f"no player connects at {game.seat_name(command.color)}"
        )
    return command.color


def handle_disconnected(ctx: Context, command: Disconnected) -> HandlerResult:
    game = ctx.game
    seat = _connection_seat(game, command)
    if isinstance(seat, Reject):
        return seat
    if game.disconnected_since[seat] is not None:
        return Reject(RejectCode.NO_CHANGE, f"{game.seat_name(seat)} is already disconnected")
    at = ctx.now if command.at is None else command.at
    if isinstance(at, bool) or not isinstance(at, (int, float)) or not at <= ctx.now:
        return Reject(RejectCode.BAD_TIME, f"a disconnect time must not be after now: {at!r}")
    # A disconnect cannot predate what the game has already recorded.
    at = max(float(at), game.last_activity_at)
    away = list(game.disconnected_since)
    away[seat] = at
    game = game.evolve(disconnected_since=(away[0], away[1]))
    deadline = abandonment_deadline(game, seat)
    return Accept(game, [PlayerDisconnected(color=seat, at=at, deadline=deadline)])


def handle_reconnected(ctx: Context, command: Reconnected) -> HandlerResult:
    game = ctx.game
    seat = _connection_seat(game, command)
    if isinstance(seat, Reject):
        return seat
    since = game.disconnected_since[seat]
    if since is None:
        return Reject(RejectCode.NO_CHANGE, f"{game.seat_name(seat)} is already connected")
    away = list(game.disconnected_since)
    away[seat] = None
    game = game.evolve(disconnected_since=(away[0], away[1]))
    return Accept(game, [PlayerReconnected(color=seat, at=ctx.now, away=ctx.now - since)])


def handle_tick(ctx: Context, command: Tick) -> HandlerResult:
    if not isinstance(command.actor, Server):
        return Reject(RejectCode.SERVER_ONLY, "only the server keeps time")
    # Settling the deadlines up to now, done before every handler, is all a tick does.
    return Accept(ctx.game, [])


# ---------------------------------------------------------------------- rematch


def handle_rematch(ctx: Context, command: Rematch) -> HandlerResult:
    game = ctx.game
    seat = resolve_seat(game, command, default=0)
    if isinstance(seat, Reject):
        return seat
    if not game.status.is_over:
        return Reject(RejectCode.NOT_OVER, "the game is still going")
    if game.tournament:
        return Reject(RejectCode.NOT_AVAILABLE, "tournament games have no rematch")
    if any(p is None for p in game.players):
        return Reject(RejectCode.NOT_AVAILABLE, "there is no opponent to play again")
    if game.rematch_created:
        return Reject(RejectCode.REMATCH_PENDING, "the rematch has already been set up")
    if game.mode is Mode.ONLINE and game.rematch_offer != 1 - seat:
        if game.rematch_offer == seat:
            return Reject(RejectCode.REMATCH_PENDING, "you have already asked for a rematch")
        return Accept(game.evolve(rematch_offer=seat), [RematchOffered(color=seat)])
    created = RematchCreated(color=seat, spec=rematch_spec(game))
    return Accept(game.evolve(rematch_created=True), [created])


#: The dispatch table: command type → handler.
HANDLERS: Mapping[type[Command], Handler] = {
    Join: handle_join,
    Move: handle_move,
    Resign: handle_resign,
    OfferDraw: handle_offer_draw,
    AcceptDraw: handle_accept_draw,
    DeclineDraw: handle_decline_draw,
    Abort: handle_abort,
    RequestTakeback: handle_request_takeback,
    AcceptTakeback: handle_accept_takeback,
    DeclineTakeback: handle_decline_takeback,
    ClaimVictory: handle_claim_victory,
    ClaimDraw: handle_claim_draw,
    Disconnected: handle_disconnected,
    Reconnected: handle_reconnected,
    Tick: handle_tick,
    Rematch: handle_rematch,
}
