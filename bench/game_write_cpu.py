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
as a cluster node does; its CPU is the process's, PostgreSQL's own is not counted).
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
from domain_move_cpu import _moves
from doushouqi.core.clock import TimeControl
from doushouqi.server.db.database import Database
from doushouqi.server.db.gamestore import GameStore, GameWrite
from doushouqi.server.domain import Account, GameSpec, Join, Mode, Move, PlayerSlot, apply, new_game
from doushouqi.server.infra.json_output import dumps

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
        steps = [(None, game, [])]
        for ply, text in enumerate(_moves("wango", seed)):
            actor = red if ply % 2 == 0 else blue
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


async def _run(games: list[list[Any]], together: int, postgres: str | None) -> tuple[float, int]:
    with _database(postgres) as db:
        store = GameStore(db)
        for steps in games:
            await store.commit(GameWrite(steps[0][1], None))
        plies = max(len(steps) for steps in games)
        writes = 0
        start = time.process_time()
        for ply in range(1, plies):
            due = [steps[ply] for steps in games if ply < len(steps)]
            for at in range(0, len(due), together):
                group = [_write(*step) for step in due[at : at + together]]
                await asyncio.gather(*(store.commit(w) for w in group))
                writes += len(group)
        spent = time.process_time() - start
    return spent, writes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL, not SQLite")
    args = parser.parse_args()
    games = _writes(GAMES)
    with contextlib.ExitStack() as stack:
        url = None
        if args.postgres:
            server = stack.enter_context(cluster_harness.postgres_server())
            url = cluster_harness.create_database(server, "writes")
        for together in (1, 4):
            runs = [asyncio.run(_run(games, together, url)) for _ in range(args.repeat)]
            best = min(spent for spent, _ in runs)
            writes = runs[0][1]
            print(f"  writes of {together} game(s) at a time: {best / writes * 1e6:7.1f} µs a move")


if __name__ == "__main__":
    main()
