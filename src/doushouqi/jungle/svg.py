"""SVG pictures of a Jungle board (stdlib only), in the spirit of ``chess.svg``.

The 7×9 board shows land, the two lakes (小河), the three bridges (三座桥: the land columns
a, d and g between and beside the lakes), each side's traps (陷阱, 品字形 around the den) and
dens (兽穴). Red's animals are round tokens, Blue's are diamonds, each labelled with the
animal's Chinese name (象狮虎豹狼狗猫鼠; 狐 for the wolf when ``rules.wolf_name`` is ``"fox"``)
and its rank under the board's rule set. Files a–g and ranks 1–9 are written around the edge.

Every element carries a ``class`` (``square land``, ``square water``, ``square bridge``,
``square trap red``, ``square den blue``, ``piece red lion``, ``coord file`` …) and squares and
pieces a ``data-square`` attribute, so that the picture can be styled and tested.

As python-chess's ``chess.svg.board``, it takes ``arrows`` (:class:`Arrow` or ``(tail, head)``
pairs), ``fill`` (a colour per square) and ``squares`` (squares marked with a cross), and
``lastmove`` as well as ``last_move``. ``lang="zh-Hant"`` writes Traditional characters.

>>> from doushouqi.jungle.board import Board
>>> svg = board_svg(Board())
>>> svg.startswith("<svg") and svg.count('class="piece ') == 16
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import TYPE_CHECKING, Protocol

from doushouqi.core.svg_marks import Arrow, arrow_svg, arrows_of, cross_svg, fill_svg
from doushouqi.jungle.squares import (
    BLUE,
    COLOR_NAMES,
    DENS,
    FILE_NAMES,
    NUM_SQUARES,
    RANK_NAMES,
    RED,
    TRAPS,
    WATER,
    WOLF,
    SquareSet,
    square_name,
)

if TYPE_CHECKING:
    from doushouqi.jungle.moves import Move
    from doushouqi.jungle.pieces import Piece
    from doushouqi.jungle.rules import RuleSet

__all__ = ["ANIMAL_LABELS", "Arrow", "Drawable", "board_svg"]


class Drawable(Protocol):
    """What :func:`board_svg` reads of a board: :class:`doushouqi.jungle.board.Board` has it (this
    module does not import the board, whose ``_repr_svg_`` draws with it)."""

    @property
    def rules(self) -> RuleSet: ...
    def fen(self) -> str: ...
    def piece_at(self, square: int) -> Piece | None: ...
    def rank_of(self, piece: Piece) -> int: ...


#: Square size and margin (for the coordinates) in SVG user units.
SQUARE_SIZE = 60
MARGIN = 24
BOARD_WIDTH = 7 * SQUARE_SIZE + 2 * MARGIN
BOARD_HEIGHT = 9 * SQUARE_SIZE + 2 * MARGIN

#: Piece labels by language, indexed by animal (1 = rat … 8 = elephant); index 0 unused.
ANIMAL_LABELS: dict[str, tuple[str, ...]] = {
    "zh": ("", "鼠", "猫", "狗", "狼", "豹", "虎", "狮", "象"),
    "zh-Hant": ("", "鼠", "貓", "狗", "狼", "豹", "虎", "獅", "象"),
    "en": ("", "R", "C", "D", "W", "P", "T", "L", "E"),
}
_FOX_LABEL = {"zh": "狐", "zh-Hant": "狐", "en": "F"}
_TERRAIN_LABELS = {"zh": ("兽穴", "陷阱"), "zh-Hant": ("獸穴", "陷阱"), "en": ("den", "trap")}
_COLOR_LABELS = {"zh": ("红", "蓝"), "zh-Hant": ("紅", "藍"), "en": ("Red", "Blue")}
_ENGLISH_NAMES = ("", "rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant")

_FONT = (
    "'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', "
    "SimHei, 'WenQuanYi Micro Hei', sans-serif"
)

_LAND = "#b9d98f"
_LAND_DARK = "#a9cc7c"
_WATER = "#6fb3e0"
_WAVE = "#e8f4fc"
_BRIDGE = "#d9b77e"
_PLANK = "#a87d3f"
_TRAP = "#c9a36b"
_TRAP_MARK = "#7a5526"
_DEN = ("#f2b8b0", "#b3cdf2")
_DEN_MARK = ("#b3261e", "#1d4f9c")
_PIECE_FILL = ("#c62828", "#1565c0")
_PIECE_EDGE = ("#7f1010", "#0b3a75")
_LAST_MOVE = "#ffe14d"
_GRID = "#4d6b33"

#: The bridge squares: land between and beside the lakes (rows 4-6 of files a, d and g).
_BRIDGES = frozenset(row * 7 + column for row in (3, 4, 5) for column in (0, 3, 6))


def _fmt(value: float) -> str:
    """A coordinate without trailing zeros (``12``, ``12.5``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _origin(square: int, flipped: bool) -> tuple[float, float]:
    """Top-left corner of a square in user units."""
    row, column = divmod(square, 7)
    if flipped:
        row, column = 8 - row, 6 - column
    return MARGIN + column * SQUARE_SIZE, MARGIN + (8 - row) * SQUARE_SIZE


def _square_svg(square: int, flipped: bool, lang: str) -> list[str]:
    """The square's background and its terrain decoration."""
    x, y = _origin(square, flipped)
    s = SQUARE_SIZE
    name = square_name(square)
    bit = 1 << square
    parts: list[str] = []
    extra: list[str] = []
    if WATER & bit:
        kind, fill = "water", _WATER
        for i, dy in enumerate((0.3, 0.55, 0.8)):
            x0 = x + (0.12 if i % 2 else 0.22) * s
            width = 0.6 * s
            yy = y + dy * s
            extra.append(
                f'<path d="M {_fmt(x0)} {_fmt(yy)} q {_fmt(width / 4)} -5 {_fmt(width / 2)} 0 '
                f't {_fmt(width / 2)} 0" fill="none" stroke="{_WAVE}" stroke-width="2" '
                f'stroke-linecap="round" opacity="0.8"/>'
            )
    elif square in DENS:
        color = DENS.index(square)
        kind, fill = f"den {COLOR_NAMES[color]}", _DEN[color]
        extra.append(
            f'<rect x="{_fmt(x + 5)}" y="{_fmt(y + 5)}" width="{s - 10}" height="{s - 10}" '
            f'fill="none" stroke="{_DEN_MARK[color]}" stroke-width="3"/>'
        )
        extra.append(_terrain_text(x, y, _TERRAIN_LABELS[lang][0], _DEN_MARK[color]))
    elif TRAPS[RED] & bit or TRAPS[BLUE] & bit:
        color = RED if TRAPS[RED] & bit else BLUE
        kind, fill = f"trap {COLOR_NAMES[color]}", _TRAP
        for k in (1, 2, 3):  # a lattice of stakes: the pit trap
            offset = k * s / 4
            extra.append(
                f'<line x1="{_fmt(x + offset)}" y1="{_fmt(y + 4)}" x2="{_fmt(x + offset)}" '
                f'y2="{_fmt(y + s - 4)}" stroke="{_TRAP_MARK}" stroke-width="1.5" '
                f'opacity="0.6"/>'
            )
            extra.append(
                f'<line x1="{_fmt(x + 4)}" y1="{_fmt(y + offset)}" x2="{_fmt(x + s - 4)}" '
                f'y2="{_fmt(y + offset)}" stroke="{_TRAP_MARK}" stroke-width="1.5" '
                f'opacity="0.6"/>'
            )
        extra.append(_terrain_text(x, y, _TERRAIN_LABELS[lang][1], _TRAP_MARK))
    elif square in _BRIDGES:
        kind, fill = "bridge", _BRIDGE
        for k in range(1, 6):  # planks across the direction of travel
            yy = y + k * s / 6
            extra.append(
                f'<line x1="{_fmt(x + 3)}" y1="{_fmt(yy)}" x2="{_fmt(x + s - 3)}" '
                f'y2="{_fmt(yy)}" stroke="{_PLANK}" stroke-width="1.5" opacity="0.7"/>'
            )
        for side in (x + 3, x + s - 3):  # the railings
            extra.append(
                f'<line x1="{_fmt(side)}" y1="{_fmt(y)}" x2="{_fmt(side)}" y2="{_fmt(y + s)}" '
                f'stroke="{_PLANK}" stroke-width="3"/>'
            )
    else:
        row, column = divmod(square, 7)
        kind, fill = "land", _LAND if (row + column) % 2 == 0 else _LAND_DARK
    parts.append(
        f'<rect class="square {kind}" data-square="{name}" x="{_fmt(x)}" y="{_fmt(y)}" '
        f'width="{s}" height="{s}" fill="{fill}" stroke="{_GRID}" stroke-width="1"/>'
    )
    parts.extend(extra)
    return parts


def _terrain_text(x: float, y: float, text: str, color: str) -> str:
    """The small den/trap label at the bottom of a square, faint under any piece."""
    return (
        f'<text x="{_fmt(x + SQUARE_SIZE / 2)}" y="{_fmt(y + SQUARE_SIZE - 6)}" '
        f'font-size="11" text-anchor="middle" fill="{color}" opacity="0.85" '
        f'font-family="{_FONT}">{escape(text)}</text>'
    )


def _piece_svg(
    square: int, color: int, animal: int, rank: int, label: str, title: str, flipped: bool
) -> str:
    x, y = _origin(square, flipped)
    cx, cy = x + SQUARE_SIZE / 2, y + SQUARE_SIZE / 2
    radius = SQUARE_SIZE * 0.4
    fill, edge = _PIECE_FILL[color], _PIECE_EDGE[color]
    if color == RED:
        shape = (
            f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(radius)}" fill="{fill}" '
            f'stroke="{edge}" stroke-width="2.5"/>'
        )
    else:
        r = radius * 1.12
        points = " ".join(
            f"{_fmt(px)},{_fmt(py)}"
            for px, py in ((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy))
        )
        shape = (
            f'<polygon points="{points}" fill="{fill}" stroke="{edge}" '
            f'stroke-width="2.5" stroke-linejoin="round"/>'
        )
    name = _ENGLISH_NAMES[animal]
    return (
        f'<g class="piece {COLOR_NAMES[color]} {name}" data-square="{square_name(square)}" '
        f'data-rank="{rank}"><title>{escape(title)}</title>{shape}'
        f'<text class="label" x="{_fmt(cx)}" y="{_fmt(cy + 7)}" font-size="21" '
        f'font-weight="bold" text-anchor="middle" fill="#ffffff" '
        f'font-family="{_FONT}">{escape(label)}</text>'
        f'<text class="rank" x="{_fmt(cx + radius * 0.62)}" y="{_fmt(cy + radius * 0.95)}" '
        f'font-size="11" font-weight="bold" text-anchor="middle" fill="#ffffff" '
        f'font-family="{_FONT}">{rank}</text></g>'
    )


