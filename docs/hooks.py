"""MkDocs hooks of the documentation site (mkdocs.yml names this file; it is not a page).

* The home page, docs/index.md, is the README: its line ``README.md`` is replaced by that file;
  so are the changelog's and the contributors' guide's pages (``INCLUDES``).
* Links are written for reading the files on GitHub, relative to the file they are in (the
  README's ``docs/rules.md``, deploy.md's ``../deploy/nginx.conf``). A link to a page of the site
  is made relative to that page; a link to any other file of the repository points at the file
  in the repository (``repo_url``).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

#: A markdown link's target that is a path: not a URL, an anchor or a site-absolute path.
_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:|#|/)(?P<path>[^)\s#]+)(?P<anchor>#[^)\s]*)?\)")
_FENCED = re.compile(r"(^[ \t]*```.*?^[ \t]*```[ \t]*$)", re.MULTILINE | re.DOTALL)
#: Pages made of a file at the repository's root, which takes the place of its name's line.
INCLUDES = {
    "index.md": "README.md",
    "changelog.md": "CHANGELOG.md",
    "contributing.md": "CONTRIBUTING.md",
}


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Put the included files in place; point links outside the docs at the repository."""
    root = Path(config.config_file_path).parent
    docs = Path(config.docs_dir).relative_to(root).as_posix()
    source = f"{docs}/{page.file.src_uri}"  # where the markdown is read on GitHub
    included = INCLUDES.get(page.file.src_uri)
    if included is not None:
        text = (root / included).read_text(encoding="utf-8")
        line = re.compile(rf"^{re.escape(included)}$", re.MULTILINE)
        markdown = line.sub(lambda _: text, markdown, count=1)
        source = included
    repo_url = (config.repo_url or "").rstrip("/")

    def rewrite(match: re.Match[str]) -> str:
        anchor = match.group("anchor") or ""
        target = posixpath.normpath(posixpath.join(posixpath.dirname(source), match["path"]))
        if target == docs or target.startswith(f"{docs}/"):
            here = posixpath.dirname(f"{docs}/{page.file.src_uri}")
            return f"]({posixpath.relpath(target, here)}{anchor})"
        return f"]({repo_url}/blob/main/{target}{anchor})"

    # Fenced code blocks (odd parts) are left alone: ``f(x)[0](y)`` is no link.
    parts = _FENCED.split(markdown)
    return "".join(part if i % 2 else _LINK.sub(rewrite, part) for i, part in enumerate(parts))
