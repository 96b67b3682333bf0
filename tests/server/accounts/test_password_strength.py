"""Passwords easy to guess are refused where a password is set (accounts/passwords.py), with a
code that says why in every language of the site, never zxcvbn's English."""

from __future__ import annotations

import pytest
from tests.support.live import LiveServer

from doushouqi.server.accounts import passwords
from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.infra.translations import LANGS, load_table

# The weak passwords of the report, each with the reason the server gives.
WEAK = [
    ("12345678", "common"),
    ("password", "common"),
    (" " * 8, "repeat"),
    ("tiger_lily_77", "personal"),  # the username itself
]
STRONG = ["lantern river quietly", "Tr0ub4dor&3 again", "斗兽棋的狮子跳过了小河", "x7#Lq!93vZ"]


def register(server: LiveServer, username: str, password: str, **extra: str) -> tuple[int, dict]:
    answer = server.player().post(
        "/api/auth/register", json={"username": username, "password": password, **extra}
    )
    return answer.status_code, answer.json()


@pytest.mark.parametrize(("password", "reason"), WEAK)
def test_weak_passwords_are_refused_with_a_translated_reason(
    server: LiveServer, password: str, reason: str
) -> None:
    status, body = register(server, "tiger_lily_77", password)
    assert status == 422, body
    assert body["code"] == f"account.password.{reason}"
    assert "weak" in body["detail"] or "guess" in body["detail"]  # English for API users
    english = load_table(STATIC_DIR, "en")[f"error.{body['code']}"]
    for lang in LANGS:
        text = load_table(STATIC_DIR, lang)[f"error.{body['code']}"]
        assert text.strip(), lang
        assert lang == "en" or text != english, lang  # translated, not the English again
    # Nothing was made: the name is still free for a strong password.
    assert register(server, "tiger_lily_77", STRONG[0])[0] == 201


def test_the_display_name_counts_as_the_users_own(server: LiveServer) -> None:
    status, body = register(server, "moon", "moonflowerlee", display_name="Moonflower Lee")
    assert (status, body["code"]) == (422, "account.password.personal")
    assert register(server, "moon2", "moonflowerlee")[0] == 201  # someone else's name: fine


@pytest.mark.parametrize("password", STRONG)
def test_strong_passwords_are_accepted(server: LiveServer, password: str) -> None:
    status, body = register(server, "strong_one", password)
    assert status == 201, body


def test_every_weakness_has_a_code_in_every_language() -> None:
    for lang in LANGS:
        table = load_table(STATIC_DIR, lang)
        assert all(f"error.{code}" in table for code in passwords.CODES), lang
    # zxcvbn's sentences never reach a client: the codes are the whole vocabulary.
    assert passwords.weakness("qwertyuiop") in passwords.WEAKNESSES
    assert passwords.weakness("1987-06-05") == "date"
    assert passwords.weakness("abcdefghij") in ("sequence", "common")
    assert passwords.weakness("a" * 200) == "repeat"  # past zxcvbn's 72 characters: no error
