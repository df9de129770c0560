"""The site in the visitor's language: Accept-Language on a first visit,
the switch in the header (cookie for guests, the account for signed-in
players), and Nepali pages in Devanagari digits."""

import re

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Player

pytestmark = pytest.mark.django_db

WESTERN_DIGIT = re.compile(r"[0-9]")


def _text(response) -> str:
    """What a person reads: the page without its tags, scripts and styles."""
    html = response.content.decode()
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_first_visit_speaks_the_browsers_language(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ne-NP,ne;q=0.9,en;q=0.5")
    assert '<html lang="ne" dir="ltr">' in page.content.decode()
    assert "नयाँ बाजी" in _text(page)
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB")
    assert '<html lang="en" dir="ltr">' in english.content.decode()
    assert "New deal" in _text(english)


def test_the_switch_is_remembered_for_a_guest_and_urls_stay(client):
    response = client.post("/i18n/setlang/", {"language": "ne", "next": "/levels/"})
    assert response.status_code == 302 and response["Location"] == "/levels/"
    # No Accept-Language now: the cookie alone decides.
    page = client.get("/levels/")
    assert 'lang="ne"' in page.content.decode()
    assert "तह" in _text(page)
    # Nothing saved anywhere but the device: no guest was made for it.
    assert not Player.objects.exists()


def test_an_unknown_language_changes_nothing(client):
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert 'lang="en"' in client.get("/").content.decode()


def test_a_signed_in_players_choice_follows_them_to_another_device(client):
    user = get_user_model().objects.create_user("asha", password="a long pass 123")
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "ne", "next": "/"})
    assert Player.objects.get(user=user).language == "ne"

    other_device = type(client)()
    other_device.force_login(user)
    # This device's browser asks for English; the account's choice wins.
    page = other_device.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert 'lang="ne"' in page.content.decode()
    # The device's cookie caught up, so its room sockets speak Nepali too,
    # and signing out there keeps the page the person was reading.
    assert page.cookies["django_language"].value == "ne"
    other_device.logout()
    assert 'lang="ne"' in other_device.get("/").content.decode()


def test_nepali_pages_show_numbers_in_devanagari(client):
    client.cookies["django_language"] = "ne"
    for path in ("/", "/levels/", "/daily/", "/play/small/"):
        text = _text(client.get(path))
        # Key names on the keyboard (P, Esc) are Latin, digits never are.
        assert not WESTERN_DIGIT.search(text), (path, WESTERN_DIGIT.findall(text))
        assert re.search("[०-९]", text), path


def test_layout_names_are_nepali(client):
    client.cookies["django_language"] = "ne"
    text = _text(client.get("/"))
    for name in ("स्तूप", "दरबार क्षेत्र", "प्यागोडा", "कछुवा"):
        assert name in text
    assert "Durbar Square" not in text


def test_a_guest_made_by_a_nepali_page_has_a_nepali_name():
    from django.utils import translation

    from accounts.models import guest_name

    with translation.override("ne"):
        name = guest_name()
    assert re.fullmatch("पाहुना [०-९]{4}", name), name
    with translation.override("en"):
        assert re.fullmatch("Guest [0-9]{4}", guest_name())


def test_the_password_rules_are_said_in_nepali_digits(client):
    client.cookies["django_language"] = "ne"
    text = _text(client.get("/accounts/signup/"))
    assert "कम्तीमा ८ अक्षर" in text
    assert not WESTERN_DIGIT.search(text)


def test_an_error_page_speaks_nepali(client):
    client.cookies["django_language"] = "ne"
    page = client.get("/no-such-page/")
    assert page.status_code == 404
    text = _text(page)
    assert "भेटिएन" in text and "४०४" in text


def _errors(response) -> list[str]:
    """The form's error messages as the page shows them."""
    html = response.content.decode()
    found = re.findall(r'class="(?:field-error|form-errors)">(.*?)</(?:span|ul)>', html)
    return [" ".join(re.sub(r"<[^>]+>", " ", e).split()) for e in found]


def test_djangos_own_form_errors_print_their_numbers_in_devanagari(client):
    client.cookies["django_language"] = "ne"
    short = {"username": "asha", "password1": "tiger", "password2": "tiger"}
    page = client.post("/accounts/signup/", short)
    # Django's password validator, in Nepali and with the page's digits.
    assert any("कम्तीमा ८ अक्षर" in e for e in _errors(page)), _errors(page)
    assert not WESTERN_DIGIT.search(_text(page)), WESTERN_DIGIT.findall(_text(page))
    # A length Django's own field checks (the display name's limit).
    page = client.post("/accounts/name/", {"display_name": "x" * 40})
    assert any("३२" in e and "४०" in e for e in _errors(page)), _errors(page)
    assert not WESTERN_DIGIT.search(_text(page))
    # The room forms share the rendering.
    page = client.post("/rooms/join", {"code": "X" * 12, "name": "आशा"})
    assert any("९" in e for e in _errors(page)), _errors(page)
    assert not WESTERN_DIGIT.search(_text(page))


def test_the_same_errors_in_english_keep_western_digits(client):
    short = {"username": "asha", "password1": "tiger", "password2": "tiger"}
    page = client.post("/accounts/signup/", short, HTTP_ACCEPT_LANGUAGE="en")
    assert (
        "This password is too short. It must contain at least 8 characters."
        in _errors(page)
    )


def test_a_value_an_error_quotes_keeps_its_own_digits():
    from django.core.exceptions import ValidationError
    from django.utils import translation

    from sitewide.numerals import local_error

    error = ValidationError(
        "%(code)s: %(n)d", params={"code": "AC34X", "n": 12, "on": True}
    )
    with translation.override("ne"):
        # A room code is typed as written; the count is a number to read.
        assert local_error(error) == "AC34X: १२"
        assert local_error(ValidationError("no room AC34X")) == "no room AC34X"


def test_the_server_error_page_speaks_nepali_without_a_request():
    from django.templatetags.static import static
    from django.utils import translation

    from sitewide.errors import answer

    # A 500 is drawn with no request context, the page's language alone.
    with translation.override("ne"):
        page = answer(None, 500)
    assert "५००" in _text(page) and not WESTERN_DIGIT.search(_text(page))
    assert f'<script src="{static("dist/i18n/ne.js")}">' in page.content.decode()
