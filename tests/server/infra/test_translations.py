"""The translation tables: area files merged per language, served at /i18n/<lang>.json."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.live import LiveServer

from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.infra.translations import LANGS, TranslationError, load_table

ROOT = Path(__file__).resolve().parents[3]


def write(root: Path, lang: str, area: str, table: object) -> None:
    folder = root / "i18n" / lang
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{area}.json").write_text(json.dumps(table), encoding="utf-8")


def test_areas_are_merged(tmp_path: Path) -> None:
    write(tmp_path, "en", "site", {"a": "A"})
    write(tmp_path, "en", "chat", {"b": "B"})
    assert load_table(tmp_path, "en") == {"a": "A", "b": "B"}


def test_a_key_in_two_areas_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "en", "site", {"a": "A"})
    write(tmp_path, "en", "chat", {"a": "again"})
    with pytest.raises(TranslationError, match=re.escape("'a' is already in chat.json")):
        load_table(tmp_path, "en")


def test_a_file_that_is_not_an_object_of_strings_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "en", "site", {"a": 1})
    with pytest.raises(TranslationError, match="object of strings"):
        load_table(tmp_path, "en")


def test_every_language_has_every_key() -> None:
    tables = {lang: load_table(STATIC_DIR, lang) for lang in LANGS}
    assert tables["en"], "no English strings found"
    for lang in LANGS:
        assert tables[lang].keys() == tables["en"].keys(), lang


def test_traditional_chinese_is_generated_from_simplified() -> None:
    """zh-Hant is tools/i18n_hant.py's output for today's zh files (run it after editing zh)."""
    check = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "i18n_hant.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr


def test_the_traditional_check_notices_a_stale_file(tmp_path: Path) -> None:
    write(tmp_path, "zh", "site", {"animal.lion": "狮", "x": "设置"})
    tool = [sys.executable, str(ROOT / "tools" / "i18n_hant.py"), "--i18n", str(tmp_path / "i18n")]
    assert subprocess.run([*tool, "--check"], capture_output=True, check=False).returncode == 1
    assert subprocess.run(tool, capture_output=True, check=False).returncode == 0
    written = json.loads((tmp_path / "i18n" / "zh-Hant" / "site.json").read_text(encoding="utf-8"))
    assert written == {"animal.lion": "獅", "x": "設定"}
    assert subprocess.run([*tool, "--check"], capture_output=True, check=False).returncode == 0


def test_served_merged_and_unknown_languages_are_404(server: LiveServer) -> None:
    client = server.player()
    answer = client.get("/i18n/en.json")
    assert answer.status_code == 200
    assert answer.json() == load_table(STATIC_DIR, "en")
    assert client.get("/i18n/xx.json").status_code == 404
