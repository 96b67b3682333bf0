"""The game page's extras in a real browser: a whole game against the computer, a per-move
timer running out, hints, the threat view, accessible mode, and the rules page's questions
(see ``support.py`` for the set-up; the test server's AI plays random legal moves)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route, expect
from tests.browser.support import Client, click_move, plies, shoot, toggle_language

BLUE_DEN = "d9"
# What the result box says for each way a game can end (zh.json "term.*").
TERMINATIONS = {
    "den_entered": "攻入兽穴",
    "all_captured": "吃光对方棋子",
    "no_legal_moves": "无子可走（困毙）",
    "repetition": "重复局面",
    "no_capture_limit": "长期无吃子",
    "move_restrictions": "违例（只剩被禁止的着法）",
}


def game(page: Page) -> dict[str, Any]:
    """The game as the page holds it (``window.gameView.game``)."""
    return dict(page.evaluate("window.gameView.game"))


def distance(square: str, target: str = BLUE_DEN) -> int:
    return abs(ord(square[0]) - ord(target[0])) + abs(int(square[1]) - int(target[1]))


def towards_den(dests: dict[str, list[str]], rng: random.Random, seen: dict[str, int]) -> str:
    """A legal move that heads for Blue's den: the den itself if reachable, else the move that
    gains the most, with positions visited often made less attractive (no endless shuffling)."""
    moves = [f + t for f, tos in dests.items() for t in tos]
    for move in moves:
        if move[2:] == BLUE_DEN:
            return move

    def cost(move: str) -> float:
        gain = distance(move[2:]) - distance(move[:2])
        return gain + 0.7 * seen.get(move[2:], 0) + rng.random() * 0.5

    return min(moves, key=cost)


def start_vs_ai(client: Client, time: str | None = None) -> Page:
    """A game against the computer started from the settings page, Red to move."""
    page = client.open("/#/new/vs_ai")
    expect(page.locator("select[name=time]")).to_be_visible()
    if time:
        # A control too short for the presets: offered the way the page offers the others.
        script = "(tc) => document.querySelector('select[name=time]').add(new Option(tc, tc, 1, 1))"
        page.evaluate(script, time)
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    return page


def wait_for_my_turn_or_end(page: Page, ply: int) -> None:
    page.wait_for_function(
        "(ply) => { const v = window.gameView; return v.game.ply > ply"
        " && (v.canMoveNow() || v.game.status_id >= 25); }",
        arg=ply,
    )


def test_a_whole_game_against_the_computer(client: Client, artifacts: Path) -> None:
    page = start_vs_ai(client)
    rng = random.Random(7)
    seen: dict[str, int] = {}
    for _ in range(150):
        g = game(page)
        if g["status_id"] >= 25:
            break
        move = towards_den(g["dests"], rng, seen)
        seen[move[2:]] = seen.get(move[2:], 0) + 1
        click_move(page, move)
        wait_for_my_turn_or_end(page, g["ply"])
        if g["ply"] == 8:
            shoot(page, artifacts, "extras-vs-ai-midgame")
    g = game(page)
    assert g["status_id"] >= 25, "the game did not end within 150 moves"
    result = page.locator("#result")
    expect(result).to_be_visible()
    outcome = g["outcome"]
    if outcome["winner"] is None:
        expect(result.locator(".result-title")).to_have_text("和棋")
    else:
        side = "红方" if outcome["winner"] == 0 else "蓝方"
        expect(result.locator(".result-title")).to_have_text(f"{side}获胜")
        expect(result.locator(".result-you")).to_have_text(
            "你赢了！" if outcome["winner"] == 0 else "你输了"
        )
    expect(result.locator(".result-reason")).to_have_text(TERMINATIONS[outcome["termination"]])
    link = page.locator("#replay-link")
    expect(link).to_have_text("复盘")
    expect(link).to_have_attribute("href", f"#/replay/game/{g['id']}")
    expect(page.locator("#hint")).to_be_hidden()  # no hints once the game is over
    shoot(page, artifacts, "extras-vs-ai-result")


def test_the_per_move_timer_runs_out(client: Client, artifacts: Path) -> None:
    # docs/rules.md 5.3: a timeout passes the turn (the AI moves again); the fourth one loses.
    page = start_vs_ai(client, time="/1s")
    expect(page.locator('[data-clock="0"] .per-move')).to_contain_text("本步")
    expect(page.locator("#toast")).to_contain_text("红方超时，停棋一步", timeout=10_000)
    expect(page.locator('[data-clock="0"] .timeouts')).to_have_text(
        re.compile(r"^超时 [1-3]$"), timeout=10_000
    )
    result = page.locator("#result")
    expect(result).to_be_visible(timeout=20_000)
    expect(result.locator(".result-title")).to_have_text("蓝方获胜")
    expect(result.locator(".result-reason")).to_have_text("超时四次")
    expect(result.locator(".result-you")).to_have_text("你输了")
    # each pass is in the move list as a dash; Red passed three times before losing
    red_passes = page.locator("#moves li.red", has_text="—")
    expect(red_passes).to_have_count(3)
    shoot(page, artifacts, "extras-timeouts")


def test_hint_shows_a_legal_move(client: Client, artifacts: Path) -> None:
    page = start_vs_ai(client)
    dests = game(page)["dests"]
    expect(page.locator("#hint")).to_have_attribute("aria-disabled", "false")
    page.click("#hint")
    # A function, not a string: Playwright evals a string on every poll, which the CSP refuses.
    page.wait_for_function("() => window.gameView.board.getState().hint !== null")
    hint = page.evaluate("window.gameView.board.getState().hint")
    assert hint[1] in dests[hint[0]], f"the hint {hint} is not a legal move: {dests}"
    expect(page.locator(f'.dsq-squares [data-square="{hint[0]}"]')).to_have_class(
        re.compile(r"\bhint-from\b")
    )
    expect(page.locator(f'.dsq-squares [data-square="{hint[1]}"]')).to_have_attribute(
        "aria-label", re.compile("提示：走到这里")
    )
    expect(page.locator(".dsq-arrows")).to_be_visible()
    text = page.locator("#hint-text")
    expect(text).to_contain_text("提示：红 ")
    expect(text).to_contain_text(f"{hint[0]}→{hint[1]}")
    shoot(page, artifacts, "extras-hint")
    # the next move clears it
    click_move(page, hint[0] + hint[1])
    plies(page, 2)
    expect(text).to_be_hidden()
    assert page.evaluate("window.gameView.board.getState().hint") is None
    expect(page.locator(".dsq-arrows")).to_be_hidden()


def test_threat_view_marks_an_attacked_animal(client: Client, artifacts: Path) -> None:
    page = client.open("/#/new/same_screen")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("红方走棋")
    toggle = page.locator("#threats-toggle")
    expect(toggle).to_have_text("先看威胁")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    # Blue's rat walks up to Red's elephant on a4: the rat may take the elephant from land.
    for i, move in enumerate(["a3a4", "a7a6", "g3g4", "a6a5"]):
        click_move(page, move)
        plies(page, i + 1)
    elephant = page.locator('.dsq-squares [data-square="a4"]')
    expect(elephant).not_to_have_class(re.compile(r"\bthreat\b"))
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(elephant).to_have_class(re.compile(r"\bthreat\b"))
    expect(elephant).to_have_attribute("aria-label", re.compile("受威胁"))
    legend = page.locator("#threat-legend")
    expect(legend).to_contain_text("红方可能被吃掉的棋子")
    expect(legend).to_contain_text("可能被吃：a4 象")
    assert page.locator(".dsq-squares .sq.threat").count() == 1
    shoot(page, artifacts, "extras-threats")
    # the elephant steps away: Blue to move now, and nothing of Blue's is threatened
    click_move(page, "a4a3")
    plies(page, 5)
    expect(legend).to_contain_text("蓝方暂时没有受威胁的棋子")
    expect(page.locator(".dsq-squares .sq.threat")).to_have_count(0)
    # remembered
    page.reload()
    expect(page.locator("#threats-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#threat-legend")).to_be_visible()


def test_accessible_mode_typed_moves_are_announced(client: Client, artifacts: Path) -> None:
    page = start_vs_ai(client)
    expect(page.locator("#a11y-panel")).to_be_hidden()
    page.click("#game-menu summary")
    page.check("#a11y-toggle")
    expect(page.locator("#a11y-panel")).to_be_visible()
    box = page.locator("#move-input")
    expect(box).to_be_focused()
    announcer = page.locator("#move-announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    # a mistake is read out, and nothing is sent
    box.fill("a3a5")
    box.press("Enter")
    error = page.locator("#move-error")
    expect(error).to_have_attribute("role", "alert")
    expect(error).to_contain_text("a3→a5 不能走")
    expect(box).to_have_attribute("aria-invalid", "true")
    box.fill("hello")
    box.press("Enter")
    expect(error).to_contain_text("看不懂“hello”")
    # a typed move: announced, then the computer's reply
    box.fill("a3a4")
    box.press("Enter")
    plies(page, 2)
    expect(announcer).to_contain_text("第 2 步：蓝 ")
    expect(error).to_be_empty()
    expect(box).to_be_focused()
    items = page.locator("#moves li")
    expect(items.first).to_have_text("红 象 a3→a4")
    expect(items.first).to_have_attribute("value", "1")
    reply = page.evaluate("window.gameView.moves[1].move")
    expect(items.nth(1)).to_contain_text(f"{reply[:2]}→{reply[2:]}")
    # the board does not read moves out as well (accessible mode reads each move once)
    assert page.evaluate("window.gameView.board.getState().announceMoves") is False
    shoot(page, artifacts, "extras-accessible")
    # keyboard play on the board keeps the focus on the board after the move and the reply
    page.focus('.dsq-squares [data-square="g3"]')
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    plies(page, 4)
    expect(announcer).to_contain_text("第 4 步")
    assert page.evaluate("document.activeElement.dataset.square") == "g4"
    # remembered after a reload, and the history is not read out again
    page.reload()
    plies(page, 4)
    expect(page.locator("#a11y-toggle")).to_be_checked()
    expect(page.locator("#moves li").first).to_have_text("红 象 a3→a4")
    expect(announcer).to_be_empty()


def test_accessible_mode_says_when_it_is_not_your_turn(client: Client) -> None:
    page = client.open("/#/new/online")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("等待对手")
    page.click("#game-menu summary")
    page.check("#a11y-toggle")
    page.fill("#move-input", "a3a4")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-error")).to_contain_text("现在还没轮到你走棋")
    expect(page.locator("#hint")).to_be_hidden()


def test_rules_page_questions_follow_the_rule_set(client: Client, artifacts: Path) -> None:
    page = client.open("/#/rules/wango")
    faq = page.locator("#rule-faq")
    for question in ("鼠真的能吃象吗", "河里的鼠和岸上的鼠能互吃吗", "河里有鼠", "陷阱对自己的兽"):
        expect(faq).to_contain_text(question)
    expect(faq).to_contain_text("可以走进自己的兽穴吗")
    expect(faq).to_contain_text("第四次超时判负")
    expect(faq.locator('dd[data-faq="rat-rat"]')).to_contain_text("不能。")
    expect(faq.locator('dd[data-faq="jump-block"]')).to_contain_text("不论是哪一方的鼠")
    expect(faq.locator('dd[data-faq="repetition"]')).to_contain_text("第三次出现时，判为和棋")
    expect(faq.locator('dd[data-faq="no-capture"]')).to_contain_text("没有限制")
    expect(faq.locator('[data-faq="rule-7-3"]')).to_have_count(0)
    page.select_option("#rules-select", "classic")
    expect(faq.locator('dd[data-faq="rat-rat"]')).to_contain_text("能。")
    expect(faq.locator('dd[data-faq="jump-block"]')).to_contain_text("自己的鼠不挡路")
    expect(faq.locator('dd[data-faq="no-capture"]')).to_contain_text("连续 100 回合")
    expect(faq.locator('dd[data-faq="repetition"]')).to_contain_text("必须变着")
    expect(faq.locator('dt[data-faq="rule-7-3"]')).to_contain_text("7-3")
    expect(faq.locator('dt[data-faq="rule-17-5"]')).to_contain_text("17-5")
    shoot(page, artifacts, "extras-rules-faq")
    toggle_language(page)
    expect(faq).to_contain_text("Can the rat really capture the elephant?")
    expect(faq.locator('dd[data-faq="no-capture"]')).to_contain_text("After 100 rounds")
    toggle_language(page)


def test_rules_page_calls_the_wolf_fox_when_the_rule_set_does(client: Client) -> None:
    # No built-in rule set calls the wolf 狐 (docs/rules.md 6, `wolf_name`): serve one that does.
    page = client.page

    def fox_rules(route: Route) -> None:
        sets = route.fetch().json()["rule_sets"]
        sets[0] = {**sets[0], "wolf_name": "fox"}
        route.fulfill(json={"rule_sets": sets})

    page.route("**/api/rules?game=jungle", fox_rules)  # the rule sets of the game shown
    client.open("/#/rules/wango")
    expect(page.locator('[data-option="wolf_name"] td')).to_have_text("狐")
    expect(page.locator('[data-option="ranks"] th')).to_have_text("狐与狗")
    expect(page.locator('[data-option="ranks"] td')).to_have_text("狐 4 > 狗 3")
    expect(page.locator(".rule-points")).to_contain_text("> 狐 4 > 狗 3 >")
    expect(page.locator(".rule-points")).not_to_contain_text("狼")
    expect(page.locator('[data-option="wolf_name"] th')).to_have_text("狼的名称")
    toggle_language(page)
    expect(page.locator('[data-option="ranks"] td')).to_have_text("fox 4 > dog 3")
