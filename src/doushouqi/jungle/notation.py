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
>>> animal_name(WOLF, "zh", rules="classic")
'狼'
>>> termination_label(Termination.NO_LEGAL_MOVES, "zh")
'困毙'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal, NamedTuple

from doushouqi.jungle.board import Board, IllegalMoveError, Move, Piece
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.jungle.squares import (
    ANIMAL_LETTERS,
    ANIMALS,
    BLUE,
    CAT,
    DOG,
    ELEPHANT,
    LEOPARD,
    LION,
    RAT,
    RED,
    TIGER,
    WOLF,
    parse_square,
    square_name,
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
    "move_to_readable",
    "outcome_label",
    "parse_readable",
    "piece_name",
    "term",
    "termination_label",
]

Lang = Literal["en", "zh"]
LANGUAGES: tuple[Lang, ...] = ("en", "zh")


class NotationError(ValueError):
    """Readable move text cannot be parsed, or names a move that is not legal here."""


class IllegalNotationMoveError(NotationError, IllegalMoveError):
    """The move (or pass) named is not legal here: both errors, so that callers of the
    notation and of the board catch it alike."""


class Term(NamedTuple):
    """One term of the game in both languages."""

    zh: str
    en: str


_ANIMAL_EN = {
    RAT: "rat",
    CAT: "cat",
    DOG: "dog",
    WOLF: "wolf",
    LEOPARD: "leopard",
    TIGER: "tiger",
    LION: "lion",
    ELEPHANT: "elephant",
}
_ANIMAL_ZH = {
    RAT: "鼠",
    CAT: "猫",
    DOG: "狗",
    WOLF: "狼",
    LEOPARD: "豹",
    TIGER: "虎",
    LION: "狮",
    ELEPHANT: "象",
}
_COLOR_NAMES = {RED: Term("红方", "Red"), BLUE: Term("蓝方", "Blue")}

#: The game's vocabulary (docs/rules.md), keyed by an English identifier.
TERMS: dict[str, Term] = {
    "board": Term("棋盘", "board"),
    "piece": Term("棋子", "piece"),
    "den": Term("兽穴", "den"),
    "trap": Term("陷阱", "trap"),
    "water": Term("小河", "water (river)"),
    "bridge": Term("桥", "bridge"),
    "move": Term("走法", "move"),
    "capture": Term("吃法", "capture"),
    "jump": Term("狮虎跳河", "lion/tiger jump"),
    "rat_takes_elephant": Term("鼠吃象", "rat takes elephant"),
    "same_kind": Term("互吃", "same kind capture each other"),
    "den_entry": Term("入穴", "den entry"),
    "annihilation": Term("被吃光", "all animals captured"),
    "no_legal_moves": Term("困毙", "no legal move"),
    "violation": Term("违例", "move restriction"),
    "rule_7_3": Term("无赖长杀", "rule 7-3 (endless chasing)"),
    "rule_17_5": Term("武松长杀", "rule 17-5 (one animal shuffling)"),
    "repetition": Term("循环反复", "repetition"),
    "round": Term("回合", "round"),
    "first_move": Term("先手", "first move"),
    "resign": Term("认输", "resign"),
    "draw": Term("和棋", "draw"),
    "time_up": Term("走棋时间用完", "time forfeit"),
    "timeout": Term("超时", "timeout"),
    "pass": Term("停棋一步", "pass"),
    "abandon": Term("逃跑", "leaving the game"),
    "disconnect": Term("断线", "disconnect"),
    "scoring": Term("计分", "scoring"),
    "red": _COLOR_NAMES[RED],
    "blue": _COLOR_NAMES[BLUE],
}

_TERMINATIONS: dict[Termination, Term] = {
    Termination.DEN_ENTERED: Term("入穴", "den entered"),
    Termination.ALL_CAPTURED: Term("被吃光", "all animals captured"),
    Termination.NO_LEGAL_MOVES: Term("困毙", "no legal move"),
    Termination.MOVE_RESTRICTIONS: Term("违例", "only restricted moves left"),
    Termination.REPETITION: Term("循环反复", "repetition"),
    Termination.NO_CAPTURE_LIMIT: Term("久不吃子", "no-capture limit"),
    Termination.RESIGNATION: Term("认输", "resignation"),
    Termination.DRAW_AGREED: Term("和棋", "draw by agreement"),
    Termination.TIME_FORFEIT: Term("走棋时间用完", "time forfeit"),
    Termination.TIMEOUTS: Term("三次以上超时", "too many timeouts"),
    Termination.ABANDONMENT: Term("逃跑", "left the game"),
    Termination.ABORTED: Term("对局取消", "aborted"),
}


def _check_lang(lang: str) -> None:
    # Checked at run time too: lang often comes from a user setting, not from typed code.
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected 'en' or 'zh')")


def _pick(entry: Term, lang: str) -> str:
    _check_lang(lang)
    return entry.en if lang == "en" else entry.zh


def _is_fox(rules: RuleSet | str | None) -> bool:
    return rules is not None and find_rules(rules).wolf_name == "fox"


def animal_name(animal: int, lang: Lang = "en", rules: RuleSet | str | None = None) -> str:
    """The animal's name; the wolf is the fox (狐) under a rule set with ``wolf_name = "fox"``.

    >>> animal_name(ELEPHANT), animal_name(ELEPHANT, "zh")
    ('elephant', '象')
    >>> from doushouqi.jungle.rules import RuleSet
    >>> fox = RuleSet(wolf_name="fox")
    >>> animal_name(WOLF, "zh", fox), animal_name(WOLF, rules=fox)
    ('狐', 'fox')
    """
    if animal not in _ANIMAL_EN:
        raise ValueError(f"unknown animal {animal!r} (expected 1..8, rat..elephant)")
    if animal == WOLF and _is_fox(rules):
        return _pick(Term("狐", "fox"), lang)
    return _pick(Term(_ANIMAL_ZH[animal], _ANIMAL_EN[animal]), lang)


