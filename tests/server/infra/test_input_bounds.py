"""Every number a request may carry is bounded at validation (``infra/bounds.py``): a JSON
number past 64 bits is a 422 naming the field, never a 500 from the database driver."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.support.live import LiveServer

from doushouqi.server.app import create_app
from doushouqi.server.infra.settings import Settings
from doushouqi.server.live.ws import Message

Schema = dict[str, Any]
TOO_BIG = 2**63  # one past SQLite's largest integer


def unbounded(schema: Schema, where: str, definitions: dict[str, Schema]) -> list[str]:
    """The integer and number fields under ``schema`` that lack a lower or an upper bound (an
    enum is bounded), named by where they are."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return unbounded(definitions[name], f"{where}:{name}", definitions)
    found = []
    if schema.get("type") in ("integer", "number") and "enum" not in schema:
        low = "minimum" in schema or "exclusiveMinimum" in schema
        high = "maximum" in schema or "exclusiveMaximum" in schema
        if not (low and high):
            found.append(where)
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for part in schema.get(key, []):
            found += unbounded(part, where, definitions)
    if isinstance(schema.get("items"), dict):
        found += unbounded(schema["items"], f"{where}[]", definitions)
    for name, part in schema.get("properties", {}).items():
        found += unbounded(part, f"{where}.{name}", definitions)
    if isinstance(schema.get("additionalProperties"), dict):
        found += unbounded(schema["additionalProperties"], f"{where}{{}}", definitions)
    return found


def test_every_number_of_every_http_request_is_bounded(tmp_path: Path) -> None:
    document = create_app(Settings(data_dir=tmp_path)).openapi()
    definitions = document["components"]["schemas"]
    found, numbers = [], 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            name = f"{method.upper()} {path}"
            for parameter in operation.get("parameters", []):
                where = f"{name} ?{parameter['name']}"
                found += unbounded(parameter["schema"], where, definitions)
                numbers += "integer" in str(parameter["schema"])
            for content in operation.get("requestBody", {}).get("content", {}).values():
                found += unbounded(content.get("schema", {}), f"{name} body", definitions)
    assert numbers >= 5  # the walk sees the parameters it is meant to check
    assert not found, found


def all_subclasses(cls: type[Message]) -> list[type[Message]]:
    return [c for sub in cls.__subclasses__() for c in (sub, *all_subclasses(sub))]


def test_every_number_of_every_websocket_message_is_bounded() -> None:
    models = all_subclasses(Message)
    assert len(models) >= 4
    for model in models:
        schema = model.model_json_schema()
        assert not unbounded(schema, model.__name__, schema.get("$defs", {})), model


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/notifications/read", {"ids": [TOO_BIG]}),
        ("POST", "/api/notifications/read", {"ids": [-TOO_BIG]}),
        ("GET", f"/api/games/abc/events?since={TOO_BIG}", None),
        ("GET", f"/api/players/nobody/games?offset={TOO_BIG}", None),
        ("POST", "/api/review", {"scores": [TOO_BIG, 0]}),
    ],
)
def test_a_number_past_64_bits_is_a_422(
    server: LiveServer, method: str, path: str, body: dict[str, Any] | None
) -> None:
    client = server.player().guest()
    answer = client.request(method, path, json=body)
    assert answer.status_code == 422, answer.text


def test_marking_real_notifications_read_still_works(server: LiveServer) -> None:
    client = server.player().guest()
    answer = client.post("/api/notifications/read", json={"ids": [1, 2**62]})
    assert answer.status_code == 200 and answer.json() == {"unread": 0}
