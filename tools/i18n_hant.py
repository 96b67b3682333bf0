"""Regenerate the Traditional Chinese translations (``zh-Hant``) from the Simplified ones (``zh``).

Every ``static/i18n/zh/<area>.json`` becomes ``static/i18n/zh-Hant/<area>.json``: each string is
converted by OpenCC with the ``s2twp`` configuration, then ``tools/i18n_hant_overrides.json`` is
applied (phrases OpenCC gets wrong for a board game, and whole strings that must be exact, such
as the piece names 鼠 貓 狗 狼 豹 虎 獅 象).

Why ``s2twp``: zh-Hant is read in Taiwan, Hong Kong and Macau. ``s2t`` gives OpenCC's own
character standard (喫, 裏, 着) that no region prints; ``s2hk`` gives Hong Kong forms; ``s2tw``
gives the Taiwan (Ministry of Education) character forms, which Hong Kong and Macau readers read
without effort; ``s2twp`` adds Taiwan's everyday computing words (設定, 登入, 連結, 伺服器, 預設)
instead of mainland ones (设置, 登录, 链接, 服务器, 默认) that read as foreign in all three
regions. Taiwan is by far the largest of the three audiences, so its forms are the default.

Run it after changing any zh file::

    .venv/bin/python tools/i18n_hant.py          # write static/i18n/zh-Hant/*.json
    .venv/bin/python tools/i18n_hant.py --check  # exit 1 if any zh-Hant file is out of date

The zh-Hant files are generated: edit zh (or the overrides), never zh-Hant by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import opencc

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "src" / "doushouqi" / "server" / "static" / "i18n"
OVERRIDES = Path(__file__).resolve().parent / "i18n_hant_overrides.json"
CONFIG = "s2twp"


class Converter:
    """Simplified → Traditional for this site: OpenCC, then the overrides."""

    def __init__(self, overrides: dict[str, dict[str, str]]) -> None:
        self._opencc = opencc.OpenCC(CONFIG)
        phrases = overrides.get("phrases", {})
        # Longest first, so a long phrase wins over a short one inside it.
        self._phrases = sorted(phrases.items(), key=lambda item: -len(item[0]))
        self.keys: dict[str, str] = dict(overrides.get("keys", {}))

    def text(self, simplified: str) -> str:
        converted: str = self._opencc.convert(simplified)
        for wrong, right in self._phrases:
            converted = converted.replace(wrong, right)
        return converted

    def area(self, table: dict[str, str]) -> dict[str, str]:
        return {key: self.keys.get(key) or self.text(value) for key, value in table.items()}


def render(table: dict[str, str]) -> str:
    """The file text, formatted like the hand-written zh and en files."""
    return json.dumps(table, ensure_ascii=False, indent=1) + "\n"


def expected_files(i18n: Path, converter: Converter) -> dict[str, str]:
    """``{file name: text}`` of every zh-Hant file, generated from the zh files."""
    files: dict[str, str] = {}
    for source in sorted((i18n / "zh").glob("*.json")):
        table = json.loads(source.read_text(encoding="utf-8"))
        files[source.name] = render(converter.area(table))
    return files


def unknown_override_keys(i18n: Path, converter: Converter) -> list[str]:
    known: set[str] = set()
    for source in (i18n / "zh").glob("*.json"):
        known.update(json.loads(source.read_text(encoding="utf-8")))
    return sorted(set(converter.keys) - known)


def stale_files(i18n: Path, expected: dict[str, str]) -> list[str]:
    """Names of zh-Hant files that differ from what would be generated, are missing or extra."""
    target = i18n / "zh-Hant"
    present = {path.name for path in target.glob("*.json")} if target.is_dir() else set()
    stale = sorted(present - expected.keys())
    for name, text in expected.items():
        path = target / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    return sorted(stale)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if zh-Hant is out of date"
    )
    parser.add_argument("--i18n", type=Path, default=I18N, help="the static/i18n folder")
    args = parser.parse_args(argv)
    i18n: Path = args.i18n
    converter = Converter(json.loads(OVERRIDES.read_text(encoding="utf-8")))
    # A pinned key that zh no longer has is a renamed key: the pin must follow it. (Only for the
    # site's own files; a test's scratch folder holds a few keys.)
    unknown = unknown_override_keys(i18n, converter) if i18n == I18N else []
    if unknown:
        print(f"{OVERRIDES.name}: keys not in any zh file: {', '.join(unknown)}", file=sys.stderr)
        return 1
    expected = expected_files(i18n, converter)
    stale = stale_files(i18n, expected)
    if args.check:
        if stale:
            print(
                "zh-Hant is out of date (" + ", ".join(stale) + "): run "
                "`.venv/bin/python tools/i18n_hant.py`",
                file=sys.stderr,
            )
            return 1
        return 0
    target = i18n / "zh-Hant"
    target.mkdir(exist_ok=True)
    for name in stale:
        path = target / name
        if name in expected:
            path.write_text(expected[name], encoding="utf-8")
        else:
            path.unlink()
        print(f"zh-Hant/{name}: {'written' if name in expected else 'removed'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
