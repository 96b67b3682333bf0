"""Swiss pairing, one round at a time: pure (no IO, no clock), so it can be tested exhaustively.

The standard followed is the FIDE Dutch system's order of criteria, solved as one
maximum-weight matching (networkx's ``max_weight_matching``, a well-kept implementation of
Edmonds' blossom algorithm) instead of the Dutch system's transposition-and-exchange search.
Every pair of players is an edge; its weight encodes, in strict order of importance:

1. **No repeat pairings** (FIDE C1): two players who have met are paired again only when no
   pairing of the round avoids it (a second bye counts as a repeat too).
2. **No absolute colour conflict** (FIDE C3): two players who must both have the same colour
   (a colour difference of two, or the same colour twice in a row) are not paired while it can
   be avoided.
3. **Score groups first** (FIDE's minimised floats): the sum of the squared score differences of
   the pairs is as small as possible, so players meet others on their score, and a player
   floats to a neighbouring group only when their group cannot pair among itself.
4. **Colour preferences** (FIDE C12/C13): as few pairs as possible where both want the same
   colour.
5. **Top half against bottom half** (FIDE's S1 against S2): within a score group, the rank
   distance of each pair is as close as possible to half the group.

Where it departs from FIDE Dutch: the matching optimises the whole round at once rather than
group by group from the top (so a float may be chosen lower down when it costs the same), and
the bye is part of the same matching: a pseudo-player "BYE" whose edges prefer the
lowest-ranked player who has not had a bye (FIDE C2: nobody gets a second pairing-allocated bye
while another can have it). Colours follow FIDE's rules in order: the stronger preference wins
(absolute, then strong, then mild), then the higher-ranked player's; in the first round the
top board's higher seed is Red and the boards alternate.

Ranking (FIDE's pairing numbers): score, then rating, then the player's key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

__all__ = [
    "BLUE",
    "BYE",
    "RED",
    "Pairing",
    "SwissPlayer",
    "colour_preference",
    "pair_round",
    "rank",
]

RED, BLUE = 0, 1
#: The bye's pseudo-player in the matching graph.
BYE = "\x00bye"

#: Base of the lexicographic weights: larger than any lower criterion's total over a round.
_B = 1 << 24


@dataclass(frozen=True)
class SwissPlayer:
    """A player as the pairing needs them: their score so far, rating (at joining), the keys of
    the opponents they have met and the colours they had (``None`` for a bye or forfeit that
    gave them no colour), in round order."""

    key: str
    score: float
    rating: float = 1500.0
    opponents: tuple[str, ...] = ()
    colours: tuple[int | None, ...] = ()
    had_bye: bool = False


@dataclass(frozen=True)
class Pairing:
    """One board: ``red`` against ``blue``; ``blue`` None is a bye for ``red``."""

    red: str
    blue: str | None


@dataclass(frozen=True, order=True)
class _Preference:
    #: 3 absolute, 2 strong, 1 mild, 0 none (compared first).
    strength: int
    colour: int | None = field(compare=False, default=None)


def colour_preference(colours: Sequence[int | None]) -> tuple[int, int | None]:
    """(strength, colour) a player wants next: absolute (3) after two of one colour in a row or
    with a difference of two or more; strong (2) with a difference of one; mild (1) to
    alternate; none (0) before their first game. Byes (None) are skipped."""
    played = [c for c in colours if c is not None]
    if not played:
        return 0, None
    difference = played.count(RED) - played.count(BLUE)
    if abs(difference) >= 2 or (len(played) >= 2 and played[-1] == played[-2]):
        if difference:
            return 3, BLUE if difference > 0 else RED
        return 3, 1 - played[-1]
    if difference:
        return 2, BLUE if difference > 0 else RED
    return 1, 1 - played[-1]


def rank(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """Players in pairing order: score, then rating, highest first; then key."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.key))


def _half(score: float) -> int:
    return round(score * 2)


