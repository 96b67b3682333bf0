"""SQLite's own work for a move's write, without the server: which schema and settings cost less.

A fresh database with the server's schema (migrated as the server migrates it) and the
server's connection settings (WAL, ``synchronous=NORMAL``, foreign keys on), ``--games``
games stored; then ``--plies`` moves of every game, in a shuffled order each round, written
as the server writes a plain move: the game's row updated (its stored text about 1,400 bytes
and growing by 12 a ply), one event row inserted (480 bytes: a ``move_made``), one
transaction per ``--together`` games, through ``sqlite3`` directly. CPU time
(``time.process_time``: SQLite's work, the driver's calls and the system calls), in µs a
move, best of ``--rounds`` (the sides taking turns each round).

Sides (``--sides``, comma-separated):

* ``status``: the update sets the status column, as main's did for every move;
* ``no-status``: it leaves the status out (a move that neither starts nor ends the game);
* ``without-rowid``: ``status``, with the move events table ``WITHOUT ROWID``;
* ``cache-16mb``, ``mmap``, ``checkpoint-4000``: ``no-status`` with SQLite's page cache at
  16 MB, ``mmap_size`` 256 MB, or a WAL checkpoint every 4,000 pages instead of 1,000;
* ``checkpoint-10000``, ``no-checkpoint``: every 10,000 pages, or never (the WAL grows for
  the whole run: what the checkpoints cost, at most);
* ``page-8192``, ``page-16384``: ``no-status`` on a database rebuilt with larger pages.

    PYTHONPATH=src .venv/bin/python bench/sqlite_move_writes.py
    PYTHONPATH=src .venv/bin/python bench/sqlite_move_writes.py --plies 60 --rounds 3 \\
        --sides no-status,cache-16mb,mmap,checkpoint-4000
    PYTHONPATH=src .venv/bin/python bench/sqlite_move_writes.py --plies 40 --rounds 3 \\
        --sides no-status,checkpoint-10000,no-checkpoint,page-8192,page-16384,mmap
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import tempfile
import time
from pathlib import Path

from doushouqi.server.db.database import Database

#: Each side: (whether the update sets the status, the event table WITHOUT ROWID, pragmas).
SIDES: dict[str, tuple[bool, bool, tuple[str, ...]]] = {
    "status": (True, False, ()),
    "no-status": (False, False, ()),
    "without-rowid": (True, True, ()),
    "cache-16mb": (False, False, ("PRAGMA cache_size=-16000",)),
    "mmap": (False, False, ("PRAGMA mmap_size=268435456",)),
    "checkpoint-4000": (False, False, ("PRAGMA wal_autocheckpoint=4000",)),
    "checkpoint-10000": (False, False, ("PRAGMA wal_autocheckpoint=10000",)),
    "no-checkpoint": (False, False, ("PRAGMA wal_autocheckpoint=0",)),
    "page-8192": (False, False, ("PRAGMA page_size=8192",)),
    "page-16384": (False, False, ("PRAGMA page_size=16384",)),
}

_MOVE_COLUMNS = (
    "result=?, termination=?, version=?, created_at=?, started_at=?, finished_at=?, state=?"
)
_UPDATE = "UPDATE games SET {} WHERE games.id = ? AND games.version = ?"
_INSERT = "INSERT INTO game_events (game_id, version, seq, type, payload) VALUES (?, ?, ?, ?, ?)"
_WITHOUT_ROWID = """
CREATE TABLE game_events_new (
    game_id VARCHAR(16) NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL, seq INTEGER NOT NULL, type VARCHAR(32) NOT NULL,
    payload TEXT NOT NULL, PRIMARY KEY (game_id, version, seq)
) WITHOUT ROWID;
DROP TABLE game_events;
ALTER TABLE game_events_new RENAME TO game_events;
"""


def _database(folder: str, without_rowid: bool, page_size: int = 0) -> Path:
    path = Path(folder) / "moves.db"
    db = Database(f"sqlite:///{path}")
    db.migrate()
    db.close()
    if page_size:
        # A page size takes effect only by rebuilding the file, out of WAL mode.
        connection = sqlite3.connect(path, isolation_level=None)
        connection.execute("PRAGMA journal_mode=DELETE")
        connection.execute(f"PRAGMA page_size={page_size}")
        connection.execute("VACUUM")
        connection.close()
    if without_rowid:
        with sqlite3.connect(path) as connection:
            connection.executescript(_WITHOUT_ROWID)
    return path


def _run(side: str, games: int, plies: int, together: int, seed: int) -> float:
    status, without_rowid, pragmas = SIDES[side]
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        sizes = [int(p.rpartition("=")[2]) for p in pragmas if p.startswith("PRAGMA page_size")]
        path = _database(folder, without_rowid, sizes[0] if sizes else 0)
        connection = sqlite3.connect(path, isolation_level=None)
        pragmas = tuple(p for p in pragmas if not p.startswith("PRAGMA page_size"))
        for pragma in ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", *pragmas):
            connection.execute(pragma)
        connection.execute("PRAGMA foreign_keys=ON")
        ids = [f"g{rng.getrandbits(48):012x}" for _ in range(games)]
        connection.execute("BEGIN")
        for i, game_id in enumerate(ids):
            connection.execute(
                "INSERT INTO games (id, mode, status, rules, time_control, rated, public, "
                "open_seats, seat0_key, seat1_key, result, termination, version, created_at, "
                "started_at, finished_at, rematch_id, state, game) "
                "VALUES (?, 'online', 20, 'wango', '5+3', 0, 1, 0, ?, ?, '*', NULL, 0, 0.0, "
                "0.0, NULL, NULL, ?, 'jungle')",
                (game_id, f"account:{2 * i}", f"account:{2 * i + 1}", "x" * 1400),
            )
        connection.execute("COMMIT")
        update = _UPDATE.format(("status=?, " if status else "") + _MOVE_COLUMNS)
        cursor = connection.cursor()
        written = 0
        start = time.process_time()
        for ply in range(1, plies + 1):
            order = ids[:]
            rng.shuffle(order)
            state = "y" * (1400 + 12 * ply)
            for at in range(0, len(order), together):
                group = order[at : at + together]
                rows = [("*", None, ply, 0.0, 0.0, None, state, g, ply - 1) for g in group]
                if status:
                    rows = [(20, *row) for row in rows]
                events = [(g, ply, 0, "move_made", "z" * 480) for g in group]
                cursor.execute("BEGIN")
                if len(group) == 1:
                    cursor.execute(update, rows[0])
                    cursor.execute(_INSERT, events[0])
                else:
                    cursor.executemany(update, rows)
                    cursor.executemany(_INSERT, events)
                cursor.execute("COMMIT")
                written += len(group)
        spent = time.process_time() - start
        connection.close()
    return spent / written * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sides", default="status,no-status,without-rowid")
    args = parser.parse_args()
    sides = args.sides.split(",")
    unknown = set(sides) - SIDES.keys()
    if unknown:
        raise SystemExit(f"unknown sides {sorted(unknown)}: one of {', '.join(SIDES)}")
    print(f"SQLite CPU µs a move ({args.games} games, {args.plies} moves each)")
    for together in (1, 3):
        runs: dict[str, list[float]] = {side: [] for side in sides}
        for seed in range(args.rounds):
            for side in sides:
                runs[side].append(_run(side, args.games, args.plies, together, seed))
        for side in sides:
            shown = ", ".join(f"{r:.1f}" for r in runs[side])
            print(f"  {together} a commit  {side:16} best {min(runs[side]):6.1f}   runs {shown}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
