"""Puzzles: the shipped set in the database, choosing the next one, judging moves, ratings.

The puzzles are generated and proved by ``tools/puzzles/generate.py`` and shipped as
``server/data/puzzles.jsonl``. At a node's first puzzle request the file's puzzles that the
database lacks are inserted (by id; a puzzle already there keeps its rating, which solvers
have moved), so the set is the same on every node and survives restarts.

Solving is stateless on the server: the client sends the player's moves so far and the server
answers with the opponent's reply (``continue``), ``wrong`` or ``solved``. A wrong move ends
nothing: the answer gives the position before it, and the player tries again (as on
lichess); the solution is only sent when the puzzle is solved or the player asks for it. The
first try of a player at a puzzle is rated (Glicko-2, the player against the puzzle, both
ratings move) at its first wrong move or its solve; asking for a hint or the solution first
makes it a miss. What follows in the same go (``retry``: the client's word that its miss is
recorded) is recorded no more. A try is no first try when the browser asking has seen the
solution under another name (:func:`mark_seen`: as the guest it was before signing in, or
signed in to another account on it). Streak mode serves puzzles of rising rating until the
first miss; a puzzle solved again in the same streak counts once, and the one whose miss
ended a streak does not start the next.

Every move the solver is shown (the opponent's replies, hints, the solution, the move found
wrong) comes with its readable texts in the site's languages (:func:`move_texts`, the game's
own ``move_text``), so that the page writes "象 d3-c3" as the rest of the site does.

Rule sets: a puzzle is only right under the rule set it was proved under, so a player is
served puzzles of one set: the one asked for, else the game's default (Jungle's wango, the
set the lessons teach). ``any`` asks for all. The daily puzzle is one per rule set (the same
for everyone playing that set).

Positions are read and moves checked through the game interface (:mod:`doushouqi.core.game`);
what only the game knows (where a move starts, for a hint) is its site entry's ``puzzles``.
The puzzle table names no game: the shipped set (and so every row) is the default game's,
Jungle's (:data:`GAME_KEY`); a second game's puzzles would add a game column first.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from doushouqi.core.game import LANGUAGES, MoveError, Position, get_game
from doushouqi.core.rating import Rating, rate_game
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.games.capabilities import Puzzles
from doushouqi.server.games.registry import site_game
from doushouqi.server.puzzles.models import (
    PuzzleAttemptRow,
    PuzzlePlayerRow,
    PuzzleRow,
    PuzzleSeenRow,
)

DATA = Path(__file__).with_name("data") / "puzzles.jsonl"
#: The game the puzzles are of (the rows name none: see the module's description).
GAME_KEY = DEFAULT_GAME_KEY
THEMES = ("den_attack", "capture", "traps", "rat_elephant", "jump_blocking", "defence", "endgame")
MODES = ("rated", "streak", "daily", "theme")
#: ``rules=any``: puzzles of every rule set.
ANY_RULES = "any"
#: Streak mode starts here and climbs from the last puzzle solved.
STREAK_START = 1000.0
#: The next puzzle is one of this many nearest the player's rating (not tried before).
NEAREST = 12
HISTORY = 20


class PuzzleError(ValueError):
    """A request the puzzles cannot answer: ``code`` for the client, ``status`` for HTTP."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code


@functools.cache
def shipped(path: Path = DATA) -> tuple[dict[str, Any], ...]:
    """The puzzles of the shipped file (none when it is missing)."""
    if not path.exists():
        return ()
    found = []
    for line in path.read_text("utf-8").splitlines():
        try:
            puzzle = json.loads(line)
        except ValueError:  # a line still being written by the generator
            continue
        if isinstance(puzzle, dict) and {"id", "fen", "rules", "line"} <= puzzle.keys():
            found.append(puzzle)
    return tuple(found)


def load(session: Session, puzzles: Sequence[dict[str, Any]]) -> int:
    """Insert the puzzles the database lacks; returns how many were added."""
    have = set(session.scalars(select(PuzzleRow.id)))
    added = 0
    for puzzle in puzzles:
        if puzzle["id"] in have:
            continue
        session.add(
            PuzzleRow(
                id=puzzle["id"],
                fen=puzzle["fen"],
                rules=puzzle["rules"],
                kind=puzzle["kind"],
                depth=int(puzzle["depth"]),
                line=json.dumps(puzzle["line"]),
                themes="," + ",".join(puzzle["themes"]) + ",",
                rating=float(puzzle["rating"]),
                rating_rd=350.0,
                rating_volatility=0.06,
                plays=0,
                solved=0,
                source=str(puzzle.get("source", ""))[:120],
            )
        )
        have.add(puzzle["id"])
        added += 1
    return added


