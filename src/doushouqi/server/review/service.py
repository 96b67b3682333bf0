"""Stored game reviews: a finished game searched once, position by position, at a fixed budget,
then graded and kept (table ``game_reviews``; docs/server.md, "Game review").

Why a budget and not a time: a search given a time reaches a depth that depends on the
machine and its load, so the same game reviewed twice got other scores, other marks and other
accuracies. Every position here is searched by the game's computer player within a number of
nodes, with a fresh engine (:attr:`~doushouqi.server.games.registry.ComputerPlayer.analyse_fixed`),
so the same game gives byte for byte the same review on any worker, under any load, and it
is stored, so that every viewer (players and spectators, on any node) sees that one.

* **Requested**, not automatic: a review costs a worker a few seconds per game at the standard
  budget (:data:`BUDGETS`), and most games are never opened again; lichess asks too.
* **One review per game and budget at a time**: the row is inserted (or, when its node died,
  taken over) by one node in one statement; a second request, on any node, finds it running
  and joins it (reads its progress). A node's own runs are tasks keyed by game and budget.
* **Lowest priority**: each position is an AI job of kind ``review``, which the Redis workers
  read after every move, hint and analysis, and which the process pool hands over only to an
  idle worker; positions go one at a time, so a review never holds more than one worker.
* **Progress** is written after each position (``done`` of ``total``), with the positions
  searched so far: a review taken over after its node died goes on from there (the budget
  makes those positions exactly what the new node would have found).
* **Grading** is :mod:`.grading` (game-free: scores from the first seat's view, a decided
  game's score, Jungle's ``den`` or the Tiger's ``win``, as ±DEN_CP).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from doushouqi.core.game import Position, get_game
from doushouqi.server.ai.pool import AiRequest, AiService
from doushouqi.server.db.database import Database
from doushouqi.server.domain.model import Game
from doushouqi.server.review import grading
from doushouqi.server.review.models import GameReviewRow

__all__ = [
    "DEFAULT_BUDGETS",
    "LEASE",
    "GameReviews",
    "Subject",
    "subject_of",
]

log = logging.getLogger(__name__)

#: The search budgets a review may be asked for, in nodes per position (settings
#: ``review_nodes`` and ``review_deep_nodes``): the standard one (a fraction of a second per
#: position on one busy core, docs/server.md: a 60-ply game in 15-25 s), and a deeper
#: re-analysis, ten times as much (shown in place of the standard one once done).
DEFAULT_BUDGETS: Mapping[str, int] = {"standard": 250_000, "deep": 2_500_000}
#: Seconds without a sign of life from a running review's node after which another request
#: takes it over (a node writes one at least every :data:`BEAT` seconds while it runs).
LEASE = 60.0
BEAT = 10.0
#: Seconds one position's job may wait for a worker: reviews yield to every other job, so on a
#: busy site they wait; a review that gets no answer this long fails and may be asked again.
JOB_WAIT = 600.0
#: Tries per position before the review fails (a worker that died, Redis away for a moment).
ATTEMPTS = 3
#: The level the positions are searched at: full strength (no noise, no random choice).
LEVEL = 10


@dataclass(frozen=True)
class Subject:
    """What a review searches: a finished game's rules, start and moves."""

    game_id: str
    game_key: str
    rules: dict[str, Any]
    start_fen: str | None
    moves: tuple[str, ...]

    @property
    def total(self) -> int:
        """Positions to assess: the start and the one after each ply."""
        return len(self.moves) + 1

    def positions(self) -> list[Position]:
        """Every position of the game, the start first (each with its history)."""
        game = get_game(self.game_key)
        rules = game.parse_rules(self.rules)
        start = game.start_position(rules) if self.start_fen is None else self.start_fen
        position = game.new_position(rules, start)
        found = [position.copy()]
        for move in self.moves:
            if move == game.pass_move:
                position.push_pass()
            else:
                position.push(position.parse_move(move))
            found.append(position.copy())
        return found

    def request(self, ply: int, nodes: int, deadline: float) -> AiRequest:
        """The AI job of position ``ply`` (after ``ply`` moves)."""
        return AiRequest(
            rules=self.rules,
            start_fen=self.start_fen,
            moves=self.moves[:ply],
            level=LEVEL,
            movetime=1.0,  # unused: the budget bounds the search
            kind="review",
            deadline=deadline,
            game_id=self.game_id,
            game_key=self.game_key,
            budget={"nodes": nodes},
        )


