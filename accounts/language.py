"""Which language a page speaks, and switching it.

Django's own machinery does the work: LocaleMiddleware picks the language
from the language cookie, then the browser's Accept-Language, then
LANGUAGE_CODE; `set_language` sets the cookie. On top of that, a signed-in
player's choice is saved with their Player, so it follows them to every
device they sign in on, ahead of that device's cookie.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts.models import Player


def saved_language(request: HttpRequest) -> str:
    """The language a signed-in player chose on any device, or ""."""
    if not request.user.is_authenticated:
        return ""
    saved = (
        Player.objects.filter(user=request.user)
        .values_list("language", flat=True)
        .first()
    )
    return saved if saved in dict(settings.LANGUAGES) else ""


def scope_language(scope: dict) -> str:
    """The language of a websocket's page: its cookie, else its browser's
    Accept-Language, as LocaleMiddleware decides for the page itself. (A
    signed-in player's saved choice is in the cookie too: see below.)"""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in dict(settings.LANGUAGES):
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class PlayerLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        language = saved_language(request)
        request.saved_language = language
        if not language:
            super().process_request(request)
            return
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest, response: HttpResponse):
        # On a device where the player just signed in, the cookie catches up
        # with the account, so the room sockets (which see cookies, not the
        # account) and a later signed-out visit speak the same language.
        language = getattr(request, "saved_language", "")
        cookie = settings.LANGUAGE_COOKIE_NAME
        if language and request.COOKIES.get(cookie) != language:
            response.set_cookie(
                cookie,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return super().process_response(request, response)


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (the cookie, the redirect back), and for a
    signed-in player the choice saved on the account as well."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        Player.objects.update_or_create(
            user=request.user,
            defaults={"language": language},
            create_defaults={
                "language": language,
                "display_name": request.user.get_username()[:32],
            },
        )
    return response
