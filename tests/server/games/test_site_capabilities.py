"""The site's per-game capabilities (server/games/capabilities.py): Jungle's records read and
replay as its record library does, a game without records or puzzles is answered with a code,
and the explorer names rule sets and keys its rows through the game interface."""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

import pytest
from tests.support.live import LiveServer

from doushouqi.jungle.board import Board
from doushouqi.jungle.notation import move_to_readable
from doushouqi.jungle.record import read_record
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.server.domain import GameSpec, Mode, PlayerSlot, new_game
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.explorer import service as explorer
from doushouqi.server.games import registry
from doushouqi.server.games.capabilities import RecordReadError
from doushouqi.server.games.jungle_records import JUNGLE_RECORDS, write
from doushouqi.server.puzzles import service as puzzles
from doushouqi.server.puzzles.models import PuzzleRow

# A set-up start, a comment and a timeout pass: what a replay has to carry through.
RECORD = (
    '[Red "Li"]\n[Rules "classic"]\n[FEN "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"]\n\n'
    "1. a3a4 {bold} 1... 0000 2. a4a5 *\n"
)


def _library_replay(text: str) -> list[dict[str, Any]]:
    """The plies as the record library and the board make them (the router's former way)."""
    record = read_record(text)
    board = Board(record.start_fen, record.rules)
    plies = []
    for move in record.moves:
        readable = (move_to_readable(board, move, "en"), move_to_readable(board, move, "zh"))
        board.push(move)
        plies.append({"move": str(move), "readable": readable, "fen": board.fen()})
    return plies


def test_an_uploaded_record_replays_as_the_library_reads_it() -> None:
    from doushouqi.server.api.records import replay

    shown = replay(JUNGLE_RECORDS.read(RECORD))
    expected = _library_replay(RECORD)
    assert [
        {"move": p["move"], "readable": (p["readable"], p["readable_zh"]), "fen": p["fen"]}
        for p in shown["plies"]
    ] == expected
    assert shown["plies"][0]["comment"] == "bold" and shown["plies"][1]["move"] == "0000"
    assert shown["rules"] == BUILTIN_RULE_SETS["classic"].to_mapping()
    assert shown["start_fen"] == read_record(RECORD).start_fen and shown["tags"]["Red"] == "Li"


def test_a_bad_record_names_its_line_and_reason() -> None:
    with pytest.raises(RecordReadError) as caught:
        JUNGLE_RECORDS.read('[Rules "wango"]\n\n1. a3a4 1... a7a9 *\n')
    assert caught.value.line == 3 and "a7a9" in caught.value.reason


def test_a_game_written_reads_back_as_the_same_record() -> None:
    me = PlayerSlot.guest("g1", "Li")
    spec = GameSpec(mode=Mode.SAME_SCREEN, players=(me, me), rules="classic")
    game = new_game(spec, game_id="g", now=0.0)
    day = datetime.date(2024, 3, 9)
    data = JUNGLE_RECORDS.from_game(game, day, {"Event": "Club night"})
    back = JUNGLE_RECORDS.read(write(game, day, {"Event": "Club night"}))
    assert back == data and data.tags["Date"] == "2024.03.09" and data.tags["Event"] == "Club night"


@pytest.fixture
def no_capabilities(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default game as the site's entry of a game with no records and no puzzles."""
    entry = registry.SITE_GAMES[DEFAULT_GAME_KEY]
    bare = dataclasses.replace(entry, records=None, puzzles=None)
    monkeypatch.setitem(registry.SITE_GAMES, DEFAULT_GAME_KEY, bare)


@pytest.mark.usefixtures("no_capabilities")
def test_records_of_a_game_without_them_are_answered_with_a_code(server: LiveServer) -> None:
    player = server.player().register("norecords")
    game = player.create(mode="same_screen")
    for path in (f"/api/games/{game['id']}/record", f"/api/games/{game['id']}/replay"):
        answer = player.get(path)
        assert (answer.status_code, answer.json()["code"]) == (404, "record.unsupported")
    uploaded = player.post("/api/records", content=b'[Rules "wango"]\n\n1. a3a4 *\n')
    assert (uploaded.status_code, uploaded.json()["code"]) == (404, "record.unsupported")


@pytest.mark.usefixtures("no_capabilities")
def test_a_hint_needs_the_games_puzzles() -> None:
    row = PuzzleRow(id="p", fen=Board().fen(), rules="wango", line='["a3a4", "a7a6", "a4a5"]')
    with pytest.raises(puzzles.PuzzleError) as caught:
        puzzles.hint(row, [], 1)
    assert caught.value.code == "puzzle.none"


def test_a_hint_shows_where_the_move_starts_and_the_piece_there() -> None:
    row = PuzzleRow(id="p", fen=Board().fen(), rules="wango", line='["g1g2", "a7a6", "g2g1"]')
    lion = {"en": "lion", "zh": "狮", "zh-Hant": "獅"}
    assert puzzles.hint(row, [], 1) == {"square": "g1", "piece": lion}
    assert puzzles.hint(row, ["g1g2"], 2) == {
        "square": "g2",
        "piece": lion,
        "move": "g2g1",
        "move_text": {"en": "Lg2-g1", "zh": "狮 g2-g1", "zh-Hant": "獅 g2-g1"},
    }


def test_the_explorer_names_rule_sets_by_their_options() -> None:
    for name, rules in BUILTIN_RULE_SETS.items():
        assert explorer.named_rules(rules) == name
        assert explorer.named_rules(dataclasses.replace(rules, name="mine")) == name
    blue_first = dataclasses.replace(BUILTIN_RULE_SETS["wango"], first_player=1)
    assert explorer.named_rules(blue_first) is None
    assert explorer.game_entries(blue_first, ["a7a6"], winner=0, rating=0) == []


def test_the_explorer_keeps_jungles_keys_and_sets_other_games_apart() -> None:
    assert explorer.rules_key("wango") == "wango"
    assert explorer.rules_key("wango", "tiger") == "tiger:wango"
    entries = explorer.game_entries(BUILTIN_RULE_SETS["wango"], ["a3a4"], winner=None, rating=0)
    assert entries == [("wango", explorer.position_key(Board().fen()), "a3a4", False, 0, 1)]
