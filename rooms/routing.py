"""Websocket routes: one socket per seated player in a room, and read-only
sockets for watchers."""

from django.urls import re_path

from rooms.consumers import RoomConsumer, WatchConsumer

websocket_urlpatterns = [
    re_path(r"^ws/rooms/(?P<code>[A-Za-z0-9]{4,8})/$", RoomConsumer.as_asgi()),
    re_path(r"^ws/watch/(?P<code>[A-Za-z0-9]{4,8})/$", WatchConsumer.as_asgi()),
]
