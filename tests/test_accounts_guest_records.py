"""A guest's runs and best times come along when they sign up or sign in."""

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Player
from games.models import BestTime, Run
from tests.run_helpers import Browser, FakeClock

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    # The real hasher is slow on purpose; these tests sign in many times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


PASSWORD = "green-dragon-42"


def clear_small(me: Browser, clock: FakeClock, pace_ms: int = 1000) -> dict:
    run = me.start(fresh=True).json()
    for a, b in Run.objects.get(public_id=run["id"]).witness:
        clock.advance(pace_ms)
        run = me.take(run, a, b).json()
    assert run["status"] == "won"
    return run


def test_signing_up_keeps_the_guests_records(monkeypatch):
    clock = FakeClock(monkeypatch)
    me = Browser()
    won = clear_small(me, clock)
    in_play = me.start("free:turtle").json()
    guest = Player.objects.get()
    response = me.form(
        "/accounts/signup/",
        {"username": "ana", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="ana")
    assert user.player.pk == guest.pk
    assert BestTime.objects.get().player == user.player
    assert me.start("free:turtle").json()["id"] == in_play["id"]
    assert me.get(won["id"]).json()["best_ms"] == won["elapsed_ms"]
    # Signed out, the device is a visitor again: the records stay with Ana.
    me.form("/accounts/logout/", {})
    me.client.get("/accounts/profile/")
    assert me.get(won["id"]).status_code == 404  # no player, so no run
    me.start()  # playing makes the device a new guest
    assert me.get(won["id"]).status_code == 403


def test_signing_in_merges_keeping_the_better_best_time(monkeypatch):
    clock = FakeClock(monkeypatch)
    user = get_user_model().objects.create_user("ana", password=PASSWORD)
    laptop = Browser()
    laptop.client.force_login(user)
    clear_small(laptop, clock, pace_ms=2000)  # 31 s
    clear_small(laptop, clock, pace_ms=9000)
    laptop_turtle = laptop.start("free:turtle").json()

    phone = Browser()  # a guest, faster on small
    fast = clear_small(phone, clock, pace_ms=1000)
    clock.advance(5000)
    phone_turtle = phone.start("free:turtle").json()
    guest_pk = Run.objects.get(public_id=fast["id"]).player_id
    response = phone.form("/accounts/login/", {"username": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=guest_pk).exists()
    best = BestTime.objects.get(player=user.player, board_key="free:small")
    assert best.best_ms == fast["elapsed_ms"] == 15_000
    assert best.run.public_id == fast["id"]
    assert Run.objects.filter(player=user.player).count() == 5
    # Both had Turtle in progress: the one played last is kept.
    assert phone.start("free:turtle").json()["id"] == phone_turtle["id"]
    assert phone.get(laptop_turtle["id"]).json()["status"] == "lost"


def test_signing_in_keeps_the_accounts_better_best_time(monkeypatch):
    clock = FakeClock(monkeypatch)
    user = get_user_model().objects.create_user("ana", password=PASSWORD)
    laptop = Browser()
    laptop.client.force_login(user)
    clear_small(laptop, clock, pace_ms=1000)
    phone = Browser()
    clear_small(phone, clock, pace_ms=3000)
    phone.form("/accounts/login/", {"username": "ana", "password": PASSWORD})
    assert BestTime.objects.get().best_ms == 15_000
    assert BestTime.objects.get().player == user.player


def test_signing_in_with_no_guest_records_leaves_no_guest_behind():
    get_user_model().objects.create_user("ana", password=PASSWORD)
    me = Browser()
    me.form("/accounts/login/", {"username": "ana", "password": PASSWORD})
    me.client.get("/accounts/profile/")
    assert Player.objects.count() == 1
    assert Player.objects.get().user.username == "ana"
