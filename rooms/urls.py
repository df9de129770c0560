from django.urls import path

from rooms import views

app_name = "rooms"

urlpatterns = [
    path("rooms/", views.index, name="index"),
    path("rooms/host", views.host, name="host"),
    path("rooms/join", views.join, name="join"),
    path("r/<str:code>", views.room, name="room"),
    path("watch", views.watch, name="watch"),
]
