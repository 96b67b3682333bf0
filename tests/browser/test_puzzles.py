"""Puzzles in a real browser: solve one right (the opponent's replies are played on the board,
the puzzle rating goes up), miss the next one (it goes down, the solution can be stepped
through), and the page fits a phone with the board and the feedback on one screen."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect
from tests.browser.support import Client, click_move, no_overflow, shoot

from doushouqi.jungle.board import Board
from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.puzzles import service as puzzles

I18N = STATIC_DIR / "i18n" / "zh" / "puzzle.json"
WORDS = json.loads(I18N.read_text("utf-8"))


def shown_puzzle(page: Page, previous: str | None = None) -> dict[str, object]:
    page.wait_for_function(
        "(old) => window.puzzlePage && window.puzzlePage.puzzle"
        " && window.puzzlePage.puzzle.id !== old",
        arg=previous,
    )
    puzzle: dict[str, object] = page.evaluate("window.puzzlePage.puzzle")
    return puzzle


def line_of(puzzle_id: object) -> list[str]:
    return next(list(p["line"]) for p in puzzles.shipped() if p["id"] == puzzle_id)


def test_solve_a_puzzle_right_then_one_wrong(client: Client, artifacts: Path) -> None:
    page = client.open("/#/")
    page.click("#go-puzzles")
    puzzle = shown_puzzle(page)
    expect(page.locator("#pz-rules")).to_contain_text(WORDS["puzzle.rules"].split("：")[0])
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

    line = line_of(puzzle["id"])
    for index, move in enumerate(line[0::2]):
        click_move(page, move)
        if 2 * index + 1 < len(line):
            expect(feedback).to_have_text(WORDS["puzzle.keepGoing"])
            reply = line[2 * index + 1]
            page.wait_for_function(
                "(sq) => window.puzzlePage.board.getState().lastMove?.[1] === sq", arg=reply[2:4]
            )
    expect(feedback).to_have_attribute("data-result", "solved")
    change = page.locator("#pz-change")
    expect(change).to_have_class("pz-change up")
    assert change.inner_text().startswith("+")
    expect(page.locator("#pz-stepper")).to_be_visible()
    shoot(page, artifacts, "puzzle-solved")

    page.click("#pz-next")
    second = shown_puzzle(page, str(puzzle["id"]))
    right = line_of(second["id"])[0]
    board = Board(str(second["fen"]), str(second["rules"]))
    wrong = next(str(m) for m in board.generate_legal_moves() if str(m) != right)
    click_move(page, wrong)
    expect(feedback).to_have_attribute("data-result", "wrong")
    expect(feedback).to_contain_text(right)
    expect(change).to_have_class("pz-change down")
    assert change.inner_text().startswith("−")
    # the solution, move by move, from the puzzle's position
    page.click("#pz-step-next")
    expect(page.locator("#pz-step-text")).to_contain_text(right)
    shoot(page, artifacts, "puzzle-wrong")


def test_hint_streak_and_daily(client: Client, artifacts: Path) -> None:
    page = client.open("/#/puzzles?mode=streak")
    puzzle = shown_puzzle(page)
    right = line_of(puzzle["id"])[0]
    page.click("#pz-hint")
    expect(page.locator("#pz-feedback")).to_have_attribute("data-result", "hint")
    expect(page.locator("#pz-feedback")).to_contain_text(right[:2])
    page.click("#pz-hint")
    expect(page.locator("#pz-feedback")).to_contain_text(right)
    page.click("#pz-mode-daily")
    daily = shown_puzzle(page, str(puzzle["id"]))
    expect(page.locator("#pz-about")).to_contain_text(WORDS["puzzle.dailyOf"].split("}")[1])
    assert daily["id"]
    page.click("#pz-solution")
    expect(page.locator("#pz-feedback")).to_have_attribute("data-result", "shown")
    expect(page.locator("#pz-stepper")).to_be_visible()
    shoot(page, artifacts, "puzzle-daily")
    page.select_option("#pz-theme", "den_attack")
    themed = shown_puzzle(page, str(daily["id"]))
    assert "den_attack" in themed["themes"]  # type: ignore[operator]
