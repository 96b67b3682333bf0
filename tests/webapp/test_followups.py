"""The web client's follow-ups of the server's expiring invitations and guest names, and small
fixes: an expired invitation on the game page, the time left in the lobby, a guest choosing a
name, the computer's name in the replay viewer, a lobby left while it loads, and a lesson's
step kept across a language switch (see ``support.py`` for the set-up).

Besides the module's usual server (invitations open 30 minutes), one with a lobby wait of a few
seconds lets an invitation expire while the test watches.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route, expect
from tests.server.live import LiveServer, make_settings, running
from tests.webapp.support import Client, click_move, create_online_game, shoot

from doushouqi.board import Board, Move
from doushouqi.record import GameRecord, write_record

LOBBY_WAIT = 6.0  # seconds: the page connects before the game expires, and sees it expire
BOARD = "#lesson-board .dsq-board"
INTERACTIVE = re.compile(r"\bdsq-interactive\b")


@pytest.fixture(scope="module")
def short_wait(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("followups-db"), lobby_wait=LOBBY_WAIT)
    with running(settings) as live:
        yield live


def forgive(client: Client, status: int) -> None:
    """Drop the console line the browser writes for an answer the test asked for on purpose."""
    expected = [e for e in client.errors if f"status of {status}" in e]
    assert expected, client.errors
    client.errors[:] = [e for e in client.errors if e not in expected]


# ----- expiring invitations ------------------------------------------------------------------


def test_waiting_game_says_how_long_the_invitation_is_open(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    create_online_game(page)
    line = page.locator("#invite #invite-expiry")
    # A fresh invitation of the default 30 minutes.
    expect(line).to_have_text("邀请 30 分钟内有效")
    expect(page.locator("#status")).to_contain_text("等待对手")
    shoot(page, artifacts, "followups-invite-open")
    page.click("#lang")
    expect(page.locator("#invite-expiry")).to_have_text(
        "The invitation stays open for another 30 minutes"
    )


def test_expired_invitation_is_shown_with_a_new_game_button(
    browser: Browser, short_wait: LiveServer, artifacts: Path
) -> None:
    client = Client(browser, short_wait)
    try:
        page = client.open("/")
        game_id = create_online_game(page)
        expect(page.locator("#invite-expiry")).to_have_text("邀请即将过期（不到 1 分钟）")
        # The server aborts the game at the deadline; the open page is told (game_finished).
        result = page.locator("#result")
        expect(result).to_be_visible(timeout=LOBBY_WAIT * 1000 + 10_000)
        expect(result.locator(".result-title")).to_have_text("邀请已过期，对局已取消")
        # Why, in place of the bare "aborted" reason line.
        expect(result.locator(".result-reason")).to_have_count(1)
        expect(result.locator(".result-reason")).to_have_text("等待期间没有对手加入")
        expect(page.locator("#invite")).to_be_hidden()
        expect(page.locator(".player-bar.top .player-name")).to_have_text("无人加入")
        expect(page.locator("#rematch")).to_have_count(0)  # nobody to play again
        shoot(page, artifacts, "followups-invite-expired")

        # A reload (the `state` message) says the same, in English too.
        page.reload()
        expect(page.locator("#result .result-title")).to_have_text("邀请已过期，对局已取消")
        page.click("#lang")
        expect(page.locator("#result .result-title")).to_have_text(
            "The invitation expired; the game was cancelled"
        )
        new_game = page.locator("#expiry-new-game")
        expect(new_game).to_have_text("Create a new online game")
        new_game.click()
        expect(page).to_have_url(re.compile(r"#/new/online$"))
        expect(page.locator("#start")).to_be_visible()

        # Someone following the old invitation finds it expired, not a seat to take.
        other = Client(browser, short_wait)
        try:
            late = other.open(f"/#/game/{game_id}?join=1")
            expect(late.locator("#result .result-title")).to_have_text("邀请已过期，对局已取消")
            expect(late.locator("#join")).to_have_count(0)
        finally:
            other.close()
    finally:
        client.close()


def test_lobby_shows_the_time_left(browser: Browser, server: LiveServer, artifacts: Path) -> None:
    creator = server.player().guest()
    game = creator.create(mode="online", rules="wango", color="red")
    client = Client(browser, server, locale="en-US")
    try:
        page = client.open("/#/lobby")
        entry = page.locator(f'.lobby-game[data-game="{game["id"]}"]')
        expect(entry.locator(".lobby-expiry")).to_have_text("30 min left")
        page.click("#lang")
        entry = page.locator(f'.lobby-game[data-game="{game["id"]}"]')
        expect(entry.locator(".lobby-expiry")).to_have_text("还剩 30 分钟")
        expect(entry.locator("time.lobby-expiry")).to_have_attribute("datetime", re.compile("T"))
        shoot(page, artifacts, "followups-lobby")
    finally:
        client.close()


def test_lobby_drops_an_entry_when_its_time_is_up(client: Client, artifacts: Path) -> None:
    """The lobby's answer is made up here: it keeps listing an entry that runs out in a
    moment, so only the page's own countdown can take it off, before the next refresh."""
    calls: list[float] = []

    def entry(game_id: str, expires_at: float) -> dict[str, object]:
        return {
            "id": game_id,
            "rules": "wango",
            "time_control": "10+5",
            "open_color": 1,
            "creator": {"name": "张三", "avatar": "rat", "rating": 1500, "score": 0},
            "expires_at": expires_at,
        }

    def lobby(route: Route) -> None:
        calls.append(time.time())
        # Counted from the page's first look, however long the page took to get there.
        soon = calls[0] + 2.5
        games = [
            entry("going", soon),
            entry("staying", time.time() + 12 * 60 - 30),
            entry("long", time.time() + 2 * 3600 + 4 * 60 + 30),
        ]
        route.fulfill(json={"games": games})

    page = client.page
    page.route("**/api/lobby*", lobby)
    client.open("/#/lobby")
    going = page.locator('.lobby-game[data-game="going"]')
    expect(going.locator(".lobby-expiry")).to_have_text("还剩不到 1 分钟")
    expect(page.locator('[data-game="staying"] .lobby-expiry')).to_have_text("还剩 12 分钟")
    expect(page.locator('[data-game="long"] .lobby-expiry')).to_have_text("还剩 2 小时 5 分钟")
    expect(going).to_have_count(0, timeout=4_000)
    # Gone by the page's countdown: the lobby was asked only once (it refreshes every 5 s).
    assert len(calls) == 1, calls
    expect(page.locator(".lobby-game")).to_have_count(2)
    shoot(page, artifacts, "followups-lobby-countdown")


