"""Every page of the site on a phone, measured as a thumb meets it: at 320, 360 and 390 px
wide, in the three languages, signed out and signed in (with the bell and the account menu),
no page scrolls sideways and every visible touch target (a link, button, input, select,
summary, ``[role=button]``, the label of a radio or checkbox) is at least 44 × 44 px.

The pages are those of the client's route table (``static/app/main.js``, the server's
``CLIENT_PAGES``): ``test_the_scan_walks_every_client_route`` fails when a route is added that
the walk does not visit. One browser context per language and sign-in state visits them all,
each measured at the three widths in turn (a resize, not a reload), so that the walk stays
quick. The targets exempted, each for the reason WCAG 2.5.8 (target size) gives:

- a link inside running text (``display: inline`` among other words): the *inline* exception;
- the board's squares and points (``.dsq-board``): the *essential* exception, the board's
  geometry (7 × 9 squares, 老虎棋's 9 × 11 grid of points) shares its width between them;
- a radio button or checkbox with a label: the label is the target, and it is measured.

A target hidden from the pointer (``pointer-events: none``, the segmented choices' radio
buttons under their labels) is none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import HTML_LANG, fetch_json, goto_route
from tests.support.live import LiveServer, start_online

from doushouqi.server.api.pages import CLIENT_PAGES

TARGET = 44  # px, both ways (WCAG 2.5.5; Apple's and Google's guidance, lichess on phones)
WIDTHS = (390, 360, 320)
LOCALES = {"en": "en-US", "zh": "zh-CN", "zh-Hant": "zh-TW"}

#: What a page's state at one width comes to: how far it scrolls sideways (and what sticks
#: out), and its targets under 44 px, each with the exception it falls under, if any.
AUDIT = """(minimum) => {
  const width = window.innerWidth;
  const describe = (el) => {
    let name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    if (!el.id && el.classList.length) name += '.' + [...el.classList].slice(0, 2).join('.');
    const words = (el.getAttribute('aria-label') || el.textContent || el.value || '').trim();
    return words ? `${name} "${words.slice(0, 24)}"` : name;
  };
  const overflow = document.documentElement.scrollWidth - width;
  const wide = overflow <= 0 ? [] : [...document.body.querySelectorAll('*')]
    .filter((el) => el.checkVisibility() && el.getBoundingClientRect().right > width + 0.5)
    .slice(0, 5).map(describe);
  const inline = (el) => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    const own = el.textContent.trim().length;
    return (el.parentElement?.textContent.trim().length ?? 0) > own;
  };
  const small = [];
  const targets = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[role=button], label';
  for (const el of document.querySelectorAll(targets)) {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    if (getComputedStyle(el).pointerEvents === 'none') continue;
    const choice = 'input[type=radio], input[type=checkbox]';
    if (el.tagName === 'LABEL' && !el.control?.matches(choice)) continue;
    if (el.matches(choice) && el.labels?.length) continue; // its label is the target
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    if (box.width >= minimum - 0.5 && box.height >= minimum - 0.5) continue;
    const exception = el.closest('.dsq-board') ? 'board' : inline(el) ? 'inline' : null;
    small.push({ target: describe(el), width: Math.round(box.width),
                 height: Math.round(box.height), exception });
  }
  return { overflow, wide, small };
}"""


@dataclass(frozen=True)
class Site:
    """What the walk visits besides a visitor's own games: others' games, a tournament …"""

    online_game: str
    tournament: str
    challenge: str


@pytest.fixture(scope="module")
def site(server: LiveServer) -> Iterator[Site]:
    red, blue = server.player().register("scan_red"), server.player().register("scan_blue")
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    for ply, text in enumerate(["a3a4", "g7g6", "a4a5", "g6g5"]):
        (red_ws if ply % 2 == 0 else blue_ws).send({"type": "move", "move": text})
        (red_ws if ply % 2 else blue_ws).wait_for("move_made", lambda m, t=text: m["move"] == t)
    cup = {"kind": "swiss", "name": "Phone Cup", "time_control": "5+3", "rounds": 3}
    tour = red.post("/api/tournaments", json={**cup, "starts_in": 600})
    assert tour.status_code == 201, tour.text
    challenge = red.post("/api/challenges", json={"to": "scan_blue"})
    assert challenge.status_code == 201, challenge.text
    try:
        yield Site(game_id, tour.json()["id"], challenge.json()["id"])
    finally:
        red_ws.close()
        blue_ws.close()


def paths(site: Site, own: list[str]) -> list[str]:
    """Every page: the route table's, a visitor's own games (``own``) and others'."""
    return [
        "/",
        "/new/vs_ai",
        "/new/vs_ai?game=tiger",
        "/new/same_screen",
        "/new/online",
        *own,
        f"/game/{site.online_game}",
        "/lobby",
        "/play",
        f"/challenge/{site.challenge}",
        "/correspondence",
        "/rules",
        "/rules/laohuqi",
        "/learn",
        "/learn/traps",
        "/learn/tiger-jump",
        "/replay",
        f"/replay/game/{site.online_game}",
        "/analysis",
        "/explorer",
        "/puzzles",
        "/login",
        "/register",
        "/player/scan_red",
        "/leaderboard",
        "/ranks",
        "/watch",
        "/tv",
        "/tournaments",
        f"/tournament/{site.tournament}",
        "/settings",
        "/mod",
    ]


