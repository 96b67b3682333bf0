"""The web client's lessons (static/games/<game>/lesson_data.js) against the rules libraries.

The browser never judges a move itself: it asks the server. These tests make sure that the
lessons it shows are sound under each game's lesson rule set: every position parses with the
learner to move, every goal can be reached by a legal move (and missed by another, so the hint
can show), every scripted reply is legal after every accepted move, the scripted lines end as
their texts say (the guided attack, the 17-move raid, the tiger trapped in its nest), and every
text exists in the three languages. The reasons a refused move is explained with (illegal.*)
are checked against the codes the rules libraries give.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.squares import BLUE, RED, TRAPS, WATER, parse_square, square_name
from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.infra.translations import LANGS, load_table
from doushouqi.tiger.board import Board as TigerBoard
from doushouqi.tiger.moves import Move as TigerMove
from doushouqi.tiger.terms import Termination as TigerTermination

STATIC = STATIC_DIR
SRC = STATIC_DIR.parents[1]
JUNGLE_GOAL_KEYS = {"from", "to", "water", "capture", "jump", "den"}
TIGER_GOAL_KEYS = {"from", "to", "step", "capture", "safe", "win"}
STEP_KEYS = {"fen", "goal", "reply"}
LESSON_KEYS = {"id", "icon", "seat", "steps"}
STEP_TEXTS = ("text", "goal", "hint", "done")
ANIMALS = {"rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant"}
SQUARE = re.compile(r"^[a-g][1-9]$")
POINT = re.compile(r"^[a-i](?:1[01]|[1-9])$")


def load_lessons(game: str) -> dict[str, Any]:
    """The JSON object after ``export default`` in the game's lesson_data.js."""
    source = (STATIC / "games" / game / "lesson_data.js").read_text(encoding="utf-8")
    body = source.split("\nexport default ", 1)[1].strip()
    data: dict[str, Any] = json.loads(body.removesuffix(";"))
    return data


DATA = load_lessons("jungle")
LESSONS = DATA["lessons"]
TIGER_DATA = load_lessons("tiger")
TIGER_LESSONS = TIGER_DATA["lessons"]
TRANSLATIONS = {lang: load_table(STATIC, lang) for lang in LANGS}


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


def meets_tiger_goal(board: TigerBoard, move: Any, goal: dict[str, Any], seat: int) -> bool:
    """The client's goal check for 老虎棋 (games/tiger/lesson_goals.js), by the rules library."""
    points = re.findall(r"[a-i](?:1[01]|[1-9])", str(move))
    start, end = points[0], points[-1]
    if "from" in goal and start != goal["from"]:
        return False
    if "to" in goal and end not in goal["to"]:
        return False
    if goal.get("step") and move.is_jump:
        return False
    if goal.get("capture") and not move.is_jump:
        return False
    board.push(move)
    try:
        outcome = board.outcome()
        if goal.get("safe") and any(reply.is_jump for reply in board.legal_moves):
            return False
        if goal.get("win") and (outcome is None or outcome.winner != seat):
            return False
    finally:
        board.pop()
    return True


def step_starts(
    lesson: dict[str, Any], new_board: Callable[[str], Any], meets: Callable[..., bool]
) -> Iterator[tuple[int, dict[str, Any], list[Any]]]:
    """Each step with every position it can start from (a continued step starts wherever any
    accepted move of the step before, and its reply, lead)."""
    boards: list[Any] = []
    for index, step in enumerate(lesson["steps"]):
        if "fen" in step:
            boards = [new_board(step["fen"])]
        yield index, step, boards
        following = []
        for board in boards:
            for move in [m for m in board.legal_moves if meets(board, m, step["goal"])]:
                after = board.copy()
                after.push(move)
                if "reply" in step:
                    after.push_move(step["reply"])
                following.append(after)
        boards = following


def jungle_board(fen: str) -> Board:
    return Board(fen, DATA["rules"])


def tiger_board(fen: str) -> TigerBoard:
    return TigerBoard(fen, TIGER_DATA["rules"])


def written(board: Board | TigerBoard) -> str:
    """The placement a board writes (the first field of its position string)."""
    text = board.fen() if isinstance(board, Board) else board.position_string()
    return text.split()[0]


