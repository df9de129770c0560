"""Sign-in that strangers cannot lock (issue 24, point 5).

Wrong passwords for an account are counted per device that has signed in
to it before, and in one bucket for every other device (accounts.devices):
a stranger's flood from many addresses is answered 429, while the owner's
known device signs in at once. The owner is told on the profile page."""

import re

import pytest
from django.contrib.auth import get_user_model

from accounts.devices import DEVICE_COOKIE
from accounts.models import SignInEvent
from tests.run_helpers import Browser

pytestmark = pytest.mark.django_db

PASSWORD = "right-horse-battery"
# The deployment's own rates (config/settings.py THROTTLE_RATES): ten tries
# an account, thirty an address, in fifteen minutes.
PER_ACCOUNT = 10


@pytest.fixture(autouse=True)
def fast_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ana():
    return get_user_model().objects.create_user("ana", password=PASSWORD)


def sign_in(me: Browser, password: str, username: str = "ana", address: str = ""):
    if address:
        me.client.defaults["REMOTE_ADDR"] = address
    return me.form("/accounts/login/", {"username": username, "password": password})


def known_device(address: str = "192.0.2.10", username: str = "ana") -> Browser:
    """A device that signed in to the account once, then signed out."""
    me = Browser()
    assert sign_in(me, PASSWORD, username, address).status_code == 302
    assert me.client.cookies[DEVICE_COOKIE].value
    me.form("/accounts/logout/", {})
    assert "_auth_user_id" not in me.client.session
    return me


def stranger_tries(count: int = 30) -> list[int]:
    """Wrong passwords for ana from a mix of addresses; their statuses."""
    stranger = Browser()
    return [
        sign_in(stranger, f"guess-{n}", address=f"203.0.113.{n % 7 + 1}").status_code
        for n in range(count)
    ]


def test_a_strangers_thirty_wrong_passwords_meet_429_the_owner_signs_in(ana):
    owner = known_device()
    statuses = stranger_tries(30)
    # Every try counts, the owner's first sign-in (its device new then) too.
    tried = PER_ACCOUNT - 1
    assert statuses[:tried] == [200] * tried  # the form again
    assert set(statuses[tried:]) == {429}
    # Knowing the password does not help the stranger now either.
    late = Browser()
    assert sign_in(late, PASSWORD, address="203.0.113.99").status_code == 429
    response = sign_in(owner, PASSWORD)
    assert response.status_code == 302
    assert owner.client.session["_auth_user_id"] == str(ana.pk)


def test_a_new_device_of_the_owner_waits_like_a_stranger_and_is_told_why(ana):
    known_device()
    stranger_tries(PER_ACCOUNT - 1)
    new = Browser()
    assert b'data-known="0"' in new.client.get("/accounts/login/").content
    response = sign_in(new, PASSWORD, address="192.0.2.77")
    assert response.status_code == 429
    text = response.content.decode()
    assert "have not signed in to it before" in text
    assert "has signed in to this account before still signs in" in text
    assert "_auth_user_id" not in new.client.session


def test_a_known_device_that_types_too_many_wrong_passwords_waits_alone(ana):
    careless, other = known_device(), known_device("192.0.2.11")
    for _ in range(PER_ACCOUNT):
        assert sign_in(careless, "wrong").status_code == 200
    response = sign_in(careless, PASSWORD)
    assert response.status_code == 429
    assert "This device typed too many wrong passwords" in response.content.decode()
    # Neither the owner's other device nor a new one is held up by it.
    assert sign_in(other, PASSWORD).status_code == 302
    assert sign_in(Browser(), PASSWORD, address="192.0.2.12").status_code == 302


def test_a_device_known_to_another_account_or_a_forged_cookie_is_a_stranger(ana):
    get_user_model().objects.create_user("mallory", password=PASSWORD)
    mallory = known_device("203.0.113.50", "mallory")
    forger = Browser()
    forger.client.cookies[DEVICE_COOKIE] = "W1siYW5hIiwieCJdXQ:forged:signature"
    stranger_tries(PER_ACCOUNT)
    assert sign_in(mallory, "guess").status_code == 429
    assert sign_in(forger, "guess", address="203.0.113.51").status_code == 429


def test_the_sign_in_page_says_whether_this_device_is_known(ana):
    new = Browser()
    page = new.client.get("/accounts/login/").content.decode()
    assert 'data-known="0"' in page and "devices that have not signed in" in page
    page = known_device().client.get("/accounts/login/").content.decode()
    assert 'data-known="1"' in page
    assert "wrong passwords typed on other devices never lock it out" in page


def test_the_profile_tells_the_owner_of_the_failed_attempts(ana):
    owner = known_device()
    stranger_tries(30)  # nine are tried; the rest are refused before that
    sign_in(owner, "my-typo")  # one from the owner's own device
    assert sign_in(owner, PASSWORD).status_code == 302
    page = owner.client.get("/accounts/profile/").content.decode()
    block = page[page.index('id="sign-in-attempts"') :]
    assert 'data-count="10"' in block
    assert "10 wrong passwords were tried for your account" in block
    assert block.count("on a device that had never signed in") == 9
    assert block.count("on a device that had signed in to your account before") == 1
    assert "Your previous sign-in:" in block
    # In Nepali, its numbers in Devanagari.
    owner.client.cookies["django_language"] = "ne"
    page = owner.client.get("/accounts/profile/").content.decode()
    block = page[page.index('id="sign-in-attempts"') :]
    assert "अघिल्लो साइन इनपछि" in block and "wrong password" not in block
    assert "१०" in block and not re.search(r">[^<]*\b10\b", block)
    # Seen: the next sign-in starts afresh.
    owner.form("/accounts/logout/", {})
    assert sign_in(owner, PASSWORD).status_code == 302
    owner.client.cookies["django_language"] = "en"
    page = owner.client.get("/accounts/profile/").content.decode()
    assert "No wrong passwords were tried" in page


def test_the_admins_sign_in_counts_for_the_same_account_and_device(ana):
    ana.is_staff = True
    ana.save()
    owner = known_device()
    stranger = Browser()
    for n in range(PER_ACCOUNT - 1):
        path = "/admin/login/" if n % 2 else "/accounts/login/"
        stranger.client.defaults["REMOTE_ADDR"] = f"203.0.113.{n + 1}"
        stranger.form(path, {"username": "ana", "password": "guess"})
    assert sign_in(stranger, "guess").status_code == 429
    failed = SignInEvent.objects.filter(user=ana, succeeded=False)
    assert failed.count() == PER_ACCOUNT - 1
    response = owner.form("/admin/login/", {"username": "ana", "password": PASSWORD})
    assert response.status_code == 302