def test_the_scan_walks_every_client_route() -> None:
    walked = {p.strip("/").split("/")[0].split("?")[0] for p in paths(Site("g", "t", "c"), [])}
    missing = set(CLIENT_PAGES) - walked - {"tournament"}  # a tournament's page: /tournament/ID
    assert missing == set(), f"pages the phone scan does not visit: {sorted(missing)}"


def settle(page: Page) -> None:
    page.wait_for_load_state("networkidle")
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def measure(page: Page, where: str, found: list[str]) -> None:
    """The page at each width; what is wrong goes into ``found``."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        page.evaluate("new Promise((done) => requestAnimationFrame(done))")
        result: dict[str, Any] = page.evaluate(AUDIT, TARGET)
        if result["overflow"] > 0:
            found.append(f"{where} @{width}: scrolls {result['overflow']} px: {result['wide']}")
        for target in result["small"]:
            if target["exception"] is None:
                found.append(
                    f"{where} @{width}: {target['target']} {target['width']}×{target['height']}"
                )


def own_games(page: Page) -> list[str]:
    """The visitor's games against the computer (both games) and on one screen."""
    made = [
        fetch_json(page, "/api/games", "POST", body)
        for body in (
            {"mode": "vs_ai", "level": 1},
            {"mode": "vs_ai", "level": 1, "game": "tiger"},
            {"mode": "same_screen"},
        )
    ]
    assert all("id" in game for game in made), made
    return [f"/game/{game['id']}" for game in made]


def visit(page: Page, server: LiveServer, path: str, signed_in: bool, found: list[str]) -> None:
    goto_route(page, f"{server.url}/#{path}")
    first = path.strip("/").split("/")[0].split("?")[0] or "home"
    expect(page.locator("body")).to_have_attribute("data-view", first)
    settle(page)
    measure(page, path, found)
    if path == "/":  # the top bar's menus, open
        page.click("#account-button")
        measure(page, "/ (account menu)", found)
        page.click("#account-button")
        if signed_in:
            page.click("#bell-button")
            measure(page, "/ (bell)", found)
            page.click("#bell-button")
    page.set_viewport_size({"width": 390, "height": 740})


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
@pytest.mark.parametrize("lang", list(LOCALES))
def test_no_page_scrolls_sideways_or_has_a_small_target(
    browser: Browser, server: LiveServer, site: Site, lang: str, signed_in: bool
) -> None:
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": 390, "height": 740})
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", HTML_LANG[lang])
        if signed_in:
            name = f"phone_{lang.replace('-', '_').lower()}"
            body = {"username": name, "password": "long enough password"}
            assert fetch_json(page, "/api/auth/register", "POST", body).get("username") == name
            page.reload()
        found: list[str] = []
        for path in paths(site, own_games(page) if signed_in else []):
            visit(page, server, path, signed_in, found)
        if not signed_in:  # a visitor's pages seen, the games of a guest (which play makes)
            fetch_json(page, "/api/auth/guest", "POST")
            for path in own_games(page):
                visit(page, server, path, signed_in, found)
        assert found == [], "\n".join(found)
        assert errors == [], errors
    finally:
        context.close()