def animal_letter(animal: int, rules: RuleSet | str | None = None) -> str:
    """The letter of readable notation: that of the position string, but ``F`` for a fox.

    >>> animal_letter(LEOPARD), animal_letter(WOLF), animal_letter(WOLF, "wango")
    ('P', 'W', 'W')
    """
    if animal not in _ANIMAL_EN:
        raise ValueError(f"unknown animal {animal!r} (expected 1..8, rat..elephant)")
    return "F" if animal == WOLF and _is_fox(rules) else ANIMAL_LETTERS[animal]


def color_name(color: int, lang: Lang = "en") -> str:
    """``Red``/``Blue`` or ``红方``/``蓝方`` (some texts call Blue 黄方, yellow: the same side).

    >>> color_name(BLUE), color_name(RED, "zh")
    ('Blue', '红方')
    """
    if color not in _COLOR_NAMES:
        raise ValueError(f"unknown colour {color!r} (expected 0 for Red or 1 for Blue)")
    return _pick(_COLOR_NAMES[color], lang)


def piece_name(piece: Piece, lang: Lang = "en", rules: RuleSet | str | None = None) -> str:
    """``Red lion`` / ``红狮``: the side (one character in Chinese) and the animal.

    >>> piece_name(Piece.from_symbol("t")), piece_name(Piece.from_symbol("t"), "zh")
    ('Blue tiger', '蓝虎')
    """
    side = color_name(piece.color, lang)
    animal = animal_name(piece.animal, lang, rules)
    # 红方狮 reads oddly; players say 红狮, so drop 方 in a piece name.
    return f"{side[0]}{animal}" if lang == "zh" else f"{side} {animal}"


def term(key: str, lang: Lang = "en") -> str:
    """A term of the game by its key in :data:`TERMS`.

    >>> term("trap", "zh"), term("den_entry")
    ('陷阱', 'den entry')
    """
    if key not in TERMS:
        raise KeyError(f"unknown term {key!r} (known: {', '.join(TERMS)})")
    return _pick(TERMS[key], lang)


def termination_label(termination: Termination, lang: Lang = "en") -> str:
    """A short label for how a game ended.

    >>> termination_label(Termination.DEN_ENTERED), termination_label(Termination.RESIGNATION, "zh")
    ('den entered', '认输')
    """
    return _pick(_TERMINATIONS[termination], lang)


def outcome_label(outcome: Outcome, lang: Lang = "en") -> str:
    """The whole result in words.

    >>> outcome_label(Outcome(Termination.DEN_ENTERED, 1))
    'Blue wins (den entered)'
    >>> outcome_label(Outcome(Termination.REPETITION, None), "zh")
    '和棋（循环反复）'
    """
    how = termination_label(outcome.termination, lang)
    if outcome.termination is Termination.ABORTED:
        return how
    if outcome.winner is None:
        # A draw by agreement is already called 和棋; do not say it twice.
        if outcome.termination is Termination.DRAW_AGREED:
            return how
        return f"和棋（{how}）" if lang == "zh" else f"draw ({how})"
    side = color_name(outcome.winner, lang)
    return f"{side}胜（{how}）" if lang == "zh" else f"{side} wins ({how})"


# --------------------------------------------------------------------------- readable moves

_PASS_TEXT = {"en": "--", "zh": "停棋一步"}
_PASS_INPUTS = frozenset({"--", "0000", "pass", "停棋一步", "停一步", "停棋"})

_ZH_TO_ANIMAL = {zh: animal for animal, zh in _ANIMAL_ZH.items()} | {"狐": WOLF, "犬": DOG}
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


def move_to_readable(board: Board, move: Move, lang: Lang = "en") -> str:
    """The move in readable notation; ``board`` is the position before the move.

    >>> board = Board("7/7/7/T2w3/7/7/7/7/7 w")
    >>> move_to_readable(board, Move.from_str("a6d6"))
    'Ta6xd6'
    >>> move_to_readable(board, Move.from_str("a6d6"), "zh")
    '虎 a6×d6 吃 狼'
    >>> move_to_readable(board, Move.null()), move_to_readable(board, Move.null(), "zh")
    ('--', '停棋一步')
    """
    _check_lang(lang)
    _check_playable(board, move)
    if not move:
        return _PASS_TEXT[lang]
    piece = board.piece_at(move.from_square)
    assert piece is not None  # a legal move starts on the mover's animal
    target = board.piece_at(move.to_square)
    frm, to = square_name(move.from_square), square_name(move.to_square)
    den = board.gives_den_entry(move)
    if lang == "en":
        sep = "x" if target else "-"
        return f"{animal_letter(piece.animal, board.rules)}{frm}{sep}{to}{'#' if den else ''}"
    text = f"{animal_name(piece.animal, 'zh', board.rules)} {frm}{'×' if target else '-'}{to}"
    if target:
        text += f" 吃 {animal_name(target.animal, 'zh', board.rules)}"
    return text + (" 入穴" if den else "")


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
    doushouqi.jungle.notation.NotationError: 'Ta3-a4': the animal on a3 is the Red elephant, not a
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
    gap = "  " if lang == "zh" else " "
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
