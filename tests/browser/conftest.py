"""Fixtures of the browser tests: one live server and one Chromium per test module."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright
from tests.browser.support import ARGS, CHROMIUM, Client
from tests.support.live import LiveServer, make_settings, running

if not Path(CHROMIUM).exists():
    # The browser tests need Debian's Chromium (make test installs it).
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with running(make_settings(tmp_path_factory.mktemp("webapp-db"))) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def artifacts() -> Path:
    base = os.environ.get("DOUSHOUQI_ARTIFACTS") or tempfile.mkdtemp(prefix="doushouqi-web-")
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def client(browser: Browser, server: LiveServer) -> Iterator[Client]:
    c = Client(browser, server)
    yield c
    c.close()
