"""Playing a deal through the JSON API: deal, resume, clear, best times."""

import pytest

from games import boards
from games.engine.catalogue import get_layout
from games.engine.deal import generate_deal
from games.models import BestTime, Run
from tests.run_helpers import Browser, FakeClock, play_through

pytestmark = pytest.mark.django_db


def test_it_deals_a_new_run_on_a_layout(monkeypatch):
    FakeClock(monkeypatch)
    response = Browser().start("free:small")
    assert response.status_code == 201
    run = response.json()
    assert run["board"] == "free:small"
    assert run["mode"] == "free"
    assert run["layout"] == {"slug": "small", "name": "Small"}
    assert len(run["tiles"]) == 32
    assert set(run["tiles"][0]) == {"id", "x", "y", "z", "face"}
    assert run["removed"] == []
    assert run["status"] == "playing"
    assert run["elapsed_ms"] == 0
    assert run["can_shuffle"] is True
    assert run["clean"] is True
    assert run["best_ms"] is None
    assert run["new_best"] is False
    assert run["id"].startswith("r_")


def test_a_reload_resumes_the_run_in_progress(monkeypatch):
    """Starting the same board again answers with the same run and state."""
    clock = FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    pair = Run.objects.get(public_id=run["id"]).witness[0]
    clock.advance(5000)
    me.take(run, *pair)
    clock.advance(1000)
    again = me.start()
    assert again.status_code == 200
    resumed = again.json()
    assert resumed["id"] == run["id"]
    assert resumed["removed"] == [pair]
    assert resumed["elapsed_ms"] == 4500
    assert me.get(run["id"]).json() == resumed


def test_fresh_deals_anew_and_the_old_run_counts_as_lost(monkeypatch):
    FakeClock(monkeypatch)
    me = Browser()
    old = me.start().json()
    new = me.start(fresh=True).json()
    assert new["id"] != old["id"]
    assert me.get(old["id"]).json()["status"] == "lost"
    assert Run.objects.filter(status__in=["playing", "paused"]).count() == 1


def test_a_clean_clear_wins_and_sets_the_best_time(monkeypatch):
    clock = FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    final = play_through(me, run, clock).json()
    assert final["status"] == "won"
    assert final["removed"] == Run.objects.get(public_id=run["id"]).witness
    # 16 pairs a second apart; the first, taken while the pile still builds,
    # starts the clock: 15 s from first pair to last.
    assert final["elapsed_ms"] == 15_000
    assert final["best_ms"] == 15_000
    assert final["new_best"] is True
    best = BestTime.objects.get(board_key="free:small")
    assert (best.best_ms, best.run.public_id) == (15_000, run["id"])
    clock.advance(60_000)
    assert me.get(run["id"]).json()["elapsed_ms"] == 15_000


def test_a_slower_clear_keeps_the_best_time(monkeypatch):
    clock = FakeClock(monkeypatch)
    me = Browser()
    play_through(me, me.start().json(), clock)
    clock.advance(5000)
    run = me.start(fresh=True).json()
    clock.advance(10_000)
    final = play_through(me, run, clock).json()
    assert final["status"] == "won"
    assert final["elapsed_ms"] == 10_000 + 16_000 - 1500
    assert final["new_best"] is False
    assert final["best_ms"] == 15_000
    assert BestTime.objects.get().best_ms == 15_000


def test_a_clear_with_a_hint_sets_no_best_time(monkeypatch):
    clock = FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    answer = me.act(run["id"], "hint").json()
    assert answer["run"]["hints"] == 1
    assert answer["run"]["clean"] is False
    final = play_through(me, run, clock).json()
    assert final["status"] == "won"
    assert final["best_ms"] is None
    assert final["new_best"] is False
    assert not BestTime.objects.exists()


def test_undo_puts_the_pair_back(monkeypatch):
    FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    pair = Run.objects.get(public_id=run["id"]).witness[0]
    run = me.take(run, *pair).json()
    response = me.act(run["id"], "undo", {"move": 1})
    assert response.status_code == 200
    assert response.json()["removed"] == []
    assert response.json()["undos"] == 1
    assert response.json()["clean"] is True


def test_restart_deals_the_same_faces_from_the_start(monkeypatch):
    clock = FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    pair = Run.objects.get(public_id=run["id"]).witness[0]
    clock.advance(9000)
    me.take(run, *pair)
    again = me.act(run["id"], "restart").json()
    assert again["id"] == run["id"]
    assert again["tiles"] == run["tiles"]
    assert again["removed"] == []
    assert again["elapsed_ms"] == 0


def test_restart_after_the_end_plays_the_deal_again_as_a_new_run(monkeypatch):
    """The finished run keeps its result; help used on the deal stays counted."""
    clock = FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    me.act(run["id"], "hint")
    won = play_through(me, run, clock).json()
    response = me.act(run["id"], "restart")
    assert response.status_code == 200
    again = response.json()
    assert again["id"] != run["id"]
    assert (again["status"], again["removed"], again["hints"]) == ("playing", [], 1)
    assert again["tiles"] == run["tiles"]
    assert me.get(run["id"]).json() == won
    assert me.start().json()["id"] == again["id"]


def test_give_up_ends_the_run_as_lost(monkeypatch):
    FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    lost = me.act(run["id"], "give-up").json()
    assert lost["status"] == "lost"
    assert me.start().json()["id"] != run["id"]


def test_an_unknown_board_is_not_found():
    me = Browser()
    for key in ("free:nowhere", "bogus:small", "small"):
        response = me.start(key)
        assert response.status_code == 404, key
        assert response.json()["error"] == "not_found"
        assert "nowhere" in response.json()["message"] or key != "free:nowhere"
    assert not Run.objects.exists()


def test_a_run_in_progress_follows_a_signed_in_player_to_another_device(
    monkeypatch, django_user_model, settings
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    FakeClock(monkeypatch)
    django_user_model.objects.create_user("ana", password="tiles-pass-123")
    laptop, phone = Browser(), Browser()
    for device in (laptop, phone):
        device.client.login(username="ana", password="tiles-pass-123")
    run = laptop.start().json()
    pair = Run.objects.get(public_id=run["id"]).witness[0]
    laptop.take(run, *pair)
    resumed = phone.start().json()
    assert resumed["id"] == run["id"]
    assert resumed["removed"] == [pair]


def test_a_board_the_player_may_not_open_yet_is_forbidden(monkeypatch):
    """A mode may gate boards per player (levels unlock in order)."""

    def gate(rest: str, player) -> None:
        raise boards.BoardLocked(f"level {rest} is locked")

    def small(rest: str):
        return generate_deal(get_layout("small"), rest)

    mode = boards.Mode("gated", small, check_player=gate)
    monkeypatch.setitem(boards._MODES, "gated", mode)
    response = Browser().start("gated:7")
    assert response.status_code == 403
    assert response.json() == {"error": "locked", "message": "level 7 is locked"}
    assert not Run.objects.exists()
