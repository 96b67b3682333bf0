"""The game's words in English and Chinese: animals, sides, terms and endings (below the board).

Chinese comes in Simplified (``"zh"``) and Traditional characters (``"zh-Hant"``, as the site
ships it): the Traditional forms are the Simplified ones with each character that differs
replaced (:func:`to_hant`; the game's vocabulary is small and closed, so one table covers it).

The board's own errors and the notation modules above it (:mod:`doushouqi.jungle.notation`,
:mod:`doushouqi.jungle.san`) share these names; keeping them here, beneath the board, is what
lets the board offer ``board.san(move, lang)`` without an import circle.

>>> animal_name(WOLF, "zh", rules="classic")
'狼'
>>> termination_label(Termination.NO_LEGAL_MOVES, "zh")
'困毙'
>>> termination_label(Termination.NO_LEGAL_MOVES, "zh-Hant"), animal_name(LION, "zh-Hant")
('困斃', '獅')
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from doushouqi.jungle.moves import IllegalMoveError
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.pieces import Piece
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.jungle.squares import (
    ANIMAL_LETTERS,
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
    "check_lang",
    "color_name",
    "outcome_label",
    "piece_name",
    "term",
    "termination_label",
    "to_hant",
]

Lang = Literal["en", "zh", "zh-Hant"]
LANGUAGES: tuple[Lang, ...] = ("en", "zh", "zh-Hant")

#: Simplified → Traditional for every character of the game's words that differs (the Taiwan
#: forms the site uses: 吃 stays 吃, 反复 is 反覆). A test checks that no word is left out.
_HANT = str.maketrans(
    {
        "兽": "獸",
        "复": "覆",
        "对": "對",
        "断": "斷",
        "无": "無",
        "时": "時",
        "杀": "殺",
        "桥": "橋",
        "毙": "斃",
        "狮": "獅",
        "猫": "貓",
        "环": "環",
        "盘": "盤",
        "红": "紅",
        "线": "線",
        "胜": "勝",
        "蓝": "藍",
        "计": "計",
        "认": "認",
        "赖": "賴",
        "输": "輸",
        "违": "違",
        "长": "長",
        "间": "間",
        "黄": "黃",
    }
)


def to_hant(text: str) -> str:
    """The game's Simplified Chinese words in Traditional characters.

    >>> to_hant("红狮吃d7"), to_hant("和棋（循环反复）")
    ('紅獅吃d7', '和棋（循環反覆）')
    """
    return text.translate(_HANT)


class NotationError(ValueError):
    """Readable move text cannot be parsed, or names a move that is not legal here."""


class IllegalNotationMoveError(NotationError, IllegalMoveError):
    """The move (or pass) named is not legal here: both errors, so that callers of the
    notation and of the board catch it alike."""


class Term(NamedTuple):
    """One term of the game in both languages."""

    zh: str
    en: str


ANIMAL_NAMES_EN = {
    RAT: "rat",
    CAT: "cat",
    DOG: "dog",
    WOLF: "wolf",
    LEOPARD: "leopard",
    TIGER: "tiger",
    LION: "lion",
    ELEPHANT: "elephant",
}
ANIMAL_NAMES_ZH = {
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


def check_lang(lang: str) -> None:
    # Checked at run time too: lang often comes from a user setting, not from typed code.
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected 'en', 'zh' or 'zh-Hant')")


def _pick(entry: Term, lang: str) -> str:
    check_lang(lang)
    if lang == "en":
        return entry.en
    return entry.zh if lang == "zh" else to_hant(entry.zh)


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
    if animal not in ANIMAL_NAMES_EN:
        raise ValueError(f"unknown animal {animal!r} (expected 1..8, rat..elephant)")
    if animal == WOLF and _is_fox(rules):
        return _pick(Term("狐", "fox"), lang)
    return _pick(Term(ANIMAL_NAMES_ZH[animal], ANIMAL_NAMES_EN[animal]), lang)


def animal_letter(animal: int, rules: RuleSet | str | None = None) -> str:
    """The letter of readable notation: that of the position string, but ``F`` for a fox.

    >>> animal_letter(LEOPARD), animal_letter(WOLF), animal_letter(WOLF, "wango")
    ('P', 'W', 'W')
    """
    if animal not in ANIMAL_NAMES_EN:
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
    return f"{side} {animal}" if lang == "en" else f"{side[0]}{animal}"


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
    if lang == "zh-Hant":
        return to_hant(outcome_label(outcome, "zh"))
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
