"""Challenges: an account invites another; accept makes the game, decline and cancel end it."""

from __future__ import annotations

from typing import Any

from tests.server.notifications.test_notifications import needs_cluster
from tests.support.live import LiveServer, ManualTime, Player
from tests.support.site_helpers import site_socket


def challenge(sender: Player, to: str, **body: Any) -> dict[str, Any]:
    response = sender.post("/api/challenges", json={"to": to, **body})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def code(response: Any) -> str:
    body = response.json()
    assert isinstance(body["detail"], str), body  # English for API users; `code` for the client
    return str(body["code"])


def test_an_accepted_challenge_puts_both_into_the_game_they_chose(server: LiveServer) -> None:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    with site_socket(alice) as alice_tab, site_socket(bob) as bob_tab:
        alice_tab.wait_for("hello")
        bob_tab.wait_for("hello")
        sent = challenge(alice, "Bob", rules="classic", time_control="5+3", color="blue")
        assert sent["status"] == "pending"
        told = bob_tab.wait_for("notification")["notification"]
        assert told["kind"] == "challenge.received"
        assert told["params"]["from"] == alice.me["name"]
        assert told["link"] == f"#/challenge/{sent['id']}"
        assert [c["id"] for c in bob.get("/api/challenges").json()["incoming"]] == [sent["id"]]
        assert [c["id"] for c in alice.get("/api/challenges").json()["outgoing"]] == [sent["id"]]
        accepted = bob.post(f"/api/challenges/{sent['id']}/accept")
        assert accepted.status_code == 200, accepted.text
        game_id = accepted.json()["game_id"]
        assert alice_tab.wait_for("paired")["game_id"] == game_id
        assert bob_tab.wait_for("paired")["game_id"] == game_id
        news = alice_tab.wait_for("notification")["notification"]
        assert (news["kind"], news["link"]) == ("challenge.accepted", f"#/game/{game_id}")
    game = alice.get(f"/api/games/{game_id}").json()["game"]
    assert game["rules"]["name"] == "classic"
    assert game["time_control"] == "5+3"
    assert game["players"][1]["identity"]["id"] == alice.me["id"]  # Alice chose Blue
    assert game["players"][0]["identity"]["id"] == bob.me["id"]
    # Accepted once: a second answer is refused.
    again = bob.post(f"/api/challenges/{sent['id']}/accept")
    assert (again.status_code, code(again)) == (409, "challenge.gone")
    assert alice.get(f"/api/challenges/{sent['id']}").json()["game_id"] == game_id


def test_a_declined_challenge_tells_the_challenger_why(server: LiveServer) -> None:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    sent = challenge(alice, "bob")
    with site_socket(alice) as alice_tab:
        alice_tab.wait_for("hello")
        answer = bob.post(f"/api/challenges/{sent['id']}/decline", json={"reason": "too_fast"})
        assert answer.status_code == 200, answer.text
        news = alice_tab.wait_for("notification")["notification"]
    assert news["kind"] == "challenge.declined"
    assert news["params"]["reason"] == "too_fast"
    assert alice.get(f"/api/challenges/{sent['id']}").json()["status"] == "declined"
    late = bob.post(f"/api/challenges/{sent['id']}/accept")
    assert late.status_code == 409
    bad = bob.post(f"/api/challenges/{sent['id']}/decline", json={"reason": "<b>"})
    assert bad.status_code == 422


def test_the_challenger_can_withdraw_and_the_recipients_tab_hears_it(server: LiveServer) -> None:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    sent = challenge(alice, "bob")
    with site_socket(bob) as bob_tab:
        bob_tab.wait_for("hello")
        refused = bob.request("DELETE", f"/api/challenges/{sent['id']}")
        assert (refused.status_code, code(refused)) == (403, "challenge.not_yours")
        assert alice.request("DELETE", f"/api/challenges/{sent['id']}").status_code == 200
        update = bob_tab.wait_for("challenge_update")
    assert (update["id"], update["status"]) == (sent["id"], "cancelled")
    assert bob.post(f"/api/challenges/{sent['id']}/accept").status_code == 409
    assert bob.get("/api/challenges").json()["incoming"] == []


