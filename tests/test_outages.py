"""Outages answer "try again", never 500 (issue 24, point 6).

A real daphne process against a Redis of the test's own that is stopped and
started again, and against PostgreSQL through a proxy that is cut and
restored: signing in, signing up, hosting and joining a room and a room
socket's handshake answer a translated 503 (HTML or JSON) or close 4503 with
a message while the service is away, and work again once it is back, with
no restart. Throttles let requests through meanwhile, with a log line.
"""

import asyncio
import re
import time

import pytest
from django.contrib.auth import get_user_model

from tests.outage_helpers import (
    Device,
    Proxy,
    daphne_on_own_redis,
    database_proxy,
    proxied_database_url,
)
from tests.services import Daphne, needs_services
from tests.wsclient import Closed, WebSocket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PASSWORD = "right-horse-battery"
CLOSE_TRY_AGAIN = 4503


def handshake(port: int, code: str, cookie: str, language: str = "en") -> list:
    """What a room socket's handshake gives: the messages, then ("closed",
    code) or ("open",) when it stayed open after its hello."""

    async def run() -> list:
        cookies = f"{cookie}; django_language={language}"
        ws = await WebSocket.room(port, code, cookies)
        got: list = []
        try:
            while True:
                message = await ws.recv_json(timeout=10)
                got.append(message)
                if message["type"] in ("state", "events"):
                    got.append(("open",))
                    return got
        except Closed as closed:
            got.append(("closed", closed.code))
            return got
        finally:
            await ws.close()

    return asyncio.run(run())


def host_room(device: Device, name: str = "Ann") -> str:
    device.csrf_from("/rooms/")
    reply = device.post("/rooms/host", {"name": name})
    assert reply.status == 302, (reply.status, reply.text[:500])
    return reply.headers["Location"].rstrip("/").rsplit("/", 1)[-1]


def sign_in(device: Device, password: str = PASSWORD):
    device.csrf_from("/accounts/login/")
    return device.post("/accounts/login/", {"username": "ana", "password": password})


def assert_try_again(reply, language: str = "en") -> None:
    assert reply.status == 503, (reply.status, reply.text[:800])
    assert int(reply.headers["Retry-After"]) > 0
    if reply.headers["Content-Type"].startswith("application/json"):
        assert '"error": "unavailable"' in reply.text
        return
    assert 'id="unavailable"' in reply.text
    if language == "ne":
        assert "५०३" in reply.text and "try again" not in reply.text.lower()
    else:
        assert "try again" in reply.text


def assert_closed_try_again(got: list, language: str = "en") -> None:
    assert got[-1] == ("closed", CLOSE_TRY_AGAIN), got
    error = got[-2]
    assert (error["type"], error["code"]) == ("error", "unavailable")
    if language == "ne":
        assert re.search("[\u0900-\u097f]", error["message"]), error
    else:
        assert "trying again" in error["message"]


def statuses(daphne: Daphne) -> list[int]:
    """The status of every request daphne logged (sitewide.requestlog)."""
    found = re.findall(r"tiles\.request .* (\d{3}) [\d.]+ms", "".join(daphne.lines))
    return [int(s) for s in found]


def open_after_retries(port: int, code: str, cookie: str) -> list:
    """The page's reconnecting, as connection.js does it: a try-again close
    is followed by another handshake after a growing wait, until one opens."""
    wait_s = 0.5
    for _ in range(5):
        time.sleep(wait_s)
        wait_s *= 2
        got = handshake(port, code, cookie)
        if got[-1] == ("open",):
            return got
        assert_closed_try_again(got)
    pytest.fail(f"the socket never opened again: {got}")


@pytest.fixture
def ana():
    return get_user_model().objects.create_user("ana", password=PASSWORD)


