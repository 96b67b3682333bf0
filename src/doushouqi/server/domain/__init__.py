"""The server's pure domain core: games as values, ``apply(game, command, now)``.

No IO, database, asyncio or web framework: the server's per-game actor loads a
:class:`Game`, applies commands with :func:`apply`, stores and broadcasts the events, and sleeps
until :func:`next_deadline` to send a :class:`Tick`.

>>> from doushouqi.server.domain import *
>>> spec = GameSpec(Mode.VS_AI, (PlayerSlot.account(1, "Li"), PlayerSlot.ai(3)))
>>> game = new_game(spec, game_id="g1", now=0.0)
>>> game, events = apply(game, Join(actor=Account(1)), now=1.0)
>>> [e.type for e in events], game.version
(['player_joined', 'game_started'], 1)
>>> game, events = apply(game, Move(actor=Account(1), move="a3a4"), now=2.0)
>>> events[0].readable, game.turn
('Ea3-a4', 1)
>>> game, events = apply(game, Move(actor=Account(2), move="a7a6"), now=3.0)
>>> events[0].code
<RejectCode.NOT_A_PLAYER: 'not_a_player'>
"""

from __future__ import annotations

from doushouqi.server.domain.apply import apply
from doushouqi.server.domain.commands import (
    COMMAND_TYPES,
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
    AlreadyApplied,
    ClockView,
    DrawDeclined,
    DrawOffered,
    Event,
    GameFinished,
    GameStarted,
    MoveMade,
    PlayerDisconnected,
    PlayerJoined,
    PlayerReconnected,
    RejectCode,
    Rejected,
    RematchCreated,
    RematchOffered,
    TakebackApplied,
    TakebackDeclined,
    TakebackRequested,
    TimeoutPassed,
)
from doushouqi.server.domain.handlers import HANDLERS
from doushouqi.server.domain.model import (
    DEFAULT_GRACE_PERIOD,
    DEFAULT_LOBBY_WAIT,
    DEFAULT_START_WAIT,
    AbortReason,
    CorruptGameError,
    Game,
    GameSpec,
    GameSpecError,
    GameStatus,
    Mode,
    RatingChange,
    TimedMove,
    new_game,
    rematch_spec,
)
from doushouqi.server.domain.players import (
    SERVER,
    Account,
    Actor,
    AiPlayer,
    Guest,
    PlayerIdentity,
    PlayerSlot,
    Server,
    identity_from_dict,
)
from doushouqi.server.domain.snapshot import game_state_dict
from doushouqi.server.domain.timing import (
    abandonment_deadline,
    lobby_deadline,
    next_deadline,
    start_deadline,
)
from doushouqi.server.domain.views import clock_view, legal_destinations

__all__ = [
    "COMMAND_TYPES",
    "DEFAULT_GRACE_PERIOD",
    "DEFAULT_LOBBY_WAIT",
    "DEFAULT_START_WAIT",
    "HANDLERS",
    "SERVER",
    "Abort",
    "AbortReason",
    "AcceptDraw",
    "AcceptTakeback",
    "Account",
    "Actor",
    "AiPlayer",
    "AlreadyApplied",
    "ClaimDraw",
    "ClaimVictory",
    "ClockView",
    "Command",
    "CorruptGameError",
    "DeclineDraw",
    "DeclineTakeback",
    "Disconnected",
    "DrawDeclined",
    "DrawOffered",
    "Event",
    "Game",
    "GameFinished",
    "GameSpec",
    "GameSpecError",
    "GameStarted",
    "GameStatus",
    "Guest",
    "Join",
    "Mode",
    "Move",
    "MoveMade",
    "OfferDraw",
    "PlayerDisconnected",
    "PlayerIdentity",
    "PlayerJoined",
    "PlayerReconnected",
    "PlayerSlot",
    "RatingChange",
    "Reconnected",
    "RejectCode",
    "Rejected",
    "Rematch",
    "RematchCreated",
    "RematchOffered",
    "RequestTakeback",
    "Resign",
    "Server",
    "TakebackApplied",
    "TakebackDeclined",
    "TakebackRequested",
    "Tick",
    "TimedMove",
    "TimeoutPassed",
    "abandonment_deadline",
    "apply",
    "clock_view",
    "game_state_dict",
    "identity_from_dict",
    "legal_destinations",
    "lobby_deadline",
    "new_game",
    "next_deadline",
    "rematch_spec",
    "start_deadline",
]
