"""numba options of the engines' compiled functions (move generators, states, perft, the
searches of both games), and the typed decorators that apply them: ``@hot`` is
``@njit(**HOT)``, ``@hot_nogil`` is ``@njit(**HOT_NOGIL)``, ``@inline`` is ``@njit(**INLINE)``.

``HOT``: compiled without numba's reference counting, through its ``_nrt`` target option (which
numba's own library uses for the same purpose). numba otherwise increfs and decrefs each array
argument around a call (and around the arguments of a function inlined at IR level) wherever it
cannot prove the pair redundant, which is almost everywhere a function calls another; those are
atomic operations, and on the move generator they cost more than the generation itself
(docs/engine-research.md, "Perft speed"). A ``HOT`` function only reads and writes arrays its
caller holds:

* it must not allocate, keep or return an array (numba rejects ``np.empty`` there);
* what it calls inherits the option unless it sets ``_nrt`` itself, so it calls only ``HOT``
  functions, ``INLINE`` ones and scalar helpers (:mod:`.bitops`).

``INLINE``: small helpers inlined into their callers at numba IR level (``inline="always"``):
left to LLVM they stay calls, each passing every array as seven words. Written with a single
``return``: numba's reference-count pruning then still works in a caller that counts (the
search inlines ``compute_restrictions``). Each inlined copy is compiled with its caller, so
they are kept few.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from numba import njit

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher

__all__ = ["HOT", "HOT_NOGIL", "INLINE", "hot", "hot_nogil", "inline"]

_Function = TypeVar("_Function", bound=Callable[..., object])


def _has_nrt_option() -> bool:
    """Whether this numba still takes ``_nrt`` (a private option: a later release may drop it,
    and then the core runs as before, only slower, instead of failing to compile)."""
    try:
        from numba.core.options import DefaultOptions
    except ImportError:
        return False
    return hasattr(DefaultOptions, "_nrt")


HOT: dict[str, Any] = {"cache": True, "_nrt": False} if _has_nrt_option() else {"cache": True}
INLINE: dict[str, Any] = {"cache": True, "inline": "always"}
#: ``HOT`` for an entry point that runs for long and that another thread must be able to stop
#: meanwhile (the protocol's ``perft``, stopped from its command loop; the search, stopped by
#: its timer): it releases the GIL while it runs. Only a call from Python pays for it; calls
#: from compiled code are plain. The search's modules use it for every function (with their
#: signatures): reference counting was half of the search's time (docs/engine-research.md,
#: "Speed: the same search, faster").
HOT_NOGIL: dict[str, Any] = {**HOT, "nogil": True}


# numba's stubs type ``njit(signature, cache=True, ...)`` (a ``Dispatcher`` generic in the
# function, whose calls are checked against the function's parameters), but not ``njit(**HOT)``:
# options unpacked from a dict could hold anything, ``_nrt`` is private, and the result is Any.
# These two are the same decorators, typed; they run once, when the module is imported, and
# return numba's own dispatcher (nothing wraps the compiled function).


def hot(function: _Function, /) -> Dispatcher[_Function]:
    """``@njit(**HOT)``."""
    return cast("Dispatcher[_Function]", njit(**HOT)(function))


def inline(function: _Function, /) -> Dispatcher[_Function]:
    """``@njit(**INLINE)``."""
    return cast("Dispatcher[_Function]", njit(**INLINE)(function))


def hot_nogil(function: _Function, /) -> Dispatcher[_Function]:
    """``@njit(**HOT_NOGIL)``."""
    return cast("Dispatcher[_Function]", njit(**HOT_NOGIL)(function))