def pair_round(players: Sequence[SwissPlayer], round_number: int = 1) -> list[Pairing]:
    """The pairings of a round among ``players`` (the active ones: withdrawn players are left
    out by the caller), top board first; an odd player out gets a bye (``blue`` None)."""
    ranked = rank(players)
    if not ranked:
        return []
    seat = {p.key: i for i, p in enumerate(ranked)}
    by_key = {p.key: p for p in ranked}
    groups: dict[int, int] = {}
    for p in ranked:
        groups[_half(p.score)] = groups.get(_half(p.score), 0) + 1
    prefs = {p.key: colour_preference(p.colours) for p in ranked}
    graph = nx.Graph()
    graph.add_nodes_from(seat)
    n = len(ranked)
    keys = [p.key for p in ranked]
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            graph.add_edge(a, b, weight=_weight(by_key[a], by_key[b], seat, groups, prefs))
    if n % 2:
        graph.add_node(BYE)
        for p in ranked:
            repeat = 1 if p.had_bye else 0
            # The lowest score, then the lowest rank: the smaller the cost.
            cost = repeat * _B**4 + _half(p.score) ** 2 * _B**2 + (n - 1 - seat[p.key])
            graph.add_edge(p.key, BYE, weight=_B**5 - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    boards: list[Pairing] = []
    bye: Pairing | None = None
    for a, b in matching:
        if BYE in (a, b):
            bye = Pairing(b if a == BYE else a, None)
            continue
        boards.append(_coloured(by_key[a], by_key[b], seat, prefs, round_number))
    boards.sort(key=lambda pairing: min(seat[pairing.red], seat[pairing.blue or pairing.red]))
    if round_number == 1 or all(prefs[p.key][0] == 0 for p in ranked):
        boards = [_first_round_colours(board, index, seat) for index, board in enumerate(boards)]
    if bye is not None:
        boards.append(bye)
    return boards


def _weight(
    a: SwissPlayer,
    b: SwissPlayer,
    seat: dict[str, int],
    groups: dict[int, int],
    prefs: dict[str, tuple[int, int | None]],
) -> int:
    repeat = 1 if b.key in a.opponents else 0
    pa, pb = prefs[a.key], prefs[b.key]
    absolute_clash = 1 if pa[0] == 3 and pb[0] == 3 and pa[1] == pb[1] else 0
    score_gap = (_half(a.score) - _half(b.score)) ** 2
    colour_clash = 1 if pa[1] is not None and pa[1] == pb[1] else 0
    shape = 0
    if _half(a.score) == _half(b.score):
        # S1 against S2: the ideal distance in rank is half the score group.
        shape = abs(abs(seat[a.key] - seat[b.key]) - groups[_half(a.score)] // 2)
    cost = repeat * _B**4 + absolute_clash * _B**3 + score_gap * _B**2 + colour_clash * _B + shape
    return _B**5 - cost


def _coloured(
    a: SwissPlayer,
    b: SwissPlayer,
    seat: dict[str, int],
    prefs: dict[str, tuple[int, int | None]],
    round_number: int,
) -> Pairing:
    """Colours by FIDE's order: the stronger preference, then the higher-ranked player's."""
    pa, pb = prefs[a.key], prefs[b.key]
    higher, lower = (a, b) if seat[a.key] < seat[b.key] else (b, a)
    ph, pl = prefs[higher.key], prefs[lower.key]
    if pa[1] is not None and pa[1] != pb[1]:
        colour_of_a = pa[1]
    elif pb[1] is not None and pa[1] != pb[1]:
        colour_of_a = 1 - pb[1]
    elif ph[1] is None:  # neither has a preference (both new): alternate by round
        colour_of_a = (round_number + 1) % 2 if a is higher else round_number % 2
    else:  # the same wish: the stronger one gets it, else the higher-ranked
        winner = higher if ph[0] >= pl[0] else lower
        wish = prefs[winner.key][1]
        assert wish is not None
        colour_of_a = wish if winner is a else 1 - wish
    return Pairing(a.key, b.key) if colour_of_a == RED else Pairing(b.key, a.key)


def _first_round_colours(board: Pairing, index: int, seat: dict[str, int]) -> Pairing:
    """First round: the higher seed is Red on boards 1, 3, 5 … and Blue on 2, 4, 6 …"""
    assert board.blue is not None
    higher, lower = sorted((board.red, board.blue), key=lambda k: seat[k])
    return Pairing(higher, lower) if index % 2 == 0 else Pairing(lower, higher)
