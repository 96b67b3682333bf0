"""With tables against without: the engine that uses the endgame tables against itself
without them, from the endgame suite (issue 14).

    DOUSHOUQI_TABLEBASES=/work/tablebases nice -n 10 .venv/bin/python bench/tablebase_match.py
    .venv/bin/python bench/tablebase_match.py --positions 10          # a pilot: 20 games

Each position of the suite (``tests/jungle/ai/data/endgames.epd``, 5–6 animals, wango, built by
``tools/conversion/build_endgames.py``) is played twice, the colours swapped, by
``doushouqi match``'s own loop (:class:`doushouqi.jungle.engine.match.Match`, its openings read
from the
suite file): engine A uses the tables, engine B does not, both at ``--tc`` seconds a move,
each a ``doushouqi engine`` process of this tree (``--src``) with the same settings
otherwise. A game ends on the board (den, no animals, no legal move, repetition) or is
adjudicated a draw after ``--max-plies`` plies.

How the tables are switched off (``--switch``):

* ``option``: the engine's UCI option ``Tablebases`` (``false`` for B, ``true`` for A);
* ``inprocess``: both engines are this script's ``--serve tables|none``, the protocol loop
  of ``doushouqi engine`` around an engine whose ``use_tablebase`` is set (for an engine
  that has no such option: before the tables went into the search, they were used at the
  root only);
* ``auto`` (default): ``option`` when the engine offers it, else ``inprocess``.

The tables come from ``--tables DIR`` (or ``DOUSHOUQI_TABLEBASES``) and then those the
package ships (≤ 3 animals); both engines and the coverage count below see the same.

Prints ``doushouqi match``'s summary (+W =D −L for A, the score, the Elo difference with its
95% interval, move times), the results by reason and by the suite's class, and how the games
went once the tables covered them: for each side, the games in which it stood in a covered
won position (and how many it won), and those in which its best covered value was a draw
(and how many it held); ``--json`` writes every game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from doushouqi.jungle.engine.match import EngineSpec, GameResult, Match

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "jungle" / "ai" / "data" / "endgames.epd"
OPTION = "Tablebases"


def serve(mode: str) -> int:
    """``--serve``: the engine protocol on stdin/stdout, the tables on or off in-process."""
    from doushouqi.jungle.ai.protocol import DEFAULT_HASH_MB, EngineProtocol
    from doushouqi.jungle.ai.search_driver import Searcher

    engine = Searcher("wango", hash_mb=DEFAULT_HASH_MB)
    engine.use_tablebase = mode == "tables"
    return EngineProtocol(sys.stdout, engine).run(iter(sys.stdin.readline, ""))


async def _offers_option(command: list[str]) -> bool:
    from doushouqi.jungle.engine import Engine

    engine = Engine(command, handshake="uci", timeout=60.0, ready_timeout=300.0)
    try:
        await engine.start()
        return OPTION in engine.options
    finally:
        await engine.quit()


def engine_specs(switch: str) -> tuple[EngineSpec, EngineSpec, str]:
    """A's and B's :class:`EngineSpec` and the switch used (``option`` or ``inprocess``)."""
    from doushouqi.jungle.engine.match import EngineSpec

    plain = [sys.executable, "-m", "doushouqi", "engine"]
    if switch == "auto":
        switch = "option" if asyncio.run(_offers_option(plain)) else "inprocess"
    if switch == "option":
        with_tables = EngineSpec("with tables", tuple(plain), ((OPTION, "true"),), "uci")
        without = EngineSpec("without tables", tuple(plain), ((OPTION, "false"),), "uci")
    else:
        own = [sys.executable, str(Path(__file__).resolve()), "--serve"]
        with_tables = EngineSpec("with tables", (*own, "tables"), (), "uci")
        without = EngineSpec("without tables", (*own, "none"), (), "uci")
    return with_tables, without, switch


def covered_values(result: GameResult) -> list[tuple[int, int]]:
    """The covered positions of a game (replayed from its opening): for each, the plies
    played before it and its table value for Red (1 win, 0 draw, -1 loss)."""
    from doushouqi.jungle.board import Board
    from doushouqi.jungle.tablebase.probe import probe

    board = Board(result.opening.fen, "wango")
    values = []
    for ply, move in enumerate((None, *result.moves)):
        if move is not None:
            board.push_move(move)
        entry = probe(board)
        if entry is not None:
            values.append((ply, entry.wdl if board.turn == 0 else -entry.wdl))
    return values


def game_rows(match: Match, classes: dict[str, str]) -> list[dict]:
    """One dict a game: A's colour, A's points, reason, plies, the suite class, coverage."""
    rows = []
    a_name = match.names[0]
    for result in match.results:
        a_red = result.red == a_name
        plies = len(result.moves)
        for_a = [(ply, v if a_red else -v) for ply, v in covered_values(result)]
        a_wins = [ply for ply, v in for_a if v == 1]
        b_wins = [ply for ply, v in for_a if v == -1]
        rows.append(
            {
                "game": result.number,
                "fen": result.opening.fen,
                "class": classes.get(result.opening.fen or "", "?"),
                "a_colour": "red" if a_red else "blue",
                "result": result.result,
                "a_points": result.points_for(a_name),
                "reason": result.reason,
                "plies": plies,
                "covered": len(for_a),
                # The best covered value each side ever had (None: never covered), and the
                # plies from its first covered win to the end of the game.
                "a_best": max(v for _, v in for_a) if for_a else None,
                "b_best": max(-v for _, v in for_a) if for_a else None,
                "a_win_plies": plies - a_wins[0] if a_wins else None,
                "b_win_plies": plies - b_wins[0] if b_wins else None,
            }
        )
    return rows


def report(rows: list[dict]) -> list[str]:
    """The lines after the match summary: reasons, suite classes, coverage and conversion."""
    word = {1.0: "A won", 0.5: "drawn", 0.0: "A lost"}
    lines = []
    reasons = Counter(f"{word[r['a_points']]}: {r['reason']}" for r in rows)
    lines.append(
        "By result and reason: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
    )
    by_class: dict[str, list[dict]] = {}
    for row in rows:
        by_class.setdefault(row["class"], []).append(row)
    parts = []
    for name, group in sorted(by_class.items()):
        w = sum(1 for r in group if r["a_points"] == 1.0)
        d = sum(1 for r in group if r["a_points"] == 0.5)
        score = sum(r["a_points"] for r in group) / len(group)
        parts.append(f"{name} +{w} ={d} -{len(group) - w - d} ({100 * score:.1f}%)")
    lines.append("By suite class (the side to move's, by search): " + ", ".join(parts))
    reached = [r for r in rows if r["covered"]]
    lines.append(
        f"Covered by the tables: {len(reached)} of {len(rows)} games reached a covered position "
        f"({sum(r['covered'] for r in rows)} covered positions in all)"
    )
    sides = (("A (with tables)", "a", 1.0), ("B (without)", "b", 0.0))
    for side, prefix, points in sides:
        best = f"{prefix}_best"
        won = [r for r in rows if r[best] == 1]
        converted = sum(1 for r in won if r["a_points"] == points)
        lengths = [r[f"{prefix}_win_plies"] for r in won if r["a_points"] == points]
        drawn_at_best = [r for r in rows if r[best] == 0]
        held = sum(1 for r in drawn_at_best if r["a_points"] != 1.0 - points)
        speed = (
            f", {sum(lengths) / len(lengths):.1f} plies on average from its first covered win"
            if lengths
            else ""
        )
        lines.append(
            f"{side}: a covered win in {len(won)} games, converted {converted} "
            f"({100 * converted / max(1, len(won)):.0f}%{speed}); at best a covered draw in "
            f"{len(drawn_at_best)}, held {held} ({100 * held / max(1, len(drawn_at_best)):.0f}%)"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--serve", choices=("tables", "none"), help=argparse.SUPPRESS)
    parser.add_argument("--suite", type=Path, default=SUITE)
    parser.add_argument("--positions", type=int, default=0, help="the first N (0: all)")
    parser.add_argument("--tc", default="0.1", help="seconds a move, both sides (0.1)")
    parser.add_argument("--max-plies", type=int, default=200, help="a draw after N plies")
    parser.add_argument("--tables", metavar="DIR", help="DOUSHOUQI_TABLEBASES for all")
    parser.add_argument("--switch", choices=("auto", "option", "inprocess"), default="auto")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the engines' sources")
    parser.add_argument("--records", metavar="DIR", help="write each game's record here")
    parser.add_argument("--json", type=Path, help="write every game's row")
    args = parser.parse_args(argv)
    if args.serve:
        return serve(args.serve)

    if args.tables:
        os.environ["DOUSHOUQI_TABLEBASES"] = args.tables
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (args.src, os.environ.get("PYTHONPATH")) if p
    )
    from doushouqi.jungle.engine.match import Match, MatchConfig, MatchTimeControl, read_openings
    from doushouqi.jungle.rules import find_rules

    rules = find_rules("wango")
    openings = read_openings(args.suite, rules)
    if args.positions:
        openings = openings[: args.positions]
    classes = {}
    for line in args.suite.read_text("utf-8").splitlines():
        fen, _, rest = line.partition(";")
        fields = dict(f.split("=", 1) for f in rest.split(";") if "=" in f)
        classes[fen.strip()] = fields.get("class", "?")
    first, second, switch = engine_specs(args.switch)
    config = MatchConfig(
        first=first,
        second=second,
        games=2 * len(openings),
        control=MatchTimeControl.parse(args.tc),
        openings=openings,
        rules=rules,
        records=Path(args.records) if args.records else None,
        max_plies=args.max_plies,
        reply_timeout=60.0,
    )
    tables = os.environ.get("DOUSHOUQI_TABLEBASES") or "(none: the shipped ≤ 3-animal tables)"
    print(
        f"{config.games} games from {len(openings)} positions of {args.suite.name}, "
        f"{config.control} both, draw after {args.max_plies} plies; tables switched by "
        f"{'the Tablebases option' if switch == 'option' else 'Searcher.use_tablebase'}; "
        f"DOUSHOUQI_TABLEBASES={tables}",
        flush=True,
    )
    match = Match(config, out=lambda line: print(line, flush=True))
    started = time.monotonic()
    status = 0
    try:
        asyncio.run(match.run())
    except KeyboardInterrupt:
        status = 130
    rows = game_rows(match, classes)
    for line in match.summary(stopped=status != 0):
        print(line)
    for line in report(rows):
        print(line)
    print(f"{time.monotonic() - started:.0f} s")
    if args.json:
        settings = {k: str(v) for k, v in vars(args).items()}
        data = {"args": settings, "switch": switch, "games": rows}
        args.json.write_text(json.dumps(data, indent=0), encoding="utf-8")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
