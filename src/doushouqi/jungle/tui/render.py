"""Drawing the game with ``rich``: the board, the side panel and the notes.

The board is built line by line as :class:`rich.text.Text`, every square 4 columns wide (a
Chinese character is 2), so it lines up in any terminal font:

- wide (a terminal of :data:`WIDE_MIN_WIDTH` columns or more): a ruled grid, the panel beside it;
- compact (a phone-sized terminal, about 40 columns): no rules, one space between squares, the
  panel's lines below the board.

With colour, water has a blue background, traps and dens their own, Red's animals are red and
Blue's blue, and the last move's two squares are highlighted. Without colour (output to a file
or a pipe) the sides are told apart in the text itself: ``红象``/``蓝象`` in Chinese, upper and
lower case letters in English.

>>> from doushouqi.jungle.board import Board
>>> print(board_text(Board(), lang="en", color=False).plain.splitlines()[2])
9 │ l7 │    │trap│den │trap│    │ t6 │ 9
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from doushouqi.jungle.board import Board, Move, Piece
from doushouqi.jungle.notation import (
    Lang,
    animal_letter,
    animal_name,
    color_name,
    move_list_lines,
    move_to_readable,
    outcome_label,
    term,
)
from doushouqi.jungle.squares import ANIMALS, BLUE, DENS, FILE_NAMES, RED, TRAPS_ALL, WATER
from doushouqi.jungle.tui.session import Mode, Note, NoteKind, Session
from doushouqi.jungle.tui.text import colon, say

__all__ = [
    "CELL_WIDTH",
    "WIDE_MIN_WIDTH",
    "board_text",
    "notes_renderable",
    "panel_lines",
    "session_renderable",
]

#: Columns per square.
CELL_WIDTH = 4
#: The narrowest terminal that gets the ruled board with the panel beside it.
WIDE_MIN_WIDTH = 72

_LAND = "#cfe3a8"
_WATER = "#7ab8f5"
_TRAP = "#dcb574"
_DEN = ("#eba3a3", "#a9bcf0")  # Red's den, Blue's den
_LAST_MOVE = "#f5e45a"
_SIDE_STYLE = ("bold #c40000", "bold #0b3fbf")
_PLAIN_SIDE = ("红", "蓝")
_PANEL_MOVES = 12  # move-list lines shown beside a wide board
_COMPACT_MOVES = 3


def _centre(text: str, width: int = CELL_WIDTH) -> str:
    """``text`` padded to ``width`` terminal columns (a Chinese character takes two)."""
    used = Text(text).cell_len
    left = (width - used) // 2
    return " " * left + text + " " * (width - used - left)


def _piece_label(board: Board, piece: Piece, lang: Lang, color: bool) -> str:
    if lang == "zh":
        name = animal_name(piece.animal, "zh", board.rules)
        return f" {name} " if color else _PLAIN_SIDE[piece.color] + name
    letter = animal_letter(piece.animal, board.rules)
    letter = letter if piece.color == RED else letter.lower()
    return f" {letter}{board.rank_of(piece)} "


def _square_cell(
    board: Board, square: int, lang: Lang, color: bool, highlight: bool, compact: bool
) -> Text:
    """One square, exactly :data:`CELL_WIDTH` columns."""
    piece = board.piece_at(square)
    if WATER >> square & 1:
        background, label, ink = _WATER, " ~~ ", "#e4f1ff"
    elif TRAPS_ALL >> square & 1:
        background, label, ink = _TRAP, _centre(term("trap", lang)), "#6b4a17"
    elif square in DENS:
        background, label, ink = _DEN[DENS.index(square)], _centre(term("den", lang)), "#5a2a2a"
    else:
        background, label, ink = _LAND, " .. " if compact and not color else " " * 4, ""
    if piece is not None:
        label, ink = _piece_label(board, piece, lang, color), _SIDE_STYLE[piece.color]
    if not color:
        return Text(label)
    if highlight:
        background = _LAST_MOVE
    return Text(label, style=f"{ink} on {background}".strip())


def _rule(left: str, middle: str, right: str) -> str:
    return "  " + left + middle.join(["─" * CELL_WIDTH] * 7) + right


def board_text(
    board: Board,
    *,
    lang: Lang = "en",
    flipped: bool = False,
    compact: bool = False,
    color: bool = True,
    last_move: Move | None = None,
) -> Text:
    """The board with file letters a–g and rank numbers 1–9 on both sides.

    ``flipped`` puts Blue at the bottom. ``last_move`` (by default the board's last move) is
    highlighted when drawing in colour.
    """
    if last_move is None and board.move_stack:
        last_move = board.peek()
    marked = {last_move.from_square, last_move.to_square} if last_move else set()
    ranks = range(9) if flipped else range(8, -1, -1)
    files = range(6, -1, -1) if flipped else range(7)
    gap = " " if compact else "│"
    indent = "  " if compact else "   "
    header = indent + " ".join(_centre(FILE_NAMES[f]) for f in files)
    lines = [Text(header.rstrip(), style="bold")]
    if not compact:
        lines.append(Text(_rule("┌", "┬", "┐")))
    for index, rank in enumerate(ranks):
        line = Text()
        line.append(f"{rank + 1} ", style="bold")
        line.append("" if compact else "│")
        for column, file in enumerate(files):
            square = rank * 7 + file
            line.append_text(_square_cell(board, square, lang, color, square in marked, compact))
            if column < 6 or not compact:
                line.append(gap)
        line.append(f" {rank + 1}", style="bold")
        lines.append(line)
        if not compact:
            lines.append(Text(_rule("├", "┼", "┤") if index < 8 else _rule("└", "┴", "┘")))
    lines.append(lines[0].copy())
    board_lines = Text("\n").join(lines)
    # Too narrow a terminal crops the board's right edge rather than wrapping it into a mess.
    board_lines.no_wrap = True
    board_lines.overflow = "crop"
    return board_lines


def _side(color_index: int, lang: Lang, color: bool) -> Text:
    return Text(color_name(color_index, lang), style=_SIDE_STYLE[color_index] if color else "")


def _with_side(key: str, lang: Lang, side: int, color: bool) -> Text:
    """Message ``key`` with its ``{side}`` drawn in the side's colour."""
    before, _, after = say(key, lang, side="\0").partition("\0")
    line = Text(before)
    line.append_text(_side(side, lang, color))
    line.append(after)
    return line


def _captured(session: Session, lang: Lang, color: bool) -> Text:
    board = session.board
    # Animals that stood at the game's start and stand no more (a set-up position may lack some).
    start = Board(board.starting_fen, board.rules)
    line = Text(say("captured", lang) + colon(lang))
    for side in (RED, BLUE):
        if side == BLUE:
            line.append("  ")
        line.append_text(_side(side, lang, color))
        line.append(" ")
        lost = [
            animal
            for animal in reversed(ANIMALS)
            if board.square_of(side, animal) is None and start.square_of(side, animal) is not None
        ]
        names = [
            animal_name(a, lang, board.rules) if lang == "zh" else animal_letter(a, board.rules)
            for a in lost
        ]
        line.append(("" if lang == "zh" else " ").join(names) or say("none", lang))
    return line


def _ranks(board: Board, lang: Lang) -> Text:
    """The animals strongest first under the board's rules (wolf and dog differ by rule set)."""
    order = sorted(ANIMALS, key=lambda a: -board.rank_of(Piece(a, RED)))
    if lang == "zh":
        names = ">".join(animal_name(a, "zh", board.rules) for a in order)
    else:
        names = " ".join(
            f"{animal_letter(a, board.rules)}{board.rank_of(Piece(a, RED))}" for a in order
        )
    return Text(say("ranks", lang) + colon(lang) + names)


def panel_lines(session: Session, *, color: bool = True, compact: bool = False) -> list[Text]:
    """What goes beside (or below) the board: game, turn, last move, captures, move list."""
    lang, board = session.lang, session.board
    mode = say("mode_ai" if session.mode is Mode.AI else "mode_hotseat", lang)
    title = f"{say('title', lang)} · {board.rules.name} · {mode}"
    if session.mode is Mode.AI:
        title += f" · {say('level', lang, level=session.level)}"
    lines = [Text(title, style="bold")]
    if session.mode is Mode.AI:
        lines.append(_with_side("you_play", lang, session.human, color))
    outcome = session.outcome()
    if outcome is not None:
        result = say("game_over", lang, result=outcome_label(outcome, lang))
        lines.append(Text(result, style="bold" if color else ""))
    else:
        line = _with_side("to_move", lang, board.turn, color)
        if session.mode is Mode.AI:
            who = say("you" if board.turn == session.human else "computer", lang)
            line.append(f"（{who}）" if lang == "zh" else f" ({who})")
        lines.append(line)
    if board.move_stack:
        before = board.copy()
        last = before.pop()
        readable = move_to_readable(before, last, lang)
        side = color_name(before.turn, lang)
        lines.append(Text(f"{say('last_move', lang)}{colon(lang)}{side} {readable}"))
    lines.append(_captured(session, lang, color))
    if not compact:
        lines.append(_ranks(board, lang))
    moves = move_list_lines(board, lang=lang)
    keep = _COMPACT_MOVES if compact else _PANEL_MOVES
    if not compact:
        lines.append(Text(say("moves_title", lang), style="bold"))
    if not moves:
        lines.append(Text(say("no_moves_yet", lang), style="dim" if color else ""))
    lines.extend(Text(line) for line in moves[-keep:])
    if not color and lang == "en":
        lines.append(Text(say("legend", lang)))
    return lines


def session_renderable(session: Session, *, width: int, color: bool = True) -> RenderableType:
    """The whole screen for a terminal ``width`` columns wide."""
    compact = width < WIDE_MIN_WIDTH
    board = board_text(
        session.board, lang=session.lang, flipped=session.flipped, compact=compact, color=color
    )
    panel = panel_lines(session, color=color, compact=compact)
    if compact:
        return Group(board, *panel)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(board, Group(Text(""), *panel))
    return grid


_NOTE_STYLES = {
    NoteKind.INFO: "cyan",
    NoteKind.ERROR: "bold red",
    NoteKind.MOVE: "bold",
    NoteKind.RESULT: "bold magenta",
    NoteKind.HELP: "",
}


def notes_renderable(notes: list[Note], *, color: bool = True) -> Group:
    return Group(
        *(Text(note.text, style=_NOTE_STYLES[note.kind] if color else "") for note in notes)
    )
