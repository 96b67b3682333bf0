"""A small scripted engine for the client tests: a real process that speaks the protocol.

It plays the first legal move (or a random one with ``--seed``), using the rules library, and
has switches to misbehave, so that the client's error handling meets real pipes and processes:

    python tests/jungle/engine/fake_engine.py [--illegal-after N] [--crash-after N] [--hang-after N]
        [--illegal-as red|blue] [--no-handshake] [--no-readyok] [--handshake WORD]
        [--think SECONDS] [--seed S] [--no-rules-option] [--log FILE] [--slow-ready SECONDS]
        [--rule-options] [--no-move-after N]

``--…-after N`` misbehaves on the N-th ``go`` (1 = the first). Every command received is
appended to ``--log`` when given. ``--slow-ready`` delays the first ``readyok`` (an engine
that loads or compiles before it is ready). ``--rule-options`` offers an option per rule field,
as ``doushouqi engine`` does (they are only logged).
"""

from __future__ import annotations

import argparse
import os
import random
import select
import sys
import time

from doushouqi.jungle.board import STARTING_FEN, Board, Move
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.jungle.squares import BLUE, RED


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="FakeEngine 1.0")
    parser.add_argument("--handshake", default="uci")
    parser.add_argument("--no-handshake", action="store_true")
    parser.add_argument("--no-readyok", action="store_true")
    parser.add_argument("--illegal-after", type=int, default=0)
    parser.add_argument("--illegal-as", choices=["red", "blue"])
    parser.add_argument("--crash-after", type=int, default=0)
    parser.add_argument("--hang-after", type=int, default=0)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--no-rules-option", action="store_true")
    parser.add_argument("--log")
    parser.add_argument("--slow-ready", type=float, default=0.0)
    parser.add_argument("--rule-options", action="store_true")
    parser.add_argument("--no-move-after", type=int, default=0)
    return parser.parse_args(argv)


