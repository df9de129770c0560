from django.contrib import admin
from django.urls import include, path

from games import views as game_views

urlpatterns = [
    path("", game_views.home, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("play/", include("games.urls")),
    # /daily/ and /levels/
    path("", include("dailies.urls")),
    # /rooms/ (host or join) and /r/<CODE> (the invite link)
    path("", include("rooms.urls")),
]
