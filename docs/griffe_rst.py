"""A Griffe extension for the API reference: the docstrings' reStructuredText bits in Markdown.

mkdocs.yml loads it into mkdocstrings' Python handler; it is not a page. The docstrings of the
library are plain prose with two habits of reStructuredText that Markdown would misread:

* doctest examples (``>>> board.fen()`` and the lines after it, up to a blank line) would be
  quotes, their ``[...]`` output links; they become ``pycon`` code blocks;
* roles (``:class:`Board```, ``:meth:`~Board.push```, ``:mod:`.encoding```) would show their
  markup; they become code, linked to the object where the reference documents it (a name the
  site does not document stays plain code, with no warning);
* an attribute is documented, as Sphinx reads it, by ``#:`` comments on the lines above it (or
  after it on its line); Griffe reads only a string below it, so the comments become its
  docstring.

The docstrings themselves are left as they are in the source.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):`(?P<target>[^`]+)`")
_PROMPT = re.compile(r"^(?P<indent>[ \t]*)>>>(?: |$)")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_LEADING = re.compile(r"^[ \t]*#: ?(.*)$")
_TRAILING = re.compile(r"\S.*?[ \t]#: ?(.*)$")


def fence_doctests(text: str) -> str:
    """Wrap each doctest example (prompt lines and their output) in a ``pycon`` fence."""
    out: list[str] = []
    lines = text.splitlines()
    in_fence = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if _FENCE.match(line):
            in_fence = not in_fence
        prompt = None if in_fence else _PROMPT.match(line)
        if prompt is None:
            out.append(line)
            index += 1
            continue
        indent = prompt.group("indent")
        if out and out[-1].strip():
            out.append("")  # a fence right after a paragraph line would join the paragraph
        out.append(f"{indent}```pycon")
        while index < len(lines) and lines[index].strip():
            out.append(lines[index])
            index += 1
        out.append(f"{indent}```")
    return "\n".join(out)


def _identifier(obj: griffe.Object, target: str) -> str:
    """The full path of a role's target, seen from ``obj``, or the target itself."""
    if target.startswith("."):
        module = obj.module
        base = module.path if module.is_init_module else module.path.rpartition(".")[0]
        path = f"{base}.{target.lstrip('.')}"
    else:
        first, _, rest = target.partition(".")
        try:
            resolved = obj.resolve(first)
        except Exception:  # not a name seen from here: a full path, or kept as written
            return _canonical(obj, target)
        path = f"{resolved}.{rest}" if rest else resolved
    return _canonical(obj, path)


def _canonical(obj: griffe.Object, path: str) -> str:
    """Where the object at ``path`` is defined: ``doushouqi.Board`` is ``doushouqi.jungle.board.Board``."""
    for _ in range(8):  # an alias of an alias …, each step one import followed
        parts = path.split(".")
        for known in range(len(parts), 0, -1):  # the longest prefix Griffe knows, then the rest
            try:
                found = obj.modules_collection[".".join(parts[:known])]
            except Exception:  # not loaded (another package)
                continue
            # Aliases are not resolved yet when the package has just been loaded: follow one.
            home = found.target_path if found.is_alias else found.path
            moved = ".".join([home, *parts[known:]])
            break
        else:
            return path
        if moved == path:
            return path
        path = moved
    return path


def sphinx_comment(attribute: griffe.Object) -> str | None:
    """The ``#:`` comments documenting an attribute, as text, or ``None``."""
    try:
        lines = attribute.lines_collection[attribute.filepath]  # type: ignore[index]
    except Exception:
        return None
    if attribute.lineno is None:
        return None
    index = attribute.lineno - 1  # the first line of the assignment
    same_line = _TRAILING.search(lines[index]) if index < len(lines) else None
    if same_line:
        return same_line.group(1).strip()
    above: list[str] = []
    index -= 1
    while index >= 0 and (comment := _LEADING.match(lines[index])):
        above.insert(0, comment.group(1))
        index -= 1
    return "\n".join(above).strip() or None


def roles_to_code(obj: griffe.Object, text: str) -> str:
    """Replace each role by its target as code, an optional cross-reference to it."""

    def replace(match: re.Match[str]) -> str:
        target = match.group("target").strip()
        shown = target
        if target.startswith("~"):
            target = target[1:]
            shown = target.rpartition(".")[2]
        elif target.startswith("."):
            shown = target.lstrip(".")
        identifier = _identifier(obj, target)
        return f'<autoref identifier="{identifier}" optional><code>{shown}</code></autoref>'

    return _ROLE.sub(replace, text)


class ReStructuredTextBits(griffe.Extension):
    """Rewrites every docstring of a package once it is loaded (names then resolve)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._rewrite(pkg, seen=set())

    def _rewrite(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        if obj.is_attribute and obj.docstring is None and (comment := sphinx_comment(obj)):
            obj.docstring = griffe.Docstring(comment, parent=obj)
        if obj.docstring is not None:
            obj.docstring.value = roles_to_code(obj, fence_doctests(obj.docstring.value))
        for member in obj.members.values():
            if not member.is_alias:
                self._rewrite(member, seen)  # type: ignore[arg-type]
