"""The words of 老虎棋: the game, its sides, its pieces and its endings, in English, Simplified
and Traditional Chinese (the platform's languages, :data:`doushouqi.core.game.LANGUAGES`).

Each is written out in all three scripts rather than converted: the vocabulary is small, and
a character table would have to know which characters differ (数/數, 无/無, 复/複).

>>> Termination.TIGER_TRAPPED.value, ending_label(Termination.MEN_CAPTURED, "zh-Hant")
('tiger_trapped', '人數不足')
>>> side_name(0, "zh"), piece_name(1, "en")
('虎方', 'men')
>>> GAME_NAMES["en"], GAME_NAMES["zh-Hant"], PASS_WORDS["zh"]
('Tiger chess', '老虎棋', '停棋一步')
"""

from __future__ import annotations

import enum

from doushouqi.core.game import LANGUAGES, Lang

__all__ = [
    "GAME_NAMES",
    "PASS_WORDS",
    "Termination",
    "ending_label",
    "piece_letter",
    "piece_name",
    "side_name",
]

#: The game's name.
GAME_NAMES: dict[Lang, str] = {"en": "Tiger chess", "zh": "老虎棋", "zh-Hant": "老虎棋"}


class Termination(enum.Enum):
    """How a game of 老虎棋 ends on the board (the keys stored as board endings).

    >>> [termination.value for termination in Termination][:3]
    ['tiger_trapped', 'men_captured', 'men_blocked']
    >>> from doushouqi.tiger.board import Board
    >>> Board("3/1T1/9/9/9/9/9/9/9/9/MMM6 m").termination()
    <Termination.MEN_CAPTURED: 'men_captured'>
    """

    #: The tiger side is to move and cannot move (every tiger hemmed in, 困住): the men win.
    TIGER_TRAPPED = "tiger_trapped"
    #: Fewer than ``tiger_wins_below`` men remain: the tiger wins.
    MEN_CAPTURED = "men_captured"
    #: The men's side is to move and cannot move: the tiger wins.
    MEN_BLOCKED = "men_blocked"
    #: The same position with the same side to move for the third time: a draw.
    REPETITION = "repetition"
    #: ``max_rounds`` moves of each side played: a draw.
    MAX_ROUNDS = "max_rounds"


_SIDES: dict[Lang, tuple[str, str]] = {
    "en": ("Tiger", "Men"),
    "zh": ("虎方", "人方"),
    "zh-Hant": ("虎方", "人方"),
}
_PIECES: dict[Lang, tuple[str, str]] = {
    "en": ("tiger", "men"),
    "zh": ("虎", "人"),
    "zh-Hant": ("虎", "人"),
}
#: The piece letters of SAN (docs/tiger.md): T and M in English, 虎 and 人 in Chinese.
_LETTERS: dict[Lang, tuple[str, str]] = {
    "en": ("T", "M"),
    "zh": ("虎", "人"),
    "zh-Hant": ("虎", "人"),
}
#: A timeout pass (停棋一步, docs/rules.md 5.3).
PASS_WORDS: dict[Lang, str] = {"en": "--", "zh": "停棋一步", "zh-Hant": "停棋一步"}

_ENDINGS: dict[Termination, dict[Lang, str]] = {
    Termination.TIGER_TRAPPED: {"en": "tiger trapped", "zh": "老虎被困", "zh-Hant": "老虎被困"},
    Termination.MEN_CAPTURED: {"en": "too few men", "zh": "人数不足", "zh-Hant": "人數不足"},
    Termination.MEN_BLOCKED: {
        "en": "men cannot move",
        "zh": "人方无路可走",
        "zh-Hant": "人方無路可走",
    },
    Termination.REPETITION: {
        "en": "threefold repetition",
        "zh": "三次重复",
        "zh-Hant": "三次重複",
    },
    Termination.MAX_ROUNDS: {"en": "move limit", "zh": "回合数已满", "zh-Hant": "回合數已滿"},
}


def _check(lang: str) -> Lang:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected 'en', 'zh' or 'zh-Hant')")
    return lang


def side_name(seat: int, lang: Lang) -> str:
    """The name of a side: seat 0 is the tiger side, seat 1 the men's; ValueError for any
    other seat or language.

    >>> [side_name(seat, "en") for seat in (0, 1)], side_name(1, "zh-Hant")
    (['Tiger', 'Men'], '人方')
    >>> side_name(2, "en")
    Traceback (most recent call last):
    ...
    ValueError: a seat is 0 or 1, got 2
    """
    if seat not in (0, 1) or isinstance(seat, bool):
        raise ValueError(f"a seat is 0 or 1, got {seat!r}")
    return _SIDES[_check(lang)][seat]


def piece_name(kind: int, lang: Lang) -> str:
    """The name of a kind of piece: 0 the tiger, 1 the men.

    >>> piece_name(0, "en"), piece_name(1, "zh")
    ('tiger', '人')
    """
    return _PIECES[_check(lang)][kind]


def piece_letter(kind: int, lang: Lang) -> str:
    """A piece's letter in SAN: ``T``/``M``, ``虎``/``人``.

    >>> [piece_letter(kind, "en") for kind in (0, 1)], piece_letter(0, "zh")
    (['T', 'M'], '虎')
    """
    return _LETTERS[_check(lang)][kind]


def ending_label(termination: Termination, lang: Lang) -> str:
    """A short label for a board ending; ValueError for a language the platform does not have.

    >>> ending_label(Termination.REPETITION, "en"), ending_label(Termination.REPETITION, "zh-Hant")
    ('threefold repetition', '三次重複')
    >>> ending_label(Termination.MAX_ROUNDS, "fr")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'fr' (expected 'en', 'zh' or 'zh-Hant')
    """
    return _ENDINGS[termination][_check(lang)]
