"""Rule sets of 老虎棋: one frozen dataclass field per rule option (docs/tiger.md).

Named rule sets are data (``data/rulesets.toml``), each listing only its differences from a
parent, as Jungle's (:mod:`doushouqi.jungle.rules`) and Fairy-Stockfish's variants do. A rule
set comes from a name (:func:`rules_by_name`) or from a mapping of options
(:func:`rules_from_mapping`, which is what storage gives back), and goes back to a mapping with
:meth:`RuleSet.to_mapping`. Names are never paths: nothing here reads a file but the package's
own table. Every problem is a :class:`~doushouqi.core.game.RulesError` naming each bad key.

>>> rules_by_name("laohuqi-strict").tiger_wins_below
9
>>> rules_from_mapping("mine", {"parent": "laohuqi-18", "diagonals": "nest"}).men
18
>>> RuleSet().name, RuleSet().first == TIGER_SIDE
('laohuqi', True)
"""

from __future__ import annotations

import dataclasses
import pkgutil
import tomllib
from collections.abc import Mapping
from typing import Any

from doushouqi.core.game import RulesError
from doushouqi.tiger.points import Diagonals

__all__ = [
    "BUILTIN_RULE_SETS",
    "MAN_COUNTS",
    "MAX_ROUNDS",
    "MEN_SIDE",
    "TIGER_COUNTS",
    "TIGER_SIDE",
    "Diagonals",
    "RuleSet",
    "RulesError",
    "rules_by_name",
    "rules_from_mapping",
]

#: The seats: the tiger side is seat 0, the men's side seat 1 (``first``, ``Board.turn``).
TIGER_SIDE = 0
MEN_SIDE = 1
_SIDES = {"tiger": TIGER_SIDE, "men": MEN_SIDE}

#: The men's counts and tiger counts the start positions exist for.
MAN_COUNTS = (12, 18)
TIGER_COUNTS = (1, 2)

#: The longest ``max_rounds``: the move number that passes it must fit a position string
#: (at most 9999, :data:`doushouqi.tiger.fen.MAX_MOVE_NUMBER`).
MAX_ROUNDS = 9998


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """Every rule option of docs/tiger.md; the defaults are the rule set ``laohuqi``."""

    name: str = "laohuqi"
    description: str = ""
    #: Which diagonals are lines (:class:`~doushouqi.tiger.points.Diagonals`).
    diagonals: Diagonals = Diagonals.NONE
    #: The men at the start: 12 (a1–i1, d2 e2 f2) or 18 (a1–i2).
    men: int = 12
    #: The tigers: 1 (on e10) or 2 (on d10 and f10).
    tigers: int = 1
    #: The seat that moves first: :data:`TIGER_SIDE` (0) or :data:`MEN_SIDE` (1).
    first: int = TIGER_SIDE
    #: Whether men may step to a lower rank (False: never, as the geese of Fox and Geese).
    men_retreat: bool = True
    #: Whether a tiger that has jumped may jump again in the same move (stopping at will).
    multi_jump: bool = False
    #: Whether the tiger side must jump when a jump is possible.
    capture_mandatory: bool = False
    #: The tiger wins when fewer men than this remain (0: never by captures).
    tiger_wins_below: int = 4
    #: A draw after this many moves of each side; None: no limit.
    max_rounds: int | None = None

    def __post_init__(self) -> None:
        problems = []
        if not isinstance(self.name, str):
            problems.append(f"name: expected text, got {self.name!r}")
        if not isinstance(self.description, str):
            problems.append(f"description: expected text, got {self.description!r}")
        if not isinstance(self.diagonals, Diagonals):
            problems.append(f"diagonals: expected a Diagonals value, got {self.diagonals!r}")
        if not _is_int(self.men) or self.men not in MAN_COUNTS:
            problems.append(f"men: expected 12 or 18, got {self.men!r}")
        if not _is_int(self.tigers) or self.tigers not in TIGER_COUNTS:
            problems.append(f"tigers: expected 1 or 2, got {self.tigers!r}")
        if not _is_int(self.first) or self.first not in (TIGER_SIDE, MEN_SIDE):
            problems.append(f"first: expected 0 (tiger) or 1 (men), got {self.first!r}")
        for flag in ("men_retreat", "multi_jump", "capture_mandatory"):
            if not isinstance(getattr(self, flag), bool):
                problems.append(f"{flag}: expected true or false, got {getattr(self, flag)!r}")
        below = self.tiger_wins_below
        men = self.men if self.men in MAN_COUNTS else max(MAN_COUNTS)
        if not (_is_int(below) and 0 <= below <= men):
            problems.append(
                f"tiger_wins_below: expected a whole number from 0 to the men's count "
                f"({men}), got {below!r}"
            )
        rounds = self.max_rounds
        if rounds is not None and not (_is_int(rounds) and 1 <= rounds <= MAX_ROUNDS):
            problems.append(
                f"max_rounds: expected a whole number from 1 to {MAX_ROUNDS} or None, "
                f"got {rounds!r}"
            )
        if problems:
            raise RulesError("; ".join(problems))

    def to_mapping(self) -> dict[str, Any]:
        """The options as plain TOML/JSON values (the inverse of :func:`rules_from_mapping`).

        >>> RuleSet().to_mapping()["first"], RuleSet().to_mapping()["max_rounds"]
        ('tiger', 0)
        """
        return {
            "name": self.name,
            "description": self.description,
            "diagonals": self.diagonals.value,
            "men": self.men,
            "tigers": self.tigers,
            "first": "men" if self.first == MEN_SIDE else "tiger",
            "men_retreat": self.men_retreat,
            "multi_jump": self.multi_jump,
            "capture_mandatory": self.capture_mandatory,
            "tiger_wins_below": self.tiger_wins_below,
            "max_rounds": self.max_rounds or 0,
        }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_OPTION_NAMES = tuple(f.name for f in dataclasses.fields(RuleSet) if f.name != "name")