def load_safely(session: Session, puzzles: Sequence[dict[str, Any]]) -> int:
    """:func:`load`, where another node loading at the same moment is no error."""
    try:
        with session.begin_nested():
            return load(session, puzzles)
    except IntegrityError:  # another node inserted some of them first: they are there now
        return 0


# ------------------------------------------------------------------------------- views


def _line(row: PuzzleRow) -> list[str]:
    return [str(m) for m in json.loads(row.line)]


def solution(row: PuzzleRow) -> list[str]:
    return _line(row)


def themes_of(row: PuzzleRow) -> list[str]:
    return [t for t in row.themes.split(",") if t]


def _capability() -> Puzzles:
    puzzles = site_game(GAME_KEY).puzzles
    if puzzles is None:  # the site's list of games and the shipped set disagree
        raise PuzzleError(404, "puzzle.none", f"no puzzles for {GAME_KEY}")
    return puzzles


def position_after(row: PuzzleRow, moves: Sequence[str]) -> Position:
    """The puzzle's position after ``moves`` (moves of its line: not checked)."""
    game = get_game(GAME_KEY)
    position = game.new_position(game.parse_rules(row.rules), row.fen)
    for move in moves:
        position.push(move)
    return position


def move_texts(position: Position, move: str) -> dict[str, str]:
    """A legal move of ``position`` as each language of the site writes it."""
    return {lang: position.move_text(move, lang) for lang in LANGUAGES}


def line_texts(row: PuzzleRow, moves: Sequence[str]) -> list[dict[str, str]]:
    """The readable texts of ``moves`` played from the puzzle's position (moves of its line)."""
    position = position_after(row, ())
    texts = []
    for move in moves:
        texts.append(move_texts(position, move))
        position.push(move)
    return texts


def goal_of(row: PuzzleRow) -> str:
    """What the solver is asked for, which the page words: ``defence`` (the one move that
    does not lose), ``den`` (a win that ends in the den: a den entry, or the way to it) or
    ``win`` (a win by capturing the last animals or leaving the opponent no move)."""
    if row.kind == "defence":
        return "defence"
    return "den" if "den_attack" in themes_of(row) else "win"


def default_rules() -> str:
    return get_game(GAME_KEY).default_rule_set


def rules_wanted(rules: str | None) -> str | None:
    """The rule set a request asks for (None: every set); refused when the game has none of
    that name."""
    if not rules:
        return default_rules()
    if rules == ANY_RULES:
        return None
    if rules not in get_game(GAME_KEY).rule_set_names:
        raise PuzzleError(422, "puzzle.bad_rules", "no such rule set")
    return rules


def public_view(row: PuzzleRow) -> dict[str, Any]:
    """What a solver sees before solving: the position, never the line."""
    position = position_after(row, ())
    line = _line(row)
    return {
        "id": row.id,
        "fen": row.fen,
        "rules": row.rules,
        "kind": row.kind,
        "goal": goal_of(row),
        # A win: the player's moves to find; a defence: the moves within which every other
        # move loses.
        "depth": row.depth,
        # The client's word for a seat (its board's colours), not a translated name.
        "turn": "red" if position.turn == 0 else "blue",
        "themes": themes_of(row),
        "rating": round(row.rating),
        "plays": row.plays,
        "solved": row.solved,
        "moves": (len(line) + 1) // 2,
        "dests": position.legal_destinations(),
    }


def get(session: Session, puzzle_id: str) -> PuzzleRow:
    row = session.get(PuzzleRow, puzzle_id)
    if row is None:
        raise PuzzleError(404, "puzzle.not_found", "no such puzzle")
    return row


# ---------------------------------------------------------------------------- choosing


def _player(session: Session, key: str) -> PuzzlePlayerRow:
    row = session.get(PuzzlePlayerRow, key)
    if row is None:
        row = PuzzlePlayerRow(
            player_key=key,
            rating=1500.0,
            rating_rd=350.0,
            rating_volatility=0.06,
            attempts=0,
            solved=0,
            streak=0,
            streak_rating=0.0,
            streak_best=0,
            updated_at=0.0,
        )
        session.add(row)
        session.flush()
    return row


