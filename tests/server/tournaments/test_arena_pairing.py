"""Arena tournaments (server/tournaments/arena.py): points with the winning streak's "fire",
and the pairing of idle players."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from doushouqi.server.tournaments.arena import (
    REMATCH_HOLD,
    ArenaPlayer,
    Outcome,
    game_points,
    pair_waiting,
)
from doushouqi.server.tournaments.standings import Entrant, PairingResult, arena_standings

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


def test_a_win_is_two_a_draw_one_a_loss_nothing() -> None:
    assert [p for p, _ in game_points([W, D, L, D])] == [2, 1, 0, 1]


def test_two_wins_in_a_row_double_the_next_games_until_one_is_not_won() -> None:
    points = game_points([W, W, W, W, D, W, W, L, W])
    assert [p for p, _ in points] == [2, 2, 4, 4, 2, 2, 2, 0, 2]
    assert [fire for _, fire in points] == [
        False,
        False,
        True,
        True,
        True,
        False,
        False,
        True,
        False,
    ]


def test_idle_players_are_paired_with_their_neighbours_in_the_standings() -> None:
    idle = [ArenaPlayer(f"p{i}", i, 0.0) for i in range(4)]
    assert pair_waiting(idle, 10.0) == [("p0", "p1"), ("p2", "p3")]


def test_an_immediate_rematch_waits_while_others_may_free_up() -> None:
    idle = [ArenaPlayer("a", 0, 100.0, "b"), ArenaPlayer("b", 1, 100.0, "a")]
    assert pair_waiting(idle, 101.0) == []
    assert pair_waiting(idle, 100.0 + REMATCH_HOLD) == [("a", "b")]
    assert pair_waiting(idle, 101.0, others_playing=False) == [("a", "b")]


def test_an_immediate_rematch_is_avoided_when_someone_else_waits() -> None:
    idle = [
        ArenaPlayer("a", 0, 0.0, "b"),
        ArenaPlayer("b", 1, 0.0, "a"),
        ArenaPlayer("c", 2, 0.0, "d"),
        ArenaPlayer("d", 3, 0.0, "c"),
    ]
    pairs = {frozenset(p) for p in pair_waiting(idle, 100.0)}
    assert frozenset("ab") not in pairs and frozenset("cd") not in pairs
    assert len(pairs) == 2


def test_with_an_odd_number_idle_the_newest_arrival_sits_out() -> None:
    idle = [ArenaPlayer("a", 0, 0.0), ArenaPlayer("b", 1, 5.0), ArenaPlayer("c", 2, 9.0)]
    assert pair_waiting(idle, 10.0) == [("a", "b")]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 50), st.sampled_from("abcdefgh") | st.none()),
        min_size=0,
        max_size=8,
    ),
    st.booleans(),
)
def test_pairs_are_disjoint_and_never_pair_anyone_twice(
    specs: list[tuple[int, str | None]], others_playing: bool
) -> None:
    idle = [
        ArenaPlayer(key, rank, float(wait), last)
        for rank, (key, (wait, last)) in enumerate(zip("abcdefgh", specs, strict=False))
    ]
    pairs = pair_waiting(idle, 100.0, others_playing=others_playing)
    seated = [k for pair in pairs for k in pair]
    assert len(seated) == len(set(seated))
    assert all(a != b for a, b in pairs)
    # Everyone who can be paired without a held rematch is.
    if not others_playing:
        assert len(pairs) == len(idle) // 2


def test_arena_standings_add_points_and_flag_players_on_fire() -> None:
    entrants = [Entrant("a", 1500), Entrant("b", 1600), Entrant("c", 1400)]
    results = [
        PairingResult(1, "a", "b", "1-0"),
        PairingResult(2, "c", "a", "0-1"),
        PairingResult(3, "a", "b", "1-0"),
        PairingResult(4, "b", "c", "-+"),
        PairingResult(5, "b", "c", None),
    ]
    table = arena_standings(entrants, results)
    assert [(r.key, r.score) for r in table] == [("a", 8), ("c", 2), ("b", 0)]
    assert table[0].on_fire and table[0].wins == 3
    assert table[1].played == 1  # the forfeit win was not played
