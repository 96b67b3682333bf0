"""Swiss pairing (server/tournaments/swiss.py) and its standings: score groups, no repeats,
byes, colours, tie-breaks."""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from doushouqi.server.tournaments.standings import (
    Entrant,
    PairingResult,
    swiss_history,
    swiss_standings,
)
from doushouqi.server.tournaments.swiss import (
    BLUE,
    RED,
    Pairing,
    SwissPlayer,
    colour_preference,
    pair_round,
)


def _entrants(n: int) -> list[Entrant]:
    return [Entrant(f"p{i:02d}", 2000 - 10 * i) for i in range(n)]


def _play(
    entrants: list[Entrant], rounds: int, rng: random.Random
) -> tuple[list[PairingResult], list[list[Pairing]]]:
    """A whole tournament with random results; the pairings of each round too."""
    stored: list[PairingResult] = []
    by_round = []
    for number in range(1, rounds + 1):
        history = swiss_history(entrants, stored)
        boards = pair_round(list(history.values()), number)
        by_round.append(boards)
        for order, board in enumerate(boards):
            result = "bye" if board.blue is None else rng.choice(["1-0", "0-1", "1/2-1/2"])
            stored.append(PairingResult(number, board.red, board.blue, result, order))
    return stored, by_round


def _fewest_repeats(history: dict[str, SwissPlayer]) -> int:
    """The fewest repeat pairings (a second bye counts as one) any pairing of the round has."""
    graph = nx.Graph()
    keys = list(history)
    if len(keys) % 2:
        keys.append("BYE")
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            if "BYE" in (a, b):
                repeat = history[b if a == "BYE" else a].had_bye
            else:
                repeat = b in history[a].opponents
            graph.add_edge(a, b, weight=0 if repeat else 1)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return len(matching) - sum(graph.edges[a, b]["weight"] for a, b in matching)


def _repeats(history: dict[str, SwissPlayer], boards: list[Pairing]) -> int:
    return sum(
        history[b.red].had_bye if b.blue is None else b.blue in history[b.red].opponents
        for b in boards
    )


def test_first_round_pairs_top_half_against_bottom_half_with_alternating_colours() -> None:
    players = [SwissPlayer(f"p{i}", 0.0, 2000 - i) for i in range(8)]
    boards = pair_round(players, 1)
    assert boards == [
        Pairing("p0", "p4"),
        Pairing("p5", "p1"),
        Pairing("p2", "p6"),
        Pairing("p7", "p3"),
    ]


def test_odd_player_out_gets_the_bye_and_it_goes_to_the_lowest_ranked() -> None:
    players = [SwissPlayer(f"p{i}", 0.0, 2000 - i) for i in range(5)]
    boards = pair_round(players, 1)
    assert boards[-1] == Pairing("p4", None)
    assert len(boards) == 3


def test_bye_skips_a_player_who_has_had_one() -> None:
    players = [SwissPlayer(f"p{i}", 1.0, 2000 - i) for i in range(4)]
    players.append(SwissPlayer("p4", 1.0, 1000, colours=(None,), had_bye=True))
    boards = pair_round(players, 2)
    bye = [b for b in boards if b.blue is None]
    assert bye == [Pairing("p3", None)]


def test_score_groups_pair_among_themselves_first() -> None:
    winners = [SwissPlayer(f"w{i}", 1.0, 1500 + i, colours=(i % 2,)) for i in range(4)]
    losers = [SwissPlayer(f"l{i}", 0.0, 1600 + i, colours=(1 - i % 2,)) for i in range(4)]
    boards = pair_round(winners + losers, 2)
    for board in boards:
        assert board.blue is not None
        assert board.red[0] == board.blue[0], board


def test_a_repeat_pairing_is_avoided_even_at_the_cost_of_a_float() -> None:
    a = SwissPlayer("a", 1.0, 2000, opponents=("b",), colours=(RED,))
    b = SwissPlayer("b", 1.0, 1900, opponents=("a",), colours=(BLUE,))
    c = SwissPlayer("c", 0.0, 1800, opponents=("d",), colours=(RED,))
    d = SwissPlayer("d", 0.0, 1700, opponents=("c",), colours=(BLUE,))
    boards = pair_round([a, b, c, d], 2)
    pairs = {frozenset((x.red, x.blue)) for x in boards}
    assert frozenset(("a", "b")) not in pairs
    assert frozenset(("c", "d")) not in pairs


def test_colour_preferences_follow_the_fide_strengths() -> None:
    assert colour_preference(()) == (0, None)
    assert colour_preference((RED,)) == (2, BLUE)
    assert colour_preference((RED, BLUE)) == (1, RED)
    assert colour_preference((RED, RED)) == (3, BLUE)
    assert colour_preference((BLUE, None, BLUE)) == (3, RED)
    assert colour_preference((RED, BLUE, BLUE)) == (3, RED)