def choose(
    session: Session, key: str, mode: str, theme: str | None, rules: str | None, rng: random.Random
) -> PuzzleRow:
    """The next puzzle: near the player's rating (streak: just above the last one solved),
    of the theme and rule set asked for, not tried before where any is left."""
    player = session.get(PuzzlePlayerRow, key)
    tried = select(PuzzleAttemptRow.puzzle_id).where(PuzzleAttemptRow.player_key == key)
    query = select(PuzzleRow)
    if theme:
        query = query.where(PuzzleRow.themes.like(f"%,{theme},%"))
    if rules:
        query = query.where(PuzzleRow.rules == rules)
    if mode == "streak":
        floor = max(STREAK_START, player.streak_rating if player else 0.0)
        ordered = query.where(PuzzleRow.rating > floor).order_by(PuzzleRow.rating, PuzzleRow.id)
        fallback = query.order_by(PuzzleRow.rating.desc(), PuzzleRow.id)
        count = 3
    else:
        target = player.rating if player else 1500.0
        ordered = query.order_by(func.abs(PuzzleRow.rating - target), PuzzleRow.id)
        fallback = ordered
        count = NEAREST
    for candidates in (ordered.where(PuzzleRow.id.not_in(tried)), ordered, fallback):
        rows = list(session.scalars(candidates.limit(count)))
        if rows:
            return rng.choice(rows)
    raise PuzzleError(404, "puzzle.none", "no puzzle of this theme")


def daily(session: Session, now: float, rules: str | None) -> tuple[str, PuzzleRow]:
    """The day's puzzle (UTC day) of a rule set (None: of all): the same for everyone, chosen
    by a hash of the date among the set's puzzles of depth two or more (a win of two moves or
    more, a defence against a threat of two moves or more), ordered by id, so ratings moving
    change nothing.

    One per rule set rather than one for all: a puzzle is only right under its own set (a
    den entry or a jump of one set is illegal in another), and a daily of a set the player
    does not play would teach it rules it does not play by."""
    import datetime

    day = datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat()
    index = int(hashlib.sha256(f"daily {day}".encode()).hexdigest(), 16)
    of_set = select(PuzzleRow)
    if rules:
        of_set = of_set.where(PuzzleRow.rules == rules)
    for query in (of_set.where(PuzzleRow.depth >= 2), of_set):
        count = session.scalar(select(func.count()).select_from(query.subquery())) or 0
        if count:
            row = session.scalars(query.order_by(PuzzleRow.id).offset(index % count).limit(1))
            return day, row.one()
    raise PuzzleError(404, "puzzle.none", "no puzzles")


def theme_counts(session: Session, of_rules: str | None = None) -> dict[str, Any]:
    """How many puzzles each theme has (of one rule set, or of all), and each rule set."""
    themes: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    total = 0
    for names, rule_set in session.execute(select(PuzzleRow.themes, PuzzleRow.rules)):
        rules[rule_set] += 1
        if of_rules and rule_set != of_rules:
            continue
        total += 1
        themes.update(t for t in names.split(",") if t)
    return {
        "total": total,
        "default_rules": default_rules(),
        "themes": [{"theme": t, "count": themes[t]} for t in THEMES],
        "rules": [{"rules": r, "count": n} for r, n in sorted(rules.items())],
    }


# ----------------------------------------------------------------------------- judging


def judge(row: PuzzleRow, moves: Sequence[str]) -> dict[str, Any]:
    """The player's moves so far against the solution: the opponent's reply and the position
    to move in (``continue``), ``wrong`` (at the first wrong move: the position before it, to
    try again from, and never the solution) or ``solved`` (with the solution)."""
    line = _line(row)
    wanted = (len(line) + 1) // 2
    if not moves or len(moves) > wanted:
        raise PuzzleError(422, "puzzle.bad_moves", f"between 1 and {wanted} moves")
    position = position_after(row, ())
    for index, text in enumerate(moves):
        try:
            move = position.parse_move(text)
        except MoveError:
            raise PuzzleError(422, "puzzle.illegal", f"{text[:8]!r} is not legal") from None
        played = move_texts(position, move)
        if move != line[2 * index]:
            return {
                "result": "wrong",
                "ply": 2 * index,
                "move": move,
                "move_text": played,
                "fen": position.position_string(),
                "dests": position.legal_destinations(),
            }
        position.push(move)
        if 2 * index + 1 < len(line) and index + 1 < len(moves):
            position.push(line[2 * index + 1])
    if 2 * len(moves) - 1 >= len(line):
        return {
            "result": "solved",
            "move_text": played,
            "solution": line,
            "solution_text": line_texts(row, line),
        }
    reply = line[2 * len(moves) - 1]
    reply_text = move_texts(position, reply)
    position.push(reply)
    return {
        "result": "continue",
        "move_text": played,
        "reply": reply,
        "reply_text": reply_text,
        "fen": position.position_string(),
        "dests": position.legal_destinations(),
    }


