"""Every public name of the library has a docstring with a runnable example and a place in the
API reference (docs/api/).

**Public** means: a name in ``__all__`` of a public module, and the public methods, properties
and nested classes of such a class (names without a leading underscore, defined in the class
itself). A public module is any module of the package but those of :data:`NOT_PUBLIC` (the
web platform, the command line, the engines' compiled internals …: each with its reason) and
those with a part starting with an underscore. A name re-exported by several modules (the
package's ``doushouqi.Board`` is ``doushouqi.jungle.board.Board``) counts once, where it is
defined.

* **Docstring**: a function's, class's or property's own docstring, or the one it inherits
  from the method it overrides (an implementation of :class:`doushouqi.core.game.Game` says
  what the interface says); a constant's ``#:`` comment on the lines above it (or after it on
  its line), as Sphinx and the API reference (docs/griffe_rst.py) read it.
* **Example**: a ``>>>`` example in that docstring, which pytest's ``--doctest-modules`` runs;
  a constant's example is a doctest of its module that uses it (a comment cannot be run).

Exceptions are explicit: :data:`NO_DOCSTRING` and :data:`NO_EXAMPLE` list kinds of names
that need no docstring of their own or no example, each with why. Names still waiting for
their docstring or example are listed in ``tests/public_api_backlog.txt``: the list may only
shrink (a listed name that has what it lacked, or is gone, must leave the list), and a new
public name is never added to it.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pkgutil
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

import doushouqi

ROOT = Path(__file__).resolve().parents[1]
BACKLOG = ROOT / "tests" / "public_api_backlog.txt"
API_PAGES = ROOT / "docs" / "api"

#: Modules that are not part of the library's API, by name prefix, and why.
NOT_PUBLIC = {
    "doushouqi.server": "the web platform: its API is HTTP (docs/server.md), not Python",
    "doushouqi.cli": "the command line: its API is `doushouqi --help`",
    "doushouqi.compiled": "the numba cache's upkeep, used by the commands",
    "doushouqi.jungle.tui": "the terminal game, a program (`doushouqi play`)",
    "doushouqi.__main__": "`python -m doushouqi`",
    # The engines' packages re-export what a user calls; their submodules are the compiled
    # internals (search, tables, kernels), documented in docs/engine-research.md.
    "doushouqi.jungle.ai.": "the Jungle engine's internals (public: doushouqi.jungle.ai)",
    "doushouqi.tiger.ai.": "the Tiger engine's internals (public: doushouqi.tiger.ai)",
}

#: Names documented elsewhere than in a docstring of their own (fnmatch patterns), and where.
NO_DOCSTRING = {
    "doushouqi.jungle.squares.[A-G][1-9]": "the module's docstring and the comment above them",
}

#: Names that have a docstring but need no example (fnmatch patterns of full names), and why.
NO_EXAMPLE = {
    # Compiled (numba) engine functions work on the engine's int64 arrays; an example would
    # compile the engine inside the doctest run. Their tests are the engine's perft and
    # search suites (tests/jungle/ai, tests/tiger/ai).
    "doushouqi.jungle.ai.movegen.*": "a compiled kernel on the engine's arrays",
    "doushouqi.jungle.ai.state.*": "a compiled kernel on the engine's arrays",
    "doushouqi.jungle.ai.perft.*": "a compiled kernel on the engine's arrays",
    # A client's example starts an engine process; the class's example drives one through
    # every method (one process a method would add seconds each to the doctest run).
    "doushouqi.jungle.engine.blocking.SimpleEngine.*": "the class's example covers it",
    "doushouqi.jungle.engine.blocking.SimpleAnalysis.*": "SimpleEngine's example covers it",
    "doushouqi.jungle.engine.async_client.Engine.*": "the class's example covers it",
    "doushouqi.jungle.engine.analysis_stream.Analysis.*": "the class's example covers it",
    "doushouqi.tiger.engine.client.Engine.*": "the class's example covers it",
    # A match's example plays one (two engine processes, a few seconds): its methods with it.
    "doushouqi.jungle.engine.match.Match.*": "the class's example runs a match",
    "doushouqi.tiger.engine.match.Match.*": "the class's example runs a match",
    "doushouqi.core.match_runner.MatchRunner.*": "the class's example runs a match",
    # The 63 square constants are documented together (one comment above the block) and used
    # by the module's examples as a group.
    "doushouqi.jungle.squares.[A-G][1-9]": "one of the 63 square constants",
}


@dataclass(frozen=True)
class Name:
    """One public name, where it is defined."""

    path: str  # module.qualname
    docstring: str | None
    has_example: bool


def is_public_module(name: str) -> bool:
    if any(part.startswith("_") for part in name.split(".")):
        return False
    return not any(name == p.rstrip(".") or name.startswith(p) for p in NOT_PUBLIC)


#: Public modules that do not import here (an extra that is not installed): their backlog
#: lines are neither checked nor counted as done.
NOT_IMPORTED: set[str] = set()


def public_modules() -> list[ModuleType]:
    """Every public module that imports here (the RL modules need their extras)."""
    names = ["doushouqi"]
    for info in pkgutil.walk_packages(doushouqi.__path__, "doushouqi."):
        if is_public_module(info.name) and not any(
            info.name.startswith(p.rstrip(".")) for p in NOT_PUBLIC
        ):
            names.append(info.name)
    modules = []
    for name in names:
        try:
            modules.append(importlib.import_module(name))
        except ImportError:  # an extra that is not installed (tested where it is)
            NOT_IMPORTED.add(name)
    return modules


@cache
def module_tree(module_name: str) -> ast.Module | None:
    module = sys.modules.get(module_name) or importlib.import_module(module_name)
    try:
        return ast.parse(inspect.getsource(module))
    except (OSError, TypeError):
        return None


def _assigned(node: ast.stmt) -> list[str]:
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    names = []
    for target in targets:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name):
                names.append(sub.id)
    return names


def data_home(module_name: str, name: str, depth: int = 0) -> tuple[str, ast.stmt] | None:
    """The module whose top level assigns ``name`` (following its imports) and the statement."""
    tree = module_tree(module_name)
    if tree is None or depth > 6:
        return None
    for node in tree.body:
        if name in _assigned(node):
            return module_name, node
    package = module_name if hasattr(sys.modules[module_name], "__path__") else None
    package = package or module_name.rpartition(".")[0]
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = node.module or ""
        if node.level:
            base = package.split(".")
            base = base[: len(base) - node.level + 1]
            source = ".".join([*base, source] if source else base)
        if any(alias.name in (name, "*") and (alias.asname or alias.name) in (name, "*")
               for alias in node.names):  # fmt: skip
            found = data_home(source, name, depth + 1)
            if found is not None:
                return found
    return None


def comment_docstring(module_name: str, node: ast.stmt) -> str | None:
    """The ``#:`` comments above an assignment, or the one after it on its first line."""
    module = sys.modules[module_name]
    lines = inspect.getsource(module).splitlines()
    first = lines[node.lineno - 1]
    trailing = re.search(r"\s#:\s?(.*)$", first)
    if trailing:
        return trailing.group(1)
    above = []
    index = node.lineno - 2
    while index >= 0 and (comment := re.match(r"^\s*#:\s?(.*)$", lines[index])):
        above.insert(0, comment.group(1))
        index -= 1
    return "\n".join(above) or None


