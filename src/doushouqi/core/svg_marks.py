"""Marks drawn over any game's board picture, as python-chess's ``chess.svg.board`` takes them:
``arrows`` (an :class:`Arrow` or a ``(tail, head)`` pair), ``fill`` (a colour per square or
point) and ``squares`` (marked with a cross). A game's ``board_svg`` knows where its squares or
points are; these functions only draw at the coordinates it gives.

>>> arrow_svg((10, 10), (70, 10), "green", 60).startswith('<g class="arrow green"')
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from html import escape
from typing import NamedTuple

__all__ = ["Arrow", "arrow_svg", "arrows_of", "cross_svg", "fill_svg"]

#: python-chess's arrow colours by name; any other value is used as the colour itself.
ARROW_COLORS = {"green": "#15781b", "red": "#882020", "yellow": "#e68f00", "blue": "#00308f"}


def _quoted(value: str) -> str:
    """``value`` as a quoted XML attribute value (html's escape: the svg modules avoid xml.sax,
    whose import pulls in urllib)."""
    return f'"{escape(value, quote=True)}"'


class Arrow(NamedTuple):
    """An arrow from ``tail`` to ``head`` (squares or points; the same one: a circle), in a
    colour of :data:`ARROW_COLORS` by name or any SVG colour.

    >>> from doushouqi.jungle.squares import A3, A4
    >>> Arrow(A3, A4), Arrow(A3, A3, "red").color
    (Arrow(tail=14, head=21, color='green'), 'red')
    """

    tail: int
    head: int
    color: str = "green"


def arrows_of(arrows: Iterable[Arrow | tuple[int, int]]) -> list[Arrow]:
    """Arrows and ``(tail, head)`` pairs as arrows (a pair is green, as in python-chess).

    >>> arrows_of([(14, 21), Arrow(3, 3, "blue")])
    [Arrow(tail=14, head=21, color='green'), Arrow(tail=3, head=3, color='blue')]
    """
    return [arrow if isinstance(arrow, Arrow) else Arrow(*arrow) for arrow in arrows]


def _color(color: str) -> str:
    return ARROW_COLORS.get(color, color)


def arrow_svg(tail: tuple[float, float], head: tuple[float, float], color: str, unit: float) -> str:
    """An arrow between two centres, ``unit`` the distance between neighbours: a line with a
    head, or a circle when both centres are one (python-chess marks a square so).

    >>> print(arrow_svg((20, 20), (20, 20), "red", 40))
    <circle class="arrow red" cx="20" cy="20" r="18" fill="none" stroke="#882020"
      stroke-width="3.2" opacity="0.8"/>
    >>> print(arrow_svg((0, 0), (0, 80), "#123456", 40))
    <g class="arrow #123456" opacity="0.8"><line x1="0" y1="0" x2="0" y2="64" stroke="#123456"
      stroke-width="6" stroke-linecap="butt"/><polygon points="0,80 -10,64 10,64"
      fill="#123456"/></g>
    """
    paint = _quoted(_color(color))
    kind = _quoted(f"arrow {color}")
    (x1, y1), (x2, y2) = tail, head
    if (x1, y1) == (x2, y2):
        return (
            f'<circle class={kind} cx="{x1:g}" cy="{y1:g}" r="{unit * 0.45:g}" fill="none" '
            f'stroke={paint} stroke-width="{unit * 0.08:g}" opacity="0.8"/>'
        )
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head_length, half_width = unit * 0.4, unit * 0.25
    bx, by = x2 - ux * head_length, y2 - uy * head_length  # where the head begins
    left = (bx - uy * half_width, by + ux * half_width)
    right = (bx + uy * half_width, by - ux * half_width)
    return (
        f'<g class={kind} opacity="0.8"><line x1="{x1:g}" y1="{y1:g}" x2="{bx:g}" y2="{by:g}" '
        f'stroke={paint} stroke-width="{unit * 0.15:g}" stroke-linecap="butt"/>'
        f'<polygon points="{x2:g},{y2:g} {left[0]:g},{left[1]:g} {right[0]:g},{right[1]:g}" '
        f"fill={paint}/></g>"
    )


def fill_svg(
    fill: Mapping[int, str],
    corner: Callable[[int], tuple[float, float]],
    size: float,
    name: Callable[[int], str],
) -> list[str]:
    """A ``size`` × ``size`` rectangle of the given colour at each ``corner(square)``, named
    by ``name(square)`` (the game's board picture gives both functions).

    >>> corner = lambda square: (square % 7 * 40, square // 7 * 40)  # 7 files, 40 px apart
    >>> name = lambda square: "abcdefg"[square % 7] + str(square // 7 + 1)
    >>> print(*fill_svg({3: "yellow"}, corner, 40, name))
    <rect class="fill" data-square="d1" x="120" y="0" width="40" height="40" fill="yellow"
      fill-opacity="0.5"/>
    """
    return [
        f'<rect class="fill" data-square={_quoted(name(square))} x="{corner(square)[0]:g}" '
        f'y="{corner(square)[1]:g}" width="{size:g}" height="{size:g}" '
        f'fill={_quoted(color)} fill-opacity="0.5"/>'
        for square, color in fill.items()
    ]


def cross_svg(centre: tuple[float, float], unit: float, label: str) -> str:
    """A cross over one square or point (python-chess's ``squares`` mark), ``label`` its name.

    >>> print(cross_svg((20, 20), 40, "a1"))
    <path class="mark" data-square="a1" d="M8,8 L32,32 M8,32 L32,8" stroke="#000"
      stroke-width="2.4" opacity="0.7"/>
    """
    x, y = centre
    d = unit * 0.3
    return (
        f'<path class="mark" data-square={_quoted(label)} d="M{x - d:g},{y - d:g} '
        f'L{x + d:g},{y + d:g} M{x - d:g},{y + d:g} L{x + d:g},{y - d:g}" stroke="#000" '
        f'stroke-width="{unit * 0.06:g}" opacity="0.7"/>'
    )
