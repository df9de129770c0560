"""Daily deals: one stored board per layout and day, the same for everyone,
made once (by the task or on first request) and never regenerated."""

import json
from collections import Counter
from datetime import timedelta

import pytest
from django.core.management import call_command

from dailies import days
from dailies.deals import HEADLINE_LAYOUT, daily_deal, daily_row
from dailies.keys import daily_key
from dailies.models import DailyDeal
from dailies.tasks import prepare_dailies
from games import boards
from games.engine.faces import full_set
from games.models import Layout
from games.proofs import replay_error
from tests.run_helpers import Browser, FakeClock

pytestmark = pytest.mark.django_db


def test_a_daily_is_the_same_deal_on_two_calls_and_stored_once():
    day = days.today()
    first = daily_deal("small", day)
    second = daily_deal("small", day)
    assert first == second
    assert first.seed == day.isoformat()
    assert DailyDeal.objects.count() == 1
    assert replay_error(first.layout, first.faces, first.solution) is None


def test_two_days_give_two_different_deals():
    day = days.today()
    assert (
        daily_deal("small", day).faces
        != daily_deal("small", day - timedelta(days=1)).faces
    )


def test_the_headline_daily_is_the_tall_turtle_with_the_full_set():
    deal = daily_deal(HEADLINE_LAYOUT, days.today())
    assert len(deal.faces) == 144 and deal.layout.levels == 5
    assert Counter(deal.faces) == Counter(full_set())


def test_a_stored_daily_survives_a_change_to_its_layout():
    day = days.today()
    before = daily_deal("small", day)
    # The admin redraws "small": the stored daily keeps its own positions.
    row = [[2 * k, 0, 0] for k in range(8)]
    Layout.objects.create(
        name="Small",
        slug="small",
        positions=row,
        published=True,
        status=Layout.Status.VERIFIED,
        witness=[[0, 1]],
    )
    assert daily_deal("small", day) == before


def test_the_deal_command_prints_the_stored_daily_identically_twice(capsys):
    day = days.today().isoformat()
    call_command("deal", "stupa", "--daily", day)
    once = capsys.readouterr().out
    call_command("deal", "stupa", "--daily", day)
    assert capsys.readouterr().out == once
    deal = json.loads(once)
    assert deal["format"] == "mahjong-deal/1"
    assert deal["layout"] == "stupa" and deal["seed"] == day
    assert len(deal["tiles"]) == 60
    assert DailyDeal.objects.get().faces == [t["face"] for t in deal["tiles"]]


def test_the_board_key_plays_today_and_the_last_30_days_only():
    today = days.today()
    for back in (0, 29):
        mode, deal = boards.deal_for(daily_key(today - timedelta(days=back), "small"))
        assert mode.name == "daily" and not mode.can_shuffle
    with pytest.raises(boards.UnknownBoard, match="closed"):
        boards.deal_for(daily_key(today - timedelta(days=30), "small"))
    with pytest.raises(boards.UnknownBoard, match="not out yet"):
        boards.deal_for(daily_key(today + timedelta(days=1), "small"))
    with pytest.raises(boards.UnknownBoard, match="layout"):
        boards.deal_for(f"daily:{today.isoformat()}:no-such-layout")


def test_the_api_refuses_a_closed_daily_with_a_clear_error(monkeypatch):
    FakeClock(monkeypatch)
    old = days.today() - timedelta(days=30)
    response = Browser().start(daily_key(old, "small"))
    assert response.status_code == 404
    assert "closed" in response.json()["message"]


def test_a_daily_run_and_a_level_run_keep_separate_slots(monkeypatch):
    """Both can be in progress at once; starting one never ends the other."""
    FakeClock(monkeypatch)
    me = Browser()
    daily = me.start(daily_key(days.today(), "small")).json()
    level = me.start("level:1").json()
    assert daily["id"] != level["id"]
    assert daily["can_shuffle"] is False and level["can_shuffle"] is False
    assert me.start(daily_key(days.today(), "small")).json()["id"] == daily["id"]
    assert me.get(level["id"]).json()["status"] == "playing"


def test_prepare_dailies_is_idempotent_and_verifies():
    first = prepare_dailies.apply(kwargs={"days_ahead": 1}).get()
    assert first["unverified"] == 0
    rows = {(r.layout_slug, r.date): r.faces for r in DailyDeal.objects.all()}
    assert first["made"] == len(rows) == 2 * len({slug for slug, _ in rows})
    assert all(DailyDeal.objects.values_list("verified", flat=True))
    again = prepare_dailies.apply(kwargs={"days_ahead": 1}).get()
    assert again["made"] == 0
    assert {(r.layout_slug, r.date): r.faces for r in DailyDeal.objects.all()} == rows


def test_a_second_maker_reads_the_first_ones_row():
    day = days.today()
    row, made = daily_row("small", day)
    again, made_again = daily_row("small", day)
    assert made and not made_again and again.pk == row.pk
