"""Chaos mode of the cluster bench: online games played while nodes die and Redis restarts.

    .venv/bin/python bench/cluster_load.py --chaos --games 20 --duration 40 --kills 2 \\
        --redis-restarts 2 --seed 7          # (or bench/cluster_chaos.py with the same options)
    .venv/bin/python bench/cluster_load.py --chaos --json > chaos.json   # figures as JSON

Starts the cluster of ``bench/cluster_harness.py`` (PostgreSQL, Redis, three nodes, nginx; no
AI workers: nobody plays the computer here) and seats ``--games`` online games between
scripted guests: half with each player's socket on a node of its own (Red's node creates and
so first owns the game, Blue's is the next: every move of theirs crosses nodes; a player
whose node is down tries the next ones, as a client with several addresses would), half
through nginx. They play for ``--duration`` seconds while a chaos schedule, drawn from
``--seed`` alone (the same seed, the same schedule), runs: ``kill -9`` of a node (started
again on its port after a few seconds), Redis stopped and started again empty (no
persistence: every lease and presence record is lost), and a cut of some players' sockets
(aborted without a close, the players kept off for a moment, as a network drop would).

The players (``bench/chaos_player.py``) behave as the web client does: each move carries an
``id`` of its own and the ``version`` the player saw; a move without an answer is sent again
with the same id once the player is connected again (``?since=VERSION``) and the server's
catch-up has not shown it played; ``unavailable`` means send it again a little later; a
``rejected`` is counted by its code. Then the run stops deciding moves, waits for the moves
in flight (``--drain``), and reads the games' records from PostgreSQL. Printed (and as JSON
with ``--json``), counted by ``bench/chaos_bookkeeping.py``:

* **moves lost**: acknowledged moves (an ``ack``, the player's own ``move_made``, or a
  snapshot showing it) that the final record does not hold, and moves applied twice — 0 or
  the cluster loses moves;
* the rejections by code (``stale_version`` …) and the errors (``unavailable`` …);
* **games stuck**: games that went more than ``--stuck-after`` seconds without an accepted
  move while a player was trying to move (and, apart, with nobody trying: the player to move
  never learned it was);
* **extra clock charge**: for each move, the time the server took off the mover's clock (its
  remaining time in the event that gave it the turn, minus that in its own ``move_made``, plus
  the increment) minus the time the player thought (from seeing its turn to deciding): time
  lost to outages shows here; the worst and p99;
* the chaos done and when, moves/s, the acknowledgement round trip (last send → answer) and
  the time to settle a move (decided → acknowledged).

Everything started is stopped at the end, on errors and Ctrl-C too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from tests.support.nginx import nginx_path  # noqa: E402
from tests.support.postgres import find_bindir  # noqa: E402
from tests.support.redis_server import redis_server_path  # noqa: E402

from chaos_bookkeeping import (  # noqa: E402
    answer_times,
    audit_moves,
    clock_figures,
    gaps,
    pct,
    rejections,
    stuck,
)
from chaos_player import OVER_STATUS, STARTED_STATUS, Player, PlayLog  # noqa: E402
from chaos_schedule import CUT, KILL, REDIS, ChaosEvent, plan_chaos  # noqa: E402
from cluster_harness import STARTED, Cluster, alive, post, running_cluster  # noqa: E402
from doushouqi.core.clock import TimeControl  # noqa: E402

MAX_GAMES = 500

Say = Callable[..., None]


# ------------------------------------------------------------------------------ the run


class ChaosRun:
    def __init__(self, args: argparse.Namespace, cluster: Cluster, say: Say) -> None:
        self.args = args
        self.cluster = cluster
        self.say = say
        self.log = PlayLog(
            think=args.think,
            answer_timeout=args.answer_timeout,
            seed=args.seed,
            increment=TimeControl.parse(args.time_control).increment,
        )
        self.games: list[str] = []
        self.players: list[Player] = []
        self.done: list[dict[str, Any]] = []
        self.crashes: list[str] = []
        self.started_at = 0.0
        self.http = {
            url: httpx.AsyncClient(base_url=url, timeout=10)
            for url in [cluster.front, *cluster.nodes]
        }

    def ws_base(self, url: str) -> str:
        return "ws://" + urlsplit(url).netloc

    async def seat(self, index: int) -> tuple[Player, Player, str]:
        """Two guests; a pinned pair (even index) on two nodes, the other through nginx."""
        cookies = []
        for _ in range(2):
            response = await post(self.http[self.cluster.front], "/api/auth/guest")
            response.raise_for_status()
            cookies.append(f"dsq_guest={response.cookies['dsq_guest']}")
        nodes = [self.ws_base(url) for url in self.cluster.nodes]
        if index % 2 == 0:  # each on a node of its own; on the next ones while it is down
            home = index // 2 % len(nodes)
            red_ws, blue_ws = nodes[home:] + nodes[:home], nodes[home + 1 :] + nodes[: home + 1]
            red_url = self.cluster.nodes[home]
        else:
            red_ws = blue_ws = [self.ws_base(self.cluster.front)]
            red_url = self.cluster.front
        red = Player(self.log, 2 * index, 0, cookies[0], red_ws)
        blue = Player(self.log, 2 * index + 1, 1, cookies[1], blue_ws)
        self.players += [red, blue]
        return red, blue, red_url

    async def create_game(self, url: str, cookie: str) -> str | None:
        """A new game on ``url`` (tried again until it works or the run stops)."""
        body = {"mode": "online", "color": "red", "public": False}
        while not self.log.stopped and not self.log.draining:
            try:
                response = await self.http[url].post(
                    "/api/games",
                    json={**body, "time_control": self.args.time_control},
                    headers={"Cookie": cookie},
                )
                if response.status_code == 201:
                    game_id: str = response.json()["id"]
                    self.games.append(game_id)
                    return game_id
                self.log.counts[f"games not created (HTTP {response.status_code})"] += 1
            except httpx.HTTPError as exc:
                self.log.counts[f"games not created ({type(exc).__name__})"] += 1
            await asyncio.sleep(1.0)
        return None

    async def pair(self, index: int) -> None:
        red, blue, url = await self.seat(index)
        while not self.log.stopped and not self.log.draining:
            game_id = await self.create_game(url, red.cookie)
            if game_id is None:
                return
            red.begin(game_id)
            blue.begin(game_id)
            await asyncio.gather(red.play(), blue.play())

    async def blow(self, event: ChaosEvent) -> None:
        began = time.perf_counter() - self.started_at
        record: dict[str, Any] = {"at": round(began, 2), "kind": event.kind, "down": event.down}
        if event.kind == KILL:
            record["target"] = event.target
            self.cluster.procs.kill(event.target)
            await asyncio.sleep(event.down)
            self.cluster.restart_node(event.target)
            back = await self.ready(event.target)
            record["serving_after"] = None if back is None else round(back - began, 2)
        elif event.kind == REDIS:
            await asyncio.to_thread(self.cluster.restart_redis, event.down)
            record["serving_after"] = round(time.perf_counter() - self.started_at - began, 2)
        else:
            record["players"] = list(event.players)
            for index in event.players:
                self.players[index].cut(event.down)
        self.done.append(record)
        self.say(f"  t={began:5.1f} s  {event.describe()}", flush=True)

    async def ready(self, name: str) -> float | None:
        """When (seconds into the run) the node answers /readyz again (None: not in time)."""
        url = self.cluster.url_of(name)
        deadline = time.perf_counter() + self.args.setup_timeout
        async with httpx.AsyncClient(timeout=2) as http:
            while time.perf_counter() < deadline:
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(url + "/readyz")).status_code == 200:
                        return time.perf_counter() - self.started_at
                await asyncio.sleep(0.2)
        return None

    async def chaos(self, plan: list[ChaosEvent]) -> None:
        for event in plan:
            await asyncio.sleep(max(0.0, self.started_at + event.at - time.perf_counter()))
            await self.blow(event)

    async def watch(self) -> None:
        """A process that dies by itself is a finding: recorded (a node is started again)."""
        while not self.log.stopped:
            await asyncio.sleep(1.0)
            for name, code in self.cluster.procs.exited():
                at = time.perf_counter() - self.started_at
                self.crashes.append(f"{name} exited by itself ({code}) at t={at:.1f} s")
                self.cluster.procs.kill(name)  # forgotten here
                if name.startswith("node"):
                    self.cluster.restart_node(name)

    async def run(self, plan: list[ChaosEvent]) -> dict[str, Any]:
        args = self.args
        began = time.perf_counter()
        tasks = [asyncio.create_task(self.pair(i)) for i in range(args.games)]
        while len(self.log.started_games) < args.games:
            if time.perf_counter() - began > args.setup_timeout:
                break
            await asyncio.sleep(0.1)
        self.say(
            f"{len(self.log.started_games)} of {args.games} games started in "
            f"{time.perf_counter() - began:.1f} s; play and chaos begin (t=0)"
        )
        self.started_at = time.perf_counter()
        chaos = asyncio.create_task(self.chaos(plan))
        watch = asyncio.create_task(self.watch())
        try:
            await asyncio.sleep(args.duration)
            await chaos  # a late blow still runs to its end: everything is up again after it
            played = time.perf_counter() - self.started_at
            self.log.draining = True
            deadline = time.perf_counter() + args.drain
            while any(p.pending for p in self.players) and time.perf_counter() < deadline:
                await asyncio.sleep(0.1)
            ended = time.perf_counter()
        finally:
            self.log.stopped = True
            chaos.cancel()
            watch.cancel()
            await asyncio.gather(chaos, watch, return_exceptions=True)
            _, late = await asyncio.wait(tasks, timeout=20)
            for task in late:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for client in self.http.values():
                await client.aclose()
        records = await asyncio.to_thread(read_records, self.cluster.database, self.games)
        return self.figures(records, played, ended)

    def figures(
        self, records: dict[str, tuple[int, list[str]]], played: float, ended: float
    ) -> dict[str, Any]:
        audit = audit_moves(self.log.sent, {g: moves for g, (_, moves) in records.items()})
        found = gaps(self.log.timeline, ended)
        trying = stuck(found, self.args.stuck_after)
        silent = stuck(found, self.args.stuck_after, tried=False)
        trips, settles = answer_times(self.log.sent)
        window = self.started_at + played
        in_window = [m for m in self.log.sent if m.acknowledged and (m.answered_at or 0) <= window]
        first = Counter(m.answer for m in self.log.sent if m.acknowledged)

        def when(at: float) -> float:
            return round(at - self.started_at, 2)

        def gap_list(chosen: list[Any]) -> list[dict[str, Any]]:
            return [
                {
                    "game": g.game_id,
                    "seconds": round(g.length, 2),
                    "from": when(g.since),
                    "open_at_end": g.open_at_end,
                }
                for g in chosen
            ]

        def quantiles(values: list[float]) -> dict[str, float | None]:
            got = bool(values)
            return {
                "p50": pct(values, 50) if got else None,
                "p99": pct(values, 99) if got else None,
                "max": max(values) if got else None,
            }

        traces = {
            gap.game_id: [
                f"t={at - self.started_at:6.2f} {'RB'[color]}{pair} {what}"
                for at, color, pair, what in sorted(
                    (at, p.color, p.index // 2, what)
                    for p in self.players
                    for at, game, what in p.trace
                    if game == gap.game_id
                )
            ]
            for gap in (trying + silent)[:3]
        }
        refusals = [
            {
                "code": code,
                "game": game,
                "trace": [f"t={at - self.started_at:6.2f} {what}" for at, _, what in trace],
            }
            for code, game, trace in self.log.refusals
        ]
        statuses = Counter(
            "in progress" if s == STARTED_STATUS else "over" if s >= OVER_STATUS else "not started"
            for s, _ in records.values()
        )
        return {
            "seed": self.args.seed,
            "duration": round(played, 2),
            "chaos": self.done,
            "node_crashes": self.crashes,
            "games": {"created": len(self.games), **statuses},
            "moves": {
                "decided": len(self.log.sent),
                "acknowledged": audit.acknowledged,
                "first_answer": dict(first),
                "per_second": len(in_window) / played if played else 0.0,
                "resent": sum(len(m.sends) > 1 for m in self.log.sent),
                "unanswered_at_end": sum(m.answer is None for m in self.log.sent if m.sends),
            },
            "moves_lost": {
                "total": audit.lost_total,
                "acknowledged_not_in_record": [(m.game_id, m.ply, m.move) for m in audit.lost],
                "applied_twice": [(m.game_id, m.ply, m.move) for m in audit.applied_twice],
                "rejected_yet_in_record": len(audit.rejected_yet_played),
                "acknowledged_and_rejected": len(audit.contradicted),
                "unanswered_yet_in_record": audit.unanswered_played,
                "record_moves_no_id_explains": audit.unexplained,
            },
            "rejected": dict(rejections(self.log.sent).most_common()),
            "errors": dict(self.log.errors.most_common()),
            "stuck_after": self.args.stuck_after,
            "games_stuck": gap_list(trying),
            "games_silent": gap_list(silent),
            "clock": {
                **clock_figures(self.log.samples),
                "unmeasured": audit.acknowledged - len(self.log.samples),
            },
            "ack_round_trip": quantiles(trips),
            "settle_time": quantiles(settles),
            "sockets_closed": dict(self.log.closes.most_common()),
            "stuck_traces": traces,
            "refusal_traces": refusals,
            "other": dict(self.log.counts.most_common()),
        }


def read_records(database: str, game_ids: list[str]) -> dict[str, tuple[int, list[str]]]:
    """Each game's status and moves as PostgreSQL holds them (the stored state's moves)."""
    plain = database.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain) as connection:
        rows = connection.execute(
            "SELECT id, status, state FROM games WHERE id = ANY(%s)", (game_ids,)
        ).fetchall()
    return {row[0]: (row[1], [m[0] for m in json.loads(row[2])["moves"]]) for row in rows}


# ------------------------------------------------------------------------------ the report


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} s"


def millis(figures: dict[str, float | None]) -> str:
    shown = {k: "-" if v is None else f"{v * 1000:.0f}" for k, v in figures.items()}
    return f"p50 {shown['p50']}  p99 {shown['p99']}  max {shown['max']} ms"


def report(figures: dict[str, Any], say: Say) -> None:
    counted = figures["games"]
    moves, lost = figures["moves"], figures["moves_lost"]
    say(f"\nchaos done (seed {figures['seed']}), over {figures['duration']:.1f} s of play:")
    for blow in figures["chaos"]:
        what = {
            KILL: f"kill -9 {blow.get('target')}, down {blow['down']} s",
            REDIS: f"Redis restart, down {blow['down']} s",
            CUT: f"sockets of {len(blow.get('players', []))} players cut for {blow['down']} s",
        }[blow["kind"]]
        back = ""
        if blow["kind"] != CUT:
            after = blow.get("serving_after")
            back = f", serving again after {after} s" if after is not None else ", NOT back"
        say(f"  t={blow['at']:5.1f} s  {what}{back}")
    for crash in figures["node_crashes"]:
        say(f"  {crash}")
    say(
        f"games            {counted['created']} created "
        + ", ".join(f"{k} {v}" for k, v in counted.items() if k != "created")
    )
    say(
        f"moves            {moves['acknowledged']} acknowledged of {moves['decided']} decided, "
        f"{moves['per_second']:.1f}/s; answered first by "
        + ", ".join(f"{k} {v}" for k, v in moves["first_answer"].items())
        + f"; {moves['resent']} sent more than once; {moves['unanswered_at_end']} unanswered "
        "at the end"
    )
    verdict = "met" if lost["total"] == 0 else "NOT met"
    say(
        f"moves lost       {lost['total']} (target 0: {verdict}): acknowledged but not in the "
        f"record {len(lost['acknowledged_not_in_record'])}, applied twice "
        f"{len(lost['applied_twice'])}"
    )
    for game, ply, move in lost["acknowledged_not_in_record"][:10]:
        say(f"                   lost: game {game} move {ply + 1} {move}")
    for game, ply, move in lost["applied_twice"][:10]:
        say(f"                   twice: game {game} move {ply + 1} {move}")
    say(
        f"                 rejected yet in the record {lost['rejected_yet_in_record']}; "
        f"acknowledged and rejected too {lost['acknowledged_and_rejected']}; unanswered yet "
        f"in the record {lost['unanswered_yet_in_record']}; record moves no id explains "
        f"{len(lost['record_moves_no_id_explains'])}"
    )
    stale = figures["rejected"].get("stale_version", 0)
    others = ", ".join(f"{k} {v}" for k, v in figures["rejected"].items() if k != "stale_version")
    say(f"rejected         stale_version {stale}; others: {others or 'none'}")
    errors = ", ".join(f"{k} {v}" for k, v in figures["errors"].items())
    say(f"errors           {errors or 'none'}")
    after = figures["stuck_after"]
    for key, label in (("games_stuck", "a player trying"), ("games_silent", "nobody trying")):
        listed = figures[key]
        say(
            f"{'games stuck' if key == 'games_stuck' else '  silent':16} {len(listed)} went > "
            f"{after:g} s without an accepted move with {label}"
        )
        for gap in listed[:10]:
            end = ", still at the end" if gap["open_at_end"] else ""
            say(f"                   {gap['game']}: {gap['seconds']} s from t={gap['from']} s{end}")
    clock = figures["clock"]
    where = clock["worst_at"]
    at = f" (game {where['game']}, move {where['ply'] + 1})" if where else ""
    say(
        f"clock charge     worst extra {seconds(clock['worst'])}{at}, p99 "
        f"{seconds(clock['p99'])}, p50 {seconds(clock['p50'])} over {clock['moves']} moves "
        f"({clock['unmeasured']} acknowledged moves unmeasured: no own move_made seen)"
    )
    say(f"ack round trip   {millis(figures['ack_round_trip'])} (last send → answer)")
    say(f"settle time      {millis(figures['settle_time'])} (decided → acknowledged)")
    closed = ", ".join(f"{k}: {v}" for k, v in figures["sockets_closed"].items())
    say(f"sockets closed   {closed or 'none'}")
    other = ", ".join(f"{k} {v}" for k, v in figures["other"].items())
    say(f"other            {other or 'none'}")
    for refusal in figures["refusal_traces"]:
        code, game = refusal["code"], refusal["game"]
        say(f"\nthe player's last messages before a {code} in game {game}:")
        for line in refusal["trace"]:
            say(f"  {line}")
    for game, lines in figures["stuck_traces"].items():
        say(f"\nthe players' last messages in game {game} (R: Red, B: Blue, and the pair):")
        for line in lines[-40:]:
            say(f"  {line}")


# ------------------------------------------------------------------------------ main


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM stops everything started here, as Ctrl-C does


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="cluster_load.py --chaos", description=(__doc__ or "").split("\n\n")[0]
    )
    add = parser.add_argument
    add("--games", type=int, default=20, help="online games at once (20)")
    add("--duration", type=float, default=60.0, help="seconds of play under chaos (60)")
    add("--think", type=float, default=1.0, help="mean seconds per move (1, ±50 %%)")
    add("--kills", type=int, default=2, help="nodes killed with -9, one at a time (2)")
    add("--redis-restarts", type=int, default=2, help="Redis stopped and started empty (2)")
    add("--cuts", type=int, default=1, help="cuts of a quarter of the players' sockets (1)")
    add("--seed", type=int, default=1, help="the chaos schedule's seed (1)")
    add("--stuck-after", type=float, default=15.0, help="a game stuck: seconds unmoved (15)")
    add("--time-control", default="10+0", help="the games' clock (10+0: 10 min, no increment)")
    add("--answer-timeout", type=float, default=10.0, help="seconds before a socket is dropped")
    add("--drain", type=float, default=10.0, help="seconds to wait for moves in flight (10)")
    add("--setup-timeout", type=float, default=120.0, help="seconds to start and seat (120)")
    add("--json", action="store_true", help="the figures as JSON on stdout (the rest: stderr)")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--games must be 1-{MAX_GAMES}")
    if not 10 <= args.duration <= 600 or not 0.05 <= args.think <= 10:
        parser.error("--duration must be 10-600 s and --think 0.05-10 s")
    if min(args.kills, args.redis_restarts, args.cuts) < 0:
        parser.error("--kills, --redis-restarts and --cuts cannot be negative")
    try:
        control = TimeControl.parse(args.time_control)
    except ValueError as exc:
        parser.error(f"--time-control: {exc}")
    if control.base <= 0 or control.is_correspondence:
        parser.error("--time-control needs a main clock (the clock charge is read from it)")
    missing = [
        what
        for what, found in (
            ("PostgreSQL", find_bindir()),
            ("redis-server", redis_server_path()),
            ("nginx", nginx_path()),
        )
        if found is None
    ]
    if missing:
        parser.error(f"not installed: {', '.join(missing)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    out = sys.stderr if args.json else sys.stdout

    def say(*parts: Any, **kwargs: Any) -> None:
        print(*parts, file=out, flush=True, **{k: v for k, v in kwargs.items() if k != "flush"})

    signal.signal(signal.SIGTERM, _terminate)
    command = [os.path.relpath(sys.executable), "bench/cluster_load.py", "--chaos"]
    say(f"command: {shlex.join([*command, *(argv if argv is not None else sys.argv[1:])])}")
    say(
        f"started {time.strftime('%Y-%m-%d %H:%M:%S')}; {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.2f}; {args.games} games, think {args.think} s ±50 %, clock "
        f"{args.time_control}, {args.duration:g} s of play, seed {args.seed}",
        flush=True,
    )
    began = time.perf_counter()
    try:
        with (
            tempfile.TemporaryDirectory(prefix="doushouqi-cluster-chaos-") as tmp,
            running_cluster(Path(tmp), args.setup_timeout, engines=0) as cluster,
        ):
            say(
                f"cluster up in {time.perf_counter() - began:.1f} s: nodes "
                + " ".join(f"{n} {u}" for n, u in zip(cluster.names, cluster.nodes, strict=True))
                + f", nginx {cluster.front}, Redis {cluster.redis.url}"
            )
            plan = plan_chaos(
                args.seed,
                args.duration,
                args.kills,
                args.redis_restarts,
                args.cuts,
                cluster.names,
                2 * args.games,
            )
            say("chaos schedule: " + "; ".join(f"t={e.at} s {e.describe()}" for e in plan))
            figures = asyncio.run(ChaosRun(args, cluster, say).run(plan))
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: everything started is stopped by now
        left = {pid: name for pid, name in STARTED.items() if alive(pid)}
        say(
            f"\ninterrupted after {time.perf_counter() - began:.0f} s; processes started: "
            f"{len(STARTED)}, left running: {left or 'none'}"
        )
        return 130
    report(figures, say)
    left = {pid: name for pid, name in STARTED.items() if alive(pid)}
    say(
        f"\ntotal {time.perf_counter() - began:.0f} s; processes started: {len(STARTED)}, left "
        f"running: {left or 'none'}"
    )
    figures["left_running"] = list(left.values())
    if args.json:
        print(json.dumps(figures, indent=1))
    return 0 if not left else 1


if __name__ == "__main__":
    sys.exit(main())
