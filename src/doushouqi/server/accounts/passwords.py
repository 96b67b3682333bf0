"""How easy a new password is to guess: zxcvbn's estimate, and its advice as a code.

zxcvbn (Dropbox's estimator) scores a password 0-4 by the guesses an attacker who knows
common passwords, words, names, keyboard rows, dates and the user's own details would need.
A password scoring under :data:`MIN_SCORE` is refused, wherever a password is set. The
username, the display name and the site's own words count as the user's details, so a
password that is the username is as weak as ``password``.

zxcvbn words its advice in English. The site sends no English to the web client
(``infra/errors.py``): the advice is one of a few codes (``account.password.<weakness>``)
that the client translates. zxcvbn draws its warning from the longest part of the password
it recognised (``feedback.get_feedback``); the code is drawn from the same part, by what kind
of part it is, not by parsing zxcvbn's sentences.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from zxcvbn import zxcvbn

__all__ = ["CODES", "MIN_SCORE", "WEAKNESSES", "weakness"]

#: zxcvbn's scores: 0 too guessable, 1 very guessable, 2 somewhat guessable (safe from
#: guessing online, which the login throttle slows further), 3 and 4 safely unguessable.
MIN_SCORE = 2
#: zxcvbn refuses longer input (its matching grows quadratically); a longer password is judged
#: by its first 72 characters, which already make it strong unless they are weak themselves.
MAX_CHECKED = 72
#: Words of this site that a visitor might build a password from.
SITE_WORDS = ("doushouqi", "dou shou qi", "jungle", "dsq")

#: What makes a password weak, each a code the client words (``error.account.password.…``).
WEAKNESSES = (
    "common",  # one of the most used passwords
    "words",  # a common word or name by itself
    "personal",  # the username, the display name or the site's name
    "keyboard",  # a row or pattern of keys (qwerty)
    "repeat",  # a character or group repeated (aaaaaaaa)
    "sequence",  # a run like abcdefgh or 98765432
    "date",  # a date or a recent year
    "weak",  # short or simple otherwise
)
CODES = tuple(f"account.password.{name}" for name in WEAKNESSES)

# zxcvbn keeps the user's details in a module-level table while it matches: one check at a time.
_lock = threading.Lock()


def weakness(password: str, user_inputs: Iterable[str] = ()) -> str | None:
    """None when ``password`` is hard enough to guess, else what makes it weak (one of
    :data:`WEAKNESSES`). ``user_inputs``: the user's details (username, display name).

    Tens of milliseconds for a long password: call it off the event loop."""
    details = [variant for text in user_inputs for variant in _variants(text)]
    with _lock:
        result = zxcvbn(password[:MAX_CHECKED], user_inputs=[*details, *SITE_WORDS])
    if result["score"] >= MIN_SCORE:
        return None
    return _weakness_of(result["sequence"])


def _variants(text: str) -> list[str]:
    """``text`` as zxcvbn should know it: whole, run together, and word by word. zxcvbn
    matches a detail only as a whole, so "Moonflower Lee" alone would not catch
    ``moonflowerlee``, nor ``tiger_lily`` catch ``tigerlily``."""
    words = [word for word in re.split(r"[\W_]+", text) if word]
    return [text, "".join(words), *words] if len(words) > 1 else [text]


def _weakness_of(sequence: Sequence[dict[str, Any]]) -> str:
    """The code for the part zxcvbn's own warning is about: the longest match (the first of
    the longest, as zxcvbn takes it)."""
    if not sequence:
        return "weak"
    longest = max(sequence, key=lambda match: len(match["token"]))
    pattern = longest["pattern"]
    if pattern == "dictionary":
        name = longest.get("dictionary_name")
        if name == "user_inputs":
            return "personal"
        return "common" if name == "passwords" else "words"
    kinds = {
        "spatial": "keyboard",
        "repeat": "repeat",
        "sequence": "sequence",
        "date": "date",
        "regex": "date",  # zxcvbn's one regex: recent years
    }
    return kinds.get(pattern, "weak")
