"""Ending a session or a token holds on every node of a cluster (two nodes on one PostgreSQL
and one Redis): no node caches a token, so a revoked or expired one is refused at once on
both; and the sockets and bot streams opened with it close, whichever node they are on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import update
from tests.server.accounts.test_sessions import ANDROID, closed_with, logged_in, signed_up
from tests.server.api.test_bot import Stream
from tests.support.cluster_nodes import CLUSTER_MARKS, started_nodes
from tests.support.live import LiveServer
from tests.support.redis_server import RedisServer
from tests.support.site_helpers import same_browser, site_socket

from doushouqi.server.db.database import Database
from doushouqi.server.db.models import AuthTokenRow

pytestmark = CLUSTER_MARKS


@pytest.fixture
def two_nodes(tmp_path: Path, database: str, redis: RedisServer) -> Iterator[list[LiveServer]]:
    with started_nodes(tmp_path, database, redis, ("a", "b")) as started:
        yield started


def test_a_revoked_or_expired_token_is_refused_at_once_on_both_nodes(
    two_nodes: list[LiveServer], database: str
) -> None:
    a, b = two_nodes
    owner = signed_up(a, "cluster_owner")
    bots = [a.player(), b.player()]
    for bot in bots:
        bot.token = owner.api_token("bot:play")
        assert bot.get("/api/auth/me").status_code == 200  # both nodes know it
    revoked = owner.get("/api/auth/tokens").json()["tokens"]
    assert owner.request("DELETE", f"/api/auth/tokens/{revoked[0]['id']}").status_code == 200
    assert owner.request("DELETE", f"/api/auth/tokens/{revoked[1]['id']}").status_code == 200
    assert [bot.get("/api/auth/me").status_code for bot in bots] == [401, 401]

    # A token that expires: its time comes (written here, as the clock would bring it).
    for bot in bots:
        bot.token = owner.api_token("bot:play", expires_days=1)
        assert bot.get("/api/auth/me").status_code == 200
    db = Database(database)
    try:
        db.run_sync(
            lambda s: s.execute(
                update(AuthTokenRow)
                .where(AuthTokenRow.kind == "api")
                .values(expires_at=time.time() - 1)
            )
        )
    finally:
        db.close()
    assert [bot.get("/api/auth/me").status_code for bot in bots] == [401, 401]


def test_logging_out_everywhere_closes_the_sockets_on_the_other_node(
    two_nodes: list[LiveServer],
) -> None:
    a, b = two_nodes
    home = signed_up(a, "two_node_owner")
    elsewhere = same_browser(logged_in(a, "two_node_owner", ANDROID), b)  # its sockets on b
    game_id = home.create(mode="online", color="red")["id"]
    with site_socket(elsewhere) as site, elsewhere.socket(game_id) as game:
        assert site.recv()["type"] == "hello" and game.recv()["type"] == "state"
        assert home.post("/api/auth/sessions/logout-others", json={}).json() == {"ended": 1}
        assert closed_with(site) == (4401, "signed out")
        assert closed_with(game) == (4401, "signed out")
    assert elsewhere.get("/api/auth/me").status_code == 401


def test_revoking_a_token_ends_its_bot_stream_on_the_other_node(
    two_nodes: list[LiveServer],
) -> None:
    a, b = two_nodes
    owner = signed_up(a, "stream_owner")
    bot = b.player()
    bot.token = owner.api_token("bot:play")
    events = Stream(bot, "/api/bot/stream/event")  # on node b
    try:
        token_id = owner.get("/api/auth/tokens").json()["tokens"][0]["id"]
        time.sleep(0.3)  # the stream is open before the token goes
        assert not events.ended.is_set()
        assert owner.request("DELETE", f"/api/auth/tokens/{token_id}").status_code == 200
        assert events.ended.wait(10), "the bot's stream on the other node stayed open"
    finally:
        events.close()
