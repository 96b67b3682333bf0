"""Password guessing slows the guesser, not the account's owner; and only configured proxies
may say which address a client has."""

from __future__ import annotations

from pathlib import Path

from tests.support.live import PASSWORD, LiveServer, ManualTime, Player, make_settings, running

from doushouqi.server.infra.ratelimit import LoginThrottle
from doushouqi.server.infra.settings import RateLimit

WRONG = {"username": "owner", "password": "not the password"}
RIGHT = {"username": "owner", "password": PASSWORD}


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_each_failure_past_the_free_ones_doubles_the_wait() -> None:
    clock = Clock()
    throttle = LoginThrottle(RateLimit(1000, 600.0), clock)
    waits = []
    for _ in range(LoginThrottle.FREE_FAILURES + 5):
        wait = throttle.wait("1.2.3.4", "owner", trusted=False)
        waits.append(wait)
        clock.now += wait or 0.0
        throttle.failed("1.2.3.4", "owner", trusted=False)
    assert waits[: LoginThrottle.FREE_FAILURES] == [None] * LoginThrottle.FREE_FAILURES
    assert waits[LoginThrottle.FREE_FAILURES :] == [1.0, 2.0, 4.0, 8.0, 16.0]
    # Another address, or the same one for another account, is not held up at all.
    assert throttle.wait("5.6.7.8", "owner", trusted=False) is None
    assert throttle.wait("1.2.3.4", "someone", trusted=False) is None
    throttle.succeeded("1.2.3.4", "owner")
    assert throttle.wait("1.2.3.4", "owner", trusted=False) is None


def test_the_wait_is_capped() -> None:
    clock = Clock()
    throttle = LoginThrottle(RateLimit(1000, 600.0), clock)
    for _ in range(40):
        throttle.failed("1.2.3.4", "owner", trusted=False)
    assert throttle.wait("1.2.3.4", "owner", trusted=False) == LoginThrottle.MAX_DELAY


def test_the_per_account_cap_holds_only_clients_the_owner_never_used() -> None:
    clock = Clock()
    throttle = LoginThrottle(RateLimit(5, 600.0), clock)
    for address in range(5):  # five guessers, one try each
        throttle.failed(f"10.0.0.{address}", "owner", trusted=False)
    wait = throttle.wait("10.0.0.99", "owner", trusted=False)
    assert wait is not None and 599 < wait <= 600
    assert throttle.wait("10.0.0.99", "owner", trusted=True) is None
    clock.now += 600
    assert throttle.wait("10.0.0.99", "owner", trusted=False) is None


def player_at(server: LiveServer, address: str) -> Player:
    """A client that a trusted proxy in front of the server says is at ``address``."""
    player = server.player()
    player.http.headers["X-Forwarded-For"] = address
    return player


def login(player: Player, body: dict[str, str]) -> int:
    return player.post("/api/auth/login", json=body).status_code


def test_a_guesser_elsewhere_never_locks_the_owner_out(tmp_path: Path, clock: ManualTime) -> None:
    settings = make_settings(
        tmp_path,
        trusted_proxies=("127.0.0.1",),
        login_account_rate=RateLimit(10, 600.0),
    )
    with running(settings, clock) as server:
        player_at(server, "127.0.0.2").register("owner")
        owner = player_at(server, "127.0.0.2")  # at home, on a browser that logged in before
        assert login(owner, RIGHT) == 200
        guesser = player_at(server, "127.0.0.66")
        codes = [login(guesser, WRONG) for _ in range(6)]
        assert codes[:3] == [401, 401, 401] and codes[-1] == 429
        # The owner, on a new phone elsewhere: the guesser's failures are not the owner's.
        assert login(player_at(server, "127.0.0.3"), RIGHT) == 200
        # Guessing spread over many addresses hits the account's cap...
        for n in range(12):
            login(player_at(server, f"127.0.1.{n}"), WRONG)
        new_browser = player_at(server, "127.0.0.4")
        limited = new_browser.post("/api/auth/login", json=RIGHT)
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
        # ... but not for the browser the owner logged in from (its device cookie).
        assert login(owner, RIGHT) == 200


def test_forwarded_addresses_count_only_from_configured_proxies(tmp_path: Path) -> None:
    def codes(trusted: tuple[str, ...]) -> list[int]:
        settings = make_settings(tmp_path / str(len(trusted)), trusted_proxies=trusted)
        with running(settings, ManualTime()) as server:
            # One local client posing as a new address for every guess.
            return [login(player_at(server, f"127.0.2.{n}"), WRONG) for n in range(6)]

    assert codes(()) == [401, 401, 401, 429, 429, 429]  # the forged header changes nothing
    assert codes(("127.0.0.1",)) == [401] * 6  # behind a proxy, each is its own client


def test_the_browser_that_made_the_account_is_never_locked_out(
    tmp_path: Path, clock: ManualTime
) -> None:
    """Registering leaves the device cookie a login leaves: guessing from many addresses right
    after sign-up locks new browsers out, not the one the owner signed up on."""
    settings = make_settings(
        tmp_path, trusted_proxies=("127.0.0.1",), login_account_rate=RateLimit(20, 600.0)
    )
    with running(settings, clock) as server:
        owner = player_at(server, "127.0.0.2").register("owner")
        assert "dsq_device" in owner.cookies
        for n in range(25):
            login(player_at(server, f"127.0.1.{n}"), WRONG)
        assert login(player_at(server, "127.0.0.4"), RIGHT) == 429  # a new browser waits
        assert login(owner, RIGHT) == 200
