"""The read-only rule set endpoints: every named rule set's options."""

from __future__ import annotations

from tests.support.live import LiveServer

from doushouqi.jungle.rules import BUILTIN_RULE_SETS


def test_rule_sets_are_listed_with_their_options(server: LiveServer) -> None:
    client = server.player()
    listed = client.get("/api/rules")
    assert listed.status_code == 200
    sets = listed.json()["rule_sets"]
    assert [s["name"] for s in sets] == list(BUILTIN_RULE_SETS)
    assert sets[0]["name"] == "wango"
    for entry in sets:
        assert entry == BUILTIN_RULE_SETS[entry["name"]].to_mapping()


def test_one_rule_set(server: LiveServer) -> None:
    client = server.player()
    classic = client.get("/api/rules/classic").json()
    assert classic["rule_7_3"] is True
    assert classic["repetition"] == "initiator_must_vary"
    assert client.get("/api/rules/International").json()["trapped_can_capture"] is True
    assert client.get("/api/rules/chess").status_code == 404
