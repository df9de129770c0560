"""Forged or impossible requests are refused with a clear error and change
nothing: the server replays every pair on the engine."""

import pytest

from games.models import Run
from tests.run_helpers import Browser, FakeClock, play_through

pytestmark = pytest.mark.django_db


def snapshot(run_id: str) -> dict:
    run = Run.objects.get(public_id=run_id)
    return {f.name: getattr(run, f.name) for f in Run._meta.concrete_fields}


def board_of(run_id: str):
    return Run.objects.get(public_id=run_id).state().board()


def first_blocked(run_id: str, reason: str) -> int:
    board = board_of(run_id)
    return next(
        i
        for i in range(len(board.faces))
        if board.layout.blocked_reason(i, board.standing) == reason
    )


def refused(me: Browser, run: dict, body: dict, status: int, error: str) -> dict:
    """Send a take, check it is refused and that the run did not change."""
    before = snapshot(run["id"])
    response = me.act(run["id"], "take", body)
    assert response.status_code == status, response.json()
    answer = response.json()
    assert answer["error"] == error
    assert answer["message"]
    assert snapshot(run["id"]) == before
    return answer


@pytest.fixture
def game(monkeypatch):
    FakeClock(monkeypatch)
    me = Browser()
    return me, me.start().json()


def test_a_covered_tile_is_refused(game):
    me, run = game
    tile = first_blocked(run["id"], "covered")
    free = board_of(run["id"]).free_tiles()[0]
    answer = refused(me, run, {"a": free, "b": tile, "move": 0}, 400, "covered")
    assert answer["tile"] == tile
    assert answer["run"]["removed"] == []


def test_a_tile_held_on_both_sides_is_refused(game):
    me, run = game
    tile = first_blocked(run["id"], "sides")
    free = board_of(run["id"]).free_tiles()[0]
    answer = refused(me, run, {"a": tile, "b": free, "move": 0}, 400, "sides")
    assert answer["tile"] == tile


def test_a_mismatch_is_refused(game):
    me, run = game
    board = board_of(run["id"])
    free = board.free_tiles()
    a, b = next(
        (a, b) for a in free for b in free if board.groups[a] != board.groups[b]
    )
    refused(me, run, {"a": a, "b": b, "move": 0}, 400, "mismatch")


def test_an_unknown_tile_is_refused(game):
    me, run = game
    free = board_of(run["id"]).free_tiles()[0]
    answer = refused(me, run, {"a": free, "b": 999, "move": 0}, 400, "gone")
    assert answer["tile"] == 999


def test_a_tile_with_itself_is_refused(game):
    me, run = game
    free = board_of(run["id"]).free_tiles()[0]
    refused(me, run, {"a": free, "b": free, "move": 0}, 400, "same")


def test_a_taken_tile_cannot_be_taken_again(game):
    me, run = game
    first, second = Run.objects.get(public_id=run["id"]).witness[:2]
    run = me.take(run, *first).json()
    body = {"a": first[0], "b": second[0], "move": 1}
    answer = refused(me, run, body, 400, "gone")
    assert answer["tile"] == first[0]


def test_a_replayed_stale_move_is_a_conflict_with_the_current_run(game):
    me, run = game
    first, second = Run.objects.get(public_id=run["id"]).witness[:2]
    me.take(run, *first)
    body = {"a": second[0], "b": second[1], "move": 0}
    answer = refused(me, run, body, 409, "stale")
    assert answer["run"]["removed"] == [first]


def test_a_retried_take_is_answered_without_a_second_take(game):
    me, run = game
    first = Run.objects.get(public_id=run["id"]).witness[0]
    taken = me.take(run, *first).json()
    before = snapshot(run["id"])
    again = me.take(run, first[1], first[0], move=0)
    assert again.status_code == 200
    assert again.json() == taken
    assert snapshot(run["id"]) == before


def test_a_move_after_the_finish_is_refused(game):
    me, run = game
    won = play_through(me, run).json()
    assert won["status"] == "won"
    for action, body in [
        ("take", {"a": 0, "b": 1, "move": 16}),
        ("undo", {"move": 16}),
        ("hint", None),
        ("shuffle", None),
        ("pause", None),
        ("give-up", None),
    ]:
        before = snapshot(run["id"])
        response = me.act(run["id"], action, body)
        assert response.status_code == 409, action
        assert response.json()["error"] == "finished"
        assert response.json()["run"]["status"] == "won"
        assert snapshot(run["id"]) == before


def test_another_players_run_is_forbidden(game):
    me, run = game
    other = Browser()
    other.become_guest("Eve")
    first = Run.objects.get(public_id=run["id"]).witness[0]
    before = snapshot(run["id"])
    for action, body in [
        ("take", {"a": first[0], "b": first[1], "move": 0}),
        ("undo", {"move": 0}),
        ("hint", None),
        ("give-up", None),
        ("pause", None),
    ]:
        response = other.act(run["id"], action, body)
        assert response.status_code == 403, action
        assert response.json()["error"] == "forbidden"
        assert "run" not in response.json()
    assert other.get(run["id"]).status_code == 403
    assert snapshot(run["id"]) == before


def test_an_unknown_run_is_not_found(game):
    me, _ = game
    response = me.act("r_nope", "take", {"a": 0, "b": 1, "move": 0})
    assert response.status_code == 404
    assert me.get("r_nope").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"a": 0, "b": 1},
        {"a": "0", "b": 1, "move": 0},
        {"a": True, "b": 1, "move": 0},
        {"a": -1, "b": 1, "move": 0},
        {"a": 0.5, "b": 1, "move": 0},
        [0, 1, 0],
    ],
)
def test_a_malformed_body_is_refused_before_anything_happens(game, body):
    me, run = game
    before = snapshot(run["id"])
    response = me.act(run["id"], "take", body)
    assert response.status_code == 400
    assert response.json()["error"] == "bad_body"
    assert snapshot(run["id"]) == before


def test_a_body_that_is_not_json_is_refused(game):
    me, run = game
    response = me.client.post(
        f"/play/api/runs/{run['id']}/take",
        "a=1&b=2",
        content_type="application/json",
        headers={"X-CSRFToken": me.csrf},
    )
    assert response.status_code == 400
    assert response.json()["error"] == "bad_body"


def test_a_post_without_the_csrf_token_is_refused(game):
    me, run = game
    first = Run.objects.get(public_id=run["id"]).witness[0]
    before = snapshot(run["id"])
    body = {"a": first[0], "b": first[1], "move": 0}
    response = me.post(f"/play/api/runs/{run['id']}/take", body, csrf=False)
    assert response.status_code == 403
    assert snapshot(run["id"]) == before


def test_the_wrong_method_is_refused(game):
    me, run = game
    response = me.client.get(f"/play/api/runs/{run['id']}/take")
    assert response.status_code == 405
    assert response["Allow"] == "POST"
