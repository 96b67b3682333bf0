"""Every page of the client has an address without the '#' (api/pages.py): opened or reloaded
there, the server answers the page and the client shows that page (its route becomes the
fragment); an unknown game's address is the page with a 404, showing "no such game"."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from tests.browser.support import Client
from tests.support.live import LiveServer, start_online


def shows(page: Page, server: LiveServer, path: str) -> None:
    # A page may add its own state to the address (the analysis board its position).
    expect(page).to_have_url(re.compile(f"^{re.escape(server.url)}/#{re.escape(path)}"))
    first = path.strip("/").split("/")[0].split("?")[0] or "home"
    expect(page.locator("body")).to_have_attribute("data-view", first)
    expect(page.locator('#error-page[data-kind="notFound"]')).to_have_count(0)


def test_every_client_route_reloads_to_its_page(client: Client, server: LiveServer) -> None:
    red, blue = server.player().register("route_red"), server.player().register("route_blue")
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    cup = {"kind": "swiss", "name": "Cup", "time_control": "5+3", "rounds": 3, "starts_in": 600}
    tour = red.post("/api/tournaments", json=cup)
    assert tour.status_code == 201, tour.text
    try:
        paths = [
            f"/game/{game_id}",
            "/tv",
            "/watch?speed=blitz",
            "/lobby",
            "/play",
            "/new/vs_ai",
            "/correspondence",
            "/rules",
            "/learn",
            "/analysis",
            "/explorer",
            "/puzzles",
            f"/replay/game/{game_id}",
            "/login",
            "/register",
            "/player/route_red",
            "/leaderboard",
            "/ranks",
            "/tournaments",
            f"/tournament/{tour.json()['id']}",
            "/challenge/nosuchone",
        ]
        page = client.page
        for path in paths:
            response = page.goto(server.url + path)
            assert response is not None and response.status == 200, path
            shows(page, server, path)
            page.reload()
            shows(page, server, path)
        page.goto(f"{server.url}/game/{game_id}")
        expect(page.locator(".dsq-squares")).to_be_visible()
        expect(page.locator("#status")).to_contain_text("观战")
    finally:
        red_ws.close()
        blue_ws.close()
    # Refusals the pages asked for (a made-up challenge) are expected.
    client.errors[:] = [e for e in client.errors if not re.search(r"status of 40[134]", e)]


def test_an_unknown_games_address_is_the_page_with_a_404(
    client: Client, server: LiveServer
) -> None:
    response = client.page.goto(f"{server.url}/game/nosuchgame9?join=1")
    assert response is not None and response.status == 404
    page = client.page
    expect(page.locator("#error-page")).to_have_attribute("data-kind", "game")
    expect(page).to_have_url(f"{server.url}/#/game/nosuchgame9?join=1")
    client.errors[:] = [e for e in client.errors if "status of 404" not in e]
