from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from config.throttle import SIGN_IN, throttled
from games import views as game_views

urlpatterns = [
    path("", game_views.home, name="home"),
    # Pages outside base.html (the admin, a bare API response) still get the
    # icon when a browser asks for it at the old fixed address.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"))),
    # Before admin.site.urls, so the admin's sign-in is throttled like ours.
    path("admin/login/", throttled(*SIGN_IN)(admin.site.login)),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("play/", include("games.urls")),
    # /daily/ and /levels/
    path("", include("dailies.urls")),
    # /rooms/ (host or join) and /r/<CODE> (the invite link)
    path("", include("rooms.urls")),
]
