"""A short name for the browser and system a session was started from ("Chrome on Android"),
so that a player can tell their sessions apart; from the User-Agent, by ua-parser (the
well-kept port of Browserscope's rules)."""

from __future__ import annotations

from functools import lru_cache

from ua_parser import parse

__all__ = ["device_label"]

#: A label fits ``auth_tokens.device``.
MAX_LABEL = 64


@lru_cache(maxsize=256)
def device_label(user_agent: str) -> str:
    """``"BROWSER on SYSTEM"``, either part alone when the other is unknown, else the start of
    the User-Agent itself (a script's ``python-httpx/0.27``), else ``""``."""
    agent = user_agent[:512]
    found = parse(agent)
    browser = found.user_agent.family if found.user_agent is not None else ""
    system = found.os.family if found.os is not None else ""
    browser = "" if browser == "Other" else browser
    system = "" if system == "Other" else system
    if browser and system:
        label = f"{browser} on {system}"
    else:
        label = browser or system or agent.split(" ")[0]
    return label[:MAX_LABEL]
