"""The game as a frozen value: :class:`Game`, its :class:`GameStatus`, :class:`Mode` and spec.

A :class:`Game` holds what happened (moves with their times, clocks, offers, the result) and
derives the position by replaying the moves through the game interface
(:mod:`doushouqi.core.game`: the game named by ``game_key``, its rules an opaque value only
that game reads); the replayed position is cached on the value, so asking for it twice costs
one replay. Nothing here reads the time, does IO or names a game: every change goes through
:func:`~doushouqi.server.domain.apply.apply`.

>>> from doushouqi.server.domain.players import PlayerSlot
>>> spec = GameSpec(Mode.ONLINE, (PlayerSlot.account(1, "Li"), None))
>>> game = new_game(spec, game_id="g1", now=0.0)
>>> game.status, game.fen
(<GameStatus.CREATED: 10>, 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1')
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any, NamedTuple

from doushouqi.core.clock import GameClock, TimeControl
from doushouqi.core.game import Game as GameRules  # the kind of game; ours is one being played
from doushouqi.core.game import GameError, MoveError, Position, UnknownGameError, get_game
from doushouqi.core.outcome import Ending, Outcome
from doushouqi.core.rating import Rating
from doushouqi.core.scoring import ScoreChange
from doushouqi.core.speed import Speed, speed_of
from doushouqi.server.domain.players import Actor, PlayerSlot

__all__ = [
    "DEFAULT_GRACE_PERIOD",
    "DEFAULT_LOBBY_WAIT",
    "DEFAULT_START_WAIT",
    "MOVE_IDS_KEPT",
    "MOVE_ID_MAX_LENGTH",
    "AbortReason",
    "CorruptGameError",
    "Game",
    "GameSpec",
    "GameSpecError",
    "GameStatus",
    "Mode",
    "RatingChange",
    "TimedMove",
    "new_game",
    "rematch_spec",
]

#: Seconds a disconnected player of an online game has to come back before losing (逃跑).
DEFAULT_GRACE_PERIOD = 60.0
#: Seconds an online game waits for an opponent to take its open seat before it is aborted.
DEFAULT_LOBBY_WAIT = 1800.0
#: Seconds the players of an online game with both seats filled (a quick pairing, an accepted
#: challenge, a rematch) have to come to the board, and then each to make a first move,
#: before the server aborts it (lichess aborts a game whose first moves do not come; a game
#: nobody played should not stay "created" or count a result).
DEFAULT_START_WAIT = 60.0
#: The game a game is of when nothing says otherwise: every game stored before the platform
#: hosted several was one of Jungle.
DEFAULT_GAME_KEY = "jungle"
#: How many named moves a game remembers the ids of. A client sends again only the move it has
#: no answer for (one, or two for a player holding both seats), so a few would do.
MOVE_IDS_KEPT = 16
#: The longest move id a client may choose.
MOVE_ID_MAX_LENGTH = 64


class GameStatus(IntEnum):
    """Where a game stands; ordered like lichess's status ids, so ``>=`` comparisons work.

    ``CREATED`` < ``STARTED`` < ``ABORTED`` < every decided ending. A decided status has the
    name of its ending's stored key (:attr:`~doushouqi.core.outcome.Outcome.key`): the
    platform's endings, and the board endings of the first game, whose ids were stored before
    there were other games and so keep them; other games' board endings are
    ``ENDED_ON_BOARD``.
    """

    #: Set up, not started: waiting for an opponent to take the open seat, or for the seated
    #: players to join.
    CREATED = 10
    STARTED = 20
    ABORTED = 25
    DEN_ENTERED = 30
    ALL_CAPTURED = 31
    NO_LEGAL_MOVES = 32
    MOVE_RESTRICTIONS = 33
    REPETITION = 34
    NO_CAPTURE_LIMIT = 35
    RESIGNATION = 36
    DRAW_AGREED = 37
    TIME_FORFEIT = 38
    TIMEOUTS = 39
    ABANDONMENT = 40
    #: Decided by a board ending that has no status of its own: every game's but the first's
    #: (the outcome's key says which; a status per ending would need a new id per game).
    ENDED_ON_BOARD = 41

    @property
    def is_over(self) -> bool:
        """Finished or aborted: the game never changes again (rematch bookkeeping aside)."""
        return self >= GameStatus.ABORTED

    @property
    def is_decided(self) -> bool:
        """Finished with a result (not aborted)."""
        return self >= GameStatus.DEN_ENTERED

    @property
    def label(self) -> str:
        """The lower-case name used in dicts (``"started"``, ``"den_entered"``)."""
        return self.name.lower()

    @classmethod
    def for_outcome(cls, outcome: Outcome) -> GameStatus:
        """The status of a game that ended with ``outcome`` (by its ending's key).

        >>> from doushouqi.core.outcome import BoardEnding, PlatformEnding
        >>> GameStatus.for_outcome(Outcome(PlatformEnding.RESIGNATION, 0)).is_decided
        True
        >>> GameStatus.for_outcome(Outcome(BoardEnding("den_entered"), 0)).label
        'den_entered'
        """
        status = cls.__members__.get(outcome.key.upper())
        if status is not None and status.is_decided:
            return status
        if outcome.is_on_board:
            return cls.ENDED_ON_BOARD
        return cls.ABORTED  # the one platform ending that decides nothing


class AbortReason(StrEnum):
    """Why the server aborted a game by itself (a player's abort has no reason)."""

    #: Nobody took the open seat of an online game within its ``lobby_wait``.
    LOBBY_EXPIRED = "lobby_expired"
    #: A player of a game with both seats filled did not come to the board within
    #: its ``start_wait``.
    NO_SHOW = "no_show"
    #: The player to move did not make their first move within its ``start_wait``.
    NO_FIRST_MOVE = "no_first_move"


class Mode(StrEnum):
    """How a game is played."""

    VS_AI = "vs_ai"
    SAME_SCREEN = "same_screen"  # two people on one screen; the owner's session plays both
    ONLINE = "online"


class TimedMove(NamedTuple):
    """One ply: the move string (the game's pass move for a timeout pass) and when it was
    made."""

    move: str
    at: float


@dataclass(frozen=True)
class RatingChange:
    """Both players' Glicko-2 ratings before and after a rated game (index = seat)."""

    before: tuple[Rating, Rating]
    after: tuple[Rating, Rating]

    @property
    def deltas(self) -> tuple[float, float]:
        red, blue = (a.rating - b.rating for a, b in zip(self.after, self.before, strict=True))
        return red, blue

    def to_dict(self) -> dict[str, Any]:
        def one(r: Rating) -> dict[str, Any]:
            # ``provisional``: clients show such a rating with a "?" ("1500?").
            return {
                "rating": r.rating,
                "rd": r.rd,
                "volatility": r.volatility,
                "provisional": r.provisional,
            }

        return {
            "before": [one(r) for r in self.before],
            "after": [one(r) for r in self.after],
            "deltas": list(self.deltas),
        }


class GameSpecError(ValueError):
    """A game cannot be set up as specified (the message says why)."""


class CorruptGameError(ValueError):
    """A stored game's moves do not replay (a bug or damaged storage, never user input)."""


@dataclass(frozen=True)
class GameSpec:
    """What a new game is made of: the settings chosen when it is created (or rematched).

    ``players[c]`` sits at seat c (Jungle: 0 = Red, 1 = Blue); None is an open seat (online
    only). ``rules`` is a rule set name of the game ``game_key`` names, or that game's rule set
    value; None is the game's default. ``first_player`` overrides the rule set's first seat
    (可选择先手); it becomes part of the game's rule set, as docs/rules.md makes it a rule option.
    """

    mode: Mode
    players: tuple[PlayerSlot | None, PlayerSlot | None]
    rules: Any = None
    time_control: TimeControl | None = None
    first_player: int | None = None
    rated: bool = False
    tournament: bool = False
    #: The tournament that paired it (its page links back there); None outside tournaments.
    tournament_id: str | None = None
    grace_period: float = DEFAULT_GRACE_PERIOD
    start_fen: str | None = None
    rematch_of: str | None = None
    lobby_wait: float = DEFAULT_LOBBY_WAIT
    game_key: str = DEFAULT_GAME_KEY
    start_wait: float = DEFAULT_START_WAIT

    def to_dict(self) -> dict[str, Any]:
        rules = self.rules
        if rules is None:
            rules = get_game(self.game_key).default_rule_set
        elif not isinstance(rules, str):
            rules = get_game(self.game_key).rules_to_mapping(rules)
        data: dict[str, Any] = {
            "mode": Mode(self.mode).value,
            "players": [None if p is None else p.to_dict() for p in self.players],
            "rules": rules,
            "time_control": None if self.time_control is None else str(self.time_control),
            "first_player": self.first_player,
            "rated": self.rated,
            "tournament": self.tournament,
            "tournament_id": self.tournament_id,
            "grace_period": self.grace_period,
            "start_fen": self.start_fen,
            "rematch_of": self.rematch_of,
            "lobby_wait": self.lobby_wait,
            "start_wait": self.start_wait,
        }
        # Specs of the first game's games were written without a key; they stay as they were.
        if self.game_key != DEFAULT_GAME_KEY:
            data["game_key"] = self.game_key
        return data


def replay(
    rules: Any, start_fen: str | None, moves: Iterable[str], game_key: str = DEFAULT_GAME_KEY
) -> Position:
    """The position after ``moves`` (the game's pass move = a timeout pass), every move
    checked; ``start_fen`` None is the rule set's start position."""
    kind = get_game(game_key)
    start = kind.start_position(rules) if start_fen is None else start_fen
    position = kind.new_position(rules, start)
    for ply, text in enumerate(moves, 1):
        try:
            if text == kind.pass_move:
                position.push_pass()  # checked: no pass where no move could be played
            else:
                position.push(position.parse_move(text))
        except MoveError as exc:
            raise CorruptGameError(f"ply {ply} ({text!r}) does not replay: {exc}") from None
    return position


@dataclass(frozen=True)
class Game:
    """One game, as a value. Build it with :func:`new_game`; change it with ``apply``.

    ``game_key`` names the game (:func:`doushouqi.core.game.get_game`); ``rules`` is that
    game's rule set value, which only the game reads.
    ``players[c]``, ``ready[c]`` and ``disconnected_since[c]`` are indexed by seat.
    ``clock`` is None without a time control. ``draw_offer`` / ``takeback_request`` /
    ``rematch_offer`` hold the colour that asked. ``score_change`` and ``rating_change`` are
    filled by the scoring step when the game finishes; ``leaver`` is the colour that lost by
    leaving (its account's disconnect count rises). An online game with an open seat is
    aborted ``lobby_wait`` seconds after ``created_at`` (``abort_reason`` then says so); one
    with both seats filled whose players do not come, or do not make their first moves, is
    aborted after ``start_wait`` seconds (domain/timing.py).
    """

    id: str
    mode: Mode
    rules: Any
    players: tuple[PlayerSlot | None, PlayerSlot | None]
    time_control: TimeControl | None = None
    status: GameStatus = GameStatus.CREATED
    start_fen: str | None = None
    moves: tuple[TimedMove, ...] = ()
    clock: GameClock | None = None
    ready: tuple[bool, bool] = (False, False)
    draw_offer: int | None = None
    takeback_request: int | None = None
    outcome: Outcome | None = None
    leaver: int | None = None
    score_change: ScoreChange | None = None
    rating_change: RatingChange | None = None
    rated: bool = False
    tournament: bool = False
    tournament_id: str | None = None
    grace_period: float = DEFAULT_GRACE_PERIOD
    version: int = 0
    created_at: float = 0.0
    started_at: float | None = None
    finished_at: float | None = None
    disconnected_since: tuple[float | None, float | None] = (None, None)
    rematch_offer: int | None = None
    rematch_created: bool = False
    rematch_of: str | None = None
    lobby_wait: float = DEFAULT_LOBBY_WAIT
    start_wait: float = DEFAULT_START_WAIT
    abort_reason: AbortReason | None = None
    game_key: str = DEFAULT_GAME_KEY
    #: The version of the last event that changed what a command acts on: everything but a
    #: player's connection coming or going (None: ``version`` itself). A command sent for any
    #: version from here on still applies: presence never makes a move stale (docs/server.md).
    state_version: int | None = None
    #: When the game last went on after time the site was away (``domain/recovery.py``): its
    #: clocks and grace periods were shifted then, so no outage before it is owed again.
    resumed_at: float | None = None
    #: (id, move) of the last :data:`MOVE_IDS_KEPT` moves whose client named them, oldest
    #: first: a move sent again under its id is not played twice (docs/server.md).
    move_ids: tuple[tuple[str, str], ...] = ()

    def move_with_id(self, move_id: str) -> str | None:
        """The move this game applied under the client's ``move_id`` (None: none)."""
        for known, move in self.move_ids:  # a loop, not a generator: asked with every move
            if known == move_id:
                return move
        return None

    # ------------------------------------------------------------------ the game and position

    @property
    def fresh_since(self) -> int:
        """The first version a command may have been sent for and still apply."""
        return self.version if self.state_version is None else self.state_version

    @property
    def game_type(self) -> GameRules[Any]:
        """The game this is one of, from the registry (its rules, positions and words)."""
        return get_game(self.game_key)

    @property
    def rules_mapping(self) -> dict[str, Any]:
        """The rule set as JSON-ready data (what is stored and sent), its name under "name"."""
        return self.game_type.rules_to_mapping(self.rules)

    @property
    def rules_name(self) -> str:
        return str(self.rules_mapping["name"])

    def seat_name(self, seat: int) -> str:
        """Seat ``seat``'s name in English (Jungle: a colour), for messages."""
        return self.game_type.seat_name(seat, "en")

    def is_pass(self, move: str) -> bool:
        """Whether the ply ``move`` is a timeout pass rather than a move."""
        return move == self.game_type.pass_move

    def _replayed(self) -> Position:
        cached: Position | None = self.__dict__.get("_position")
        if cached is None:
            moves = (m.move for m in self.moves)
            cached = replay(self.rules, self.start_fen, moves, self.game_key)
            object.__setattr__(self, "_position", cached)
        return cached

    def position(self) -> Position:
        """The current position with its history (a fresh copy the caller may change)."""
        return self._replayed().copy()

    @property
    def turn(self) -> int:
        """The seat to move."""
        return self._replayed().turn

    @property
    def fen(self) -> str:
        """The current position as the game writes it."""
        return self._replayed().position_string()

    @property
    def starting_fen(self) -> str:
        """The position the game started from (``start_fen``, or the rule set's start)."""
        if self.start_fen is not None:
            return self.start_fen
        return self.game_type.start_position(self.rules)

    @property
    def first_player(self) -> int:
        """The seat that moves first (a rule option, docs/rules.md 6)."""
        return self.game_type.first_seat(self.rules)

    def ply_colors(self) -> list[int]:
        """The colour that made each ply of ``moves`` (plies alternate, passes included)."""
        n, turn = len(self.moves), self.turn
        return [(turn + n - i) % 2 for i in range(n)]

    def has_moved(self, color: int) -> bool:
        """Whether ``color`` has made a real move (a timeout pass is not a move)."""
        return any(
            c == color and not self.is_pass(m.move)
            for c, m in zip(self.ply_colors(), self.moves, strict=True)
        )

    @property
    def real_move_count(self) -> int:
        return sum(1 for m in self.moves if not self.is_pass(m.move))

    # ------------------------------------------------------------------ the result

    @property
    def termination(self) -> Ending | None:
        """How the game ended: a platform ending or the game's board ending."""
        return None if self.outcome is None else self.outcome.ending

    @property
    def termination_key(self) -> str | None:
        """The ending's stored key (``"resignation"``, ``"den_entered"``), None while on."""
        return None if self.outcome is None else self.outcome.key

    @property
    def winner(self) -> int | None:
        return None if self.outcome is None else self.outcome.winner

    @property
    def speed(self) -> Speed | None:
        """The speed its time control gives, whose rating it counts for (None: no clock)."""
        return speed_of(self.time_control)

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` while going on or when aborted."""
        return "*" if self.outcome is None else self.outcome.result()

    @property
    def timeouts(self) -> tuple[int, int]:
        """Each colour's per-move timeouts so far (docs/rules.md 5.3)."""
        return (0, 0) if self.clock is None else self.clock.timeouts

    # ------------------------------------------------------------------ the players

    def seats_of(self, actor: Actor) -> tuple[int, ...]:
        """The colours ``actor`` holds: none (a spectator), one, or both (same screen)."""
        return tuple(c for c, p in enumerate(self.players) if p is not None and p.identity == actor)

    def is_ai_seat(self, color: int) -> bool:
        player = self.players[color]
        return player is not None and player.is_ai

    @property
    def last_activity_at(self) -> float:
        """The latest time the game has recorded; a command must not come earlier."""
        # Asked with every command: one pass over the candidates, no lists made.
        latest = self.created_at
        clock = self.clock
        for t in (
            self.started_at,
            self.finished_at,
            self.resumed_at,
            *self.disconnected_since,
            self.moves[-1].at if self.moves else None,
            None if clock is None else clock.turn_started,
            None if clock is None else clock.paused_at,
        ):
            if t is not None and t > latest:
                latest = t
        return latest

    def same_setup(self, other: Game) -> bool:
        """Whether ``other`` has this game's set-up (``_SETUP_FIELDS``) as the very same
        values: a copy made by :meth:`evolve` that changed none of them. False when unsure
        (equal values that are different objects), never wrongly True.

        >>> from doushouqi.server.domain import GameSpec, Mode, PlayerSlot, new_game
        >>> spec = GameSpec(Mode.ONLINE, (PlayerSlot.account(1, "Li"), None))
        >>> game = new_game(spec, game_id="g1", now=0.0)
        >>> game.same_setup(game.evolve(version=1)), game.same_setup(game.evolve(rated=True))
        (True, False)
        """
        mine, theirs = self.__dict__, other.__dict__
        return all(mine[name] is theirs[name] for name in _SETUP_FIELDS)

    def kept(self, name: str, make: Callable[[Game], Any]) -> Any:
        """``make(self)``, made once and kept with this game and its copies while none of the
        fields of its set-up changes (``_SETUP_FIELDS``: who plays, the rules, the clock's
        setting). For what every move would otherwise rebuild from them alone: ``make`` must
        read nothing else, and what it returns is shared (read it, never change it)."""
        kept: dict[str, Any] | None = self.__dict__.get("_kept")
        if kept is None:
            kept = {}
            self.__dict__["_kept"] = kept  # the frozen class refuses setattr, not its dict
        if name not in kept:
            kept[name] = make(self)
        return kept[name]

    # ------------------------------------------------------------------ changing

    def evolve(self, **changes: Any) -> Game:
        """A copy with ``changes`` (field names only: TypeError otherwise, as
        ``dataclasses.replace``); the cached position carries over while the moves stay, and
        what :meth:`kept` made while the set-up stays."""
        state = self._changed(changes)
        if not _POSITION_FIELDS.isdisjoint(changes):
            state.pop("_position", None)
        return _game_from_state(state)

    def with_position(self, position: Position, **changes: Any) -> Game:
        """A copy with ``changes`` whose position is ``position`` (which must match the
        moves)."""
        state = self._changed(changes)
        state["_position"] = position
        return _game_from_state(state)

    def _changed(self, changes: dict[str, Any]) -> dict[str, Any]:
        # A copy of the instance's dict, not ``dataclasses.replace``: a game has 34 fields and
        # changes with every command (several times a move), and replace's call of __init__
        # with every field, each set through object.__setattr__, cost 15-35 µs a copy. No
        # field is computed in __init__ or __post_init__, so the dict is the whole value.
        unknown = changes.keys() - _FIELD_NAMES
        if unknown:
            raise TypeError(f"Game has no field {sorted(unknown)[0]!r}")
        state = dict(self.__dict__)
        state.update(changes)
        if not _SETUP_FIELDS.isdisjoint(changes):
            state.pop("_kept", None)
        return state


#: Game's fields; and those a cached position depends on (a change of one drops it).
_FIELD_NAMES = frozenset(field.name for field in dataclasses.fields(Game))
_POSITION_FIELDS = frozenset({"moves", "start_fen", "rules", "game_key"})
#: The fields :meth:`Game.kept` may read: set when the game is made, the seats when one is
#: taken (a change of one drops what was kept).
_SETUP_FIELDS = frozenset({"id", "mode", "players", "rules", "time_control", "rated", "game_key"})


def _game_from_state(state: dict[str, Any]) -> Game:
    game = object.__new__(Game)
    game.__dict__.update(state)  # the frozen class refuses setattr, not its dict's update
    return game


def _resolve_rules(kind: GameRules[Any], rules: Any) -> Any:
    if rules is None:
        rules = kind.default_rule_set
    if not isinstance(rules, str):
        return rules  # the game's own rule set value
    try:
        # Only named sets (parse_rules never reads a file: a name is never a path).
        return kind.parse_rules(rules)
    except GameError as exc:
        raise GameSpecError(str(exc)) from None


def _check_seats(mode: Mode, players: tuple[PlayerSlot | None, PlayerSlot | None]) -> None:
    filled = [p for p in players if p is not None]
    ai = [p for p in filled if p.is_ai]
    if mode is Mode.VS_AI:
        if len(filled) != 2 or len(ai) != 1:
            raise GameSpecError("a game against the AI needs one AI seat and one player seat")
    elif mode is Mode.SAME_SCREEN:
        if len(filled) != 2 or ai or filled[0].identity != filled[1].identity:
            raise GameSpecError("a same-screen game seats its owner at both colours")
    else:
        if not filled:
            raise GameSpecError("an online game needs at least the player who creates it")
        if ai:
            raise GameSpecError("an online game seats no AI (use a vs-AI game)")
        if len(filled) == 2 and filled[0].identity == filled[1].identity:
            raise GameSpecError("an online game needs two different players")


def new_game(spec: GameSpec, *, game_id: str, now: float) -> Game:
    """A game in status CREATED, version 0, from ``spec``; GameSpecError when it cannot be.

    It starts once every seat is filled and every human seat has sent ``Join``.
    """
    try:
        mode = Mode(spec.mode)
    except ValueError:
        raise GameSpecError(f"unknown mode {spec.mode!r}") from None
    if not (
        isinstance(spec.players, tuple)
        and len(spec.players) == 2
        and all(p is None or isinstance(p, PlayerSlot) for p in spec.players)
    ):
        raise GameSpecError("players must be a pair (seat 0, seat 1) of PlayerSlot or None")
    try:
        kind = get_game(spec.game_key)
    except UnknownGameError as exc:
        raise GameSpecError(str(exc)) from None
    rules = _resolve_rules(kind, spec.rules)
    if spec.first_player is not None:
        if spec.first_player not in (0, 1) or isinstance(spec.first_player, bool):
            raise GameSpecError(f"first_player must be seat 0 or seat 1, not {spec.first_player!r}")
        try:
            rules = kind.with_first_seat(rules, spec.first_player)
        except GameError as exc:
            raise GameSpecError(str(exc)) from None
    _check_seats(mode, spec.players)
    if spec.rated:
        if mode is not Mode.ONLINE:
            raise GameSpecError("only online games are rated")
        if any(p is not None and not p.is_account for p in spec.players):
            raise GameSpecError("rated games are for account holders only")
        if speed_of(spec.time_control) is None:  # ratings are per speed: a clock gives one
            raise GameSpecError("rated games need a clock (a game without one is casual)")
    if spec.tournament and mode is not Mode.ONLINE:
        raise GameSpecError("tournament games are online games")
    if spec.tournament_id is not None and not spec.tournament:
        raise GameSpecError("only a tournament game belongs to a tournament")
    if not (math.isfinite(spec.grace_period) and spec.grace_period > 0):
        raise GameSpecError(f"grace_period must be positive, not {spec.grace_period!r}")
    for name in ("lobby_wait", "start_wait"):
        wait = getattr(spec, name)
        if not (math.isfinite(wait) and wait > 0):
            raise GameSpecError(f"{name} must be positive, not {wait!r}")
    if not math.isfinite(now):
        raise GameSpecError(f"now must be finite, not {now!r}")
    start = kind.start_position(rules) if spec.start_fen is None else spec.start_fen
    try:
        position = kind.new_position(rules, start)
    except GameError as exc:
        raise GameSpecError(str(exc)) from None
    if position.outcome() is not None:
        raise GameSpecError("the start position is already decided")
    ai_ready = (
        spec.players[0] is not None and spec.players[0].is_ai,
        spec.players[1] is not None and spec.players[1].is_ai,
    )
    game = Game(
        id=game_id,
        mode=mode,
        rules=rules,
        players=spec.players,
        time_control=spec.time_control,
        start_fen=spec.start_fen,
        ready=ai_ready,
        rated=spec.rated,
        tournament=spec.tournament,
        tournament_id=spec.tournament_id,
        grace_period=float(spec.grace_period),
        created_at=now,
        rematch_of=spec.rematch_of,
        lobby_wait=float(spec.lobby_wait),
        start_wait=float(spec.start_wait),
        game_key=kind.key,
    )
    object.__setattr__(game, "_position", position)
    return game


def rematch_spec(game: Game) -> GameSpec:
    """The same settings with the colours swapped, each player's score and rating updated."""
    players: list[PlayerSlot | None] = list(game.players)
    for color, player in enumerate(players):
        if player is None:
            continue
        changes: dict[str, Any] = {}
        if game.score_change is not None:
            changes["score"] = player.score + game.score_change.deltas[color]
        if game.rating_change is not None:
            changes["rating"] = game.rating_change.after[color]
        players[color] = dataclasses.replace(player, **changes)
    return GameSpec(
        mode=game.mode,
        players=(players[1], players[0]),
        rules=game.rules,
        time_control=game.time_control,
        rated=game.rated,
        tournament=False,
        grace_period=game.grace_period,
        start_fen=game.start_fen,
        rematch_of=game.id,
        lobby_wait=game.lobby_wait,
        start_wait=game.start_wait,
        game_key=game.game_key,
    )
