"""Sum up a CPU profile of the server (``bench/server_load.py --cpu-profile FILE``).

Prints the parts of a move (each sample put in the first part whose pattern is on its stack,
in the order listed), then the functions with the most samples of their own. With
``--cpu-ms`` (the run's server CPU a move), each part in µs a move too.

    .venv/bin/python bench/cpu_profile_report.py /tmp/cpu.after.1 --cpu-ms 0.62
"""

from __future__ import annotations

import argparse
import collections

#: (part, patterns): a sample belongs to the first part one of whose patterns is on its stack.
PARTS: list[tuple[str, tuple[str, ...]]] = [
    ("the game's write (store, statements, SQLite)", ("GameStore.", "store_moves", "Database.")),
    ("the domain's apply: the rules library", ("doushouqi/jungle/", "doushouqi/tiger/")),
    (
        "events to dicts and text, handed to the sockets",
        ("GameActor._commit", "GameActor.broadcast", "Subscriber.deliver", "json_output"),
    ),
    ("the domain's apply: the rest (clock, copies, events)", ("server/domain/",)),
    ("socket writes (pumps, frames, write)", ("_pump", "BatchedWritesProtocol.send", "_flush")),
    ("frames received (parser, uvicorn's queue)", ("data_received", "WebSocket.receive")),
    ("the command parsed (JSON, pydantic)", ("parse_message", "parse_json", "model_validate")),
    ("metrics (prometheus_client)", ("prometheus_client",)),
    ("timers, pings, presence", ("timesource", "handle_ping", "keepalive", "presence")),
    ("the actor and registry (lock, schedule, spectators)", ("GameActor", "ActorRegistry")),
    ("the socket's receive loop (dispatch, replies)", ("live/ws.py",)),
    ("asyncio and the event loop", ("asyncio/", "Runner.run")),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--cpu-ms", type=float, help="the run's server CPU a move (ms)")
    parser.add_argument("--top", type=int, default=25, help="functions listed (25)")
    args = parser.parse_args()
    parts: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    with open(args.file, encoding="utf-8") as lines:
        for line in lines:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            n = int(count)
            total += n
            own[stack.rsplit(";", 1)[-1]] += n
            part = next((p for p, keys in PARTS if any(k in stack for k in keys)), "the rest")
            parts[part] += n
    if not total:
        raise SystemExit("no samples")
    print(f"{total} samples")
    for part in [p for p, _ in PARTS] + ["the rest"]:
        share = parts[part] / total
        us = f"  {share * args.cpu_ms * 1000:5.0f} µs" if args.cpu_ms else ""
        print(f"  {share:6.1%}{us}  {part}")
    print("functions with the most samples of their own:")
    for name, n in own.most_common(args.top):
        print(f"  {n / total:6.1%}  {name}")


if __name__ == "__main__":
    main()