def test_the_data_is_shaped_as_lessons_js_expects() -> None:
    assert DATA["rules"] == "wango"
    assert TIGER_DATA["rules"] == "laohuqi"
    ids = [lesson["id"] for lesson in LESSONS + TIGER_LESSONS]
    assert len(ids) == len(set(ids)), "lesson ids are unique across the games"
    assert {"movement", "water", "jumps", "traps", "rat", "den", "attack", "raid17"} <= set(ids)
    assert {"tiger-jump", "tiger-guard", "tiger-trap"} <= set(ids)
    for data in (DATA, TIGER_DATA):
        assert len(data["howto"]) == len(data["replies"]) == 2  # by seat
    for lesson in LESSONS:
        color, animal = lesson["icon"]
        assert color in ("red", "blue") and animal in ANIMALS
        assert set(lesson) <= LESSON_KEYS and lesson.get("seat", 0) == 0, "Jungle: Red learns"
        assert lesson["steps"] and "fen" in lesson["steps"][0], lesson["id"]
        for step in lesson["steps"]:
            assert set(step) <= STEP_KEYS and "goal" in step, step
            goal = step["goal"]
            assert goal and set(goal) <= JUNGLE_GOAL_KEYS, goal
            squares = [goal["from"]] if "from" in goal else []
            squares += goal.get("to", [])
            assert all(SQUARE.match(square) for square in squares), goal
    for lesson in TIGER_LESSONS:
        assert set(lesson) <= LESSON_KEYS and lesson["seat"] in (0, 1)
        assert lesson["icon"] in (["red", "tiger"], ["blue", "man"])
        assert lesson["steps"] and "fen" in lesson["steps"][0], lesson["id"]
        for step in lesson["steps"]:
            assert set(step) <= STEP_KEYS and "goal" in step, step
            goal = step["goal"]
            assert goal and set(goal) <= TIGER_GOAL_KEYS, goal
            points = ([goal["from"]] if "from" in goal else []) + goal.get("to", [])
            assert all(POINT.match(point) for point in points), goal
    assert {lesson["seat"] for lesson in TIGER_LESSONS} == {0, 1}, "both sides are taught"


def check_steps(
    lesson: dict[str, Any],
    new_board: Callable[[str], Any],
    meets: Callable[..., bool],
    seat: int,
    winning: str,
) -> None:
    """Every step of ``lesson``: the learner (``seat``) to move in a game that goes on, a right
    and a wrong legal move, right moves that end nothing unless the goal is to win (``winning``
    names that goal), and the scripted reply legal after each right move."""
    for index, step, boards in step_starts(lesson, new_board, meets):
        where = f"{lesson['id']} step {index + 1}"
        assert boards, f"{where}: nothing leads here (a step after a winning move needs a fen)"
        if "fen" in step:
            placement = written(new_board(step["fen"]))
            assert placement == step["fen"].split()[0], f"{where}: write it as the game does"
        for board in boards:
            assert board.turn == seat, f"{where}: the learner moves"
            assert board.outcome() is None, f"{where}: the game is already over"
            legal = list(board.legal_moves)
            right = [move for move in legal if meets(board, move, step["goal"])]
            assert right, f"{where}: no legal move reaches the goal in {written(board)}"
            assert len(right) < len(legal), f"{where}: no wrong move to show the hint with"
            for move in right:
                board.push(move)
                if not step["goal"].get(winning):
                    assert board.outcome() is None, f"{where}: {move} ends the game"
                if "reply" in step:
                    why = board.explain_illegal(type(move).from_str(step["reply"]))
                    assert why is None, f"{where}: the reply {step['reply']} after {move}: {why}"
                board.pop()


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson["id"] for lesson in LESSONS])
def test_every_step_is_legal_and_its_goal_reachable(lesson: dict[str, Any]) -> None:
    check_steps(lesson, jungle_board, meets_goal, RED, "den")


@pytest.mark.parametrize("lesson", TIGER_LESSONS, ids=[lesson["id"] for lesson in TIGER_LESSONS])
def test_every_tiger_step_is_legal_and_its_goal_reachable(lesson: dict[str, Any]) -> None:
    def meets(board: TigerBoard, move: Any, goal: dict[str, Any]) -> bool:
        return meets_tiger_goal(board, move, goal, lesson["seat"])

    check_steps(lesson, tiger_board, meets, lesson["seat"], "win")


def play_through(lesson: dict[str, Any], new_board: Callable[[str], Any], meets: Any) -> Any:
    """The lesson's one game (a first position, no other), with the first accepted move of
    each step and its reply; the board at the end."""
    steps = lesson["steps"]
    board = new_board(steps[0]["fen"])
    for step in steps:
        move = next(m for m in board.legal_moves if meets(board, m, step["goal"]))
        board.push(move)
        if "reply" in step:
            board.push_move(step["reply"])
    return board