def hint(row: PuzzleRow, moves: Sequence[str], level: int) -> dict[str, Any]:
    """The next right move's square (level 1) or the move itself (level 2), after ``moves``
    (the right moves so far)."""
    line = _line(row)
    index = len(moves)
    if 2 * index >= len(line) or [line[2 * i] for i in range(index)] != list(moves):
        raise PuzzleError(422, "puzzle.bad_moves", "the moves are not the solution's start")
    move = line[2 * index]
    capability = _capability()
    square = capability.move_origin(move)
    position = position_after(row, line[: 2 * index])
    piece = {lang: capability.piece_name(position, square, lang) for lang in LANGUAGES}
    if level == 1:
        return {"square": square, "piece": piece}
    return {"square": square, "piece": piece, "move": move, "move_text": move_texts(position, move)}


def finish(
    session: Session,
    key: str,
    row: PuzzleRow,
    solved: bool,
    mode: str,
    now: float,
    seen_by: Sequence[str] = (),
) -> dict[str, Any]:
    """Record a finished try. The first try at a puzzle is rated (both ratings move), unless
    the browser saw the solution before under another of its names (``seen_by``); in streak
    mode a solve extends the streak (once per puzzle) and a miss ends it.

    Two nodes recording the same first try at once: the second's transaction breaks the
    unique index of rated tries (an ``IntegrityError``) and is to be run again, when it finds
    the first's try."""
    player = _player(session, key)
    before = player.rating
    tried = session.scalar(
        select(func.count())
        .select_from(PuzzleAttemptRow)
        .where(PuzzleAttemptRow.player_key == key, PuzzleAttemptRow.puzzle_id == row.id)
    )
    first = not tried and not seen(session, seen_by, row.id)
    if first:
        mine = Rating(player.rating, player.rating_rd, player.rating_volatility)
        its = Rating(row.rating, row.rating_rd, row.rating_volatility)
        mine, its = rate_game(mine, its, 1.0 if solved else 0.0)
        player.rating, player.rating_rd, player.rating_volatility = (
            mine.rating,
            max(mine.rd, 45.0),
            mine.volatility,
        )
        row.rating, row.rating_rd, row.rating_volatility = (
            its.rating,
            max(its.rd, 45.0),
            its.volatility,
        )
        row.plays += 1
        row.solved += solved
        player.attempts += 1
        player.solved += solved
    if mode == "streak":
        if solved and _in_this_streak(session, key, row.id):
            pass  # solved before in this streak: it counts once
        elif solved:
            player.streak += 1
            player.streak_rating = row.rating
            player.streak_best = max(player.streak_best, player.streak)
        else:
            player.streak = 0
            player.streak_rating = 0.0
    player.updated_at = now
    session.add(
        PuzzleAttemptRow(
            player_key=key,
            puzzle_id=row.id,
            at=now,
            solved=solved,
            rated=first,
            mode=mode,
            rating_before=before,
            rating_after=player.rating,
        )
    )
    mark_seen(session, (key, *seen_by), row.id, now)
    return {
        "rated": first,
        "rating": round(player.rating),
        "change": round(player.rating) - round(before),
        "streak": player.streak,
        "streak_best": player.streak_best,
        "puzzle_rating": round(row.rating),
    }


def standing(session: Session, key: str, row: PuzzleRow) -> dict[str, Any]:
    """What :func:`finish` answers, for a go whose miss is recorded already (a retry after a
    wrong move or a hint): nothing is recorded again, nothing rated."""
    player = session.get(PuzzlePlayerRow, key)
    rating = round(player.rating) if player else 1500
    return {
        "rated": False,
        "rating": rating,
        "change": 0,
        "streak": player.streak if player else 0,
        "streak_best": player.streak_best if player else 0,
        "puzzle_rating": round(row.rating),
    }