def test_a_redis_outage_lets_people_in_and_sockets_try_again(ana):
    needs_services("the Redis outage")
    with daphne_on_own_redis() as (redis, daphne):
        ann = Device(daphne.port)
        code = host_room(ann)
        cookie = ann.cookie("tiles_player")
        assert handshake(daphne.port, code, cookie)[-1] == ("open",)

        redis.stop()
        # The throttles fail open: everything that needs only the database
        # works, and each throttle says in the log that it counted nothing.
        assert sign_in(Device(daphne.port)).status == 302
        newcomer = Device(daphne.port)
        newcomer.csrf_from("/accounts/signup/")
        signup = {"username": "cleo", "password1": PASSWORD, "password2": PASSWORD}
        assert newcomer.post("/accounts/signup/", signup).status == 302
        second = host_room(Device(daphne.port), "Dev")
        bob = Device(daphne.port)
        bob.csrf_from("/rooms/")
        assert bob.post("/rooms/join", {"code": code, "name": "Bob"}).status == 302
        assert "not counted (fails open)" in "".join(daphne.lines)
        # The room's socket needs Redis (its group): told to try again, in
        # the page's language.
        # As often as the page retries in a long outage, more than the
        # sockets a seat may hold: none of them may stay counted.
        for _ in range(5):
            assert_closed_try_again(handshake(daphne.port, code, cookie))
        bob_cookie = bob.cookie("tiles_player")
        assert_closed_try_again(handshake(daphne.port, code, bob_cookie, "ne"), "ne")
        # The room limits' counts let the sockets in, counted in the process.
        assert "counted here only" in "".join(daphne.lines)

        redis.start()  # the same port, empty, as after a restart
        open_after_retries(daphne.port, code, cookie)
        assert host_room(Device(daphne.port), "Eve") not in (code, second)
        assert 500 not in statuses(daphne), daphne.log()


def test_a_database_outage_answers_503_and_recovers(ana):
    needs_services("the database outage")
    proxy = database_proxy()
    url = proxied_database_url(proxy)
    assert f":{proxy.port}/" in url
    try:
        with daphne_on_own_redis(DATABASE_URL=url) as (_, daphne):
            database_outage(daphne, proxy)
    finally:
        proxy.cut()


def database_outage(daphne: Daphne, proxy: Proxy) -> None:
    ann = Device(daphne.port)
    code = host_room(ann)
    cookie = ann.cookie("tiles_player")
    assert handshake(daphne.port, code, cookie)[-1] == ("open",)
    owner = Device(daphne.port)
    assert sign_in(owner).status == 302
    bob, newcomer = Device(daphne.port), Device(daphne.port)
    nepali = Device(daphne.port, "ne")
    bob.csrf_from("/rooms/")
    nepali.csrf_from("/accounts/login/")
    newcomer.csrf_from("/accounts/signup/")

    proxy.cut()
    signup = {"username": "cleo", "password1": PASSWORD, "password2": PASSWORD}
    assert_try_again(newcomer.post("/accounts/signup/", signup))
    assert_try_again(
        nepali.post("/accounts/login/", {"username": "ana", "password": PASSWORD}),
        "ne",
    )
    assert_try_again(owner.get("/accounts/profile/"))
    assert "http-equiv" in owner.get("/accounts/profile/").text  # reloads
    assert_try_again(ann.post("/rooms/host", {"name": "Ann"}))
    assert_try_again(bob.post("/rooms/join", {"code": code, "name": "Bob"}))
    as_json = {"Accept": "application/json"}
    join = {"code": code, "name": "Bob"}
    assert_try_again(bob.post("/rooms/join", join, **as_json))
    assert_closed_try_again(handshake(daphne.port, code, cookie))

    proxy.restore()
    assert bob.post("/rooms/join", {"code": code, "name": "Bob"}).status == 302
    assert owner.get("/accounts/profile/").status == 200
    right = {"username": "ana", "password": PASSWORD}
    assert nepali.post("/accounts/login/", right).status == 302
    assert newcomer.post("/accounts/signup/", signup).status == 302
    open_after_retries(daphne.port, code, cookie)
    assert 500 not in statuses(daphne), daphne.log()


def test_a_redis_that_hangs_holds_sign_in_up_for_seconds_only(ana):
    needs_services("the frozen Redis")
    with daphne_on_own_redis() as (redis, daphne):
        right = {"username": "ana", "password": PASSWORD}

        def timed_sign_in() -> float:
            device = Device(daphne.port)
            device.csrf_from("/accounts/login/")
            started = time.monotonic()
            assert device.post("/accounts/login/", right).status == 302
            return time.monotonic() - started

        usual_s = timed_sign_in()  # the baseline, on this machine, now
        redis.freeze()
        frozen_s = timed_sign_in()
        redis.freeze(False)
        # Two throttles, one cache call each: the first one's wait only
        # (2 s), not each one's.
        assert frozen_s - usual_s < 3.5, (usual_s, frozen_s)
        assert "not counted (fails open)" in "".join(daphne.lines)
