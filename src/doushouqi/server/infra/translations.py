"""The web client's translations: one table per language, kept as one file per area of the site.

``static/i18n/<lang>/<area>.json`` holds the strings of one area (``site``, ``chat``, …), the way
lichess keeps a translation file per area: each feature brings its own file, and translators see
what belongs together. The client asks for ``/i18n/<lang>.json`` and gets every area merged.
A key in two areas of one language is a mistake and is refused at start-up, not served.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

__all__ = ["LANGS", "TranslationError", "check_tables", "load_table", "router"]

#: The languages of the web client: Simplified Chinese, Traditional Chinese, English.
LANGS = ("zh", "zh-Hant", "en")

router = APIRouter(tags=["translations"])


class TranslationError(ValueError):
    """A translation file is broken (not a JSON object of strings, or a key defined twice)."""


def load_table(static_dir: Path, lang: str) -> dict[str, str]:
    """Every string of ``lang``, merged from its area files (in name order)."""
    table: dict[str, str] = {}
    where: dict[str, str] = {}
    for path in sorted((static_dir / "i18n" / lang).glob("*.json")):
        area: Any = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(area, dict) or not all(isinstance(v, str) for v in area.values()):
            raise TranslationError(f"{path}: expected a JSON object of strings")
        for key in area.keys() & table.keys():
            raise TranslationError(f"{path}: key {key!r} is already in {where[key]}")
        table.update(area)
        where.update(dict.fromkeys(area, path.name))
    return table


def check_tables(static_dir: Path) -> None:
    """Raise :class:`TranslationError` if any language's files are broken (at start-up)."""
    for lang in LANGS:
        load_table(static_dir, lang)


@cache
def _served(static_dir: Path, lang: str) -> bytes:
    return json.dumps(load_table(static_dir, lang), ensure_ascii=False).encode()


@router.get("/i18n/{lang}.json", include_in_schema=False)
async def translation_table(lang: str, request: Request) -> Response:
    static_dir: Path = request.app.state.static_dir
    if lang not in LANGS or not (static_dir / "i18n" / lang).is_dir():
        raise HTTPException(404, f"no such language; known: {', '.join(LANGS)}")
    body = _served(static_dir, lang)
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})
