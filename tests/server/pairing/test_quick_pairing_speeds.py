"""The pairing page names each tile's speed (and shows the player's rating there) from its own
table: it must say what the server rates the game as (``core.speed``)."""

from __future__ import annotations

import re
from pathlib import Path

import doushouqi.server
from doushouqi.core.clock import TimeControl
from doushouqi.core.speed import speed_of

PAIRING_JS = Path(doushouqi.server.__file__).parent / "static" / "app" / "lobby" / "pairing.js"


def test_each_tile_names_the_speed_the_server_rates_it_at() -> None:
    text = PAIRING_JS.read_text(encoding="utf-8")
    table = text[text.index("QUICK_CONTROLS = [") : text.index("];", text.index("QUICK_CONTROLS"))]
    tiles = re.findall(r"\['([^']+)', '(\w+)', '(\w+)'\]", table)
    assert len(tiles) == 8
    for control, _, speed in tiles:
        found = speed_of(TimeControl.parse(control))
        assert found is not None and found.value == speed, control
