"""Names of animals, sides, terms and endings in English and Chinese, and readable move notation.

The position string and the plain move string (``g3g4``) of docs/rules.md 7a are what programs
exchange; this module is for people: records, move lists and user interfaces. The short
algebraic notation (``Rg4``, ``Lxd7``, ``狮吃d7``) is in :mod:`doushouqi.jungle.san`.

Readable move notation (English): the animal's letter, the from-square, ``-`` for a move or
``x`` for a capture, the to-square, and ``#`` when the move enters the enemy den (and so wins).
A pass (timeout, docs/rules.md 5.3) is ``--``. The Chinese form names the animal in Chinese,
writes a capture with ``×`` followed by ``吃`` and the captured animal, and ends a den entry
with ``入穴``.

>>> from doushouqi.jungle.board import Board
>>> board = Board()
>>> move_to_readable(board, board.parse_move("g1g2"))
'Lg1-g2'
>>> move_to_readable(board, board.parse_move("g1g2"), lang="zh")
'狮 g1-g2'
>>> parse_readable(board, "Lg1-g2")
Move.from_str('g1g2')
>>> animal_name(2, "zh")  # the game's words come from doushouqi.jungle.terms (2: the cat)
'猫'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.squares import ANIMAL_LETTERS, ANIMALS, DOG, WOLF, parse_square, square_name
from doushouqi.jungle.terms import (
    ANIMAL_NAMES_ZH,
    LANGUAGES,
    TERMS,
    IllegalNotationMoveError,
    Lang,
    NotationError,
    Term,
    animal_letter,
    animal_name,
    check_lang,
    color_name,
    outcome_label,
    piece_name,
    term,
    termination_label,
    to_hant,
)

__all__ = [
    "LANGUAGES",
    "TERMS",
    "IllegalNotationMoveError",
    "Lang",
    "NotationError",
    "Term",
    "animal_letter",
    "animal_name",
    "color_name",
    "format_move_list",
    "move_list_lines",
    "move_names",
    "move_to_readable",
    "outcome_label",
    "parse_readable",
    "piece_name",
    "term",
    "termination_label",
]


# --------------------------------------------------------------------------- readable moves

_PASS_TEXT = {"en": "--", "zh": "停棋一步"}
_PASS_INPUTS = frozenset({"--", "0000", "pass", "停棋一步", "停一步", "停棋"})

_ZH_TO_ANIMAL = (
    {zh: animal for animal, zh in ANIMAL_NAMES_ZH.items()}
    | {to_hant(zh): animal for animal, zh in ANIMAL_NAMES_ZH.items()}
    | {"狐": WOLF, "犬": DOG}
)
_LETTER_TO_ANIMAL = {ANIMAL_LETTERS[animal]: animal for animal in ANIMALS} | {"F": WOLF}
_ANIMAL_CHARS = "".join(_ZH_TO_ANIMAL) + "".join(_LETTER_TO_ANIMAL)
_SQUARE = "[a-g][1-9]"
_READABLE = re.compile(
    rf"(?P<animal>[{_ANIMAL_CHARS}])?\s*(?P<frm>{_SQUARE})\s*(?P<sep>[-x×:])?\s*(?P<to>{_SQUARE})"
    rf"(?:\s*(?:吃|x)\s*(?P<captured>[{_ANIMAL_CHARS}]))?\s*(?P<den>#|入穴)?",
    re.IGNORECASE,
)


def _check_playable(board: Board, move: Move) -> None:
    # A pass stands in for the move of a player whose time ran out (docs/rules.md 5.3).
    reason = board.explain_illegal(move, allow_pass=True)
    if reason is not None:
        raise IllegalNotationMoveError(f"illegal move {move}: {reason}")


def move_to_readable(board: Board, move: Move, lang: Lang = "en", *, legal: bool = False) -> str:
    """The move in readable notation; ``board`` is the position before the move.
    IllegalNotationMoveError for a move not playable there, unless ``legal`` says that the
    caller has already checked it (a move it parsed on this board: the check is not repeated).

    >>> board = Board("7/7/7/T2w3/7/7/7/7/7 w")
    >>> move_to_readable(board, Move.from_str("a6d6"))
    'Ta6xd6'
    >>> move_to_readable(board, Move.from_str("a6d6"), "zh")
    '虎 a6×d6 吃 狼'
    >>> move_to_readable(board, Move.null()), move_to_readable(board, Move.null(), "zh")
    ('--', '停棋一步')
    """
    check_lang(lang)
    if lang == "zh-Hant":
        return to_hant(move_to_readable(board, move, "zh", legal=legal))
    english, chinese = move_names(board, move, legal=legal)
    return english if lang == "en" else chinese


def move_names(board: Board, move: Move, *, legal: bool = False) -> tuple[str, str]:
    """The move in readable notation in English and in Chinese (:func:`move_to_readable`'s
    ``"en"`` and ``"zh"``) from one look at the board, which is the position before the move;
    ``legal`` as there.

    >>> move_names(Board("7/7/7/T2w3/7/7/7/7/7 w"), Move.from_str("a6d6"))
    ('Ta6xd6', '虎 a6×d6 吃 狼')
    >>> move_names(Board("7/3L3/7/7/7/7/7/7/r6 w"), Move.from_str("d8d9"))
    ('Ld8-d9#', '狮 d8-d9 入穴')
    """
    if not legal:
        _check_playable(board, move)
    if not move:
        return _PASS_TEXT["en"], _PASS_TEXT["zh"]
    piece = board.piece_at(move.from_square)
    assert piece is not None  # a legal move starts on the mover's animal
    target = board.piece_at(move.to_square)
    frm, to = square_name(move.from_square), square_name(move.to_square)
    den = board.gives_den_entry(move)
    rules = board.rules
    english = f"{animal_letter(piece.animal, rules)}{frm}{'x' if target else '-'}{to}"
    chinese = f"{animal_name(piece.animal, 'zh', rules)} {frm}{'×' if target else '-'}{to}"
    if target:
        chinese += f" 吃 {animal_name(target.animal, 'zh', rules)}"
    if den:
        return english + "#", chinese + " 入穴"
    return english, chinese


def parse_readable(board: Board, text: str) -> Move:
    """The legal move that readable text names (either language, or a plain move string).

    The animal, capture mark, captured animal and den mark are optional; when given, they must
    match the position, so that a record cannot silently mean a different move.

    >>> board = Board()
    >>> [parse_readable(board, text) for text in ("a3a4", "象 a3-a4", "--")]
    [Move.from_str('a3a4'), Move.from_str('a3a4'), Move.from_str('0000')]
    >>> parse_readable(board, "Ta3-a4")
    Traceback (most recent call last):
    ...
    doushouqi.jungle.terms.NotationError: 'Ta3-a4': the animal on a3 is the Red elephant, not a
    tiger
    """
    stripped = text.strip()
    if stripped.lower() in _PASS_INPUTS:
        move = Move.null()
        _check_playable(board, move)
        return move
    match = _READABLE.fullmatch(stripped)
    if match is None:
        raise NotationError(
            f"cannot read move {text!r}: expected e.g. 'Lg1-g2', 'Ta6xd6', '狮 g1-g2', "
            f"'a3a4' or '--' for a pass"
        )
    # The pattern ignores case for the animal letters; squares are always written lower case.
    move = Move(parse_square(match["frm"].lower()), parse_square(match["to"].lower()))
    piece = board.piece_at(move.from_square)

    def named(group: str) -> int | None:
        char = match[group]
        if char is None:
            return None
        return _ZH_TO_ANIMAL.get(char) or _LETTER_TO_ANIMAL[char.upper()]

    def fail(reason: str) -> NotationError:
        return NotationError(f"{stripped!r}: {reason}")

    animal = named("animal")
    if animal is not None and piece is not None and piece.animal != animal:
        raise fail(
            f"the animal on {match['frm']} is the {piece_name(piece, rules=board.rules)}, "
            f"not a {animal_name(animal, rules=board.rules)}"
        )
    if animal is not None and piece is None:
        raise fail(f"there is no animal on {match['frm']}")
    try:
        _check_playable(board, move)
    except IllegalNotationMoveError as exc:
        raise IllegalNotationMoveError(f"{stripped!r}: {exc}") from None
    target = board.piece_at(move.to_square)
    sep = match["sep"]
    if sep is not None and sep != "-" and target is None:
        raise fail(f"marked as a capture, but {match['to']} is empty")
    if sep == "-" and target is not None:
        raise fail(f"{match['to']} holds the {piece_name(target, rules=board.rules)}: write 'x'")
    captured = named("captured")
    if captured is not None and (target is None or target.animal != captured):
        raise fail(f"the move does not capture a {animal_name(captured, rules=board.rules)}")
    if match["den"] and not board.gives_den_entry(move):
        raise fail("marked as entering the den, but it does not")
    return move


def move_list_lines(
    board: Board, moves: Iterable[Move] | None = None, lang: Lang = "en"
) -> list[str]:
    """Numbered lines, one per round (回合), the rule set's first player first in each line.

    With ``moves`` None the board's own history is shown (replayed from its starting
    position); otherwise ``moves`` are played from ``board`` as it stands. ``board`` itself is
    never changed. A round that begins with the second player is written ``N... move``.

    >>> board = Board()
    >>> for text in ["a3a4", "a7a6", "a4a5"]:
    ...     _ = board.push_move(text)
    >>> move_list_lines(board)
    ['1. Ea3-a4 Ra7-a6', '2. Ea4-a5']
    >>> from doushouqi.jungle.rules import RuleSet
    >>> blue_first = Board(rules=RuleSet(first_player=1))
    >>> move_list_lines(blue_first, [Move.from_str("a7a6"), Move.null()], "zh")
    ['1. 鼠 a7-a6  停棋一步']
    """
    if moves is None:
        replay = Board(board.starting_fen, board.rules)
        moves = board.move_stack
    else:
        replay = board.copy()
    # Chinese plies contain a space, so two spaces keep the plies of a round apart.
    gap = " " if lang == "en" else "  "
    lines: list[str] = []
    for move in moves:
        text = move_to_readable(replay, move, lang)
        if replay.turn == replay.rules.first_player:
            lines.append(f"{replay.fullmove_number}. {text}")
        elif not lines:
            lines.append(f"{replay.fullmove_number}... {text}")
        else:
            lines[-1] += gap + text
        replay.push(move)
    return lines


def format_move_list(board: Board, moves: Iterable[Move] | None = None, lang: Lang = "en") -> str:
    """:func:`move_list_lines` joined with newlines.

    >>> board = Board("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1")
    >>> print(format_move_list(board, [Move.from_str("a7a6"), Move.from_str("a3a4")]))
    1... Ra7-a6
    2. Ea3-a4
    """
    return "\n".join(move_list_lines(board, moves, lang))