@cache
def doctest_sources(module_name: str) -> str:
    """The source of every example that ``--doctest-modules`` runs in a module."""
    module = importlib.import_module(module_name)
    finder = doctest.DocTestFinder()
    return "\n".join(e.source for test in finder.find(module) for e in test.examples)


def inherited_doc(cls: type, attribute: str) -> str | None:
    """The docstring of ``cls.attribute``, or of the attribute it overrides in a base class."""
    for klass in cls.__mro__:
        if klass is object or attribute not in vars(klass):
            continue
        value = vars(klass)[attribute]
        value = getattr(value, "__func__", value)
        doc = value.__doc__ if isinstance(value, property) else getattr(value, "__doc__", None)
        if doc:
            return doc
    return None


def _is_documented_member(value: object) -> bool:
    value = getattr(value, "__func__", value)
    return isinstance(value, property) or inspect.isfunction(value) or inspect.isclass(value)


def public_names() -> Iterator[Name]:
    seen: set[str] = set()
    for module in public_modules():
        for attribute in getattr(module, "__all__", []):
            value = getattr(module, attribute)
            target = getattr(value, "py_func", value)  # a numba dispatcher: its function
            if inspect.isclass(target) or inspect.isroutine(target):
                path = f"{target.__module__}.{target.__qualname__}"
                if path in seen:
                    continue
                seen.add(path)
                doc = target.__dict__.get("__doc__") if inspect.isclass(target) else target.__doc__
                yield Name(path, doc, bool(doc and ">>>" in doc))
                if inspect.isclass(target):
                    yield from members(target)
                continue
            found = data_home(module.__name__, attribute)
            if found is None:
                yield Name(f"{module.__name__}.{attribute}", None, False)
                continue
            home, node = found
            path = f"{home}.{attribute}"
            if path in seen:
                continue
            seen.add(path)
            used = re.search(rf"\b{re.escape(attribute)}\b", doctest_sources(home))
            yield Name(path, comment_docstring(home, node), used is not None)


