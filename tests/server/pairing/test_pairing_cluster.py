"""Quick pairing on several nodes (real PostgreSQL and Redis): every node runs the matcher,
and a seek is still paired exactly once."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from tests.support.cluster_nodes import CLUSTER_MARKS
from tests.support.live import LiveServer
from tests.support.site_helpers import in_server, site_socket

from doushouqi.server.accounts.auth import Principal
from doushouqi.server.db.models import GameRow
from doushouqi.server.domain import Guest
from doushouqi.server.pairing.models import SeekRow
from doushouqi.server.pairing.service import match_once

pytestmark = CLUSTER_MARKS

SEEKERS = 24


def _add_seeks(server: LiveServer, now: float) -> None:
    def write(session: Session) -> None:
        for n in range(SEEKERS):
            principal = Principal(Guest(f"seeker{n:02d}"), f"Seeker {n}", "rat")
            session.add(
                SeekRow(
                    id=f"s{n:02d}",
                    player_key=f"guest:seeker{n:02d}",
                    player=json.dumps(principal.to_dict()),
                    game="jungle",
                    rules="wango",
                    time_control="5+3",
                    rated=False,
                    rating=1500.0,
                    created_at=now + n * 0.001,
                    alive_until=now + 3600,
                )
            )

    server.app.state.ctx.db.run_sync(write)


def test_racing_nodes_pair_each_seek_once(nodes: list[LiveServer]) -> None:
    now = nodes[0].app.state.ctx.time.now()
    _add_seeks(nodes[0], now)
    # Every node's matcher at the same moment, several rounds each (besides their own loops).
    with ThreadPoolExecutor(len(nodes) * 2) as pool:
        rounds = [pool.submit(in_server, node, match_once, 30) for node in nodes * 2]
        made: list[Any] = [pair for r in rounds for pair in r.result()]
    games = nodes[0].app.state.ctx.db.run_sync(
        lambda s: [(g.seat0_key, g.seat1_key) for g in s.scalars(select(GameRow))]
    )
    seated = [key for pair in games for key in pair]
    assert len(games) == SEEKERS // 2, games
    assert sorted(seated) == sorted(f"guest:seeker{n:02d}" for n in range(SEEKERS))
    assert len(made) <= SEEKERS // 2
    paired = nodes[0].app.state.ctx.db.run_sync(
        lambda s: [(r.player_key, r.game_id) for r in s.scalars(select(SeekRow))]
    )
    game_ids = nodes[0].app.state.ctx.db.run_sync(
        lambda s: {g.id: (g.seat0_key, g.seat1_key) for g in s.scalars(select(GameRow))}
    )
    for player_key, game_id in paired:  # each seek names the one game its player sits in
        assert player_key in game_ids[game_id]


def test_players_on_two_nodes_are_paired_and_both_told(nodes: list[LiveServer]) -> None:
    a, b, _ = nodes
    alice = a.player().guest()
    bob = b.player().guest()
    with site_socket(alice) as alice_tab, site_socket(bob) as bob_tab:
        alice_tab.wait_for("hello")
        bob_tab.wait_for("hello")
        assert alice.post("/api/seeks", json={"time_control": "3+2"}).status_code == 201
        answer = bob.post("/api/seeks", json={"time_control": "3+2"}).json()
        game_id = answer["game_id"] or bob_tab.wait_for("paired")["game_id"]
        assert alice_tab.wait_for("paired")["game_id"] == game_id
    with alice.socket(game_id) as a_ws, bob.socket(game_id) as b_ws:
        a_ws.wait_for("game_started")
        b_ws.wait_for("game_started")
