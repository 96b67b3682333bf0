"""The learn pages (static/app/learn/lessons.js) in a real browser: the list with both games'
lessons, lessons played by clicking moves, a wrong move's hint and retry, a forbidden try
explained, and the completion ticks kept across a reload.

The server judges every move (POST /api/position); each game's lesson_data.js is checked
against its rules library in tests/server/static/test_lesson_data.py.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from tests.browser.support import (
    Client,
    click_move,
    goto_route,
    laid_out_size,
    shoot,
    toggle_language,
)
from tests.support.live import LiveServer

JUNGLE_LESSONS = 8
TIGER_LESSONS = 3
LESSON_COUNT = JUNGLE_LESSONS + TIGER_LESSONS
BOARD = "#lesson-board .dsq-board"
INTERACTIVE = re.compile(r"\bdsq-interactive\b")
DEST = re.compile(r"\bdest\b")


def play(page: Page, move: str) -> None:
    """Click a move once the board offers the learner's moves (the server has answered)."""
    expect(page.locator(BOARD)).to_have_class(INTERACTIVE)
    click_move(page, move)


def expect_piece(page: Page, square: str, classes: str) -> None:
    """Wait until the piece drawn on ``square`` has ``classes`` in that order ("red rat";
    "" for an empty square): a move, a scripted reply or a step is drawn after the answer
    that the test saw, so reading the square at once could read the board before it."""
    pieces = page.locator(f'#lesson-board .dsq-pieces [data-square="{square}"]')
    if not classes:
        expect(pieces).to_have_count(0)
    else:
        expect(pieces.first).to_have_class(re.compile(rf"(^|\s){re.escape(classes)}(\s|$)"))


def next_step(page: Page, label: str) -> None:
    page.click("#lesson-next")
    expect(page.locator("#lesson-step")).to_have_text(label)


