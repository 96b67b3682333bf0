"""Accounts in the web client: sign up, log out and in, profiles, game history, leaderboard,
and rated online games (see ``support.py`` for the set-up)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, Route, expect
from tests.browser.support import (
    Client,
    choose_language,
    click_move,
    fetch_json,
    plies,
    shoot,
    toggle_language,
)
from tests.support.live import DEN_GAME, LiveServer

from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.infra.translations import load_table

PASSWORD = "correct horse battery"


def forgive_http_errors(client: Client, *statuses: int) -> None:
    """Drop the console lines Chromium writes for answers the test asked for on purpose
    (a wrong password is a 401); any other console error still fails the test."""
    expected = tuple(f"status of {status}" for status in statuses)
    client.errors[:] = [e for e in client.errors if not any(s in e for s in expected)]


def sign_up(page: Page, username: str, display_name: str = "") -> None:
    page.goto(page.url.split("#")[0] + "#/register")
    page.fill("#register-username", username)
    if display_name:
        page.fill("#register-display_name", display_name)
    page.fill("#register-password", PASSWORD)
    page.click("#register-submit")
    expect(page.locator("#account-button")).to_contain_text(display_name or username)


def test_register_log_out_and_log_in(client: Client, artifacts: Path) -> None:
    page = client.open("/#/leaderboard")
    expect(page.locator("#leaderboard-list")).to_be_visible()
    button = page.locator("#account-button")
    expect(button).to_have_text(re.compile("登录"))
    expect(button).to_have_attribute("aria-expanded", "false")
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    page.click("#account-register")
    expect(page).to_have_url(re.compile(r"#/register\?next=%2Fleaderboard"))

    # The server's 422 shows under each field it is about.
    page.fill("#register-username", "ab")
    page.fill("#register-password", "short")
    page.click("#register-submit")
    expect(page.locator("#register-username-error")).to_contain_text("3–32")
    expect(page.locator("#register-password-error")).to_contain_text("至少需要 8 个字符")
    expect(page.locator("#register-username")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#register-error")).to_contain_text("请修改")
    forgive_http_errors(client, 422)

    page.fill("#register-username", "Lin_Ao")  # the server keeps usernames in lower case
    page.fill("#register-display_name", "林奥")
    page.fill("#register-password", PASSWORD)
    page.click("#register-submit")
    expect(page).to_have_url(re.compile(r"#/leaderboard$"))  # back where the player came from
    expect(button).to_contain_text("林奥")
    expect(page.locator("#account-button [data-avatar]")).to_have_count(1)

    button.click()
    page.click("#account-logout")
    expect(button).to_have_text(re.compile("登录"))
    assert fetch_json(page, "/api/auth/me")["kind"] == "guest"  # still playing, as a guest

    # The same name again: 409, shown on the username field.
    button.click()
    page.click("#account-register")
    page.fill("#register-username", "lin_ao")
    page.fill("#register-password", PASSWORD)
    page.click("#register-submit")
    expect(page.locator("#register-username-error")).to_have_text("这个用户名已被注册，请换一个")
    forgive_http_errors(client, 409)

    page.click("#to-login")
    expect(page.locator("#login-password")).to_have_attribute("autocomplete", "current-password")
    page.fill("#login-username", "lin_ao")
    page.fill("#login-password", "not my password")
    page.click("#login-submit")
    expect(page.locator("#login-error")).to_have_text("用户名或密码错误")
    forgive_http_errors(client, 401)
    shoot(page, artifacts, "login-error")

    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    expect(page).to_have_url(re.compile(r"#/leaderboard$"))
    expect(button).to_contain_text("林奥")
    page.reload()  # the session outlives the page
    expect(button).to_contain_text("林奥")
    button.click()
    page.click("#account-profile")
    expect(page.locator("#profile-name")).to_have_text("林奥")


def test_a_weak_password_is_refused_in_the_readers_language(
    client: Client, artifacts: Path
) -> None:
    """The server's reason (a code) shows under the password field, in each language."""
    page = client.open("/#/register")
    for lang, password in (("zh", "12345678"), ("zh-Hant", " " * 8), ("en", "password")):
        choose_language(page, lang)
        page.fill("#register-username", "weak_one")
        page.fill("#register-password", password)
        page.click("#register-submit")
        reason = "repeat" if password.isspace() else "common"
        wanted = load_table(STATIC_DIR, lang)[f"error.account.password.{reason}"]
        expect(page.locator("#register-password-error")).to_have_text(wanted)
        expect(page.locator("#register-password")).to_have_attribute("aria-invalid", "true")
        forgive_http_errors(client, 422)
    shoot(page, artifacts, "register-weak-password")
    page.fill("#register-password", PASSWORD)
    page.click("#register-submit")
    expect(page.locator("#account-button")).to_contain_text("weak_one")


