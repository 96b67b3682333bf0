"""Puzzles in a real browser, on a phone in Simplified Chinese: a wrong move is marked, taken
back and the right line then found (the puzzle rating fell at the miss, once); the solution
only on request, stepped through in readable moves; a defence puzzle's own words; hints in
the reader's script; the rule set chosen and remembered; and the page fits a phone with the
board and the feedback on one screen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, click_move, no_overflow, shoot
from tests.support.live import LiveServer

from doushouqi.core.game import get_game
from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.puzzles import service as puzzles

WORDS = json.loads((STATIC_DIR / "i18n" / "zh" / "puzzle.json").read_text("utf-8"))
GAME = get_game(puzzles.GAME_KEY)


def shown_puzzle(page: Page, previous: str | None = None) -> dict[str, Any]:
    page.wait_for_function(
        "(old) => window.puzzlePage && window.puzzlePage.puzzle"
        " && window.puzzlePage.puzzle.id !== old",
        arg=previous,
    )
    puzzle: dict[str, Any] = page.evaluate("window.puzzlePage.puzzle")
    return puzzle


def line_of(puzzle_id: object) -> list[str]:
    return next(list(p["line"]) for p in puzzles.shipped() if p["id"] == puzzle_id)


def text_of(puzzle: dict[str, Any], played: list[str], move: str, lang: str = "zh") -> str:
    """The move as the game writes it (``象 d3-c3``), after ``played`` from the puzzle."""
    position = GAME.new_position(GAME.parse_rules(puzzle["rules"]), puzzle["fen"])
    for earlier in played:
        position.push(earlier)
    return position.move_text(move, lang)  # type: ignore[arg-type]


def a_wrong_move(puzzle: dict[str, Any]) -> str:
    position = GAME.new_position(GAME.parse_rules(puzzle["rules"]), puzzle["fen"])
    return next(m for m in position.legal_moves() if m != line_of(puzzle["id"])[0])


def said(key: str, **values: object) -> str:
    """A word of the page with its values filled in (``{move}`` …)."""
    text: str = WORDS[key]
    for name, value in values.items():
        text = text.replace(f"{{{name}}}", str(value))
    return text


def test_a_wrong_move_is_taken_back_and_the_right_line_then_found(
    client: Client, artifacts: Path
) -> None:
    page = client.open("/#/")
    page.click("#go-puzzles")
    puzzle = shown_puzzle(page)
    assert puzzle["rules"] == "wango"  # the default set, the one the lessons teach
    expect(page.locator("#pz-rule-set")).to_have_value("wango")
    feedback = page.locator("#pz-feedback")
    expect(page.locator("#pz-rating")).to_contain_text("1500")
    # on a phone the prompt, the feedback and the whole board are on the first screen
    board_box = page.locator("#board").bounding_box()
    feedback_box = feedback.bounding_box()
    assert board_box and feedback_box
    assert board_box["y"] + board_box["height"] <= 844 and feedback_box["y"] >= 0
    rules_box = page.locator("#pz-rules").bounding_box()  # the rule set it was made for
    assert rules_box and rules_box["y"] + rules_box["height"] <= board_box["y"]
    no_overflow(page)
    shoot(page, artifacts, "puzzle-start")

    goal = puzzle["goal"]
    wrong = a_wrong_move(puzzle)
    click_move(page, wrong)
    expect(feedback).to_have_attribute("data-result", "wrong")
    expect(feedback).to_have_text(said(f"puzzle.wrong.{goal}", move=text_of(puzzle, [], wrong)))
    expect(page.locator("#board")).to_have_attribute("data-wrong", wrong)
    change = page.locator("#pz-change")
    expect(change).to_have_class("pz-change down")
    fell = change.inner_text()
    assert fell.startswith("−")
    shoot(page, artifacts, "puzzle-wrong")
    # taken back: the puzzle's position again, the player's to move
    expect(page.locator("#board")).not_to_have_attribute("data-wrong", wrong)
    page.wait_for_function("() => window.puzzlePage.board.getState().movableColor !== null")
    expect(page.locator("#pz-stepper")).to_be_hidden()  # no solution given away

    line = line_of(puzzle["id"])
    for index, move in enumerate(line[0::2]):
        click_move(page, move)
        if 2 * index + 1 < len(line):
            reply = line[2 * index + 1]
            expect(feedback).to_contain_text(text_of(puzzle, line[: 2 * index + 1], reply))
            page.wait_for_function(
                "(sq) => window.puzzlePage.board.getState().lastMove?.[1] === sq", arg=reply[2:4]
            )
    last = text_of(puzzle, line[:-1], line[-1])
    expect(feedback).to_have_attribute("data-result", "solved")
    expect(feedback).to_have_text(said(f"puzzle.solved.{goal}", move=last))
    expect(change).to_have_text(fell)  # rated at the miss, once: the solve changed nothing
    expect(page.locator("#pz-stepper")).to_be_visible()
    expect(page.locator("#pz-step-text")).to_contain_text(last)
    shoot(page, artifacts, "puzzle-solved")


def test_the_solution_only_on_request(client: Client, artifacts: Path) -> None:
    page = client.open("/#/puzzles")
    puzzle = shown_puzzle(page)
    solution = page.locator("#pz-solution")
    expect(solution).to_have_text(WORDS["puzzle.showSolution"])
    wrong = a_wrong_move(puzzle)
    click_move(page, wrong)
    expect(page.locator("#pz-feedback")).to_have_attribute("data-result", "wrong")
    expect(page.locator("#pz-stepper")).to_be_hidden()
    expect(solution).to_be_enabled()
    solution.click()
    expect(page.locator("#pz-feedback")).to_have_text(WORDS[f"puzzle.shown.{puzzle['goal']}"])
    expect(page.locator("#pz-stepper")).to_be_visible()
    first = line_of(puzzle["id"])[0]
    expect(page.locator("#pz-step-text")).to_contain_text(text_of(puzzle, [], first))
    page.wait_for_function(
        "(sq) => window.puzzlePage.board.getState().lastMove?.[1] === sq", arg=first[2:4]
    )
    shoot(page, artifacts, "puzzle-solution")


def test_a_defence_puzzle_asks_for_the_saving_move(client: Client) -> None:
    defence = next(p for p in puzzles.shipped() if p["rules"] == "wango" and p["kind"] == "defence")
    page = client.open(f"/#/puzzles/{defence['id']}")
    puzzle = shown_puzzle(page)
    side = "红方" if puzzle["turn"] == "red" else "蓝方"
    form = "one" if puzzle["depth"] == 1 else "other"
    prompt = said(f"puzzle.goal.defence.{form}", side=side, n=puzzle["depth"])
    expect(page.locator("#pz-prompt")).to_have_text(prompt)
    wrong = a_wrong_move(puzzle)
    click_move(page, wrong)
    loses = said("puzzle.wrong.defence", move=text_of(puzzle, [], wrong))
    expect(page.locator("#pz-feedback")).to_have_text(loses)
    page.wait_for_function("() => window.puzzlePage.board.getState().movableColor !== null")
    right = line_of(puzzle["id"])[0]
    click_move(page, right)
    saved = said("puzzle.solved.defence", move=text_of(puzzle, [], right))
    expect(page.locator("#pz-feedback")).to_have_text(saved)
    assert "制胜" not in saved and "救命" in saved


def test_moves_are_written_in_the_readers_script(browser: Browser, server: LiveServer) -> None:
    """Traditional Chinese: the server's own texts of the move (貓 獅, not 猫 狮)."""
    puzzle = next(
        p
        for p in puzzles.shipped()
        if p["rules"] == "wango"
        and text_of(p, [], p["line"][0]) != text_of(p, [], p["line"][0], "zh-Hant")
    )
    right = line_of(puzzle["id"])[0]
    reader = Client(browser, server, locale="zh-TW")
    try:
        page = reader.open(f"/#/puzzles/{puzzle['id']}")
        shown_puzzle(page)
        feedback = page.locator("#pz-feedback")
        page.click("#pz-hint")
        expect(feedback).to_have_attribute("data-result", "hint")
        expect(feedback).to_contain_text(text_of(puzzle, [], right, "zh-Hant").split()[0])
        page.click("#pz-hint")
        expect(feedback).to_contain_text(text_of(puzzle, [], right, "zh-Hant"))
    finally:
        reader.close()


