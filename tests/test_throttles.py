"""Throttles on HTTP (issue 15, point 2): sign-in (the site's and the
admin's), sign-up, password change, hosting rooms, guessing room codes.
Over a limit: 429 with Retry-After and when to try again; nothing done."""

import pytest
from django.contrib.auth import get_user_model

from rooms import actions
from rooms.models import Room
from tests.room_helpers import person
from tests.run_helpers import Browser

pytestmark = pytest.mark.django_db

LIMIT = 3


@pytest.fixture(autouse=True)
def small_limits(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.THROTTLE_RATES = {
        group: f"{LIMIT}/15m" for group in settings.THROTTLE_RATES
    }


@pytest.fixture
def ana():
    return get_user_model().objects.create_user("ana", password="right-horse-battery")


def assert_throttled(response) -> None:
    assert response.status_code == 429
    wait = int(response["Retry-After"])
    assert 0 < wait <= 15 * 60
    assert b"try again in" in response.content


def sign_in(me: Browser, path: str, password: str):
    return me.form(path, {"username": "ana", "password": password})


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_wrong_passwords_then_the_right_one_is_throttled(ana, path):
    ana.is_staff = True
    ana.save()
    me = Browser()
    for _ in range(LIMIT):
        assert sign_in(me, path, "wrong").status_code == 200  # the form again
    response = sign_in(me, path, "right-horse-battery")
    assert_throttled(response)
    assert "_auth_user_id" not in me.client.session


def test_the_site_and_the_admin_share_the_count(ana):
    me = Browser()
    for k in range(LIMIT):
        path = "/accounts/login/" if k % 2 else "/admin/login/"
        sign_in(me, path, "wrong")
    assert_throttled(sign_in(me, "/accounts/login/", "wrong"))


def test_another_name_from_another_address_still_signs_in(ana):
    get_user_model().objects.create_user("bo", password="bo-horse-battery")
    me = Browser()
    for _ in range(LIMIT + 1):
        sign_in(me, "/accounts/login/", "wrong")
    other = Browser()
    other.client.defaults["REMOTE_ADDR"] = "10.0.0.2"
    response = other.form(
        "/accounts/login/", {"username": "bo", "password": "bo-horse-battery"}
    )
    assert response.status_code == 302


def test_sign_ups_from_one_address_are_throttled():
    me = Browser()
    for n in range(LIMIT):
        me.form(
            "/accounts/signup/",
            {"username": f"u{n}", "password1": "x", "password2": "y"},
        )
    response = me.form(
        "/accounts/signup/",
        {
            "username": "late",
            "password1": "right-horse-battery",
            "password2": "right-horse-battery",
        },
    )
    assert_throttled(response)
    assert not get_user_model().objects.filter(username="late").exists()


def test_password_changes_are_throttled(ana):
    me = Browser()
    me.client.force_login(ana)
    wrong = {"old_password": "no", "new_password1": "a", "new_password2": "a"}
    for _ in range(LIMIT):
        assert me.form("/accounts/password/", wrong).status_code == 200
    assert_throttled(me.form("/accounts/password/", wrong))


def test_one_player_hosting_rooms_is_throttled_and_no_room_is_made():
    me = Browser()
    for _ in range(LIMIT):
        assert me.form("/rooms/host", {"name": "Ann"}).status_code == 302
    assert_throttled(me.form("/rooms/host", {"name": "Ann"}))
    assert Room.objects.count() == LIMIT


def test_hosting_from_one_address_is_throttled_across_players(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "host": "100/15m"}
    for _ in range(LIMIT):
        assert Browser().form("/rooms/host", {"name": "Ann"}).status_code == 302
    assert_throttled(Browser().form("/rooms/host", {"name": "Ann"}))


def test_wrong_codes_on_watch_are_throttled_right_ones_are_not_counted():
    room = actions.create_room(person("Ann"), "Ann")
    me = Browser()
    for _ in range(2 * LIMIT):
        assert me.client.get(f"/watch?code={room.code}").status_code == 200
    for _ in range(LIMIT):
        assert me.client.get("/watch?code=QQQQQ").status_code == 400
    assert_throttled(me.client.get(f"/watch?code={room.code}"))


def test_wrong_codes_on_joining_count_together_with_invite_links():
    room = actions.create_room(person("Ann"), "Ann")
    me = Browser()
    me.form("/rooms/join", {"code": "QQQQQ", "name": "Bob"})
    me.client.get("/r/QQQQQ")
    me.form("/r/QQQQQ", {"name": "Bob"})
    assert_throttled(me.form("/rooms/join", {"code": room.code, "name": "Bob"}))
    assert room.members.count() == 1
    assert_throttled(me.client.get(f"/r/{room.code}"))


def test_a_client_asking_for_json_gets_the_429_as_json():
    me = Browser()
    for _ in range(LIMIT):
        me.client.get("/watch?code=QQQQQ")
    response = me.client.get(
        "/watch?code=QQQQQ", headers={"Accept": "application/json"}
    )
    assert response.status_code == 429
    body = response.json()
    assert body["error"] == "throttled" and body["retry_after"] > 0
    assert "try again in" in body["message"]
