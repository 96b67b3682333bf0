"""Conversion of won positions: does the engine win what it has won?

    .venv/bin/python bench/conversion.py --attacker-tc 0.2 --defender-tc 1.0
    .venv/bin/python bench/conversion.py --attacker-src /tmp/old/src --defender-src /tmp/old/src \
        --attacker-tc 0.02 --defender-tc 0.1 --json /tmp/old.json

For each position of the conversion suite (``tests/jungle/ai/data/conversion.epd``, built by
``tools/conversion/build_suite.py``: the side to move is confirmed won), the winning side
(the *attacker*) plays at ``--attacker-tc`` seconds a move and the losing side (the
*defender*) at ``--defender-tc`` (or ``--attacker-nodes`` / ``--defender-nodes`` a move: the
same games on any machine at any load; level 10 searches about 4 M nodes in 1 s on a free
core of the development machine, so 800,000 against 4,000,000 stands for 0.2 s against 1 s),
both as ``doushouqi engine`` processes (level 10) run from
a source tree each (``--attacker-src`` / ``--defender-src``: a ``src`` folder, this tree's by
default), so an old copy of the engine can play a new one. The game is played to its end
under the position's rules (den, no animals, no legal move, the no-capture limit, repetition
as the rule set says); after ``--max-plies`` plies from the position it is adjudicated a draw
(the ply cap).

Prints the share converted (won by the attacker), drawn and lost with 95% Wilson intervals,
how the non-conversions ended (repetition, no-capture limit, ply cap, …), the mean length of
the wins, and with ``--json`` writes each game's result for a side-by-side comparison
(``--compare A.json B.json`` prints both and the games that differ; ``--resume`` plays only
the positions not yet in the ``--json`` file, so a long run can be stopped and taken up
again). ``bench/conversion_failures.py`` says why each failed game failed.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "jungle" / "ai" / "data" / "conversion.epd"


def read_suite(path: Path) -> list[dict]:
    entries = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *fields = line.strip().split(";")
        entry: dict = {"fen": fen}
        for field in fields:
            key, _, value = field.partition("=")
            entry[key] = value
        entries.append(entry)
    return entries


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


_ENGINES: dict[str, object] = {}


def _engine(src: str, role: str, options: dict[str, str]) -> object:
    """The worker's engine process for ``role`` (each side its own: no shared table), with
    the protocol ``options`` set once."""
    from doushouqi.jungle.engine import SimpleEngine

    if role not in _ENGINES:
        env = dict(os.environ)
        env["PYTHONPATH"] = src
        engine = SimpleEngine.popen(
            [sys.executable, "-m", "doushouqi", "engine"], env=env, timeout=30.0
        )
        if options:
            engine.configure(options)
        _ENGINES[role] = engine
    return _ENGINES[role]


def _options(pairs: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` pairs (``--attacker-option Tablebases=false``) as engine options."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"expected NAME=VALUE, got {pair!r}")
        options[name] = value
    return options


# source tree, a move's limit (``Limit``'s keywords: movetime or nodes), engine options
Side = tuple[str, dict[str, float], dict[str, str]]


def play(args: tuple[int, dict, Side, Side, int]) -> dict:
    """One game from suite entry ``entry``: the attacker (side to move) against the defender."""
    from doushouqi.jungle.analysis import Limit
    from doushouqi.jungle.board import Board

    index, entry, (attacker_src, attacker_limit, attacker_options), defender_side, max_plies = args
    defender_src, defender_limit, defender_options = defender_side
    board = Board(entry["fen"], rules=entry["rules"])
    attacker_side = board.turn
    attacker = _engine(attacker_src, "attacker", attacker_options)
    defender = _engine(defender_src, "defender", defender_options)
    for engine in (attacker, defender):
        engine.new_game()  # type: ignore[attr-defined]
    start_ply = board.ply()
    reason = "ply cap"
    winner = None
    last_capture = start_ply
    started = time.monotonic()
    while True:
        outcome = board.outcome()
        if outcome is not None:
            reason = outcome.termination.value
            winner = outcome.winner
            break
        if board.ply() - start_ply >= max_plies:
            break
        mover = attacker if board.turn == attacker_side else defender
        limit = attacker_limit if board.turn == attacker_side else defender_limit
        result = mover.play(board, Limit(**limit))  # type: ignore[attr-defined]
        if result.move is None:
            reason = "no move"
            break
        if board.piece_at(result.move.to_square) is not None:
            last_capture = board.ply() + 1
        board.push(result.move)
    verdict = "draw" if winner is None else "won" if winner == attacker_side else "lost"
    return {
        "index": index,
        "fen": entry["fen"],
        "rules": entry["rules"],
        "result": verdict,
        "reason": reason,
        "plies": board.ply() - start_ply,
        "since_capture": board.ply() - last_capture,
        "seconds": round(time.monotonic() - started, 1),
        "moves": " ".join(m.uci() for m in board.move_stack),
    }


def summarise(results: list[dict], label: str = "") -> list[str]:
    n = len(results)
    lines = []
    for verdict in ("won", "draw", "lost"):
        k = sum(1 for r in results if r["result"] == verdict)
        low, high = wilson(k, n)
        lines.append(
            f"{label}{verdict:>5}: {k:4d}/{n}  {100 * k / max(1, n):5.1f}%  "
            f"(95%: {100 * low:.1f}–{100 * high:.1f}%)"
        )
    reasons: dict[str, int] = {}
    for r in results:
        if r["result"] != "won":
            key = f"{r['result']} by {r['reason']}"
            reasons[key] = reasons.get(key, 0) + 1
    if reasons:
        lines.append(
            f"{label}not converted: "
            + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
        )
    wins = [r["plies"] for r in results if r["result"] == "won"]
    if wins:
        lines.append(
            f"{label}wins: {sum(wins) / len(wins):.1f} plies on average, longest {max(wins)}"
        )
    by_rules: dict[str, list[dict]] = {}
    for r in results:
        by_rules.setdefault(r["rules"], []).append(r)
    lines.append(
        f"{label}by rules: "
        + ", ".join(
            f"{k} {sum(1 for r in v if r['result'] == 'won')}/{len(v)}"
            for k, v in sorted(by_rules.items())
        )
    )
    return lines


def compare(a_path: Path, b_path: Path) -> None:
    a = {r["index"]: r for r in json.loads(a_path.read_text())["results"]}
    b = {r["index"]: r for r in json.loads(b_path.read_text())["results"]}
    common = sorted(set(a) & set(b))
    print(f"A = {a_path}, B = {b_path}, {len(common)} positions in both")
    for line in summarise([a[i] for i in common], "A "):
        print(line)
    for line in summarise([b[i] for i in common], "B "):
        print(line)
    better = [i for i in common if a[i]["result"] != "won" and b[i]["result"] == "won"]
    worse = [i for i in common if a[i]["result"] == "won" and b[i]["result"] != "won"]
    print(
        f"B converts {len(better)} that A did not, and fails {len(worse)} that A converted "
        f"(two-sided sign test on those {len(better) + len(worse)}: "
        f"p = {sign_test(len(better), len(worse)):.3f})"
    )


def sign_test(gained: int, lost: int) -> float:
    """Two-sided exact sign test: how likely a split at least this uneven is when each
    position that differs is equally likely to go either way."""
    n = gained + lost
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(gained, lost) + 1)) / 2**n
    return min(1.0, 2 * tail)


def _limit(seconds: float, nodes: int) -> tuple[dict[str, float], str]:
    """A side's limit a move: ``nodes`` when given (not 0), else ``seconds``; and in words."""
    if nodes:
        return {"nodes": nodes}, f"{nodes} nodes"
    return {"movetime": seconds}, f"{seconds} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--suite", type=Path, default=SUITE)
    parser.add_argument("--attacker-src", default=str(ROOT / "src"))
    parser.add_argument("--defender-src", default=None, help="default: the attacker's")
    parser.add_argument("--attacker-tc", type=float, default=0.2, help="seconds a move")
    parser.add_argument("--defender-tc", type=float, default=1.0, help="seconds a move")
    parser.add_argument(
        "--attacker-nodes", type=int, default=0,
        help="nodes a move instead of --attacker-tc: the same games at any load",
    )  # fmt: skip
    parser.add_argument("--defender-nodes", type=int, default=0, help="likewise")
    parser.add_argument(
        "--attacker-option", action="append", default=[], metavar="NAME=VALUE",
        help="an engine option for the attacker (repeatable), e.g. Tablebases=false",
    )  # fmt: skip
    parser.add_argument(
        "--defender-option", action="append", default=[], metavar="NAME=VALUE",
        help="an engine option for the defender (repeatable)",
    )  # fmt: skip
    parser.add_argument("--max-plies", type=int, default=200, help="ply cap from the position")
    parser.add_argument("--positions", type=int, default=0, help="the first N (0: all)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="write every game's result")
    parser.add_argument(
        "--resume", action="store_true",
        help="keep the games already in --json and play only the others",
    )  # fmt: skip
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A.json", "B.json"))
    args = parser.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return 0

    entries = read_suite(args.suite)
    if args.positions:
        entries = entries[: args.positions]
    defender_src = args.defender_src or args.attacker_src
    attacker_limit, attacker_words = _limit(args.attacker_tc, args.attacker_nodes)
    defender_limit, defender_words = _limit(args.defender_tc, args.defender_nodes)
    attacker: Side = (args.attacker_src, attacker_limit, _options(args.attacker_option))
    defender: Side = (defender_src, defender_limit, _options(args.defender_option))
    results: list[dict] = []
    if args.resume and args.json and args.json.exists():
        results = json.loads(args.json.read_text())["results"]
    done = {r["index"] for r in results}
    jobs = [
        (i, e, attacker, defender, args.max_plies) for i, e in enumerate(entries) if i not in done
    ]
    print(
        f"{len(jobs)} positions to play ({len(done)} played before), "
        f"attacker {args.attacker_src} at {attacker_words}, "
        f"defender {defender_src} at {defender_words}, cap {args.max_plies} plies",
        flush=True,
    )
    started = time.monotonic()
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.workers) as pool:
        for result in pool.imap_unordered(play, jobs):
            results.append(result)
            won = sum(1 for r in results if r["result"] == "won")
            sys.stderr.write(
                f"\r{len(results)}/{len(jobs) + len(done)} games, {won} converted, "
                f"{time.monotonic() - started:.0f} s   "
            )
            sys.stderr.flush()
            if args.json:
                settings = {k: str(v) for k, v in vars(args).items()}
                ordered = sorted(results, key=lambda r: r["index"])
                data = {"args": settings, "results": ordered}
                args.json.write_text(json.dumps(data, indent=0))
    sys.stderr.write("\n")
    results.sort(key=lambda r: r["index"])
    for line in summarise(results):
        print(line)
    print(f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