def test_the_guided_attack_is_scripted_and_ends_in_the_den() -> None:
    attack = next(lesson for lesson in LESSONS if lesson["id"] == "attack")
    steps = attack["steps"]
    assert len(steps) >= 3 and "fen" in steps[0]
    assert all("fen" not in step for step in steps[1:]), "one game from start to finish"
    assert all("reply" in step for step in steps[:-1]), "every learner move gets an answer"
    assert steps[-1]["goal"].get("den")
    # Played through with the first accepted move each time, the game is won in the den.
    board = play_through(attack, jungle_board, meets_goal)
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.DEN_ENTERED, RED)
    assert square_name(board.peek().to_square) == "d9"


#: The rule text's 17 moves (docs/rules.md 9, RULES.md section 9): the animal and the words,
#: 前/后 forwards/back, 上/下 up/down, 吃 takes (the animal taken).
RAID_TEXT = [
    ("elephant", "下"), ("cat", "后"), ("wolf", "后"), ("leopard", "后"), ("elephant", "下"),
    ("elephant", "下"), ("elephant", "前"), ("elephant", "前"), ("elephant", "前"),
    ("elephant", "前"), ("elephant", "上"), ("elephant", "吃豹"), ("elephant", "上"),
    ("elephant", "前"), ("elephant", "后"), ("elephant", "前"), ("elephant", "吃狗"),
]  # fmt: skip
#: The lesson's reading of the directions for Red: forwards and back along the files (towards
#: Blue and away), up and down across them (up towards file a, down towards file g).
RAID_READING = {"前": (0, 1), "后": (0, -1), "上": (-1, 0), "下": (1, 0)}
TAKEN = {"吃豹": "leopard", "吃狗": "dog"}


def test_the_seventeen_move_raid_follows_the_rule_text_and_wins() -> None:
    """新手致胜17步: the lesson's 17 moves are the rule text's, read as the lesson says, each
    legal after Blue's scripted reply; Blue never has a capture of Red's (the raid is safe all
    the way, which the texts claim); move 17 takes the dog on Blue's trap beside the den, where
    no Blue animal can take the elephant back, and the 18th move enters the den."""
    raid = next(lesson for lesson in LESSONS if lesson["id"] == "raid17")
    steps = raid["steps"]
    line = steps[:18]
    assert "fen" in line[0] and all("fen" not in step for step in line[1:])
    board = jungle_board(line[0]["fen"])
    assert board.fen() == Board(rules="wango").fen(), "the raid starts from the start position"
    for number, (step, (animal, words)) in enumerate(zip(line, RAID_TEXT, strict=False), 1):
        goal = step["goal"]
        move = Move.from_str(goal["from"] + goal["to"][0])
        assert len(goal["to"]) == 1, f"move {number}: one move, the text's"
        assert board.explain_illegal(move) is None, f"move {number} ({move})"
        piece = board.piece_at(move.from_square)
        assert piece is not None and piece.animal_name == animal, f"move {number}"
        target = board.piece_at(move.to_square)
        if words in TAKEN:
            assert target is not None and target.animal_name == TAKEN[words]
            assert goal.get("capture"), f"move {number} is a capture"
        else:
            assert target is None and not goal.get("capture"), f"move {number} takes nothing"
            frm, to = move.from_square, move.to_square
            step_made = (to % 7 - frm % 7, to // 7 - frm // 7)
            assert step_made == RAID_READING[words], f"move {number} ({move}) is not {words}"
        board.push(move)
        assert board.outcome() is None
        captures = [str(m) for m in board.legal_moves if board.is_capture(m)]
        assert not captures, f"after move {number}, Blue could take: {captures}"
        board.push_move(step["reply"])
    # After move 17: the elephant on Blue's trap c9, beside the den, and no Blue animal next
    # to it (the elephant there has no strength: one could take it).
    c9 = parse_square("c9")
    assert TRAPS[BLUE] >> c9 & 1
    assert str(board.piece_at(c9)) == "E"
    for near in ("b9", "c8"):
        assert board.piece_at(parse_square(near)) is None
    last = steps[17]
    assert last["goal"] == {"from": "c9", "den": True} and "reply" not in last
    board.push_move("c9d9")
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.DEN_ENTERED, RED)


