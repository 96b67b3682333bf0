"""The web client's pages by address: ``/game/ID``, ``/tv``, ``/watch``, ``/tournament/ID`` …

The client routes by URL fragment (``/#/game/ID``: ``static/app/main.js``), so every page of it
is the one ``index.html``. Addresses without the ``#`` are what people share and type (lichess's
are), so each path the client's router knows (:data:`CLIENT_PAGES`, its route table's first
segments) answers that page too; the client then takes the path as its route. A shared link
shows a preview: the page's ``<title>`` and its ``og:title`` / ``og:description`` say what it
is — for a game its players, game, rule set, time control and result — in the language the
asker's ``Accept-Language`` prefers (the client's choice of the three).

An unknown game's address answers the page with status 404: the person who opened it sees the
client's "no such game", and a link preview or a crawler is told there is nothing there (as
lichess does), instead of a 200 that claims a page. Paths under ``/api/`` are never pages:
they keep their JSON errors.
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from doushouqi.server.api.deps import READ_LIMITED, Ctx
from doushouqi.server.db import repo
from doushouqi.server.domain import Game, GameStatus
from doushouqi.server.infra.translations import load_table

__all__ = ["CLIENT_PAGES", "router"]

router = APIRouter(include_in_schema=False)

#: The first segment of every path the client's router knows (its route table in
#: ``static/app/main.js``; a test keeps the two alike). ``game`` has a route of its own below.
CLIENT_PAGES = (
    "new",
    "lobby",
    "play",
    "challenge",
    "correspondence",
    "rules",
    "learn",
    "replay",
    "analysis",
    "explorer",
    "puzzles",
    "login",
    "register",
    "player",
    "leaderboard",
    "ranks",
    "watch",
    "tv",
    "tournament",
    "tournaments",
    "settings",
    "mod",
)
#: Pages whose title is one of the client's words (others are titled as the site).
PAGE_TITLES = {"watch": "watch.title", "tv": "watch.tv"}

_TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)
_HTML_LANG = re.compile(r'<html lang="[^"]*">')
_HTML_LANGS = {"zh": "zh-CN", "zh-Hant": "zh-Hant", "en": "en"}
_GUEST = re.compile(r"^Guest-([\w-]{5})$")


def language(accept: str | None) -> str:
    """The client's language for an ``Accept-Language`` header (as ``i18n.js`` picks one:
    Traditional Chinese for Taiwan, Hong Kong, Macau and the Hant script; else Simplified
    for Chinese; English otherwise)."""
    tags = [part.split(";")[0].strip().lower() for part in (accept or "").split(",")]
    for tag in tags:
        parts = re.split(r"[-_]", tag)
        if parts[0] == "en":
            return "en"
        if parts[0] == "zh":
            hant = "hant" in parts or any(p in ("tw", "hk", "mo") for p in parts)
            return "zh-Hant" if hant else "zh"
    return "en"


@functools.cache
def _words(static_dir: Path, lang: str) -> dict[str, str]:
    return load_table(static_dir, lang)


def _say(words: dict[str, str], key: str, **values: Any) -> str:
    text = words.get(key, key)
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m[1], m[0])), text)


@functools.cache
def _index(path: Path, modified: float) -> str:
    return path.read_text(encoding="utf-8")


def _page(request: Request, lang: str, title: str, description: str, status: int) -> HTMLResponse:
    static_dir: Path = request.app.state.static_dir
    index = static_dir / "index.html"
    text = _index(index, index.stat().st_mtime)
    title, description = html.escape(title), html.escape(description)
    head = (
        f"<title>{title}</title>\n"
        f'  <meta property="og:title" content="{title}">\n'
        f'  <meta property="og:description" content="{description}">\n'
        f'  <meta name="description" content="{description}">\n'
        '  <meta property="og:site_name" content="斗兽棋 · Jungle">'
    )
    text = _TITLE.sub(lambda _: head, text, count=1)
    text = _HTML_LANG.sub(f'<html lang="{_HTML_LANGS[lang]}">', text, count=1)
    # The page changes with the game (its result) and the asker's language.
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Language"}
    return HTMLResponse(text, status_code=status, headers=headers)


def _site_title(words: dict[str, str]) -> str:
    return f"{_say(words, 'app.title')} · {_say(words, 'app.subtitle')}"


def _player(words: dict[str, str], game: Game, seat: int) -> str:
    player = game.players[seat]
    if player is None:
        return "?"
    guest = _GUEST.match(player.name)
    return _say(words, "players.guestName", id=guest[1]) if guest else player.name


def _result(words: dict[str, str], game: Game) -> str:
    if game.status is GameStatus.ABORTED:
        return _say(words, "page.game.aborted")
    if not game.status.is_over:
        return _say(words, "page.game.playing")
    winner = None if game.outcome is None else game.outcome.winner
    if winner is None:
        return _say(words, "page.game.draw")
    return _say(words, "page.game.won", name=_player(words, game, winner))


def game_preview(words: dict[str, str], game: Game) -> tuple[str, str]:
    """A game's title and description for a link preview."""
    names = (_player(words, game, 0), _player(words, game, 1))
    game_name = _say(words, f"games.{game.game_key}")
    title = _say(words, "page.game.title", first=names[0], second=names[1], game=game_name)
    rules_key = f"rules.{game.rules_name}"
    rules = words.get(rules_key, game.rules_name)
    control = _say(words, "page.game.untimed") if game.time_control is None else game.time_control
    facts = [game_name, rules, str(control), _result(words, game)]
    if game.moves:
        facts.append(_say(words, "page.game.plies", n=len(game.moves)))
    return title, " · ".join(facts)


@router.get("/game/{game_id}", dependencies=READ_LIMITED)
@router.get("/game/{game_id}/{rest:path}", dependencies=READ_LIMITED)
async def game_page(game_id: str, request: Request, ctx: Ctx) -> HTMLResponse:
    """A game's page, titled with its players and result; 404 (the page still) for none."""
    lang = language(request.headers.get("accept-language"))
    words = _words(request.app.state.static_dir, lang)
    loaded = await ctx.db.read(lambda s: repo.load_game(s, game_id[:64]))
    if loaded is None:
        title = f"{_say(words, 'page.game.missing')} · {_site_title(words)}"
        return _page(request, lang, title, _say(words, "page.site.description"), 404)
    title, description = game_preview(words, loaded[0])
    return _page(request, lang, title, description, 200)


async def client_page(request: Request) -> HTMLResponse:
    """Any other page of the client: the site's title (or the page's own), its description."""
    lang = language(request.headers.get("accept-language"))
    words = _words(request.app.state.static_dir, lang)
    first = request.url.path.strip("/").split("/")[0]
    title = _site_title(words)
    if first in PAGE_TITLES:
        title = f"{_say(words, PAGE_TITLES[first])} · {title}"
    return _page(request, lang, title, _say(words, "page.site.description"), 200)


for _first in CLIENT_PAGES:
    router.add_api_route(f"/{_first}", client_page, methods=["GET"])
    router.add_api_route(f"/{_first}/{{rest:path}}", client_page, methods=["GET"])
