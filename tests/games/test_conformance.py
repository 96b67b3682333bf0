"""The checks every registered game must pass, through the game interface alone.

Like PettingZoo's ``api_test``: a new game that registers itself in :mod:`doushouqi.games` is
run through these with no test of its own written here. They use only
:mod:`doushouqi.core.game`, as the platform does: perft against the game's data files
(``tests/<game key>/data/<rule set>.perft``, the format of :mod:`tests.support.perft`),
position and move strings that read back as written, push/pop that restore the position and its
hash, outcomes that agree with the legal moves, rule sets that survive storage, and random
playouts that end or reach a bound. Depths and counts are kept small: the game's own tests go
deep; this file is about the interface and runs in seconds.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.perft import read_perft_file

from doushouqi.core.game import (
    GAMES,
    LANGUAGES,
    Game,
    IllegalMoveError,
    MoveError,
    Position,
    PositionError,
    RulesError,
    TimeoutEffect,
)
from doushouqi.core.outcome import SEATS
from doushouqi.games import INSTALLED

GAME_KEYS = sorted(GAMES)
TESTS = Path(__file__).parents[1]

#: Perft counts up to this many leaves are checked with the game's own perft.
PERFT_LEAVES = 20_000
#: ... and up to this many also by walking legal_moves/push/pop, the interface's own methods.
WALK_LEAVES = 1_500
#: Plies after which a random playout stops (and counts as not ended).
PLAYOUT_BOUND = 300
PLAYOUTS = 3


def _perft_files(key: str) -> list[Path]:
    """A game's perft data: one file per rule set, named after it."""
    return sorted((TESTS / key / "data").glob("*.perft"))


def _start(game: Game[Any], rules_name: str) -> tuple[Any, Position]:
    rules = game.parse_rules(rules_name)
    return rules, game.new_position(rules, game.start_position(rules))


def _perft_cases() -> list[Any]:
    cases = []
    for key in GAME_KEYS:
        for path in _perft_files(key):
            for position in read_perft_file(path):
                for depth, count in position.counts:
                    if count <= PERFT_LEAVES:
                        cases.append(
                            pytest.param(
                                key,
                                path.stem,
                                position.epd,
                                depth,
                                count,
                                id=f"{key}-{path.stem}-{position.id}-{depth}",
                            )
                        )
    return cases


def _sample_starts(key: str) -> list[tuple[str, str]]:
    """(rule set name, position string): every start position and every perft position."""
    game = GAMES[key]
    starts = [(name, game.start_position(game.parse_rules(name))) for name in game.rule_set_names]
    for path in _perft_files(key):
        starts += [(path.stem, p.epd) for p in read_perft_file(path)]
    return starts


def _walk(position: Position, depth: int) -> int:
    """Perft through the interface's legal_moves, push and pop only."""
    if depth == 0:
        return 1
    total = 0
    for move in position.legal_moves():
        position.push(move)
        total += _walk(position, depth - 1)
        assert position.pop() == move
    return total


def _snapshot(position: Position) -> tuple[str, int, int]:
    return position.position_string(), position.position_hash(), position.turn


