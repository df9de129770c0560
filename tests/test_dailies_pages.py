"""The daily page: today's headline daily first, every published layout's
daily, the last 30 days; each links to the board page with its board key."""

from datetime import timedelta

import pytest

from dailies import days

pytestmark = pytest.mark.django_db


def test_the_daily_page_leads_with_the_tall_turtle(client):
    today = days.today().isoformat()
    page = client.get("/daily/").content.decode()
    first = page.index('data-board="')
    assert page[first:].startswith(f'data-board="daily:{today}:tall-turtle"')
    assert f"/play/tall-turtle/?board=daily%3A{today}%3Atall-turtle" in page
    assert f'data-board="daily:{today}:stupa"' in page


def test_the_last_30_days_are_listed_and_open(client):
    today = days.today()
    page = client.get("/daily/").content.decode()
    oldest = today - timedelta(days=29)
    assert f"/daily/{oldest.isoformat()}/" in page
    assert f"/daily/{(oldest - timedelta(days=1)).isoformat()}/" not in page
    older = client.get(f"/daily/{oldest.isoformat()}/")
    assert older.status_code == 200
    assert f'data-board="daily:{oldest.isoformat()}:tall-turtle"' in (
        older.content.decode()
    )


def test_day_31_and_tomorrow_are_not_found(client):
    today = days.today()
    for day in (today - timedelta(days=30), today + timedelta(days=1)):
        assert client.get(f"/daily/{day.isoformat()}/").status_code == 404
    assert client.get("/daily/yesterday/").status_code == 404
