"""The SVG board picture: well-formed XML, every square and animal, labels, orientation."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.rules import rules_from_mapping
from doushouqi.jungle.squares import parse_square
from doushouqi.jungle.svg import board_svg

NS = {"svg": "http://www.w3.org/2000/svg"}
ZH = {
    "rat": "鼠",
    "cat": "猫",
    "dog": "狗",
    "wolf": "狼",
    "leopard": "豹",
    "tiger": "虎",
    "lion": "狮",
    "elephant": "象",
}
RANKS = {
    "rat": 1,
    "cat": 2,
    "dog": 3,
    "wolf": 4,
    "leopard": 5,
    "tiger": 6,
    "lion": 7,
    "elephant": 8,
}


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def _with_class(root: ET.Element, word: str) -> list[ET.Element]:
    return [e for e in root.iter() if word in e.get("class", "").split()]


def _pieces(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("data-square", ""): e for e in _with_class(root, "piece")}


def _texts(element: ET.Element, cls: str) -> list[str]:
    return [e.text or "" for e in element.iter() if cls in e.get("class", "").split()]


def test_start_position_picture() -> None:
    board = Board()
    root = _parse(board_svg(board))
    squares = _with_class(root, "square")
    assert len(squares) == 63
    assert len({e.get("data-square") for e in squares}) == 63
    kinds = {word: len(_with_class(root, word)) for word in ("water", "bridge", "trap", "den")}
    assert kinds == {"water": 12, "bridge": 9, "trap": 6, "den": 2}
    assert len(_with_class(root, "land")) == 63 - 12 - 9 - 6 - 2
    assert {e.get("data-square") for e in _with_class(root, "den")} == {"d1", "d9"}
    assert {e.get("data-square") for e in _with_class(root, "trap")} == {
        "c1",
        "e1",
        "d2",
        "c9",
        "e9",
        "d8",
    }
    assert {e.get("data-square") for e in _with_class(root, "bridge")} == {
        f + r for f in "adg" for r in "456"
    }
    pieces = _pieces(root)
    assert len(pieces) == 16  # one token per animal
    for square, element in pieces.items():
        piece = board.piece_at(parse_square(square))
        assert piece is not None
        classes = element.get("class", "").split()
        assert ("red" if piece.color == 0 else "blue") in classes
        assert piece.animal_name in classes
        assert _texts(element, "label") == [ZH[piece.animal_name]]
        assert _texts(element, "rank") == [str(RANKS[piece.animal_name])]
        # Red tokens are round, Blue tokens are diamonds.
        shapes = {child.tag.split("}")[1] for child in element}
        assert ("circle" if piece.color == 0 else "polygon") in shapes
    assert _texts(pieces["g1"], "label") == ["狮"]
    assert _texts(pieces["a9"], "label") == ["狮"]
    assert _texts(pieces["c3"], "label") == ["狼"]
    assert not _with_class(root, "last-move")


def test_size_and_natural_size() -> None:
    root = _parse(board_svg(Board()))
    assert root.get("viewBox") == "0 0 468 588"
    assert (root.get("width"), root.get("height")) == ("468", "588")
    sized = _parse(board_svg(Board(), size=234))
    assert (sized.get("width"), sized.get("height")) == ("234", "294")
    with pytest.raises(ValueError):
        board_svg(Board(), size=0)


def test_coordinates_and_flipped_orientation() -> None:
    def layout(flipped: bool) -> tuple[list[str], list[str], dict[str, tuple[float, float]]]:
        root = _parse(board_svg(Board(), flipped=flipped))
        coords = _with_class(root, "coord")
        files = sorted(
            (e for e in coords if "file" in e.get("class", "")), key=lambda e: float(e.get("x", 0))
        )
        ranks = sorted(
            (e for e in coords if "rank" in e.get("class", "")), key=lambda e: float(e.get("y", 0))
        )
        squares = {
            e.get("data-square", ""): (float(e.get("x", 0)), float(e.get("y", 0)))
            for e in _with_class(root, "square")
        }
        # Each coordinate is written on both sides of the board; keep one of each, in order.
        return (
            list(dict.fromkeys(e.text or "" for e in files)),
            list(dict.fromkeys(e.text or "" for e in ranks)),
            squares,
        )

    files, ranks, squares = layout(False)
    assert files == list("abcdefg")
    assert ranks == list("987654321")  # top to bottom: Red at the bottom
    assert squares["a1"][0] < squares["g1"][0] and squares["a1"][1] > squares["a9"][1]
    flipped_files, flipped_ranks, flipped_squares = layout(True)
    assert flipped_files == list("gfedcba")
    assert flipped_ranks == list("123456789")
    assert flipped_squares["a1"][0] > flipped_squares["g1"][0]
    assert flipped_squares["a1"][1] < flipped_squares["a9"][1]
    assert flipped_squares["a1"] == squares["g9"]  # a half turn
    assert flipped_squares["d1"] == squares["d9"]


def test_last_move_highlight() -> None:
    board = Board()
    move = board.push_move("a3a4")
    root = _parse(board_svg(board, last_move=move))
    assert sorted(e.get("data-square") for e in _with_class(root, "last-move")) == ["a3", "a4"]
    root = _parse(board_svg(board, last_move=Move.null()))
    assert not _with_class(root, "last-move")


def test_fox_name_ranks_and_english_labels() -> None:
    fox = rules_from_mapping("fox", {"parent": "classic-dog", "wolf_name": "fox"})
    board = Board(rules=fox)
    pieces = _pieces(_parse(board_svg(board)))
    assert _texts(pieces["c3"], "label") == ["狐"]
    assert _texts(pieces["c3"], "rank") == ["3"]  # classic-dog: dog 4 > wolf 3
    assert _texts(pieces["f2"], "rank") == ["4"]
    english = _pieces(_parse(board_svg(Board(), lang="en")))
    assert _texts(english["c3"], "label") == ["W"]
    assert _texts(english["a3"], "label") == ["E"]
    with pytest.raises(ValueError, match="language"):
        board_svg(Board(), lang="fr")


def test_positions_with_few_animals_and_repr_svg() -> None:
    board = Board("3L3/7/7/2R4/7/7/7/7/4t2 b", "wango")
    root = _parse(board._repr_svg_())
    pieces = _pieces(root)
    assert set(pieces) == {"d9", "c6", "e1"}
    assert "blue" in pieces["e1"].get("class", "").split()
    assert _texts(pieces["c6"], "label") == ["鼠"]
    assert len(_with_class(root, "square")) == 63


def test_arrows_fill_and_squares_as_python_chess() -> None:
    chess_svg = pytest.importorskip("chess.svg")
    from doushouqi.jungle.svg import Arrow

    # The same keywords python-chess's chess.svg.board takes.
    chess_svg.board(arrows=[chess_svg.Arrow(0, 9, color="red")], fill={0: "#f00"}, squares=[1])
    svg = board_svg(
        Board(),
        arrows=[Arrow(parse_square("g3"), parse_square("g4"), "red"), (0, 0)],
        fill={parse_square("d1"): "#ff000080"},
        squares=[parse_square("a1"), parse_square("c3")],
        lastmove=Move.from_uci("g3g4"),
    )
    root = ET.fromstring(svg)
    classes = [element.get("class", "") for element in root.iter()]
    assert classes.count("arrow red") == 1 and classes.count("arrow green") == 1
    assert [e.get("data-square") for e in root.iter() if e.get("class") == "fill"] == ["d1"]
    assert [e.get("data-square") for e in root.iter() if e.get("class") == "mark"] == [
        "a1",
        "c3",
    ]
    assert classes.count("last-move") == 2
    with pytest.raises(ValueError, match="not a square"):
        board_svg(Board(), arrows=[(0, 99)])
    with pytest.raises(TypeError, match="both last_move and lastmove"):
        board_svg(Board(), last_move=Move.from_uci("g3g4"), lastmove=Move.from_uci("g3g4"))