def subject_of(game: Game) -> Subject:
    return Subject(
        game_id=game.id,
        game_key=game.game_key,
        rules=game.rules_mapping,
        start_fen=game.start_fen,
        moves=tuple(m.move for m in game.moves),
    )


def _dumps(value: Any) -> str:
    # One spelling for one value: what is stored is what every viewer is sent.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def assessed(position: Position, found: Mapping[str, Any] | None) -> dict[str, Any]:
    """What a review keeps of one position: the side to move (``turn``), the engine's score
    (the side to move's view; None where the game is over), ``red_cp`` (the first seat's view:
    a finished game's result as ±DEN_CP or 0), the best move in words, its line and depth."""
    outcome = position.outcome()
    turn = position.turn
    if outcome is not None or found is None or found.get("bestmove") is None:
        if outcome is None:
            red_cp = None
        else:
            red_cp = 0 if outcome.winner is None else grading.DEN_CP * (1 - 2 * outcome.winner)
        return {
            "turn": turn, "score": None, "red_cp": red_cp, "bestmove": None, "pv": [], "depth": 0,
            "readable_en": None, "readable_zh": None,
        }  # fmt: skip
    move = str(found["bestmove"])
    score = found.get("score")
    return {
        "turn": turn,
        "score": score,
        "red_cp": None if score is None else grading.first_seat_cp(score, turn),
        "bestmove": move,
        "pv": [str(m) for m in found.get("pv") or [move]],
        "depth": int(found.get("depth") or 0),
        "readable_en": position.move_text(move, "en"),
        "readable_zh": position.move_text(move, "zh"),
    }


