"""Guests (issue 15, point 8): a visitor gets a Player row only when they
do something that needs one; empty guests are forgotten; the guest cookie
names a random token, never the row's sequential id."""

from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from accounts.players import GUEST_COOKIE, GUEST_COOKIE_SALT
from accounts.tasks import forget_empty_guests
from rooms import actions
from tests.room_helpers import person
from tests.run_helpers import Browser

pytestmark = pytest.mark.django_db


def test_looking_around_makes_no_player():
    room = actions.create_room(person("Ann"), "Ann")
    before = Player.objects.count()
    client = Client()
    for path in (
        "/",
        "/rooms/",
        "/play/small/",
        "/daily/",
        "/levels/",
        "/accounts/profile/",
        f"/r/{room.code}",
        f"/watch?code={room.code}",
        "/play/api/runs/r_missing",
    ):
        for _ in range(3):
            assert client.get(path).status_code in (200, 404), path
    assert Player.objects.count() == before
    assert GUEST_COOKIE not in client.cookies


@pytest.mark.parametrize("what", ["play", "host", "join"])
def test_doing_something_makes_one_guest(what):
    room = actions.create_room(person("Ann"), "Ann")
    me = Browser()
    if what == "play":
        assert me.start().status_code == 201
    elif what == "host":
        me.form("/rooms/host", {"name": "Bo"})
    else:
        me.form(f"/r/{room.code}", {"name": "Bo"})
    guest = Player.objects.filter(user__isnull=True).exclude(display_name="Ann")
    assert guest.count() == 1
    me.start()
    assert guest.count() == 1  # the cookie finds the same guest again


def test_the_cookie_names_a_random_token_not_the_id():
    me = Browser()
    me.start()
    guest = Player.objects.get()
    raw = signing.TimestampSigner(salt=GUEST_COOKIE_SALT).unsign(
        me.client.cookies[GUEST_COOKIE].value
    )
    assert raw == guest.guest_token and not raw.isdigit()
    assert len(raw) >= 20


def test_an_old_cookie_naming_the_id_is_replaced_by_a_token(client):
    guest = person("Old guest")
    client.cookies[GUEST_COOKIE] = signing.TimestampSigner(salt=GUEST_COOKIE_SALT).sign(
        str(guest.pk)
    )
    response = client.get("/accounts/profile/")
    assert b"Old guest" in response.content
    renewed = signing.TimestampSigner(salt=GUEST_COOKIE_SALT).unsign(
        response.cookies[GUEST_COOKIE].value
    )
    assert renewed == guest.guest_token


def test_empty_guests_are_forgotten_after_a_day_and_the_rest_kept():
    old = timezone.now() - timedelta(days=2)
    empty, seated, fresh = (person(n) for n in ("Empty", "Seated", "Fresh"))
    Player.objects.filter(pk__in=[empty.pk, seated.pk]).update(created=old)
    me = Browser()
    me.start()
    Player.objects.filter(user__isnull=True, runs__isnull=False).update(created=old)
    actions.create_room(seated, "Seated")
    assert forget_empty_guests() == 1  # as beat would have the worker run it
    assert not Player.objects.filter(pk=empty.pk).exists()
    assert Player.objects.filter(pk__in=[seated.pk, fresh.pk]).count() == 2
    assert Player.objects.filter(runs__isnull=False).exists()


def test_beat_runs_it_daily(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["forget-empty-guests"]
    assert entry["task"] == "accounts.tasks.forget_empty_guests"
