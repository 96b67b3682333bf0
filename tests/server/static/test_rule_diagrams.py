"""The rules page's diagrams (static/games/jungle/rule_diagram_data.js) against the rules library.

Every diagram shows a rule on a position; its caption says what the arrows show. These tests
make sure that the picture tells the truth under every rule set it is shown for: each position
is a valid one with Red to move and the game still on, each green arrow is a legal move that
does what the diagram says (a step, a swim, a jump, a capture, the den), each red one an
illegal move for the reason the caption gives, and each rule point shows its diagrams under
every combination of the options the diagrams depend on (so a custom rule set gets its own
behaviour too).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from typing import Any

import pytest

from doushouqi.jungle.board import Board
from doushouqi.jungle.moves import Move
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet, rules_from_mapping
from doushouqi.jungle.squares import RED, WATER, parse_square
from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.infra.translations import load_table

STATIC = STATIC_DIR
POINTS = ("board", "pieces", "move", "water", "capture", "win")
KINDS = {"step", "water", "jump", "capture", "den"}
DIAGRAM_KEYS = {"id", "point", "when", "fen", "marks", "arrows", "caption"}
#: The options diagrams may depend on, with every value each can take (/api/rules spelling).
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "ranks": ("wolf>dog", "dog>wolf"),
    "own_rat_blocks_jump": (True, False),
    "trapped_can_capture": (True, False),
}


def load_data() -> dict[str, Any]:
    """The JSON object after ``export default`` in rule_diagram_data.js."""
    source = (STATIC / "games" / "jungle" / "rule_diagram_data.js").read_text(encoding="utf-8")
    body = source.split("\nexport default ", 1)[1].strip()
    data: dict[str, Any] = json.loads(body.removesuffix(";"))
    return data


DATA = load_data()
DIAGRAMS: list[dict[str, Any]] = DATA["diagrams"]


def applies(diagram: dict[str, Any], options: dict[str, Any]) -> bool:
    """The client's choice (rule_diagrams.js `diagramApplies`)."""
    return all(options.get(k, DATA["defaults"][k]) == v for k, v in diagram.get("when", {}).items())


def every_option_combination() -> list[RuleSet]:
    """A rule set for each combination of the options the diagrams depend on."""
    return [
        rules_from_mapping("custom", dict(zip(OPTION_VALUES, values, strict=True)))
        for values in itertools.product(*OPTION_VALUES.values())
    ]


SETS = list(BUILTIN_RULE_SETS.values()) + every_option_combination()


def shown(diagram: dict[str, Any]) -> list[RuleSet]:
    return [rules for rules in SETS if applies(diagram, rules.to_mapping())]


def set_id(rules: RuleSet) -> str:
    if rules.name != "custom":
        return rules.name
    options = rules.to_mapping()
    return "custom:" + ",".join(str(options[k]) for k in OPTION_VALUES)


CASES = [(d, rules) for d in DIAGRAMS for rules in shown(d)]


def test_diagram_entries_are_well_formed() -> None:
    ids = [d["id"] for d in DIAGRAMS]
    assert len(ids) == len(set(ids)), "diagram ids are unique (the page and tests name them)"
    for d in DIAGRAMS:
        assert DIAGRAM_KEYS - {"when"} <= set(d) <= DIAGRAM_KEYS, d
        assert d["point"] in POINTS, d["id"]
        assert set(d.get("when", {})) <= set(OPTION_VALUES), d["id"]
        for option, value in d.get("when", {}).items():
            assert value in OPTION_VALUES[option], d["id"]
        for square in d["marks"]:
            parse_square(square)
        for arrow in d["arrows"]:
            assert isinstance(arrow["legal"], bool)
            if arrow["legal"]:
                assert arrow["kind"] in KINDS and "why" not in arrow, d["id"]
            else:
                assert arrow["why"] and "kind" not in arrow, d["id"]


def test_defaults_are_the_default_rule_set() -> None:
    """A page without options (the rule sets could not be fetched) shows wango's diagrams."""
    wango = RuleSet().to_mapping()
    assert DATA["defaults"] == {k: wango[k] for k in OPTION_VALUES}


@pytest.mark.parametrize("rules", SETS, ids=set_id)
def test_every_point_has_a_diagram_for_every_rule_set(rules: RuleSet) -> None:
    options = rules.to_mapping()
    for point in POINTS:
        assert any(d["point"] == point and applies(d, options) for d in DIAGRAMS), point


@pytest.mark.parametrize("option", list(OPTION_VALUES))
def test_an_option_s_diagrams_cover_each_of_its_values(option: str) -> None:
    """Diagrams that depend on an option come in sets, one for each of its values: no rule set
    is left with half the picture."""
    values = {d["when"][option] for d in DIAGRAMS if option in d.get("when", {})}
    assert values == set(OPTION_VALUES[option])


@pytest.mark.parametrize(
    ("diagram", "rules"), CASES, ids=[f"{d['id']}-{set_id(r)}" for d, r in CASES]
)
def test_diagram_is_true_under_the_rule_set(diagram: dict[str, Any], rules: RuleSet) -> None:
    board = Board(diagram["fen"], rules=rules)  # raises on an impossible position
    assert board.turn == RED, "the diagrams show Red to move, Red at the bottom"
    assert board.outcome() is None, "the game is still on in the diagram"
    legal = set(board.legal_moves)
    for arrow in diagram["arrows"]:
        move = Move.from_uci(arrow["move"])
        if not arrow["legal"]:
            assert move not in legal, arrow
            reason = board.explain_illegal(move)
            assert reason is not None and arrow["why"] in reason, (arrow, reason)
            continue
        assert move in legal, (arrow, board.explain_illegal(move))
        kind = arrow["kind"]
        assert board.is_capture(move) is (kind == "capture"), arrow
        assert board.is_jump(move) is (kind == "jump"), arrow
        assert bool(WATER >> move.to_square & 1) is (kind == "water"), arrow
        board.push(move)
        outcome = board.outcome()
        board.pop()
        if kind == "den":
            assert outcome is not None and outcome.termination is Termination.DEN_ENTERED
            assert outcome.winner == RED
        else:
            assert outcome is None, arrow


def test_the_trap_diagrams_follow_the_rule_set() -> None:
    """Under international an animal in an enemy trap still captures; under wango it does not
    (docs/rules.md 4.3): each set's page shows its own behaviour."""
    wango = BUILTIN_RULE_SETS["wango"].to_mapping()
    international = BUILTIN_RULE_SETS["international"].to_mapping()
    assert {d["id"] for d in DIAGRAMS if applies(d, wango)} - {
        d["id"] for d in DIAGRAMS if applies(d, international)
    } == {"capture-trapped-cannot"}
    assert {d["id"] for d in DIAGRAMS if applies(d, international)} - {
        d["id"] for d in DIAGRAMS if applies(d, wango)
    } == {"capture-trapped-can"}


def test_the_ranks_diagram_follows_the_rule_set() -> None:
    classic_dog = BUILTIN_RULE_SETS["classic-dog"].to_mapping()
    ids = {d["id"] for d in DIAGRAMS if applies(d, classic_dog)}
    assert "capture-dog-wolf" in ids and "capture-wolf-dog" not in ids


@pytest.mark.parametrize("lang", ["zh", "zh-Hant", "en"])
def test_every_caption_is_translated(lang: str) -> None:
    table = load_table(STATIC, lang)
    for d in DIAGRAMS:
        assert table.get(d["caption"]), (lang, d["caption"])


def test_rule_options_used_here_exist() -> None:
    names = {f.name for f in dataclasses.fields(RuleSet)}
    assert set(OPTION_VALUES) <= names
