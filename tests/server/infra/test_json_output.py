"""The JSON written with every move (orjson): the same text the standard library wrote for the
messages the server sends, valid JSON where it was not, and our own JSON read back."""

from __future__ import annotations

import json
import math

from tests.support.helpers import RED_ID, T0, ok, online_game

from doushouqi.server.domain import Move
from doushouqi.server.infra.json_output import dumps, dumps_bytes, loads


def _stdlib(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_a_moves_events_are_written_as_before() -> None:
    game = online_game(time_control="5+2")
    _, events = ok(game, Move(actor=RED_ID, move="a3a4", move_id="m1"), T0 + 3.25)
    for event in events:
        data = event.to_dict()
        assert dumps(data) == _stdlib(data)
        assert loads(dumps_bytes(data)) == data


def test_text_is_utf8_not_escaped() -> None:
    assert dumps({"readable_zh": "象 a3-a4"}) == '{"readable_zh":"象 a3-a4"}'
    assert dumps_bytes({"m": "吃"}) == '{"m":"吃"}'.encode()


def test_non_finite_floats_are_null_and_integer_keys_strings() -> None:
    # The standard library wrote NaN / Infinity, which JSON.parse in a browser refuses.
    assert dumps({"t": math.inf, "u": math.nan}) == '{"t":null,"u":null}'
    assert dumps({1: "a"}) == _stdlib({1: "a"}) == '{"1":"a"}'
