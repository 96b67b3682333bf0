"""What every game's engine protocol shares: the client's errors and the ``option`` lines an
engine announces. The games' engine clients (``doushouqi.jungle.engine``,
``doushouqi.tiger.engine``) re-export them; the ``info`` lines and the rule options are each
game's own (their moves and rule sets differ).

>>> parse_option("name Level type spin default 3 min 0 max 20")
Option(name='Level', type='spin', default='3', min=0, max=20, var=())
>>> Option("Ponder", "check", "false").protocol_value(True)
'true'
"""

from __future__ import annotations

import dataclasses

__all__ = [
    "EngineError",
    "EngineMoveError",
    "EngineNoMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Option",
    "is_int",
    "parse_option",
]


class EngineError(RuntimeError):
    """An engine broke the protocol: an illegal or unreadable move, an unknown option …"""


class EngineMoveError(EngineError):
    """The engine's ``bestmove`` is unreadable, illegal, or missing while moves exist."""


class EngineNoMoveError(EngineMoveError):
    """The engine answered ``bestmove 0000`` (or ``(none)``) in a position with legal moves."""


class EngineTerminatedError(EngineError):
    """The engine process has exited (or was killed); it cannot be used any more."""


class EngineTimeoutError(EngineTerminatedError):
    """The engine did not answer in time and was killed."""


# ---------------------------------------------------------------------------- options


@dataclasses.dataclass(frozen=True)
class Option:
    """An option an engine offers (``option name … type …``)."""

    name: str
    type: str  # spin, check, combo, string or button
    default: str | None = None
    min: int | None = None
    max: int | None = None
    var: tuple[str, ...] = ()

    def protocol_value(self, value: object) -> str | None:
        """``value`` as the text of ``setoption … value``, checked; None for a button.

        >>> Option("Level", "spin", "1", 0, 20).protocol_value(7)
        '7'
        >>> Option("Ponder", "check", "false").protocol_value(True)
        'true'
        """
        kind = self.type.lower()
        if kind == "button":
            if value not in (None, True):
                raise EngineError(f"option {self.name} is a button and takes no value")
            return None
        if kind == "check":
            if isinstance(value, bool):
                return "true" if value else "false"
            text = str(value).strip().lower()
            if text not in ("true", "false"):
                raise EngineError(f"option {self.name} expects true or false, got {value!r}")
            return text
        if kind == "spin":
            text = str(value).strip()
            if isinstance(value, bool) or not is_int(text):
                raise EngineError(f"option {self.name} expects a whole number, got {value!r}")
            number = int(text)
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise EngineError(
                    f"option {self.name} expects a number from {self.min} to {self.max}, "
                    f"got {number}"
                )
            return str(number)
        text = "true" if value is True else "false" if value is False else str(value)
        if kind == "combo" and self.var:
            for choice in self.var:
                if choice.lower() == text.lower():
                    return choice
            raise EngineError(
                f"option {self.name} expects one of {', '.join(self.var)}, got {value!r}"
            )
        if "\n" in text or "\r" in text:
            raise EngineError(f"option {self.name}: a value cannot contain a line break")
        return text


_OPTION_KEYS = frozenset({"name", "type", "default", "min", "max", "var"})


def parse_option(text: str) -> Option:
    """Parse what follows ``option`` in an engine's option line (names may hold spaces)."""
    pairs: list[tuple[str, list[str]]] = []
    for token in text.split():
        if token in _OPTION_KEYS:
            pairs.append((token, []))
        elif pairs:
            pairs[-1][1].append(token)
    fields = {key: " ".join(tokens) for key, tokens in pairs if key != "var"}
    name = fields.get("name", "")
    if not name:
        raise EngineError(f"option line without a name: {text!r}")
    default = fields.get("default")
    return Option(
        name=name,
        type=fields.get("type", "string").lower(),
        default="" if default == "<empty>" else default,
        min=_int_or_none(fields.get("min")),
        max=_int_or_none(fields.get("max")),
        var=tuple(" ".join(tokens) for key, tokens in pairs if key == "var"),
    )


def _int_or_none(text: str | None) -> int | None:
    return int(text) if text is not None and is_int(text) else None


def is_int(text: str) -> bool:
    """Whether ``text`` is a whole number as the protocol writes them (a sign, digits)."""
    return text.lstrip("+-").isdigit()
