"""MkDocs hooks of the documentation site (mkdocs.yml names this file; it is not a page).

* The home page, docs/index.md, is the README: its line ``README.md`` is replaced by that file.
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
_PLACEHOLDER = re.compile(r"^README\.md$", re.MULTILINE)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Put the README on the home page; point links outside the docs at the repository."""
    root = Path(config.config_file_path).parent
    docs = Path(config.docs_dir).relative_to(root).as_posix()
    source = f"{docs}/{page.file.src_uri}"  # where the markdown is read on GitHub
    if page.file.src_uri == "index.md":
        readme = (root / "README.md").read_text(encoding="utf-8")
        markdown = _PLACEHOLDER.sub(lambda _: readme, markdown, count=1)
        source = "README.md"
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
