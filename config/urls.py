from django.contrib import admin
from django.http import HttpRequest, HttpResponseRedirect
from django.templatetags.static import static
from django.urls import include, path

from accounts.language import choose_language
from accounts.throttle import SIGN_IN, throttled
from games import views as game_views
from sitewide import install

# The site's own error pages, JSON under the solo play API (sitewide.errors).
handler400 = "sitewide.errors.bad_request"
handler403 = "sitewide.errors.forbidden"
handler404 = "sitewide.errors.not_found"
handler500 = "sitewide.errors.server_error"


def favicon(request: HttpRequest) -> HttpResponseRedirect:
    # Looked up per request: the icon's hashed name comes from the manifest,
    # which a fresh checkout only has after collectstatic (and manage.py
    # commands load this module before that). Not permanent: the name
    # changes when the icon does.
    return HttpResponseRedirect(static("favicon.svg"))


urlpatterns = [
    path("", game_views.home, name="home"),
    # Pages outside base.html (the admin, a bare API response) still get the
    # icon when a browser asks for it at the old fixed address.
    path("favicon.ico", favicon),
    # Installing to a home screen (sitewide.install): the worker at the root,
    # so its scope is the whole site.
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("sw.js", install.service_worker, name="service-worker"),
    # Before admin.site.urls, so the admin's sign-in is throttled like ours.
    path("admin/login/", throttled(*SIGN_IN)(admin.site.login)),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    # The language switch (Django's set_language, plus the account's choice).
    # Same URLs for every language: the language is the visitor's, not the
    # address's. (The JavaScript strings are static files: sitewide/js_catalog.)
    path("i18n/setlang/", choose_language, name="set_language"),
    path("play/", include("games.urls")),
    # /daily/ and /levels/
    path("", include("dailies.urls")),
    # /rooms/ (host or join) and /r/<CODE> (the invite link)
    path("", include("rooms.urls")),
]
