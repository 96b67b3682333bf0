"""bench/cluster_load.py --chaos: its bookkeeping, on recorded inputs — moves lost or applied
twice against the games' records, rejections by code, games stuck, the extra clock charge —
and a player's accounting of the server's messages; the chaos schedule comes from the seed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

# The bench's modules import each other by bare name, as when run from bench/ (appended: its
# scripts' names must not hide anything else).
sys.path.append(str(Path(__file__).resolve().parents[3] / "bench"))

from chaos_bookkeeping import (
    ACCEPT,
    OVER,
    START,
    TRY,
    ClockSample,
    SentMove,
    answer_times,
    audit_moves,
    clock_figures,
    gaps,
    rejections,
    stuck,
)
from chaos_player import Player, PlayLog
from chaos_schedule import CUT, KILL, REDIS, plan_chaos


def sent(
    ident: str, ply: int, move: str, *, game: str = "g", color: int | None = None, **seen: object
) -> SentMove:
    record = SentMove(ident, game, ply % 2 if color is None else color, ply, move, 1, 0.0)
    for name, value in seen.items():
        setattr(record, name, value)
    return record


def test_acknowledged_moves_missing_from_the_record_are_lost() -> None:
    kept = sent("a", 0, "a1a2", answer="ack", fresh_acks=1)
    replaced = sent("b", 1, "g9g8", answer="move_made", event_versions={4})
    cut_off = sent("c", 2, "a2a3", answer="state", seen_in_state=True)
    audit = audit_moves([kept, replaced, cut_off], {"g": ["a1a2", "f9f8"]})
    assert audit.acknowledged == 3
    assert audit.lost == [replaced, cut_off]
    assert audit.unexplained == [("g", 1, "f9f8")]  # what took the acknowledged move's place
    assert audit.lost_total == 2
    assert audit_moves([kept], {}).lost == [kept]  # a game the database does not have


def test_the_same_id_applied_twice_counts_as_lost() -> None:
    acked_twice = sent("a", 0, "a1a2", answer="ack", fresh_acks=2)
    two_events = sent("b", 1, "g9g8", answer="move_made", event_versions={4, 6})
    audit = audit_moves([acked_twice, two_events], {"g": ["a1a2", "g9g8"]})
    assert audit.applied_twice == [acked_twice, two_events] and audit.lost == []
    # Red's a2a1 again two plies later, which no id asked for: the same id played twice.
    there = sent("c", 0, "a2a1", answer="ack", fresh_acks=1)
    again = audit_moves(
        [there, sent("d", 1, "g9g8", answer="ack")], {"g": ["a2a1", "g9g8", "a2a1"]}
    )
    assert again.applied_twice == [there] and again.lost_total == 1 and again.unexplained == []
    # A duplicate ack (a resend answered as such) changes nothing.
    resent = sent("e", 0, "a1a2", answer="ack", fresh_acks=1, duplicate_acks=2)
    assert audit_moves([resent], {"g": ["a1a2"]}).lost_total == 0


def test_a_repeated_move_under_a_new_id_is_no_duplicate() -> None:
    moves = [
        sent("a", 0, "a1a2", answer="ack"),
        sent("b", 1, "g9g8", answer="ack"),
        sent("c", 2, "a2a1", answer="ack"),
        sent("d", 3, "g8g9", answer="ack"),
        sent("e", 4, "a1a2", answer="ack"),
    ]
    for move in moves:
        move.fresh_acks = 1
    audit = audit_moves(moves, {"g": ["a1a2", "g9g8", "a2a1", "g8g9", "a1a2"]})
    assert audit.lost_total == 0 and audit.unexplained == []


def test_refusals_and_unanswered_moves_against_the_record() -> None:
    refused = sent("a", 0, "a1a2", answer="rejected", code="stale_version")
    retried = sent("b", 0, "a1a2", answer="ack", fresh_acks=1)
    unanswered = sent("c", 1, "g9g8")
    audit = audit_moves([refused, retried, unanswered], {"g": ["a1a2", "g9g8"]})
    # The record's a1a2 is the acknowledged id's; the refused try was not played.
    assert audit.lost_total == 0 and audit.rejected_yet_played == []
    assert audit.unanswered_played == 1
    alone = audit_moves([refused], {"g": ["a1a2"]})
    assert alone.rejected_yet_played == [refused]
    both = sent("d", 0, "a1a2", answer="state", seen_in_state=True, code="stale_version")
    assert audit_moves([both], {"g": ["a1a2"]}).contradicted == [both]
    codes = rejections([refused, both, sent("e", 2, "a2a3", code="not_your_turn"), retried])
    assert codes == {"stale_version": 2, "not_your_turn": 1}


def test_answer_times_are_from_the_last_send_and_from_the_decision() -> None:
    move = sent("a", 0, "a1a2", answer="ack", fresh_acks=1, sends=[1.0, 4.0], answered_at=4.5)
    move.decided_at = 0.5
    never = sent("b", 1, "g9g8", sends=[2.0])
    assert answer_times([move, never]) == ([0.5], [4.0])


def test_a_game_is_stuck_while_a_player_tries_and_nothing_is_accepted() -> None:
    timeline = [
        (0.0, "g", START),
        (1.0, "g", TRY),
        (1.1, "g", ACCEPT),
        (2.0, "g", TRY),  # refused, tried again: the game has not moved
        (9.0, "g", TRY),
        (20.0, "g", ACCEPT),
        (21.0, "g", TRY),  # still waiting when the run ends at 40
        (0.0, "h", START),
        (1.0, "h", ACCEPT),  # the player to move never learns it is: nobody tries
        (19.0, "h", ACCEPT),
        (19.5, "h", OVER),
        (0.0, "i", START),
        (1.0, "i", TRY),
        (14.0, "i", ACCEPT),  # 14 s: slow, not stuck
        (14.5, "i", OVER),
    ]
    found = gaps(timeline, end=40.0)
    assert [(g.since, g.length, g.tried) for g in found if g.game_id == "g"] == [
        (0.0, 1.1, True),
        (1.1, pytest.approx(18.9), True),
        (20.0, 20.0, True),
    ]
    worst = stuck(found, 15.0)
    assert [(g.game_id, g.length, g.since, g.open_at_end) for g in worst] == [
        ("g", 20.0, 20.0, True)
    ]
    silent = stuck(found, 15.0, tried=False)
    assert [(g.game_id, g.length, g.open_at_end) for g in silent] == [("h", 18.0, False)]
    assert stuck(found, 20.0) == []
    with pytest.raises(ValueError):
        gaps([(0.0, "g", "paused")], end=1.0)


def test_the_extra_clock_charge_is_the_clock_lost_beyond_the_thinking() -> None:
    samples = [
        ClockSample("g", 0, thought=1.0, before=600.0, after=598.9),  # 0.1 s of transport
        ClockSample("g", 2, thought=0.5, before=598.9, after=593.4),  # an outage: 5 s
        ClockSample("h", 1, thought=2.0, before=300.0, after=301.0, increment=3.0),
    ]
    assert samples[2].charged == pytest.approx(2.0) and samples[2].extra == pytest.approx(0.0)
    figures = clock_figures(samples)
    assert figures["worst"] == pytest.approx(5.0)
    assert figures["worst_at"] == {"game": "g", "ply": 2}
    assert figures["p50"] == pytest.approx(0.1) and figures["moves"] == 3
    assert clock_figures([])["worst"] is None


def state(version: int, ply: int, turn: int, moves: list[str], remaining: list[float]) -> dict:
    game = {
        "status_id": 20,
        "ply": ply,
        "turn": turn,
        "dests": {"a1": ["a2"]} if turn == 0 else {},
        "moves": [[m, 0.0] for m in moves],
        "clocks": {"remaining": remaining},
    }
    return {"type": "state", "game_id": "g", "version": version, "game": game}


def test_a_player_accounts_for_the_servers_messages() -> None:
    log = PlayLog(think=0.01, answer_timeout=10.0, seed=1, increment=0.0)
    red = Player(log, 0, 0, "dsq_guest=x", ["ws://127.0.0.1:1"])
    red.begin("g")

    async def scenario() -> None:
        await red.handle(state(2, 0, 0, [], [600.0, 600.0]))
        assert red.thinking is not None
        await red.thinking
        move = red.pending
        assert move is not None and (move.ply, move.move, move.version) == (0, "a1a2", 2)
        made = {"type": "move_made", "game_id": "g", "version": 3, "ply": 1, "color": 0}
        made |= {"move": "a1a2", "to_move": 1, "dests": {}, "clocks": {"remaining": [597, 600]}}
        await red.handle(made)
        await red.handle({"type": "ack", "game_id": "g", "version": 3, "id": move.id})
        await red.handle(made)  # delivered again (a replay): still one application
        assert red.pending is None and move.answer == "move_made" and move.acknowledged
        assert move.fresh_acks == 1 and move.event_versions == {3}
        [sample] = log.samples
        assert sample.before == 600 and sample.after == 597
        assert sample.extra == pytest.approx(3.0 - sample.thought)
        # Blue's move, then Red's next is refused as stale: counted, and a snapshot asked for.
        theirs = {**made, "version": 4, "ply": 2, "color": 1, "move": "g9g8", "to_move": 0}
        await red.handle({**theirs, "dests": {"a2": ["a3"]}})
        await red.thinking
        refused = red.pending
        assert refused is not None and refused.ply == 2
        await red.handle(
            {"type": "error", "game_id": "g", "version": 4, "id": refused.id, "code": "unavailable"}
        )
        assert red.pending is refused and not red.in_flight  # kept, to be sent again
        await red.handle(
            {
                "type": "rejected",
                "game_id": "g",
                "version": 5,
                "id": refused.id,
                "code": "stale_version",
            }
        )
        assert red.pending is None and refused.code == "stale_version"
        assert red.resyncing is not None
        # The snapshot shows the refused move played after all: the refusal stands (it is not
        # an acknowledgement), and the audit finds the contradiction in the record.
        await red.handle(state(6, 3, 1, ["a1a2", "g9g8", "a2a3"], [590.0, 600.0]))
        assert red.resyncing is None and not refused.acknowledged

    asyncio.run(scenario())
    assert rejections(log.sent) == {"stale_version": 1}
    assert log.errors == {"unavailable": 1}
    audit = audit_moves(log.sent, {"g": ["a1a2", "g9g8", "a2a3"]})
    assert audit.lost_total == 0 and audit.rejected_yet_played == [log.sent[1]]


def test_the_chaos_schedule_comes_from_the_seed() -> None:
    nodes = ["node1", "node2", "node3"]
    plan = plan_chaos(7, 40.0, 2, 2, 1, nodes, 40)
    assert plan == plan_chaos(7, 40.0, 2, 2, 1, nodes, 40)
    assert plan != plan_chaos(8, 40.0, 2, 2, 1, nodes, 40)
    assert sorted(e.kind for e in plan) == sorted([KILL, KILL, REDIS, REDIS, CUT])
    times = [e.at for e in plan]
    assert times == sorted(times) and times[0] >= 4.0 and times[-1] <= 30.0
    for event in plan:
        if event.kind == KILL:
            assert event.target in nodes and 2 <= event.down <= 5
        if event.kind == CUT:
            assert len(event.players) == 10 and set(event.players) <= set(range(40))


def test_a_move_id_seen_in_two_events_is_a_move_applied_twice() -> None:
    log = PlayLog(think=0.01, answer_timeout=10.0, seed=2, increment=0.0)
    red = Player(log, 0, 0, "dsq_guest=x", ["ws://127.0.0.1:1"])
    red.begin("g")

    async def scenario() -> None:
        await red.handle(state(2, 0, 0, [], [600.0, 600.0]))
        assert red.thinking is not None
        await red.thinking
        assert red.pending is not None
        ident = red.pending.id
        made = {"type": "move_made", "game_id": "g", "color": 0, "move": "a1a2", "to_move": 1}
        made |= {"dests": {}, "clocks": None, "move_id": ident}
        await red.handle({**made, "version": 3, "ply": 1})
        await red.handle(
            {"type": "ack", "game_id": "g", "version": 5, "id": ident, "duplicate": True}
        )
        await red.handle({**made, "version": 5, "ply": 3})  # the server played it again

    asyncio.run(scenario())
    [move] = log.sent
    assert move.event_versions == {3, 5} and move.duplicate_acks == 1
    assert log.counts["own moves played elsewhere than meant"] == 1
    audit = audit_moves(log.sent, {"g": ["a1a2", "g9g8", "a1a2"]})
    assert audit.applied_twice == [move] and audit.lost_total == 1


def test_a_player_thinks_about_the_position_a_catch_up_brought() -> None:
    log = PlayLog(think=0.01, answer_timeout=10.0, seed=3, increment=0.0)
    red = Player(log, 0, 0, "dsq_guest=x", ["ws://127.0.0.1:1"])
    red.begin("g")
    made = {"type": "move_made", "game_id": "g", "clocks": None, "dests": {"a1": ["a2"]}}

    async def scenario() -> None:
        await red.handle(state(4, 2, 0, ["a1a2", "g9g8"], [600.0, 600.0]))
        await asyncio.sleep(0)  # thinking about move 3
        # Replayed after a reconnect: move 3 was played (from another tab, say), then Blue's 4.
        await red.handle({**made, "version": 5, "ply": 3, "color": 0, "move": "b1b2", "to_move": 1})
        await red.handle({**made, "version": 6, "ply": 4, "color": 1, "move": "g8g7", "to_move": 0})
        assert red.thinking is not None
        await red.thinking

    asyncio.run(scenario())
    [move] = log.sent
    assert (move.ply, move.version) == (4, 6)
    assert log.counts["own move_made events for moves not sent"] == 1