def members(cls: type) -> Iterator[Name]:
    for attribute, value in vars(cls).items():
        if attribute.startswith("_") or not _is_documented_member(value):
            continue
        doc = inherited_doc(cls, attribute)
        yield Name(f"{cls.__module__}.{cls.__qualname__}.{attribute}", doc, ">>>" in (doc or ""))


def read_backlog() -> set[tuple[str, str]]:
    entries = set()
    for line in BACKLOG.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            kind, name = line.split()
            entries.add((kind, name))
    return entries


def missing(names: list[Name]) -> set[tuple[str, str]]:
    """``("docstring", name)`` and ``("example", name)`` for what each name lacks."""
    lacking = set()
    for name in names:
        if not name.docstring and not any(fnmatchcase(name.path, p) for p in NO_DOCSTRING):
            lacking.add(("docstring", name.path))
        if not name.has_example and not any(fnmatchcase(name.path, p) for p in NO_EXAMPLE):
            lacking.add(("example", name.path))
    return lacking


@pytest.fixture(scope="module")
def names() -> list[Name]:
    return list(public_names())


def test_every_public_name_has_a_docstring_and_an_example(names: list[Name]) -> None:
    lacking = missing(names)
    backlog = read_backlog()
    new = sorted(lacking - backlog)
    assert not new, "public names without a docstring or example (write one):\n" + "\n".join(
        f"{kind} {name}" for kind, name in new
    )
    done = sorted(
        (kind, name)
        for kind, name in backlog - lacking
        if not any(name.startswith(f"{module}.") for module in NOT_IMPORTED)
    )
    assert not done, f"remove from {BACKLOG.name} (done, or no longer public):\n" + "\n".join(
        f"{kind} {name}" for kind, name in done
    )


def test_the_count_of_public_names(names: list[Name]) -> None:
    # What the suite counts, as a figure: the backlog's share must keep falling.
    lacking = missing(names)
    with_example = sum(1 for name in names if ("example", name.path) not in lacking)
    print(f"{len(names)} public names; {with_example} with an example or exempt")
    assert len(names) > 500  # the walk found the library (not an empty package)


def test_every_public_module_has_a_page_in_the_api_reference() -> None:
    rendered: set[str] = set()
    for page in API_PAGES.glob("*.md"):
        rendered |= set(re.findall(r"^::: ([\w.]+)", page.read_text(encoding="utf-8"), re.M))
    # A rendered module shows every name of its __all__, re-exports included: a module is on a
    # page when each of its names is shown by some rendered module (the same object).
    shown = {
        (name, id(getattr(module, name)))
        for module in map(importlib.import_module, rendered)
        for name in getattr(module, "__all__", [])
    }
    absent = [
        module.__name__
        for module in public_modules()
        if module.__name__ not in rendered
        and not all((n, id(getattr(module, n))) in shown for n in getattr(module, "__all__", []))
    ]
    assert not absent, f"public modules with no page in docs/api/: {absent}"


# The check itself, on a made-up module: a name without docstring or example is found.


def test_the_check_finds_what_a_name_lacks() -> None:
    names = [
        Name("pkg.documented", "Does it.\n\n>>> 1 + 1\n2\n", True),
        Name("pkg.no_example", "Does it.", False),
        Name("pkg.bare", None, False),
        Name("doushouqi.jungle.squares.C4", "A square.", False),  # exempt from examples
    ]
    assert missing(names) == {
        ("example", "pkg.no_example"),
        ("docstring", "pkg.bare"),
        ("example", "pkg.bare"),
    }
