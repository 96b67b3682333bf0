"""Writing game records (:mod:`doushouqi.jungle.record`): tags, then the movetext wrapped at
80 columns, with move strings or SAN."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from doushouqi.jungle.board import Board, IllegalMoveError, Move
from doushouqi.jungle.notation import Lang
from doushouqi.jungle.record.model import ROSTER, GameRecord, RecordError, move_label
from doushouqi.jungle.record.tree import Variation
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet, rules_from_mapping
from doushouqi.jungle.san import move_to_san

__all__ = ["write_record", "write_records"]

_WIDTH = 80


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _rule_options(rules: RuleSet) -> list[tuple[str, str]]:
    """RuleOption pairs that rebuild ``rules``: none for a named rule set, else parent + diffs."""
    if BUILTIN_RULE_SETS.get(rules.name) == rules:
        return []
    wanted = rules.to_mapping()
    candidates = []
    for order, parent in enumerate(BUILTIN_RULE_SETS):
        # Diff against what the parent alone rebuilds (a child's description starts empty).
        base = rules_from_mapping(rules.name, {"parent": parent}).to_mapping()
        diffs = [(key, v) for key, v in wanted.items() if key != "name" and base[key] != v]
        # Fewest lines first; on a tie keep the rule set's own name as parent, then file order.
        candidates.append((len(diffs), parent != rules.name, order, parent, diffs))
    *_, parent, diffs = min(candidates)
    table = {"parent": parent, **dict(diffs)}
    if rules_from_mapping(rules.name, table) != rules:
        raise ValueError(f"rule set {rules.name!r} cannot be written as rule options")
    return [(key, _option_text(value)) for key, value in table.items()]


@dataclasses.dataclass
class _Writer:
    """Movetext tokens of a line and its side lines; ``board`` only when writing SAN."""

    first: int
    board: Board | None
    lang: Lang

    def tokens(
        self, line: Variation, turn: int, number: int, first_ply: int, label: str
    ) -> list[str]:
        tokens: list[str] = []
        if 0 in line.comments:
            tokens.append(f"{{{line.comments[0]}}}")
        # The second player's move needs "N..." when nothing before it shows the move number.
        needs_number = True
        for k, move in enumerate(line.moves, 1):
            ply = first_ply + k - 1
            text = str(move) if self.board is None else self._san(move, ply, label)
            # A move number is one token with its move, so that a line never ends on a number.
            if turn == self.first:
                tokens.append(f"{number}. {text}")
            elif needs_number:
                tokens.append(f"{number}... {text}")
            else:
                tokens.append(text)
            needs_number = False
            tokens += [f"${nag}" for nag in sorted(line.nags.get(k, ()))]
            if k in line.comments:
                tokens.append(f"{{{line.comments[k]}}}")
                needs_number = True
            for n, side in enumerate(line.variations.get(k, ()), 1):
                inner = self.tokens(side, turn, number, ply, move_label(n, ply, label))
                inner[0] = "(" + inner[0]
                inner[-1] += ")"
                tokens += inner
                needs_number = True
            if self.board is not None:
                self.board.push(move)
            if turn != self.first:
                number += 1
            turn = 1 - turn
        if self.board is not None:
            for _ in line.moves:
                self.board.pop()
        return tokens

    def _san(self, move: Move, ply: int, label: str) -> str:
        assert self.board is not None
        try:
            return move_to_san(self.board, move, self.lang)
        except IllegalMoveError as exc:
            raise RecordError(
                f"{label}, ply {ply}: {exc}" if label else f"ply {ply}: {exc}"
            ) from None


def _movetext(record: GameRecord, san: bool, lang: Lang) -> list[str]:
    start = Board(record.start_fen, record.rules)
    writer = _Writer(record.rules.first_player, start if san else None, lang)
    tokens = writer.tokens(record.main_line(), start.turn, start.fullmove_number, 1, "")
    tokens.append(record.result)
    lines: list[str] = []
    for token in tokens:
        if lines and len(lines[-1]) + 1 + len(token) <= _WIDTH:
            lines[-1] += " " + token
        else:
            lines.append(token)
    return lines


def write_record(record: GameRecord, *, san: bool = False, lang: Lang = "en") -> str:
    """The record as text: tag lines, a blank line, the movetext, a final newline.

    Moves are written as move strings (``a3a4``), or in SAN with ``san=True`` (``Ea4``;
    ``lang="zh"`` for ``象a4``), which replays the moves: RecordError naming the ply when
    one is illegal.

    >>> from doushouqi.jungle.board import Board
    >>> board = Board()
    >>> board.replay(["a3a4", "g7g6"])
    >>> write_record(GameRecord.from_board(board), san=True).split("\\n\\n")[1]
    '1. Ea4 Eg6 *\\n'
    """
    record._check()
    tags: list[tuple[str, str]] = [(n, record.tags[n]) for n in ROSTER if n in record.tags]
    tags.append(("Result", record.result))
    tags.append(("Rules", record.rules.name))
    tags += [("RuleOption", f"{key} {value}") for key, value in _rule_options(record.rules)]
    if record.termination is not None:
        tags.append(("Termination", record.termination.value))
    assert record.start_fen is not None  # set by __post_init__
    if record.start_fen != Board(rules=record.rules).starting_fen:
        tags.append(("FEN", record.start_fen))
    if "TimeControl" in record.tags:
        tags.append(("TimeControl", record.tags["TimeControl"]))
    tags += [(n, v) for n, v in record.tags.items() if n not in ROSTER and n != "TimeControl"]
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    return "\n".join([*lines, "", *_movetext(record, san, lang)]) + "\n"


def write_records(records: Iterable[GameRecord], *, san: bool = False, lang: Lang = "en") -> str:
    """Several records, separated by blank lines (what :func:`read_records` reads back).

    >>> from doushouqi.jungle.record import GameRecord, read_records
    >>> from doushouqi.jungle.board import Move
    >>> records = [GameRecord(moves=[Move.from_str("a3a4")]), GameRecord(result="1/2-1/2")]
    >>> text = write_records(records)
    >>> print(text, end="")
    [Result "*"]
    [Rules "wango"]
    <BLANKLINE>
    1. a3a4 *
    <BLANKLINE>
    [Result "1/2-1/2"]
    [Rules "wango"]
    <BLANKLINE>
    1/2-1/2
    >>> read_records(text) == records
    True
    """
    return "\n".join(write_record(record, san=san, lang=lang) for record in records)
