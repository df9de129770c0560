"""Websocket routes. Filled in by the live rooms."""

websocket_urlpatterns: list = []
