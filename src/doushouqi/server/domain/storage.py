"""A :class:`~.model.Game` as plain JSON-ready data and back, exactly (for the database).

``game_from_storage(game_to_storage(game)) == game`` for every game ``apply`` can make: the
server stores this after every accepted command and rebuilds live games from it after a
restart, so a crash loses nothing and changes nothing. Floats survive because JSON writers
print them with ``repr``; the one value JSON cannot hold, an unlimited main time (``inf``), is
written as None. The rule set is stored as its game's mapping and the ending as its key (the
platform's or the game's own, :func:`doushouqi.core.outcome.ending_from_key`). The moves are
replayed through the game interface on loading, so a damaged record raises
:class:`~.model.CorruptGameError` instead of giving a wrong position.

>>> from doushouqi.server.domain.players import PlayerSlot
>>> from doushouqi.server.domain.model import GameSpec, Mode, new_game
>>> game = new_game(GameSpec(Mode.VS_AI, (PlayerSlot.account(1, "Li"), PlayerSlot.ai(3))),
...                 game_id="g1", now=5.0)
>>> game_from_storage(game_to_storage(game)) == game
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from doushouqi.core.clock import GameClock, TimeControl
from doushouqi.core.game import UnknownGameError, get_game
from doushouqi.core.outcome import Outcome, ending_from_key
from doushouqi.core.rating import Rating
from doushouqi.core.scoring import ScoreChange
from doushouqi.server.domain.model import (
    DEFAULT_GAME_KEY,
    DEFAULT_LOBBY_WAIT,
    DEFAULT_START_WAIT,
    AbortReason,
    CorruptGameError,
    Game,
    GameStatus,
    Mode,
    RatingChange,
    TimedMove,
)
from doushouqi.server.domain.players import PLAYER_TYPES, PlayerSlot, identity_from_dict

__all__ = [
    "STORAGE_FORMAT",
    "game_from_storage",
    "game_to_storage",
    "play_to_storage",
    "player_from_dict",
    "setup_to_storage",
    "stored_moves",
]

#: Bumped when the layout changes, so old rows can be told apart from new ones.
STORAGE_FORMAT = 1


def _rating(data: dict[str, Any]) -> Rating:
    return Rating(float(data["rating"]), float(data["rd"]), float(data["volatility"]))


def _rating_dict(rating: Rating) -> dict[str, float]:
    return {"rating": rating.rating, "rd": rating.rd, "volatility": rating.volatility}


def player_from_dict(data: dict[str, Any]) -> PlayerSlot:
    """The seat that :meth:`PlayerSlot.to_dict` wrote; ValueError when malformed."""
    identity = identity_from_dict(data["identity"])
    if not isinstance(identity, PLAYER_TYPES):
        raise ValueError(f"a seat cannot hold {identity!r}")
    return PlayerSlot(
        identity=identity,
        name=str(data["name"]),
        avatar=data.get("avatar"),
        score=int(data.get("score", 0)),
        rating=_rating(data["rating"]) if data.get("rating") else Rating(),
        username=data.get("username"),
    )


def _clock_dict(clock: GameClock, game: Game) -> dict[str, Any]:
    control = clock.control
    first, second = clock.main_time
    return {
        # The game's own control, as its set-up's part wrote it (made once a game).
        "control": setup_to_storage(game)["time_control"]
        if control is game.time_control or control == game.time_control
        else str(control),
        "main_time": (
            first if math.isfinite(first) else None,
            second if math.isfinite(second) else None,
        ),
        "to_move": clock.to_move,
        "turn_started": clock.turn_started,
        "paused_at": clock.paused_at,
        "timeouts": clock.timeouts,
    }


def _clock(data: dict[str, Any]) -> GameClock:
    main = [math.inf if t is None else float(t) for t in data["main_time"]]
    timeouts = [int(n) for n in data["timeouts"]]
    return GameClock(
        control=TimeControl.parse(data["control"]),
        main_time=(main[0], main[1]),
        to_move=int(data["to_move"]),
        turn_started=data["turn_started"],
        paused_at=data["paused_at"],
        timeouts=(timeouts[0], timeouts[1]),
    )


def _optional_int(value: Any) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise CorruptGameError(f"not a version: {value!r}")
    return value


def _optional_float(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"expected a time or null, got {value!r}")
    return float(value)


def _optional_text(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"expected text or null, got {value!r}")
    return value


def _pair(values: list[Any]) -> tuple[Any, Any]:
    if len(values) != 2:
        raise ValueError(f"expected a pair, got {values!r}")
    return values[0], values[1]


def setup_to_storage(game: Game) -> dict[str, Any]:
    """The first keys of :func:`game_to_storage`: the parts that only the game's set-up makes
    (the mode, the rules, the players and the time control), made once a game
    (``Game.kept``), not with every move; shared with the game's copies, so read, never
    changed. A writer may encode them once a game too (``db/repo.py``)."""
    setup: dict[str, Any] = game.kept("storage", _setup_data)
    return setup


def _setup_data(game: Game) -> dict[str, Any]:
    return {
        "format": STORAGE_FORMAT,
        "id": game.id,
        "mode": game.mode.value,
        "rules": game.rules_mapping,
        "players": [None if p is None else p.to_dict() for p in game.players],
        "time_control": None if game.time_control is None else str(game.time_control),
    }


def game_to_storage(game: Game, moves: object = None) -> dict[str, Any]:
    """Everything that makes up ``game``, as JSON-ready data (to be written out: its set-up's
    parts are shared with the game's other copies, so it is read, never changed): the keys
    of :func:`setup_to_storage`, then those of :func:`play_to_storage`. ``moves``, when
    given, is stored as the moves instead of the list made here: the writer's own encoding of
    them (:func:`stored_moves`)."""
    return {**setup_to_storage(game), **play_to_storage(game, moves)}


def play_to_storage(game: Game, moves: object = None) -> dict[str, Any]:
    """The keys of :func:`game_to_storage` after the set-up's: whatever a command may change.
    Pairs are tuples (JSON arrays to any encoder), not lists made for the occasion. Every key
    is text, so an encoder need not convert others."""
    score = game.score_change
    clock = game.clock
    data: dict[str, Any] = {
        "status": int(game.status),
        "start_fen": game.start_fen,
        "moves": _moves_data(game.moves) if moves is None else moves,
        "clock": None if clock is None else _clock_dict(clock, game),
        "ready": game.ready,
        "draw_offer": game.draw_offer,
        "takeback_request": game.takeback_request,
        "outcome": None
        if game.outcome is None
        else {"termination": game.outcome.key, "winner": game.outcome.winner},
        "leaver": game.leaver,
        "score_change": None
        if score is None
        else {
            "deltas": score.deltas,
            "new_scores": score.new_scores,
            "voided": score.voided,
        },
        "rating_change": None
        if game.rating_change is None
        else {
            "before": [_rating_dict(r) for r in game.rating_change.before],
            "after": [_rating_dict(r) for r in game.rating_change.after],
        },
        "rated": game.rated,
        "tournament": game.tournament,
        "tournament_id": game.tournament_id,
        "grace_period": game.grace_period,
        "version": game.version,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "disconnected_since": game.disconnected_since,
        "rematch_offer": game.rematch_offer,
        "rematch_created": game.rematch_created,
        "rematch_of": game.rematch_of,
        "lobby_wait": game.lobby_wait,
        "start_wait": game.start_wait,
        "abort_reason": None if game.abort_reason is None else game.abort_reason.value,
    }
    # Rows written before the platform hosted several games have no key and are all of the
    # default game; its games are still written so, the same rows as before.
    if game.game_key != DEFAULT_GAME_KEY:
        data["game_key"] = game.game_key
    if game.state_version is not None:  # only after presence events: most games store none
        data["state_version"] = game.state_version
    if game.move_ids:  # only games whose client names its moves
        data["move_ids"] = game.move_ids
    if game.resumed_at is not None:  # only games that went through an outage
        data["resumed_at"] = game.resumed_at
    return data


def _moves_data(moves: tuple[TimedMove, ...]) -> list[list[Any]]:
    return [[m.move, m.at] for m in moves]


def stored_moves(game: Game, encode: Callable[[list[list[Any]]], bytes]) -> bytes:
    """The moves as :func:`game_to_storage` stores them (a JSON array of ``[move, at]``),
    encoded by ``encode`` (compact JSON, no spaces), for a writer that writes the game whole
    with every move: kept with the game and carried to its copies, so that the copy a move
    makes encodes only its new moves and appends them to the text it was copied with. A copy
    whose moves do not begin with those (a takeback) encodes them all again.

    >>> import json
    >>> from doushouqi.server.domain import GameSpec, Mode, PlayerSlot, new_game
    >>> spec = GameSpec(Mode.ONLINE, (PlayerSlot.account(1, "Li"), None))
    >>> game = new_game(spec, game_id="g", now=0.0)
    >>> encode = lambda data: json.dumps(data, separators=(",", ":")).encode()
    >>> stored_moves(game, encode)
    b'[]'
    >>> game = game.evolve(moves=(TimedMove("a1a2", 1.5),))
    >>> stored_moves(game, encode)
    b'[["a1a2",1.5]]'
    >>> stored_moves(game.evolve(moves=(*game.moves, TimedMove("g9g8", 3.0))), encode)
    b'[["a1a2",1.5],["g9g8",3.0]]'
    """
    moves = game.moves
    kept: tuple[tuple[TimedMove, ...], bytes] | None = game.__dict__.get("_stored_moves")
    if kept is not None and kept[0] is moves:
        return kept[1]
    if kept is not None and moves[: len(kept[0])] == kept[0]:
        done, text = kept
        if len(moves) > len(done):
            added = encode(_moves_data(moves[len(done) :]))
            text = added if not done else text[:-1] + b"," + added[1:]
    else:
        text = encode(_moves_data(moves))
    # In the instance's dict, as Game.kept keeps its values (the frozen class refuses setattr):
    # copied with it by evolve, and checked against the copy's own moves above.
    game.__dict__["_stored_moves"] = (moves, text)
    return text


def game_from_storage(data: dict[str, Any]) -> Game:
    """The game that :func:`game_to_storage` wrote; CorruptGameError when it cannot be."""
    try:
        if data.get("format") != STORAGE_FORMAT:
            raise ValueError(f"unknown storage format {data.get('format')!r}")
        game_key = str(data.get("game_key", DEFAULT_GAME_KEY))
        kind = get_game(game_key)
        rules = kind.parse_rules(dict(data["rules"]))
        players = _pair([None if p is None else player_from_dict(p) for p in data["players"]])
        outcome = data["outcome"]
        score = data["score_change"]
        rating = data["rating_change"]
        tc = data["time_control"]
        ready = _pair([bool(r) for r in data["ready"]])
        away = _pair(data["disconnected_since"])
        abort_reason = data.get("abort_reason")
        game = Game(
            id=str(data["id"]),
            mode=Mode(data["mode"]),
            rules=rules,
            players=players,
            time_control=None if tc is None else TimeControl.parse(tc),
            status=GameStatus(int(data["status"])),
            start_fen=data["start_fen"],
            moves=tuple(TimedMove(str(m), float(at)) for m, at in data["moves"]),
            clock=None if data["clock"] is None else _clock(data["clock"]),
            ready=ready,
            draw_offer=data["draw_offer"],
            takeback_request=data["takeback_request"],
            outcome=None
            if outcome is None
            else Outcome(
                ending_from_key(outcome["termination"], kind.board_endings), outcome["winner"]
            ),
            leaver=data["leaver"],
            score_change=None
            if score is None
            else ScoreChange(
                deltas=_pair([int(d) for d in score["deltas"]]),
                new_scores=_pair([int(s) for s in score["new_scores"]]),
                voided=bool(score["voided"]),
            ),
            rating_change=None
            if rating is None
            else RatingChange(
                before=_pair([_rating(r) for r in rating["before"]]),
                after=_pair([_rating(r) for r in rating["after"]]),
            ),
            rated=bool(data["rated"]),
            tournament=bool(data["tournament"]),
            # Games stored before tournaments named theirs have none.
            tournament_id=_optional_text(data.get("tournament_id")),
            grace_period=float(data["grace_period"]),
            version=int(data["version"]),
            # Games stored before presence kept commands fresh have none: exact versions.
            state_version=_optional_int(data.get("state_version")),
            move_ids=tuple((str(i), str(m)) for i, m in data.get("move_ids", ())),
            resumed_at=_optional_float(data.get("resumed_at")),
            created_at=float(data["created_at"]),
            started_at=data["started_at"],
            finished_at=data["finished_at"],
            disconnected_since=away,
            rematch_offer=data["rematch_offer"],
            rematch_created=bool(data["rematch_created"]),
            rematch_of=data["rematch_of"],
            # Games stored before the wait was kept wait the default time (none are left open
            # for ever); they have no abort reason either.
            lobby_wait=float(data.get("lobby_wait", DEFAULT_LOBBY_WAIT)),
            start_wait=float(data.get("start_wait", DEFAULT_START_WAIT)),
            abort_reason=None if abort_reason is None else AbortReason(abort_reason),
            game_key=game_key,
        )
    except CorruptGameError:
        raise
    except (KeyError, TypeError, ValueError, UnknownGameError) as exc:
        raise CorruptGameError(f"stored game is malformed: {exc}") from None
    game.position()  # replays every move now, so a bad record fails here and not mid-game
    return game