def test_lobby_with_only_expired_entries_says_it_is_empty(client: Client) -> None:
    past = {
        "id": "old",
        "rules": "wango",
        "time_control": None,
        "open_color": 0,
        "creator": {"name": "李四", "avatar": "cat", "rating": 1500, "score": 0},
        "expires_at": time.time() - 5,
    }
    client.page.route("**/api/lobby*", lambda route: route.fulfill(json={"games": [past]}))
    page = client.open("/#/lobby")
    expect(page.locator("#lobby-list .empty")).to_be_visible()
    expect(page.locator(".lobby-game")).to_have_count(0)


# ----- a guest's name ------------------------------------------------------------------------


def test_guest_sets_a_name_seen_in_the_header_and_new_games(
    client: Client, artifacts: Path
) -> None:
    page = client.open("/")
    button = page.locator("#account-button")
    expect(button).to_have_text(re.compile("登录"))  # no name chosen yet
    button.click()
    page.click("#account-rename")
    dialog = page.locator("#guest-name-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("label[for=guest-name-input]")).to_have_text("名字")
    expect(page.locator("#guest-name-input")).to_be_focused()

    # The server refuses an empty name (422): said under the field.
    page.fill("#guest-name-input", "   ")
    page.click("#guest-name-save")
    error = page.locator("#guest-name-error")
    expect(error).to_have_text("名字须为 1–40 个字符")
    expect(page.locator("#guest-name-input")).to_have_attribute("aria-invalid", "true")
    expect(dialog).to_be_visible()
    forgive(client, 422)
    shoot(page, artifacts, "followups-guest-name-error")

    page.fill("#guest-name-input", "小明")
    page.click("#guest-name-save")
    expect(dialog).to_have_count(0)
    expect(button).to_have_text(re.compile("小明"))
    expect(button).to_be_focused()
    me = page.evaluate("fetch('/api/auth/me').then((r) => r.json())")
    assert me["kind"] == "guest" and me["name"] == "小明"
    page.reload()  # the server keeps it
    expect(button).to_have_text(re.compile("小明"))
    expect(button).to_have_attribute("title", "游客：小明")

    # A new game shows it in the guest's player bar.
    page.goto(client.server.url + "/#/new/vs_ai")
    page.click("#start")
    expect(page.locator(".player-bar.bottom .player-name")).to_contain_text("小明")

    # The dialog offers the current name to change, and Cancel leaves it as it is.
    button.click()
    page.click("#account-rename")
    expect(page.locator("#guest-name-input")).to_have_value("小明")
    page.click("#guest-name-cancel")
    expect(page.locator("#guest-name-dialog")).to_have_count(0)
    expect(button).to_have_text(re.compile("小明"))


def test_guest_name_dialog_in_english_with_escape(browser: Browser, server: LiveServer) -> None:
    client = Client(browser, server, locale="en-US")
    try:
        page = client.open("/#/leaderboard")
        page.click("#account-button")
        expect(page.locator("#account-rename")).to_have_text("Set your name")
        page.click("#account-rename")
        expect(page.locator("#guest-name-dialog h2")).to_have_text("Set your name")
        page.keyboard.press("Escape")
        expect(page.locator("#guest-name-dialog")).to_have_count(0)
        expect(page.locator("#account-button")).to_have_text(re.compile("Log in"))
    finally:
        client.close()


# ----- the replay viewer names the computer ---------------------------------------------------


def upload(server: LiveServer, **tags: str) -> str:
    """A two-ply record with `tags`, uploaded; its id."""
    board = Board(rules="wango")
    for text in ("a3a4", "a7a6"):
        board.push(Move.from_str(text))
    player = server.player()
    text = write_record(GameRecord.from_board(board, **tags))
    response = player.post(
        "/api/records", content=text.encode(), headers={"Content-Type": "text/plain"}
    )
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def test_replay_names_the_computer_in_the_readers_language(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    page.click("#go-vsai")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")  # the pieces can move now
    click_move(page, "a3a4")
    expect(page.locator("#moves li")).to_have_count(2)  # the computer replied
    found = re.search(r"#/game/([\w-]+)", page.url)
    assert found is not None
    page.goto(client.server.url + f"/#/replay/game/{found[1]}")
    blue = page.locator(".player-bar.top")
    expect(blue).to_contain_text("电脑 3 级")
    expect(blue).not_to_contain_text("AI level")
    shoot(page, artifacts, "followups-replay-ai")
    page.click("#lang")
    expect(page.locator(".player-bar.top")).to_contain_text("Computer level 3")


def test_replay_of_records_names_the_computer_only_in_its_games(
    client: Client, server: LiveServer
) -> None:
    page = client.open(f"/#/replay/record/{upload(server, Red='AI level 5', Blue='Li')}")
    expect(page.locator(".player-bar.bottom")).to_contain_text("电脑 5 级")
    expect(page.locator(".player-bar.top")).to_contain_text("Li")
    # Someone called "AI level 2" in an online game is a person with an odd name.
    online = upload(server, Red="Wang", Blue="AI level 2", Mode="online")
    page.goto(server.url + f"/#/replay/record/{online}")
    expect(page.locator(".player-bar.top")).to_contain_text("AI level 2")


# ----- the router: a page left while it loads ------------------------------------------------


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


# ----- lessons: the step survives a language switch -----------------------------------------


def test_lesson_keeps_its_step_across_a_language_switch(client: Client, artifacts: Path) -> None:
    page = client.open("/#/learn/attack")
    step = page.locator("#lesson-step")
    expect(step).to_have_text("第 1 步，共 4 步")

    def play(move: str) -> None:
        expect(page.locator(BOARD)).to_have_class(INTERACTIVE)
        click_move(page, move)

    # Two steps of the lesson's line (each with Blue's scripted reply).
    play("c3c7")
    page.click("#lesson-next")
    expect(step).to_have_text("第 2 步，共 4 步")
    play("c7c8")
    page.click("#lesson-next")
    expect(step).to_have_text("第 3 步，共 4 步")
    expect(page).to_have_url(re.compile(r"#/learn/attack\?step=3$"))
    expect(page.locator(BOARD)).to_have_class(INTERACTIVE)

    page.click("#lang")
    expect(step).to_have_text("Step 3 of 4")
    expect(page.locator("#lesson-goal")).to_contain_text("Goal")
    # The same position as before the switch: the lion on c8, the cat back on e9.
    expect(page.locator('#lesson-board .dsq-pieces [data-square="c8"]')).to_have_class(
        re.compile("red lion")
    )
    expect(page.locator('#lesson-board .dsq-pieces [data-square="e9"]')).to_have_class(
        re.compile("blue cat")
    )
    shoot(page, artifacts, "followups-lesson-step")
    play("c8d8")
    page.click("#lesson-next")
    expect(step).to_have_text("Step 4 of 4")
    play("d8d9")
    expect(page.locator("#lesson-complete")).to_have_text("Lesson complete!")

    # A reload cannot know the moves of a step that continues the last one: it goes back to
    # the nearest step with a position of its own. A step with one opens as it was.
    page.goto(client.server.url + "/#/learn/water?step=2")
    expect(step).to_have_text("Step 2 of 3")
    expect(page.locator('#lesson-board .dsq-pieces [data-square="c6"]')).to_have_class(
        re.compile("red rat")
    )
    page.click("#lang")
    expect(step).to_have_text("第 2 步，共 3 步")
    page.goto(client.server.url + "/#/learn/attack?step=3")
    expect(step).to_have_text("第 1 步，共 4 步")
    expect(page).to_have_url(re.compile(r"#/learn/attack$"))


def test_lesson_list_link_starts_a_lesson_at_step_one(client: Client) -> None:
    page = client.open("/#/learn/water")
    expect(page.locator(BOARD)).to_have_class(INTERACTIVE)
    click_move(page, "d5c5")
    page.click("#lesson-next")
    expect(page).to_have_url(re.compile(r"\?step=2$"))
    page.click(".page-head .back")
    page.click('[data-lesson="water"] a')
    expect(page.locator("#lesson-step")).to_have_text("第 1 步，共 3 步")


def test_lobby_entries_json_is_what_the_server_sends(server: LiveServer) -> None:
    """The made-up lobby answers above have the fields of the real one."""
    creator = server.player().guest()
    creator.create(mode="online", rules="classic", color="blue")
    games = server.player().get("/api/lobby").json()["games"]
    assert games
    for key in ("id", "rules", "time_control", "open_color", "creator", "expires_at"):
        assert key in games[0], json.dumps(games[0])
    assert {"name", "rating"} <= set(games[0]["creator"])
