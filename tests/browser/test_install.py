"""The web app installs on phones: manifest, icons, favicon (see ``support.py`` for the set-up).

The icons are made by ``scripts/make_icons.py``; these tests read them as a browser does: over
HTTP from the live server, decoded by Chromium, and judged by Chromium's own installability check.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from tests.browser.support import ARGS, CHROMIUM, Client
from tests.support.live import LiveServer

STATIC = Path(__file__).resolve().parents[2] / "src/doushouqi/server/static"
MAX_ICON_BYTES = 30_000

# Decodes an image in the page, as the browser would show it; its natural size.
DECODE_JS = """async (url) => {
  const image = new Image();
  image.src = url;
  await image.decode();
  return [image.naturalWidth, image.naturalHeight];
}"""


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (the IHDR chunk comes first)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def get(context: BrowserContext, url: str) -> tuple[str, bytes]:
    """Fetch as the page's browser context does; the content type and body of a 200 answer."""
    response = context.request.get(url)
    assert response.status == 200, f"{url}: {response.status}"
    return response.headers["content-type"], response.body()


def app_css_background() -> str:
    """The light theme's page colour (--bg) in app.css, which the splash screen should match."""
    found = re.search(r"--bg:\s*(#[0-9a-f]{6})", (STATIC / "app/shell/app.css").read_text())
    assert found is not None
    return found[1]


def test_the_manifest_is_linked_and_describes_the_app(client: Client) -> None:
    page = client.open("/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/manifest.webmanifest"
    content_type, body = get(client.context, client.server.url + href)
    assert content_type.split(";")[0] == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["name"] == "斗兽棋 Jungle"
    assert manifest["short_name"] == "斗兽棋"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["lang"] == page.locator("html").get_attribute("lang")
    theme = page.locator('meta[name="theme-color"]').get_attribute("content")
    assert manifest["theme_color"] == theme
    assert manifest["background_color"] == app_css_background()


def test_every_manifest_icon_loads_with_its_declared_size(client: Client) -> None:
    page = client.open("/")
    _, body = get(client.context, client.server.url + "/manifest.webmanifest")
    icons = json.loads(body)["icons"]
    purposes: dict[str, set[str]] = {"any": set(), "maskable": set()}
    for icon in icons:
        url = client.server.url + icon["src"]
        content_type, data = get(client.context, url)
        assert content_type.split(";")[0] == icon["type"], icon
        assert content_type.startswith("image/")
        assert len(data) < MAX_ICON_BYTES, f"{icon['src']} is {len(data)} bytes"
        if icon["type"] == "image/png":
            width, height = png_size(data)
            assert icon["sizes"] == f"{width}x{height}", icon
            # Chromium decodes it to the same size (the PNGs are written by our own script).
            assert page.evaluate(DECODE_JS, url) == [width, height]
        else:
            assert icon["sizes"] == "any" and b"<svg" in data
            assert page.evaluate(DECODE_JS, url)[0] > 0
        purposes[icon.get("purpose", "any")].add(icon["sizes"])
    # What Android needs: 192 and 512 px for the launcher and splash screen, and a maskable one.
    assert {"192x192", "512x512"} <= purposes["any"]
    assert purposes["maskable"]


def test_the_page_icons_and_favicon_load(client: Client) -> None:
    page = client.open("/")
    hrefs = page.locator('link[rel="icon"]').evaluate_all("links => links.map(l => l.href)")
    assert client.server.url + "/favicon.ico" in hrefs
    for href in hrefs:
        content_type, _ = get(client.context, href)
        assert content_type.startswith("image/"), href
        assert page.evaluate(DECODE_JS, href)[0] > 0

    apple = page.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    assert apple == "/apple-touch-icon.png"  # where iOS also looks without a link
    content_type, data = get(client.context, client.server.url + apple)
    assert content_type == "image/png"
    assert png_size(data) == (180, 180)

    # /favicon.ico: an ICO whose directory agrees with the PNGs it holds.
    content_type, data = get(client.context, client.server.url + "/favicon.ico")
    assert content_type.startswith("image/")
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1) and count >= 2
    for i in range(count):
        entry = data[6 + 16 * i : 22 + 16 * i]
        width, height, *_, length, offset = struct.unpack("<BBBBHHII", entry)
        assert png_size(data[offset : offset + length]) == (width or 256, height or 256)
    assert page.evaluate(DECODE_JS, client.server.url + "/favicon.ico")[0] > 0


@pytest.fixture
def installable_page(browser: Browser, server: LiveServer, tmp_path: Path) -> Iterator[Page]:
    """The home page in a persistent (not incognito) profile: Chromium never offers to install
    from an incognito one, which is what Playwright's ordinary contexts are."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=ARGS
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_load_state("networkidle")
    yield page
    context.close()
    assert not errors, errors


def test_chromium_finds_the_app_installable(installable_page: Page) -> None:
    page = installable_page
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest["errors"] == []
    # Chromium's own check behind "Install app" / "Add to home screen": nothing missing.
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    # Installable without a service worker (none is wanted: it would cache stale app files).
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
