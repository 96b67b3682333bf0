"""A request the site refuses, raised below the HTTP layer: its own module, free of the web
framework, because code that AI worker machines import too (the games' site entries) raises
it, and a worker installs no web stack. ``infra/errors.py`` answers it like a 422 Problem."""

from __future__ import annotations

__all__ = ["Refused"]


class Refused(ValueError):
    """A request the site refuses, raised below the HTTP layer (a rule choice, a time control):
    answered like a 422 :class:`Problem`, with its code and params."""

    def __init__(self, code: str, detail: str, **params: str | int | float | None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.params = {k: v for k, v in params.items() if v is not None}
