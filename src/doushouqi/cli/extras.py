"""What a command needs beyond the standard library, and the error that names the extra to
install (``pip install 'doushouqi[EXTRA]'``)."""

from __future__ import annotations

import argparse
import importlib.util
from typing import TypeAlias

__all__ = ["EXTRAS", "MissingExtraError", "Subcommands", "non_negative", "require"]

#: What a command group's ``add`` receives: the ``doushouqi`` parser's subcommands.
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

#: The optional dependency group (``pip install 'doushouqi[EXTRA]'``) of each third-party
#: module a command may need (pyproject.toml's ``[project.optional-dependencies]``).
EXTRAS = {
    "rich": "tui",
    "numpy": "ai",
    "numba": "ai",
    "llvmlite": "ai",
    "fastapi": "server",
    "starlette": "server",
    "uvicorn": "server",
    "websockets": "server",
    "sqlalchemy": "server",
    "alembic": "server",
    "argon2": "server",
    "psycopg": "server",
    "pydantic": "server",
    "httpx": "server",
    "prometheus_client": "server",
    "redis": "server",
    "gymnasium": "rl",
    "pettingzoo": "rl",
}


#: Where a command's own extra brings a module too (a worker machine installs ``worker``).
_COMMAND_EXTRAS = {
    "worker": {"numpy": "worker", "numba": "worker", "llvmlite": "worker", "redis": "worker"},
    "match": {"numpy": "ai", "numba": "ai"},
}


class MissingExtraError(RuntimeError):
    """A command needs a third-party module that is not installed."""

    def __init__(self, module: str, command: str) -> None:
        extra = _COMMAND_EXTRAS.get(command, {}).get(module) or EXTRAS.get(module, "")
        hint = f": pip install 'doushouqi[{extra}]'" if extra else ""
        super().__init__(
            f"doushouqi {command} needs {module}, which is not installed{hint}"
            + (f" (the '{extra}' extra)" if extra else "")
        )


def require(command: str, *modules: str) -> None:
    """Raise MissingExtraError unless every module can be imported (checked without importing)."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(module, command)


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {value}")
    return value
