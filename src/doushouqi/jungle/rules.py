"""Rule sets: one frozen dataclass field per rule option of docs/rules.md section 6.

Named rule sets are data (``data/rulesets.toml``), each listing only its differences from a
parent, like Fairy-Stockfish variants. Users can load their own rule file of the same shape.

>>> find_rules("classic").rule_7_3
True
>>> find_rules("international").trapped_can_capture
True
>>> RuleSet().name
'wango'
"""

from __future__ import annotations

import dataclasses
import enum
import os
import pkgutil
import tomllib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pathlib (and urllib.parse with it) is imported when a rule file is read
    from pathlib import Path

__all__ = [
    "BUILTIN_RULE_SETS",
    "MAX_NO_CAPTURE_DRAW_ROUNDS",
    "InvalidRulesError",
    "Ranks",
    "Repetition",
    "RuleSet",
    "check_rules_file",
    "find_rules",
    "load_rules_file",
    "rules_from_mapping",
]


class InvalidRulesError(ValueError):
    """A rule set or rule file is malformed; the message names every bad key."""


class Ranks(enum.Enum):
    """Relative rank of wolf and dog (the only rank difference between rule texts)."""

    WOLF_OVER_DOG = "wolf>dog"
    DOG_OVER_WOLF = "dog>wolf"


class Repetition(enum.Enum):
    """What happens when a position stands for the third time."""

    THREEFOLD_DRAW = "threefold_draw"
    INITIATOR_MUST_VARY = "initiator_must_vary"


_COLORS = {"red": 0, "blue": 1}

#: The longest no-capture limit: its plies (two a round) must fit the position string's
#: halfmove clock (at most 9999, :data:`doushouqi.jungle.fen.MAX_HALFMOVE_CLOCK`), and the engine's
#: counters.
MAX_NO_CAPTURE_DRAW_ROUNDS = 4999


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """Every rule option of docs/rules.md section 6; the defaults are the WANGO rule set."""

    name: str = "wango"
    description: str = ""
    ranks: Ranks = Ranks.WOLF_OVER_DOG
    own_rat_blocks_jump: bool = True
    rat_captures_across_water: bool = False
    trapped_can_capture: bool = False
    repetition: Repetition = Repetition.THREEFOLD_DRAW
    #: Draw after this many rounds (one move of each side) without a capture; None: no limit.
    no_capture_draw_rounds: int | None = None
    rule_7_3: bool = False
    rule_17_5: bool = False
    #: 0 = Red moves first, 1 = Blue moves first.
    first_player: int = 0
    #: Display only: call the wolf "wolf" (狼) or "fox" (狐).
    wolf_name: str = "wolf"

    def __post_init__(self) -> None:
        problems = []
        if not isinstance(self.ranks, Ranks):
            problems.append(f"ranks: expected a Ranks value, got {self.ranks!r}")
        if not isinstance(self.repetition, Repetition):
            problems.append(f"repetition: expected a Repetition value, got {self.repetition!r}")
        for flag in (
            "own_rat_blocks_jump",
            "rat_captures_across_water",
            "trapped_can_capture",
            "rule_7_3",
            "rule_17_5",
        ):
            if not isinstance(getattr(self, flag), bool):
                problems.append(f"{flag}: expected true or false, got {getattr(self, flag)!r}")
        rounds = self.no_capture_draw_rounds
        if rounds is not None and not _valid_rounds(rounds):
            problems.append(
                f"no_capture_draw_rounds: expected a whole number from 1 to "
                f"{MAX_NO_CAPTURE_DRAW_ROUNDS} or None, got {rounds!r}"
            )
        if self.first_player not in (0, 1) or isinstance(self.first_player, bool):
            problems.append(
                f"first_player: expected 0 (red) or 1 (blue), got {self.first_player!r}"
            )
        if self.wolf_name not in ("wolf", "fox"):
            problems.append(f"wolf_name: expected 'wolf' or 'fox', got {self.wolf_name!r}")
        if problems:
            raise InvalidRulesError("; ".join(problems))

    def to_mapping(self) -> dict[str, Any]:
        """The options as plain TOML-style values (the inverse of :func:`rules_from_mapping`)."""
        return {
            "name": self.name,
            "description": self.description,
            "ranks": self.ranks.value,
            "own_rat_blocks_jump": self.own_rat_blocks_jump,
            "rat_captures_across_water": self.rat_captures_across_water,
            "trapped_can_capture": self.trapped_can_capture,
            "repetition": self.repetition.value,
            "no_capture_draw_rounds": self.no_capture_draw_rounds or 0,
            "rule_7_3": self.rule_7_3,
            "rule_17_5": self.rule_17_5,
            "first_player": "blue" if self.first_player else "red",
            "wolf_name": self.wolf_name,
        }


def _valid_rounds(value: object) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and 1 <= value <= MAX_NO_CAPTURE_DRAW_ROUNDS
    )


_OPTION_NAMES = tuple(f.name for f in dataclasses.fields(RuleSet) if f.name != "name")