def test_hint_streak_daily_and_the_rule_set_remembered(client: Client, artifacts: Path) -> None:
    page = client.open("/#/puzzles?mode=streak")
    puzzle = shown_puzzle(page)
    right = line_of(puzzle["id"])[0]
    page.click("#pz-hint")
    feedback = page.locator("#pz-feedback")
    expect(feedback).to_have_attribute("data-result", "hint")
    animal = text_of(puzzle, [], right).split()[0]  # 象 of 象 d3-c3
    expect(feedback).to_have_text(said("puzzle.hintPiece", piece=animal, square=right[:2]))
    page.click("#pz-hint")
    expect(feedback).to_have_text(said("puzzle.hintMove", move=text_of(puzzle, [], right)))
    page.click("#pz-mode-daily")
    daily = shown_puzzle(page, str(puzzle["id"]))
    expect(page.locator("#pz-about")).to_contain_text(WORDS["puzzle.dailyOf"].split("}")[1])
    assert daily["rules"] == "wango"
    page.click("#pz-solution")
    expect(feedback).to_have_attribute("data-result", "shown")
    expect(page.locator("#pz-stepper")).to_be_visible()
    shoot(page, artifacts, "puzzle-daily")
    page.select_option("#pz-theme", "den_attack")
    themed = shown_puzzle(page, str(daily["id"]))
    assert "den_attack" in themed["themes"] and themed["rules"] == "wango"
    # another rule set: its puzzles from now on, on this device
    page.select_option("#pz-rule-set", "classic")
    classic = shown_puzzle(page, str(themed["id"]))
    assert classic["rules"] == "classic"
    page.reload()
    again = shown_puzzle(page)
    expect(page.locator("#pz-rule-set")).to_have_value("classic")
    assert again["rules"] == "classic"
    page.click("#pz-mode-daily")
    assert shown_puzzle(page, str(again["id"]))["rules"] == "classic"