class FakeEngine:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rules = "wango"
        self.board = Board()
        self.gos = 0
        self.random = random.Random(args.seed) if args.seed is not None else None
        self.pending: tuple[float | None, str] | None = None  # (due time, bestmove line)
        self.buffer = b""

    def send(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def log(self, line: str) -> None:
        if self.args.log:
            with open(self.args.log, "a", encoding="utf-8") as file:
                file.write(line + "\n")

    def read_line(self, timeout: float | None) -> str | None:
        """The next command, "" at end of input, None when ``timeout`` passes first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([sys.stdin.fileno()], [], [], left)
            if not ready:
                return None
            chunk = os.read(sys.stdin.fileno(), 4096)
            if not chunk:
                return ""
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode().strip() or " "

    def run(self) -> None:
        while True:
            timeout = None
            if self.pending is not None and self.pending[0] is not None:
                timeout = max(0.0, self.pending[0] - time.monotonic())
            line = self.read_line(timeout)
            if line is None:  # the search is due
                assert self.pending is not None
                self.send(self.pending[1])
                self.pending = None
                continue
            if line == "":
                return
            line = line.strip()
            self.log(line)
            if not self.handle(line):
                return

    def handle(self, line: str) -> bool:
        word, _, rest = line.partition(" ")
        args = self.args
        if word == args.handshake:
            if args.no_handshake:
                return True
            self.send(f"id name {args.name}")
            self.send("id author Test Suite")
            self.send("option name Level type spin default 1 min 0 max 20")
            self.send("option name Hash type spin default 16 min 1 max 1024")
            self.send("option name Ponder type check default false")
            self.send("option name Clear Hash type button")
            self.send("option name Book File type string default <empty>")
            self.send("option name Style type combo default Normal var Solid var Normal var Wild")
            if not args.no_rules_option:
                names = " ".join(f"var {name}" for name in BUILTIN_RULE_SETS)
                self.send(f"option name Rules type combo default wango {names}")
            if args.rule_options:
                for flag in ("own_rat_blocks_jump", "rat_captures_across_water",
                             "trapped_can_capture", "rule_7_3", "rule_17_5"):  # fmt: skip
                    self.send(f"option name {flag} type check default false")
                self.send(
                    "option name repetition type combo default threefold_draw "
                    "var threefold_draw var initiator_must_vary"
                )
                self.send("option name no_capture_draw_rounds type spin default 0 min 0 max 9999")
                self.send("option name ranks type combo default wolf>dog var wolf>dog var dog>wolf")
                self.send("option name first_player type combo default red var red var blue")
            self.send("unknown chatter before the ok")
            self.send(f"{args.handshake}ok")
        elif word == "isready":
            if args.slow_ready:
                time.sleep(args.slow_ready)
                args.slow_ready = 0.0
            if not args.no_readyok:
                self.send("readyok")
        elif word == "setoption":
            tokens = rest.split()
            if tokens[:2] == ["name", "Rules"] and len(tokens) >= 4:
                self.rules = tokens[3]
        elif word == "position":
            self.set_position(rest.split())
        elif word == "go":
            self.go(rest.split())
        elif word == "ponderhit":
            if self.pending is not None:
                self.pending = (time.monotonic() + args.think, self.pending[1])
        elif word == "stop":
            if self.pending is not None:
                self.send(self.pending[1])
                self.pending = None
        elif word == "quit":
            return False
        return True

    def set_position(self, tokens: list[str]) -> None:
        if tokens[0] == "startpos":
            fen, rest = STARTING_FEN, tokens[1:]
        else:
            end = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen, rest = " ".join(tokens[1:end]), tokens[end:]
        self.board = Board(fen, self.rules)
        for text in rest[1:]:
            move = Move.from_str(text)
            if move:
                self.board.push_move(text)
            else:
                self.board.push_pass()

    def go(self, tokens: list[str]) -> None:
        if self.pending is not None:  # a search still running ends first
            self.send(self.pending[1])
            self.pending = None
        self.gos += 1
        args = self.args
        if self.gos == args.crash_after:
            sys.stderr.write("fake engine: deliberate crash\n")
            sys.stderr.flush()
            os._exit(3)
        if self.gos == args.hang_after:
            self.pending = None
            return
        moves = list(self.board.legal_moves)
        if not moves:
            self.send("info string no legal moves")
            self.pending = (time.monotonic(), "bestmove (none)")
            return
        move = self.random.choice(moves) if self.random else moves[0]
        reply = ""
        self.board.push(move)
        replies = list(self.board.legal_moves)
        if replies:
            reply = f" {replies[0]}"
        self.board.pop()
        self.send(
            "info depth 1 seldepth 1 multipv 1 score cp 12 nodes 10 nps 1000 time 3 pv "
            f"{move}{reply}"
        )
        self.send("info string thinking about the rules " + self.rules)
        self.send(
            f"info depth 2 hashfull 7 score den 5 lowerbound wibble nodes 40 pv {move}{reply} zz99"
        )
        colour = "red" if self.board.turn == RED else "blue" if self.board.turn == BLUE else ""
        illegal = self.gos == args.illegal_after or args.illegal_as == colour
        best = _illegal_move(self.board) if illegal else str(move)
        if self.gos == args.no_move_after:
            best = "0000"
        line = f"bestmove {best}" + (f" ponder{reply}" if reply else "")
        if "infinite" in tokens or "ponder" in tokens:
            self.pending = (None, line)
        else:
            self.pending = (time.monotonic() + args.think, line)


def _illegal_move(board: Board) -> str:
    """A well-formed move that is not legal: an empty square's 'animal' stepping."""
    for square in range(63):
        if board.piece_at(square) is None and square + 7 < 63:
            return str(Move(square, square + 7))
    return "a1a2"


if __name__ == "__main__":
    FakeEngine(parse_args(sys.argv[1:])).run()