_FLAGS = ("men_retreat", "multi_jump", "capture_mandatory")


def _convert(key: str, value: Any) -> tuple[Any, str | None]:
    """One option's value as the dataclass holds it, or why it is bad. Whole-number options
    are range-checked by :class:`RuleSet` itself, which sees them together (``men`` bounds
    ``tiger_wins_below``)."""
    if key in _FLAGS:
        if isinstance(value, bool):
            return value, None
        return None, f"{key}: expected true or false, got {value!r}"
    if key == "diagonals":
        try:
            return Diagonals(value), None
        except ValueError:
            return None, f"diagonals: expected 'none', 'nest' or 'all', got {value!r}"
    if key == "first":
        if isinstance(value, str) and value in _SIDES:
            return _SIDES[value], None
        return None, f"first: expected 'tiger' or 'men', got {value!r}"
    if key == "max_rounds":
        if value == "none" or (_is_int(value) and value == 0):
            return None, None
        if _is_int(value):
            return value, None
        return None, f"max_rounds: expected 0/'none' or a whole number, got {value!r}"
    if key in ("men", "tigers", "tiger_wins_below"):
        if _is_int(value):
            return value, None
        return None, f"{key}: expected a whole number, got {value!r}"
    if key == "description":
        if isinstance(value, str):
            return value, None
        return None, f"description: expected text, got {value!r}"
    return None, f"unknown option {key!r} (known: {', '.join(_OPTION_NAMES)}, parent)"


def _read_builtin() -> dict[str, dict[str, Any]]:
    # pkgutil reads package data through the package's loader (a zip import too) without
    # importlib.resources' start-up cost (pathlib, tempfile, zipfile: a third of ``import
    # doushouqi``'s time, measured with bench/import_time.py).
    data = pkgutil.get_data("doushouqi.tiger", "data/rulesets.toml")
    if data is None:  # a loader that cannot read data: no installation this project makes
        raise RuntimeError("doushouqi.tiger's rulesets.toml cannot be read")
    return tomllib.loads(data.decode("utf-8"))


_BUILTIN_TABLES = _read_builtin()


def _resolve(
    table: Mapping[str, Any], problems: list[str], seen: tuple[str, ...]
) -> dict[str, Any]:
    """The options of ``table`` over those of its parent chain (converted values)."""
    parent = table.get("parent")
    merged: dict[str, Any] = {}
    if parent is not None:
        if not isinstance(parent, str) or parent not in _BUILTIN_TABLES:
            known = ", ".join(_BUILTIN_TABLES)
            problems.append(f"parent: unknown rule set {parent!r} (known: {known})")
        elif parent in seen:
            problems.append(f"parent: rule set {parent!r} inherits from itself")
        else:
            merged = _resolve(_BUILTIN_TABLES[parent], problems, (*seen, parent))
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
    """A rule set from a mapping of options, with an optional ``parent`` (a named set) whose
    options it starts from (else the defaults). The mapping's own ``name`` wins over
    ``name``. Every bad key is reported at once.

    >>> rules_from_mapping("bad", {"men": 13, "colour": 1})
    Traceback (most recent call last):
    ...
    doushouqi.core.game.RulesError: unknown option 'colour' (known: description, diagonals, ...
    """
    if not isinstance(table, Mapping):
        raise RulesError(f"a rule set is a mapping of options, got {type(table).__name__}")
    problems: list[str] = []
    options = _resolve(table, problems, ())
    own_name = table.get("name", name)
    if not isinstance(own_name, str) or not own_name.strip():
        problems.append(f"name: expected a non-empty text, got {own_name!r}")
        own_name = name
    try:
        rules = RuleSet(name=own_name, **options)
    except RulesError as exc:  # the range checks, which see the options together
        problems += str(exc).split("; ")
    if problems:
        raise RulesError("; ".join(problems))
    return rules


#: The named rule sets, in the order of the data file (the order to offer them).
BUILTIN_RULE_SETS: dict[str, RuleSet] = {
    name: rules_from_mapping(name, table) for name, table in _BUILTIN_TABLES.items()
}


def rules_by_name(name: str) -> RuleSet:
    """A named rule set (any case, spaces around ignored); RulesError naming the known ones.

    >>> rules_by_name("Laohuqi-South").tigers
    2
    >>> rules_by_name("wango")
    Traceback (most recent call last):
    ...
    doushouqi.core.game.RulesError: unknown rule set 'wango' (known: laohuqi, laohuqi-18, ...)
    """
    rules = BUILTIN_RULE_SETS.get(name.strip().lower()) if isinstance(name, str) else None
    if rules is None:
        known = ", ".join(BUILTIN_RULE_SETS)
        raise RulesError(f"unknown rule set {name!r} (known: {known})")
    return rules
