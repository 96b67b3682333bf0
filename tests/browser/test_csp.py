"""The web client under the server's Content-Security-Policy (``server/headers.py``).

Chromium reports a blocked script, style or connection as a console error, which fails any
browser test (``support.Client``): the whole suite runs the client under the strict policy.
Here: that a violation does show up as such an error, that a game's websocket is allowed, and
that FastAPI's docs pages run under their own policy (the CDN they load from is out of reach
here, so stand-ins are served for it: what they do is what Swagger UI and ReDoc need).
"""

from __future__ import annotations

from playwright.sync_api import ConsoleMessage, Page, Route, expect
from tests.browser.support import Client

from doushouqi.server.infra.headers import APP_POLICY

BLOCKED = "Content Security Policy"


def violations(client: Client) -> list[str]:
    """The policy's violations the page reported, taken off the errors that fail the test."""
    found = [e for e in client.errors if BLOCKED in e]
    client.errors = [e for e in client.errors if BLOCKED not in e]
    return found


def is_error(message: ConsoleMessage) -> bool:
    return message.type == "error"


def test_a_violation_is_a_console_error(client: Client) -> None:
    page = client.page
    response = page.goto(client.server.url + "/")
    assert response is not None
    assert response.headers["content-security-policy"] == APP_POLICY
    expect(page.locator("#go-vsai")).to_be_visible()
    with page.expect_console_message(is_error):
        page.evaluate("""() => {
            const script = document.createElement('script');
            script.textContent = 'window.injected = true';
            document.body.append(script);
        }""")
    with page.expect_console_message(is_error):
        page.evaluate("() => document.body.insertAdjacentHTML('beforeend', '<b style=\"x\">')")
    with page.expect_console_message(is_error):
        page.evaluate("() => { new Image().src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw='; }")
    assert page.evaluate("window.injected") is None
    found = violations(client)
    for directive in ("script-src", "style-src", "img-src"):  # (a style may be reported twice)
        assert any(directive in v for v in found), (directive, found)


def test_a_game_talks_over_its_websocket(client: Client) -> None:
    page = client.open("/#/new/vs_ai")
    page.click("#start")
    # The state comes over the websocket: 'self' lets the page open ws:// to its own host.
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    assert page.evaluate("window.gameView.ws.readyState") == 1  # OPEN


SWAGGER_BUNDLE = """
window.SwaggerUIBundle = Object.assign((config) => {
  const style = document.createElement('style');  // Swagger UI injects styles
  style.textContent = '#swagger-ui { color: #333 }';
  document.head.append(style);
  document.querySelector(config.dom_id).dataset.spec = config.url;
}, { presets: { apis: {} }, SwaggerUIStandalonePreset: {} });
"""

REDOC_BUNDLE = """
const style = document.createElement('style');  // styled-components' inline styles
style.textContent = 'redoc { display: block }';
document.head.append(style);
const code = 'postMessage("parsed")';  // ReDoc parses the schema in a worker made from a blob
const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
worker.onmessage = (e) => {
  document.querySelector('redoc').dataset.worker = e.data;
};
"""


def stand_ins(page: Page) -> None:
    """Serve the docs pages' CDN files (the real ones are out of reach in the tests)."""

    def serve(route: Route) -> None:
        url = route.request.url
        if url.endswith("swagger-ui-bundle.js"):
            route.fulfill(body=SWAGGER_BUNDLE, content_type="text/javascript")
        elif url.endswith("redoc.standalone.js"):
            route.fulfill(body=REDOC_BUNDLE, content_type="text/javascript")
        elif ".css" in url or "fonts.googleapis.com" in url:
            route.fulfill(body="body { margin: 0 }", content_type="text/css")
        else:  # the favicon
            route.fulfill(body=b"", content_type="image/png")

    page.route("https://**/*", serve)


def test_the_docs_pages_run_under_their_own_policy(client: Client) -> None:
    page = client.page
    stand_ins(page)
    page.goto(client.server.url + "/docs")
    # FastAPI's inline script ran and called the bundle from the CDN.
    expect(page.locator("#swagger-ui")).to_have_attribute("data-spec", "/openapi.json")
    page.goto(client.server.url + "/redoc")
    expect(page.locator("redoc")).to_have_attribute("data-worker", "parsed")
    assert not violations(client)


def test_the_board_demo_runs_under_the_policy(client: Client) -> None:
    page = client.open("/board/demo.html")  # its script and style are files of their own
    expect(page.locator(".dsq-board .dsq-piece")).to_have_count(16)
    expect(page.locator("main")).to_have_css("display", "flex")  # demo.css applies