def test_the_measure_finds_a_small_target_and_a_wide_page(
    browser: Browser, server: LiveServer
) -> None:
    """The scan can fail: a 30 px button and a page 20 px too wide are found, an inline link in
    a sentence is excepted."""
    context = browser.new_context(viewport={"width": 320, "height": 740})
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        expect(page.locator("body")).to_have_attribute("data-view", "home")
        settle(page)
        # Styles set through the DOM: the site's CSP refuses style attributes.
        page.evaluate(
            """(() => {
                 const tiny = Object.assign(document.createElement('button'), { id: 'tiny' });
                 Object.assign(tiny.style, { minHeight: '0', minWidth: '0', height: '30px' });
                 const text = document.createElement('p');
                 text.append('Read ', Object.assign(document.createElement('a'),
                   { id: 'inline-link', href: '#/rules', textContent: 'the rules' }), ' first.');
                 const wide = document.createElement('div');
                 Object.assign(wide.style, { width: '340px', height: '4px' });
                 document.querySelector('#view').append(tiny, text, wide);
               })()"""
        )
        result = page.evaluate(AUDIT, TARGET)
        assert result["overflow"] == 20, result
        small = {re.sub(r" .*", "", s["target"]): s["exception"] for s in result["small"]}
        assert small["button#tiny"] is None, small
        assert small["a#inline-link"] == "inline", small
    finally:
        context.close()


# ----- the game page on a phone ------------------------------------------------------------


def bottom(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return float(box["y"] + box["height"])


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_hint_and_the_threat_list_are_read_with_the_board(
    browser: Browser, server: LiveServer, lang: str, size: tuple[int, int]
) -> None:
    """Against the computer, with the threat view on and a hint asked for: both are on the
    screen under the board without scrolling; no watcher count (nobody is counted watching a
    game against the computer)."""
    width, height = size
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        goto_route(page, server.url + "/#/new/vs_ai")
        page.click("#start")
        expect(page.locator("#hint")).to_have_attribute("aria-disabled", "false")
        page.click("#threats-toggle")
        expect(page.locator("#threat-legend .threat-list")).to_be_visible()
        page.click("#hint")
        expect(page.locator("#hint-text")).to_contain_text(re.compile(r"[a-g][1-9]"))
        page.evaluate("window.scrollTo(0, 0)")
        for selector in ("#hint-text", "#threat-legend", ".player-bar.bottom"):
            assert bottom(page, selector) <= height, selector
        expect(page.locator("#watchers")).to_be_hidden()
    finally:
        context.close()


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("width", [390, 320])
def test_the_reconnect_notice_covers_nothing_a_game_needs(
    browser: Browser, server: LiveServer, width: int
) -> None:
    """Cut off from the server, the notice sits over the site's top bar: not over the players'
    names and clocks, nor over the board."""
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": 740})
    page = context.new_page()
    try:
        goto_route(page, server.url + "/#/new/vs_ai")
        page.click("#start")
        expect(page.locator("#status")).to_have_text("Your move")
        context.set_offline(True)
        page.evaluate("window.gameView.ws.close()")
        notice = page.locator("#offline")
        expect(notice).to_be_visible()
        expect(notice).to_have_text("Connection lost, reconnecting…")
        box = notice.bounding_box()
        bar = page.locator(".topbar").bounding_box()
        assert box is not None and bar is not None
        assert box["y"] >= bar["y"] and box["y"] + box["height"] <= bar["y"] + bar["height"], box
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        for selector in (".player-bar.top", ".player-bar.bottom", "#board"):
            other = page.locator(selector).bounding_box()
            assert other is not None and not overlaps(box, other), selector
        context.set_offline(False)
        expect(notice).to_be_hidden(timeout=20_000)
    finally:
        context.close()