def _in_this_streak(session: Session, key: str, puzzle_id: str) -> bool:
    """Whether the player solved the puzzle in streak mode since the streak's last miss, or
    missed it last: the puzzle that ended a streak, solved on a retry, starts no new one."""
    streak = (PuzzleAttemptRow.player_key == key, PuzzleAttemptRow.mode == "streak")
    last_missed = session.scalar(
        select(PuzzleAttemptRow.puzzle_id)
        .where(*streak, PuzzleAttemptRow.solved.is_(False))
        .order_by(PuzzleAttemptRow.id.desc())
        .limit(1)
    )
    if last_missed == puzzle_id:
        return True
    last_miss = (
        select(func.coalesce(func.max(PuzzleAttemptRow.id), 0))
        .where(*streak, PuzzleAttemptRow.solved.is_(False))
        .scalar_subquery()
    )
    solved = session.scalar(
        select(func.count())
        .select_from(PuzzleAttemptRow)
        .where(
            *streak,
            PuzzleAttemptRow.puzzle_id == puzzle_id,
            PuzzleAttemptRow.solved.is_(True),
            PuzzleAttemptRow.id > last_miss,
        )
    )
    return bool(solved)


def seen(session: Session, viewers: Sequence[str], puzzle_id: str) -> bool:
    """Whether any of ``viewers`` has seen the puzzle's solution (or part of it)."""
    if not viewers:
        return False
    found = session.scalar(
        select(func.count())
        .select_from(PuzzleSeenRow)
        .where(PuzzleSeenRow.viewer.in_(viewers), PuzzleSeenRow.puzzle_id == puzzle_id)
    )
    return bool(found)


def mark_seen(session: Session, viewers: Sequence[str], puzzle_id: str, now: float) -> None:
    """Record that ``viewers`` (every name of one browser) have seen the puzzle's solution:
    a solve shows it, a wrong move tells a move that fails, a hint or giving up shows some or
    all of it (a browser's rated try is its one, under whichever name). Marked already: no
    change (nor an error, when another node marks it at the same moment)."""
    rows = [{"viewer": v, "puzzle_id": puzzle_id, "at": now} for v in dict.fromkeys(viewers)]
    if not rows:
        return
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        session.execute(sqlite.insert(PuzzleSeenRow).on_conflict_do_nothing(), rows)
    elif dialect == "postgresql":
        session.execute(postgresql.insert(PuzzleSeenRow).on_conflict_do_nothing(), rows)
    else:  # any other database: one row at a time (not safe against a race)
        for values in rows:
            if session.get(PuzzleSeenRow, (values["viewer"], puzzle_id)) is None:
                session.add(PuzzleSeenRow(**values))


def already_finished(session: Session, key: str, puzzle_id: str, since: float) -> bool:
    """Whether the player finished a try at the puzzle at or after ``since``."""
    found = session.scalar(
        select(func.count())
        .select_from(PuzzleAttemptRow)
        .where(
            PuzzleAttemptRow.player_key == key,
            PuzzleAttemptRow.puzzle_id == puzzle_id,
            PuzzleAttemptRow.at >= since,
        )
    )
    return bool(found)


def player_view(session: Session, key: str) -> dict[str, Any]:
    player = session.get(PuzzlePlayerRow, key)
    recent = session.execute(
        select(PuzzleAttemptRow, PuzzleRow.rating)
        .join(PuzzleRow, PuzzleRow.id == PuzzleAttemptRow.puzzle_id)
        .where(PuzzleAttemptRow.player_key == key)
        .order_by(PuzzleAttemptRow.at.desc(), PuzzleAttemptRow.id.desc())
        .limit(HISTORY)
    ).all()
    return {
        "rating": round(player.rating) if player else 1500,
        "rd": round(player.rating_rd) if player else 350,
        "attempts": player.attempts if player else 0,
        "solved": player.solved if player else 0,
        "streak": player.streak if player else 0,
        "streak_best": player.streak_best if player else 0,
        "history": [
            {
                "puzzle": attempt.puzzle_id,
                "at": attempt.at,
                "solved": attempt.solved,
                "rated": attempt.rated,
                "mode": attempt.mode,
                "change": round(attempt.rating_after) - round(attempt.rating_before),
                "puzzle_rating": round(rating),
            }
            for attempt, rating in recent
        ],
    }