def test_challenging_and_withdrawing_in_a_loop_leaves_the_victim_alone(
    server: LiveServer, clock: ManualTime
) -> None:
    """Fifteen challenges sent and withdrawn: the bell holds none of them, its count is back
    to zero, and past five in a quarter of an hour the challenger must wait."""
    pest, victim = server.player().register("pest"), server.player().register("victim")
    with site_socket(victim) as tab:
        tab.wait_for("hello")
        answers = []
        for _ in range(15):
            sent = pest.post("/api/challenges", json={"to": "victim"})
            answers.append(sent.status_code)
            if sent.status_code == 201:
                told = tab.wait_for("notification")["notification"]
                pest.request("DELETE", f"/api/challenges/{sent.json()['id']}")
                gone = tab.wait_for("notification_withdrawn")
                assert (gone["ids"], gone["unread"]) == ([told["id"]], 0)
        refused = pest.post("/api/challenges", json={"to": "victim"})
    assert answers == [201] * 5 + [429] * 10
    assert code(refused) == "challenge.too_often"
    assert refused.json()["params"] == {"max": 5, "minutes": 15}
    assert 1 <= int(refused.headers["retry-after"]) <= 15 * 60
    bell = victim.get("/api/notifications").json()
    assert (bell["notifications"], bell["unread"]) == ([], 0)
    # Someone else may still challenge the victim, and the pest another player...
    server.player().register("friend").post("/api/challenges", json={"to": "victim"})
    server.player().register("other")
    assert pest.post("/api/challenges", json={"to": "other"}).status_code == 201
    # ... and the pest the victim again once the quarter of an hour has passed.
    clock.advance(15 * 60 + 1)
    assert pest.post("/api/challenges", json={"to": "victim"}).status_code == 201
    assert victim.get("/api/notifications").json()["unread"] == 2


def test_an_unanswered_challenge_expires(server: LiveServer, clock: ManualTime) -> None:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    sent = challenge(alice, "bob", time_control="10+5")
    clock.advance(16 * 60)
    assert bob.get(f"/api/challenges/{sent['id']}").json()["status"] == "expired"
    assert bob.get("/api/challenges").json()["incoming"] == []
    late = bob.post(f"/api/challenges/{sent['id']}/accept")
    assert (late.status_code, code(late)) == (409, "challenge.gone")


def test_others_cannot_see_or_answer_a_challenge(server: LiveServer) -> None:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    carol = server.player().register("carol")
    sent = challenge(alice, "bob")
    assert carol.get(f"/api/challenges/{sent['id']}").status_code == 404
    assert carol.post(f"/api/challenges/{sent['id']}/accept").status_code == 404
    assert bob.get("/api/challenges/nope").status_code == 404


def test_bad_challenges_are_refused_with_codes(server: LiveServer) -> None:
    alice = server.player().register("alice")
    server.player().register("bob")
    guest = server.player().guest()

    def refusal(player: Player, body: dict[str, Any]) -> tuple[int, str]:
        response = player.post("/api/challenges", json=body)
        body = response.json()
        return response.status_code, body["code"]

    assert refusal(guest, {"to": "bob"}) == (403, "challenge.accounts_only")
    assert refusal(alice, {"to": "nobody"}) == (404, "challenge.no_such_player")
    assert refusal(alice, {"to": "alice"}) == (422, "challenge.self")
    rated_untimed = {"to": "bob", "rated": True}  # ratings are per speed: a clock gives one
    assert refusal(alice, rated_untimed) == (422, "challenge.rated_needs_clock")
    assert refusal(alice, {"to": "bob", "rules": "go"}) == (422, "challenge.unknown_rules")
    bad_time = refusal(alice, {"to": "bob", "time_control": "soon"})
    assert bad_time == (422, "time.bad")
    too_long = refusal(alice, {"to": "bob", "time_control": "500+0"})
    assert too_long == (422, "time.too_long")
    assert refusal(alice, {"to": "bob", "color": "green"}) == (422, "invalid")
    assert refusal(alice, {"to": ""}) == (422, "invalid")
    assert refusal(alice, {"to": "b" * 200}) == (422, "invalid")
    assert guest.get("/api/challenges").status_code == 403
    server.player().register("carol")
    for n in range(10):  # to two players: one is challenged at most 5 times a while
        challenge(alice, ("bob", "carol")[n % 2])
    assert refusal(alice, {"to": "bob"}) == (409, "challenge.too_many")


@needs_cluster
def test_a_challenge_sent_on_one_node_is_accepted_on_another(
    nodes: list[LiveServer],
) -> None:
    a, b, _ = nodes
    alice, bob = a.player().register("alice"), b.player().register("bob")
    with site_socket(alice) as alice_tab, site_socket(bob) as bob_tab:
        alice_tab.wait_for("hello")
        bob_tab.wait_for("hello")
        sent = challenge(alice, "bob", time_control="3+2")
        assert bob_tab.wait_for("notification")["notification"]["params"]["id"] == sent["id"]
        game_id = bob.post(f"/api/challenges/{sent['id']}/accept").json()["game_id"]
        paired = alice_tab.wait_for("paired")
        assert (paired["game_id"], paired["challenge_id"]) == (game_id, sent["id"])
    with alice.socket(game_id) as a_ws, bob.socket(game_id) as b_ws:
        a_ws.wait_for("game_started")
        b_ws.wait_for("game_started")
