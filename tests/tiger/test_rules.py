"""Rule sets of 老虎棋: the options, the four named sets, names and mappings, and errors."""

from __future__ import annotations

import dataclasses
import json
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from doushouqi.core.game import RulesError
from doushouqi.tiger.rules import (
    BUILTIN_RULE_SETS,
    MAX_ROUNDS,
    MEN_SIDE,
    TIGER_SIDE,
    Diagonals,
    RuleSet,
    rules_by_name,
    rules_from_mapping,
)

ROOT = Path(__file__).parents[2]


def test_the_four_named_sets_and_how_they_differ() -> None:
    assert list(BUILTIN_RULE_SETS) == ["laohuqi", "laohuqi-18", "laohuqi-strict", "laohuqi-south"]
    default = BUILTIN_RULE_SETS["laohuqi"]
    assert dataclasses.replace(default, description="") == RuleSet()
    assert default.diagonals is Diagonals.NONE and default.men == 12 and default.tigers == 1
    assert default.first == TIGER_SIDE and default.men_retreat
    assert not default.multi_jump and not default.capture_mandatory
    assert default.tiger_wins_below == 4 and default.max_rounds is None

    def changes(name: str) -> dict[str, object]:
        mapping = BUILTIN_RULE_SETS[name].to_mapping()
        base = default.to_mapping()
        skip = ("name", "description")
        return {k: v for k, v in mapping.items() if v != base[k] and k not in skip}

    assert changes("laohuqi-18") == {"men": 18}
    assert changes("laohuqi-strict") == {"tiger_wins_below": 9}
    # Twelve men in the two-tiger set (measured: the count neither side wins with), the default.
    assert changes("laohuqi-south") == {"tigers": 2}
    assert BUILTIN_RULE_SETS["laohuqi-south"].men == 12


def test_the_south_mens_count_says_where_it_was_measured() -> None:
    text = resources.files("doushouqi.tiger").joinpath("data/rulesets.toml").read_text("utf-8")
    south = text[text.index("[laohuqi-south]") :]
    assert "bench/tiger_balance.py" in south and "men = 12" in south
    assert "twelve men" in BUILTIN_RULE_SETS["laohuqi-south"].description


def test_the_data_file_is_package_data() -> None:
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["doushouqi"]
    assert "tiger/data/*.toml" in globs


@pytest.mark.parametrize("name", list(BUILTIN_RULE_SETS))
def test_mappings_round_trip_through_json(name: str) -> None:
    rules = BUILTIN_RULE_SETS[name]
    mapping = json.loads(json.dumps(rules.to_mapping()))
    assert mapping["name"] == name
    assert rules_from_mapping("ignored", mapping) == rules


def test_every_option_round_trips() -> None:
    rules = RuleSet(
        name="club",
        description="our club's",
        diagonals=Diagonals.ALL,
        men=18,
        tigers=2,
        first=MEN_SIDE,
        men_retreat=False,
        multi_jump=True,
        capture_mandatory=True,
        tiger_wins_below=18,
        max_rounds=60,
    )
    mapping = rules.to_mapping()
    assert mapping == {
        "name": "club",
        "description": "our club's",
        "diagonals": "all",
        "men": 18,
        "tigers": 2,
        "first": "men",
        "men_retreat": False,
        "multi_jump": True,
        "capture_mandatory": True,
        "tiger_wins_below": 18,
        "max_rounds": 60,
    }
    assert rules_from_mapping("x", mapping) == rules


def test_names_any_case() -> None:
    assert rules_by_name(" LAOHUQI-18 ") is BUILTIN_RULE_SETS["laohuqi-18"]


@pytest.mark.parametrize("name", ["", "wango", "laohuqi-19", "/etc/passwd", "laohuqi.toml"])
def test_unknown_names(name: str) -> None:
    with pytest.raises(RulesError, match=r"unknown rule set .* \(known: laohuqi, laohuqi-18"):
        rules_by_name(name)


def test_a_mapping_inherits_from_its_parent() -> None:
    rules = rules_from_mapping("mine", {"parent": "laohuqi-strict", "multi_jump": True})
    assert rules.tiger_wins_below == 9 and rules.multi_jump and rules.name == "mine"
    assert rules.description == ""  # a child's description starts empty
    assert rules_from_mapping("x", {"max_rounds": "none"}).max_rounds is None
    assert rules_from_mapping("x", {"max_rounds": 0}).max_rounds is None


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"diagonals": "some"}, "diagonals: expected 'none', 'nest' or 'all', got 'some'"),
        ({"men": 13}, "men: expected 12 or 18, got 13"),
        ({"men": "12"}, "men: expected a whole number, got '12'"),
        ({"tigers": 3}, "tigers: expected 1 or 2, got 3"),
        ({"first": "red"}, "first: expected 'tiger' or 'men', got 'red'"),
        ({"first": 0}, "first: expected 'tiger' or 'men', got 0"),
        ({"men_retreat": "no"}, "men_retreat: expected true or false, got 'no'"),
        ({"multi_jump": 1}, "multi_jump: expected true or false, got 1"),
        ({"capture_mandatory": None}, "capture_mandatory: expected true or false, got None"),
        (
            {"tiger_wins_below": 13},
            r"tiger_wins_below: expected a whole number from 0 to the men's count \(12\), got 13",
        ),
        ({"tiger_wins_below": -1}, "tiger_wins_below: expected a whole number from 0"),
        ({"tiger_wins_below": True}, "tiger_wins_below: expected a whole number, got True"),
        ({"max_rounds": -5}, f"max_rounds: expected a whole number from 1 to {MAX_ROUNDS}"),
        ({"max_rounds": MAX_ROUNDS + 1}, "max_rounds: expected a whole number from 1"),
        ({"max_rounds": 2.5}, "max_rounds: expected 0/'none' or a whole number, got 2.5"),
        ({"parent": "wango"}, "parent: unknown rule set 'wango'"),
        ({"colour": "red"}, "unknown option 'colour' .known: description, diagonals, men"),
        ({"name": ""}, "name: expected a non-empty text"),
        ({"description": 7}, "description: expected text, got 7"),
    ],
)
def test_bad_options_are_named(mapping: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules_from_mapping("bad", mapping)


def test_every_problem_at_once() -> None:
    with pytest.raises(RulesError) as error:
        rules_from_mapping("bad", {"men": 13, "tigers": 0, "first": "nobody"})
    assert str(error.value).count(";") == 2


def test_a_mapping_must_be_one() -> None:
    with pytest.raises(RulesError, match="a mapping of options, got list"):
        rules_from_mapping("bad", [("men", 12)])  # type: ignore[arg-type]


def test_18_men_allow_a_higher_threshold() -> None:
    assert rules_from_mapping("x", {"men": 18, "tiger_wins_below": 15}).tiger_wins_below == 15
    with pytest.raises(RulesError):
        rules_from_mapping("x", {"men": 12, "tiger_wins_below": 15})


def test_the_dataclass_checks_itself() -> None:
    with pytest.raises(RulesError, match="diagonals: expected a Diagonals value"):
        RuleSet(diagonals="none")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"first: expected 0 \(tiger\) or 1 \(men\), got 2"):
        dataclasses.replace(RuleSet(), first=2)