def test_the_player_who_must_have_a_colour_gets_it() -> None:
    a = SwissPlayer("a", 2.0, 2000, opponents=("x", "y"), colours=(RED, RED))
    b = SwissPlayer("b", 2.0, 1900, opponents=("z", "w"), colours=(BLUE, RED))
    (board,) = pair_round([a, b], 3)
    assert board == Pairing("b", "a")


def test_tie_breaks_buchholz_cut1_sonneborn_berger_and_wins() -> None:
    entrants = [Entrant(k, 1500) for k in "abcd"]
    results = [
        PairingResult(1, "a", "b", "1-0"),
        PairingResult(1, "c", "d", "1/2-1/2", 1),
        PairingResult(2, "d", "a", "0-1"),
        PairingResult(2, "b", "c", "1-0", 1),
    ]
    table = {row.key: row for row in swiss_standings(entrants, results)}
    assert [table[k].score for k in "abcd"] == [2.0, 1.0, 0.5, 0.5]
    # a met b (1) and d (0.5).
    assert table["a"].buchholz == 1.5
    assert table["a"].buchholz_cut1 == 1.0
    assert table["a"].sonneborn_berger == 1.5
    # c met d (0.5, drawn) and b (1, lost); d met c (0.5, drawn) and a (2, lost).
    assert table["c"].sonneborn_berger == 0.25
    assert table["d"].buchholz == 2.5
    assert table["d"].rank == 3 and table["c"].rank == 4
    assert table["a"].wins == 2


def test_byes_and_forfeits_score_but_count_for_no_tie_break() -> None:
    entrants = [Entrant(k, 1500) for k in "abc"]
    results = [
        PairingResult(1, "a", "b", "+-"),
        PairingResult(1, "c", None, "bye", 1),
    ]
    table = {row.key: row for row in swiss_standings(entrants, results)}
    assert table["a"].score == 1.0 and table["c"].score == 1.0 and table["b"].score == 0.0
    assert table["a"].buchholz == 0.0 and table["a"].played == 0


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=11),
    rounds=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_whole_tournaments_keep_the_swiss_promises(n: int, rounds: int, seed: int) -> None:
    entrants = _entrants(n)
    rng = random.Random(seed)
    stored: list[PairingResult] = []
    byes: list[str] = []
    for number in range(1, rounds + 1):
        history = swiss_history(entrants, stored)
        boards = pair_round(list(history.values()), number)
        seated = [k for b in boards for k in (b.red, b.blue) if k is not None]
        assert sorted(seated) == sorted(e.key for e in entrants)  # everyone, once
        assert sum(b.blue is None for b in boards) == n % 2
        # No repeat pairing and no second bye while they can be avoided.
        assert _repeats(history, boards) == _fewest_repeats(history), (number, boards)
        bye = next((b.red for b in boards if b.blue is None), None)
        if bye is not None:
            if number <= 2:  # byes to distinct players while nothing else constrains them
                assert bye not in byes
            byes.append(bye)
        for order, board in enumerate(boards):
            result = "bye" if board.blue is None else rng.choice(["1-0", "0-1", "1/2-1/2"])
            stored.append(PairingResult(number, board.red, board.blue, result, order))
    # Colours stay balanced: nobody has two more of one colour than of the other (while the
    # rounds are few enough that avoiding repeats leaves the colours a choice).
    final = swiss_history(entrants, stored)
    for player in final.values() if rounds <= n // 2 else ():
        played = [c for c in player.colours if c is not None]
        assert abs(played.count(RED) - played.count(BLUE)) <= 2, player


@settings(max_examples=40, deadline=None)
@given(half=st.integers(min_value=2, max_value=6), seed=st.integers(0, 10**6))
def test_even_fields_never_get_three_of_a_colour_in_a_row_early(half: int, seed: int) -> None:
    n = 2 * half
    _stored, by_round = _play(_entrants(n), min(4, n - 1), random.Random(seed))
    runs: dict[str, list[int]] = {}
    for boards in by_round:
        for board in boards:
            assert board.blue is not None
            runs.setdefault(board.red, []).append(RED)
            runs.setdefault(board.blue, []).append(BLUE)
    for key, colours in runs.items():
        for i in range(len(colours) - 2):
            assert len(set(colours[i : i + 3])) > 1, (key, colours)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=2, max_value=10), seed=st.integers(0, 10**6))
def test_standings_rank_everyone_by_score_first(n: int, seed: int) -> None:
    entrants = _entrants(n)
    stored, _ = _play(entrants, 4, random.Random(seed))
    table = swiss_standings(entrants, stored)
    assert [row.rank for row in table] == list(range(1, n + 1))
    scores = [row.score for row in table]
    assert scores == sorted(scores, reverse=True)
    # Every game hands out one point (a draw two halves), a bye one.
    assert sum(scores) == len(stored)
