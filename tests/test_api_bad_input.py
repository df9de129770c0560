"""Bodies no client of ours sends, of any size, get a JSON 400 and change
nothing (issue 24: a number of over 4,300 digits answered 500)."""

import pytest

from games.models import Run
from tests.run_helpers import Browser

pytestmark = pytest.mark.django_db

BODIES = {
    "a number of 5,000 digits": b'{"a": ' + b"7" * 5000 + b', "b": 1, "move": 0}',
    "a board key of 5,000 digits": b'{"board": ' + b"9" * 5000 + b"}",
    "arrays 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "3 MB of JSON": b'{"a": 0, "b": 1, "move": 0, "pad": "' + b"x" * 3_000_000 + b'"}',
    "bytes that are not UTF-8": b'{"a": "\xff\xfe"}',
}
ACTIONS = ["take", "undo", "hint", "shuffle", "restart", "give-up", "pause"]


@pytest.fixture
def game():
    me = Browser()
    run = me.start("free:small").json()
    return me, run


def raw_post(me: Browser, path: str, body: bytes):
    return me.client.post(
        path, body, content_type="application/json", headers={"X-CSRFToken": me.csrf}
    )


@pytest.mark.parametrize("name", BODIES)
def test_a_bad_body_of_any_size_is_a_json_400(game, name):
    me, run = game
    before = Run.objects.get(public_id=run["id"])
    paths = ["/play/api/runs"] + [f"/play/api/runs/{run['id']}/{a}" for a in ACTIONS]
    for path in paths:
        response = raw_post(me, path, BODIES[name])
        assert response.status_code == 400, (path, response.content[:200])
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"] in ("bad_body", "bad_request")
    after = Run.objects.get(public_id=run["id"])
    assert (after.moves, after.status, after.hints) == (
        before.moves,
        before.status,
        before.hints,
    )
    assert Run.objects.count() == 1


def test_unknown_api_addresses_answer_json(game):
    me, _ = game
    for path in ("/play/api/runs/nope/take", "/play/api/nothing", "/play/api/"):
        response = me.client.get(path)
        assert response.status_code == 404
        assert response.json()["error"] == "not_found"
