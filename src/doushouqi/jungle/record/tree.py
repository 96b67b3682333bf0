"""The move tree of a game record: side lines (variations), comments and NAGs.

A :class:`Variation` is one line of play: its moves, the comment after each (``comments[0]``
stands before its first move), the numeric annotation glyphs (NAGs) of each, and the side
lines that replace each of its moves. :class:`~doushouqi.jungle.record.model.GameRecord` keeps its
main line in the same four fields (``moves``, ``comments``, ``nags``, ``variations``), so the whole
tree is plain data that compares, copies and round-trips through the text.

:class:`GameNode` is a view of that data as a tree of positions, as in python-chess: the root
is the start position, each node is reached by one move and has the comment and NAGs of that
move, and its :attr:`~GameNode.variations` are the moves that can follow, the main one first.
Changes made through a node (:meth:`~GameNode.add_variation`, setting a comment or NAGs) go
into the record's data.

>>> from doushouqi.jungle.record.model import GameRecord
>>> from doushouqi.jungle.board import Move
>>> record = GameRecord()
>>> root = record.root()
>>> e4 = root.add_variation(Move.from_str("a3a4"), comment="the usual start")
>>> rat = root.add_variation(Move.from_str("g3g4"), nags={5})
>>> reply = e4.add_variation(Move.from_str("a7a6"))
>>> [str(m) for m in record.moves], record.comments, record.variations[1][0].nags
(['a3a4', 'a7a6'], {1: 'the usual start'}, {1: {5}})
>>> [node.san() for node in root.variations], reply.ply(), rat.starts_variation()
(['Ea4', 'Rg4'], 2, True)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from typing import Protocol

from doushouqi.jungle.analysis import PovScore, Score
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.notation import Lang
from doushouqi.jungle.rules import RuleSet
from doushouqi.jungle.squares import RED


class RecordData(Protocol):
    """What the tree reads of its record (:class:`~doushouqi.jungle.record.model.GameRecord`
    is one; the model builds on this module, so the tree names the fields instead of
    importing it)."""

    moves: list[Move]
    start_fen: str | None
    rules: RuleSet


__all__ = ["GLYPHS", "GameNode", "Variation"]

#: The move-suffix annotations and the NAGs they stand for, as in PGN.
GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


@dataclasses.dataclass
class Variation:
    """One line of play that replaces a move of the line it branches from.

    ``moves[k - 1]`` is the line's k-th move; ``comments[k]`` the comment after it
    (``comments[0]`` stands before the first move); ``nags[k]`` its NAGs (0-255);
    ``variations[k]`` the side lines that replace it, each starting from the position before
    it. Empty NAG sets and side-line lists are dropped when a record is built, so that records
    compare equal however they were made.
    """

    moves: list[Move] = dataclasses.field(default_factory=list)
    comments: dict[int, str] = dataclasses.field(default_factory=dict)
    nags: dict[int, set[int]] = dataclasses.field(default_factory=dict)
    variations: dict[int, list[Variation]] = dataclasses.field(default_factory=dict)

    def normalize(self) -> None:
        """Drop empty NAG sets and side-line lists, here and in every side line."""
        for ply in [p for p, nags in self.nags.items() if not nags]:
            del self.nags[ply]
        for ply in [p for p, lines in self.variations.items() if not lines]:
            del self.variations[ply]
        for lines in self.variations.values():
            for line in lines:
                line.normalize()

    def count_moves(self) -> int:
        """The moves of this line and of every side line in it."""
        inner = sum(v.count_moves() for lines in self.variations.values() for v in lines)
        return len(self.moves) + inner


class GameNode:
    """A position in a record's move tree: the root (the start) or the one after a move.

    Nodes are views: ``line`` is the :class:`Variation` the node lies on and ``index`` how
    many of its moves lead here (0 only for the root). Two nodes are equal when they stand
    for the same place in the same record's data.
    """

    def __init__(
        self, record: RecordData, line: Variation, index: int, parent: GameNode | None
    ) -> None:
        self.record = record
        self.line = line
        self.index = index
        self.parent = parent
        self._ply: int = 0 if parent is None else parent.ply() + 1

    # ---------------------------------------------------------------- the node's own data

    @property
    def move(self) -> Move | None:
        """The move that leads here; None at the root."""
        return self.line.moves[self.index - 1] if self.index else None

    @property
    def comment(self) -> str:
        """The comment after the move (at the root: before the game's first move)."""
        return self.line.comments.get(self.index, "")

    @comment.setter
    def comment(self, text: str) -> None:
        _set_comment(self.line, self.index, text)

    @property
    def starting_comment(self) -> str:
        """The comment before the move, for the first move of a side line ("" elsewhere)."""
        return self.line.comments.get(0, "") if self.starts_variation() else ""

    @starting_comment.setter
    def starting_comment(self, text: str) -> None:
        if not self.starts_variation():
            raise ValueError("only the first move of a side line has a starting comment")
        _set_comment(self.line, 0, text)

    @property
    def nags(self) -> frozenset[int]:
        """The move's NAGs (set them with ``node.nags = {...}``)."""
        return frozenset(self.line.nags.get(self.index, ()))

    @nags.setter
    def nags(self, values: Iterable[int]) -> None:
        if self.index == 0:
            raise ValueError("the root has no move to annotate")
        _set_nags(self.line, self.index, values)

    # ------------------------------------------------- clock and evaluation in the comment

    def clock(self) -> float | None:
        """The mover's remaining time in seconds after this move, from a ``[%clk 0:01:30]``
        command in the comment (as python-chess and lichess write it); None without one."""
        match = _CLOCK.search(self.comment)
        if match is None:
            return None
        hours, minutes, seconds = match["h"], match["m"], match["s"]
        return int(hours) * 3600 + int(minutes) * 60 + float(seconds)

    def set_clock(self, seconds: float | None) -> None:
        """Write (or with None remove) the ``[%clk …]`` command of the comment; the rest of
        the comment is kept."""
        command = None
        if seconds is not None:
            if seconds < 0:
                raise ValueError(f"a clock cannot be negative: {seconds}")
            tenths = round(seconds * 10)
            whole, tenth = divmod(tenths, 10)
            hours, rest = divmod(whole, 3600)
            text = f"{hours}:{rest // 60:02}:{rest % 60:02}" + (f".{tenth}" if tenth else "")
            command = f"[%clk {text}]"
        self.comment = _with_command(self.comment, _CLOCK, command)

    def eval(self) -> PovScore | None:
        """The evaluation in the comment's ``[%eval 0.35]`` (pawns, here hundreds of
        centipawns) or ``[%eval #3]`` (a win in 3), from Red's view (seat 0) as python-chess
        reads it from White's; None without one."""
        match = _EVAL.search(self.comment)
        if match is None:
            return None
        if match["mate"] is not None:
            return PovScore(Score(mate=int(match["mate"])), RED)
        return PovScore(Score(cp=round(float(match["cp"]) * 100)), RED)

    def eval_depth(self) -> int | None:
        """The search depth of the ``[%eval …,depth]`` command, when it names one."""
        match = _EVAL.search(self.comment)
        return int(match["depth"]) if match is not None and match["depth"] else None

    def set_eval(self, score: PovScore | None, depth: int | None = None) -> None:
        """Write (or with None remove) the ``[%eval …]`` command of the comment, from Red's
        view; the rest of the comment is kept."""
        command = None
        if score is not None:
            red = score.pov(RED)
            moves = red.mate()
            text = f"#{moves}" if moves is not None else f"{(red.cp or 0) / 100:.2f}"
            command = f"[%eval {text}{f',{depth}' if depth is not None else ''}]"
        self.comment = _with_command(self.comment, _EVAL, command)

    # ---------------------------------------------------------------- moving in the tree

    @property
    def variations(self) -> list[GameNode]:
        """The nodes one move on: the main continuation first, then the side lines."""
        index = self.index
        children = []
        if index < len(self.line.moves):
            children.append(GameNode(self.record, self.line, index + 1, self))
        for side in self.line.variations.get(index + 1, []) if children else []:
            children.append(GameNode(self.record, side, 1, self))
        return children

    def next(self) -> GameNode | None:
        """The main continuation, or None at the end of a line."""
        if self.index < len(self.line.moves):
            return GameNode(self.record, self.line, self.index + 1, self)
        return None

    def variation(self, move_or_index: Move | int) -> GameNode:
        """The child reached by a move, or the i-th child (0: the main one); KeyError if none."""
        children = self.variations
        if isinstance(move_or_index, int):
            if 0 <= move_or_index < len(children):
                return children[move_or_index]
        else:
            for child in children:
                if child.move == move_or_index:
                    return child
        raise KeyError(f"no variation {move_or_index!r} here")

    def has_variation(self, move: Move) -> bool:
        return any(child.move == move for child in self.variations)

    def is_end(self) -> bool:
        """No move follows."""
        return self.index >= len(self.line.moves)

    def end(self) -> GameNode:
        """The last node of the main continuation from here."""
        node = self
        while (following := node.next()) is not None:
            node = following
        return node

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main continuation after this one."""
        node: GameNode | None = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self) -> list[Move]:
        """The moves of the main continuation after this node."""
        return list(self.line.moves[self.index :])

    def root(self) -> GameNode:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def is_main_line(self) -> bool:
        """On the record's main line (every move on the way is a main continuation)."""
        return self.line.moves is self.record.moves

    def is_main_variation(self) -> bool:
        """The main continuation of its parent (the root counts as one)."""
        return self.index != 1 or self.parent is None or self.parent.line.moves is self.line.moves

    def starts_variation(self) -> bool:
        """The first move of a side line."""
        return not self.is_main_variation()

    def ply(self) -> int:
        """Plies from the record's start position to here."""
        return self._ply

    def board(self) -> Board:
        """The position here, replayed from the start (moves are not checked: see
        :meth:`~doushouqi.jungle.record.model.GameRecord.board`)."""
        path = []
        node: GameNode | None = self
        while node is not None and node.move is not None:
            path.append(node.move)
            node = node.parent
        board = Board(self.record.start_fen, self.record.rules)
        for move in reversed(path):
            board.push(move)
        return board

    def san(self, lang: Lang = "en") -> str:
        """The move in SAN (:mod:`doushouqi.jungle.san`); ValueError at the root."""
        if self.parent is None or self.move is None:
            raise ValueError("the root has no move")
        return self.parent.board().san(self.move, lang)

    # ---------------------------------------------------------------- editing

    def add_variation(
        self, move: Move, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()
    ) -> GameNode:
        """Add a move after this node and return its node: the main continuation at the end
        of a line, else a new side line after the existing ones (not checked for legality)."""
        if self.is_end():
            if starting_comment:
                raise ValueError("a starting comment is for a new side line")
            self.line.moves.append(move)
            child = GameNode(self.record, self.line, self.index + 1, self)
        else:
            side = Variation([move])
            _set_comment(side, 0, starting_comment)
            self.line.variations.setdefault(self.index + 1, []).append(side)
            child = GameNode(self.record, side, 1, self)
        child.comment = comment
        if nags:
            child.nags = nags
        return child

    def add_main_variation(
        self, move: Move, *, comment: str = "", nags: Iterable[int] = ()
    ) -> None:
        """Add a move after this node as its main continuation (the old one becomes the first
        side line), as python-chess's ``add_main_variation``. Nodes taken before are stale."""
        child = self.add_variation(move, comment=comment, nags=nags)
        self.promote_to_main(child)

    def add_line(
        self,
        moves: Iterable[Move],
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> GameNode:
        """Add moves one after another from this node and return the last node (its
        ``comment`` and ``nags``; ``starting_comment`` on the first), as python-chess."""
        node = self
        moves = list(moves)
        if not moves:
            raise ValueError("add_line needs at least one move")
        for k, move in enumerate(moves):
            last = k == len(moves) - 1
            node = node.add_variation(
                move,
                starting_comment=starting_comment if k == 0 and not node.is_end() else "",
                comment=comment if last else "",
                nags=nags if last else (),
            )
        return node

    def promote_to_main(self, child: GameNode) -> None:
        """Make ``child`` the main continuation after this node; the others keep their order.

        The nodes are views of the record's lines, which this rewrites: nodes taken before
        (``child`` too) no longer stand where they did; take them again from this node. The
        starting comment of a side line made main has no place to stay and is dropped."""
        children = self._children_lines()
        position = self._position_of(child)
        self._set_children([children[position], *children[:position], *children[position + 1 :]])

    def promote(self, child: GameNode) -> None:
        """Move ``child`` one place up among the moves after this node (the first side line
        becomes the main continuation); see :meth:`promote_to_main` on stale nodes."""
        children = self._children_lines()
        position = self._position_of(child)
        if position > 0:
            children[position - 1], children[position] = children[position], children[position - 1]
        self._set_children(children)

    def demote(self, child: GameNode) -> None:
        """Move ``child`` one place down among the moves after this node (the main
        continuation becomes the first side line); see :meth:`promote_to_main`."""
        children = self._children_lines()
        position = self._position_of(child)
        if position < len(children) - 1:
            children[position + 1], children[position] = children[position], children[position + 1]
        self._set_children(children)

    def _position_of(self, child: GameNode) -> int:
        for position, node in enumerate(self.variations):
            if node == child:
                return position
        raise ValueError("not a move after this node")

    def _children_lines(self) -> list[Variation]:
        """The lines after this node as Variations, the main continuation cut off its line."""
        line, i = self.line, self.index
        if i >= len(line.moves):
            return []
        tail = Variation(
            moves=line.moves[i:],
            comments={k - i: text for k, text in line.comments.items() if k > i},
            nags={k - i: nags for k, nags in line.nags.items() if k > i},
            variations={k - i: sides for k, sides in line.variations.items() if k > i + 1},
        )
        return [tail, *line.variations.get(i + 1, [])]

    def _set_children(self, children: list[Variation]) -> None:
        """Write the lines after this node back: the first as the main continuation."""
        line, i = self.line, self.index
        del line.moves[i:]
        for table in (line.comments, line.nags, line.variations):
            for k in [k for k in table if k > i]:
                del table[k]
        main, sides = children[0], list(children[1:])
        line.moves.extend(main.moves)
        for k, text in main.comments.items():
            if k:
                line.comments[k + i] = text
        for k, nags in main.nags.items():
            line.nags[k + i] = nags
        for k, lines in main.variations.items():
            if k == 1:
                sides.extend(lines)  # alternatives to its first move: siblings here
            else:
                line.variations[k + i] = lines
        if sides:
            line.variations[i + 1] = sides

    def remove_variation(self, child: GameNode) -> None:
        """Remove a side line after this node (with everything after it); the main
        continuation cannot be removed this way (edit ``line.moves``)."""
        lines = self.line.variations.get(self.index + 1, [])
        for k, side in enumerate(lines):
            if side.moves is child.line.moves and child.index == 1:
                del lines[k]
                if not lines:
                    del self.line.variations[self.index + 1]
                return
        raise ValueError("not a side line after this node")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameNode):
            return NotImplemented
        same_line = self.line.moves is other.line.moves
        return self.record is other.record and same_line and self.index == other.index

    def __hash__(self) -> int:
        return hash((id(self.record), id(self.line.moves), self.index))

    def __repr__(self) -> str:
        where = "root" if self.move is None else f"ply {self._ply} {self.move}"
        return f"<GameNode {where}>"


_CLOCK = re.compile(r"\[%clk\s+(?P<h>\d+):(?P<m>\d{1,2}):(?P<s>\d{1,2}(?:\.\d*)?)\]")
_EVAL = re.compile(
    r"\[%eval\s+(?:#(?P<mate>[+-]?\d+)|(?P<cp>[+-]?(?:\d+(?:\.\d*)?|\.\d+)))"
    r"(?:,(?P<depth>\d+))?\]"
)


def _with_command(comment: str, pattern: re.Pattern[str], command: str | None) -> str:
    """``comment`` with the command ``pattern`` finds replaced by ``command`` (added in front
    when there is none; removed with None), the rest of the text kept."""
    match = pattern.search(comment)
    if match is None:
        return comment if command is None else f"{command} {comment}".strip()
    before, after = comment[: match.start()], comment[match.end() :]
    if command is None:
        return (before.rstrip() + " " + after.lstrip()).strip()
    return before + command + after


def _set_comment(line: Variation, index: int, text: str) -> None:
    if text:
        line.comments[index] = text
    else:
        line.comments.pop(index, None)


def _set_nags(line: Variation, index: int, values: Iterable[int]) -> None:
    nags = set(values)
    if nags:
        line.nags[index] = nags
    else:
        line.nags.pop(index, None)