def _coordinates_svg(flipped: bool) -> list[str]:
    parts: list[str] = []
    files = FILE_NAMES[::-1] if flipped else FILE_NAMES
    ranks = RANK_NAMES if flipped else RANK_NAMES[::-1]  # top to bottom
    style = f'font-size="14" text-anchor="middle" fill="#333333" font-family="{_FONT}"'
    for i, name in enumerate(files):
        x = MARGIN + (i + 0.5) * SQUARE_SIZE
        for y in (MARGIN * 0.7, BOARD_HEIGHT - MARGIN * 0.3):
            parts.append(
                f'<text class="coord file" x="{_fmt(x)}" y="{_fmt(y)}" {style}>{name}</text>'
            )
    for i, name in enumerate(ranks):
        y = MARGIN + (i + 0.5) * SQUARE_SIZE + 5
        for x in (MARGIN / 2, BOARD_WIDTH - MARGIN / 2):
            parts.append(
                f'<text class="coord rank" x="{_fmt(x)}" y="{_fmt(y)}" {style}>{name}</text>'
            )
    return parts


def board_svg(
    board: Drawable,
    *,
    size: int | None = None,
    flipped: bool = False,
    last_move: Move | None = None,
    lang: str = "zh",
    lastmove: Move | None = None,
    arrows: Iterable[Arrow | tuple[int, int]] = (),
    fill: Mapping[int, str] | None = None,
    squares: SquareSet | Iterable[int] | int | None = None,
) -> str:
    """The board as an SVG document (a string).

    ``size`` is the width in pixels (the height follows the 7:9 board); None leaves the natural
    size of 468×588. ``flipped`` puts Blue at the bottom. ``last_move`` (or python-chess's
    ``lastmove``) highlights its from- and to-square (a pass highlights nothing). ``lang`` is
    ``"zh"`` (``"zh-Hant"``) for Chinese animal names and terrain labels in Simplified
    (Traditional) characters or ``"en"`` for letters and English labels. ``arrows``, ``fill``
    and ``squares`` as python-chess's: arrows over the pieces, a colour under a square, a
    cross on each square of a set.

    >>> from doushouqi.jungle.board import Board
    >>> svg = board_svg(Board(), arrows=[Arrow(16, 23, "red"), (0, 0)], fill={0: "#f00"})
    >>> svg.count('class="arrow'), svg.count('class="fill"')
    (2, 1)
    >>> "獅" in board_svg(Board(), lang="zh-Hant")
    True
    """
    if last_move is not None and lastmove is not None:
        raise TypeError("board_svg() got both last_move and lastmove (the same highlight)")
    last_move = last_move if last_move is not None else lastmove
    if lang not in ANIMAL_LABELS:
        raise ValueError(f"unknown language {lang!r} (expected one of: {', '.join(ANIMAL_LABELS)})")
    if size is not None and size <= 0:
        raise ValueError(f"size must be a positive number of pixels, got {size!r}")
    labels = list(ANIMAL_LABELS[lang])
    fox = board.rules.wolf_name == "fox"
    if fox:
        labels[WOLF] = _FOX_LABEL[lang]
    width, height = BOARD_WIDTH, BOARD_HEIGHT
    if size is not None:
        width, height = size, round(size * BOARD_HEIGHT / BOARD_WIDTH)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" '
        f'height="{height}" viewBox="0 0 {BOARD_WIDTH} {BOARD_HEIGHT}" '
        f'class="doushouqi-board{" flipped" if flipped else ""}">',
        f"<desc>{escape(board.fen())} ({escape(board.rules.name)})</desc>",
        f'<rect class="background" x="0" y="0" width="{BOARD_WIDTH}" height="{BOARD_HEIGHT}" '
        f'fill="#f3ecd8"/>',
    ]
    for square in range(NUM_SQUARES):
        parts.extend(_square_svg(square, flipped, lang))
    parts.append(
        f'<rect class="border" x="{MARGIN}" y="{MARGIN}" width="{7 * SQUARE_SIZE}" '
        f'height="{9 * SQUARE_SIZE}" fill="none" stroke="#2f4420" stroke-width="2.5"/>'
    )
    if last_move:
        for square in (last_move.from_square, last_move.to_square):
            x, y = _origin(square, flipped)
            parts.append(
                f'<rect class="last-move" data-square="{square_name(square)}" x="{_fmt(x)}" '
                f'y="{_fmt(y)}" width="{SQUARE_SIZE}" height="{SQUARE_SIZE}" '
                f'fill="{_LAST_MOVE}" fill-opacity="0.45" stroke="#d4a900" stroke-width="2"/>'
            )
    parts.extend(fill_svg(fill or {}, lambda sq: _origin(sq, flipped), SQUARE_SIZE, square_name))
    parts.extend(_coordinates_svg(flipped))
    color_labels = _COLOR_LABELS[lang]
    for square in range(NUM_SQUARES):
        piece = board.piece_at(square)
        if piece is None:
            continue
        rank = board.rank_of(piece)
        if lang != "en":
            title = f"{color_labels[piece.color]}{labels[piece.animal]} {rank} "
        else:
            animal = "fox" if fox and piece.animal == WOLF else _ENGLISH_NAMES[piece.animal]
            title = f"{color_labels[piece.color]} {animal} {rank} "
        title += square_name(square)
        parts.append(
            _piece_svg(
                square, piece.color, piece.animal, rank, labels[piece.animal], title, flipped
            )
        )

    def centre(square: int) -> tuple[float, float]:
        x, y = _origin(square, flipped)
        return x + SQUARE_SIZE / 2, y + SQUARE_SIZE / 2

    for square in SquareSet(squares if squares is not None else 0):
        parts.append(cross_svg(centre(square), SQUARE_SIZE, square_name(square)))
    for arrow in arrows_of(arrows):
        SquareSet((arrow.tail, arrow.head))  # ValueError for anything but two squares
        parts.append(arrow_svg(centre(arrow.tail), centre(arrow.head), arrow.color, SQUARE_SIZE))
    parts.append("</svg>")
    return "\n".join(parts)