def test_log_in_page_in_english_and_as_guest(browser: Browser, server: LiveServer) -> None:
    guest = Client(browser, server, locale="en-US")
    try:
        page = guest.open("/#/login?next=%2Frules%2Fclassic")
        expect(page.locator("label[for=login-username]")).to_have_text("Username")
        expect(page.locator("#login-username")).to_be_focused()
        page.click("#as-guest")
        expect(page).to_have_url(re.compile(r"#/rules/classic$"))
        expect(page.locator("#account-button")).to_have_text(re.compile("Log in"))
        # A guest sees no "rated game" option, which is for accounts only.
        page.goto(server.url + "/#/new/online")
        expect(page.locator("#start")).to_be_visible()
        expect(page.locator("#rated")).to_have_count(0)
    finally:
        guest.close()


def test_profile_name_and_avatar(client: Client, browser: Browser, artifacts: Path) -> None:
    page = client.open("/")
    sign_up(page, "zhou_yu", "周瑜")
    page.click("#account-button")
    page.click("#account-profile")
    expect(page).to_have_url(re.compile(r"#/player/zhou_yu$"))
    expect(page.locator("#profile-name")).to_have_text("周瑜")
    expect(page.locator("#profile-level")).to_contain_text("新手")
    # A rating per speed, provisional ("1500?") until enough rated games there.
    expect(page.locator('#profile-ratings [data-speed="blitz"] dd')).to_contain_text("1500?")
    expect(page.locator("#profile-ratings > div")).to_have_count(5)
    expect(page.locator('#profile-stats [data-stat="games"] dd')).to_have_text("0")
    expect(page.locator("#profile-games")).to_have_text("还没有下过棋")

    # An empty name is refused by the server (422), shown on the field.
    expect(page.locator("#profile-display_name")).to_be_hidden()  # folded away at first
    page.click("#profile-edit summary")
    page.fill("#profile-display_name", "")
    page.click("#save-profile")
    expect(page.locator("#profile-display_name-error")).to_contain_text("1–40")
    forgive_http_errors(client, 422)

    page.fill("#profile-display_name", "美周郎")
    page.locator(".avatar-option", has=page.locator('input[value="lion"]')).click()
    page.click("#save-profile")
    expect(page.locator("#profile-saved")).to_have_text("已保存")
    expect(page.locator("#profile-name")).to_have_text("美周郎")
    expect(page.locator("#profile-display_name-error")).to_be_hidden()
    expect(page.locator("#account-button")).to_contain_text("美周郎")
    expect(page.locator("#account-button [data-avatar]")).to_have_attribute("data-avatar", "lion")

    page.reload()
    expect(page.locator("#profile-name")).to_have_text("美周郎")
    page.click("#profile-edit summary")
    expect(page.locator(".profile-who [data-avatar]")).to_have_attribute("data-avatar", "lion")
    expect(page.locator('input[name=avatar][value="lion"]')).to_be_checked()
    shoot(page, artifacts, "profile-own")

    # Someone else sees the profile, not the form to change it.
    other = Client(browser, client.server, locale="en-US")
    try:
        theirs = other.open("/#/player/zhou_yu")
        expect(theirs.locator("#profile-name")).to_have_text("美周郎")
        expect(theirs.locator(".profile-who [data-avatar]")).to_have_attribute(
            "data-avatar", "lion"
        )
        expect(theirs.locator("#profile-level")).to_have_text("Ladder score 0 · Level 1 · Novice")
        expect(theirs.locator("#profile-edit")).to_have_count(0)
        theirs.goto(client.server.url + "/#/player/nobody_here")
        expect(theirs.locator("#profile-missing")).to_contain_text("nobody_here")
        forgive_http_errors(other, 404)
    finally:
        other.close()


