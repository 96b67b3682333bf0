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
    """An arrow from ``tail`` to ``head`` (squares or points; the same one: a circle)."""

    tail: int
    head: int
    color: str = "green"


def arrows_of(arrows: Iterable[Arrow | tuple[int, int]]) -> list[Arrow]:
    """Arrows and ``(tail, head)`` pairs as arrows (a pair is green, as in python-chess)."""
    return [arrow if isinstance(arrow, Arrow) else Arrow(*arrow) for arrow in arrows]


def _color(color: str) -> str:
    return ARROW_COLORS.get(color, color)


def arrow_svg(tail: tuple[float, float], head: tuple[float, float], color: str, unit: float) -> str:
    """An arrow between two centres, ``unit`` the distance between neighbours."""
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
    """A ``size`` × ``size`` rectangle of the given colour at each ``corner(square)``."""
    return [
        f'<rect class="fill" data-square={_quoted(name(square))} x="{corner(square)[0]:g}" '
        f'y="{corner(square)[1]:g}" width="{size:g}" height="{size:g}" '
        f'fill={_quoted(color)} fill-opacity="0.5"/>'
        for square, color in fill.items()
    ]


def cross_svg(centre: tuple[float, float], unit: float, label: str) -> str:
    """A cross over one square or point (python-chess's ``squares`` mark)."""
    x, y = centre
    d = unit * 0.3
    return (
        f'<path class="mark" data-square={_quoted(label)} d="M{x - d:g},{y - d:g} '
        f'L{x + d:g},{y + d:g} M{x - d:g},{y + d:g} L{x + d:g},{y - d:g}" stroke="#000" '
        f'stroke-width="{unit * 0.06:g}" opacity="0.7"/>'
    )
