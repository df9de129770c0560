"""A player's browser and a fake clock for the run and account tests."""

import json
from datetime import UTC, datetime, timedelta

from django.test import Client

from games import actions

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class FakeClock:
    """Replaces the server's clock; time moves only when a test says so."""

    def __init__(self, monkeypatch, now: datetime = START) -> None:
        self.now = now
        monkeypatch.setattr(actions, "current_time", lambda: self.now)

    def advance(self, ms: int) -> None:
        self.now += timedelta(milliseconds=ms)


class Browser:
    """One device: a test client that enforces CSRF as a real page does."""

    def __init__(self) -> None:
        self.client = Client(enforce_csrf_checks=True)
        # Any page with a form hands out the CSRF cookie; a guest comes with
        # the first thing done that needs one (become_guest, or playing).
        self.client.get("/accounts/profile/")

    def become_guest(self, name: str = "Guest") -> None:
        """Make this device a guest Player by naming itself."""
        response = self.form("/accounts/name/", {"display_name": name})
        assert response.status_code == 302, response.content

    @property
    def csrf(self) -> str:
        return self.client.cookies["csrftoken"].value

    def post(self, path: str, body: dict | None = None, csrf: bool = True):
        headers = {"X-CSRFToken": self.csrf} if csrf else {}
        data = "" if body is None else json.dumps(body)
        return self.client.post(
            path, data, content_type="application/json", headers=headers
        )

    def form(self, path: str, data: dict):
        """Submit an HTML form the way the page would."""
        return self.client.post(path, {**data, "csrfmiddlewaretoken": self.csrf})

    def start(self, board: str = "free:small", fresh: bool = False):
        body = {"board": board, **({"fresh": True} if fresh else {})}
        return self.post("/play/api/runs", body)

    def act(self, run_id: str, action: str, body: dict | None = None):
        return self.post(f"/play/api/runs/{run_id}/{action}", body)

    def get(self, run_id: str):
        return self.client.get(f"/play/api/runs/{run_id}")

    def take(self, run: dict, a: int, b: int, move: int | None = None):
        count = len(run["removed"]) if move is None else move
        return self.act(run["id"], "take", {"a": a, "b": b, "move": count})


def witness_of(run_id: str) -> list[list[int]]:
    """The deal's clearing order, straight from the database."""
    from games.models import Run

    return Run.objects.get(public_id=run_id).witness


def play_through(browser: Browser, run: dict, clock: FakeClock | None = None):
    """Clear the deal pair by pair along its witness; returns the last answer."""
    response = None
    for a, b in witness_of(run["id"]):
        if clock:
            clock.advance(1000)
        response = browser.take(run, a, b)
        assert response.status_code == 200, response.json()
        run = response.json()
    return response
