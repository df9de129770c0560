from django.urls import path, register_converter

from games import api, api_companion, views
from sitewide.converters import Matching


class RunId(Matching):
    """What games.models.new_run_id makes."""

    regex = "r_[A-Za-z0-9_-]{1,22}"


register_converter(RunId, "run_id")

app_name = "games"

run = "api/runs/<run_id:run_id>"
urlpatterns = [
    path("api/runs", api.start, name="api_start"),
    path("api/looks", views.looks, name="api_looks"),
    path(run, api.detail, name="api_run"),
    path(f"{run}/take", api.take, name="api_take"),
    path(f"{run}/undo", api.undo, name="api_undo"),
    path(f"{run}/hint", api.hint, name="api_hint"),
    path(f"{run}/shuffle", api.shuffle, name="api_shuffle"),
    path(f"{run}/restart", api.restart, name="api_restart"),
    path(f"{run}/give-up", api.give_up, name="api_give_up"),
    path(f"{run}/pause", api.pause, name="api_pause"),
    path(f"{run}/resume", api.resume, name="api_resume"),
    path(f"{run}/safety", api_companion.safety, name="api_safety"),
    path(f"{run}/turned", api_companion.turned, name="api_turned"),
    path(f"{run}/way", api_companion.way, name="api_way"),
    path(f"{run}/check", api_companion.check, name="api_check"),
    path("<slug:slug>/", views.board, name="board"),
]
