"""``doushouqi play``: the game in a terminal, against the computer or two players at one screen.

:func:`run` builds a :class:`~.session.Session` from the command's options; :func:`play_loop`
reads lines (from a terminal, or piped in) and draws what the session answers. On a terminal
the screen is cleared before each new board; when input is piped, each line read is echoed so
that the transcript reads like a session at the keyboard.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.text import Text

from doushouqi.jungle.notation import color_name
from doushouqi.jungle.rules import find_rules
from doushouqi.jungle.squares import BLUE, RED
from doushouqi.jungle.tui.engine import EngineOpponent, EngineUnavailableError
from doushouqi.jungle.tui.render import notes_renderable, session_renderable
from doushouqi.jungle.tui.session import Mode, Opponent, Reply, Session
from doushouqi.jungle.tui.text import default_lang, parse_lang, say

__all__ = ["make_line_reader", "play_loop", "run"]

#: Reads one line after showing a prompt; None at the end of input.
LineReader = Callable[[str], str | None]


def run(args: argparse.Namespace) -> int:
    """Start the game the options describe; the exit status."""
    lang = parse_lang(args.lang) if args.lang else default_lang()
    assert lang is not None
    mode = Mode(args.mode)
    opponent: Opponent | None
    if mode is Mode.AI:
        try:
            opponent = EngineOpponent.load(args.level, args.movetime)
        except EngineUnavailableError:
            opponent = None  # the session says so and starts a hot-seat game
    else:
        # Only ``hint`` would use it: the engine is loaded the first time one is asked for.
        opponent = EngineOpponent(args.level, args.movetime)
    session = Session(
        rules=find_rules(args.rules),
        lang=lang,
        mode=mode,
        human=BLUE if args.side == "blue" else RED,
        level=args.level,
        opponent=opponent,
    )
    if args.load:
        session.load(Path(args.load).expanduser())
    console = Console(highlight=False)
    return play_loop(session, console, make_line_reader(console, sys.stdin))


def make_line_reader(console: Console, stream: TextIO) -> LineReader:
    """Read lines with line editing from a terminal, or plainly (echoed) from a pipe."""
    interactive = stream.isatty()

    def read(prompt: str) -> str | None:
        if interactive:
            try:
                return console.input(Text(prompt, style="bold"))
            except EOFError:
                console.print()
                return None
        console.print(Text(prompt, style="bold"), end="")
        line = stream.readline()
        if not line:
            console.print()
            return None
        console.print(Text(line.rstrip("\r\n")))
        return line

    return read


def play_loop(session: Session, console: Console, read_line: LineReader) -> int:
    """Play until the player quits or the input ends; the exit status (130 on Ctrl-C)."""
    try:
        _show(session, console, session.start())
        while not session.quit_requested:
            if session.engine_to_move():
                _show(session, console, _engine_move(session, console))
                continue
            line = read_line(session.prompt())
            if line is None:
                break
            if session.asks_engine(line) and console.is_terminal:
                with console.status(_busy(session, say("thinking_hint", session.lang))):
                    reply = session.handle(line)
            else:
                reply = session.handle(line)
            _show(session, console, reply)
    except KeyboardInterrupt:
        console.print()
        console.print(say("bye", session.lang))
        return 130
    return 0


def _engine_move(session: Session, console: Console) -> Reply:
    side = color_name(session.board.turn, session.lang)
    if console.is_terminal:
        with console.status(_busy(session, say("thinking", session.lang, side=side))):
            return session.play_engine_move()
    return session.play_engine_move()


def _busy(session: Session, message: str) -> str:
    """What to show while the engine thinks; its first search also compiles it."""
    if isinstance(session.opponent, EngineOpponent) and session.opponent.calls == 0:
        return f"{message} {say('first_search', session.lang)}"
    return message


def _show(session: Session, console: Console, reply: Reply) -> None:
    color = console.color_system is not None
    if reply.redraw:
        if console.is_terminal:
            console.clear()
        console.print(session_renderable(session, width=console.width, color=color))
    if reply.notes:
        console.print(notes_renderable(reply.notes, color=color))