def test_the_raid_lesson_ends_with_how_to_stop_it() -> None:
    """The two defence steps: a raider in one's own trap is taken by the smallest guard, and a
    rat stands on the path between the lakes, where the elephant can neither take it nor pass."""
    raid = next(lesson for lesson in LESSONS if lesson["id"] == "raid17")
    trap, bridge = raid["steps"][18:]
    board = jungle_board(trap["fen"])
    c1 = parse_square("c1")
    assert TRAPS[RED] >> c1 & 1 and str(board.piece_at(c1)) == "e"
    board.push_move("b1c1")  # the cat takes the elephant
    assert str(board.piece_at(c1)) == "C"
    board = jungle_board(bridge["fen"])
    board.push_move("d2d3")
    elephant = parse_square("d4")
    ways = {square_name(m.to_square) for m in board.legal_moves if m.from_square == elephant}
    assert ways == {"d5"}, "the elephant can only go back"
    board.push_move("a9a8")
    assert board.is_capture(Move.from_str("d3d4")), "had it stayed, the rat takes it"


def test_the_tiger_is_trapped_in_its_nest_and_the_men_win() -> None:
    trap = next(lesson for lesson in TIGER_LESSONS if lesson["id"] == "tiger-trap")
    steps = trap["steps"]
    assert trap["seat"] == 1 and all("fen" not in step for step in steps[1:])
    assert all("reply" in step for step in steps[:-1]) and steps[-1]["goal"].get("win")

    def meets(board: TigerBoard, move: Any, goal: dict[str, Any]) -> bool:
        return meets_tiger_goal(board, move, goal, 1)

    board = play_through(trap, tiger_board, meets)
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.ending.key, outcome.winner) == (TigerTermination.TIGER_TRAPPED.value, 1)
    tiger = board.position_string().split()[0].split("/")[0]
    assert "T" in tiger, "hemmed in on the nest's top rank"


def test_the_tiger_lessons_show_the_refused_jumps_their_texts_name() -> None:
    """The third jump step's text says why two jumps are refused: the rules library agrees."""
    step = TIGER_LESSONS[0]["steps"][2]
    board = tiger_board(step["fen"])
    landing = board.explain_illegal(TigerMove.from_str("e5e3"))
    diagonal = board.explain_illegal(TigerMove.from_str("e5c3"))
    assert landing is not None and landing.code == "landing_taken"
    assert diagonal is not None and diagonal.code == "no_jump_line"


def reason_codes(path: str) -> set[str]:
    """The codes a rules library's refusals can carry (``IllegalReason("code", …)``)."""
    source = (SRC / path).read_text(encoding="utf-8")
    return set(re.findall(r'IllegalReason\(\s*"(\w+)"', source))


def test_every_refusal_of_the_rules_has_words_in_three_languages() -> None:
    codes = {
        "jungle": reason_codes("jungle/legality.py"),
        "tiger": reason_codes("tiger/legality.py"),
    }
    assert {"water", "rat_blocks", "too_weak", "own_den"} <= codes["jungle"]
    assert {"landing_taken", "no_jump_line", "occupied", "no_line"} <= codes["tiger"]
    wanted = {f"illegal.{game}.{code}" for game, found in codes.items() for code in found}
    for lang, table in TRANSLATIONS.items():
        have = {key for key in table if key.startswith("illegal.")}
        assert have == wanted, f"{lang}: {have ^ wanted}"
        for key in wanted:
            names = set(re.findall(r"\{(\w+)\}", table[key]))
            assert names <= {"from", "to", "over", "piece", "target", "men", "below"}, key
            assert names == set(re.findall(r"\{(\w+)\}", TRANSLATIONS["en"][key])), (lang, key)


def test_every_lesson_text_exists_in_three_languages() -> None:
    keys = ["learn.title", "learn.card", "learn.card.sub", "learn.goal", "learn.retry"]
    keys += ["learn.illegal", "learn.rulesOf"]
    for data in (DATA, TIGER_DATA):
        keys += data["howto"] + data["replies"]
    for lesson in LESSONS + TIGER_LESSONS:
        keys += [f"learn.{lesson['id']}.title", f"learn.{lesson['id']}.summary"]
        for n in range(1, len(lesson["steps"]) + 1):
            keys += [f"learn.{lesson['id']}.{n}.{part}" for part in STEP_TEXTS]
    for lang, table in TRANSLATIONS.items():
        missing = [key for key in keys if not str(table.get(key, "")).strip()]
        assert not missing, f"{lang}: {missing}"
    for key in keys:
        for lang in ("zh", "zh-Hant"):
            text = TRANSLATIONS[lang][key]
            assert re.search(r"[\u4e00-\u9fff]", text), f"{lang} {key} is not Chinese"
            assert text != TRANSLATIONS["en"][key], key
    zh, hant, en = ({k for k in TRANSLATIONS[lang] if k.startswith("learn.")} for lang in LANGS)
    assert zh == en == hant, zh ^ en
