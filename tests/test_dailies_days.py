"""The daily's calendar: the day turns at midnight in DAILY_TIME_ZONE, and
today plus the 29 days before it are open; day 31 and the future are not."""

from datetime import UTC, date, datetime

import pytest

from dailies import days


@pytest.fixture
def kathmandu(settings):
    # UTC+05:45: midnight there is 18:15 UTC the day before.
    settings.DAILY_TIME_ZONE = "Asia/Kathmandu"


@pytest.mark.usefixtures("kathmandu")
def test_the_day_turns_at_midnight_in_kathmandu():
    assert days.today(datetime(2026, 11, 29, 18, 14, 59, tzinfo=UTC)) == date(
        2026, 11, 29
    )
    assert days.today(datetime(2026, 11, 29, 18, 15, 0, tzinfo=UTC)) == date(
        2026, 11, 30
    )


def test_in_utc_the_same_instant_is_still_the_day_before(settings):
    settings.DAILY_TIME_ZONE = "UTC"
    assert days.today(datetime(2026, 11, 29, 18, 15, tzinfo=UTC)) == date(2026, 11, 29)


def test_the_last_30_days_are_open_newest_first():
    today = date(2026, 11, 30)
    open_days = days.open_days(today)
    assert len(open_days) == 30
    assert open_days[0] == today and open_days[-1] == date(2026, 11, 1)
    for day in open_days:
        days.check_open(day, today)


def test_day_31_is_refused():
    with pytest.raises(days.DayNotOpen, match="closed"):
        days.check_open(date(2026, 10, 31), date(2026, 11, 30))


def test_tomorrow_is_refused():
    with pytest.raises(days.DayNotOpen, match="not out yet"):
        days.check_open(date(2026, 12, 1), date(2026, 11, 30))


def test_a_malformed_date_is_refused():
    with pytest.raises(days.DayNotOpen, match="not a date"):
        days.parse_day("2026-13-01")