def test_games_in_history_and_on_the_leaderboard(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    sign_up(page, "sun_quan", "孙权")
    # Play the computer, then resign.
    page.goto(client.server.url + "/#/new/vs_ai")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    finished = re.search(r"#/game/([\w-]+)", page.url)
    assert finished is not None
    click_move(page, "a3a4")
    plies(page, 2)
    page.click("#resign")
    page.click("#resign")
    expect(page.locator("#result")).to_contain_text("认输")
    # A second game, made through the API with the page's cookies, not started yet.
    waiting = fetch_json(page, "/api/games", "POST", {"mode": "online", "rules": "classic"})

    # The profile names the account id that game summaries use for their seats.
    assert fetch_json(page, "/api/players/sun_quan")["id"] == fetch_json(page, "/api/auth/me")["id"]
    page.goto(client.server.url + "/#/player/sun_quan")
    expect(page.locator('#profile-stats [data-stat="games"] dd')).to_have_text("1")
    expect(page.locator('#profile-stats [data-stat="losses"] dd')).to_have_text("1")
    expect(page.locator("#profile-games-total")).to_contain_text("2")
    rows = page.locator("#profile-games li")
    expect(rows).to_have_count(2)
    lost = page.locator(f'#profile-games [data-game="{finished[1]}"]')
    expect(lost).to_have_attribute("data-result", "loss")
    expect(lost).to_contain_text("负")
    expect(lost).to_contain_text("对手：电脑 3 级（初级）")
    expect(lost).to_contain_text("WANGO 规则")
    expect(lost.locator("a")).to_have_attribute("href", f"#/replay/game/{finished[1]}")
    open_game = page.locator(f'#profile-games [data-game="{waiting["id"]}"]')
    expect(open_game).to_contain_text("等待中")
    expect(open_game).to_contain_text("还没有对手")
    expect(open_game).to_contain_text("经典规则")
    expect(open_game.locator("a")).to_have_attribute("href", f"#/game/{waiting['id']}")
    shoot(page, artifacts, "profile-history")

    page.click("#account-button")
    page.click("#account-leaderboard")
    mine = page.locator('#leaderboard-list [data-username="sun_quan"]')
    # The boards: ratings per speed first (no rated game yet: not there), the ladder score too.
    expect(page.locator("#leaderboard-list")).to_have_attribute("data-by", "rating")
    expect(mine).to_have_count(0)
    page.locator("#leaderboard-tabs label", has_text="积分榜").click()
    expect(page.locator("#leaderboard-list")).to_have_attribute("data-by", "score")
    expect(page).to_have_url(re.compile(r"#/leaderboard\?by=score&game=jungle$"))
    expect(mine).to_contain_text("孙权")
    expect(mine).to_have_class(re.compile(r"\bmine\b"))
    expect(mine.locator(".leader-value strong")).to_have_text("0")  # voided: 10 rounds or fewer
    mine.locator("a").click()
    expect(page).to_have_url(re.compile(r"#/player/sun_quan$"))


def test_rated_online_game_moves_the_rating(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    red, blue = Client(browser, server), Client(browser, server, locale="en-US")
    try:
        page = red.open("/")
        sign_up(page, "cao_cao", "曹操")
        page.goto(server.url + "/#/new/online")
        rated = page.locator("#rated")
        # Rated by default for an account: an online game starts with a clock (ratings are
        # per speed); an untimed one cannot be rated.
        expect(rated).to_be_checked()
        page.select_option("#settings select[name=time]", "")
        expect(rated).to_be_disabled()
        expect(page.locator(".rated-option")).to_contain_text("不计时的对局不计等级分")
        page.select_option("#settings select[name=time]", "5+3")
        expect(rated).to_be_checked()
        expect(page.locator(".rated-option")).to_contain_text("计入等级分")
        page.click("#start")
        link = page.locator("#invite-link")
        expect(link).to_have_value(re.compile(r"/game/[\w-]+\?join=1$"))
        found = re.search(r"/game/([\w-]+)", link.input_value())
        assert found is not None
        assert fetch_json(page, f"/api/games/{found[1]}")["game"]["rated"] is True

        other = blue.open("/")
        sign_up(other, "liu_bei", "Liu Bei")
        other.goto(link.input_value())
        expect(other.locator("#status")).to_contain_text("Red to move")
        # A game of more than 10 rounds (a shorter one would not be rated): Red reaches the den.
        for ply, text in enumerate(DEN_GAME):
            mover = page if ply % 2 == 0 else other
            sent = fetch_json(
                mover, f"/api/games/{found[1]}/commands", "POST", {"type": "move", "move": text}
            )
            assert all(e["type"] not in ("rejected", "error") for e in sent["events"]), sent
        expect(page.locator("#result")).to_contain_text("攻入兽穴")
        expect(other.locator("#result")).to_contain_text("You lost")

        page.goto(server.url + "/#/leaderboard?by=rating&speed=blitz")
        top = page.locator("#leaderboard-list li.leader").first
        expect(top).to_have_attribute("data-username", "cao_cao")
        expect(top.locator(".leader-rank")).to_have_text("–")  # provisional: not ranked yet
        rating = top.locator(".leader-value strong").inner_text()
        assert rating.endswith("?") and float(rating[:-1]) > 1500, rating
        shoot(page, artifacts, "leaderboard-rating")
        toggle_language(page)
        expect(page.locator("#leaderboard-list li.leader").first).to_contain_text("Level 1")
        page.goto(server.url + "/#/player/cao_cao")
        won = page.locator(f'#profile-games [data-game="{found[1]}"]')
        expect(won).to_contain_text("Won")
        expect(won).to_contain_text("vs Liu Bei")
        expect(won).to_contain_text("Blitz rated")
        expect(won.locator(".history-rating")).to_contain_text("1500? →")
    finally:
        red.close()
        blue.close()


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
    assert any("status of 422" in e for e in client.errors), client.errors
    forgive_http_errors(client, 422)
    shoot(page, artifacts, "accounts-guest-name-error")

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


def test_the_account_menu_stays_open_while_the_page_finishes_loading(
    browser: Browser, server: LiveServer
) -> None:
    """The menu is drawn again when the session's player arrives: a menu opened before that
    stays open (it used to snap shut under the hand that had just opened it); going to
    another page closes it."""
    client = Client(browser, server, locale="en-US")
    try:
        page = client.page
        held: list[Route] = []

        def hold(route: Route) -> None:  # the player's answer waits for the test
            held.append(route)

        page.route("**/api/auth/session", hold)
        client.open("/#/leaderboard")
        while not held:
            page.wait_for_timeout(20)
        old_button = page.query_selector("#account-button")
        page.click("#account-button")
        expect(page.locator("#account-rename")).to_be_visible()
        for route in held:
            route.continue_()
        page.wait_for_function("(el) => !el.isConnected", arg=old_button)  # drawn again
        expect(page.locator("#account-button")).to_have_attribute("aria-expanded", "true")
        expect(page.locator("#account-rename")).to_be_visible()
        page.click("#account-settings")
        expect(page).to_have_url(re.compile("#/settings$"))
        expect(page.locator("#account-menu")).to_be_hidden()
    finally:
        client.close()
