"""A full, JSON-ready snapshot of a game for clients (on connect, or to resync after a gap)."""

from __future__ import annotations

from typing import Any

from doushouqi.server.domain.events import plain
from doushouqi.server.domain.model import Game, GameStatus
from doushouqi.server.domain.timing import abandonment_deadline, lobby_deadline, next_deadline
from doushouqi.server.domain.views import clock_view, legal_destinations

__all__ = ["game_state_dict"]


def game_state_dict(game: Game, now: float | None = None) -> dict[str, Any]:
    """Everything a client needs to draw the game as of ``now`` (default: its last change).

    ``dests`` lists the legal destinations of the side to move while the game is in progress
    (the web board knows no rules). Clock times are as they stand at ``now``.
    """
    position = game.position()
    at = game.last_activity_at if now is None else max(now, game.last_activity_at)
    playing = game.status is GameStatus.STARTED
    return {
        "id": game.id,
        # Which game it is: the web client picks the game's board and words by it.
        "game_key": game.game_key,
        "version": game.version,
        "mode": game.mode.value,
        "status": game.status.label,
        "status_id": int(game.status),
        "rules": game.rules_mapping,
        "rated": game.rated,
        "tournament": game.tournament,
        "tournament_id": game.tournament_id,
        "time_control": None if game.time_control is None else str(game.time_control),
        # Whose rating a player bar shows (ratings are per speed); None: no clock.
        "speed": plain(game.speed),
        "players": [None if p is None else p.to_dict() for p in game.players],
        "ready": list(game.ready),
        "first_player": game.first_player,
        "start_fen": game.starting_fen,
        "fen": position.position_string(),
        "turn": position.turn,
        "ply": len(game.moves),
        "moves": [[m.move, m.at] for m in game.moves],
        "last_move": game.moves[-1].move if game.moves else None,
        "dests": legal_destinations(position) if playing else {},
        "clocks": plain(clock_view(game.clock, at)),
        "timeouts": list(game.timeouts),
        "draw_offer": game.draw_offer,
        "takeback_request": game.takeback_request,
        "result": game.result,
        "outcome": plain(game.outcome),
        "leaver": game.leaver,
        "score_change": plain(game.score_change),
        "rating_change": plain(game.rating_change),
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "disconnected_since": list(game.disconnected_since),
        "grace_period": game.grace_period,
        "abandonment_deadlines": [abandonment_deadline(game, c) for c in (0, 1)],
        "next_deadline": next_deadline(game, at),
        "rematch_offer": game.rematch_offer,
        "rematch_created": game.rematch_created,
        "rematch_of": game.rematch_of,
        "lobby_deadline": lobby_deadline(game),
        "abort_reason": plain(game.abort_reason),
    }
