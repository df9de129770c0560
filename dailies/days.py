"""Which day it is for the daily deal, and which days are open.

The day turns at midnight in settings.DAILY_TIME_ZONE (not the server's zone,
not the player's), so everybody shares one calendar of deals.
"""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

# Today and the 29 days before it can be played; no streaks, so a missed day
# is simply played later.
OPEN_DAYS = 30
# Deals are made, and their commitments published, this many days ahead.
COMMITTED_AHEAD = 7


class DayNotOpen(LookupError):
    pass


def today(now: datetime | None = None) -> date:
    """The daily's date at `now` (default: the current time)."""
    zone = ZoneInfo(settings.DAILY_TIME_ZONE)
    return timezone.localtime(now or timezone.now(), zone).date()


def open_days(today: date) -> list[date]:
    """The days that can be played, newest first."""
    return [today - timedelta(days=k) for k in range(OPEN_DAYS)]


def check_open(day: date, today: date) -> None:
    """Raise DayNotOpen unless `day` is one of the open days."""
    if day > today:
        raise DayNotOpen(f"the daily for {day} is not out yet")
    if day <= today - timedelta(days=OPEN_DAYS):
        raise DayNotOpen(
            f"the daily for {day} has closed: only the last {OPEN_DAYS} days "
            "can be played"
        )


def closes(day: date) -> date:
    """The first day on which `day`'s daily is no longer open."""
    return day + timedelta(days=OPEN_DAYS)


def closes_at(day: date) -> datetime:
    """The moment `day`'s daily closes: midnight starting `closes(day)`."""
    zone = ZoneInfo(settings.DAILY_TIME_ZONE)
    return datetime.combine(closes(day), time(), zone)


def committed_days(today: date) -> list[date]:
    """Today and the days whose commitments are already published."""
    return [today + timedelta(days=k) for k in range(COMMITTED_AHEAD + 1)]


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise DayNotOpen(f"{text!r} is not a date (YYYY-MM-DD)") from None
