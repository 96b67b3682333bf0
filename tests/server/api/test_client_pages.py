"""The client's pages by address (api/pages.py): every path its router knows answers the page,
a game's with a link preview (title, og:title, og:description) in the asker's language; an
unknown game's address is the page with a 404; the API keeps its JSON errors."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from tests.support.live import LiveServer, start_online

from doushouqi.server.api.pages import CLIENT_PAGES, language
from doushouqi.server.infra.settings import Settings

MAIN_JS = Settings().static_dir / "app" / "main.js"


def router_pages() -> set[str]:
    """The first segments of the client's route table (``at('…')`` in main.js)."""
    patterns = re.findall(r"\[at\('([^']*)'\)", MAIN_JS.read_text(encoding="utf-8"))
    assert len(patterns) > 15, patterns
    first: set[str] = set()
    for pattern in patterns:
        head = re.split(r"/|\(\?:", pattern)[0]
        if alternatives := re.fullmatch(r"\(([a-z_|]+)\)", head):
            first.update(alternatives[1].split("|"))
        elif head.endswith("s?"):
            first.update({head[:-2], head[:-1]})
        elif head:
            first.add(head)
    return first


class Head(HTMLParser):
    """The page's title and meta properties."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.meta: dict[str, str] = {}
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self._in_title = tag == "title"
        if tag == "meta" and (name := values.get("property") or values.get("name")):
            self.meta[name] = values.get("content") or ""

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def head(text: str) -> Head:
    parsed = Head()
    parsed.feed(text)
    return parsed


def test_the_server_knows_every_page_of_the_clients_router() -> None:
    assert router_pages() == {*CLIENT_PAGES, "game"}


def test_every_client_route_answers_the_page(server: LiveServer) -> None:
    visitor = server.player()
    for first in CLIENT_PAGES:
        for path in (f"/{first}", f"/{first}/some/thing"):
            page = visitor.get(path)
            assert page.status_code == 200, path
            assert page.headers["content-type"].startswith("text/html"), path
            assert '<script type="module" src="/app/main.js">' in page.text, path
    tv = head(visitor.get("/tv", headers={"Accept-Language": "en-GB,en;q=0.8"}).text)
    assert tv.title.startswith("Jungle TV ·")
    assert "Tiger chess" in tv.meta["og:description"]


def test_a_games_page_is_titled_with_its_players_and_result(server: LiveServer) -> None:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    game_id, a_ws, _ = start_online(server, alice, bob, time_control="5+3")
    english = {"Accept-Language": "en-US,en;q=0.9"}
    page = alice.get(f"/game/{game_id}", headers=english)
    assert page.status_code == 200
    meta = head(page.text)
    assert meta.title == "alice vs bob · Jungle"
    assert meta.meta["og:title"] == meta.title
    assert meta.meta["og:description"] == "Jungle · WANGO rules · 5+3 · In progress"
    assert '<html lang="en">' in page.text
    a_ws.send({"type": "resign"})
    a_ws.wait_for("game_finished")
    over = head(alice.get(f"/game/{game_id}?join=1", headers=english).text)
    assert over.meta["og:description"].endswith("· bob won")
    chinese = alice.get(f"/game/{game_id}", headers={"Accept-Language": "zh-TW,zh;q=0.9"})
    assert head(chinese.text).title == "alice 對 bob · 鬥獸棋"
    assert '<html lang="zh-Hant">' in chinese.text


def test_names_are_escaped_in_the_head(server: LiveServer) -> None:
    red, blue = server.player().guest(), server.player().guest()
    answer = red.request("PATCH", "/api/account", json={"display_name": 'Ann"><b>'})
    assert answer.status_code == 200, answer.text
    game_id = start_online(server, red, blue)[0]
    page = blue.get(f"/game/{game_id}", headers={"Accept-Language": "en"}).text
    assert 'Ann"><b>' not in page
    assert head(page).title.startswith('Ann"><b> vs Guest ')


def test_an_unknown_game_is_the_page_with_a_404_and_the_api_keeps_json(
    server: LiveServer,
) -> None:
    visitor = server.player()
    page = visitor.get("/game/nosuchgame1", headers={"Accept-Language": "zh-CN"})
    assert page.status_code == 404
    assert '<script type="module" src="/app/main.js">' in page.text
    assert head(page.text).title.startswith("没有这局棋")
    for path in ("/api/games/nosuchgame1", "/api/nosuchthing"):
        answer = visitor.get(path)
        assert answer.status_code == 404
        assert answer.headers["content-type"] == "application/json"
        assert "detail" in answer.json()
    assert visitor.get("/app/main.js").headers["content-type"].startswith("text/javascript")


def test_the_language_is_the_clients_choice_for_the_accept_language() -> None:
    assert language("zh-HK,en;q=0.5") == "zh-Hant"
    assert language("zh-Hant-CN") == "zh-Hant"
    assert language("zh-CN,zh;q=0.9") == "zh"
    assert language("fr-FR,en;q=0.5") == "en"
    assert language("fr") == "en"
    assert language(None) == "en"
