"""The client's router in a real browser (see ``support.py`` for the set-up): a page that
waits for the server draws nothing, and stops its refreshes, once the user has gone to another
page before the answer came.
"""

from __future__ import annotations

from playwright.sync_api import Page, Route, expect
from tests.browser.support import Client
from tests.support.live import LiveServer


def hold(page: Page, pattern: str) -> list[Route]:
    """Hold the answers to requests matching `pattern` until the test lets them go."""
    held: list[Route] = []
    page.route(pattern, lambda route: held.append(route))
    return held


def wait_for(held: list[Route], page: Page) -> None:
    for _ in range(100):
        if held:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the page never asked")


def assert_home_is_intact(page: Page) -> None:
    expect(page.locator("#go-vsai")).to_be_visible()
    expect(page.locator(".home .cards .card")).to_have_count(4)
    assert page.evaluate("document.body.dataset.view") == "home"


def test_lobby_left_while_loading_stops_its_refresh(client: Client) -> None:
    page = client.open("/")
    expect(page.locator("#go-vsai")).to_be_visible()
    held: list[Route] = []
    calls: list[str] = []

    def lobby(route: Route) -> None:
        calls.append(route.request.url)
        if not held:
            held.append(route)  # the first answer waits until the user has gone
        else:
            route.fulfill(json={"games": []})

    page.route("**/api/lobby*", lobby)
    page.evaluate("location.hash = '#/lobby'")
    expect(page.locator("#lobby-list")).to_be_attached()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the lobby never asked for its games"
    page.evaluate("location.hash = '#/'")
    expect(page.locator("#go-vsai")).to_be_visible()
    held[0].fulfill(json={"games": []})
    # The lobby refreshes every 5 s while it is shown: left, it must not ask again.
    page.wait_for_timeout(6_500)
    assert len(calls) == 1, calls
    expect(page.locator("#go-vsai")).to_be_visible()
    expect(page.locator("#lobby-list")).to_have_count(0)


def test_profile_left_while_loading_draws_nothing(client: Client, server: LiveServer) -> None:
    server.player().register("s3_slowpoke")
    page = client.open("/")
    expect(page.locator("#go-vsai")).to_be_visible()
    held = hold(page, "**/api/players/s3_slowpoke?*")  # ?game=: the game picked
    page.evaluate("location.hash = '#/player/s3_slowpoke'")
    wait_for(held, page)
    page.evaluate("location.hash = '#/'")  # home, before the profile has come
    assert_home_is_intact(page)
    # The profile comes now, and then its games: the home page stays as it is.
    with page.expect_response("**/api/players/s3_slowpoke/games*"):
        held[0].continue_()
    page.wait_for_timeout(500)
    assert_home_is_intact(page)
    expect(page.locator("#profile")).to_have_count(0)
    expect(page.locator(".profile-page")).to_have_count(0)
    # Not left, the same page is drawn (the answer held above was the one it draws from).
    page.unroute("**/api/players/s3_slowpoke?*")
    page.evaluate("location.hash = '#/player/s3_slowpoke'")
    expect(page.locator("#profile-name")).to_be_visible()


def test_missing_profile_left_while_loading_draws_nothing(client: Client) -> None:
    page = client.open("/")
    expect(page.locator("#go-vsai")).to_be_visible()
    held = hold(page, "**/api/players/s3_nobody?*")
    page.evaluate("location.hash = '#/player/s3_nobody'")
    wait_for(held, page)
    page.evaluate("location.hash = '#/'")
    with page.expect_response("**/api/players/s3_nobody?*"):
        held[0].continue_()
    page.wait_for_timeout(500)
    assert_home_is_intact(page)
    expect(page.locator("#profile-missing")).to_have_count(0)
    # The browser logs the 404 asked for here.
    assert all("status of 404" in e for e in client.errors), client.errors
    client.errors.clear()


def test_leaderboard_left_while_loading_draws_nothing(client: Client, server: LiveServer) -> None:
    server.player().register("s3_leader")
    page = client.open("/")
    expect(page.locator("#go-vsai")).to_be_visible()
    held = hold(page, "**/api/leaderboard*")
    page.evaluate("location.hash = '#/leaderboard'")
    wait_for(held, page)
    list_was_filled = page.evaluate(
        """() => {
            const list = document.querySelector('#leaderboard-list');
            window.s3List = list; // kept: is it filled once the page is gone?
            return list.children.length;
        }"""
    )
    assert list_was_filled == 0
    page.evaluate("location.hash = '#/'")
    with page.expect_response("**/api/leaderboard*"):
        held[0].continue_()
    page.wait_for_timeout(500)
    assert_home_is_intact(page)
    expect(page.locator("#leaderboard-list")).to_have_count(0)
    # The page left did not even fill its own list (nobody would have seen it).
    assert page.evaluate("window.s3List.children.length") == 0
