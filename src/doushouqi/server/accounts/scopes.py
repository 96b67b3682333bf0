"""What an API token may do: its scopes, modelled on lichess's OAuth scopes.

A session cookie has its account's full power. An API token (``Authorization: Bearer``) has
only the scopes it was made with; every route that learns who is asking names the scope a
token needs there (``api/deps.py``), and a token without it gets a 403 ``auth.scope`` naming
it. Two more levels than a scope: :data:`ANY_TOKEN` (reading public things as yourself, or
who you are: any token of the account), and :data:`SESSION_ONLY` (making tokens, the password,
sessions, the data export: never a token, whatever its scopes).
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ANY_TOKEN",
    "BOARD_PLAY",
    "BOT_PLAY",
    "CHALLENGE_READ",
    "CHALLENGE_WRITE",
    "NOTIFICATION_READ",
    "NOTIFICATION_WRITE",
    "PREFERENCE_WRITE",
    "PUZZLE_READ",
    "PUZZLE_WRITE",
    "RECORD_WRITE",
    "SCOPES",
    "SESSION_ONLY",
    "TOURNAMENT_WRITE",
    "UnknownScopeError",
    "check_scopes",
    "parse_scopes",
]

BOT_PLAY: Final = "bot:play"
BOARD_PLAY: Final = "board:play"
CHALLENGE_READ: Final = "challenge:read"
CHALLENGE_WRITE: Final = "challenge:write"
TOURNAMENT_WRITE: Final = "tournament:write"
PUZZLE_READ: Final = "puzzle:read"
PUZZLE_WRITE: Final = "puzzle:write"
PREFERENCE_WRITE: Final = "preference:write"
NOTIFICATION_READ: Final = "notification:read"
NOTIFICATION_WRITE: Final = "notification:write"
RECORD_WRITE: Final = "record:write"

#: Every scope a token may have, and what it allows (English, for API users; the web client
#: words them itself, ``security.scope.<scope>``).
SCOPES: Final[dict[str, str]] = {
    BOT_PLAY: "play games as a bot through the bot API (/api/bot/...)",
    BOARD_PLAY: "create, join and play games (REST commands and game sockets), seek opponents, "
    "read and report game chat, list the games where it is your turn",
    CHALLENGE_READ: "read your challenges",
    CHALLENGE_WRITE: "send, accept, decline and withdraw challenges",
    TOURNAMENT_WRITE: "create, join and leave tournaments",
    PUZZLE_READ: "read your puzzle rating and history, get the next puzzle",
    PUZZLE_WRITE: "solve puzzles: tries, hints and solutions count for your puzzle rating",
    PREFERENCE_WRITE: "change your display name and avatar",
    NOTIFICATION_READ: "read your notifications (and open the site socket that brings them)",
    NOTIFICATION_WRITE: "mark your notifications read",
    RECORD_WRITE: "upload game records under your account",
}

#: A route any token of the account may use: it reads public things, or who you are.
ANY_TOKEN: Final = "*"
#: A route no token may use, only a session cookie (minting tokens, passwords, sessions).
SESSION_ONLY: Final = "session"


class UnknownScopeError(ValueError):
    """A scope that :data:`SCOPES` does not have."""


def parse_scopes(text: str) -> frozenset[str]:
    """The scopes stored as ``text`` (space-separated); unknown ones (a scope since retired)
    are dropped, never granted."""
    return frozenset(s for s in text.split() if s in SCOPES)


def check_scopes(wanted: list[str]) -> str:
    """``wanted`` as stored (sorted, space-separated, each once); raises
    :class:`UnknownScopeError` naming the first scope not in :data:`SCOPES`."""
    for scope in wanted:
        if scope not in SCOPES:
            raise UnknownScopeError(scope)
    return " ".join(sorted(set(wanted)))