def test_learn_list_from_home_links_the_rules(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    expect(page.locator("#go-rules")).to_contain_text("学棋")
    page.click("#go-rules")
    expect(page.locator("#lesson-list-jungle > li")).to_have_count(JUNGLE_LESSONS)
    expect(page.locator('[data-lesson="water"]')).to_contain_text("小河")
    expect(page.locator('[data-lesson="attack"]')).to_contain_text("入门进攻")
    expect(page.locator(".lesson-item[data-done=true]")).to_have_count(0)
    expect(page.locator("#learn-progress")).to_have_text(f"已完成 0/{LESSON_COUNT} 课")
    shoot(page, artifacts, "learn-list")
    page.click("#learn-rules-jungle")
    expect(page.locator("#rule-options")).to_contain_text("三次重复判和")
    goto_route(page, client.server.url + "/#/learn/no-such-lesson")
    expect(page.locator(".error")).to_have_text("没有这节课。")


def test_water_lesson_wrong_move_retry_and_tick(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    page.click("#go-rules")
    page.click('[data-lesson="water"] a')
    expect(page.locator("#lesson-step")).to_have_text("第 1 步，共 3 步")
    expect(page.locator("#lesson-goal")).to_contain_text("让鼠下河")
    shoot(page, artifacts, "lesson-water")
    # A legal move that misses the goal: a hint and a retry; the board takes no more moves.
    play(page, "d5d4")
    feedback = page.locator("#lesson-feedback")
    expect(feedback).to_have_attribute("data-result", "wrong")
    expect(feedback).to_contain_text("不对哦。")
    expect(feedback).to_contain_text("往旁边一格就下水了")
    expect_piece(page, "d4", "red rat")
    expect(page.locator("#lesson-next")).to_have_count(0)
    expect(page.locator(BOARD)).not_to_have_class(INTERACTIVE)
    shoot(page, artifacts, "lesson-wrong")
    page.click("#lesson-retry")
    expect(feedback).to_be_empty()
    expect(page.locator("#lesson-retry")).to_have_count(0)
    expect(page.locator('#lesson-board .dsq-pieces [data-square="d5"]')).to_have_count(1)
    expect_piece(page, "d4", "")
    # The right moves, step by step.
    play(page, "d5c5")
    expect(feedback).to_have_attribute("data-result", "right")
    expect(feedback).to_contain_text("扑通！鼠下河了。")
    expect_piece(page, "c5", "red rat")
    next_step(page, "第 2 步，共 3 步")
    play(page, "c6c7")
    expect(feedback).to_have_attribute("data-result", "right")
    next_step(page, "第 3 步，共 3 步")
    # The dog may not swim: the server offers no water square.
    expect(page.locator(BOARD)).to_have_class(INTERACTIVE)
    page.click('.dsq-squares [data-square="c3"]')
    expect(page.locator('.dsq-squares [data-square="d3"]')).to_have_class(DEST)
    expect(page.locator('.dsq-squares [data-square="c4"]')).not_to_have_class(DEST)
    page.click('.dsq-squares [data-square="d3"]')
    expect(page.locator("#lesson-complete")).to_contain_text("恭喜，本课完成！")
    expect(page.locator("#lesson-next-lesson")).to_contain_text("狮虎跳河")
    shoot(page, artifacts, "lesson-complete")
    page.click("#lesson-list-link")
    water = page.locator('[data-lesson="water"]')
    expect(water).to_have_attribute("data-done", "true")
    expect(water.locator(".lesson-tick")).to_have_text("✓")
    page.reload()  # remembered in localStorage
    expect(page.locator('[data-lesson="water"]')).to_have_attribute("data-done", "true")
    expect(page.locator('[data-lesson="water"]')).to_contain_text("已完成")
    expect(page.locator('[data-lesson="movement"]')).to_have_attribute("data-done", "false")
    expect(page.locator("#learn-progress")).to_have_text(f"已完成 1/{LESSON_COUNT} 课")


def test_guided_attack_in_english(browser: Browser, server: LiveServer, artifacts: Path) -> None:
    client = Client(browser, server, locale="en-US")
    try:
        page = client.open("/")
        expect(page.locator("#go-rules")).to_contain_text("Learn")
        page.click("#go-rules")
        page.click('[data-lesson="attack"] a')
        expect(page.locator("#lesson-step")).to_have_text("Step 1 of 4")
        feedback = page.locator("#lesson-feedback")
        # a wrong first move, then the lesson's line with the opponent's scripted replies
        play(page, "c3d3")
        expect(feedback).to_contain_text("Not quite. The lion leads the attack")
        page.click("#lesson-retry")
        play(page, "c3c7")
        expect(feedback).to_contain_text("Across!")
        expect(feedback.locator(".lesson-reply")).to_contain_text("Blue replies:")
        expect_piece(page, "e8", "blue cat")
        shoot(page, artifacts, "lesson-attack")
        next_step(page, "Step 2 of 4")
        play(page, "c7c8")
        expect(feedback.locator(".lesson-reply")).to_be_visible()
        expect_piece(page, "e9", "blue cat")
        next_step(page, "Step 3 of 4")
        play(page, "c8d8")
        expect(feedback.locator(".lesson-reply")).to_be_visible()
        expect_piece(page, "e8", "blue cat")
        next_step(page, "Step 4 of 4")
        expect(page.locator("#lesson-goal")).to_contain_text("Enter the den")
        play(page, "d8d9")
        expect(page.locator("#lesson-complete")).to_have_text("Lesson complete!")
        expect_piece(page, "d9", "red lion")
        expect(page.locator("#lesson-next-lesson")).to_contain_text("the elephant raid")
        shoot(page, artifacts, "lesson-attack-won")
        page.click("#lesson-list-link")
        expect(page.locator('[data-lesson="attack"]')).to_have_attribute("data-done", "true")
        page.reload()
        expect(page.locator('[data-lesson="attack"] .lesson-tick')).to_have_text("✓")
        expect(page.locator("#learn-progress")).to_have_text(
            f"1 of {LESSON_COUNT} lessons completed"
        )
    finally:
        client.close()


def test_rat_lesson_marks_threats_and_plays_the_reply(client: Client) -> None:
    page = client.open("/#/learn/rat")
    play(page, "a5a6")
    expect(page.locator("#lesson-feedback")).to_contain_text("鼠吃象！")
    next_step(page, "第 2 步，共 4 步")
    # The server's threats: the blue rat could take the elephant, which cannot take it back.
    expect(page.locator('.dsq-squares [data-square="a4"]')).to_have_class(re.compile(r"\bthreat\b"))
    page.click('.dsq-squares [data-square="a4"]')
    expect(page.locator('.dsq-squares [data-square="a3"]')).to_have_class(DEST)
    expect(page.locator('.dsq-squares [data-square="a5"]')).not_to_have_class(re.compile("capture"))
    page.click('.dsq-squares [data-square="a3"]')
    next_step(page, "第 3 步，共 4 步")
    # From the water the rat may not take the elephant on the bank.
    expect(page.locator(BOARD)).to_have_class(INTERACTIVE)
    page.click('.dsq-squares [data-square="c6"]')
    expect(page.locator('.dsq-squares [data-square="c7"]')).to_have_class(DEST)
    expect(page.locator('.dsq-squares [data-square="d6"]')).not_to_have_class(re.compile("capture"))
    page.click('.dsq-squares [data-square="c7"]')
    expect(page.locator(".lesson-reply")).to_contain_text("蓝方应着")
    expect_piece(page, "d7", "blue elephant")
    next_step(page, "第 4 步，共 4 步")
    play(page, "c7d7")
    expect(page.locator("#lesson-complete")).to_be_visible()
    expect(page.locator("#lesson-next-lesson")).to_contain_text("兽穴")


def test_lesson_keeps_its_step_across_a_language_switch(client: Client, artifacts: Path) -> None:
    page = client.open("/#/learn/attack")
    step = page.locator("#lesson-step")
    expect(step).to_have_text("第 1 步，共 4 步")

    def play(move: str) -> None:
        expect(page.locator(BOARD)).to_have_class(INTERACTIVE)
        click_move(page, move)

    # Two steps of the lesson's line (each with Blue's scripted reply).
    play("c3c7")
    page.click("#lesson-next")
    expect(step).to_have_text("第 2 步，共 4 步")
    play("c7c8")
    page.click("#lesson-next")
    expect(step).to_have_text("第 3 步，共 4 步")
    expect(page).to_have_url(re.compile(r"#/learn/attack\?step=3$"))
    expect(page.locator(BOARD)).to_have_class(INTERACTIVE)

    toggle_language(page)
    expect(step).to_have_text("Step 3 of 4")
    expect(page.locator("#lesson-goal")).to_contain_text("Goal")
    # The same position as before the switch: the lion on c8, the cat back on e9.
    expect(page.locator('#lesson-board .dsq-pieces [data-square="c8"]')).to_have_class(
        re.compile("red lion")
    )
    expect(page.locator('#lesson-board .dsq-pieces [data-square="e9"]')).to_have_class(
        re.compile("blue cat")
    )
    shoot(page, artifacts, "lesson-step-across-languages")
    play("c8d8")
    page.click("#lesson-next")
    expect(step).to_have_text("Step 4 of 4")
    play("d8d9")
    expect(page.locator("#lesson-complete")).to_have_text("Lesson complete!")

    # A reload cannot know the moves of a step that continues the last one: it goes back to
    # the nearest step with a position of its own. A step with one opens as it was.
    goto_route(page, client.server.url + "/#/learn/water?step=2")
    expect(step).to_have_text("Step 2 of 3")
    expect(page.locator('#lesson-board .dsq-pieces [data-square="c6"]')).to_have_class(
        re.compile("red rat")
    )
    toggle_language(page)
    expect(step).to_have_text("第 2 步，共 3 步")
    goto_route(page, client.server.url + "/#/learn/attack?step=3")
    expect(step).to_have_text("第 1 步，共 4 步")
    expect(page).to_have_url(re.compile(r"#/learn/attack$"))


def test_lesson_list_link_starts_a_lesson_at_step_one(client: Client) -> None:
    page = client.open("/#/learn/water")
    expect(page.locator(BOARD)).to_have_class(INTERACTIVE)
    click_move(page, "d5c5")
    page.click("#lesson-next")
    expect(page).to_have_url(re.compile(r"\?step=2$"))
    page.click(".page-head .back")
    page.click('[data-lesson="water"] a')
    expect(page.locator("#lesson-step")).to_have_text("第 1 步，共 3 步")


def tap(page: Page, point: str) -> None:
    page.click(f'#lesson-board .dsq-squares [data-square="{point}"]')


def play_points(page: Page, start: str, end: str) -> None:
    """A move by its points (老虎棋's have one or two digits: e10), once the board takes it."""
    expect(page.locator(BOARD)).to_have_class(INTERACTIVE)
    tap(page, start)
    tap(page, end)


def test_learn_list_shows_each_games_lessons(client: Client, artifacts: Path) -> None:
    page = client.open("/#/learn")
    games = page.locator(".learn-game")
    expect(games).to_have_count(2)
    expect(games.nth(0).locator("h2")).to_have_text("斗兽棋")
    expect(games.nth(1).locator("h2")).to_have_text("老虎棋")
    expect(page.locator("#lesson-list-jungle > li")).to_have_count(JUNGLE_LESSONS)
    expect(page.locator("#lesson-list-tiger > li")).to_have_count(TIGER_LESSONS)
    expect(page.locator('[data-lesson="raid17"]')).to_contain_text("新手致胜17步")
    expect(page.locator('[data-lesson="tiger-trap"]')).to_contain_text("把老虎困在虎巢")
    expect(page.locator("#learn-progress")).to_have_text(f"已完成 0/{LESSON_COUNT} 课")
    expect(page.locator("#learn-rules-tiger")).to_have_text("老虎棋规则")
    shoot(page, artifacts, "learn-list-both-games")
    page.click("#learn-rules-tiger")
    expect(page.locator(".rules")).to_have_attribute("data-game", "tiger")


def test_tiger_lesson_played_through_on_a_phone(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    """老虎棋's last lesson in Simplified Chinese on a 320 px phone: the men close the nest with
    the tiger's scripted replies, and the tiger is hemmed in."""
    client = Client(browser, server, viewport={"width": 320, "height": 640})
    try:
        page = client.open("/#/learn")
        page.click('[data-lesson="tiger-trap"] a')
        expect(page.locator(".lesson-page")).to_have_attribute("data-game", "tiger")
        expect(page.locator("#lesson-step")).to_have_text("第 1 步，共 4 步")
        expect(page.locator(".lesson-howto")).to_have_text("先点一个人，再点高亮的点。")
        # the men's view: their side (rank 1) at the bottom, the nest at the top
        expect(page.locator(BOARD)).to_have_attribute("data-orientation", "red")
        expect_piece(page, "e11", "tiger")
        feedback = page.locator("#lesson-feedback")
        # a legal move that misses the goal: the hint, then a retry
        play_points(page, "d8", "d7")
        expect(feedback).to_have_attribute("data-result", "wrong")
        expect(feedback).to_contain_text("d11 是 d10 上面的角")
        page.click("#lesson-retry")
        moves = [("d10", "d11", "e10"), ("d9", "d10", "e11"), ("d10", "e10", "f11")]
        for n, (start, end, tiger) in enumerate(moves, 1):
            play_points(page, start, end)
            expect(feedback).to_have_attribute("data-result", "right")
            expect(feedback.locator(".lesson-reply")).to_contain_text("虎方应着")
            expect_piece(page, tiger, "tiger")
            assert page.evaluate("document.documentElement.scrollWidth") <= 320
            next_step(page, f"第 {n + 1} 步，共 4 步")
        play_points(page, "e10", "e11")
        expect(page.locator("#lesson-complete")).to_contain_text("恭喜，本课完成！")
        expect_piece(page, "e11", "man")
        expect_piece(page, "f11", "tiger")
        buttons = page.locator("#lesson-actions > *")
        for i in range(buttons.count()):
            assert laid_out_size(buttons.nth(i))[1] >= 44, i
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        page.screenshot(path=str(artifacts / "lesson-tiger-trap-320.png"), full_page=True)
        page.click("#lesson-list-link")
        expect(page.locator('[data-lesson="tiger-trap"]')).to_have_attribute("data-done", "true")
    finally:
        client.close()


def test_a_forbidden_try_is_explained_in_both_games(client: Client, artifacts: Path) -> None:
    page = client.open("/#/learn/water?step=3")
    feedback = page.locator("#lesson-feedback")
    # Jungle: the dog tapped onto the water, then dragged there: the rules' reason, translated
    expect(page.locator(BOARD)).to_have_class(INTERACTIVE)
    tap(page, "c3")
    tap(page, "c4")
    expect(feedback).to_have_attribute("data-result", "illegal")
    expect(feedback).to_have_text("不能这样走：只有鼠能下水，狗不会游泳。")
    expect(page.locator('#lesson-board .dsq-piece.red.dog[data-square="c3"]')).to_have_count(1)
    page.drag_and_drop(
        '#lesson-board .dsq-squares [data-square="c3"]',
        '#lesson-board .dsq-squares [data-square="a3"]',
    )
    expect(feedback).to_have_text("不能这样走：兽只能前后左右走一格，不能斜走。")
    # the step goes on: the dog is still picked up after the drop, and the right move counts
    tap(page, "d3")
    expect(feedback).to_have_attribute("data-result", "right")
    # 老虎棋: a jump whose landing point is taken, and one off the lines, in English
    goto_route(page, client.server.url + "/#/learn/tiger-jump?step=3")
    toggle_language(page)
    expect(page.locator("#lesson-step")).to_have_text("Step 3 of 3")
    play_points(page, "e5", "e3")
    expect(feedback).to_have_text(
        "Not allowed: The landing point e3 is taken: a man with a piece behind him cannot be"
        " jumped."
    )
    shoot(page, artifacts, "lesson-illegal-try")
    play_points(page, "e5", "c3")
    expect(feedback).to_contain_text("No line runs from e5 over d4 to c3")
    play_points(page, "e5", "g5")
    expect(feedback).to_have_attribute("data-result", "right")
    expect(page.locator("#lesson-complete")).to_be_visible()


def test_the_seventeen_move_raid_stepped_through(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    client = Client(browser, server, locale="en-US")
    raid = [
        "a3b3",
        "b2b1",
        "c3c2",
        "e3e2",
        "b3c3",
        "c3d3",
        "d3d4",
        "d4d5",
        "d5d6",
        "d6d7",
        "d7c7",
        "c7c8",
        "c8b8",
        "b8b9",
        "b9b8",
        "b8b9",
        "b9c9",
    ]
    try:
        page = client.open("/#/learn/raid17")
        step = page.locator("#lesson-step")
        feedback = page.locator("#lesson-feedback")
        expect(step).to_have_text("Step 1 of 20")
        expect(page.locator("#lesson-text")).to_contain_text("This lesson's reading")
        for n, move in enumerate(raid, 1):
            expect(page.locator("#lesson-goal")).to_contain_text(f"Move {n}:")
            play(page, move)
            expect(feedback.locator(".lesson-reply")).to_contain_text("Blue replies:")
            expect_piece(page, move[2:], "red")
            if n == 12:
                shoot(page, artifacts, "lesson-raid-move-12")
            next_step(page, f"Step {n + 1} of 20")
        play(page, "c9d9")  # 获胜: the den
        expect(feedback).to_contain_text("Won!")
        next_step(page, "Step 19 of 20")
        expect(page.locator("#lesson-text")).to_contain_text("How to stop it (1)")
        play(page, "b1c1")
        next_step(page, "Step 20 of 20")
        play(page, "d2d3")
        expect(page.locator("#lesson-complete")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        client.close()
