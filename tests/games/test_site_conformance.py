"""What the platform needs of every registered game, checked the same way for each: the
server's domain plays it and stores it without loss; and of every game the site offers: it is
an installed game, and its computer player (where the site has one) answers with legal moves.

A game is installed (``doushouqi.games``) before the site offers it (``SITE_GAMES``,
docs/games.md "Adding a game"), so the two lists need not be equal: the domain, which reaches
games only through ``core.game``, must play every installed one all the same.

The game-level checks (perft, position and move strings, push/pop, outcomes) are in
``test_conformance.py``; these drive the game through the server's own code.
"""

from __future__ import annotations

import datetime
import json
import random

import pytest
from tests.support.helpers import T0, started

from doushouqi.core.game import GAMES, get_game
from doushouqi.server.domain import (
    Game,
    GameSpec,
    Mode,
    Move,
    PlayerSlot,
    Rejected,
    apply,
    new_game,
)
from doushouqi.server.domain.storage import game_from_storage, game_to_storage
from doushouqi.server.games.choices import chosen_rules, rule_changes, rules_parent
from doushouqi.server.games.registry import SITE_GAMES
from doushouqi.server.infra.refused import Refused

GAME_KEYS = sorted(GAMES)
SITE_KEYS = sorted(SITE_GAMES)


def test_the_site_offers_only_installed_games() -> None:
    assert SITE_KEYS and set(SITE_KEYS) <= set(GAME_KEYS)
    assert all(SITE_GAMES[key].key == key for key in SITE_GAMES)


def _one_screen(key: str, game_id: str) -> Game:
    seat = PlayerSlot.account(5, "both seats")
    spec = GameSpec(Mode.SAME_SCREEN, (seat, seat), game_key=key)
    return started(new_game(spec, game_id=game_id, now=T0))


@pytest.mark.parametrize("key", GAME_KEYS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_domain_plays_and_stores_every_game(key: str, seed: int) -> None:
    """Random legal moves through ``apply``: each is accepted, the game's position follows the
    game's own rules, and the stored form (as JSON, as the database keeps it) reads back equal."""
    rng = random.Random(seed)
    game = _one_screen(key, f"{key[:8]}-{seed}")
    position = get_game(key).new_position(game.rules, get_game(key).start_position(game.rules))
    now = T0
    for _ in range(40):
        if game.status.is_over:
            break
        legal = game.position().legal_moves()
        assert sorted(legal) == sorted(position.legal_moves())
        move = rng.choice(legal)
        now += 1.0
        game, events = apply(game, Move(actor=game.players[game.turn].identity, move=move), now)
        assert not any(isinstance(e, Rejected) for e in events), events
        position.push(move)
        assert game.position().position_string() == position.position_string()
        stored = json.loads(json.dumps(game_to_storage(game)))
        assert game_from_storage(stored) == game
    assert game.game_key == key


@pytest.mark.parametrize("key", [k for k in SITE_KEYS if SITE_GAMES[k].engine is not None])
def test_the_computer_player_answers_with_legal_moves(key: str) -> None:
    """A few positions along a random game: the engine's move is legal there (or None only
    when the game is over)."""
    engine = SITE_GAMES[key].engine
    assert engine is not None
    game = get_game(key)
    rules = game.parse_rules(game.default_rule_set)
    position = game.new_position(rules, game.start_position(rules))
    rng = random.Random(7)
    for _ in range(4):
        move, nodes = engine.best_move(position.copy(), 1, 0.05, 0.05)
        if position.outcome() is not None:
            assert move is None
            break
        assert move in position.legal_moves(), (position.position_string(), move)
        assert nodes >= 0
        for _ in range(rng.randrange(1, 6)):
            if position.outcome() is not None:
                break
            position.push(rng.choice(position.legal_moves()))


@pytest.mark.parametrize("key", SITE_KEYS)
def test_every_named_rule_set_is_a_choice_and_changes_nothing(key: str) -> None:
    """The site's rule choice (``chosen_rules``) takes each named set of the game, by name and
    as options over it, and names it as the game does; a set is no change of itself."""
    game = get_game(key)
    assert chosen_rules(None, key) == game.parse_rules(game.default_rule_set)
    for name in game.rule_set_names:
        rules = chosen_rules(name, key)
        assert rules == game.parse_rules(name)
        assert rules_parent(rules, key) == name and rule_changes(rules, key) == {}
        entry = game.rules_to_mapping(rules)  # an /api/rules entry sent back as options
        assert chosen_rules({**entry, "parent": name}, key) == rules
    with pytest.raises(Refused):
        chosen_rules("no such set", key)


@pytest.mark.parametrize("key", [k for k in SITE_KEYS if SITE_GAMES[k].records is not None])
@pytest.mark.parametrize("seed", [4, 5])
def test_records_read_back_what_the_site_played(key: str, seed: int) -> None:
    """A game played through the domain, written in the game's record format, reads back with
    the same moves, rules and result; and the record the replay view shows is that game."""
    records = SITE_GAMES[key].records
    assert records is not None
    rng = random.Random(seed)
    game = _one_screen(key, f"rec-{seed}")
    now = T0
    for _ in range(30):
        if game.status.is_over:
            break
        now += 1.0
        choice = rng.choice(game.position().legal_moves())
        game, _ = apply(game, Move(actor=game.players[game.turn].identity, move=choice), now)
    day = datetime.date(2024, 5, 17)
    text = records.write(game, day, {"Event": "Conformance"})
    read = records.read(text)
    shown = records.from_game(game, day, {"Event": "Conformance"})
    moves = tuple(m.move for m in game.moves)
    assert read.game_key == shown.game_key == key
    assert read.moves == shown.moves == moves and read.result == shown.result == game.result
    assert read.rules == shown.rules == game.rules and read.tags["Event"] == "Conformance"
