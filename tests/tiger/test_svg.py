"""SVG pictures of 老虎棋 positions: well-formed, 320 px wide, every point, line and piece."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from tests.tiger.helpers import rules

from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.svg import board_svg

NS = "{http://www.w3.org/2000/svg}"


def _classes(svg: str) -> list[str]:
    return [el.get("class", "") for el in ET.fromstring(svg).iter()]


def test_the_start_position() -> None:
    svg = board_svg(Board())
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg" and root.get("width") == "320"
    classes = _classes(svg)
    assert classes.count("point") == 87
    assert classes.count("line") == 154 and "line diagonal" not in classes
    assert classes.count("piece man") == 12 and classes.count("piece tiger") == 1
    assert classes.count("nest") == 1 and "lastmove" not in classes
    tiger = next(el for el in root.iter() if el.get("class") == "piece tiger")
    assert tiger.get("data-point") == "e10" and "".join(tiger.itertext()) == "虎"


@pytest.mark.parametrize(("diagonals", "count"), [("none", 0), ("nest", 8), ("all", 136)])
def test_the_lines_follow_the_diagonals_option(diagonals: str, count: int) -> None:
    svg = board_svg(Board(rules=rules(diagonals=diagonals)))
    assert _classes(svg).count("line diagonal") == count
    assert _classes(svg).count("line") == 154


def test_two_tigers_eighteen_men_english_labels_and_size() -> None:
    svg = board_svg(Board(rules=rules(men=18, tigers=2)), lang="en", size=640)
    root = ET.fromstring(svg)
    assert root.get("width") == "640"
    labels = {"".join(el.itertext()) for el in root.iter() if "piece" in el.get("class", "")}
    assert labels == {"T", "M"}
    assert _classes(svg).count("piece man") == 18 and _classes(svg).count("piece tiger") == 2


def test_the_last_move_is_ringed() -> None:
    board = Board("3/3/9/9/4M4/3M1M3/3MT4/4M4/2M3M2/9/M7M t")
    board.push_move("e5c5")
    root = ET.fromstring(board_svg(board))
    ringed = [el.get("data-point") for el in root.iter() if el.get("class") == "lastmove"]
    assert ringed == ["e5", "c5"]
    assert "lastmove" not in _classes(board_svg(board, lastmove=Move.null()))


def test_coordinates_can_be_left_out() -> None:
    assert "coord file" in _classes(board_svg(Board()))
    assert "coord file" not in _classes(board_svg(Board(), coordinates=False))


def test_arrows_fill_and_marks_on_points() -> None:
    from doushouqi.core.svg_marks import Arrow
    from doushouqi.tiger.points import POINTS

    a, b = POINTS[0], POINTS[1]
    svg = board_svg(Board(rules=rules()), arrows=[Arrow(a, b, "blue")], fill={a: "red"},
                    squares=[b])  # fmt: skip
    classes = _classes(svg)
    assert classes.count("arrow blue") == 1 and classes.count("fill") == 1
    assert classes.count("mark") == 1
    with pytest.raises(ValueError, match="not a point"):
        board_svg(Board(rules=rules()), squares=[-5])