def _convert(key: str, value: Any) -> tuple[Any, str | None]:
    """Turn one TOML value into the dataclass value, or explain why it is bad."""
    expect_bool = {
        "own_rat_blocks_jump",
        "rat_captures_across_water",
        "trapped_can_capture",
        "rule_7_3",
        "rule_17_5",
    }
    if key in expect_bool:
        if isinstance(value, bool):
            return value, None
        return None, f"{key}: expected true or false, got {value!r}"
    if key == "ranks":
        try:
            return Ranks(value), None
        except ValueError:
            return None, f"ranks: expected 'wolf>dog' or 'dog>wolf', got {value!r}"
    if key == "repetition":
        try:
            return Repetition(value), None
        except ValueError:
            return None, (
                f"repetition: expected 'threefold_draw' or 'initiator_must_vary', got {value!r}"
            )
    if key == "no_capture_draw_rounds":
        if value in (0, "none") and not isinstance(value, bool):
            return None, None
        if _valid_rounds(value):
            return value, None
        return (
            None,
            f"no_capture_draw_rounds: expected 0/'none' or a whole number from 1 to "
            f"{MAX_NO_CAPTURE_DRAW_ROUNDS}, got {value!r}",
        )
    if key == "first_player":
        if isinstance(value, str) and value in _COLORS:
            return _COLORS[value], None
        return None, f"first_player: expected 'red' or 'blue', got {value!r}"
    if key == "wolf_name":
        if value in ("wolf", "fox"):
            return value, None
        return None, f"wolf_name: expected 'wolf' or 'fox', got {value!r}"
    if key == "description":
        if isinstance(value, str):
            return value, None
        return None, f"description: expected a string, got {value!r}"
    return None, f"unknown option {key!r} (known: {', '.join(_OPTION_NAMES)}, parent)"


def _read_builtin() -> dict[str, dict[str, Any]]:
    # pkgutil reads package data through the package's loader (a zip import too) without
    # importlib.resources' start-up cost (pathlib, tempfile, zipfile: a third of ``import
    # doushouqi``'s time, measured with bench/import_time.py).
    data = pkgutil.get_data("doushouqi.jungle", "data/rulesets.toml")
    if data is None:  # a loader that cannot read data: no installation this project makes
        raise RuntimeError("doushouqi.jungle's rulesets.toml cannot be read")
    return tomllib.loads(data.decode("utf-8"))


_BUILTIN_TABLES = _read_builtin()


def _resolve(
    name: str, table: Mapping[str, Any], problems: list[str], seen: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Options of ``table`` merged over those of its parent chain (converted values)."""
    parent = table.get("parent")
    merged: dict[str, Any] = {}
    if parent is not None:
        if not isinstance(parent, str) or parent not in _BUILTIN_TABLES:
            problems.append(
                f"parent: unknown rule set {parent!r} (known: {', '.join(_BUILTIN_TABLES)})"
            )
        elif parent in seen:
            problems.append(f"parent: rule set {parent!r} inherits from itself")
        else:
            merged = _resolve(parent, _BUILTIN_TABLES[parent], problems, (*seen, name))
    merged["description"] = ""
    for key, value in table.items():
        if key in ("parent", "name"):
            continue
        converted, problem = _convert(key, value)
        if problem:
            problems.append(problem)
        else:
            merged[key] = converted
    return merged


def rules_from_mapping(name: str, table: Mapping[str, Any]) -> RuleSet:
    """Build a rule set from a table of options (with an optional ``parent``).

    Without a ``parent`` the defaults are the WANGO options. Every bad key is reported at once.

    >>> rules_from_mapping("mine", {"parent": "classic", "rule_17_5": False}).rule_7_3
    True
    >>> rules_from_mapping("bad", {"rule_7_3": "yes", "colour": 1})
    Traceback (most recent call last):
    ...
    doushouqi.jungle.rules.InvalidRulesError: rule_7_3: expected true or false, got 'yes'; unknown
    ...
    """
    problems: list[str] = []
    # The table's own name is not an ancestor: a custom set may reuse a named set's name.
    options = _resolve("", table, problems)
    if problems:
        raise InvalidRulesError("; ".join(problems))
    return RuleSet(name=str(table.get("name", name)), **options)


BUILTIN_RULE_SETS: dict[str, RuleSet] = {
    name: rules_from_mapping(name, table) for name, table in _BUILTIN_TABLES.items()
}


def load_rules_file(path: str | Path) -> RuleSet:
    """Read a user rule file (TOML): top-level options, or a single table of options."""
    from pathlib import Path

    path = Path(path)
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise InvalidRulesError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidRulesError(f"{path}: not valid TOML: {exc}") from exc
    name = path.stem
    if len(data) == 1:
        ((only_key, only_value),) = data.items()
        if isinstance(only_value, dict):
            name, data = only_key, only_value
    try:
        return rules_from_mapping(name, data)
    except InvalidRulesError as exc:
        raise InvalidRulesError(f"{path}: {exc}") from None


def check_rules_file(path: str | Path) -> list[str]:
    """The problems found in a rule file, one message per bad key (empty when it is valid)."""
    try:
        load_rules_file(path)
    except InvalidRulesError as exc:
        from pathlib import Path

        prefix = f"{Path(path)}: "
        text = str(exc).removeprefix(prefix)
        return [f"{prefix}{part}" for part in text.split("; ")]
    return []


def find_rules(name_or_path: str | RuleSet) -> RuleSet:
    """A named rule set (``wango``, ``classic``, ``classic-dog``, ``international``) or a file.

    >>> find_rules("classic-dog").ranks
    <Ranks.DOG_OVER_WOLF: 'dog>wolf'>
    >>> find_rules("chess")
    Traceback (most recent call last):
    ...
    doushouqi.jungle.rules.InvalidRulesError: unknown rule set 'chess' (known: wango, classic, ...)
    """
    if isinstance(name_or_path, RuleSet):
        return name_or_path
    key = name_or_path.strip().lower()
    if key in BUILTIN_RULE_SETS:
        return BUILTIN_RULE_SETS[key]
    if name_or_path.endswith(".toml") or os.path.isfile(name_or_path):
        return load_rules_file(name_or_path)
    raise InvalidRulesError(
        f"unknown rule set {name_or_path!r} (known: "
        f"{', '.join(BUILTIN_RULE_SETS)}, or a path to a .toml rule file)"
    )