def graded(subject: Subject, positions: list[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
    """Each graded ply and each side's summary (JSON-ready, rounded as the API shows them)."""
    first_turn = positions[0]["turn"] if positions else 0
    scores = [p["red_cp"] for p in positions]
    plies, sides = grading.review(scores, first_turn, subject.moves)
    return (
        [
            {
                "ply": g.ply,
                "mover": g.mover,
                "loss": round(g.loss, 1),
                "accuracy": round(g.accuracy, 1),
                "grade": g.grade,
            }
            for g in plies
        ],
        [
            {
                "accuracy": None if s.accuracy is None else round(s.accuracy, 1),
                "moves": s.moves,
                "inaccuracies": s.inaccuracies,
                "mistakes": s.mistakes,
                "blunders": s.blunders,
            }
            for s in sides
        ],
    )


def row_view(row: GameReviewRow, now: float, budgets: Mapping[str, int]) -> dict[str, Any]:
    """A stored review as the API sends it: the same for every viewer (no one's own data).
    Its budget is named after ``budgets`` (its nodes when it is none of them: a site that
    changed its budgets)."""
    done = row.status == "done"
    name = next((key for key, value in budgets.items() if value == row.budget), str(row.budget))
    return {
        "budget": {"name": name, "nodes": row.budget},
        "status": row.status,
        "done": row.done,
        "total": row.total,
        # A running review whose node has been silent past the lease: a new request resumes it.
        "stalled": row.status == "running" and row.beat < now - LEASE,
        "positions": json.loads(row.positions) if done else None,
        "plies": json.loads(row.plies) if done and row.plies else None,
        "players": json.loads(row.players) if done and row.players else None,
        "error": row.error if row.status == "failed" else None,
    }


# ---------------------------------------------------------------------- database steps


def _claim(
    session: Session, subject: Subject, nodes: int, node: str, now: float
) -> tuple[bool, list[dict[str, Any]]]:
    """Start the review of ``subject`` at ``nodes`` for this node, or take over a failed one or
    one whose node went silent: (True, the positions already searched). (False, []) when it is
    done or running elsewhere (the request joins it). One statement decides: two nodes may try
    at once, one wins."""
    key = {"game_id": subject.game_id, "budget": nodes}
    row = session.get(GameReviewRow, (subject.game_id, nodes))
    if row is None:
        row = GameReviewRow(
            **key, status="running", done=0, total=subject.total, positions="[]",
            owner=node, beat=now, created_at=now,
        )  # fmt: skip
        session.add(row)
        session.flush()  # an IntegrityError here: another node inserted it first
        return True, []
    if row.status == "done":
        return False, []
    taken = session.execute(
        update(GameReviewRow)
        .where(GameReviewRow.game_id == subject.game_id, GameReviewRow.budget == nodes)
        .where((GameReviewRow.status == "failed") | (GameReviewRow.beat < now - LEASE))
        .where(GameReviewRow.status != "done")
        .values(status="running", owner=node, beat=now, error=None)
        .execution_options(synchronize_session=False)
    )
    if taken.rowcount != 1:  # type: ignore[attr-defined]
        return False, []
    session.expire(row)
    found = json.loads(row.positions)
    return True, found if isinstance(found, list) else []


def _progress(
    session: Session, subject: Subject, nodes: int, positions: list[dict[str, Any]], now: float
) -> None:
    session.execute(
        update(GameReviewRow)
        .where(GameReviewRow.game_id == subject.game_id, GameReviewRow.budget == nodes)
        .where(GameReviewRow.status == "running")
        .values(done=len(positions), positions=_dumps(positions), beat=now)
    )


def _beat(session: Session, subject: Subject, nodes: int, now: float) -> None:
    session.execute(
        update(GameReviewRow)
        .where(GameReviewRow.game_id == subject.game_id, GameReviewRow.budget == nodes)
        .where(GameReviewRow.status == "running")
        .values(beat=now)
    )


def _finish(
    session: Session,
    subject: Subject,
    nodes: int,
    positions: list[dict[str, Any]],
    now: float,
) -> None:
    plies, players = graded(subject, positions)
    session.execute(
        update(GameReviewRow)
        .where(GameReviewRow.game_id == subject.game_id, GameReviewRow.budget == nodes)
        .where(GameReviewRow.status != "done")
        .values(
            status="done",
            done=len(positions),
            positions=_dumps(positions),
            plies=_dumps(plies),
            players=_dumps(players),
            beat=now,
            finished_at=now,
            owner=None,
            error=None,
        )
    )


def _fail(session: Session, subject: Subject, nodes: int, error: str, now: float) -> None:
    session.execute(
        update(GameReviewRow)
        .where(GameReviewRow.game_id == subject.game_id, GameReviewRow.budget == nodes)
        .where(GameReviewRow.status == "running")
        .values(status="failed", error=error[:200], beat=now, owner=None)
    )


def _rows(session: Session, game_id: str) -> list[GameReviewRow]:
    query = select(GameReviewRow).where(GameReviewRow.game_id == game_id)
    rows = list(session.scalars(query.order_by(GameReviewRow.budget)))
    for row in rows:
        session.expunge(row)
    return rows


# ---------------------------------------------------------------------- the service


class GameReviews:
    """Requests, runs and reads the stored reviews of one node.

    ``ai`` searches the positions (the analysis service: a process pool of this node, or the
    Redis workers of the cluster); ``now`` is the clock (epoch seconds); ``node`` names this
    node in the rows it runs; ``budgets`` the budgets that may be asked for, by name."""

    def __init__(
        self,
        db: Database,
        ai: AiService,
        now: Callable[[], float],
        node: str = "",
        budgets: Mapping[str, int] = DEFAULT_BUDGETS,
    ) -> None:
        self.budgets = dict(budgets)
        self._db = db
        self._ai = ai
        self._now = now
        self._node = node[:64] or "node"
        self._running: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._closed = False

    async def request(self, game: Game, nodes: int) -> dict[str, Any]:
        """Start the review of a finished ``game`` at ``nodes`` unless it is done or running
        (then this request joins it); what :meth:`state` says afterwards."""
        subject = subject_of(game)
        key = (subject.game_id, nodes)
        if key not in self._running and not self._closed:
            try:
                claimed, found = await self._db.write(
                    lambda s: _claim(s, subject, nodes, self._node, self._now())
                )
            except IntegrityError:  # inserted by another node a moment ago: joined
                claimed, found = False, []
            if claimed and key not in self._running:
                task = asyncio.get_running_loop().create_task(
                    self._run(subject, nodes, found), name=f"review-{subject.game_id}-{nodes}"
                )
                self._running[key] = task
                task.add_done_callback(lambda _: self._running.pop(key, None))
        return await self.state(subject.game_id)

    async def state(self, game_id: str) -> dict[str, Any]:
        """The game's reviews as every viewer sees them: ``review``, the deepest finished one
        (None before the first), and ``pending``, one asked for and not finished (running, with
        its progress, or failed), deeper than the one shown (None when there is none)."""
        rows = await self._db.read(lambda s: _rows(s, game_id))
        now = self._now()
        done = [row for row in rows if row.status == "done"]
        shown = done[-1] if done else None
        waiting = [
            row
            for row in rows
            if row.status != "done" and (shown is None or row.budget > shown.budget)
        ]
        pending = waiting[-1] if waiting else None
        return {
            "game_id": game_id,
            "review": None if shown is None else row_view(shown, now, self.budgets),
            "pending": None if pending is None else row_view(pending, now, self.budgets),
            "budgets": [{"name": name, "nodes": value} for name, value in self.budgets.items()],
            "thresholds": {
                "inaccuracy": grading.INACCURACY,
                "mistake": grading.MISTAKE,
                "blunder": grading.BLUNDER,
            },
        }

    async def _run(self, subject: Subject, nodes: int, found: list[dict[str, Any]]) -> None:
        try:
            positions = subject.positions()
            done = list(found[: len(positions)])
            if (ready := getattr(self._ai, "ready", None)) is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ready(), JOB_WAIT)
            for ply in range(len(done), len(positions)):
                position = positions[ply]
                answer = None
                if position.outcome() is None:
                    answer = await self._search(subject, ply, nodes)
                done.append(assessed(position, answer))
                progress = functools.partial(_progress, subject=subject, nodes=nodes)
                await self._db.write(functools.partial(progress, positions=done, now=self._now()))
            finish = functools.partial(_finish, subject=subject, nodes=nodes, now=self._now())
            await self._db.write(functools.partial(finish, positions=done))
            log.info("reviewed game %s at %d nodes per position", subject.game_id, nodes)
        except asyncio.CancelledError:
            raise  # the node stops: the row's lease runs out and another request resumes it
        except Exception as exc:
            log.exception("the review of game %s failed", subject.game_id)
            error = f"{type(exc).__name__}: {exc}"
            with contextlib.suppress(Exception):
                await self._db.write(lambda s: _fail(s, subject, nodes, error, self._now()))

    async def _search(self, subject: Subject, ply: int, nodes: int) -> dict[str, Any]:
        """One position's AI job, tried again after a failure; the row's lease is kept alive
        while the job waits for a worker."""
        for attempt in range(1, ATTEMPTS + 1):
            deadline = self._now() + JOB_WAIT
            job = asyncio.ensure_future(self._ai.analyse(subject.request(ply, nodes, deadline)))
            try:
                while True:
                    finished, _ = await asyncio.wait({job}, timeout=BEAT)
                    if finished:
                        return job.result()
                    if self._now() > deadline + BEAT:
                        raise TimeoutError(f"no worker searched position {ply} in time")
                    await self._db.write(lambda s: _beat(s, subject, nodes, self._now()))
            except asyncio.CancelledError:
                job.cancel()
                raise
            except Exception:
                job.cancel()
                if attempt == ATTEMPTS:
                    raise
                log.warning("review of game %s: position %d failed; again", subject.game_id, ply)
                await asyncio.sleep(attempt)
        raise AssertionError("unreachable")

    async def close(self) -> None:
        """Stop this node's reviews (their rows are resumed by a later request)."""
        self._closed = True
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)
