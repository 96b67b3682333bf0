"""The options of ``doushouqi play`` (kept apart so that building the parser needs no rich)."""

from __future__ import annotations

import argparse

from doushouqi.jungle.tui.session import MAX_LEVEL, MIN_LEVEL, Mode
from doushouqi.jungle.tui.text import parse_lang

__all__ = ["add_play_arguments"]


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``doushouqi play``."""
    parser.add_argument("--rules", default="wango", help="rule set name or rule file (wango)")
    parser.add_argument(
        "--lang",
        type=_lang_option,
        default=None,
        help="zh or en (default: zh when the locale is Chinese, else en)",
    )
    parser.add_argument(
        "--mode",
        choices=[m.value for m in Mode],
        default=Mode.AI.value,
        help="ai: against the computer (default); hotseat: two players at one screen",
    )
    parser.add_argument(
        "--level",
        type=_level_option,
        default=3,
        help=f"computer strength {MIN_LEVEL}-{MAX_LEVEL} (default 3)",
    )
    parser.add_argument(
        "--side",
        choices=["red", "blue"],
        default="red",
        help="the side you play against the computer (default red)",
    )
    parser.add_argument("--load", metavar="FILE", help="a game record to continue")
    parser.add_argument(
        "--movetime",
        type=float,
        metavar="SECONDS",
        help="the computer's thinking time per move",
    )


def _lang_option(text: str) -> str:
    lang = parse_lang(text)
    if lang is None:
        raise argparse.ArgumentTypeError(f"expected zh or en, got {text!r}")
    return lang


def _level_option(text: str) -> int:
    try:
        level = int(text)
    except ValueError:
        level = 0
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise argparse.ArgumentTypeError(f"expected {MIN_LEVEL} to {MAX_LEVEL}, got {text!r}")
    return level
