"""Sign up, sign in, sign out, change password, profile and display name."""

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Player
from games.models import BestTime
from tests.run_helpers import Browser

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    # The real hasher is slow on purpose; these tests sign in many times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


PASSWORD = "green-dragon-42"


def sign_up(me: Browser, username: str = "ana", display_name: str = ""):
    return me.form(
        "/accounts/signup/",
        {
            "username": username,
            "display_name": display_name,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def test_sign_up_creates_an_account_and_signs_in():
    me = Browser()
    response = sign_up(me, display_name="  Ana   the Great ")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    user = get_user_model().objects.get(username="ana")
    assert user.player.display_name == "Ana the Great"
    page = me.client.get("/accounts/profile/")
    assert b"Ana the Great" in page.content
    assert b"Sign out" in page.content


def test_sign_up_refuses_mismatched_passwords():
    me = Browser()
    response = me.form(
        "/accounts/signup/",
        {"username": "ana", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert not get_user_model().objects.exists()


def test_sign_in_and_sign_out():
    get_user_model().objects.create_user("ana", password=PASSWORD)
    me = Browser()
    bad = me.form("/accounts/login/", {"username": "ana", "password": "nope"})
    assert bad.status_code == 200
    assert "_auth_user_id" not in me.client.session
    ok = me.form("/accounts/login/", {"username": "ana", "password": PASSWORD})
    assert ok.status_code == 302
    assert me.client.session["_auth_user_id"]
    out = me.form("/accounts/logout/", {})
    assert out.status_code == 302
    assert "_auth_user_id" not in me.client.session


def test_change_password():
    user = get_user_model().objects.create_user("ana", password=PASSWORD)
    me = Browser()
    assert me.client.get("/accounts/password/").status_code == 302  # sign in first
    me.client.force_login(user)
    response = me.form(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "white-dragon-77",
            "new_password2": "white-dragon-77",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("white-dragon-77")


def test_a_guest_sets_a_display_name():
    me = Browser()
    response = me.form("/accounts/name/", {"display_name": "Tile Fan"})
    assert response.status_code == 302
    assert Player.objects.get().display_name == "Tile Fan"
    blank = me.form("/accounts/name/", {"display_name": "   "})
    assert blank.status_code == 400
    assert Player.objects.get().display_name == "Tile Fan"


def test_the_profile_lists_best_times():
    me = Browser()
    me.become_guest()
    player = Player.objects.get()
    BestTime.objects.create(
        player=player,
        board_key="free:small",
        layout_name="Small",
        best_ms=75_400,
        achieved="2026-11-30T09:00:00Z",
    )
    other = Player.objects.create(display_name="Bob")
    BestTime.objects.create(
        player=other,
        board_key="free:turtle",
        layout_name="Turtle",
        best_ms=1000,
        achieved="2026-11-30T09:00:00Z",
    )
    page = me.client.get("/accounts/profile/").content.decode()
    assert 'data-board="free:small"' in page
    assert "1:15" in page
    assert "Turtle" not in page


def test_a_guest_keeps_one_player_across_requests():
    me = Browser()
    me.become_guest()
    me.client.get("/accounts/profile/")
    me.start()
    assert Player.objects.count() == 1
    assert Player.objects.get().user is None


def test_a_forged_guest_cookie_is_ignored():
    me = Browser()
    Player.objects.create(display_name="Victim")
    me.client.cookies["tiles_player"] = "2"
    page = me.client.get("/accounts/profile/").content.decode()
    assert "Victim" not in page
