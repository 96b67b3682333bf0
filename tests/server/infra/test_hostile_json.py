"""Hostile JSON never breaks the server: arbitrary JSON trees up to the size limit (deep
nesting, any Unicode, lone surrogates included) sent over a game's websocket, to the REST
command endpoint and to every JSON endpoint get a clear error. Never a 5xx, never a dead
connection, and the game is unchanged."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.live import (
    GameSocket,
    LiveServer,
    Player,
    make_settings,
    move,
    running,
    start_online,
)

from doushouqi.server.infra.json_input import MAX_DEPTH, BadJsonError, parse_json

LIMIT = 4096  # Settings.max_message_bytes
#: Every character, the lone surrogates (category Cs) included.
ANY_CHARACTER = st.characters(exclude_categories=())
ANY_TEXT = st.text(ANY_CHARACTER, max_size=40)
LONE_SURROGATE = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)

json_trees = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | ANY_TEXT,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(ANY_TEXT, children, max_size=4)
    ),
    max_leaves=20,
)


@st.composite
def deep_nesting(draw: st.DrawFn) -> str:
    """``[[[…]]]`` or ``{"a":{"a":…}}`` as deep as fits the limit, alone or inside a field."""
    depth = draw(st.integers(min_value=MAX_DEPTH, max_value=LIMIT // 2 - 20))
    if draw(st.booleans()):
        value = "[" * depth + "]" * depth
    else:
        depth = min(depth, (LIMIT - 40) // 6)
        value = '{"a":' * depth + "1" + "}" * depth
    field = draw(st.sampled_from([None, "move", "id", "version", "color"]))
    if field is None:
        return value
    return f'{{"type":"move","{field}":{value}}}'


@st.composite
def hostile_fields(draw: st.DrawFn) -> str:
    """A well-formed message whose echoed fields hold text that is not valid Unicode."""
    bad = draw(ANY_TEXT) + draw(LONE_SURROGATE) + draw(ANY_TEXT)
    message: dict[str, Any] = {"type": "move", "move": bad[:16], "id": bad[:64]}
    message[draw(st.sampled_from(["move", "id"]))] = draw(st.sampled_from([bad, 12, None]))
    if draw(st.booleans()):
        message = {"type": draw(st.sampled_from(["sync", "ping", "resign"])), "id": bad}
        message[bad] = 1  # a key that cannot be encoded either
    return json.dumps(message)  # ensure_ascii: the surrogates travel as \\ud800 escapes


hostile_messages = (
    json_trees.map(json.dumps) | deep_nesting() | hostile_fields() | st.text(ANY_CHARACTER)
).filter(lambda text: len(text.encode("utf-8", "surrogatepass")) <= LIMIT)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with running(make_settings(tmp_path_factory.mktemp("hostile"))) as server:
        yield server


@pytest.fixture(scope="module")
def game(live: LiveServer) -> Iterator[tuple[str, Player, GameSocket, GameSocket]]:
    red, blue = live.player().guest(), live.player().guest()
    game_id, red_ws, blue_ws = start_online(live, red, blue)
    move(red_ws, "a3a4")
    yield game_id, red, red_ws, blue_ws
    red_ws.close()
    blue_ws.close()


@pytest.fixture(scope="module")
def watcher(live: LiveServer) -> Player:
    return live.player()


def version(watcher: Player, game_id: str) -> int:
    return int(watcher.get(f"/api/games/{game_id}").json()["version"])


def as_frame(text: str) -> str | bytes:
    # A text frame must be UTF-8, so lone surrogates can only come as JSON escapes or bytes.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")
    return text


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=hostile_messages)
def test_the_websocket_answers_every_hostile_message_and_stays_usable(
    watcher: Player, game: tuple[str, Player, GameSocket, GameSocket], raw: str
) -> None:
    game_id, _, red_ws, _ = game
    before = version(watcher, game_id)
    red_ws.drain(quiet=0.01)
    red_ws.ws.send(as_frame(raw))
    red_ws.send({"type": "ping", "id": "after"})
    replies = []
    while not replies or replies[-1].get("id") != "after":
        replies.append(red_ws.recv(timeout=10))
    assert replies[-1]["type"] == "pong", replies
    for reply in replies[:-1]:
        assert reply["type"] in ("error", "rejected", "pong", "ack"), reply
    assert version(watcher, game_id) == before


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=hostile_messages, content_type=st.sampled_from(["application/json", "text/plain"]))
def test_the_command_endpoint_answers_every_hostile_body_with_a_4xx(
    watcher: Player,
    game: tuple[str, Player, GameSocket, GameSocket],
    raw: str,
    content_type: str,
) -> None:
    game_id, red, _, _ = game
    before = version(watcher, game_id)
    response = red.post(
        f"/api/games/{game_id}/commands",
        content=raw.encode("utf-8", "surrogatepass"),
        headers={"Content-Type": content_type},
    )
    assert 400 <= response.status_code < 500, response.text
    assert response.json()  # a readable JSON error
    assert version(watcher, game_id) == before


JSON_ENDPOINTS = [
    ("POST", "/api/games"),
    ("POST", "/api/auth/register"),
    ("POST", "/api/auth/login"),
    ("POST", "/api/auth/tokens"),
    ("POST", "/api/position"),
    ("POST", "/api/analysis"),
    ("POST", "/api/records"),
    ("PATCH", "/api/account"),
]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=hostile_messages.filter(lambda text: not text.startswith("{")))
def test_json_endpoints_never_answer_a_hostile_body_with_a_5xx(live: LiveServer, raw: str) -> None:
    # Objects are left out: an arbitrary object can be a valid request (an empty one creates a
    # game), and what those do is tested elsewhere; here only the parsing is under attack.
    player = live.player().guest()
    for method, path in JSON_ENDPOINTS:
        response = player.request(
            method,
            path,
            content=raw.encode("utf-8", "surrogatepass"),
            headers={"Content-Type": "application/json"},
        )
        assert 400 <= response.status_code < 500, (path, response.text)


def test_a_lone_surrogate_in_a_display_name_is_refused_and_nothing_is_stored(
    live: LiveServer,
) -> None:
    player = live.player()
    body = '{"username": "surrogate", "password": "long enough", "display_name": "x\\ud800"}'
    response = player.post(
        "/api/auth/register", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert "surrogate" in response.json()["detail"]
    assert live.player().get("/api/players/surrogate").status_code == 404


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("[" * 1900 + "]" * 1900, "nested deeper"),
        ('{"id": "\\udc00"}', "surrogate"),
        ('{"\\ud83d": 1}', "surrogate"),
        (b'"\xed\xa0\x80"', "surrogate"),  # bytes decode with surrogatepass
        ("[1, 2", "not JSON"),
    ],
)
def test_parse_json_refuses_with_a_reason(raw: str | bytes, reason: str) -> None:
    with pytest.raises(BadJsonError, match=reason):
        parse_json(raw)


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "move", "move": "a3a4", "id": "m1"}',
        "[NaN, Infinity, -Infinity]",  # the standard parser's, not orjson's: the careful path
        '{"n": 123456789012345678901234567890}',  # past 64 bits: the careful path too
        '{"a": 1, "a": 2}',  # the last one wins in both
        '"\\ud83e\\udd81"',  # an escaped pair is one character, not a surrogate
    ],
)
def test_parse_json_reads_what_the_standard_parser_reads(raw: str) -> None:
    # Text goes to orjson first, the rest to the careful path: the result must not change.
    assert repr(parse_json(raw)) == repr(json.loads(raw))


@settings(max_examples=200, deadline=None)
@given(json_trees)
def test_parse_json_of_any_tree_is_the_tree(tree: Any) -> None:
    text = json.dumps(tree, ensure_ascii=False)
    try:
        parsed = parse_json(text)
    except BadJsonError as exc:
        assert "surrogate" in str(exc)  # the only thing it may refuse in such a tree
        return
    assert parsed == tree


def test_parse_json_keeps_what_is_fine() -> None:
    nested: Any = 1
    for _ in range(MAX_DEPTH - 1):
        nested = [nested]
    assert parse_json(json.dumps({"a": nested, "狮": "\U0001f981"}))["狮"] == "\U0001f981"
    with pytest.raises(BadJsonError):
        parse_json(json.dumps({"a": [nested]}))


def test_a_deeply_nested_command_keeps_the_socket_and_changes_nothing(tmp_path: Path) -> None:
    with running(make_settings(tmp_path)) as server:
        red, blue = server.player().guest(), server.player().guest()
        game_id, red_ws, _ = start_online(server, red, blue)
        before = version(server.player(), game_id)
        red_ws.ws.send("[" * 1900 + "]" * 1900)
        assert red_ws.wait_for("error")["code"] == "bad_json"
        red_ws.send({"type": "move", "move": "a3a4", "id": "fine"})
        assert red_ws.wait_for("move_made")["version"] == before + 1
