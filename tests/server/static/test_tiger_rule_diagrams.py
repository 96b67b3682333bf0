"""The Tiger's rules page diagrams (static/games/tiger/rule_diagram_data.js) against its rules
library: under every value of the options they depend on, each position is valid with the
tiger's side to move, each green arrow a legal move doing what its kind says, each red one an
illegal move for the reason given, the win diagram a position the men have won; every rule
point has its diagrams and every caption its words."""

from __future__ import annotations

import dataclasses
import itertools
import json
from typing import Any

import pytest

from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.infra.translations import load_table
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import parse_point
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, RuleSet, rules_from_mapping

POINTS = ("board", "pieces", "move", "capture", "win")
KINDS = {"step", "capture"}
#: The options diagrams may depend on, with every value each can take.
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "diagonals": ("none", "nest", "all"),
    "men": (12, 18),
    "tigers": (1, 2),
}


def load_data() -> dict[str, Any]:
    source = (STATIC_DIR / "games" / "tiger" / "rule_diagram_data.js").read_text("utf-8")
    body = source.split("\nexport default ", 1)[1].strip()
    data: dict[str, Any] = json.loads(body.removesuffix(";"))
    return data


DATA = load_data()
DIAGRAMS: list[dict[str, Any]] = DATA["diagrams"]
SETS = list(BUILTIN_RULE_SETS.values()) + [
    rules_from_mapping(
        f"custom {'-'.join(map(str, values))}", dict(zip(OPTION_VALUES, values, strict=True))
    )
    for values in itertools.product(*OPTION_VALUES.values())
]


def applies(diagram: dict[str, Any], options: dict[str, Any]) -> bool:
    """The client's choice (rule_diagrams.js `diagramApplies`)."""
    return all(options.get(k, DATA["defaults"][k]) == v for k, v in diagram.get("when", {}).items())


CASES = [(d, r) for d in DIAGRAMS for r in SETS if applies(d, r.to_mapping())]


def test_entries_are_well_formed_and_every_point_is_shown() -> None:
    assert len({d["id"] for d in DIAGRAMS}) == len(DIAGRAMS)
    assert DATA["defaults"] == {k: RuleSet().to_mapping()[k] for k in OPTION_VALUES}
    for d in DIAGRAMS:
        assert d["point"] in POINTS and set(d.get("when", {})) <= set(OPTION_VALUES), d["id"]
        for point in d["marks"]:
            parse_point(point)
        for arrow in d["arrows"]:
            assert (arrow["kind"] in KINDS) if arrow["legal"] else arrow["why"], arrow
    for rules in SETS:
        shown = {d["point"] for d in DIAGRAMS if applies(d, rules.to_mapping())}
        assert shown == set(POINTS), rules.name


@pytest.mark.parametrize(("diagram", "rules"), CASES, ids=[f"{d['id']}-{r.name}" for d, r in CASES])
def test_diagram_is_true_under_the_rule_set(diagram: dict[str, Any], rules: RuleSet) -> None:
    if diagram["point"] != "pieces":  # moves are shown with one tiger and the start's men
        rules = dataclasses.replace(rules, tigers=1)
    board = Board(diagram["fen"], rules)
    assert board.turn == 0, "the diagrams show the tiger's side to move"
    outcome = board.outcome()
    if diagram["point"] == "win":
        assert outcome is not None and outcome.key == "tiger_trapped" and outcome.winner == 1
        return
    assert outcome is None
    for arrow in diagram["arrows"]:
        move = Move.from_str(arrow["move"])
        reason = board.explain_illegal(move)
        if not arrow["legal"]:
            assert reason is not None and arrow["why"] in reason, (arrow, reason)
            continue
        assert reason is None, (arrow, reason)
        assert board.is_capture(move) is (arrow["kind"] == "capture"), arrow


@pytest.mark.parametrize("lang", ["zh", "zh-Hant", "en"])
def test_every_caption_is_translated(lang: str) -> None:
    table = load_table(STATIC_DIR, lang)
    for d in DIAGRAMS:
        assert table.get(d["caption"]), (lang, d["caption"])
