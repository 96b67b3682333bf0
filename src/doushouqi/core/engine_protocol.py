"""What every game's engine protocol shares: the client's errors, the ``option`` lines an
engine announces, a search's own options (:class:`SearchOptions`) and its ``searchmoves``
(:func:`searchmoves_text`), the reading of an ``info`` line (:func:`read_info`, given the
game's way of reading its moves). The games' engine clients (``doushouqi.jungle.engine``,
``doushouqi.tiger.engine``) re-export them; the rule options are each game's own.

>>> parse_option("name Level type spin default 3 min 0 max 20")
Option(name='Level', type='spin', default='3', min=0, max=20, var=())
>>> Option("Ponder", "check", "false").protocol_value(True)
'true'
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TypeVar

from doushouqi.core.analysis import Info, Score

__all__ = [
    "EngineError",
    "EngineMoveError",
    "EngineNoMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Option",
    "SearchOptions",
    "checked_options",
    "is_int",
    "parse_option",
    "read_info",
    "searchmoves_text",
    "setoption_line",
]

MoveT = TypeVar("MoveT")


class EngineError(RuntimeError):
    """An engine broke the protocol: an illegal or unreadable move, an unknown option …

    The base of the client's errors, so that one ``except EngineError`` covers them all. A
    ``RuntimeError``: the fault is the engine's (or the option value's), not the caller's code.

    >>> try:
    ...     Option("Level", "spin", "1", 0, 20).protocol_value(99)
    ... except EngineError as error:
    ...     print(error)
    option Level expects a number from 0 to 20, got 99
    """


class EngineMoveError(EngineError):
    """The engine's ``bestmove`` is unreadable, illegal, or missing while moves exist.

    A caller that lets a broken engine lose the game catches this one (the engine still runs),
    apart from :class:`EngineTerminatedError` (it does not).

    >>> issubclass(EngineNoMoveError, EngineMoveError), issubclass(EngineMoveError, EngineError)
    (True, True)
    """


class EngineNoMoveError(EngineMoveError):
    """The engine answered ``bestmove 0000`` (or ``(none)``) in a position with legal moves.

    A :class:`EngineMoveError` (the move is missing), told apart for callers that treat a
    resigning engine differently from one that sends rubbish.

    >>> error = EngineNoMoveError("engine gave no move (bestmove 0000) with 24 legal moves")
    >>> isinstance(error, EngineMoveError), str(error)
    (True, 'engine gave no move (bestmove 0000) with 24 legal moves')
    """


class EngineTerminatedError(EngineError):
    """The engine process has exited (or was killed); it cannot be used any more.

    Catching it also catches :class:`EngineTimeoutError`: either way the process is gone and
    the caller starts a new one.

    >>> try:
    ...     raise EngineTimeoutError("engine did not answer isready within 10 s")
    ... except EngineTerminatedError as error:
    ...     print(type(error).__name__, "-", error)
    EngineTimeoutError - engine did not answer isready within 10 s
    """


class EngineTimeoutError(EngineTerminatedError):
    """The engine did not answer in time and was killed.

    A :class:`EngineTerminatedError` (the process is gone) and so an :class:`EngineError`.

    >>> [cls.__name__ for cls in EngineTimeoutError.__mro__[1:4]]
    ['EngineTerminatedError', 'EngineError', 'RuntimeError']
    """


# ---------------------------------------------------------------------------- options


@dataclasses.dataclass(frozen=True)
class Option:
    """An option an engine offers (``option name … type …``): its name, its type (``spin``,
    ``check``, ``combo``, ``string`` or ``button``), its default as text, a spin's bounds and
    a combo's choices. :func:`parse_option` reads one from the engine's line.

    >>> style = Option("Style", "combo", "Normal", var=("Solid", "Normal", "Risky"))
    >>> style.protocol_value("risky")
    'Risky'
    >>> style.protocol_value("Wild")
    Traceback (most recent call last):
    ...
    doushouqi.core.engine_protocol.EngineError: option Style expects one of Solid, Normal, ...
    """

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
    """Parse what follows ``option`` in an engine's option line (names may hold spaces);
    :class:`EngineError` for a line without a name. A default of ``<empty>`` is the empty
    string, as UCI writes it.

    >>> parse_option("name Clear Hash type button")
    Option(name='Clear Hash', type='button', default=None, min=None, max=None, var=())
    >>> parse_option("name Style type combo default Normal var Solid var Normal").var
    ('Solid', 'Normal')
    >>> parse_option("name SyzygyPath type string default <empty>").default
    ''
    """
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
    """Whether ``text`` is a whole number as the protocol writes them (a sign, digits).

    >>> is_int("20"), is_int("-3"), is_int("+7"), is_int("2.5"), is_int("")
    (True, True, True, False, False)
    """
    return text.lstrip("+-").isdigit()


# ------------------------------------------------------------------------ a search's own


def checked_options(
    engine: str,
    offered: Iterable[Option],
    options: Mapping[str, object],
    *,
    from_board: Collection[str] = (),
    managed: Collection[str] = (),
) -> list[tuple[Option, str | None]]:
    """Each of ``options`` (names in any case) with its value as protocol text, checked
    against the options ``engine`` ``offered``; EngineError for one it does not offer, for the
    rules (``Rules`` and ``from_board``: set from the board's rule set) and for ``managed``
    ones (lower-case names the client sets itself, such as ``multipv``).

    >>> offered = [Option("Hash", "spin", "16", 1, 4096), Option("MultiPV", "spin", "1", 1, 64)]
    >>> checked_options("ai", offered, {"hash": 64})
    [(Option(name='Hash', type='spin', default='16', min=1, max=4096, var=()), '64')]
    >>> for asked in ({"MultiPV": 3}, {"Threads": 2}):
    ...     try:
    ...         checked_options("ai", offered, asked, managed={"multipv"})
    ...     except EngineError as error:
    ...         print(error)
    the MultiPV option is managed: use analyse(multipv=…)
    ai has no option 'Threads' (options: Hash, MultiPV)
    """
    by_name = {option.name.lower(): option for option in offered}
    checked = []
    for name, value in options.items():
        option = by_name.get(name.lower())
        if option is None:
            known = ", ".join(option.name for option in by_name.values()) or "none"
            raise EngineError(f"{engine} has no option {name!r} (options: {known})")
        folded = option.name.lower()
        if folded == "rules" or folded in from_board:
            raise EngineError(f"the {option.name} option is set from the board's rule set")
        if folded in managed:
            raise EngineError(f"the {option.name} option is managed: use analyse(multipv=…)")
        checked.append((option, option.protocol_value(value)))
    return checked


def setoption_line(name: str, text: str | None) -> str:
    """The command that sets option ``name`` to ``text`` (None: no value, as a button takes).

    >>> setoption_line("Hash", "32"), setoption_line("Clear Hash", None)
    ('setoption name Hash value 32', 'setoption name Clear Hash')
    """
    return f"setoption name {name}" + ("" if text is None else f" value {text}")


class SearchOptions:
    """The options one search sets for itself (python-chess's ``options=`` of ``play`` and
    ``analyse``), and the values to put back afterwards: the value the caller configured,
    else the engine's default. A client sends the lines :meth:`apply` and :meth:`restore`
    return; this class sends nothing (it knows no process).

    >>> level = Option("Level", "spin", "10", 1, 10)
    >>> options = SearchOptions()
    >>> options.apply([(level, "3")], configured={})
    ['setoption name Level value 3']
    >>> options.restore()
    ['setoption name Level value 10']
    >>> options.restore()  # nothing changed any more
    []
    """

    def __init__(self) -> None:
        #: The value to put back by option name, for each option a search changed.
        self._saved: dict[str, str | None] = {}

    @property
    def changed(self) -> frozenset[str]:
        """The names of the options a search changed and that are not put back yet.

        >>> options = SearchOptions()
        >>> _ = options.apply([(Option("Hash", "spin", "64"), "8")], configured={"Hash": "16"})
        >>> options.changed
        frozenset({'Hash'})
        """
        return frozenset(self._saved)

    def apply(
        self,
        checked: Sequence[tuple[Option, str | None]],
        configured: Mapping[str, str | None],
    ) -> list[str]:
        """The lines that set a search's ``checked`` options (each an option the engine
        offers and its protocol value), after those that put back what an earlier search
        changed and this one does not set again. ``configured``: the values the caller set
        for good, by option name (the value put back; else the option's default).

        >>> hash_mb = Option("Hash", "spin", "64")
        >>> options = SearchOptions()
        >>> options.apply([(hash_mb, "8")], configured={"Hash": "16"})
        ['setoption name Hash value 8']
        >>> options.apply([(Option("Level", "spin", "10"), "2")], configured={"Hash": "16"})
        ['setoption name Hash value 16', 'setoption name Level value 2']
        """
        lines = self.restore(keep={option.name for option, _ in checked})
        for option, text in checked:
            if option.type != "button" and option.name not in self._saved:
                self._saved[option.name] = configured.get(option.name, option.default)
            lines.append(setoption_line(option.name, text))
        return lines

    def restore(self, keep: Iterable[str] = ()) -> list[str]:
        """The lines that put back what searches changed, but the options in ``keep`` (the
        coming search sets them again); from then on they count as put back.

        >>> options = SearchOptions()
        >>> _ = options.apply([(Option("Style", "combo", "Normal"), "Risky")], configured={})
        >>> options.restore(keep={"Style"}), options.restore()
        ([], ['setoption name Style value Normal'])
        """
        kept = set(keep)
        lines = []
        for name, text in list(self._saved.items()):
            if name not in kept:
                del self._saved[name]
                lines.append(setoption_line(name, text))
        return lines


def searchmoves_text(
    root_moves: Iterable[MoveT] | None, is_legal: Callable[[MoveT], bool], position: str
) -> str:
    """`` searchmoves m1 m2 …`` for a ``go`` that may play only ``root_moves`` (empty for
    None: every move); ValueError when there are none, or when ``is_legal`` (the game's
    board) refuses one: the message names them and ``position``.

    >>> searchmoves_text(["g3g4", "a3a4"], lambda move: True, "startpos")
    ' searchmoves g3g4 a3a4'
    >>> searchmoves_text(None, lambda move: True, "startpos")
    ''
    >>> searchmoves_text(["g3g5"], lambda move: False, "startpos")
    Traceback (most recent call last):
    ...
    ValueError: root_moves not legal in startpos: g3g5
    """
    if root_moves is None:
        return ""
    moves = list(root_moves)
    if not moves:
        raise ValueError("root_moves is empty: give at least one move, or None for all")
    illegal = [str(move) for move in moves if not is_legal(move)]
    if illegal:
        raise ValueError(f"root_moves not legal in {position}: {', '.join(illegal)}")
    return " searchmoves " + " ".join(str(move) for move in moves)


# ------------------------------------------------------------------------------ info

#: The ``info`` keywords followed by one whole number.
INFO_COUNTS = frozenset(
    {"depth", "seldepth", "nodes", "nps", "multipv", "hashfull", "tbhits", "currmovenumber"}
)
#: Every ``info`` keyword: a move list (``pv``, ``refutation``, ``currline``) ends at one.
INFO_KEYWORDS = INFO_COUNTS | {"time", "score", "pv", "string", "currmove", "sbhits",
                               "cpuload", "refutation", "currline"}  # fmt: skip


def read_info(
    text: str,
    *,
    read_move: Callable[[str], MoveT],
    read_pv: Callable[[Sequence[str]], list[MoveT]],
    mate_words: Collection[str] = ("mate",),
    as_seen: Callable[[Score], Score] | None = None,
) -> Info[MoveT]:
    """What follows ``info``, read; unknown tokens are skipped. ``read_move`` reads one move
    (``currmove``; a ValueError skips it), ``read_pv`` the tokens of a move list (it may cut
    the line before a move that is not legal), ``mate_words`` the score kinds that mean a
    decided game (Jungle's engines also say ``den``), ``as_seen`` turns the score into the
    side to move's (a ``PovScore``), when given.

    >>> info = read_info("depth 2 wibble 9 score mate -3 upperbound pv a b nodes 7",
    ...                  read_move=str, read_pv=list)
    >>> info["score"], info["pv"], info["nodes"]
    (Score(mate=-3), ['a', 'b'], 7)
    >>> read_info("string searching hard", read_move=str, read_pv=list)
    {'string': 'searching hard'}
    """
    info: Info[MoveT] = Info()
    tokens = text.split()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "string":
            info["string"] = " ".join(tokens[i:])
            break
        if token in INFO_COUNTS or token == "time":
            if i < len(tokens) and is_int(tokens[i]):
                value = int(tokens[i])
                i += 1
                if token == "time":
                    info["time"] = value / 1000
                else:
                    info[token] = value  # type: ignore[literal-required]
        elif token == "score":
            while i + 1 < len(tokens) and (tokens[i] == "cp" or tokens[i] in mate_words):
                kind, value_text = tokens[i], tokens[i + 1]
                if not is_int(value_text):
                    break
                i += 2
                number = int(value_text)
                score = Score(cp=number) if kind == "cp" else Score(mate=number)
                info["score"] = score if as_seen is None else as_seen(score)
            while i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
                i += 1
        elif token == "pv":
            start = i
            while i < len(tokens) and tokens[i] not in INFO_KEYWORDS:
                i += 1
            info["pv"] = read_pv(tokens[start:i])
        elif token == "currmove" and i < len(tokens):
            with contextlib.suppress(ValueError):
                info["currmove"] = read_move(tokens[i])
            i += 1
        elif token in ("refutation", "currline"):
            while i < len(tokens) and tokens[i] not in INFO_KEYWORDS:
                i += 1
        elif token in INFO_KEYWORDS and i < len(tokens):
            i += 1  # a known keyword with one value that Info has no place for
    return info
