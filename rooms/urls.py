from django.urls import path, register_converter

from rooms import views


class RoomCode:
    """Letters and digits only: anything else (a NUL byte, which PostgreSQL
    refuses in a query) is no room's code and answers 404 before any view.
    Lower case is allowed, people type codes that way."""

    regex = "[A-Za-z0-9]{1,12}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


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
