"""Provably fair dailies and levels: the commitment is there from the start,
the witness only once it may be shown, and what is shown checks out."""

import json
from datetime import date, timedelta

import pytest
from django.core.management import CommandError, call_command

from dailies import days
from dailies.deals import daily_row
from games.engine.board import Board
from games.engine.commitment import SEEDED_SCHEME, commitment
from games.engine.formats import position_from_json
from tests.run_helpers import Browser, play_through

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)


@pytest.fixture(autouse=True)
def today(monkeypatch):
    monkeypatch.setattr(days, "today", lambda now=None: TODAY)


def get(client, path):
    response = client.get(path)
    return response.status_code, (
        response.json() if response.status_code == 200 else None
    )


def replays(deal: dict) -> bool:
    """The solution taken pair by pair on a board of the deal's tiles."""
    position = position_from_json(deal)
    board: Board = position.board
    for a, b in deal["solution"]:
        board.take(position.index_of(a), position.index_of(b))
    return board.cleared


def test_a_future_day_is_not_shown(client):
    tomorrow = TODAY + timedelta(days=1)
    assert client.get(f"/daily/{tomorrow}/small.json").status_code == 404
    assert client.get("/daily/not-a-day/small.json").status_code == 404


def test_an_open_day_gives_the_deal_and_its_commitment_only(client):
    status, deal = get(client, f"/daily/{TODAY}/small.json")
    assert status == 200
    assert deal["format"] == "mahjong-deal/1" and len(deal["tiles"]) == 32
    assert not {"solution", "salt", "deal_seed"} & set(deal)
    assert deal["closed"] is False and deal["closes"] == "2026-12-31"
    assert deal["seed"] == str(TODAY)
    row = daily_row("small", TODAY)[0]
    assert deal["commitment"] == {"scheme": SEEDED_SCHEME, "sha256": row.commitment}
    assert len(row.deal_seed) == 64 and row.deal_seed not in json.dumps(deal)


def test_a_closed_day_reveals_what_was_committed_and_it_replays(client, monkeypatch):
    open_status, seen_open = get(client, f"/daily/{TODAY}/small.json")
    later = TODAY + timedelta(days=days.OPEN_DAYS)
    monkeypatch.setattr(days, "today", lambda now=None: later)
    status, closed = get(client, f"/daily/{TODAY}/small.json")
    assert status == 200 and closed["closed"] is True
    # The same deal and commitment as while it was open.
    assert closed["tiles"] == seen_open["tiles"]
    assert closed["commitment"] == seen_open["commitment"]
    digest = commitment(
        closed["tiles"], closed["solution"], closed["deal_seed"], SEEDED_SCHEME
    )
    assert digest == closed["commitment"]["sha256"]
    assert replays(closed)


def test_the_day_before_it_closes_is_still_secret(client, monkeypatch):
    get(client, f"/daily/{TODAY}/small.json")
    last = TODAY + timedelta(days=days.OPEN_DAYS - 1)
    monkeypatch.setattr(days, "today", lambda now=None: last)
    assert "solution" not in get(client, f"/daily/{TODAY}/small.json")[1]


def test_a_closed_day_never_dealt_has_nothing_to_show(client):
    old = TODAY - timedelta(days=days.OPEN_DAYS)
    assert client.get(f"/daily/{old}/small.json").status_code == 404
    assert client.get(f"/daily/{TODAY}/no-such-layout.json").status_code == 404


def test_a_level_shows_its_witness_only_to_a_player_who_cleared_it(monkeypatch):
    me = Browser()
    status, level = get(me.client, "/levels/1.json")
    assert status == 200 and level["level"] == 1
    assert "solution" not in level and len(level["commitment"]["sha256"]) == 64
    assert me.client.get("/levels/101.json").status_code == 404
    run = me.start("level:1").json()
    play_through(me, run)
    cleared = get(me.client, "/levels/1.json")[1]
    assert cleared["commitment"] == level["commitment"]
    assert (
        commitment(
            cleared["tiles"], cleared["solution"], cleared["deal_seed"], SEEDED_SCHEME
        )
        == (cleared["commitment"]["sha256"])
    )
    assert replays(cleared)
    # Someone else, who has not cleared it, still sees the commitment only.
    assert "solution" not in get(Browser().client, "/levels/1.json")[1]


def test_the_fair_page_says_how_to_check(client):
    page = client.get("/daily/fair/").content.decode()
    assert "sha256sum" in page and "manage.py verify" in page


def closed_file(client, monkeypatch, tmp_path) -> tuple[dict, object]:
    get(client, f"/daily/{TODAY}/small.json")
    later = TODAY + timedelta(days=days.OPEN_DAYS)
    monkeypatch.setattr(days, "today", lambda now=None: later)
    deal = get(client, f"/daily/{TODAY}/small.json")[1]
    return deal, tmp_path / "deal.json"


def test_verify_checks_a_revealed_deal(client, monkeypatch, tmp_path, capsys):
    deal, path = closed_file(client, monkeypatch, tmp_path)
    path.write_text(json.dumps(deal))
    call_command("verify", str(path))
    out = capsys.readouterr().out
    assert "commitment matches" in out and "clears the deal in 16 pairs" in out
    assert "the deal seed deals these tiles and this solution" in out


@pytest.mark.parametrize(
    "tamper, message",
    [
        (lambda d: d.update(deal_seed="0" * 64), "does not match"),
        (lambda d: d["solution"].reverse(), "does not match"),
        (lambda d: d["tiles"][0].update(face="dots-9"), "does not match"),
    ],
)
def test_verify_refuses_a_deal_changed_after_the_fact(
    client, monkeypatch, tmp_path, tamper, message
):
    deal, path = closed_file(client, monkeypatch, tmp_path)
    tamper(deal)
    path.write_text(json.dumps(deal))
    with pytest.raises(CommandError, match=message):
        call_command("verify", str(path))


def test_verify_catches_a_solution_that_does_not_clear(client, monkeypatch, tmp_path):
    deal, path = closed_file(client, monkeypatch, tmp_path)
    deal["solution"].reverse()
    deal["commitment"]["sha256"] = commitment(
        deal["tiles"], deal["solution"], deal["deal_seed"], SEEDED_SCHEME
    )
    path.write_text(json.dumps(deal))
    with pytest.raises(CommandError, match="solution step"):
        call_command("verify", str(path))
