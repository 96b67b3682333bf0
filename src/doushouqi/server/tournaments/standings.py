"""Standings of a tournament from its pairings: scores, arena points and Swiss tie-breaks.
Pure: the director and the API compute them from the stored pairings whenever asked, so they
are never out of step with the results.

A pairing's ``result`` (None while its game is on):

* ``1-0`` / ``0-1`` / ``1/2-1/2``: played (Red won, Blue won, a draw);
* ``+-`` / ``-+``: a forfeit — Red won because Blue never came, or the other way round;
* ``--``: neither came (both lose);
* ``bye``: Swiss only, ``blue`` is None; scores a win's points (FIDE's default: 1).

Swiss tie-breaks, in this order (FIDE's handbook names them): **Buchholz** (the sum of the
final scores of the opponents met over the board), **Buchholz cut 1** (the same less the
lowest of them), **Sonneborn–Berger** (the final scores of the opponents beaten, plus half of
those drawn with) and **wins** (over the board). Where this departs from FIDE: byes and forfeits
add nothing to the tie-breaks (FIDE counts a "virtual opponent" for them); the final sort
falls back on rating and then the player's key, so it is total.

Arena: points (see :mod:`.arena`), then wins, then rating.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from doushouqi.server.tournaments.arena import Outcome, game_points, is_on_fire
from doushouqi.server.tournaments.swiss import RED, SwissPlayer

__all__ = [
    "FORFEITS",
    "RESULTS",
    "Entrant",
    "PairingResult",
    "Standing",
    "arena_standings",
    "outcome_for",
    "swiss_history",
    "swiss_standings",
]

#: Every result a pairing can end with.
RESULTS = ("1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "bye")
FORFEITS = ("+-", "-+", "--")


@dataclass(frozen=True)
class Entrant:
    """A player in the tournament (withdrawn players stay in the standings)."""

    key: str
    rating: float = 1500.0


@dataclass(frozen=True)
class PairingResult:
    """A stored pairing, in the order the pairings were made (``round`` then ``order``)."""

    round: int
    red: str
    blue: str | None
    result: str | None
    order: int = 0


@dataclass
class Standing:
    key: str
    rating: float
    #: Swiss: points (1, ½, 0); arena: arena points.
    score: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    buchholz: float = 0.0
    buchholz_cut1: float = 0.0
    sonneborn_berger: float = 0.0
    on_fire: bool = False
    #: Each finished game's points in order (arena: doubled ones flagged).
    sheet: list[dict[str, Any]] = field(default_factory=list)
    rank: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "rank": self.rank,
            "rating": round(self.rating),
            "score": self.score,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "buchholz": self.buchholz,
            "buchholz_cut1": self.buchholz_cut1,
            "sonneborn_berger": self.sonneborn_berger,
            "on_fire": self.on_fire,
            "sheet": self.sheet,
        }


def outcome_for(result: str, colour: int) -> Outcome:
    """What ``result`` means for the player of ``colour`` (a bye is a win)."""
    if result == "bye":
        return Outcome.WIN
    if result == "1/2-1/2":
        return Outcome.DRAW
    if result == "--":
        return Outcome.LOSS
    red_won = result in ("1-0", "+-")
    return Outcome.WIN if red_won == (colour == RED) else Outcome.LOSS


def _finished(pairings: Iterable[PairingResult]) -> list[PairingResult]:
    return sorted((p for p in pairings if p.result is not None), key=lambda p: (p.round, p.order))


def _sides(p: PairingResult) -> list[tuple[str, int, str | None]]:
    sides: list[tuple[str, int, str | None]] = [(p.red, 0, p.blue)]
    if p.blue is not None:
        sides.append((p.blue, 1, p.red))
    return sides


_SWISS_POINTS = {Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0}


def swiss_standings(
    entrants: Sequence[Entrant], pairings: Iterable[PairingResult]
) -> list[Standing]:
    """The Swiss standings, first place first, with their tie-breaks."""
    table = {e.key: Standing(e.key, e.rating) for e in entrants}
    # Opponents met over the board, and what the game gave: for the tie-breaks.
    met: dict[str, list[tuple[str, float]]] = {e.key: [] for e in entrants}
    for p in _finished(pairings):
        assert p.result is not None
        for key, colour, opponent in _sides(p):
            row = table.get(key)
            if row is None:
                continue
            outcome = outcome_for(p.result, colour)
            points = _SWISS_POINTS[outcome]
            row.score += points
            row.sheet.append(
                {"round": p.round, "opponent": opponent, "result": p.result, "points": points}
            )
            if p.result in FORFEITS or p.result == "bye":
                continue
            row.played += 1
            row.wins += outcome is Outcome.WIN
            row.draws += outcome is Outcome.DRAW
            row.losses += outcome is Outcome.LOSS
            if opponent is not None and opponent in table:
                met[key].append((opponent, points))
    for key, row in table.items():
        scores = [table[o].score for o, _ in met[key]]
        row.buchholz = sum(scores)
        row.buchholz_cut1 = row.buchholz - min(scores) if scores else 0.0
        row.sonneborn_berger = sum(table[o].score * points for o, points in met[key])
    ordered = sorted(
        table.values(),
        key=lambda r: (
            -r.score,
            -r.buchholz,
            -r.buchholz_cut1,
            -r.sonneborn_berger,
            -r.wins,
            -r.rating,
            r.key,
        ),
    )
    for index, row in enumerate(ordered, 1):
        row.rank = index
    return ordered


def arena_standings(
    entrants: Sequence[Entrant], pairings: Iterable[PairingResult]
) -> list[Standing]:
    """The arena standings, first place first: points, then wins, then rating."""
    table = {e.key: Standing(e.key, e.rating) for e in entrants}
    outcomes: dict[str, list[Outcome]] = {e.key: [] for e in entrants}
    games: dict[str, list[tuple[PairingResult, str | None]]] = {e.key: [] for e in entrants}
    for p in _finished(pairings):
        assert p.result is not None
        for key, colour, opponent in _sides(p):
            if key not in table:
                continue
            outcomes[key].append(outcome_for(p.result, colour))
            games[key].append((p, opponent))
    for key, row in table.items():
        for (p, opponent), outcome, (points, fire) in zip(
            games[key], outcomes[key], game_points(outcomes[key]), strict=True
        ):
            row.score += points
            row.played += p.result not in FORFEITS
            row.wins += outcome is Outcome.WIN
            row.draws += outcome is Outcome.DRAW
            row.losses += outcome is Outcome.LOSS
            row.sheet.append(
                {"opponent": opponent, "result": p.result, "points": points, "fire": fire}
            )
        row.on_fire = is_on_fire(outcomes[key])
    ordered = sorted(table.values(), key=lambda r: (-r.score, -r.wins, -r.rating, r.key))
    for index, row in enumerate(ordered, 1):
        row.rank = index
    return ordered


def swiss_history(
    entrants: Sequence[Entrant], pairings: Iterable[PairingResult]
) -> dict[str, SwissPlayer]:
    """Each entrant as the Swiss pairing sees them: score, opponents, colours, byes."""
    score = {e.key: 0.0 for e in entrants}
    opponents: dict[str, list[str]] = {e.key: [] for e in entrants}
    colours: dict[str, list[int | None]] = {e.key: [] for e in entrants}
    byes: set[str] = set()
    for p in _finished(pairings):
        assert p.result is not None
        for key, colour, opponent in _sides(p):
            if key not in score:
                continue
            score[key] += _SWISS_POINTS[outcome_for(p.result, colour)]
            if opponent is None:
                byes.add(key)
                colours[key].append(None)
                continue
            opponents[key].append(opponent)
            colours[key].append(None if p.result in FORFEITS else colour)
    return {
        e.key: SwissPlayer(
            key=e.key,
            score=score[e.key],
            rating=e.rating,
            opponents=tuple(opponents[e.key]),
            colours=tuple(colours[e.key]),
            had_bye=e.key in byes,
        )
        for e in entrants
    }
