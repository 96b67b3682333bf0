"""Tests for doushouqi.core.game's registry, and for core staying below every game."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from doushouqi.core import game as core_game
from doushouqi.core.game import (
    GAMES,
    LANGUAGES,
    Position,
    TimeoutEffect,
    UnknownGameError,
    get_game,
    register,
)

CORE = Path(core_game.__file__).parent


class FakeGame:
    """The smallest object with every member of the Game protocol (none of them used)."""

    def __init__(self, key: str) -> None:
        self.key = key

    rule_set_names = ("only",)
    default_rule_set = "only"
    board_endings = ("done",)
    timeout_effect = TimeoutEffect.LOSS
    pass_move = None

    def name(self, lang: str) -> str:
        return "Fake"

    def seat_name(self, seat: int, lang: str) -> str:
        return f"seat {seat}"

    def ending_name(self, key: str, lang: str) -> str:
        return key

    def parse_rules(self, spec: str | Mapping[str, Any]) -> str:
        return "only"

    def rules_to_mapping(self, rules: str) -> dict[str, Any]:
        return {"name": rules}

    def start_position(self, rules: str) -> str:
        return ""

    def first_seat(self, rules: str) -> int:
        return 0

    def with_first_seat(self, rules: str, seat: int) -> str:
        return rules

    def new_position(self, rules: str, position: str) -> Position:
        raise NotImplementedError


@pytest.fixture
def registry() -> Iterator[dict[str, Any]]:
    """The registry, restored after the test (other tests rely on the installed games)."""
    saved = dict(GAMES)
    yield GAMES
    GAMES.clear()
    GAMES.update(saved)


def test_register_and_get(registry: dict[str, Any]) -> None:
    fake = FakeGame("fake")
    assert register(fake) is fake
    assert get_game("fake") is fake
    assert register(fake) is fake  # the same object again: nothing changes
    assert registry["fake"] is fake


def test_another_game_cannot_take_a_key(registry: dict[str, Any]) -> None:
    register(FakeGame("fake"))
    with pytest.raises(ValueError, match="already registered as 'fake'"):
        register(FakeGame("fake"))


@pytest.mark.parametrize("key", ["", "Jungle", "two words", "1st", "ü"])
def test_keys_are_lower_case_identifiers(registry: dict[str, Any], key: str) -> None:
    with pytest.raises(ValueError, match="a game key is"):
        register(FakeGame(key))
    assert key not in registry


def test_register_refuses_what_is_no_game(registry: dict[str, Any]) -> None:
    with pytest.raises(TypeError, match="does not implement the Game protocol"):
        register(object())  # type: ignore[type-var]


def test_unknown_game_names_the_registered_ones(registry: dict[str, Any]) -> None:
    register(FakeGame("fake"))
    with pytest.raises(UnknownGameError, match=r"unknown game 'chess' \(registered: .*fake"):
        get_game("chess")
    with pytest.raises(LookupError):
        get_game([])  # type: ignore[arg-type]


def test_languages() -> None:
    assert LANGUAGES == ("en", "zh", "zh-Hant")


def _imports(path: Path) -> Iterator[str]:
    # Every import counts, also inside functions and under TYPE_CHECKING.
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            yield node.module or ""


@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_core_imports_only_the_standard_library_and_core(path: Path) -> None:
    # core sits below every game: importing a game (or the server) from here would make an
    # import circle as soon as that game implements core.game.
    for module in _imports(path):
        top = module.split(".")[0]
        if top == "doushouqi":
            assert module.startswith("doushouqi.core."), f"{path.name} imports {module}"
        else:
            assert top in sys.stdlib_module_names or top == "__future__", (path.name, module)