def _check_position(game: Game[Any], rules: Any, position: Position) -> None:
    """Everything that must hold in any position, checked through the interface."""
    snapshot = _snapshot(position)
    assert position.turn in SEATS
    # The position string reads back as written, to the same hash and side to move.
    text = position.position_string()
    again = game.new_position(rules, text)
    assert _snapshot(again) == snapshot

    moves = position.legal_moves()
    assert len(set(moves)) == len(moves), "a legal move is listed twice"
    outcome = position.outcome()
    if not moves:
        assert outcome is not None, "no legal move, yet the game goes on"
    if outcome is not None:
        assert outcome.is_on_board, "a position can only end the game by a board ending"
        assert outcome.key in game.board_endings
        assert outcome.winner is None or outcome.winner in SEATS

    # The web board's destinations are the legal moves, grouped by the place moved from.
    destinations = position.legal_destinations()
    assert sum(len(places) for places in destinations.values()) == len(moves)
    assert all(places for places in destinations.values()), "a place listed with no move"

    for move in moves:
        assert position.parse_move(move) == move
        for lang in LANGUAGES:
            words = position.move_text(move, lang)
            assert isinstance(words, str) and words.strip()
        position.push(move)
        assert position.turn in SEATS
        if position.outcome() is None:
            # Well formed, but the place it leaves is now empty: refused as illegal, which a
            # server answers differently from text that is no move at all.
            with pytest.raises(IllegalMoveError):
                position.parse_move(move)
        assert position.pop() == move
        assert _snapshot(position) == snapshot

    for junk in ("", "not a move", "\x00"):
        with pytest.raises(MoveError):
            position.parse_move(junk)
    if game.pass_move is not None:
        with pytest.raises(MoveError):  # a pass is never a move a player may choose
            position.parse_move(game.pass_move)
    assert _snapshot(position) == snapshot


# ------------------------------------------------------------------------------- registry


def test_the_installed_games_are_registered() -> None:
    assert "jungle" in GAMES
    assert {game.key for game in INSTALLED} <= set(GAMES)
    for key, game in GAMES.items():
        assert game.key == key


@pytest.mark.parametrize("key", GAME_KEYS)
def test_names(key: str) -> None:
    game = GAMES[key]
    for lang in LANGUAGES:
        assert game.name(lang).strip()
        seats = [game.seat_name(seat, lang) for seat in SEATS]
        assert all(name.strip() for name in seats) and seats[0] != seats[1]
        for ending in game.board_endings:
            assert game.ending_name(ending, lang).strip()
    assert len(set(game.board_endings)) == len(game.board_endings)


# ------------------------------------------------------------------------------- rule sets


@pytest.mark.parametrize("key", GAME_KEYS)
def test_rule_sets_survive_storage(key: str) -> None:
    game = GAMES[key]
    assert game.rule_set_names and game.default_rule_set in game.rule_set_names
    assert len(set(game.rule_set_names)) == len(game.rule_set_names)
    for name in game.rule_set_names:
        rules = game.parse_rules(name)
        mapping = game.rules_to_mapping(rules)
        assert mapping["name"] == name
        stored = json.loads(json.dumps(mapping))  # what the database gives back
        assert game.parse_rules(stored) == rules
        assert game.rules_to_mapping(game.parse_rules(stored)) == mapping
    with pytest.raises(RulesError):
        game.parse_rules("no such rule set")


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_first_seat_is_part_of_the_rule_set(key: str) -> None:
    game = GAMES[key]
    for name in game.rule_set_names:
        rules = game.parse_rules(name)
        start = game.new_position(rules, game.start_position(rules))
        assert game.first_seat(rules) == start.turn
        for seat in SEATS:
            try:
                chosen = game.with_first_seat(rules, seat)
            except RulesError:
                continue  # a game may fix who moves first
            assert game.first_seat(chosen) == seat
            stored = json.loads(json.dumps(game.rules_to_mapping(chosen)))
            assert game.first_seat(game.parse_rules(stored)) == seat
            assert game.new_position(chosen, game.start_position(chosen)).turn == seat
        with pytest.raises(RulesError):
            game.with_first_seat(rules, 2)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_bad_position_strings_are_refused(key: str) -> None:
    game = GAMES[key]
    rules = game.parse_rules(game.default_rule_set)
    for junk in ("", "x", "not a position at all"):
        with pytest.raises(PositionError):
            game.new_position(rules, junk)


# ----------------------------------------------------------------------------------- perft


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_has_perft_data(key: str) -> None:
    game = GAMES[key]
    files = _perft_files(key)
    assert files, f"no perft data in tests/{key}/data/"
    names = {path.stem for path in files}
    assert game.default_rule_set in names
    assert names <= set(game.rule_set_names), "a perft file named after no rule set"
    assert any(p.counts for path in files for p in read_perft_file(path))


