"""Rule options from untrusted input (web forms, JSON): a clear error, never a crash."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from doushouqi.jungle.rules import BUILTIN_RULE_SETS, InvalidRulesError, RuleSet, rules_from_mapping

OPTION_NAMES = [k for k in BUILTIN_RULE_SETS["wango"].to_mapping() if k != "name"] + ["parent"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=5,
)


@given(st.dictionaries(st.sampled_from(OPTION_NAMES) | st.text(max_size=6), JSON_VALUES))
def test_any_json_options_give_a_rule_set_or_a_clear_error(options: dict[str, Any]) -> None:
    try:
        rules = rules_from_mapping("custom", options)
    except InvalidRulesError as error:
        assert str(error)
    else:
        assert isinstance(rules, RuleSet)


def test_every_bad_key_is_named_at_once() -> None:
    try:
        rules_from_mapping("x", {"first_player": [], "ranks": {}, "tempo": 1})
    except InvalidRulesError as error:
        message = str(error)
    else:
        raise AssertionError("bad options were accepted")
    assert "first_player" in message and "ranks" in message and "tempo" in message


def test_the_no_capture_limit_fits_the_halfmove_clock() -> None:
    from doushouqi.jungle.fen import MAX_HALFMOVE_CLOCK
    from doushouqi.jungle.rules import MAX_NO_CAPTURE_DRAW_ROUNDS

    assert 2 * MAX_NO_CAPTURE_DRAW_ROUNDS <= MAX_HALFMOVE_CLOCK
    longest = RuleSet(no_capture_draw_rounds=MAX_NO_CAPTURE_DRAW_ROUNDS)
    assert longest.no_capture_draw_rounds == 4999
    for too_long in (MAX_NO_CAPTURE_DRAW_ROUNDS + 1, 2**63):
        try:
            RuleSet(no_capture_draw_rounds=too_long)
        except InvalidRulesError as error:
            assert "from 1 to 4999" in str(error)
        else:
            raise AssertionError(f"{too_long} rounds were accepted")
        try:
            rules_from_mapping("long", {"no_capture_draw_rounds": too_long})
        except InvalidRulesError as error:
            assert "from 1 to 4999" in str(error)
        else:
            raise AssertionError(f"{too_long} rounds were accepted from a mapping")
