"""The rule set a player is served puzzles of: the game's default (wango, the set the lessons
teach) unless the player asks for another, or for any; the daily puzzle is one per set."""

from __future__ import annotations

from collections import Counter

from tests.support.live import LiveServer, ManualTime

from doushouqi.core.game import get_game
from doushouqi.server.puzzles import service as puzzles

DAY = 86_400.0


def test_puzzles_are_of_the_default_rule_set_unless_another_is_asked(
    server: LiveServer,
) -> None:
    assert get_game(puzzles.GAME_KEY).default_rule_set == "wango"
    player = server.player().guest()
    served = Counter()
    for _ in range(8):
        got = player.get("/api/puzzles/next").json()["puzzle"]
        served[got["rules"]] += 1
        player.post(f"/api/puzzles/{got['id']}/solution", json={})  # tried: the next is another
    assert served == {"wango": 8}
    for rules in ("classic", "classic-dog", "international"):
        for mode in ("rated", "streak"):
            got = player.get("/api/puzzles/next", params={"rules": rules, "mode": mode}).json()
            assert got["puzzle"]["rules"] == rules
    themed = player.get(
        "/api/puzzles/next", params={"rules": "classic", "mode": "theme", "theme": "traps"}
    ).json()["puzzle"]
    assert themed["rules"] == "classic" and "traps" in themed["themes"]
    anyset = {
        player.get("/api/puzzles/next", params={"rules": "any"}).json()["puzzle"]["rules"]
        for _ in range(20)
    }
    assert anyset <= set(get_game(puzzles.GAME_KEY).rule_set_names) and len(anyset) > 1


def test_the_theme_counts_are_of_the_rule_set_asked(server: LiveServer) -> None:
    player = server.player()
    shipped = puzzles.shipped()
    every = player.get("/api/puzzles/themes").json()
    assert every["total"] == len(shipped) and every["default_rules"] == "wango"
    wango = player.get("/api/puzzles/themes", params={"rules": "wango"}).json()
    assert wango["total"] == sum(p["rules"] == "wango" for p in shipped)
    jumps = sum(p["rules"] == "wango" and "jump_blocking" in p["themes"] for p in shipped)
    assert {"theme": "jump_blocking", "count": jumps} in wango["themes"]


def test_the_daily_puzzle_is_one_per_rule_set(server: LiveServer, clock: ManualTime) -> None:
    one, other = server.player(), server.player().guest()
    clock.advance(DAY - clock.now() % DAY + 60)
    plain = one.get("/api/puzzles/daily").json()
    assert plain["puzzle"]["rules"] == "wango" and plain["puzzle"]["depth"] >= 2
    assert one.get("/api/puzzles/daily", params={"rules": "wango"}).json() == plain
    classic = one.get("/api/puzzles/daily", params={"rules": "classic"}).json()
    assert classic["puzzle"]["rules"] == "classic" and classic["day"] == plain["day"]
    clock.advance(DAY / 2)
    later = other.get("/api/puzzles/daily", params={"rules": "classic"}).json()
    assert later["puzzle"]["id"] == classic["puzzle"]["id"]  # the same for everyone all day


def test_an_unknown_rule_set_is_a_coded_422(server: LiveServer) -> None:
    player = server.player().guest()
    for url in ("/api/puzzles/next", "/api/puzzles/daily", "/api/puzzles/themes"):
        for rules in ("nosuch", "wango-custom", "<b>"):
            answer = player.get(url, params={"rules": rules})
            assert answer.status_code == 422, (url, rules, answer.text)
            assert answer.json()["code"] == "puzzle.bad_rules"
        assert player.get(url, params={"rules": "x" * 40}).status_code == 422
