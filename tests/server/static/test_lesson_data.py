"""The web client's lessons (static/games/jungle/lesson_data.js) against the rules library.

The browser never judges a move itself: it asks the server. These tests make sure that the
lessons it shows are sound under the lesson rule set: every position parses with Red to move,
every goal can be reached by a legal move (and missed by another, so the hint can show), every
scripted reply is legal after every accepted move, and every text exists in both languages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.squares import RED, WATER, square_name
from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.infra.translations import load_table

STATIC = STATIC_DIR
GOAL_KEYS = {"from", "to", "water", "capture", "jump", "den"}
STEP_KEYS = {"fen", "goal", "reply"}
STEP_TEXTS = ("text", "goal", "hint", "done")
ANIMALS = {"rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant"}
SQUARE = re.compile(r"^[a-g][1-9]$")


def load_lessons() -> dict[str, Any]:
    """The JSON object after ``export default`` in lesson_data.js."""
    source = (STATIC / "games" / "jungle" / "lesson_data.js").read_text(encoding="utf-8")
    body = source.split("\nexport default ", 1)[1].strip()
    data: dict[str, Any] = json.loads(body.removesuffix(";"))
    return data


DATA = load_lessons()
LESSONS = DATA["lessons"]
TRANSLATIONS = {lang: load_table(STATIC, lang) for lang in ("zh", "en")}


def meets_goal(board: Board, move: Move, goal: dict[str, Any]) -> bool:
    """The client's goal check (games/jungle/lesson_goals.js `meetsGoal`), by the rules library."""
    text = str(move)
    if "from" in goal and text[:2] != goal["from"]:
        return False
    if "to" in goal and text[2:4] not in goal["to"]:
        return False
    if goal.get("water") and not WATER >> move.to_square & 1:
        return False
    if goal.get("capture") and not board.is_capture(move):
        return False
    if goal.get("jump") and not board.is_jump(move):
        return False
    if goal.get("den"):
        board.push(move)
        outcome = board.outcome()
        board.pop()
        if outcome is None or outcome.termination is not Termination.DEN_ENTERED:
            return False
        if outcome.winner != RED:
            return False
    return True


def step_starts(lesson: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any], list[Board]]]:
    """Each step with every position it can start from (a continued step starts wherever any
    accepted move of the step before, and its reply, lead)."""
    boards: list[Board] = []
    for index, step in enumerate(lesson["steps"]):
        if "fen" in step:
            boards = [Board(step["fen"], DATA["rules"])]
        yield index, step, boards
        following = []
        for board in boards:
            for move in [m for m in board.legal_moves if meets_goal(board, m, step["goal"])]:
                after = board.copy()
                after.push(move)
                if "reply" in step:
                    after.push_move(step["reply"])
                following.append(after)
        boards = following


def test_the_data_is_shaped_as_lessons_js_expects() -> None:
    assert DATA["rules"] == "wango"
    ids = [lesson["id"] for lesson in LESSONS]
    assert len(ids) == len(set(ids))
    assert {"movement", "water", "jumps", "traps", "rat", "den", "attack"} <= set(ids)
    for lesson in LESSONS:
        color, animal = lesson["icon"]
        assert color in ("red", "blue") and animal in ANIMALS
        assert lesson["steps"] and "fen" in lesson["steps"][0], lesson["id"]
        for step in lesson["steps"]:
            assert set(step) <= STEP_KEYS and "goal" in step, step
            goal = step["goal"]
            assert goal and set(goal) <= GOAL_KEYS, goal
            squares = [goal["from"]] if "from" in goal else []
            squares += goal.get("to", [])
            assert all(SQUARE.match(square) for square in squares), goal


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson["id"] for lesson in LESSONS])
def test_every_step_is_legal_and_its_goal_reachable(lesson: dict[str, Any]) -> None:
    for index, step, boards in step_starts(lesson):
        where = f"{lesson['id']} step {index + 1}"
        assert boards, f"{where}: nothing leads here (a step after a den entry needs a fen)"
        if "fen" in step:
            assert Board(step["fen"], DATA["rules"]).fen().split()[0] == step["fen"].split()[0]
        for board in boards:
            assert board.turn == RED, f"{where}: the learner plays Red"
            assert board.outcome() is None, f"{where}: the game is already over"
            legal = list(board.legal_moves)
            right = [move for move in legal if meets_goal(board, move, step["goal"])]
            assert right, f"{where}: no legal move reaches the goal in {board.fen()}"
            assert len(right) < len(legal), f"{where}: no wrong move to show the hint with"
            for move in right:
                board.push(move)
                if not step["goal"].get("den"):
                    assert board.outcome() is None, f"{where}: {move} ends the game"
                if "reply" in step:
                    reply = Move.from_str(step["reply"])
                    why = board.explain_illegal(reply)
                    assert why is None, f"{where}: the reply {reply} after {move}: {why}"
                board.pop()


def test_the_guided_attack_is_scripted_and_ends_in_the_den() -> None:
    attack = next(lesson for lesson in LESSONS if lesson["id"] == "attack")
    steps = attack["steps"]
    assert len(steps) >= 3 and "fen" in steps[0]
    assert all("fen" not in step for step in steps[1:]), "one game from start to finish"
    assert all("reply" in step for step in steps[:-1]), "every learner move gets an answer"
    assert steps[-1]["goal"].get("den")
    # Played through with the first accepted move each time, the game is won in the den.
    board = Board(steps[0]["fen"], DATA["rules"])
    for step in steps:
        move = next(m for m in board.legal_moves if meets_goal(board, m, step["goal"]))
        board.push(move)
        if "reply" in step:
            board.push_move(step["reply"])
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.DEN_ENTERED, RED)
    assert square_name(board.peek().to_square) == "d9"


def test_every_lesson_text_exists_in_both_languages() -> None:
    keys = ["learn.title", "learn.card", "learn.card.sub", "learn.goal", "learn.retry"]
    for lesson in LESSONS:
        keys += [f"learn.{lesson['id']}.title", f"learn.{lesson['id']}.summary"]
        for n in range(1, len(lesson["steps"]) + 1):
            keys += [f"learn.{lesson['id']}.{n}.{part}" for part in STEP_TEXTS]
    for lang, table in TRANSLATIONS.items():
        missing = [key for key in keys if not str(table.get(key, "")).strip()]
        assert not missing, f"{lang}: {missing}"
    for key in keys:
        assert re.search(r"[\u4e00-\u9fff]", TRANSLATIONS["zh"][key]), f"zh {key} is not Chinese"
        assert TRANSLATIONS["zh"][key] != TRANSLATIONS["en"][key], key
    zh, en = ({k for k in table if k.startswith("learn.")} for table in TRANSLATIONS.values())
    assert zh == en, zh ^ en
