from django.urls import path, register_converter

from rooms import views
from sitewide.converters import Matching


class RoomCode(Matching):
    """Letters and digits; lower case too, people type codes that way."""

    regex = "[A-Za-z0-9]{1,12}"


register_converter(RoomCode, "room_code")

app_name = "rooms"

urlpatterns = [
    path("rooms/", views.index, name="index"),
    path("rooms/host", views.host, name="host"),
    path("rooms/join", views.join, name="join"),
    path("r/<room_code:code>", views.room, name="room"),
    path("watch", views.watch, name="watch"),
    path("rooms/rules", views.rules, name="rules"),
]
