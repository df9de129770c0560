"""Accounts and headers (issue 15, point 9): all-digit passwords refused;
CSP with scripts from this site only, no 'unsafe-inline'; Permissions-Policy;
HSTS preload and X-Forwarded-Proto only when a setting says so; shorter
staff sessions."""

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.run_helpers import Browser
from tests.test_settings import PROD, python

pytestmark = pytest.mark.django_db

PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "print(json.dumps({'preload': s.SECURE_HSTS_PRELOAD,"
    " 'proxy': s.SECURE_PROXY_SSL_HEADER}))"
)


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_an_all_digit_password_is_refused():
    response = Browser().form(
        "/accounts/signup/",
        {"username": "ana", "password1": "80461379254", "password2": "80461379254"},
    )
    assert response.status_code == 200
    assert b"entirely numeric" in response.content
    assert not get_user_model().objects.exists()


def test_pages_carry_a_strict_policy_and_no_inline_script():
    page = Browser().client.get("/play/small/")
    policy = page["Content-Security-Policy"]
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    # Every script the page runs is a file of this site, which the policy
    # allows; an inline one would be refused.
    scripts = re.findall(rb"<script([^>]*)>", page.content)
    assert scripts and all(b" src=" in attrs for attrs in scripts)


def test_pages_turn_off_the_features_they_never_use():
    policy = Browser().client.get("/rooms/")["Permissions-Policy"]
    assert "camera=()" in policy and "geolocation=()" in policy
    assert "clipboard" not in policy  # the invite link is copied


@pytest.mark.parametrize(
    ("env", "preload", "proxy"),
    [
        ({}, False, None),
        ({"SECURE_HSTS_PRELOAD": "1"}, True, None),
        ({"TRUST_X_FORWARDED_PROTO": "1"}, False, ["HTTP_X_FORWARDED_PROTO", "https"]),
    ],
)
def test_preload_and_the_proxy_header_only_when_asked(env, preload, proxy):
    out = python(["-c", PROBE], **PROD, **env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"preload": preload, "proxy": proxy}


def test_x_forwarded_proto_from_anyone_is_not_https(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = None  # TRUST_X_FORWARDED_PROTO off
    response = Client().get("/rooms/", headers={"X-Forwarded-Proto": "https"})
    assert response.status_code == 301 and response.url.startswith("https://")


def test_staff_sign_ins_last_hours_players_a_year(settings):
    users = get_user_model().objects
    users.create_user("ana", password="right-horse-battery")
    users.create_user("boss", password="right-horse-battery", is_staff=True)
    assert settings.STAFF_SESSION_AGE <= 24 * 3600
    staff = settings.STAFF_SESSION_AGE
    for name, age in (("ana", settings.SESSION_COOKIE_AGE), ("boss", staff)):
        me = Browser()
        response = me.form(
            "/accounts/login/", {"username": name, "password": "right-horse-battery"}
        )
        assert response.status_code == 302
        assert me.client.session.get_expiry_age() == age


def test_no_template_has_what_the_policy_would_block():
    """Inline style attributes and inline scripts without the nonce are
    refused by the CSP in the browser; catch them before it does."""
    root = Path(__file__).resolve().parent.parent
    for path in (root / "templates").rglob("*.html"):
        text = path.read_text()
        assert not re.search(r"\sstyle=|<style", text), path
        for tag in re.findall(r"<script[^>]*>", text):
            assert "src=" in tag or "nonce=" in tag, (path, tag)
        assert not re.search(r"\son[a-z]+=", text), path  # inline handlers
