"""SVG pictures of a 老虎棋 position (standard library only), in the spirit of ``chess.svg``.

The picture shows the lines of the board under the rule set's ``diagonals`` option, the
tiger's nest (虎巢, shaded, with its name), a dot on every point, the tigers as orange discs
marked 虎 and the men as pale discs marked 人 (or ``T`` and ``M`` with ``lang="en"``), the last
move's points ringed, and the files a–i and ranks 1–11 around the edge. It is 320 pixels wide
unless told otherwise; the lines, points and pieces are sized so that a piece stays clear at
that size (a piece is about 26 px across there).

Every element carries a ``class`` (``line``, ``line diagonal``, ``nest``, ``point``,
``piece tiger``, ``piece man``, ``lastmove``, ``coord file`` …) and points and pieces a
``data-point`` attribute, so that the picture can be styled and tested.

>>> from doushouqi.tiger.board import Board
>>> svg = board_svg(Board())
>>> svg.startswith("<svg") and svg.count('class="piece man"') == 12
True
>>> svg.count('class="point"'), svg.count('class="line"')
(87, 154)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

from doushouqi.core.game import Lang
from doushouqi.core.svg_marks import Arrow, arrow_svg, arrows_of, cross_svg, fill_svg
from doushouqi.tiger.board import Board
from doushouqi.tiger.fen import MAN, TIGER
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import (
    FILE_NAMES,
    LINES,
    POINTS,
    point_file,
    point_name,
    point_rank,
)
from doushouqi.tiger.terms import piece_letter

__all__ = ["board_svg"]

#: The distance between neighbouring points and the margin around them, in SVG user units.
SPACING = 40
MARGIN = 40
WIDTH = 8 * SPACING + 2 * MARGIN
HEIGHT = 10 * SPACING + 2 * MARGIN
#: Piece radius against the spacing: large enough to read at 320 px, small enough that
#: neighbours do not touch.
_PIECE_RADIUS = 0.42 * SPACING

_FONT = (
    "'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', "
    "SimHei, 'WenQuanYi Micro Hei', sans-serif"
)
_BOARD = "#f3dca6"
_LINE = "#5a3d1e"
_NEST = "#e2b86b"
_TIGER = "#e8870e"
_TIGER_EDGE = "#7a3b00"
_MAN = "#fdfaf2"
_MAN_EDGE = "#23395d"
_LASTMOVE = "#2f7de1"


def _xy(point: int) -> tuple[float, float]:
    return MARGIN + point_file(point) * SPACING, MARGIN + (11 - point_rank(point)) * SPACING


def board_svg(
    board: Board,
    *,
    size: int = 320,
    lastmove: Move | None = None,
    coordinates: bool = True,
    lang: Lang = "zh",
    arrows: Iterable[Arrow | tuple[int, int]] = (),
    fill: Mapping[int, str] | None = None,
    squares: Iterable[int] | None = None,
) -> str:
    """The position as an SVG document ``size`` pixels wide.

    ``lastmove`` rings the points of a move (by default the last move pushed, if any);
    ``lang`` chooses the pieces' labels (虎/人 in Chinese, T/M in English). As python-chess's
    ``chess.svg.board``: ``arrows`` between points, ``fill`` (a colour around a point),
    ``squares`` (points marked with a cross).
    """
    for point in (*(fill or {}), *(squares or ()), *(p for a in arrows_of(arrows) for p in a[:2])):
        if point not in POINTS:
            raise ValueError(f"not a point of the board: {point!r}")
    if lastmove is None and board.move_stack:
        lastmove = board.move_stack[-1]
    height = round(size * HEIGHT / WIDTH)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{size}" height="{height}" font-family="{escape(_FONT)}">',
        f'<rect class="board" width="{WIDTH}" height="{HEIGHT}" fill="{_BOARD}"/>',
    ]
    # The nest: the 2 x 2 squares above d9-f9.
    left, top = _xy(81 + 3)  # d11
    parts.append(
        f'<rect class="nest" x="{left}" y="{top}" width="{2 * SPACING}" '
        f'height="{2 * SPACING}" fill="{_NEST}"/>'
    )
    for a, b in LINES[board.rules.diagonals]:
        (x1, y1), (x2, y2) = _xy(a), _xy(b)
        kind = "line" if x1 == x2 or y1 == y2 else "line diagonal"
        parts.append(
            f'<line class="{kind}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
            f'stroke="{_LINE}" stroke-width="2" stroke-linecap="round"/>'
        )
    for point in POINTS:
        x, y = _xy(point)
        parts.append(
            f'<circle class="point" data-point="{point_name(point)}" cx="{x}" cy="{y}" '
            f'r="3.5" fill="{_LINE}"/>'
        )

    def corner(point: int) -> tuple[float, float]:
        x, y = _xy(point)
        return x - SPACING / 2, y - SPACING / 2

    parts.extend(fill_svg(fill or {}, corner, SPACING, point_name))
    if lastmove:
        for point in lastmove.path:
            x, y = _xy(point)
            parts.append(
                f'<circle class="lastmove" data-point="{point_name(point)}" cx="{x}" '
                f'cy="{y}" r="{_PIECE_RADIUS + 3}" fill="none" stroke="{_LASTMOVE}" '
                f'stroke-width="3"/>'
            )
    for point in POINTS:
        code = board.piece_at(point)
        if code not in (TIGER, MAN):
            continue
        x, y = _xy(point)
        tiger = code == TIGER
        kind = "tiger" if tiger else "man"
        paint, edge = (_TIGER, _TIGER_EDGE) if tiger else (_MAN, _MAN_EDGE)
        label = escape(piece_letter(code - 1, lang))
        parts.append(
            f'<g class="piece {kind}" data-point="{point_name(point)}">'
            f'<circle cx="{x}" cy="{y}" r="{_PIECE_RADIUS}" fill="{paint}" stroke="{edge}" '
            f'stroke-width="{3 if tiger else 2.5}"/>'
            f'<text x="{x}" y="{y}" dy="0.35em" text-anchor="middle" font-size="20" '
            f'font-weight="bold" fill="{edge}">{label}</text></g>'
        )
    for point in squares or ():
        parts.append(cross_svg(_xy(point), SPACING, point_name(point)))
    for arrow in arrows_of(arrows):
        parts.append(arrow_svg(_xy(arrow.tail), _xy(arrow.head), arrow.color, SPACING))
    if coordinates:
        for file in range(9):
            x = MARGIN + file * SPACING
            parts.append(
                f'<text class="coord file" x="{x}" y="{HEIGHT - 10}" text-anchor="middle" '
                f'font-size="13" fill="{_LINE}">{FILE_NAMES[file]}</text>'
            )
        for rank in range(1, 12):
            y = MARGIN + (11 - rank) * SPACING
            x = 14  # left of a's pieces (ranks 10 and 11 have no point there)
            parts.append(
                f'<text class="coord rank" x="{x}" y="{y}" dy="0.35em" text-anchor="middle" '
                f'font-size="13" fill="{_LINE}">{rank}</text>'
            )
    nest_label = "虎巢" if lang != "en" else "nest"
    x, y = _xy(86)  # f11
    parts.append(
        f'<text class="nest-label" x="{x + 12}" y="{y + 4}" font-size="13" '
        f'fill="{_LINE}">{nest_label}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)
