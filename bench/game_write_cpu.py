"""CPU time of a move's write through the game store on SQLite, in-process (issue 32).

A fresh SQLite database (migrated, as the server's), 50 games seated; then seeded random
Jungle moves applied through the domain (``bench/domain_move_cpu.py``'s games) and committed
through :class:`GameStore` as the live actor commits them: one at a time (a quiet server:
each batch holds one write) and four games at a time (a busy one). CPU time
(``time.process_time``: the event loop's work, the driver and SQLite), best of ``--repeat``,
in µs a move. Runs against whatever code ``PYTHONPATH`` names, so two versions can be
measured in turn:

    PYTHONPATH=src .venv/bin/python bench/game_write_cpu.py
    PYTHONPATH=/tmp/before/src .venv/bin/python bench/game_write_cpu.py

``--postgres`` writes to a PostgreSQL started for the run instead (through the writer thread,
as a cluster node does), and prints PostgreSQL's own CPU a move too (its processes' user and
system time over the same writes, wall-clock timed runs: it is not best-of with the rest), the
share of the games' updates that were HOT (no index entry made: ``n_tup_hot_upd`` over
``n_tup_upd``) and the stored games' mean row size at the end.

Each game's moves are applied as the server applies them: a move's game is a copy of the one
whose write came before it, with what that write made and kept (``Game.kept``, the moves'
text) carried along, so a write here does no more than the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cluster_harness
from cluster_harness import tree_cpu
from domain_move_cpu import _moves
from doushouqi.core.clock import TimeControl
from doushouqi.server.db.database import Database
from doushouqi.server.db.gamestore import GameStore, GameWrite
from doushouqi.server.domain import Account, GameSpec, Join, Mode, Move, PlayerSlot, apply, new_game
from doushouqi.server.domain.storage import stored_moves
from doushouqi.server.infra.json_output import dumps, dumps_bytes

GAMES = 50


def _writes(games: int) -> list[list[tuple[Any, Any, list[Any]]]]:
    """Per game: (the game before, after, events) for each of its moves."""
    red, blue = Account(1), Account(2)
    spec = GameSpec(
        Mode.ONLINE,
        (PlayerSlot.account(1, "Li"), PlayerSlot.account(2, "Wang")),
        rules="wango",
        time_control=TimeControl.parse("5+3"),
    )
    out = []
    for seed in range(games):
        game = new_game(spec, game_id=f"bench{seed}", now=0.0)
        for who in (red, blue):
            game, _ = apply(game, Join(actor=who), 0.0)
        # What a write makes once a game is kept with the game and shared by its copies; made
        # before the copies are, as on the server (its game was stored before it moved).
        game.kept("bench", lambda _: None)
        steps = [(None, game, [])]
        for ply, text in enumerate(_moves("wango", seed)):
            actor = red if ply % 2 == 0 else blue
            stored_moves(game, dumps_bytes)  # as the write of this version did: carried on
            after, events = apply(game, Move(actor=actor, move=text, move_id=f"m{ply}"), 1.0 + ply)
            steps.append((game, after, events))
            game = after
        out.append(steps)
    return out


def _write(before: Any, after: Any, events: list[Any]) -> GameWrite:
    dicts = [e.to_dict() for e in events]
    extra = {}
    fields = {f.name for f in dataclasses.fields(GameWrite)}
    if "same_setup" in fields:
        extra["same_setup"] = before.same_setup(after)
    if "same_status" in fields:
        extra["same_status"] = before.status is after.status
    return GameWrite(after, before.version, dicts, texts=[dumps(d) for d in dicts], **extra)


@contextlib.contextmanager
def _database(postgres: str | None) -> Iterator[Database]:
    """A fresh database: SQLite in a temporary folder, or the games' rows of the last run
    removed from ``postgres``."""
    if postgres is not None:
        db = Database(postgres)
        db.migrate()
        db.run_sync(lambda s: s.connection().exec_driver_sql("DELETE FROM games"))
        yield db
        db.close()
        return
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite:///{Path(folder) / 'bench.db'}")
        db.migrate()
        yield db
        db.close()


@dataclasses.dataclass
class Run:
    spent: float  # this process's CPU seconds
    writes: int
    server: float = 0.0  # PostgreSQL's CPU seconds
    updates: int = 0
    hot: int = 0
    row_bytes: float = 0.0


_STATS = "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games'"


def _stats(db: Database) -> tuple[int, int]:
    """The games table's updates and HOT updates so far (the statistics of finished
    transactions; the snapshot is cleared so that each read sees the latest)."""

    def read(session: Any) -> tuple[int, int]:
        connection = session.connection()
        connection.exec_driver_sql("SELECT pg_stat_clear_snapshot()")
        updated, hot = connection.exec_driver_sql(_STATS).one()
        return int(updated), int(hot)

    return db.run_sync(read)


async def _run(
    games: list[list[Any]], together: int, postgres: str | None, server: int | None
) -> Run:
    with _database(postgres) as db:
        store = GameStore(db)
        for steps in games:
            await store.commit(GameWrite(steps[0][1], None))
        plies = max(len(steps) for steps in games)
        writes = 0
        if server is not None:
            await asyncio.sleep(0.6)  # PostgreSQL sends its statistics at most twice a second
            stats = _stats(db)
            server_cpu = tree_cpu([server])
        start = time.process_time()
        for ply in range(1, plies):
            due = [steps[ply] for steps in games if ply < len(steps)]
            for at in range(0, len(due), together):
                group = [_write(*step) for step in due[at : at + together]]
                await asyncio.gather(*(store.commit(w) for w in group))
                writes += len(group)
        run = Run(time.process_time() - start, writes)
        if server is not None:
            run.server = tree_cpu([server]) - server_cpu
            await asyncio.sleep(0.6)
            after = _stats(db)
            run.updates, run.hot = after[0] - stats[0], after[1] - stats[1]
            run.row_bytes = db.run_sync(
                lambda s: (
                    s.connection()
                    .exec_driver_sql("SELECT avg(pg_column_size(games.*)) FROM games")
                    .scalar()
                )
            )
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL, not SQLite")
    args = parser.parse_args()
    from tests.support.postgres import stoppable_postgres  # on the path cluster_harness set

    games = _writes(GAMES)
    with contextlib.ExitStack() as stack:
        url, postmaster = None, None
        if args.postgres:
            server = stack.enter_context(stoppable_postgres())
            url = cluster_harness.create_database(server.url, "writes")
            postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
        for together in (1, 4):
            runs = [asyncio.run(_run(games, together, url, postmaster)) for _ in range(args.repeat)]
            best = min(run.spent for run in runs)
            writes = runs[0].writes
            line = f"  writes of {together} game(s) at a time: {best / writes * 1e6:7.1f} µs a move"
            if postmaster is not None:
                server_cpu = sorted(run.server / run.writes * 1e6 for run in runs)
                hot = sum(run.hot for run in runs) / max(1, sum(run.updates for run in runs))
                line += (
                    f"; PostgreSQL {server_cpu[len(server_cpu) // 2]:6.1f} µs a move (median),"
                    f" HOT updates {hot:.0%}, row {runs[-1].row_bytes:.0f} bytes"
                )
            print(line)


if __name__ == "__main__":
    main()