@pytest.mark.parametrize(("key", "rules", "epd", "depth", "count"), _perft_cases())
def test_perft(key: str, rules: str, epd: str, depth: int, count: int) -> None:
    game = GAMES[key]
    position = game.new_position(game.parse_rules(rules), epd)
    before = _snapshot(position)
    assert position.perft(depth) == count
    if count <= WALK_LEAVES:
        assert _walk(position, depth) == count
    assert _snapshot(position) == before


# ------------------------------------------------------------------------- positions, moves


@pytest.mark.parametrize("key", GAME_KEYS)
def test_sample_positions(key: str) -> None:
    game = GAMES[key]
    for rules_name, text in _sample_starts(key):
        rules = game.parse_rules(rules_name)
        _check_position(game, rules, game.new_position(rules, text))


@pytest.mark.parametrize("key", GAME_KEYS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_random_move_sequences(key: str, data: st.DataObject) -> None:
    game = GAMES[key]
    rules_name, text = data.draw(st.sampled_from(_sample_starts(key)), label="start")
    rules = game.parse_rules(rules_name)
    position = game.new_position(rules, text)
    history: list[tuple[str, int, int]] = []
    for _ in range(data.draw(st.integers(0, 40), label="plies")):
        if position.outcome() is not None:
            break
        history.append(_snapshot(position))
        position.push(data.draw(st.sampled_from(position.legal_moves())))
    _check_position(game, rules, position)
    reached = _snapshot(position)
    copy = position.copy()
    for before in reversed(history):
        position.pop()
        assert _snapshot(position) == before
    # The copy kept the reached position and the moves that led there.
    assert _snapshot(copy) == reached
    for before in reversed(history):
        copy.pop()
        assert _snapshot(copy) == before


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_copy_is_independent(key: str) -> None:
    game = GAMES[key]
    _, position = _start(game, game.default_rule_set)
    copy = position.copy()
    copy.push(copy.legal_moves()[0])
    assert position.position_string() != copy.position_string()
    assert copy.pop() and copy.position_string() == position.position_string()


@pytest.mark.parametrize("key", GAME_KEYS)
def test_timeouts(key: str) -> None:
    game = GAMES[key]
    _, position = _start(game, game.default_rule_set)
    before = _snapshot(position)
    if game.timeout_effect is TimeoutEffect.LOSS:
        assert game.pass_move is None
        with pytest.raises(MoveError):
            position.push_pass()
        return
    assert game.pass_move is not None
    position.push_pass()
    assert position.turn != before[2]
    assert position.pop() == game.pass_move
    assert _snapshot(position) == before


# -------------------------------------------------------------------------------- playouts


def _playout_cases() -> list[Any]:
    return [
        pytest.param(key, name, id=f"{key}-{name}")
        for key in GAME_KEYS
        for name in GAMES[key].rule_set_names
    ]


@pytest.mark.parametrize(("key", "rules_name"), _playout_cases())
def test_random_playouts_end_or_reach_the_bound(key: str, rules_name: str) -> None:
    game = GAMES[key]
    rng = random.Random(f"{key}/{rules_name}")  # a text seed: the same games every run
    for _ in range(PLAYOUTS):
        _, position = _start(game, rules_name)
        start = _snapshot(position)
        plies = 0
        while position.outcome() is None and plies < PLAYOUT_BOUND:
            moves = position.legal_moves()
            assert moves, f"no legal move and no outcome after {plies} plies"
            position.push(rng.choice(moves))
            plies += 1
        outcome = position.outcome()
        assert outcome is not None or plies == PLAYOUT_BOUND
        if outcome is not None and not position.legal_moves() and game.pass_move is not None:
            with pytest.raises(MoveError):  # no pass once the game is over on the board
                position.push_pass()
        for _ in range(plies):
            position.pop()
        assert _snapshot(position) == start
