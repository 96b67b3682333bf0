"""``doushouqi perft`` and ``doushouqi rules``: the rules library's own commands."""

from __future__ import annotations

import argparse
import sys
import time

from doushouqi.cli.extras import Subcommands, non_negative
from doushouqi.jungle.board import STARTING_FEN, Board
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, check_rules_file, find_rules

__all__ = ["add_perft", "add_rules"]


def _position(text: str) -> str:
    return STARTING_FEN if text in ("startpos", "start") else text


def cmd_perft(args: argparse.Namespace) -> int:
    board = Board(_position(args.fen), args.rules)
    started = time.perf_counter()
    if args.divide:
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            count = board.perft(args.depth - 1)
            board.pop()
            total += count
            print(f"{move}: {count}")
        print()
    else:
        total = board.perft(args.depth)
    elapsed = time.perf_counter() - started
    print(total)
    if args.verbose:
        print(f"{elapsed:.3f} s, {total / max(elapsed, 1e-9):,.0f} leaves/s", file=sys.stderr)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    if args.check:
        problems = check_rules_file(args.check)
        for problem in problems:
            print(problem)
        if not problems:
            print(f"{args.check}: ok ({find_rules(args.check).name})")
        return 1 if problems else 0
    if args.name is None:
        for name, rules in BUILTIN_RULE_SETS.items():
            print(f"{name:15} {rules.description}")
        return 0
    rules = find_rules(args.name)
    print(f"# {rules.name}: {rules.description}")
    for key, value in rules.to_mapping().items():
        if key not in ("name", "description"):
            print(f"{key} = {_toml_value(value)}")
    return 0


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return f'"{value}"'


def add_perft(sub: Subcommands) -> None:
    p = sub.add_parser("perft", help="count leaf positions (move generator check)")
    p.add_argument("fen", help="position string, or 'startpos'")
    p.add_argument("depth", type=non_negative, help="plies (0 or more)")
    p.add_argument("--rules", default="wango", help="rule set name or rule file")
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.add_argument("-v", "--verbose", action="store_true", help="print time and speed")
    p.set_defaults(func=cmd_perft)


def add_rules(sub: Subcommands) -> None:
    p = sub.add_parser("rules", help="list rule sets, show one, or check a rule file")
    p.add_argument("name", nargs="?", help="rule set name or rule file to show")
    p.add_argument("--check", metavar="FILE", help="validate a rule file, reporting each bad key")
    p.set_defaults(func=cmd_rules)
